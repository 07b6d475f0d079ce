"""What the web application answers: the objects of the commands' `--json`, built from the library functions the
commands call (archive/), so that `/api/search` and `records search --json` give the same objects.

Every function takes an open, read-only engine and raises `BadRequest` for a question it cannot answer (a filter,
a move, a game it does not understand); the application turns that into a 400 with a JSON error.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cli.tables import pattern_json, record_json, row_json
from ..common.errors import InputError, NotFound
from ..records.games import SPECS, Game, MoveKind, game_from_name
from ..records.model import FormatError
from ..records.notation import NotationError

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from ..archive.core.filters import Filters
    from ..archive.core.models import GameRow
    from ..records.model import Record
    from ..verifier.judging.analysis import Rows
    from ..verifier.keys.patterns import Pattern
    from ..verifier.keys.targets import Target


class BadRequest(InputError):
    """A question the archive cannot answer as asked (an InputError): a 400 with `{"error": message}`."""


@contextmanager
def asked() -> Iterator[None]:
    """The library's expected failures as BadRequest (each an InputError already: a 400 either way)."""
    from ..archive.core.filters import FilterError
    from ..verifier.keys.patterns import PatternError
    from ..verifier.keys.targets import PositionError

    try:
        yield
    except (FilterError, PositionError, PatternError, NotationError) as exc:
        raise BadRequest(str(exc)) from None
    except FormatError as exc:
        raise BadRequest(exc.describe()) from None


def game_of(name: str | None) -> Game:
    """The game a board is asked for (default Go)."""
    if name is None:
        return Game.GO
    found = game_from_name(name)
    if found is None:
        raise BadRequest(f"unknown game {name!r} (one of: {', '.join(g.value for g in Game)})")
    return found


def game_value(name: str | None) -> str | None:
    """The game a listing is narrowed to (None: every game)."""
    return None if name is None else game_of(name).value


def board_of(filters: Filters) -> tuple[Game, int]:
    """The board a position is on: game (default Go) and size (default: the game's)."""
    game = game_of(filters.game)
    size = filters.size or SPECS[game].default_size
    if size is None:
        raise BadRequest(f"{game.value} needs size")
    return game, size


# -- search ---------------------------------------------------------------------------------------------------

@dataclass(slots=True)
class Page:
    """One page of a listing: its objects and how many there are in all."""

    items: list[dict[str, Any]]
    total: int


def search(engine: Engine, filters: Filters, *, sort: str, limit: int, offset: int) -> Page:
    """`records search --json`: the games, one page of them, and the count of all."""
    from ..archive.core.db import session_scope
    from ..archive.core.search import count, query_plan, search_statement

    with asked(), session_scope(engine) as session:
        # The archive's search reads the first rows in the order asked; a page further on reads the pages before it.
        stmt = search_statement(filters, sort=sort, limit=offset + limit, light=True,
                                **query_plan(session, filters, sort))
        found = list(session.exec(stmt).all())[offset:]
        total = count(session, filters) if len(found) == limit or offset else len(found)
        return Page([row_json(r) for r in found], total)


def target(filters: Filters, moves: str | None) -> Target:
    """The position after `moves` on the board of the filters' game and size."""
    from ..verifier.keys.targets import target_of_moves

    game, size = board_of(filters)
    with asked():
        return target_of_moves(moves or "", game, size)


def position_search(engine: Engine, filters: Filters, moves: str | None, *, limit: int, offset: int,
                    total: int | None = None) -> Page:
    """`records search --after MOVES --json`: the games that reached the position, the move number and what came
    next. `total`: how many games reached it, when the caller knows (the explorer's count), else counted."""
    from ..archive.positions.explore import count_at, games_at

    at = target(filters, moves)
    with asked():
        found = games_at(engine, at.key, filters, limit=limit, offset=offset)
        if total is None:
            total = count_at(engine, at.key, filters) if len(found) == limit or offset else len(found)
    return Page([row_json(r.game) | {"at_move": r.ply, "next": at.shown(r.next) if r.next else None}
                 for r in found], total)


PATTERN_MAX = 2000  # characters of a pattern's text (a 40x40 rectangle)


def _placed(pattern: Any, size: int) -> tuple[int, int]:
    """Where a pattern given as rows is drawn to name the points of its continuations: against the edges its
    anchor names, else one point in from the top left (as `records search --pattern` draws it)."""
    from ..verifier.keys.patterns import offsets

    allowed = offsets(pattern, size)
    xs = sorted({x for x, _ in allowed})
    ys = sorted({y for _, y in allowed})
    if not xs or not ys:
        raise BadRequest(f"the pattern ({pattern.width}x{pattern.height}) does not fit the board of size {size}")
    return (1 if 1 in xs and "left" not in pattern.sides else xs[0],
            1 if 1 in ys and "top" not in pattern.sides else ys[0])


