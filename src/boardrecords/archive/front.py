"""`Archive`: one object over one archive, the front door that the CLI, the web application and Python code use.

    >>> from boardrecords import Archive
    >>> with Archive("records.db") as archive:       # read-only; Archive(url, write=True) to change it
    ...     page = archive.search(game="cation")

It takes its settings as arguments (the environment is read once, by the faces: the CLI's entry and `serve`), and
every question is one method returning a typed answer (archive/answers.py) whose `to_json()` is the object that
the commands' `--json` and the web application's `/api/` routes give. Errors are the family of common/errors.py.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Self, TypeGuard

from ..common.errors import InputError, NotFound
from ..common.settings import DEFAULTS, Settings
from ..records.games import SPECS, Game, game_title
from .core.budget import Budget, Gate
from .core.filters import DEFAULT_LIMIT, Filters, check_size, game_value

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
    from pathlib import Path
    from types import TracebackType

    from sqlalchemy import Engine

    from ..records.model import Record
    from ..verifier.judging.analysis import Rows
    from ..verifier.keys.patterns import Pattern
    from ..verifier.keys.targets import Target
    from .answers import (
        Accounts,
        Audit,
        Duplicates,
        Events,
        EventTable,
        Exploration,
        Export,
        GamePage,
        PatternAnswer,
        PlayerCard,
        PlayerNumbers,
        Players,
        Ratings,
        ReachedPage,
        Stats,
        StoredRecord,
        TournamentCheck,
        TournamentImport,
    )
    from .apart import Helpers
    from .core.models import AccountRow, AliasRow, GameRow, GameVersionRow
    from .patterns.search import KeptLines
    from .store.accounts import Signed
    from .store.importer import FileResult, ImportProgress, ImportSummary
    from .store.recordings import Finished, Position, Summary
    from .store.reindex import ReindexSummary
    from .tournaments.opengotha import OfficialTournament

PATTERN_MAX = 2000  # characters of a pattern's text (a 40x40 rectangle)
PATTERN_HINT = "give a larger pattern, an anchor or more filters"


def game_named(name: str | None) -> str | None:
    """The game a listing is narrowed to, as stored (None: every game; FilterError, an InputError, for a name of
    no game)."""
    return None if name is None else game_value(name)


def merged(filters: Filters | None, criteria: dict[str, Any]) -> Filters:
    """The filters with the criteria given by name (Filters' fields) put in, each checked and read as the faces'
    filters are (`Filters.parse`: FilterError, an InputError, for a value that is not one)."""
    if not criteria:
        return filters or Filters()
    try:
        given = Filters.parse(**criteria)
    except TypeError:
        known = list(Filters.__dataclass_fields__)
        unknown = ", ".join(sorted(set(criteria) - set(known)))
        raise InputError(f"no search filter {unknown} (the filters: {', '.join(known)})") from None
    return replace(filters or Filters(), **{name: getattr(given, name) for name in criteria})


def heavy_filters(f: Filters) -> bool:
    """Whether a search by these filters is a heavy question (docs/serve.md): a wildcard in a name, or a text."""
    names = (f.player, f.black, f.white, f.winner, f.event)
    return bool(f.text) or any(n is not None and "*" in n for n in names)


def _filtered(f: Filters) -> bool:
    """Whether a position question has filters beyond the game and size (then it reads game rows: heavy)."""
    return not replace(f, game=None, size=None).empty


def reference(pattern: Pattern, size: int) -> tuple[int, int]:
    """Where a pattern given as rows is drawn to name the points of its continuations: against the edges its
    anchor names, else one point in from the top left (so that the points around it have names)."""
    from ..verifier.keys.patterns import offsets

    allowed = offsets(pattern, size)
    xs = sorted({x for x, _ in allowed})
    ys = sorted({y for _, y in allowed})
    if not xs or not ys:
        raise InputError(f"the pattern ({pattern.width}x{pattern.height}) does not fit the board of size {size}")
    return (1 if 1 in xs and "left" not in pattern.sides else xs[0],
            1 if 1 in ys and "top" not in pattern.sides else ys[0])


class Archive:
    """An archive on SQLite (a file path; None: records.db in the current folder) or PostgreSQL (a SQLAlchemy URL),
    opened read-only unless `write`;
    `create` makes a new one (and implies `write`). `settings` (common/settings.py) say which pattern scan runs,
    what an import reads (the size and record caps) and whether the writers keep the position index and the
    pattern change lists. Use it as a context manager, or call `close()`.

    The heavy questions (`pattern_search`, `search` with a wildcard or a text, `explore` and `reached` with filters
    beyond the game and size, `players`, `player_card`, `events`, `ratings`) take a `budget` (`Archive.budget()`,
    from the settings' heavy_* values): given one, the question waits for one of `heavy_workers` turns (Busy when
    `heavy_queue` others wait already), runs on connections of its own (never those of the quick questions), and
    ends with OverBudget past its time or its cap on appearances, Cancelled when `budget.stop()` is called (the
    database work is cancelled with it). Without a budget (the commands) a question runs to its end."""

    def __init__(self, db: str | None = None, *, write: bool = False, create: bool = False,
                 settings: Settings = DEFAULTS) -> None:
        from .core.db import DEFAULT_DB
        from .store.access import open_archive

        db = db or DEFAULT_DB  # records.db in the current folder, as the commands default (no environment read)
        self.db = db
        self.settings = settings
        self.writable = write or create
        self.engine: Engine = open_archive(db, create=create, write=self.writable)
        self.gate = Gate(settings.heavy_workers, settings.heavy_queue, wait=settings.heavy_seconds or 30.0)
        self._heavy_engine: Engine | None = None
        self._kept_lines: KeptLines | None = None
        self._helpers: Helpers | None = None

    @property
    def kept_lines(self) -> KeptLines:
        """The change lists this archive keeps in memory for repeated pattern searches (settings.pattern_memory)."""
        if self._kept_lines is None:
            from .patterns.search import KeptLines

            self._kept_lines = KeptLines(self.settings.pattern_memory)
        return self._kept_lines

    def close(self) -> None:
        """Let go of the archive's connections (and end its helper processes)."""
        self.engine.dispose()
        if self._heavy_engine is not None:
            self._heavy_engine.dispose()
        if self._helpers is not None:
            self._helpers.close()

    def budget(self) -> Budget:
        """A budget for one heavy question, from the settings (heavy_seconds, heavy_appearances)."""
        return Budget(self.settings.heavy_seconds, self.settings.heavy_appearances)

    @contextmanager
    def _heavy(self, budget: Budget | None, what: str, hint: str | None = None) -> Iterator[Engine]:
        """The engine a question runs on: without a budget the archive's own; with one, after a turn at the gate,
        the engine kept for heavy questions (its own pool, one connection per turn, each statement under the
        budget), the database's error turned into the budget's when the budget is what stopped it."""
        if budget is None:
            yield self.engine
            return
        from sqlalchemy.exc import DBAPIError

        from .core.budget import running

        with self.gate.slot(budget), running(budget, what, hint):
            try:
                yield self.heavy_engine
            except DBAPIError as exc:
                if budget.over():
                    raise budget.error() from exc
                raise

    @property
    def helpers(self) -> Helpers:
        """The helper processes that answer this archive's budgeted questions that work in Python (pattern searches,
        players, player pages, events, ratings; settings.heavy_apart, archive/apart.py): one per turn of the gate,
        each on a read-only Archive of its own over the same database, started when first needed."""
        if self._helpers is None:
            from functools import partial

            from .apart import Helpers

            settings = replace(self.settings, heavy_apart=False, heavy_workers=1)
            self._helpers = Helpers(partial(type(self), self.db, settings=settings), self.gate.workers)
        return self._helpers

    def _goes_apart(self, budget: Budget | None) -> TypeGuard[Budget]:
        """Whether a heavy question that works in Python is answered by a helper process (settings.heavy_apart):
        in a thread of this process it would hold the interpreter from the quick questions (archive/apart.py)."""
        return budget is not None and self.settings.heavy_apart

    def _apart(self, budget: Budget, what: str, hint: str | None, name: str, *args: Any, **kwargs: Any) -> Any:
        """`self.<name>(*args, **kwargs)` under `budget`, answered by a helper process after a turn at the gate."""
        from .core.budget import running

        with self.gate.slot(budget), running(budget, what, hint):
            return self.helpers.ask(name, args, kwargs, budget)

    @property
    def heavy_engine(self) -> Engine:
        """The engine of the heavy questions: a pool of its own, as many connections as turns (and as many again
        for a question that holds two at once), each statement under the running question's budget."""
        if self._heavy_engine is None:
            from .core.budget import guard_engine
            from .core.db import make_engine

            workers = self.gate.workers
            engine = make_engine(self.db, must_exist=True, read_only=not self.writable, pool=(workers, workers))
            guard_engine(engine)
            self._heavy_engine = engine
        return self._heavy_engine

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def version(self) -> int | None:
        """The archive's change marker: a number that every committed change moves (an import, fix, undo, delete,
        alias or reindex, by this process or another), read in one small query, so that answers kept from an equal
        version still hold. None for an archive made before the marker that could not be written to add it: keep
        nothing from it."""
        from .core.state import read_version

        return read_version(self.engine)

    # -- read questions ------------------------------------------------------------------------------------------

    def board(self, filters: Filters | None = None, **criteria: Any) -> tuple[Game, int]:
        """The board a position or a pattern is on: the filters' game (default Go) and size (default: the
        game's), checked against the sizes the game is played on."""
        f = merged(filters, criteria)
        game = Game(game_value(f.game)) if f.game else Game.GO
        size = f.size or SPECS[game].default_size
        if size is None:
            raise InputError(f"{SPECS[game].title} needs --size")
        check_size(game, size)
        return game, size

    def search(self, filters: Filters | None = None, *, sort: str = "id", limit: int | None = DEFAULT_LIMIT,
               offset: int = 0, budget: Budget | None = None, **criteria: Any) -> GamePage:
        """The games that match every filter, sorted (`sort`: SORT_NAMES, `-` first for descending, several with
        commas), one page of them (`limit` None or 0: all, from `offset`), and how many match in all. A search
        with a wildcard or a text is a heavy question: `budget` applies to it (the class's docstring)."""
        from .answers import GamePage
        from .core.db import session_scope
        from .core.search import count, search

        f = merged(filters, criteria)
        with self._heavy(budget if heavy_filters(f) else None, "the search") as engine, \
                session_scope(engine) as session:
            found = search(session, f, sort=sort, limit=limit or None, offset=offset, light=True)
            total = count(session, f) if (limit and len(found) == limit) or offset else len(found)
        return GamePage(found, total)

    def record(self, record_id: int) -> StoredRecord:
        """The stored record `record_id`: its row and its stored verdict (NotFound when there is none)."""
        from .answers import StoredRecord
        from .core.rows import problems_of, rows_by_ids
        from .core.stored import stored_verdict

        found, _ = rows_by_ids(self.engine, [record_id])
        if not found:
            raise NotFound(f"no record {record_id} in the archive")
        return StoredRecord(found[0], stored_verdict(found[0], problems_of(self.engine, record_id)),
                            version=self.record_version(record_id))

    def record_version(self, record_id: int) -> int:
        """The version the record `record_id` is at: 1 as imported, one more with every fix and undo. A fix or an
        undo given `version` is made only while the record is still at it."""
        from .store.curate import current_version

        with self.engine.connect() as conn:
            return current_version(conn, record_id)

    def export(self, ids: Iterable[int] = (), filters: Filters | None = None, *, sort: str = "id",
               limit: int | None = None, **criteria: Any) -> Export:
        """The stored records to write out, whole (`records export`): those of `ids` (in that order, narrowed by
        the filters when any are given; the ids not in the archive are listed in `missing`), else those the
        filters and `criteria` select in the order `sort`, at most `limit` (None: all). With neither ids nor a
        filter it gives every record."""
        from .answers import Export
        from .core.rows import rows, rows_by_ids

        f = merged(filters, criteria)
        wanted = list(ids)
        if not wanted:
            return Export(rows(self.engine, f, sort=sort, limit=limit or None))
        found, missing = rows_by_ids(self.engine, wanted)
        if not f.empty:
            keep = {r.id for r in rows(self.engine, replace(f, ids=[r.id for r in found if r.id is not None]),
                                       sort="id", limit=None)}
            found = [r for r in found if r.id in keep]
        return Export(found, list(dict.fromkeys(missing)))

    def position(self, moves: str | Target = "", filters: Filters | None = None, **criteria: Any) -> Target:
        """The position after `moves` (Q16,D4 or pd,dp from the start) on the board of the filters' game and
        size (`board`); a Target (verifier/keys/targets.py) is taken as it is."""
        from ..verifier.keys.targets import Target, target_of_moves

        if isinstance(moves, Target):
            return moves
        game, size = self.board(filters, **criteria)
        return target_of_moves(moves or "", game, size)

    def reached(self, moves: str | Target = "", filters: Filters | None = None, *, limit: int | None = DEFAULT_LIMIT,
                offset: int = 0, budget: Budget | None = None, **criteria: Any) -> ReachedPage:
        """The games that reached the position after `moves` (any move order, any symmetry; or a Target: a
        record's position, stones), one page of them (`limit` None or 0: all), newest first. With filters beyond
        the game and size it is a heavy question: `budget` applies to it."""
        f = merged(filters, criteria)
        at = self.position(moves, f)
        with self._heavy(budget if _filtered(f) else None, "the position search") as engine:
            return self._reached(engine, at, f, limit=limit, offset=offset)

    @staticmethod
    def _reached(engine: Engine, at: Target, f: Filters, *, limit: int | None, offset: int,
                 total: int | None = None) -> ReachedPage:
        from .answers import ReachedPage
        from .positions.explore import count_at, games_at

        found = games_at(engine, at.key, f, limit=limit or 1_000_000_000, offset=offset)
        if total is None:
            total = count_at(engine, at.key, f) if (limit and len(found) == limit) or offset else len(found)
        return ReachedPage(at, found, total)

    def explore(self, moves: str | Target = "", filters: Filters | None = None, *, games: int = 0, offset: int = 0,
                budget: Budget | None = None, **criteria: Any) -> Exploration:
        """What was played at the position after `moves` (or a Target): each next move with its games, wins,
        draws, swaps and when last played. At the start of Conversion Go (no moves typed): its openings of turns
        1-3 (CON-5) instead. `games`: also that many of the games that reached it, from `offset`. With filters
        beyond the game and size it is a heavy question: `budget` applies to it."""
        from .answers import Exploration
        from .positions.explore import explore, opening_report

        f = merged(filters, criteria)
        at = self.position(moves, f)
        with self._heavy(budget if _filtered(f) else None, "the exploration") as engine:
            if at.game is Game.CONVERSION_GO and isinstance(moves, str) and not moves.strip():
                from ..verifier.keys.targets import OPENING_TURNS

                report = opening_report(engine, at.key, at.game.value, at.size, f, ply=OPENING_TURNS)
                answer = Exploration(at, report["games"], openings=report)
                known = None  # the openings' count is not the position's
            else:
                total, found = explore(engine, at.key, f)
                answer = Exploration(at, total, found)
                known = total
            if games:
                answer.reached = self._reached(engine, at, f, limit=games, offset=offset, total=known)
        return answer

    def pattern_search(self, pattern: str | None = None, filters: Filters | None = None, *, anchor: str | None = None,
                       either_colour: bool = False, pattern_from: int | Record | None = None,
                       region: str | None = None, move: int | None = None, limit: int | None = DEFAULT_LIMIT,
                       offset: int = 0, tenuki: str | None = None, budget: Budget | None = None,
                       **criteria: Any) -> PatternAnswer:
        """The games where a pattern appeared and what was played next in and around it.

        The pattern is `pattern` (rows of X, O, . and *, separated by / or newlines) on the board of the filters'
        game and size, drawn at `region` when the anchor allows it there; or the region `region` of a record
        (`pattern_from`: a stored record's id, or a Record) after `move` moves (None: the end of its line).
        `anchor`: anywhere, corner, edge, or sides (top-right...); `either_colour`: with the colours exchanged
        too; `tenuki`: which continuations in the region count as tenuki, `between` or `kombilo`
        (common/settings.py TENUKI_GAPS; None: the archive's settings). A heavy question: `budget` applies to it
        (its time, and its cap on the appearances held)."""
        from ..common.settings import tenuki_rule
        from ..records.model import Record
        from ..verifier.keys.patterns import offsets, parse_anchor, parse_pattern, parse_region, pattern_of_region
        from .answers import PatternAnswer
        from .core.rows import games_by_id
        from .patterns.search import search_pattern

        if self._goes_apart(budget):
            return self._apart(budget, "the pattern search", PATTERN_HINT, "pattern_search", pattern, filters,
                               anchor=anchor, either_colour=either_colour, pattern_from=pattern_from, region=region,
                               move=move, limit=limit, offset=offset, tenuki=tenuki, **criteria)
        f = merged(filters, criteria)
        if (pattern is None) == (pattern_from is None):
            raise InputError("give a pattern (rows of X, O, . and *) or pattern-from (a record, with region and "
                             "move), not both" if pattern is not None else "give a pattern or pattern-from")
        if pattern is not None and len(pattern) > PATTERN_MAX:
            raise InputError(f"a pattern of at most {PATTERN_MAX} characters")
        board = None
        parse_anchor(anchor)
        if pattern_from is not None:
            if region is None:
                raise InputError("--pattern-from needs --region, e.g. --region Q16:T19")
            record = pattern_from if isinstance(pattern_from, Record) else self.record(pattern_from).record
            board = self._board_after(record, move)
            found, origin = pattern_of_region(board, record.game, region, anchor=anchor)
            game, size = record.game, record.size
        else:
            game, size = self.board(f)
            found = parse_pattern(pattern or "", anchor)
            origin = reference(found, size)
            if region is not None:
                left, top, right, bottom = parse_region(region, game, size)
                if (right - left + 1, bottom - top + 1) != (found.width, found.height):
                    raise InputError(f"the region {region!r} is not the pattern's {found.width}x{found.height}")
                if (left, top) in offsets(found, size):
                    origin = (left, top)
        with self._heavy(budget, "the pattern search", PATTERN_HINT) as engine:
            result = search_pattern(engine, found, game, size, f, either_colour=either_colour,
                                    plain_scan=self.settings.plain_scan,
                                    tenuki=self.settings.tenuki if tenuki is None else tenuki_rule(tenuki),
                                    budget=budget, kept=self.kept_lines)
            hits = result.hits[offset:offset + limit] if limit else result.hits[offset:]
            rows = games_by_id(engine, [h.game_id for h in hits]) if hits else {}
        shown = [(rows[h.game_id], h.moves) for h in hits if h.game_id in rows]
        return PatternAnswer(found, game, size, origin, either_colour, result, shown, board)

    def board_after(self, record_id: int, move: int | None = None) -> tuple[Record, Rows]:
        """A stored record and its board (rows of stones) after `move` moves (None: the end of its line)."""
        record = self.record(record_id).record
        return record, self._board_after(record, move)

    @staticmethod
    def _board_after(record: Record, move: int | None) -> Rows:
        from ..verifier.keys.targets import board_after

        return board_after(record, move)

    def signature_search(self, signature: str, *, size: int | None = None, limit: int | None = DEFAULT_LIMIT,
                         offset: int = 0) -> GamePage:
        """The games of Go or Conversion Go with the Dyer signature `signature` in any symmetry (of boards of
        `size`, or of every size its points fit), newest first."""
        from .answers import GamePage
        from .core.rows import rows_by_ids
        from .patterns.signatures import games_by_signature

        try:
            ids = games_by_signature(self.engine, signature, size)
        except ValueError as exc:
            raise InputError(f"--signature: {exc}") from exc
        page = ids[offset:offset + limit] if limit else ids[offset:]
        found, _ = rows_by_ids(self.engine, page) if page else ([], [])
        return GamePage(found, len(ids))

    def duplicates(self) -> Duplicates:
        """The games stored more than once, decided on their moves (archive/patterns/same_game.py): groups of the
        same game (one line, the same players, one file format), of the same moves (under other players' names or
        in other formats) and of a record that is the beginning of another, each with the copy to keep (the one
        holding most: the longest line, then a result, then more header fields, then the oldest)."""
        from ..records.formats import recognise
        from .answers import DuplicateGroup, Duplicates
        from .core.rows import games_by_id
        from .patterns.same_game import group_kind, same_game_groups, unkeyed

        found = same_game_groups(self.engine)
        rows = games_by_id(self.engine, [line.id for g in found for line in g if line.id is not None]) if found else {}
        groups = []
        for group in found:
            ids = [line.id for line in group if line.id in rows]
            formats = [recognise(rows[i].raw, rows[i].source_file) or "sgf" for i in ids]
            groups.append(DuplicateGroup(group_kind(group, formats), ids[0], sorted(ids)))
        return Duplicates(groups, rows, unkeyed(self.engine))

    def stats(self, filters: Filters | None = None, *, players: int = 20, **criteria: Any) -> Stats:
        """Per game: records, the share that passes, results by method, win rates, the pie swap; per player
        (at most `players`, 0: all): games and wins."""
        from .answers import Stats
        from .core.db import session_scope
        from .core.stats import game_stats, player_stats

        f = merged(filters, criteria)
        with session_scope(self.engine) as session:
            return Stats(game_stats(session, f), player_stats(session, f, limit=players))

    def players(self, game: str | None = None, *, budget: Budget | None = None) -> Players:
        """Every player with games, wins, losses and draws per game (of `game`, by any of its names). A heavy
        question: `budget` applies to it."""
        from .answers import Players
        from .core.db import session_scope
        from .tournaments.players import player_list

        if self._goes_apart(budget):
            return self._apart(budget, "the list of players", None, "players", game)
        kind = game_named(game)
        with self._heavy(budget, "the list of players") as engine, session_scope(engine) as session:
            return Players(player_list(session, kind))

    def player_card(self, name: str, *, budget: Budget | None = None) -> PlayerCard:
        """One player (`name`: any of their spellings or aliases): every game, the results against each opponent,
        by colour, by game and by event, the openings they play most (archive/tournaments/player_card.py says what
        an opening is), their events and their rating history per game. NotFound when no game names them. A heavy
        question (the ratings run over the whole archive): `budget` applies to it."""
        from .answers import PlayerCard
        from .core.db import session_scope
        from .tournaments.player_card import player_card
        from .tournaments.ratings import ratings

        if not name.strip():
            raise InputError("a player's name must not be empty")
        if "\x00" in name:
            raise InputError("the player's name holds a NUL character (U+0000), which no database stores")
        if self._goes_apart(budget):
            return self._apart(budget, "the player's page", None, "player_card", name)
        with self._heavy(budget, "the player's page") as engine, session_scope(engine) as session:
            card = player_card(engine, session, name)
            if card is None:
                raise NotFound(f"no records of player {name!r}")
            mine = []
            for game in sorted(card.by_game):
                mine += [r for r in ratings(session, game).ratings if r.key == card.key]
        return PlayerCard(card, mine)

    def events(self, game: str | None = None, *, budget: Budget | None = None) -> Events:
        """Every event (EV): its games, dates, rounds, players, records and how many pass. A heavy question:
        `budget` applies to it."""
        from .answers import Events
        from .core.db import session_scope
        from .tournaments.events import list_events

        if self._goes_apart(budget):
            return self._apart(budget, "the list of events", None, "events", game)
        kind = game_named(game)
        with self._heavy(budget, "the list of events") as engine, session_scope(engine) as session:
            return Events(list_events(session, kind))

    def crosstable(self, event: str, game: str | None = None, notation: str = "records") -> EventTable:
        """The crosstable of `event` (named as EV names it; case, spacing and punctuation do not matter) with its
        tie-breaks, its cells in `notation` ("records", or "opengotha": `23+/w0`); when a tournament of that name
        was imported (for the event's game), its official results with each board's record and disagreements.
        InputError when the event holds records of several games and `game` names none, or for another
        notation."""
        from .answers import EventTable
        from .core.db import session_scope
        from .core.names import load_identities, player_names
        from .tournaments.check import check_records, match
        from .tournaments.crosstable import NOTATIONS, crosstable, pairing_from_row, players_of
        from .tournaments.events import event_rows
        from .tournaments.official import load_tournament
        from .tournaments.official_table import official_table

        if notation not in NOTATIONS:
            wrong = InputError(f"no crosstable notation {notation!r} (the notations: {', '.join(NOTATIONS)})")
            wrong.field = "notation"
            raise wrong
        kind = game_named(game)
        with session_scope(self.engine) as session:
            name, rows = event_rows(session, event, kind)
            ids = load_identities(session)
            names = player_names(session, ids, players_of(rows))
        if not rows or name is None:
            raise NotFound(f"no records of event {event!r}" + (f" in {game_title(kind)}" if kind else ""))
        kinds = sorted({r.game for r in rows})
        if len(kinds) > 1:
            raise InputError(f"event {name!r} holds records of several games ({', '.join(kinds)}): name one with "
                             "--game")
        pairings = [p for p in (pairing_from_row(r, ids.key) for r in rows) if p is not None]
        table = crosstable(name, pairings, names)
        table.notation = notation
        official = load_tournament(self.engine, name) or load_tournament(self.engine, event)
        if official is None or official.settings.get("game", kinds[0]) != kinds[0]:
            return EventTable(table)
        return EventTable(table, official_table(official, match(official, check_records(rows, ids.key), ids.key)))

    def ratings(self, game: str | None = None, player: str | None = None, limit: int = 0, *,
                budget: Budget | None = None) -> Ratings:
        """Whole-History Rating of every player, per game (at most `limit` players per game, 0: all); with
        `player`, that player's ratings with their history (NotFound when none is rated). A heavy question:
        `budget` applies to it."""
        from .answers import Ratings
        from .core.db import session_scope
        from .core.names import load_identities
        from .tournaments.ratings import ratings

        if self._goes_apart(budget):
            return self._apart(budget, "the ratings", None, "ratings", game, player, limit)
        kind = game_named(game)
        with self._heavy(budget, "the ratings") as engine, session_scope(engine) as session:
            run = ratings(session, kind)
            ids = load_identities(session)
        if player is None:
            return Ratings(run, run.best(limit))
        key = ids.key(player)
        mine = [r for r in run.ratings if r.key == key]
        if not mine:
            raise NotFound(f"no rated records of {player!r}")
        return Ratings(run, run.best(limit), player, mine)

    # -- writers -------------------------------------------------------------------------------------------------
    # Each writer asks `_writable` for the engine first: on an archive opened read-only it raises ArchiveError
    # before anything is read or written.

    def _writable(self, what: str) -> Engine:
        if not self.writable:
            from ..common.errors import ArchiveError
            from .core.db import named

            raise ArchiveError(f"cannot {what}: the archive {named(self.db)} was opened read-only (open it with "
                               "Archive(db, write=True))")
        return self.engine

    def import_paths(self, paths: Iterable[str | Path], *, workers: int | None = None, batch_size: int = 500,
                     skip_duplicates: bool = False,
                     progress: Callable[[ImportProgress], None] | None = None) -> ImportSummary:
        """Read, verify and store the records of `paths` (files, and folders searched for record files as
        `records import` searches them); returns what was stored, read and refused, as that command reports it.

        `workers`: processes that parse and verify (None: one per CPU but one, at most 8; 1: none); `batch_size`:
        records per transaction; `skip_duplicates`: keep out the near-duplicates too (one game with a stored record
        or an earlier one, in other bytes: the summary counts them as duplicates of their kind, docs/patterns.md);
        `progress`: called after each file. A path that cannot be opened is listed in the summary's
        `missing`. Ctrl-C raises ImportInterrupted (a KeyboardInterrupt) whose `summary` counts the records of the
        batches committed before it; the same import run again stores the rest.
        """
        from .store.collect import collect_files
        from .store.importer import Importer, ImportInterrupted, ImportProgress

        engine = self._writable("import records")
        files, missing = collect_files(paths)

        def on_file(result: FileResult) -> None:
            if progress is not None:
                progress(ImportProgress(result, len(files), importer.summary))

        importer = Importer(engine, batch_size=batch_size, workers=workers, on_file=on_file,
                            skip_near=skip_duplicates, settings=self.settings)
        importer.summary.missing.extend(missing)
        try:
            return importer.run(files)
        except KeyboardInterrupt as exc:
            raise ImportInterrupted(importer.summary) from exc

    def fix(self, record_id: int, settings: Mapping[str, str] | Iterable[tuple[str, str]], *,
            version: int | None = None) -> GameRow:
        """Set root properties of the stored record `record_id` (`{"PB": "Lee Sedol", "RO": "3"}`, or pairs; an
        empty value removes the property) and store it as the record's new version, verified again, its index rows
        with it in the same transaction; the bytes it replaces go to its history. Returns the row as stored now.

        Raises Unchanged when the record already holds these settings (no version is stored), FixError for a
        setting that cannot be made (the moves, setup and frame are not fixed this way), LookupError when there
        is no such record. `version`: the version (`record_version`) the change was made on; when the record is
        at another one by the time the fix would be stored, StaleVersion (a FixError, with the current version
        and header) and nothing is written: the comparison and the write are one transaction."""
        from .store.curate import checked_settings, fix_record

        engine = self._writable("fix a record")
        return fix_record(engine, record_id, checked_settings(settings), patterns=self.settings.patterns,
                          expected=version)

    def undo_fix(self, record_id: int, *, version: int | None = None) -> GameRow:
        """Bring back the version the last fix of `record_id` replaced (the undo is kept in the history too);
        FixError for a record never fixed, Unchanged when it holds those bytes already; `version` as for `fix`."""
        from .store.curate import undo_fix

        return undo_fix(self._writable("undo a fix"), record_id, patterns=self.settings.patterns, expected=version)

    def history(self, record_id: int) -> list[GameVersionRow]:
        """The versions of `record_id` that fixes replaced, oldest first (empty for a record never fixed); a read,
        so a read-only archive answers it too."""
        from .store.curate import history

        return history(self.engine, record_id)

    def delete(self, filters: Filters | None = None, *, confirm: Callable[[int], bool] | None = None,
               **criteria: Any) -> list[int]:
        """Delete the records that `filters` and `criteria` (the fields of Filters: `ids=[3, 4]`, `event="Cup"`)
        select, with their problems, history and index rows; returns their ids.

        Nothing selects every record: with no filter at all it raises InputError. NotFound when no record
        matches. `confirm`, when given, is asked with how many records match before anything is deleted; False
        deletes nothing (and returns [])."""
        from .core.db import session_scope
        from .core.search import count
        from .store.curate import delete_records

        engine = self._writable("delete records")
        chosen = merged(filters, criteria)
        if chosen.empty:
            raise InputError("name record ids or give search filters")
        if confirm is not None:
            with session_scope(engine) as session:
                n = count(session, chosen)
            if not n:
                raise NotFound("no records match")
            if not confirm(n):
                return []
        deleted = delete_records(engine, chosen)
        if not deleted and confirm is None:
            raise NotFound("no records match")
        return deleted

    def alias(self, name: str, *others: str) -> list[tuple[str, str]]:
        """Make each of `others` the same player as `name`, in every search, statistic, crosstable and rating;
        returns (spelling key, player key) for each made. AliasError (a ValueError) for an empty name."""
        from .tournaments.players import AliasError, add_alias

        engine = self._writable("make an alias")
        if not others:
            raise AliasError("give a player and at least one other spelling")
        return add_alias(engine, name, others)

    def remove_alias(self, name: str) -> int:
        """Undo `alias` for `name`: its own alias, or (for a player others were made) all that point to it;
        returns how many aliases were removed (0 when it has none)."""
        from .tournaments.players import remove_alias

        return remove_alias(self._writable("remove an alias"), name)

    def aliases(self) -> list[AliasRow]:
        """Every alias, by player then spelling key (a read: a read-only archive answers it too)."""
        from .core.db import session_scope
        from .tournaments.players import aliases

        with session_scope(self.engine) as session:
            return aliases(session)

    def set_player_numbers(self, name: str, *, egd_pin: str | None = None, aga_id: str | None = None,
                           ffg_licence: str | None = None) -> dict[str, str]:
        """Set by hand the federation numbers of the player `name` (None leaves one as it is, "" removes the one
        set by hand); a number set by hand wins over the tournament files'. Spellings sharing a number are one
        player (archive/core/numbers.py). Returns the numbers now set by hand; NumberError (an InputError) for a
        value that is no number."""
        from .tournaments.players import set_numbers

        return set_numbers(self._writable("set a player's numbers"), name,
                           {"egd_pin": egd_pin, "aga_id": aga_id, "ffg_licence": ffg_licence})

    def player_numbers(self) -> PlayerNumbers:
        """Every player with a federation number (EGD PIN, AGA id, FFG licence), and every conflict between
        numbers (a spelling with two, or a join refused)."""
        from .answers import PlayerNumbers
        from .core.db import session_scope
        from .tournaments.players import numbered_players

        with session_scope(self.engine) as session:
            return PlayerNumbers(*numbered_players(session))

    def reindex(self, *, batch: int = 500, progress: Callable[[int], None] | None = None) -> ReindexSummary:
        """Rebuild the position index and the pattern change lists from the stored records, and bring stored
        verdicts up to the rules as they stand; `progress` is told how many records are done after each batch of
        `batch`. Stopped (Ctrl-C), the records done so far stay indexed and the others answer as before."""
        from .store.reindex import reindex

        return reindex(self._writable("reindex"), batch=batch, on_batch=progress, patterns=self.settings.patterns)

    # -- official tournaments (tournament files) -------------------------------------------------------------------

    def import_tournament(self, data: bytes, source: str = "", *, game: str | None = None,
                          name: str | None = None) -> TournamentImport:
        """Store the tournament an OpenGotha file holds (`data`, its bytes; `source`, its name for messages):
        players, rounds, pairings and byes with the official results, and the settings. With `game` (any game, by
        any of its names) the file is a table of pairings instead (CSV or TSV: round,black,white,result;
        archive/tournaments/pairings_file.py), the tournament named `name` (else the file's name without its
        suffix). A tournament of the same short name is replaced whole (a later save updates it).
        TournamentFileError (an InputError) for a file that cannot be read, before anything is changed."""
        from .answers import TournamentImport
        from .core.db import session_scope
        from .core.names import identity_key, load_identities
        from .tournaments.official import store_tournament
        from .tournaments.opengotha import parse_tournament

        engine = self._writable("import a tournament")
        kind = game_named(game)
        if kind is None:
            found = parse_tournament(data, source or "the file")
        else:
            from pathlib import PurePath

            from .tournaments.pairings_file import parse_pairings

            title = " ".join((name or PurePath(source).stem or "").split())
            if not title:
                raise InputError("a table of pairings needs the tournament's name (--name)")
            found = parse_pairings(data, kind, title, source or "the file")
        stored = store_tournament(engine, found, source)
        with session_scope(self.engine) as session:
            conflicts = load_identities(session).conflicts
        mine = {identity_key(n) for p in found.players for n in (p.full_name, f"{p.name} {p.first_name}")}
        return TournamentImport(tournament=found, updated=stored.updated,
                                conflicts=[c for c in conflicts if mine & {identity_key(n) for n in c.players}])

    def tournament(self, name: str) -> OfficialTournament:
        """The imported tournament whose name or short name is `name` (case, spacing and punctuation aside);
        NotFound when none is."""
        from .tournaments.official import load_tournament

        found = load_tournament(self.engine, name)
        if found is None:
            raise NotFound(f"no tournament named {name!r} was imported (records tournament import FILE.xml)")
        return found

    def check_tournament(self, event: str, game: str | None = None) -> TournamentCheck:
        """The records of `event` (named as its imported tournament is: name or short name) matched to the
        tournament's pairings, and every disagreement (archive/tournaments/check.py says which); NotFound when no
        tournament of that name was imported."""
        from .answers import TournamentCheck
        from .core.db import session_scope
        from .core.names import load_identities
        from .tournaments.check import check, check_records
        from .tournaments.events import event_rows

        official = self.tournament(event)
        kind = game_named(game) or official.settings.get("game")
        with session_scope(self.engine) as session:
            rows = event_rows(session, official.name, kind)[1] or event_rows(session, official.short_name, kind)[1]
            ids = load_identities(session)
        records = check_records(rows, ids.key)
        return TournamentCheck(tournament=official.name, records=len(records),
                               pairings=sum(not p.bye for p in official.pairings),
                               disagreements=check(official, records, ids.key))

    def export_tournament(self, event: str, format: str = "h9") -> str:
        """The imported tournament `event` in a federation's format: "h9", the EGD's results file, with McMahon
        score, SOS and SOSOS computed from the tournament's settings as OpenGotha computes them
        (archive/tournaments/mcmahon.py). InputError for another format; NotFound when no such tournament."""
        from .tournaments.mcmahon import h9

        if format.lower() != "h9":
            raise InputError(f"no tournament format {format!r} (the formats: h9)")
        found = self.tournament(event)
        if found.settings.get("game", "go-ing") != "go-ing":
            raise InputError(f"{found.name} is a tournament of {game_title(found.settings['game'])}: the h9 is the "
                             "EGD's format, for Go")
        return h9(found)

    # -- accounts (archive/store/accounts.py; a served archive's sign-in, docs/serve.md) -------------------------
    # A password given to these is hashed and dropped: never stored, logged or named in an error.

    def users(self) -> Accounts:
        """Every account, by name, with its role (a read: a read-only archive answers it too)."""
        from .answers import Accounts
        from .store.accounts import accounts

        return Accounts(accounts(self.engine))

    def user(self, name: str) -> AccountRow:
        """The account `name` (NotFound when there is none)."""
        from .store.accounts import account

        return account(self.engine, name)

    def add_user(self, name: str, password: str, *, role: str = "viewer") -> AccountRow:
        """A new account of `role` (`viewer`, `editor`, `admin`) with the password's argon2id hash; AccountError
        (an InputError) for a name taken, or a name, role or password that cannot be one."""
        from .store.accounts import add_account

        return add_account(self._writable("add an account"), name, role, password)

    def remove_user(self, name: str) -> None:
        """Remove the account `name` (NotFound when there is none)."""
        from .store.accounts import remove_account

        remove_account(self._writable("remove an account"), name)

    def set_password(self, name: str, password: str) -> None:
        """Give the account `name` a new password: what was signed in with the old one no longer holds."""
        from .store.accounts import set_password

        set_password(self._writable("change a password"), name, password)

    def set_role(self, name: str, role: str) -> None:
        """Give the account `name` another role."""
        from .store.accounts import set_role

        set_role(self._writable("change a role"), name, role)

    def check_login(self, name: str, password: str) -> AccountRow | None:
        """The account when `password` is its password, else None, whatever was wrong (an unknown name answers as
        slowly as a wrong password). On a writable archive a hash of older parameters is made anew."""
        from .store.accounts import check_login

        return check_login(self.engine, name, password, rehash=self.writable)

    def login(self, name: str, password: str) -> tuple[AccountRow, str, str] | None:
        """Sign in: when `password` is the account's, a new session of it, as (account, session key, CSRF token),
        both keys given only here (the archive keeps their hashes); None otherwise, whatever was wrong."""
        from .store.accounts import start_session

        found = self.check_login(name, password)
        if found is None:
            return None
        key, csrf = start_session(self._writable("start a session"), found)
        return found, key, csrf

    def signed_in(self, key: str, *, token: bool = False) -> Signed | None:
        """Whom a session key (or with `token`, an API token) stands for; None for a key that is none, a session
        that ended, or one begun before the password last changed."""
        from .store.accounts import SESSION, TOKEN, signed_in

        return signed_in(self.engine, key, TOKEN if token else SESSION)

    def logout(self, key: str) -> None:
        """End the session of `key`."""
        from .store.accounts import end_session

        end_session(self._writable("end a session"), key)

    def new_token(self, name: str) -> str:
        """A new API token of the account `name` (sent as `Authorization: Bearer TOKEN`), replacing its last one;
        given only here: the archive keeps its hash."""
        from .store.accounts import new_token

        return new_token(self._writable("make an API token"), name)

    def login_wait(self, keys: Sequence[str], now: float) -> float:
        """Seconds until any of `keys` (`name:NAME`, `address:ADDRESS`) may try to sign in again, from the failed
        logins the archive counts (every process of a server counts them together; store/accounts.py)."""
        from .store.accounts import login_wait

        return login_wait(self.engine, keys, now)

    def login_failed(self, keys: Sequence[str], now: float) -> None:
        from .store.accounts import login_failed

        login_failed(self._writable("count a failed login"), keys, now)

    def login_failures(self, key: str) -> int:
        from .store.accounts import login_failures

        return login_failures(self.engine, key)

    def login_succeeded(self, key: str) -> None:
        from .store.accounts import login_succeeded

        login_succeeded(self._writable("forget failed logins"), key)

    def visibility(self) -> str:
        """"public" or "private": whether an anonymous visitor of a served archive with accounts reads it."""
        from .store.accounts import visibility

        return visibility(self.engine)

    def set_visibility(self, value: str) -> None:
        from .store.accounts import set_visibility

        set_visibility(self._writable("change the visibility"), value)

    def audit(self, *, limit: int | None = None, ids: Iterable[int] | None = None,
              actions: Iterable[str] | None = None) -> Audit:
        """The audit log of the changes made through a served archive, newest first (at most `limit`); with `ids`,
        the rows of changes to exactly those records, with `actions` of those actions only."""
        from .answers import Audit
        from .store.audit import audit_rows

        return Audit(audit_rows(self.engine, limit=limit, ids=ids, actions=actions))

    def log_change(self, who: str, action: str, ids: Iterable[int] = (), *, before: Any = None,
                   after: Any = None) -> None:
        """Write a row of the audit log: the account `who` did `action` to the records `ids`."""
        from .store.audit import record_change

        record_change(self._writable("write the audit log"), who, action, ids, before=before, after=after)

    # -- recordings (archive/store/recordings.py): games recorded as they are played ----------------------------
    # Every change is checked by the game's engine and committed before the method returns.

    def start_recording(self, game: str, size: int | None = None, *, who: str | None = None,
                        **header: Any) -> Position:
        """A new recording of `game` on a `size` board (the game's default when None). Header fields: black,
        white, black_rank, white_rank, event, round, date (today when not given), place, name, ruleset, komi,
        handicap, time (seconds each), overtime, and for Go setup_black / setup_white (points) and first (B or W).
        InputError for a field that cannot be one."""
        from .store.recordings import start

        return start(self._writable("start a recording"), game, size, header, who)

    def recording(self, recording_id: int) -> Position:
        """Where the recording stands: its moves, who moves next, whether the game has ended, the special moves
        the rules offer now, the board. NotFound when there is none."""
        from .store.recordings import position

        return position(self.engine, recording_id)

    def recordings(self, state: str = "playing") -> list[Summary]:
        """The recordings in `state` (`playing`: the games being played now; `finished`, `discarded`), latest
        changed first."""
        from .store.recordings import DISCARDED, FINISHED, PLAYING, listing

        if state not in (PLAYING, FINISHED, DISCARDED):
            raise InputError(f"state: {PLAYING}, {FINISHED} or {DISCARDED}")
        return listing(self.engine, state)

    def recording_revision(self, recording_id: int) -> int | None:
        """The recording's revision, moved by every change (None: no such recording): what a watcher polls."""
        from .store.recordings import revision

        return revision(self.engine, recording_id)

    def play_move(self, recording_id: int, move: str, *, colour: str | None = None, after: int | None = None,
                  comment: str | None = None, black_time: float | None = None, white_time: float | None = None,
                  marks_black: Iterable[str] = (), marks_white: Iterable[str] = ()) -> Position:
        """Play `move` (as the record format writes it, FMT-12, or in the game's notation: `Q16`, `d3-f1`, `pass`,
        `swap`, `sweep-3`, `resign`) in the recording and store it. `colour`: the colour that plays (by default
        the colour to move); `after`: the number of moves the caller saw (StalePosition when the game has moved
        on); the clocks after the move in seconds (BL/WL); the end-of-game marks of a final pass (TB/TW, ING-7,
        CON-7). MoveRefused, with the rule, for a move the rules refuse."""
        from .store.recordings import Entry, play

        entry = Entry(move, colour, after, comment, black_time, white_time, tuple(marks_black), tuple(marks_white))
        return play(self._writable("record a move"), recording_id, entry)

    def undo_move(self, recording_id: int, *, after: int | None = None) -> Position:
        """Take back the last move (kept as a variation of the record when another replaces it)."""
        from .store.recordings import undo

        return undo(self._writable("undo a move"), recording_id, after)

    def comment_move(self, recording_id: int, text: str, *, number: int | None = None,
                     after: int | None = None) -> Position:
        """Set the comment of move `number` of the recording (the last move by default)."""
        from .store.recordings import comment

        return comment(self._writable("comment on a move"), recording_id, text, number, after)

    def mark_recording(self, recording_id: int, *, black: Iterable[str] = (), white: Iterable[str] = (),
                       after: int | None = None) -> Position:
        """Set the end-of-game marks on the final pass (TB `black`, TW `white`: the stones agreed dead in Go,
        ING-7, the conversions of Conversion Go, CON-7), checked by the rules; MoveRefused, with the rule,
        otherwise."""
        from .store.recordings import set_marks

        return set_marks(self._writable("mark the end of a game"), recording_id, tuple(black), tuple(white), after)

    def finish_recording(self, recording_id: int, result: str | None = None) -> Finished:
        """Store the recording in the archive as `records import` stores a record: its id and verdict. `result`:
        the result an editor enters (needed when the game has not ended by the rules or a resignation)."""
        from .store.recordings import finish

        return finish(self._writable("finish a recording"), recording_id, result, settings=self.settings)

    def discard_recording(self, recording_id: int) -> None:
        """Give up a recording being played (it leaves the list of games being played)."""
        from .store.recordings import discard

        discard(self._writable("discard a recording"), recording_id)

    def last_id(self) -> int:
        """The highest record id stored (0: none)."""
        from sqlalchemy import func, select

        from .core.models import GameRow

        with self.engine.connect() as conn:
            return int(conn.execute(select(func.max(GameRow.id))).scalar() or 0)
