"""Pattern search over the change lists (archive/patterns/lines.py): every appearance of a pattern in the archive's
games of one game and size, and what was played next in or around it.

A search reads the masks of the points each colour ever held for the games of the right game and size (and the
filters), keeps the games where some placement of the pattern could stand, and finds each appearance in their
change lists in memory (verifier/keys/scan.py, compiled when it could be built), with the move right after it and its
continuation in the region, from one reading of each change list; when most games pass the masks it reads the
change lists with them in one pass.

An open archive asked for patterns more than once (a warm `records serve`, a program holding an `Archive`) keeps the
change lists of a game and size in memory (`KeptLines`) from the second search on, within a cap
(`Settings.pattern_memory`), for as long as the archive's change marker stays where it was: a search without other
filters then reads nothing from the database but the marker. The collector is held off while a search makes its
appearances (hundreds of thousands of small tuples, no cycles among them).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import chain, islice
from operator import itemgetter
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import ColumnElement, Connection, Engine, Select, Table, literal_column, select

from ...common.settings import DEFAULT_TENUKI, TENUKI_GAPS
from ...records.games import Game
from ...verifier.keys.patterns import Pattern, Placement, local_points, placements
from ...verifier.keys.scan import Hit, Scan
from ...verifier.rules.engine import BLACK, WHITE
from ..core.filters import Filters
from ..core.models import GameRow, PatternLineRow
from ..core.state import read_version

if TYPE_CHECKING:
    from ..core.budget import Budget

CHUNK = 500
BATCH = 100  # change lists scanned between two checks of a budget
# A search reads every change list in one pass when the masks of the first SAMPLE games let more than MOST of them
# through: then reading the masks of all games first would cost more than it saves.
SAMPLE, MOST = 1000, 0.25


def _table() -> Table:
    return PatternLineRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it


Winners = dict[int, "str | None"]


class KeptLines:
    """The change lists of each game and size an archive was searched on, with the games' winners, kept between
    searches within `limit` bytes (of masks and change lists) while the archive's change marker stays. They are kept
    from the second search of a game and size on, so that a single search (a `records search` process) reads only
    what it needs; a game and size whose lines pass the limit are not kept (searched from the database as before)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        # (game, size) -> (version, rows or None when over the limit, winners); rows as `_lines` reads them
        self._kept: dict[tuple[str, int], tuple[int, list[Sequence[Any]] | None, Winners]] = {}
        self._asked: dict[tuple[str, int], int] = {}  # (game, size) -> the version of its last search

    def lines(self, engine: Engine, game: Game, size: int) -> tuple[list[Sequence[Any]], Winners] | None:
        """The rows (id, black, white, changes, plies) of every change list of `game` and `size`, and each game's
        winner, when they are kept or may be kept now; None: search the database."""
        if self.limit <= 0:
            return None
        version = read_version(engine)  # before the rows: rows read later are never older than the version kept
        if version is None:
            return None
        key = (game.value, size)
        with self._lock:  # one reader at a time fills a game and size; the others wait for its rows
            kept = self._kept.get(key)
            if kept is not None and kept[0] == version:
                return None if kept[1] is None else (kept[1], kept[2])
            if self._asked.get(key) != version:
                self._asked[key] = version
                self._kept.pop(key, None)  # rows of an earlier version: let them go now, not at the next reload
                return None
            rows = self._read(engine, game, size)
            winners = all_winners(engine, game, size) if rows is not None else {}
            self._kept[key] = (version, rows, winners)
            return None if rows is None else (rows, winners)

    def _read(self, engine: Engine, game: Game, size: int) -> list[Sequence[Any]] | None:
        p = _table()
        held = 0
        rows: list[Sequence[Any]] = []
        with engine.connect() as conn:
            stmt = _lines(engine, game, size, Filters(), p.c.game_id, p.c.black, p.c.white, p.c.changes, p.c.plies)
            for row in _driver_rows(conn, stmt):
                held += len(row[1]) + len(row[2]) + len(row[3])
                if held > self.limit:
                    return None
                rows.append(tuple(row))
        return rows


def all_winners(engine: Engine, game: Game, size: int) -> Winners:
    """The winner's colour (B, W or None) of every game of `game` and `size`, in one pass."""
    g: Table = GameRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        every = select(g.c.id, g.c.winner_colour).where(g.c.game == game.value, g.c.size == size)
        return dict(_driver_rows(conn, every))  # type: ignore[arg-type]


_paused = 0
_paused_lock = threading.Lock()
_was_enabled = False