@dataclass(slots=True)
class AskedPattern:
    """The pattern a question names, its board, and where it is drawn: `origin` is its top-left point, where its
    continuations are named; `record` the stored record it was taken from (`pattern-from`)."""

    pattern: Pattern
    game: Game
    size: int
    origin: tuple[int, int]
    board: Rows | None = None  # with pattern-from: the record's board it was taken from


def record_of(engine: Engine, record_id: int) -> Record:
    """The stored record `record_id`, read from its original bytes."""
    from ..archive.core.stored import parse_row

    row, _ = stored(engine, record_id)
    with asked():
        return parse_row(row)


def board_of_record(engine: Engine, record_id: int, move: int | None) -> tuple[Record, Rows]:
    """A stored record and its board after `move` (None: the end of its line)."""
    from ..verifier.keys.targets import board_after

    record = record_of(engine, record_id)
    with asked():
        return record, board_after(record, move)


def asked_pattern(engine: Engine, filters: Filters, text: str | None, *, source: int | None, move: int | None,
                  region: str | None, anchor: str | None) -> AskedPattern:
    """The pattern of `pattern` (rows, on the board of the filters' game and size; drawn at `region` when it is
    given and the anchor allows it there) or of `pattern-from` (a region of a stored record after `move`, as
    `records search --pattern-from` takes one from a file: verifier/keys/patterns.py, pattern_of_region)."""
    from ..verifier.keys.patterns import (
        offsets,
        parse_anchor,
        parse_pattern,
        parse_region,
        pattern_of_region,
    )

    if (text is None) == (source is None):
        raise BadRequest("give pattern (rows of X, O, . and *) or pattern-from (a record's id with region and "
                         "move), not both" if text is not None else "give pattern or pattern-from")
    with asked():
        parse_anchor(anchor)
        if source is not None:
            if region is None:
                raise BadRequest("pattern-from needs region, e.g. region=Q16:T19")
            record, board = board_of_record(engine, source, move)
            found, origin = pattern_of_region(board, record.game, region, anchor=anchor)
            return AskedPattern(found, record.game, record.size, origin, board)
        game, size = board_of(filters)
        found = parse_pattern(text or "", anchor)
        origin = _placed(found, size)
        if region is not None:
            left, top, right, bottom = parse_region(region, game, size)
            if (right - left + 1, bottom - top + 1) != (found.width, found.height):
                raise BadRequest(f"the region {region!r} is not the pattern's {found.width}x{found.height}")
            if (left, top) in offsets(found, size):
                origin = (left, top)
    return AskedPattern(found, game, size, origin)


def pattern_search(engine: Engine, filters: Filters, asked_for: AskedPattern, *, either_colour: bool, limit: int,
                   offset: int) -> dict[str, Any]:
    """`records search --pattern TEXT --json` (or `--pattern-from`): the games where the pattern appeared and what
    was played next in and around it: the same object as the command's (cli/tables.py: pattern_json)."""
    from ..archive.core.rows import rows_by_ids
    from ..archive.patterns.search import search_pattern

    a = asked_for
    with asked():
        result = search_pattern(engine, a.pattern, a.game, a.size, filters, either_colour=either_colour)
    shown = result.hits[offset:offset + limit]
    rows, _ = rows_by_ids(engine, [h.game_id for h in shown]) if shown else ([], [])
    by_id = {r.id: r for r in rows}
    games = [row_json(by_id[h.game_id]) | {"at_moves": h.moves} for h in shown if h.game_id in by_id]
    return pattern_json(result, a.pattern, a.game, a.size, a.origin, either_colour=either_colour, games=games)


# -- one game -------------------------------------------------------------------------------------------------

def stored(engine: Engine, record_id: int) -> tuple[GameRow, Any]:
    """The stored row and its stored verdict."""
    from ..archive.core.rows import problems_of, rows_by_ids
    from ..archive.core.stored import stored_verdict

    found, _ = rows_by_ids(engine, [record_id])
    if not found:
        raise NotFound(f"no record {record_id} in the archive")
    with asked():
        return found[0], stored_verdict(found[0], problems_of(engine, record_id))


def show(engine: Engine, record_id: int) -> dict[str, Any]:
    """`records show ID --json`."""
    row, verdict = stored(engine, record_id)
    return record_json(row, verdict)


# -- the explorer ---------------------------------------------------------------------------------------------

