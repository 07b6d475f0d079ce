"""The position index: its rows (made in the import's workers, written through the stage: schema/position_stage.py),
its counts table, and the two questions it answers: which games reached a position, and what was played there and
how it went.

A position row's `outcome` packs what the explorer counts, so that an unfiltered question reads the index alone:

    bits 0-1  the result: 1 Black won, 2 White won, 3 a draw, 0 none known
    bit 2     the player who made the next move won
    bit 3     the next move was made before the pie swap, and the opponent then swapped
    bit 4     ... and the swapper won
"""

from __future__ import annotations

import datetime as dt
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from sqlalchemy import Engine, Table, and_, case, func, select, union_all
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col

from ..verifier.positions import PositionWatcher
from ..verifier.status import drawn
from .db import writer
from .filters import Filters
from .models import AliasRow, GameRow, PositionCountRow, PositionRow, PositionStageRow

POSITIONS = "_positions"  # the key of a game dict under which the worker sends the position rows
WON_B, WON_W, DRAW = 1, 2, 3
MOVER_WON, SWAPPED, SWAPPER_WON = 4, 8, 16

class PositionValues(NamedTuple):
    """The index rows of one record, as columns (the ply is the index): what a worker sends the main process."""

    keys: array[int]  # the canonical keys (signed 64-bit)
    nexts: list[str]  # the move played next, in the key's frame (one fewer: the last position has none)
    outcomes: bytes  # the outcome bits
    day: int | None  # the record's first date (YYYYMMDD)


def _day(value: dt.date | None) -> int | None:
    return value.year * 10000 + value.month * 100 + value.day if value is not None else None


def position_values(watcher: PositionWatcher, game: dict[str, Any]) -> PositionValues | None:
    """The index rows of one record, from its positions and its game row's values (winner, swap, date)."""
    found = watcher.columns()
    if not len(found.keys):
        return None
    winner = game.get("winner_colour")
    tie = winner is None and drawn(game["result_status"], game["result_method"], game["computed_result"],
                                   game["result_checked"])
    result = WON_B if winner == "B" else WON_W if winner == "W" else DRAW if tie else 0
    swapped = bool(game.get("swapped"))
    outcomes = [result] * len(found.keys)  # the last position (no next move) keeps the result alone
    if winner is not None:
        winner_player = 0 if (winner == "B") != swapped else 1
        won = result | MOVER_WON
        outcomes[:-1] = [won if mover == winner_player else result for mover in found.movers]
    swap_ply = watcher.swap_ply
    if swap_ply is not None:
        swap_bits = SWAPPED | (SWAPPER_WON if swapped and winner is not None and winner == game.get(
            "swapper_colour") else 0)
        for ply in range(min(swap_ply, len(found.nexts))):
            outcomes[ply] |= swap_bits
    return PositionValues(found.keys, found.nexts, bytes(outcomes), _day(game.get("date_first")))


def _table() -> Table:
    return PositionRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it


COUNT_COLUMNS = ("games", "black_wins", "white_wins", "draws", "mover_wins", "swapped", "swapper_wins")
_COUNT_NAMES = ", ".join(("key", "next", *COUNT_COLUMNS, "last_day"))
# A position reached by at least this many rows has its continuations summed in `position_count`; below it an
# unfiltered `explore` sums the rows themselves (fewer than this, in one indexed range: well under a millisecond).
# Most positions of a real archive are reached once: summing them all would make the counts table about as large
# as the index and cost the merge a second sort of every row; the few positions that many games reach are the
# ones whose rows would be slow to sum.
COUNTED_AT = 64
# The rows of `{rows}` that `{where}` keeps, summed per position and next move, in key order.
COUNT_SELECT = (
    "SELECT key, coalesce(next, ''), count(*), "
    "sum(CASE WHEN outcome & 3 = 1 THEN 1 ELSE 0 END), sum(CASE WHEN outcome & 3 = 2 THEN 1 ELSE 0 END), "
    "sum(CASE WHEN outcome & 3 = 3 THEN 1 ELSE 0 END), sum(CASE WHEN outcome & 4 != 0 THEN 1 ELSE 0 END), "
    "sum(CASE WHEN outcome & 8 != 0 THEN 1 ELSE 0 END), sum(CASE WHEN outcome & 16 != 0 THEN 1 ELSE 0 END), "
    "max(day) FROM {rows} WHERE {where} GROUP BY key, coalesce(next, '') ORDER BY 1, 2")
