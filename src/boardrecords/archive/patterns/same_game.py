"""The same game stored twice, decided on its moves (docs/patterns.md, "The same game, once"): which records are one
game (the same line, or one the beginning of the other), the groups `records duplicates` lists with the copy to
keep, and the stored records an import's new ones are near-duplicates of.

Records meet on `game.head_hash` (archive/core/line_keys.py): only those that share a head are compared, move by
move. Two records are one game when

- their main lines are the same, or one is the beginning of the other (of at least HEAD_MOVES moves), move for move
  in the canonical symmetry, from the same setup stones (both in the keys), in the same game and on the same board;
- their declared results do not name different winners (a draw counts as one);
- they share at least ANY_PLAYERS moves, or both name the same Black and the same White (normalised as search
  normalises names): a short line is too common to be one game between other players.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, func, select
from sqlmodel import col

from ..core.line_keys import HEAD_MOVES, canonical, line_tokens
from ..core.models import GameRow

ANY_PLAYERS = 60  # moves shared from which the players need not match (a server's handles, a tournament's names)
SAME_GAME = "same-game"  # the same line (in a group of `records duplicates`: and the same players and format)
SAME_MOVES = "same-moves"  # a group of one line under other players' names or in other file formats
BEGINNING = "beginning"  # the record is the beginning of the other
LONGER = "longer"  # the other is the beginning of the record
# The header fields counted when two copies hold as many moves and both or neither a result (the keep rule).
HEADER_FIELDS = ("black", "white", "black_rank", "white_rank", "event", "round", "date_raw", "place", "name",
                 "komi", "handicap", "rules")
_COLUMNS = ("id", "sha256", "game", "size", "line_hash", "head_hash", "move_count", "black_norm", "white_norm",
            "result_winner", "result_method", "result_canonical", *HEADER_FIELDS, "moves")


# The key under which a game row's values (archive/store/record_rows.py, `archive_rows`) carry the main line in its
# canonical symmetry, tokens joined by `;`, as the keys were taken from it (not a column).
CANONICAL_LINE = "_line"


@dataclass(slots=True)
class Line:
    """What sameness reads of one record: a stored row (`id`) or a record an import is about to store (`where`)."""

    id: int | None
    where: str
    sha256: str
    game: str
    size: int | None
    line_hash: int | None
    head_hash: int | None
    moves: str
    black: str | None  # normalised
    white: str | None
    outcome: str | None  # B, W, draw, or None when the record declares none
    has_result: bool
    fields: int  # header fields given
    _tokens: list[str] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, values: dict[str, Any], where: str = "") -> Line:
        """From a game row's values (a stored row's columns, or the import's row dict)."""
        method = values.get("result_method")
        winner = values.get("result_winner")
        return cls(values.get("id"), where or f"#{values.get('id')}", values["sha256"], values["game"],
                   values["size"], values.get("line_hash"), values.get("head_hash"), values.get("moves") or "",
                   values.get("black_norm"), values.get("white_norm"),
                   winner if winner is not None else ("draw" if method == "draw" else None),
                   values.get("result_canonical") is not None,
                   sum(values.get(name) not in (None, "") for name in HEADER_FIELDS),
                   _given_line(values.get(CANONICAL_LINE)))

    @property
    def tokens(self) -> list[str]:
        """The main line in its canonical symmetry, one token per move."""
        if self._tokens is None:
            self._tokens = canonical(line_tokens(self.moves), self.game, self.size)[0]
        return self._tokens

    def holds(self) -> tuple[int, bool, int, int]:
        """What the keep rule orders by, most first: the longest line, then a result, then more header fields, then
        the oldest record."""
        return (len(self.tokens), self.has_result, self.fields, -(self.id or 0))


def _given_line(text: str | None) -> list[str] | None:
    """The canonical line a worker sent (None: not sent; computed from the moves when needed)."""
    if text is None:
        return None
    return text.split(";") if text else []


def named_alike(a: Line, b: Line) -> bool:
    """Both records name the same Black and the same White."""
    return bool(a.black and a.white) and (a.black, a.white) == (b.black, b.white)


def agree(a: Line, b: Line) -> bool:
    """Whether two records whose lines are one (the same, or one the other's beginning) can be one game: results
    that do not name different winners, and the same players unless they share ANY_PLAYERS moves."""
    if a.outcome is not None and b.outcome is not None and a.outcome != b.outcome:
        return False
    shared = min(len(a.tokens), len(b.tokens))
    return shared >= ANY_PLAYERS or named_alike(a, b)