def explore(engine: Engine, filters: Filters, moves: str | None) -> tuple[Target, dict[str, Any]]:
    """`records explore MOVES --json`: the position and each move played next, with its games and wins."""
    from ..archive.positions.explore import explore as continuations

    at = target(filters, moves)
    if at.game is Game.CONVERSION_GO and not moves:
        return at, openings(engine, filters, at)
    with asked():
        total, found = continuations(engine, at.key, filters)
    pie = MoveKind.SWAP in SPECS[at.game].kinds
    data = []
    for c in found:
        item: dict[str, Any] = {"move": at.shown(c.move), "games": c.games, "black_wins": c.black_wins,
                                "white_wins": c.white_wins, "draws": c.draws, "mover_wins": c.mover_wins,
                                "last_played": c.last_played}
        if pie:
            item |= {"swapped": c.swapped, "swapper_wins": c.swapper_wins}
        data.append(item)
    return at, {"game": at.game.value, "size": at.size, "key": at.key, "games": total, "continuations": data}


# -- verifying an upload -------------------------------------------------------------------------------------

VERIFY_RECORDS_MAX = 1000  # records of one upload that are verified (a server should not spend minutes on one)


def verify_upload(data: bytes, name: str) -> list[dict[str, Any]]:
    """`records verify --json` of an uploaded file's bytes, storing nothing: one object per record (at most
    VERIFY_RECORDS_MAX), or the one reason the file cannot be read."""
    from ..records.reader import read_bytes
    from ..verifier.judging.verdict import verify

    try:
        records = read_bytes(data, name)
    except FormatError as exc:
        raise BadRequest(exc.describe()) from None
    if not records:
        raise BadRequest(f"{name}: holds no game record")
    if len(records) > VERIFY_RECORDS_MAX:
        raise BadRequest(f"{name}: {len(records)} records; at most {VERIFY_RECORDS_MAX} are verified here (use "
                         "`records verify`)")
    return [{"file": name, "index": r.index, **verify(r).to_json()} for r in records]


def openings(engine: Engine, filters: Filters, at: Target) -> dict[str, Any]:
    """`records explore --game conversion-go --json` at the start: every opening of turns 1-3 (CON-5), how often
    the second player swapped on turn 4, and who won after it."""
    from ..archive.positions.explore import opening_report
    from ..verifier.keys.targets import OPENING_TURNS

    with asked():
        return opening_report(engine, at.key, at.game.value, at.size, filters, ply=OPENING_TURNS)


# -- tournaments ----------------------------------------------------------------------------------------------

def players(engine: Engine, game: str | None) -> list[dict[str, Any]]:
    """`records players --json`."""
    from ..archive.core.db import session_scope
    from ..archive.tournaments.players import player_list

    kind = game_value(game)
    with session_scope(engine) as session:
        return [p.to_json() for p in player_list(session, kind)]


def events(engine: Engine, game: str | None) -> list[dict[str, Any]]:
    """`records events --json`."""
    from ..archive.core.db import session_scope
    from ..archive.tournaments.events import list_events

    kind = game_value(game)
    with session_scope(engine) as session:
        return [e.to_json() for e in list_events(session, kind)]


def crosstable(engine: Engine, event: str, game: str | None) -> dict[str, Any]:
    """`records crosstable EVENT --json`."""
    from ..archive.core.db import session_scope
    from ..archive.core.names import load_identities, player_names
    from ..archive.tournaments.crosstable import crosstable as table_of
    from ..archive.tournaments.crosstable import pairing_from_row, players_of
    from ..archive.tournaments.events import event_rows

    kind = game_value(game)
    with session_scope(engine) as session:
        name, rows = event_rows(session, event, kind)
        ids = load_identities(session)
        names = player_names(session, ids, players_of(rows))
    if not rows or name is None:
        raise NotFound(f"no records of event {event!r}" + (f" in {kind}" if kind else ""))
    kinds = sorted({r.game for r in rows})
    if len(kinds) > 1:
        raise BadRequest(f"event {name!r} holds records of several games ({', '.join(kinds)}): name one with game")
    pairings = [p for p in (pairing_from_row(r, ids.key) for r in rows) if p is not None]
    return table_of(name, pairings, names).to_json()


def rating_run(engine: Engine, game: str | None, player: str | None) -> tuple[Any, list[Any]]:
    """The ratings of every player (the library's run) and, with `player`, that player's ratings (one per game)."""
    from ..archive.core.db import session_scope
    from ..archive.core.names import load_identities
    from ..archive.tournaments.ratings import ratings as rate

    kind = game_value(game)
    with session_scope(engine) as session:
        run = rate(session, kind)
        ids = load_identities(session)
    if player is None:
        return run, []
    key = ids.key(player)
    mine = [r for r in run.ratings if r.key == key]
    if not mine:
        raise NotFound(f"no rated records of {player!r}")
    return run, mine


def ratings(engine: Engine, game: str | None, player: str | None, limit: int) -> Any:
    """`records ratings --json` (with `player`: that player's history, as `--player`)."""
    run, mine = rating_run(engine, game, player)
    if player is not None:
        return [r.to_json(history=True) for r in mine]
    found = run.best(limit)
    return {"ratings": [r.to_json() for r in found], "records_rated": run.counted,
            "records_left_out": dict(run.skipped)}