@contextmanager
def _collector_held() -> Iterator[None]:
    """The cyclic collector off while a search makes its appearances (it would rescan the heap over and over, and
    they hold no cycles); on again when the last search running ends, if it was on."""
    global _paused, _was_enabled
    with _paused_lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _paused_lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()


@dataclass(slots=True)
class Appearance:
    ply: int  # the move after which the pattern stands (0: the start)
    placement: int


@dataclass(slots=True)
class GameHits:
    game_id: int
    winner: str | None  # B, W or None
    at: list[Hit]  # as the scan gives them (a common shape has hundreds of thousands: no object for each)

    @property
    def found(self) -> list[Appearance]:
        return [Appearance(hit[0], hit[1]) for hit in self.at]

    @property
    def moves(self) -> list[int]:
        return sorted({hit[0] for hit in self.at})


@dataclass(slots=True)
class PatternContinuation:
    """What was played after an appearance, by `colour` (as in the pattern: with colours exchanged, a placement's
    White is the pattern's Black) at `local` (column, row in the pattern as written).

    In `PatternResult.next_moves` (the move right after): -1 and the width/height are the points around the
    pattern, and `local` None is a move elsewhere (or a pass, a swap, a sweep). In `PatternResult.continuations`
    (the first move in the pattern's region, however many moves later): `local` is inside the rectangle, `tenuki`
    counts the hits where it came later than the search's tenuki count allows (TENUKI_GAPS), and `local` None
    (colour "") the appearances after which the line ended with no move in the region."""

    colour: str
    local: tuple[int, int] | None
    hits: int = 0
    games: int = 0
    black_wins: int = 0  # in the pattern's colours
    white_wins: int = 0
    tenuki: int = 0


@dataclass(slots=True)
class PatternResult:
    game: Game
    size: int
    placements: list[Placement]
    hits: list[GameHits]  # game id order, newest first
    continuations: list[PatternContinuation]  # the first move in the region
    next_moves: list[PatternContinuation]  # the move right after, in or around the pattern or elsewhere
    scanned: int = 0  # games whose change list was read
    considered: int = 0  # games of the game, size and filters
    tenuki: str = DEFAULT_TENUKI  # how the continuations' tenuki were counted (a key of TENUKI_GAPS)

    @property
    def appearances(self) -> int:
        return sum(len(h.at) for h in self.hits)


def _lines(engine: Engine, game: Game, size: int, f: Filters, *columns: ColumnElement[Any]) -> Select[Any]:
    """`columns` of `pattern_line` for the games of `game` and `size` that pass the filters. Without other filters
    only `pattern_line` is read."""
    p = _table()
    stmt = select(*columns).where(p.c.game == game.value, p.c.size == size)
    if not replace(f, game=None, size=None).empty:
        from ..core.search import conditions

        g: Table = GameRow.__table__  # type: ignore[attr-defined]
        stmt = stmt.join(g, g.c.id == p.c.game_id).where(*conditions(f, dialect=engine.dialect.name))
    return stmt


def _found_lines(engine: Engine, scan: Scan, game: Game, size: int, f: Filters, budget: Budget | None = None
                 ) -> tuple[list[tuple[int, list[Hit]]], dict[int, int], int, int]:
    """The games where the pattern appears with their appearances, the last move number of each line read, how
    many games were considered (of the game, the size and the filters) and how many change lists were read.

    When the masks of the first games let most of them through (a small shape anywhere on the board), every change
    list is read in one pass; otherwise the masks of all games first, then the change lists of those they let
    through, by id. Under a `budget`, the rows are read in batches, the budget checked between them."""
    p = _table()
    seen = _Seen()
    masks = (p.c.game_id, p.c.black, p.c.white)
    with engine.connect() as conn:
        sample = list(_driver_rows(conn, _lines(engine, game, size, f, *masks).limit(SAMPLE)))
        if len(scan.possible(sample)) > len(sample) * MOST:
            rows = _driver_batches(conn, _lines(engine, game, size, f, *masks, p.c.changes, p.c.plies))
            return _scanned(scan, seen.rows(rows), budget), seen.plies, seen.n, seen.n
        ids = scan.possible(_checked(seen.rows(_driver_batches(conn, _lines(engine, game, size, f, *masks))), budget))
    considered = seen.n
    lines = _scanned(scan, seen.rows(_by_id_batches(engine, ids, (*masks, p.c.changes, p.c.plies), p.c.game_id)),
                     budget)
    return lines, seen.plies, considered, len(ids)


