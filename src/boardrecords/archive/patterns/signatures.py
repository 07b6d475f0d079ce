"""The Dyer signatures stored in `game.signature` (verifier/keys/signature.py, docs/patterns.md): the games with a given
signature in any symmetry, and the groups of likely duplicates (one signature, one size, the same players)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Engine, func, select
from sqlmodel import col

from ...verifier.keys.signature import signature_forms
from ..core.models import GameRow

SIZES = range(2, 27)


def games_by_signature(engine: Engine, signature: str, size: int | None = None) -> list[int]:
    """The ids of the games whose signature is `signature` written in any symmetry of their board (of `size`, or
    of any size its points fit), newest first. Raises ValueError for a text that is no signature."""
    sizes = [size] if size is not None else list(SIZES)
    ids: set[int] = set()
    error: ValueError | None = None
    with engine.connect() as conn:
        for s in sizes:
            try:
                forms = signature_forms(signature, s)
            except ValueError as exc:
                error = exc
                continue
            stmt = select(col(GameRow.id)).where(col(GameRow.signature).in_(sorted(forms)), col(GameRow.size) == s)
            ids.update(i for i in conn.scalars(stmt) if i is not None)
    if error is not None and size is not None:
        raise error
    if error is not None and not ids and len(signature.strip()) != 12:
        raise error
    return sorted(ids, reverse=True)



def duplicate_groups(engine: Engine, ids: Sequence[int] | None = None) -> list[list[int]]:
    """Groups (ids, oldest first) of games with one signature, size and game and the same players (as normalised
    for search, Black and White as written at the start); only the groups holding one of `ids` when given. Ordered
    by their first id."""
    g = GameRow
    key = (col(g.signature), col(g.game), col(g.size), col(g.black_norm), col(g.white_norm))
    shared = (select(*key).where(col(g.signature).is_not(None)).group_by(*key)
              .having(func.count() > 1).subquery())
    stmt = (select(col(g.id), *key).join(shared, (shared.c.signature == col(g.signature))
                                         & (shared.c.game == col(g.game)) & (shared.c.size == col(g.size))
                                         & (shared.c.black_norm.is_not_distinct_from(col(g.black_norm)))
                                         & (shared.c.white_norm.is_not_distinct_from(col(g.white_norm))))
            .order_by(col(g.id)))
    groups: dict[tuple[object, ...], list[int]] = {}
    with engine.connect() as conn:
        for gid, *rest in conn.execute(stmt):
            groups.setdefault(tuple(rest), []).append(gid or 0)
    wanted = None if ids is None else set(ids)
    out = [ids_ for ids_ in groups.values() if wanted is None or wanted & set(ids_)]
    return sorted(out, key=lambda grp: grp[0])


DuplicateKey = tuple[str, str, int | None, str | None, str | None]  # signature, game, size, Black, White


def duplicate_key(game: dict[str, Any]) -> DuplicateKey | None:
    """What a likely duplicate shares, from a game row's values; None for a game without a signature."""
    if not game.get("signature"):
        return None
    return (game["signature"], game["game"], game["size"], game.get("black_norm"), game.get("white_norm"))


def stored_matches(conn: Connection, keys: Sequence[DuplicateKey]) -> dict[DuplicateKey, dict[str, int]]:
    """The stored games (sha256 -> id) of each key that has some, inside the caller's connection."""
    g = GameRow
    out: dict[DuplicateKey, dict[str, int]] = {}
    wanted = set(keys)
    signatures = sorted({k[0] for k in wanted})
    for i in range(0, len(signatures), 500):
        stmt = (select(col(g.id), col(g.sha256), col(g.signature), col(g.game), col(g.size), col(g.black_norm),
                       col(g.white_norm)).where(col(g.signature).in_(signatures[i:i + 500])).order_by(col(g.id)))
        for gid, sha, *rest in conn.execute(stmt):
            key = (rest[0], rest[1], rest[2], rest[3], rest[4])
            if key in wanted and gid is not None:
                out.setdefault(key, {}).setdefault(sha, gid)
    return out


__all__ = ["DuplicateKey", "duplicate_groups", "duplicate_key", "games_by_signature", "stored_matches"]