COUNT_INSERT = f"INSERT INTO position_count ({_COUNT_NAMES}) "
# The positions of the index that reach the threshold: the rows are in key order, so this reads them once, unsorted.
_POPULAR = "key IN (SELECT key FROM position GROUP BY key HAVING count(*) >= {at})"


def rebuild_counts() -> str:
    """The statement that fills an empty `position_count` from the whole index."""
    return COUNT_INSERT + COUNT_SELECT.format(rows="position", where=_POPULAR.format(at=COUNTED_AT))


_COUNT_ADD = ", ".join(f"{c} = position_count.{c} + excluded.{c}" for c in COUNT_COLUMNS)
# The staged rows of the positions already counted, added to their sums.
COUNT_ADD_SQLITE = (
    COUNT_INSERT + COUNT_SELECT.format(rows="position_stage", where="key IN (SELECT key FROM position_count)")
    + f" ON CONFLICT (key, next) DO UPDATE SET {_COUNT_ADD}, last_day = max(coalesce(position_count.last_day, "
    "excluded.last_day), coalesce(excluded.last_day, position_count.last_day))")


def count_promote_sqlite() -> str:
    """The positions not counted yet that the staged rows (already in `position`) bring to the threshold, summed
    from all their rows."""
    at = COUNTED_AT
    reached = ("key IN (SELECT s.key FROM position_stage s WHERE s.key NOT IN (SELECT key FROM position_count) "
               "GROUP BY s.key HAVING (SELECT count(*) FROM (SELECT 1 FROM position p WHERE p.key = s.key "
               f"LIMIT {at})) >= {at})")
    return COUNT_INSERT + COUNT_SELECT.format(rows="position", where=reached)


def count_merge_pg(moved: str) -> str:
    """The CTEs of PostgreSQL's merge that add the rows of `{moved}` (the staged rows it takes, not yet visible in
    `position` to the same statement) to the counts: to the positions already counted, and to those they bring to
    the threshold, summed from all their rows."""
    at = COUNTED_AT
    add = (COUNT_INSERT + COUNT_SELECT.format(
        rows=moved, where="EXISTS (SELECT 1 FROM position_count c WHERE c.key = " + moved + ".key)")
        + f" ON CONFLICT (key, next) DO UPDATE SET {_COUNT_ADD}, "
        "last_day = greatest(position_count.last_day, excluded.last_day)")
    hot = (f"SELECT m.key FROM {moved} m WHERE NOT EXISTS (SELECT 1 FROM position_count c WHERE c.key = m.key) "
           f"GROUP BY m.key HAVING count(*) + (SELECT count(*) FROM (SELECT 1 FROM position p WHERE p.key = m.key "
           f"LIMIT {at}) few) >= {at}")
    rows = (f"(SELECT key, next, outcome, day FROM position WHERE key IN (SELECT key FROM hot) UNION ALL "
            f"SELECT key, next, outcome, day FROM {moved} WHERE key IN (SELECT key FROM hot)) r")
    promote = COUNT_INSERT + COUNT_SELECT.format(rows=rows, where="true")
    return f"added AS ({add}), hot AS ({hot}), promoted AS ({promote})"


# The counts follow deleted position rows (a deleted game takes its rows along): the sums go down, and the last
# date is looked up again when the row that held it goes.
_GONE = ", ".join(f"{c} = {c} - {e}" for c, e in zip(COUNT_COLUMNS, (
    "1", "(OLD.outcome & 3 = 1)", "(OLD.outcome & 3 = 2)", "(OLD.outcome & 3 = 3)", "(OLD.outcome & 4 != 0)",
    "(OLD.outcome & 8 != 0)", "(OLD.outcome & 16 != 0)"), strict=True))