def _kept_found(scan: Scan, rows: list[Sequence[Any]], budget: Budget | None
                ) -> tuple[list[tuple[int, list[Hit]]], dict[int, int], int, int]:
    """`_found_lines` from rows kept in memory (`KeptLines`): the masks first, then the lines they let through."""
    possible = scan.possible(rows)
    if len(possible) < len(rows):
        let_through = set(possible)
        chosen = [row for row in rows if row[0] in let_through]
    else:
        chosen = rows
    plies = {row[0]: row[4] for row in chosen}
    return _scanned(scan, chosen, budget), plies, len(rows), len(chosen)


def _checked(rows: Iterable[Sequence[Any]], budget: Budget | None) -> Iterable[Sequence[Any]]:
    return rows if budget is None else budget.rows(rows)


def _scanned(scan: Scan, rows: Iterable[Sequence[Any]], budget: Budget | None) -> list[tuple[int, list[Hit]]]:
    """`scan.lines` of the rows; under a budget a batch at a time, the appearances held counted against it."""
    if budget is None:
        return scan.lines(rows)
    out: list[tuple[int, list[Hit]]] = []
    it = iter(budget.rows(rows))
    while batch := list(islice(it, BATCH)):
        found = scan.lines(batch)
        budget.hold(sum(len(at) for _, at in found))
        out += found
    return out


WhereIn = tuple[ColumnElement[Any], Sequence[int]]


def _driver_rows(conn: Connection, stmt: Select[Any], where_in: WhereIn | None = None) -> Iterator[Sequence[Any]]:
    """The rows of `stmt` as the database driver gives them (tuples; the masks and change lists as bytes), read
    in batches from its cursor: SQLAlchemy's result rows cost more than the scan of a change list, and every
    column read here is an integer, a text or bytes, which need no conversion. `where_in` (a column, whole
    numbers): only the rows whose column holds one of them, written into the statement as numbers (ids read from
    the archive itself: SQLAlchemy's expanding parameters cost more than the query for a chunk of 500)."""
    return chain.from_iterable(_driver_batches(conn, stmt, where_in))


def _driver_batches(conn: Connection, stmt: Select[Any], where_in: WhereIn | None = None
                    ) -> Iterator[list[Sequence[Any]]]:
    """`_driver_rows` a batch of CHUNK at a time (as the cursor gives them: no step of Python for each row)."""
    if where_in is not None:
        column, values = where_in
        numbers = ",".join(str(int(v)) for v in values) or "NULL"
        stmt = stmt.where(column.op("IN")(literal_column(f"({numbers})")))
    compiled = stmt.compile(dialect=conn.dialect)
    params = compiled.params
    args: Any = tuple(params[name] for name in compiled.positiontup or ()) if compiled.positional else params
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]  # an open connection has one
    try:
        cursor.execute(compiled.string, args)
        while batch := cursor.fetchmany(CHUNK):
            yield cast("list[Sequence[Any]]", batch)  # both drivers give a list
    finally:
        cursor.close()


class _Seen:
    """Counts the rows (id, black, white[, changes, plies]) that pass through it, and keeps the last move number of
    each line."""

    def __init__(self) -> None:
        self.n = 0
        self.plies: dict[int, int] = {}

    def rows(self, batches: Iterable[list[Sequence[Any]]]) -> Iterator[Sequence[Any]]:
        """The rows of `batches`, counted and their last move numbers kept a batch at a time."""
        return chain.from_iterable(self._counted(batches))

    def _counted(self, batches: Iterable[list[Sequence[Any]]]) -> Iterator[list[Sequence[Any]]]:
        for batch in batches:
            self.n += len(batch)
            if batch and len(batch[0]) > 4:
                self.plies.update(map(_ID_AND_PLIES, batch))
            yield batch


_ID_AND_PLIES = itemgetter(0, 4)


def _by_ids(engine: Engine, ids: Sequence[int], columns: Sequence[ColumnElement[Any]], key: ColumnElement[Any]
            ) -> Iterator[Sequence[Any]]:
    """`columns` of the rows whose `key` is one of `ids`, a chunk of ids per query."""
    return chain.from_iterable(_by_id_batches(engine, ids, columns, key))


def _by_id_batches(engine: Engine, ids: Sequence[int], columns: Sequence[ColumnElement[Any]],
                   key: ColumnElement[Any]) -> Iterator[list[Sequence[Any]]]:
    stmt = select(*columns)
    with engine.connect() as conn:
        for i in range(0, len(ids), CHUNK):
            yield from _driver_batches(conn, stmt, (key, ids[i:i + CHUNK]))


class _Named:
    """The continuations of one list, each made on first use under its colour and point and given its index in the
    tally (`Scan.tally` counts by index)."""

    def __init__(self) -> None:
        self.index: dict[tuple[str, tuple[int, int] | None], int] = {}
        self.conts: list[PatternContinuation] = []

    def __call__(self, colour: str, local: tuple[int, int] | None) -> int:
        i = self.index.get((colour, local))
        if i is None:
            i = self.index[(colour, local)] = len(self.conts)
            self.conts.append(PatternContinuation(colour, local))
        return i


