"""The two questions the position index answers: what was played from a position and how it went (`explore`,
`openings`), and which games reached it (`games_at`, `count_at`). The index's rows are made by the import's workers
(archive/positions/values.py) and written through the stage (archive/positions/stage.py); a question reads the stage
beside the index while an import has rows pending, so that every stored game is counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Engine, Table, and_, case, func, select, union_all
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session

from ..core.filters import Filters, date_bound
from ..core.models import (
    AliasRow,
    GameRow,
    PositionCountRow,
    PositionGameRow,
    PositionRow,
    PositionStageRow,
)
from ..core.numbers import any_numbers
from ..core.rows import games_by_id
from ..core.search import conditions, query_plan
from .counts import COUNT_COLUMNS
from .stage import has_game_index, has_pending
from .values import (
    DRAW,
    MOVER_WON,
    OPENING_PLY,
    SWAPPED,
    SWAPPER_WON,
    WON_B,
    WON_W,
    day_number,
)


def _table() -> Table:
    return PositionRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it


@dataclass(slots=True)
class Continuation:
    move: str  # in the index's frame (the caller turns it into the asker's)
    games: int = 0
    black_wins: int = 0
    white_wins: int = 0
    draws: int = 0
    mover_wins: int = 0
    swapped: int = 0
    swapper_wins: int = 0
    last_day: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def last_played(self) -> str | None:
        d = self.last_day
        return f"{d // 10000:04d}-{d // 100 % 100:02d}-{d % 100:02d}" if d else None


def _rows(engine: Engine, name: str = "position") -> Any:
    """The position rows a question reads: the index, and beside it the rows an import or a reindex has staged
    and not merged yet (it is running, or was interrupted), so that every stored game is counted once: a game's
    staged rows stand for all of its rows (a game staged again by a reindex keeps its indexed rows until the merge).
    The stage has no index on the key: it is read whole, which only the questions asked while rows are pending
    pay."""
    p = _table()
    if not has_pending(engine):
        return p.alias(name) if name != "position" else p
    stage: Table = PositionStageRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
    names = ("key", "game_id", "ply", "next", "outcome", "day")
    again = select(stage.c.game_id).where(stage.c.game_id == p.c.game_id).exists()
    return union_all(select(*(p.c[n] for n in names)).where(~again),
                     select(*(stage.c[n] for n in names))).subquery(name)


def _filtered(stmt: Any, f: Filters, engine: Engine, p: Any) -> Any:
    """`stmt` (on the position rows `p`) kept to the games `f` selects, with `records search`'s conditions and plan
    (names through their aliases, the longest date range stored)."""
    if f.empty:
        return stmt
    g: Table = GameRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
    with Session(engine) as session:
        # The spellings of a player are looked up (a read of every stored name) only when aliases exist: without
        # them a name matches its normalised form, as `conditions` writes it anyway.
        aliased = session.connection().execute(select(func.count()).select_from(
            AliasRow.__table__)).scalar() or any_numbers(session.connection())  # type: ignore[attr-defined]
        plan = query_plan(session, replace(f, player=None, black=None, white=None, winner=None)) if not aliased else (
            query_plan(session, f))
    plan = {k: v for k, v in plan.items() if k in ("dialect", "same", "max_span")}  # common/rare serve
    # `ORDER BY id LIMIT n`; a set of games wants every index it can use
    dates_only = replace(f, date_from=None, date_to=None).empty
    if dates_only and not plan.get("max_span"):
        # Every stored date is one day, and the row holds it (`day`): the rows answer alone, no game is read.
        if f.date_from:
            stmt = stmt.where(p.c.day >= day_number(date_bound(f.date_from, end=False)))
        if f.date_to:
            stmt = stmt.where(p.c.day <= day_number(date_bound(f.date_to, end=True)))
        return stmt
    # The games as a set (`IN (SELECT id ...)`), not a join: the filter's own indexes find them once, then each of
    # the position's rows costs a look-up in that set, instead of the game row read and the conditions tested for
    # every row of the position.
    return stmt.where(p.c.game_id.in_(select(g.c.id).where(*conditions(f, **plan))))


def _sum(cond: ColumnElement[bool]) -> Any:
    return func.sum(case((cond, 1), else_=0))


def explore(engine: Engine, key: int, f: Filters, *, ply: int | None = None) -> tuple[int, list[Continuation]]:
    """(games that reached the position, each continuation with its counts), most played first.

    `ply` keeps only positions reached at that move number (the refined-pie openings of Conversion Go).
    """
    f = replace(f, game=None, size=None)  # the key holds them
    p = _rows(engine)
    if f.empty and ply is None and p is _table():
        counted = _explore_counts(engine, key)
        if counted is not None:
            return counted
    o = p.c.outcome
    res = o.op("&")(3)
    stmt = select(p.c.next, func.count(), _sum(res == WON_B), _sum(res == WON_W), _sum(res == DRAW),
                  _sum(o.op("&")(MOVER_WON) != 0), _sum(o.op("&")(SWAPPED) != 0),
                  _sum(o.op("&")(SWAPPER_WON) != 0), func.max(p.c.day)).where(p.c.key == key)
    if ply is not None:
        stmt = stmt.where(p.c.ply == ply)
    stmt = _filtered(stmt, f, engine, p).group_by(p.c.next)
    out = []
    total = 0
    with engine.connect() as conn:
        for nxt, n, bw, ww, dr, mw, sw, sww, day in conn.execute(stmt):
            total += n
            if nxt is None:
                continue  # games that ended here
            out.append(Continuation(nxt, n, bw or 0, ww or 0, dr or 0, mw or 0, sw or 0, sww or 0, day))
    out.sort(key=lambda c: (-c.games, c.move))
    return total, out


def _explore_counts(engine: Engine, key: int) -> tuple[int, list[Continuation]] | None:
    """The position's continuations from the counts table; None when it is not counted (reached by fewer than
    COUNTED_AT rows, or never)."""
    c: Table = PositionCountRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
    stmt = select(c.c.next, *(c.c[n] for n in COUNT_COLUMNS), c.c.last_day).where(c.c.key == key)
    out = []
    total = 0
    with engine.connect() as conn:
        for row in conn.execute(stmt):
            nxt, n, bw, ww, dr, mw, sw, sww, day = tuple(row)
            total += n
            if nxt:
                out.append(Continuation(nxt, n, bw, ww, dr, mw, sw, sww, day))
    if not total:
        return None
    out.sort(key=lambda x: (-x.games, x.move))
    return total, out


@dataclass(slots=True)
class Opening:
    """A position reached after the opening turns (Conversion Go's refined pie: turns 1-3), with what came of it.

    `second_wins` counts the games the player of the next turn (the one who may swap) won; `game_id` names a game
    that played it (its stones are read from there)."""

    key: int
    game_id: int
    games: int = 0
    swapped: int = 0
    black_wins: int = 0
    white_wins: int = 0
    draws: int = 0
    second_wins: int = 0
    swapper_wins: int = 0
    last_day: int | None = None

    @property
    def first_wins(self) -> int:
        return self.black_wins + self.white_wins - self.second_wins

    @property
    def last_played(self) -> str | None:
        d = self.last_day
        return f"{d // 10000:04d}-{d // 100 % 100:02d}-{d % 100:02d}" if d else None


def openings(engine: Engine, start: int, f: Filters, *, ply: int) -> list[Opening]:
    """Every position reached after `ply` moves (OPENING_PLY, the one the index keeps per game) by the games that
    started at the position `start`, most played first: games, how many of them swapped on the next move, the
    results. The index alone answers it (the start's rows give the games, `position_game` their key at `ply`, a
    seek each to its row), the game table joined only when filtered."""
    if ply != OPENING_PLY:
        raise ValueError(f"the position index keeps each game's position after move {OPENING_PLY}, not {ply}")
    p0 = _rows(engine, "p0")
    p = _rows(engine)
    o = p.c.outcome
    res = o.op("&")(3)
    swap = p.c.next.like("%[swap-sides]")
    mover_won = o.op("&")(MOVER_WON) != 0
    stmt = select(p.c.key, func.min(p.c.game_id), func.count(), _sum(swap), _sum(res == WON_B), _sum(res == WON_W),
                  _sum(res == DRAW), _sum(mover_won), _sum(and_(swap, mover_won)), func.max(p.c.day))
    if p is _table() and not has_game_index(engine):
        g: Table = PositionGameRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
        stmt = (stmt.select_from(p0).join(g, g.c.game_id == p0.c.game_id)
                .join(p, and_(p.c.key == g.c.opening, p.c.game_id == g.c.game_id, p.c.ply == ply)))
    else:  # rows pending (read whole anyway), or an archive of the older layout (indexed by game)
        stmt = stmt.select_from(p0).join(p, and_(p.c.game_id == p0.c.game_id, p.c.ply == ply))
    stmt = _filtered(stmt.where(p0.c.key == start, p0.c.ply == 0), f, engine, p).group_by(p.c.key)
    with engine.connect() as conn:
        out = [Opening(key, gid, n, sw or 0, bw or 0, ww or 0, dr or 0, mw or 0, sww or 0, day)
               for key, gid, n, sw, bw, ww, dr, mw, sww, day in conn.execute(stmt)]
    out.sort(key=lambda x: (-x.games, x.key))
    return out


@dataclass(slots=True)
class Reached:
    game: GameRow
    ply: int
    next: str | None


def games_at(engine: Engine, key: int, f: Filters, *, limit: int = 50, offset: int = 0) -> list[Reached]:
    """The games that reached the position (first time each), newest id first: the game, the move number, and
    the move played next (in the index's frame).

    The position's rows lie in game id order (the primary key), so a page reads its games' rows from the end of the
    range and stops: the first page costs the same at the start of the game as deep in it."""
    p = _rows(engine)
    f = replace(f, game=None, size=None)  # the key holds them
    page = (select(p.c.game_id, func.min(p.c.ply)).where(p.c.key == key).group_by(p.c.game_id)
            .order_by(p.c.game_id.desc()).limit(limit).offset(offset))
    page = _filtered(page, f, engine, p)  # before the connection: the filter reads the names on one of its own
    with engine.connect() as conn:
        first = {int(gid): int(ply) for gid, ply in conn.execute(page)}
        nexts = {(int(gid), int(ply)): nxt for gid, ply, nxt in conn.execute(
            select(p.c.game_id, p.c.ply, p.c.next).where(p.c.key == key, p.c.game_id.in_(list(first))))}
    rows = games_by_id(engine, list(first))
    return [Reached(rows[gid], ply, nexts.get((gid, ply))) for gid, ply in sorted(first.items(), reverse=True)
            if gid in rows]


def count_at(engine: Engine, key: int, f: Filters) -> int:
    p = _rows(engine)
    stmt = select(func.count(func.distinct(p.c.game_id))).where(p.c.key == key)
    stmt = _filtered(stmt, f, engine, p)
    with engine.connect() as conn:
        return int(conn.execute(stmt).scalar() or 0)


def opening_report(engine: Engine, start: int, game: str, size: int, f: Filters, *, ply: int) -> dict[str, Any]:
    """`records explore --json` at the start of Conversion Go (and the web application's): every opening of `ply`
    moves with its stones, how often the second player swapped next, and who won after it."""
    from ...verifier.keys.targets import opening_stones
    from ..core.stored import parse_row

    found = openings(engine, start, f, ply=ply)
    rows = games_by_id(engine, [o.game_id for o in found])
    data: list[dict[str, Any]] = []
    for o in found:
        try:
            black, white = opening_stones(parse_row(rows[o.game_id]))
        except Exception:  # a stored record that no longer reads: the opening is still counted
            black, white = [], []
        data.append({"black": black, "white": white, "games": o.games, "swapped": o.swapped,
                     "swap_rate": round(o.swapped / o.games, 4) if o.games else None,
                     "black_wins": o.black_wins, "white_wins": o.white_wins, "draws": o.draws,
                     "first_player_wins": o.first_wins, "second_player_wins": o.second_wins,
                     "swapper_wins": o.swapper_wins, "last_played": o.last_played})
    return {"game": game, "size": size, "turns": ply, "games": sum(o.games for o in found), "openings": data}



def opening_keys(engine: Engine, ids: list[int]) -> dict[int, int]:
    """Each game's position key after its first OPENING_PLY moves (the one the index keeps per game, in any
    symmetry and move order), for the games of `ids` that have one: from `position_game`, the rows an import has
    staged overriding it; on an archive of the older layout, from the position rows by game."""
    if not ids:
        return {}
    out: dict[int, int] = {}
    by_game, pending = has_game_index(engine), has_pending(engine)
    with engine.connect() as conn:
        for start in range(0, len(ids), 500):  # a bounded IN list for every database
            chunk = ids[start:start + 500]
            if by_game:
                p = _table()
                rows = conn.execute(select(p.c.game_id, p.c.key).where(p.c.ply == OPENING_PLY,
                                                                       p.c.game_id.in_(chunk)))
            else:
                g: Table = PositionGameRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
                rows = conn.execute(select(g.c.game_id, g.c.opening).where(g.c.game_id.in_(chunk),
                                                                           g.c.opening.is_not(None)))
            out.update({int(gid): int(key) for gid, key in rows})
            if pending:
                s: Table = PositionStageRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
                out.update({int(gid): int(key) for gid, key in conn.execute(
                    select(s.c.game_id, s.c.key).where(s.c.ply == OPENING_PLY, s.c.game_id.in_(chunk)))})
    return out