_SQLITE_COUNTS = (
    "CREATE TRIGGER IF NOT EXISTS position_count_delete AFTER DELETE ON position BEGIN "
    f"UPDATE position_count SET {_GONE}, last_day = CASE WHEN OLD.day >= last_day THEN (SELECT max(day) FROM "
    "position WHERE key = OLD.key AND coalesce(next, '') = coalesce(OLD.next, '')) ELSE last_day END "
    "WHERE key = OLD.key AND next = coalesce(OLD.next, ''); "
    "DELETE FROM position_count WHERE key = OLD.key AND next = coalesce(OLD.next, '') AND games <= 0; END",
)
_PG_COUNTS = (
    """CREATE OR REPLACE FUNCTION position_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE position_count c SET games = c.games - d.games, black_wins = c.black_wins - d.bw,
      white_wins = c.white_wins - d.ww, draws = c.draws - d.dr, mover_wins = c.mover_wins - d.mw,
      swapped = c.swapped - d.sw, swapper_wins = c.swapper_wins - d.sww,
      last_day = CASE WHEN d.day >= c.last_day THEN (SELECT max(p.day) FROM position p
                      WHERE p.key = c.key AND coalesce(p.next, '') = c.next) ELSE c.last_day END
  FROM (SELECT key, coalesce(next, '') AS next, count(*) AS games,
               count(*) FILTER (WHERE outcome & 3 = 1) AS bw, count(*) FILTER (WHERE outcome & 3 = 2) AS ww,
               count(*) FILTER (WHERE outcome & 3 = 3) AS dr, count(*) FILTER (WHERE outcome & 4 != 0) AS mw,
               count(*) FILTER (WHERE outcome & 8 != 0) AS sw, count(*) FILTER (WHERE outcome & 16 != 0) AS sww,
               max(day) AS day
        FROM gone GROUP BY 1, 2) d
  WHERE c.key = d.key AND c.next = d.next;
  DELETE FROM position_count c USING gone d WHERE c.key = d.key AND c.next = coalesce(d.next, '') AND c.games <= 0;
  RETURN NULL;
END $$""",
    "DROP TRIGGER IF EXISTS position_count_delete ON position",
    "CREATE TRIGGER position_count_delete AFTER DELETE ON position REFERENCING OLD TABLE AS gone "
    "FOR EACH STATEMENT EXECUTE FUNCTION position_count_delete()",
)

def create_position_counts(engine: Engine) -> None:
    """The counts table's trigger, its rows when the position index is older than the table, and the rows an
    interrupted import left in the stage merged (schema/position_stage.py)."""
    dialect = engine.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        return
    with writer(engine).begin() as conn:
        # The index on game_id alone became (game_id, ply): a game's row at a move number is then one seek.
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_position_game_id")
        if dialect == "sqlite":
            for statement in _SQLITE_COUNTS:
                conn.exec_driver_sql(statement)
        else:
            installed = conn.exec_driver_sql(
                "SELECT 1 FROM pg_trigger WHERE tgname = 'position_count_delete'").first()
            if installed is None:
                for statement in _PG_COUNTS:
                    conn.exec_driver_sql(statement)
        # An index whose every position is reached fewer than COUNTED_AT times is summed again here each time,
        # and found to need no counts: such an archive is small (the start alone is reached by every game).
        if (conn.exec_driver_sql("SELECT 1 FROM position_count LIMIT 1").first() is None
                and conn.exec_driver_sql("SELECT 1 FROM position LIMIT 1").first() is not None):
            conn.exec_driver_sql(rebuild_counts())
    from .position_stage import merge_pending

    merge_pending(engine)  # the rows an interrupted import left staged