def _ordered(conts: Iterable[PatternContinuation]) -> list[PatternContinuation]:
    return sorted(conts, key=lambda c: (c.local is None, -c.hits, c.colour, c.local or (0, 0)))


def search_pattern(engine: Engine, pattern: Pattern, game: Game, size: int, f: Filters, *,
                   either_colour: bool = False, margin: int = 1, plain_scan: bool = False,
                   tenuki: str = DEFAULT_TENUKI, budget: Budget | None = None, kept: KeptLines | None = None
                   ) -> PatternResult:
    """Every appearance of `pattern` in the archive's games of `game` and `size` that pass the filters, what was
    played right after it in or around it (`margin` points around the rectangle: `next_moves`), and the first move
    played in its region after it however many moves later (`continuations`; `tenuki` when it came more than
    TENUKI_GAPS[tenuki] moves after the appearance, `local` None when the line ended first). `plain_scan` runs the
    plain scan, not the compiled one (`Settings.plain_scan`). A `budget` (archive/core/budget.py) is checked as
    rows are read and counted, and its cap on appearances held applies. `kept`: the archive's change lists kept
    in memory, used when no filter but the game and size is given."""
    with _collector_held():
        return _search(engine, pattern, game, size, f, either_colour, margin, plain_scan, tenuki, budget, kept)


def _search(engine: Engine, pattern: Pattern, game: Game, size: int, f: Filters, either_colour: bool, margin: int,
            plain_scan: bool, tenuki: str, budget: Budget | None, kept: KeptLines | None) -> PatternResult:
    gap = TENUKI_GAPS[tenuki]
    found = placements(pattern, game, size, either_colour=either_colour)
    scan = Scan(pattern, found, size, plain=plain_scan)
    data = kept.lines(engine, game, size) if kept is not None and replace(f, game=None, size=None).empty else None
    if data is None:
        lines, plies_of, considered, scanned = _found_lines(engine, scan, game, size, f, budget)
    else:
        lines, plies_of, considered, scanned = _kept_found(scan, data[0], budget)
    g: Table = GameRow.__table__  # type: ignore[attr-defined]
    lines.sort(key=lambda line: line[0], reverse=True)  # newest first
    winners: Winners
    if data is not None:
        winners = data[1]
    elif len(lines) > considered * MOST:  # most games found: the winners of all of them in one pass
        winners = all_winners(engine, game, size)
    else:
        winners = dict(_by_ids(engine, [gid for gid, _ in lines], (g.c.id, g.c.winner_colour),  # type: ignore[arg-type]
                               g.c.id))
    # scan.tally names each (placement, point, colour) it meets once and counts the appearances by index (in C when
    # the scan is compiled: a common shape has hundreds of thousands of them)
    in_region, after = _Named(), _Named()
    local_cache: dict[int, dict[int, tuple[int, int]]] = {}

    def region_of(k: int, point: int, colour: int) -> int:
        if point < 0:
            return in_region("", None)  # the line ended first
        if found[k].swapped:
            colour = BLACK + WHITE - colour
        return in_region("B" if colour == BLACK else "W", scan.regions[k][point])

    def next_of(k: int, nxt: int, colour: int) -> int:
        place = found[k]
        local: tuple[int, int] | None = None
        if nxt >= 0:
            points = local_cache.get(k)
            if points is None:
                points = local_cache[k] = local_points(pattern, place, size, margin)
            local = points.get(nxt)
        if colour and place.swapped:
            colour = BLACK + WHITE - colour
        # elsewhere (no colour): a move away from the pattern, a pass, a swap, a sweep
        colour_text = "" if local is None else "B" if colour == BLACK else "W" if colour == WHITE else ""
        return after(colour_text, local)

    hits = [GameHits(gid, winners[gid], at) for gid, at in lines]
    counted = lines if budget is None else budget.rows(lines)  # the plain tally is long on a common shape
    region_counts, next_counts = scan.tally(counted, plies_of, winners, gap, region_of, next_of)
    for named, counts in ((in_region, region_counts), (after, next_counts)):
        for c, (n, games, black, white, later) in zip(named.conts, counts, strict=True):
            c.hits, c.games, c.black_wins, c.white_wins, c.tenuki = n, games, black, white, later
    return PatternResult(game, size, found, hits, _ordered(in_region.conts), _ordered(after.conts),
                         scanned=scanned, considered=considered, tenuki=tenuki)
