"""The Dyer signatures stored in `game.signature` (verifier/keys/signature.py, docs/patterns.md): the games with a given
signature in any symmetry. (The same game stored twice is found on its moves: archive/patterns/same_game.py.)"""

from __future__ import annotations

from sqlalchemy import Engine, select
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


__all__ = ["games_by_signature"]