# -- questions ----------------------------------------------------------------------------------------------

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
    """The position rows a question reads: the index, and beside it the rows an import has staged and not merged
    yet (it is running, or was interrupted), so that every stored game is counted. The stage has no index on the
    key: it is read whole, which only the questions asked while rows are pending pay."""
    from .position_stage import has_pending

    p = _table()
    if not has_pending(engine):
        return p.alias(name) if name != "position" else p
    stage: Table = PositionStageRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
    names = ("key", "game_id", "ply", "next", "outcome", "day")
    return union_all(select(*(p.c[n] for n in names)), select(*(stage.c[n] for n in names))).subquery(name)


def _filtered(stmt: Any, f: Filters, engine: Engine, p: Any) -> Any:
    """`stmt` (on the position rows `p`) kept to the games `f` selects, with `records search`'s conditions and plan
    (names through their aliases, the longest date range stored)."""
    from sqlmodel import Session

    from .search import _plan, conditions, date_bound

    if f.empty:
        return stmt
    g: Table = GameRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
    with Session(engine) as session:
        # The spellings of a player are looked up (a read of every stored name) only when aliases exist: without
        # them a name matches its normalised form, as `conditions` writes it anyway.
        aliased = session.connection().execute(select(func.count()).select_from(
            AliasRow.__table__)).scalar()  # type: ignore[attr-defined]  # SQLModel sets it
        plan = _plan(session, replace(f, player=None, black=None, white=None, winner=None)) if not aliased else (
            _plan(session, f))
    plan = {k: v for k, v in plan.items() if k in ("dialect", "same", "max_span")}  # common/rare serve
    # `ORDER BY id LIMIT n`; a set of games wants every index it can use
    dates_only = replace(f, date_from=None, date_to=None).empty
    if dates_only and not plan.get("max_span"):
        # Every stored date is one day, and the row holds it (`day`): the rows answer alone, no game is read.
        if f.date_from:
            stmt = stmt.where(p.c.day >= _day(date_bound(f.date_from, end=False)))
        if f.date_to:
            stmt = stmt.where(p.c.day <= _day(date_bound(f.date_to, end=True)))
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
    """Every position reached after `ply` moves by the games that started at the position `start`, most played
    first: games, how many of them swapped on the next move, the results. The index alone answers it (the start's
    rows give the games, their rows at `ply` the opening), the game table joined only when filtered."""
    p0 = _rows(engine, "p0")
    p = _rows(engine)
    o = p.c.outcome
    res = o.op("&")(3)
    swap = p.c.next.like("%[swap-sides]")
    mover_won = o.op("&")(MOVER_WON) != 0
    stmt = (select(p.c.key, func.min(p.c.game_id), func.count(), _sum(swap), _sum(res == WON_B), _sum(res == WON_W),
                   _sum(res == DRAW), _sum(mover_won), _sum(and_(swap, mover_won)), func.max(p.c.day))
            .select_from(p0).join(p, and_(p.c.game_id == p0.c.game_id, p.c.ply == ply))
            .where(p0.c.key == start, p0.c.ply == 0))
    stmt = _filtered(stmt, f, engine, p).group_by(p.c.key)
    with engine.connect() as conn:
        out = [Opening(key, gid, n, sw or 0, bw or 0, ww or 0, dr or 0, mw or 0, sww or 0, day)
               for key, gid, n, sw, bw, ww, dr, mw, sww, day in conn.execute(stmt)]
    out.sort(key=lambda x: (-x.games, x.key))
    return out


def games_by_id(engine: Engine, ids: Sequence[int]) -> dict[int, GameRow]:
    from sqlmodel import Session

    with Session(engine, expire_on_commit=False) as session:
        return {int(r.id or 0): r for r in session.scalars(select(GameRow).where(col(GameRow.id).in_(list(ids))))}


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
    with engine.connect() as conn:
        first = {int(gid): int(ply) for gid, ply in conn.execute(_filtered(page, f, engine, p))}
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


__all__ = ["POSITIONS", "Continuation", "Opening", "Reached", "count_at", "explore", "games_at", "games_by_id",
           "openings", "position_values"]
