"""`records stats`: per game (records, share that passes, results by method, win rates, the pie swap) and per player.

Win rates count the records whose verdict names a winner. The first player is the one who started with Black (PB);
after a pie swap that player holds White (rules README, "The pie swap"). The swapper is the player who took the
swap, and holds the other colour than the swap move's label afterwards.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, SQLColumnExpression, and_, case, func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from ...verifier.judging.status import VerdictClass
from .models import GameRow
from .names import load_identities, normalise_name
from .search import Filters, conditions, name_plan


@dataclass(slots=True)
class GameStats:
    game: str
    records: int = 0
    passed: int = 0  # records whose verdict is `pass`
    decided: int = 0  # records whose verdict names a winner
    black_wins: int = 0
    white_wins: int = 0
    first_player_wins: int = 0
    swaps: int = 0
    swapper_decided: int = 0
    swapper_wins: int = 0
    methods: dict[str, int] = field(default_factory=dict)  # declared results by method

    @staticmethod
    def _share(part: int, whole: int) -> float | None:
        return round(part / whole, 4) if whole else None

    @property
    def pass_share(self) -> float | None:
        return self._share(self.passed, self.records)

    @property
    def black_rate(self) -> float | None:
        return self._share(self.black_wins, self.decided)

    @property
    def white_rate(self) -> float | None:
        return self._share(self.white_wins, self.decided)

    @property
    def first_player_rate(self) -> float | None:
        return self._share(self.first_player_wins, self.decided)

    @property
    def swap_rate(self) -> float | None:
        return self._share(self.swaps, self.records)

    @property
    def swapper_rate(self) -> float | None:
        return self._share(self.swapper_wins, self.swapper_decided)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for name in ("pass_share", "black_rate", "white_rate", "first_player_rate", "swap_rate", "swapper_rate"):
            out[name] = getattr(self, name)
        return out


@dataclass(slots=True)
class PlayerStats:
    name: str  # as written (one of its spellings)
    games: int
    wins: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "wins": self.wins}


def _count(cond: ColumnElement[bool]) -> ColumnElement[int]:
    return func.sum(case((cond, 1), else_=0))


def game_stats(session: Session, filters: Filters | None = None) -> list[GameStats]:
    g = GameRow
    where = conditions(filters, **name_plan(session, filters)) if filters else []
    winner = col(g.winner_colour)
    swapped = col(g.swapped)
    # What `select` makes for several columns (SQLModel types it for at most four): the game and its counts (a SUM
    # over no rows is NULL).
    counts: Select[str, *tuple[int | None, ...]] = Select(
        col(g.game),
        func.count(),
        _count(col(g.verdict) == VerdictClass.PASS.value),
        _count(winner.is_not(None)),
        _count(winner == "B"),
        _count(winner == "W"),
        _count(or_first_player(winner, swapped)),
        _count(swapped.is_(True)),
        _count(and_(swapped.is_(True), winner.is_not(None))),
        _count(and_(swapped.is_(True), winner == col(g.swapper_colour))),
    )
    stmt = counts.where(*where).group_by(col(g.game)).order_by(col(g.game))
    out: dict[str, GameStats] = {}
    for row in session.exec(stmt):
        name, *numbers = row
        (records, passed, decided, black_wins, white_wins, first_player_wins, swaps, swapper_decided,
         swapper_wins) = (int(n or 0) for n in numbers)
        out[name] = GameStats(name, records, passed, decided, black_wins, white_wins, first_player_wins, swaps,
                              swapper_decided, swapper_wins)
    methods = (
        select(col(g.game), col(g.result_method), func.count())
        .where(*where)
        .group_by(col(g.game), col(g.result_method))
    )
    for name, method, n in session.exec(methods):
        out[name].methods[method] = int(n)
    return list(out.values())


def or_first_player(winner: SQLColumnExpression[Any], swapped: SQLColumnExpression[Any]) -> ColumnElement[bool]:
    """The first player (PB) won: Black won without a swap, or White won after one."""
    return ((winner == "B") & swapped.is_(False)) | ((winner == "W") & swapped.is_(True))


def player_stats(session: Session, filters: Filters | None = None, *, limit: int = 20) -> list[PlayerStats]:
    """The players with the most records (either colour), with their wins; one player per identity (case, spacing,
    punctuation and aliases: archive/core/names.py), shown by its most frequent spelling."""
    g = GameRow
    where = conditions(filters, **name_plan(session, filters)) if filters else []
    stmt = (
        sa_select(col(g.black_norm), col(g.white_norm), col(g.winner_norm), func.min(col(g.black)),
                  func.min(col(g.white)), func.count())
        .where(*where)
        .group_by(col(g.black_norm), col(g.white_norm), col(g.winner_norm))
    )
    ids = load_identities(session)
    merged: dict[str, list[Any]] = {}  # key -> [games, wins, {spelling: games}]
    for black_norm, white_norm, winner, black, white, n in session.execute(stmt):
        kb, kw = ids.key(black_norm), ids.key(white_norm)
        winner_key = ids.key(winner) if winner is not None and kb != kw else None  # GEN-8: self-play wins nothing
        for side, key, name in ((0, kb, black), (1, kw, white)):
            if key is None:
                continue
            entry = merged.setdefault(key, [0, 0, {}])
            if side == 0 or kb != kw:  # self-play: one game for that player
                entry[0] += int(n)
            if winner_key == key:
                entry[1] += int(n)
            entry[2][name] = entry[2].get(name, 0) + int(n)
    out = [PlayerStats(ids.names.get(k) or min(e[2].items(), key=lambda kv: (-kv[1], kv[0]))[0], e[0], e[1])
           for k, e in merged.items()]
    out.sort(key=lambda p: (-p.games, normalise_name(p.name) or ""))
    return out[:limit] if limit > 0 else out