def relation(record: Line, other: Line) -> str | None:
    """How `record` is `other`: SAME_GAME, BEGINNING (record is other's beginning), LONGER (other is record's),
    or None when they are not one game."""
    if record.head_hash is None or record.head_hash != other.head_hash or record.game != other.game \
            or record.size != other.size:
        return None
    mine, theirs = record.tokens, other.tokens
    if len(mine) == len(theirs):
        kind = SAME_GAME if record.line_hash == other.line_hash and mine == theirs else None
    elif len(mine) < len(theirs):
        kind = BEGINNING if len(mine) >= HEAD_MOVES and theirs[:len(mine)] == mine else None
    else:
        kind = LONGER if len(theirs) >= HEAD_MOVES and mine[:len(theirs)] == theirs else None
    return kind if kind is not None and agree(record, other) else None


def gather(lines: Iterable[Line]) -> list[list[Line]]:
    """The groups of one game among `lines` (each a list with the copy to keep first, then by id), every group
    of at least two records. Each group is one line and beginnings of it, and every two records of a group are one
    game: a record is taken into the first group (the one holding most) whose every record it is one game with."""
    heads: dict[int, list[Line]] = {}
    for line in lines:
        if line.head_hash is not None:
            heads.setdefault(line.head_hash, []).append(line)
    found: list[list[Line]] = []
    for members in heads.values():
        if len(members) < 2:
            continue
        groups: list[list[Line]] = []
        for line in sorted(members, key=Line.holds, reverse=True):
            for group in groups:
                if all(relation(line, other) in (SAME_GAME, BEGINNING) for other in group):
                    group.append(line)
                    break
            else:
                groups.append([line])
        found.extend([g[0], *sorted(g[1:], key=lambda x: x.id or 0)] for g in groups if len(g) > 1)
    return sorted(found, key=lambda g: min(x.id or 0 for x in g))


def group_kind(group: Sequence[Line], formats: Sequence[str]) -> str:
    """What a group of `gather` is: BEGINNING when one of its records is shorter than the one to keep (first),
    else SAME_GAME when every record names the same players and is in the same file format (`formats`, one per
    record), else SAME_MOVES."""
    if any(len(line.tokens) < len(group[0].tokens) for line in group):
        return BEGINNING
    if len({(line.black, line.white) for line in group}) == 1 and len(set(formats)) == 1:
        return SAME_GAME
    return SAME_MOVES


def _rows(conn: Connection, where: Any) -> Iterator[Line]:
    g = GameRow
    stmt = select(*(getattr(g, name) for name in _COLUMNS)).where(where).order_by(col(g.id))
    for row in conn.execute(stmt):
        yield Line.of(dict(zip(_COLUMNS, row, strict=True)))


def same_game_groups(engine: Engine) -> list[list[Line]]:
    """Every group of one game stored more than once (`gather`), by their first id: read from the records that
    share a head with another."""
    g = GameRow
    shared = (select(col(g.head_hash)).where(col(g.head_hash).is_not(None)).group_by(col(g.head_hash))
              .having(func.count() > 1))
    with engine.connect() as conn:
        return gather(_rows(conn, col(g.head_hash).in_(shared)))


def unkeyed(engine: Engine) -> int:
    """Records with moves but no keys: stored before the keys were, until `records reindex` makes them."""
    g = GameRow
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).where(col(g.head_hash).is_(None), col(g.move_count) > 0))
                   .scalar() or 0)


def stored_lines(conn: Connection, heads: Sequence[int]) -> list[Line]:
    """The stored records that share one of `heads`, inside the caller's connection, by id."""
    wanted = sorted(set(heads))
    out: list[Line] = []
    for i in range(0, len(wanted), 500):
        out.extend(_rows(conn, col(GameRow.head_hash).in_(wanted[i:i + 500])))
    return sorted(out, key=lambda x: x.id or 0)


def first_match(record: Line, others: Iterable[Line]) -> tuple[str, Line] | None:
    """The record `record` is one game with, and how, or None: SAME_GAME before BEGINNING before LONGER, and of
    one kind the one that holds most (`Line.holds`: the longest line, then a result...)."""
    order = (SAME_GAME, BEGINNING, LONGER)
    found = [(order.index(kind), other) for other in others if (kind := relation(record, other)) is not None]
    if not found:
        return None
    rank, other = min(found, key=lambda f: (f[0], tuple(-v for v in f[1].holds())))
    return order[rank], other


__all__ = ["ANY_PLAYERS", "BEGINNING", "CANONICAL_LINE", "HEADER_FIELDS", "LONGER", "SAME_GAME", "SAME_MOVES", "Line",
           "agree", "first_match", "gather", "group_kind", "relation", "same_game_groups", "stored_lines", "unkeyed"]
