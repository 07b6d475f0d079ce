"""Games recorded as they are played: each move checked by the game's engine when it is entered, stored in its own
committed transaction before the answer, and the finished game stored as a record through the import's own path.

A recording is a row of `recording` (its game, board and header) and a tree of `recording_move` rows: the line
played runs from the first move to the row `tip` names; a move undone and then replaced stays in the tree, and
the record written at the end keeps it as a variation (FMT-1: the main line first at every branch).

Every change runs in one transaction that holds the recording's row (PostgreSQL: `SELECT ... FOR UPDATE`;
SQLite: the write lock BEGIN IMMEDIATE takes), so two writers of one game are served one after the other: the
second sees the first's move. A writer that sends the number of moves it saw (`after`) is refused when the game
has moved on since (StalePosition), so that two clients cannot fork a game.

A move's legality is the verifier's: the line is written as a record, read back and replayed by the game's
engine (verifier/judging/replay.py) with the new move at its end; the engine's IllegalMove (its code, rule and
reason) becomes a MoveRefused.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, inspect, select, update
from sqlmodel import col
from typing_extensions import TypedDict

from ...common.errors import InputError, NotFound
from ...common.settings import DEFAULTS, Settings
from ...records.games import SPECS, Colour, Game, MoveKind, game_from_name
from ...records.model import Node, Property, Record, parse_move
from ...records.notation import NotationError, PointNames, parse_move_text, parse_point_text
from ...records.points import format_point
from ...records.reader import read_bytes
from ...records.writer import write
from ...verifier.judging.replay import Replay
from ...verifier.rules.engine import Engine as RulesEngine
from ..core.db import retrying, writer
from ..core.models import GameRow, RecordingMoveRow, RecordingRow
from ..positions.stage import merge_pending
from .record_rows import archive_rows

PLAYING, FINISHED, DISCARDED = "playing", "finished", "discarded"
TEXT_MAX = 200  # characters of a header value (a name, an event)
COMMENT_MAX = 10_000  # characters of one comment
MOVES_MAX = 5_000  # moves of one line: far beyond any game, and a bound on the replay of each new one

# The header fields a recording is started with, and the root property each one writes (FMT-8).
HEADER_FIELDS = {"black": "PB", "white": "PW", "black_rank": "BR", "white_rank": "WR", "event": "EV",
                 "round": "RO", "date": "DT", "place": "PC", "name": "GN", "ruleset": "RU", "komi": "KM",
                 "handicap": "HA", "time": "TM", "overtime": "OT"}


class MoveRefused(InputError):
    """A move that cannot be played where the game stands: the rules refuse it (`rule`, `code` as the engine's
    IllegalMove gives them), or the game has ended. The HTTP API answers it 409 with the rule."""

    def __init__(self, message: str, rule: str | None = None, code: str = "illegal", point: str | None = None) -> None:
        self.rule = rule
        self.code = code
        self.point = point
        self.message = message
        super().__init__(f"{message} ({rule})" if rule and rule not in message else message)


class StalePosition(MoveRefused):
    """A change sent for a position the game has left (`after` is not the number of moves played): 409, with the
    number the game stands at now (`StalePosition.of(seen, now)`)."""

    def __init__(self, message: str, *, seen: int = 0, now: int = 0) -> None:
        super().__init__(message, None, "stale")
        self.seen = seen
        self.now = now

    @classmethod
    def of(cls, seen: int, now: int) -> StalePosition:
        return cls(f"the game has moved on: {now} moves are played, not {seen}; the move was not played",
                   seen=seen, now=now)


# -- what is answered ---------------------------------------------------------------------------------------
# The JSON shapes (the web's answers name them, so that its OpenAPI description shows their fields).

class PlayedMoveJson(TypedDict):
    number: int
    colour: str
    value: str
    name: str
    comment: str | None
    black_time: float | None
    white_time: float | None
    entered_at: str


class PositionJson(TypedDict):
    """A recording as it stands (see Position)."""

    id: int
    game: str
    size: int
    state: str
    header: dict[str, Any]
    count: int
    moves: list[PlayedMoveJson]
    to_move: str | None
    player_to_move: str | None
    ended: bool
    stopped: bool
    result: str
    reason: str
    offered: dict[str, Any]
    board: list[str]
    revision: int
    variations: int
    record_id: int | None
    verdict: str | None


class FinishedJson(TypedDict):
    recording: int
    record: int
    verdict: str
    result: str | None
    winner: str | None
    winner_player: str | None
    new: bool


class SummaryJson(TypedDict):
    id: int
    game: str
    size: int
    black: str | None
    white: str | None
    event: str | None
    round: str | None
    moves: int
    state: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """A move of the line played, as the recording holds it."""

    number: int
    colour: str
    value: str  # as the record format writes it (FMT-12)
    name: str  # in the game's notation (GEN-10): `Q16`, `d3-f1`, `pass`
    comment: str | None
    black_time: float | None
    white_time: float | None
    entered_at: str

    def to_json(self) -> PlayedMoveJson:
        return {"number": self.number, "colour": self.colour, "value": self.value, "name": self.name,
                "comment": self.comment, "black_time": self.black_time, "white_time": self.white_time,
                "entered_at": self.entered_at}


@dataclass(slots=True)
class Position:
    """Where a recording stands: its header, the moves of the line played, who moves next, whether the game has
    ended (and how), the special moves the rules offer now, and the board (one string per row, `B`, `W`, `.`)."""

    id: int
    game: str
    size: int
    state: str
    header: dict[str, Any]
    moves: list[PlayedMove]
    to_move: str | None  # None: the game has ended, or either colour may move (Conversion Go's opening, CON-5)
    player_to_move: str | None
    ended: bool
    stopped: bool  # Go: two passes stopped the game (ING-5): it may end here or go on
    result: str  # the result the position shows (`B+`, `W+R`, `W+3.5`), `?` while it goes on
    reason: str
    offered: dict[str, Any]
    board: list[str]
    revision: int
    variations: int  # moves kept off the line played (undone or replaced)
    record_id: int | None = None
    verdict: str | None = None

    def to_json(self) -> PositionJson:
        return {"id": self.id, "game": self.game, "size": self.size, "state": self.state, "header": self.header,
                "count": len(self.moves), "moves": [m.to_json() for m in self.moves], "to_move": self.to_move,
                "player_to_move": self.player_to_move, "ended": self.ended, "stopped": self.stopped,
                "result": self.result, "reason": self.reason, "offered": self.offered, "board": self.board,
                "revision": self.revision, "variations": self.variations, "record_id": self.record_id,
                "verdict": self.verdict}


@dataclass(frozen=True, slots=True)
class Finished:
    """A recording stored in the archive: the record's id, its verdict and result as the verifier judged them."""

    recording: int
    record: int
    verdict: str
    result: str | None
    winner: str | None
    winner_player: str | None
    new: bool  # False when the archive held these bytes already (a finish sent twice)

    def to_json(self) -> FinishedJson:
        return {"recording": self.recording, "record": self.record, "verdict": self.verdict, "result": self.result,
                "winner": self.winner, "winner_player": self.winner_player, "new": self.new}


@dataclass(frozen=True, slots=True)
class Summary:
    """A recording in a listing."""

    id: int
    game: str
    size: int
    black: str | None
    white: str | None
    event: str | None
    round: str | None
    moves: int
    state: str
    updated_at: str

    def to_json(self) -> SummaryJson:
        return {"id": self.id, "game": self.game, "size": self.size, "black": self.black, "white": self.white,
                "event": self.event, "round": self.round, "moves": self.moves, "state": self.state,
                "updated_at": self.updated_at}


@dataclass(slots=True)
class Entry:
    """A move to enter: what the user typed (SGF letters, the game's notation, `pass`...) and what goes with it."""

    move: str
    colour: str | None = None  # the colour that plays it: by default the colour to move (a resignation: that too)
    after: int | None = None  # the number of moves the client saw
    comment: str | None = None
    black_time: float | None = None
    white_time: float | None = None
    marks_black: Sequence[str] = field(default_factory=tuple)  # end-of-game marks (ING-7, CON-7) of a final pass
    marks_white: Sequence[str] = field(default_factory=tuple)


# -- the tables -----------------------------------------------------------------------------------------------

def has_recordings(engine: Engine) -> bool:
    """Whether the archive has the recordings' tables (an archive made before them has not, until a writer opens
    it: archive/store/access.py)."""
    return inspect(engine).has_table(RecordingRow.__tablename__)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _stamp(moment: dt.datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.isoformat(timespec="seconds")


@contextmanager
def _change(engine: Engine, recording_id: int) -> Iterator[tuple[Connection, RecordingRow]]:
    """One transaction over one recording, its row held (see the module's docstring); committed, and with it on
    disk, before the caller answers. On SQLite the commit waits for the disk (synchronous FULL) so that a power cut
    after the answer loses nothing either."""
    sqlite = engine.dialect.name == "sqlite"
    with writer(engine).connect() as conn:
        # (on the driver's connection, outside any transaction: SQLite changes the level only there)
        raw: Any = conn.connection.dbapi_connection if sqlite else None
        if raw is not None:
            raw.execute("PRAGMA synchronous = FULL")
        try:
            with conn.begin():
                query = select(RecordingRow).where(RecordingRow.id == recording_id)  # type: ignore[arg-type]
                found = conn.execute(query.with_for_update()).first()
                if found is None:
                    raise NotFound(f"no recording {recording_id}")
                yield conn, RecordingRow.model_validate(found._mapping)
        finally:
            if raw is not None:
                raw.execute("PRAGMA synchronous = NORMAL")


def _tree(conn: Connection, recording_id: int) -> list[RecordingMoveRow]:
    query = select(RecordingMoveRow).where(RecordingMoveRow.recording_id == recording_id)  # type: ignore[arg-type]
    return [RecordingMoveRow.model_validate(r._mapping) for r in conn.execute(query.order_by(col(RecordingMoveRow.id)))]


def _line(tree: Sequence[RecordingMoveRow], tip: int | None) -> list[RecordingMoveRow]:
    """The moves from the first to `tip`, in order."""
    by_id = {m.id: m for m in tree}
    line: list[RecordingMoveRow] = []
    at = tip
    while at is not None:
        move = by_id[at]
        line.append(move)
        at = move.parent
    line.reverse()
    return line


def _read(conn: Connection, recording_id: int) -> tuple[RecordingRow, list[RecordingMoveRow]]:
    found = conn.execute(select(RecordingRow).where(RecordingRow.id == recording_id)).first()  # type: ignore[arg-type]
    if found is None:
        raise NotFound(f"no recording {recording_id}")
    return RecordingRow.model_validate(found._mapping), _tree(conn, recording_id)


def _bump(conn: Connection, row: RecordingRow, **values: Any) -> None:
    conn.execute(update(RecordingRow).where(RecordingRow.id == row.id)  # type: ignore[arg-type]
                 .values(revision=row.revision + 1, updated_at=_now(), **values))


# -- the record a recording makes -----------------------------------------------------------------------------

def _node(move: RecordingMoveRow, parent: Node) -> Node:
    props: dict[str, Property] = {move.colour: Property(move.colour, [move.value])}
    if move.comment:
        props["C"] = Property("C", [move.comment])
    for ident, seconds in (("BL", move.black_time), ("WL", move.white_time)):
        if seconds is not None:
            props[ident] = Property(ident, [_number(seconds)])
    for ident, points in (("TB", move.marks_black), ("TW", move.marks_white)):
        if points:
            props[ident] = Property(ident, points.split())
    return Node(props, parent=parent)


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _record(row: RecordingRow, tree: Sequence[RecordingMoveRow], line: Sequence[RecordingMoveRow],
            result: str | None = None) -> Record:
    """The record of the recording: its header, and its moves as a tree whose main line is `line` (the moves off
    it are variations, after the main line at their branch); `result` as its `RE`."""
    game = Game(row.game)
    root_props: dict[str, Property] = {}
    for ident, values in (("FF", ["4"]), ("CA", ["UTF-8"]), ("GM", [SPECS[game].gm_value]), ("SZ", [str(row.size)])):
        root_props[ident] = Property(ident, values)
    for ident, values in json.loads(row.header).items():
        root_props[ident] = Property(ident, list(values))
    if result:
        root_props["RE"] = Property("RE", [result])
    root = Node(root_props)
    on_line = {m.id for m in line}
    children: dict[int | None, list[RecordingMoveRow]] = {}
    for move in tree:
        children.setdefault(move.parent, []).append(move)
    stack: list[tuple[int | None, Node]] = [(None, root)]
    while stack:
        parent_id, parent = stack.pop()
        kids = sorted(children.get(parent_id, []), key=lambda m: (m.id not in on_line, m.id or 0))
        for move in kids:
            node = _node(move, parent)
            parent.children.append(node)
            if move.id is not None:  # (a move not yet stored is the last of its line)
                stack.append((move.id, node))
    draft = Record(root=root, game=game, size=row.size, raw=b"", encoding="utf-8")
    return read_bytes(write(draft), f"recording {row.id}")[0]


def _replayed(record: Record) -> Replay:
    """The main line replayed to its end; IllegalMove as MoveRefused for the first move the rules refuse."""
    run = Replay(record, quiet=True)
    for step in run:
        if step.illegal is not None:
            illegal = step.illegal
            point = format_point(illegal.point) if illegal.point is not None else None
            raise MoveRefused(f"move {step.number}: {illegal.message}", illegal.rule, illegal.code, point)
    return run


def _ended(run: Replay) -> bool:
    engine = run.engine
    return run.resigned is not None or (engine.end is not None and not engine.stopped)


def _offered(engine: RulesEngine, names: PointNames, ended: bool, marks: bool) -> dict[str, Any]:
    """The moves beyond a plain placement that the rules allow now, each by its record value and its name; and
    `marks`: whether the end-of-game marks may be set now (on the final pass, ING-7, CON-7)."""
    legal = [] if ended else engine.legal_moves()
    kinds = {m.kind for m in legal}

    def listed(kind: MoveKind) -> list[dict[str, str]]:
        return [{"value": m.sgf_value(), "name": names.move(m), "colour": m.colour.value}
                for m in legal if m.kind is kind]

    return {"pass": MoveKind.PASS in kinds, "swap": MoveKind.SWAP in kinds, "resign": not ended,
            "relocations": listed(MoveKind.RELOCATE), "removals": listed(MoveKind.REMOVE),
            "sweeps": listed(MoveKind.SWEEP),
            "places": sorted({format_point(m.point) for m in legal if m.kind is MoveKind.PLACE and m.point}),
            "colours": sorted({m.colour.value for m in legal}), "marks": marks}


def _header_json(row: RecordingRow) -> dict[str, Any]:
    stored = json.loads(row.header)
    out: dict[str, Any] = {name: (stored[ident][0] if ident in stored else None)
                           for name, ident in HEADER_FIELDS.items()}
    out["setup_black"] = stored.get("AB", [])
    out["setup_white"] = stored.get("AW", [])
    return out


def _position(row: RecordingRow, tree: Sequence[RecordingMoveRow], line: Sequence[RecordingMoveRow],
              run: Replay | None = None) -> Position:
    if run is None:
        run = _replayed(_record(row, line, line))
    engine = run.engine
    game = Game(row.game)
    names = PointNames(game, row.size)
    record = run.record
    moves = []
    for stored, node in zip(line, record.main_line(), strict=True):
        assert node.move is not None
        moves.append(PlayedMove(stored.number, stored.colour, stored.value, names.move(node.move), stored.comment,
                                stored.black_time, stored.white_time, _stamp(stored.entered_at)))
    ended = _ended(run)
    outcome = engine.outcome()
    if run.resigned is not None:
        result, reason = f"{run.resigned.other.value}+R", f"{run.resigned.word} resigned (GEN-9)"
    else:
        result, reason = (outcome.text(), outcome.reason) if engine.end is not None else ("?", "")
    to_move = None if ended else engine.to_move
    player = None if ended else run.player_name(engine.player_to_move)
    board = ["".join(c.value if c is not None else "." for c in r) for r in engine.rows()]
    marks = _markable(game, line) and (engine.stopped or (engine.end is not None and run.resigned is None))
    return Position(row.id or 0, row.game, row.size, row.state, _header_json(row), moves,
                    to_move.value if to_move else None, player, ended, engine.stopped and not ended, result, reason,
                    _offered(engine, names, ended, marks), board, row.revision, len(tree) - len(line), row.record_id,
                    row.verdict)


# -- starting -------------------------------------------------------------------------------------------------

def _text(name: str, value: object) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    if len(text) > TEXT_MAX:
        raise InputError(f"{name}: at most {TEXT_MAX} characters")
    if any(ord(c) < 32 for c in text):
        raise InputError(f"{name}: no control characters")
    return text or None


def _points(name: str, values: Sequence[str], game: Game, size: int) -> list[str]:
    out = []
    for value in values:
        try:
            out.append(format_point(parse_point_text(str(value), game, size)))
        except NotationError as exc:
            raise InputError(f"{name}: {exc}") from None
    return out


def _numeric(name: str, value: object, low: float, high: float, *, whole: bool) -> str:
    """A komi or a handicap as the record writes it; InputError for a value that is not one."""
    try:
        number = int(str(value)) if whole else float(str(value))
    except ValueError:
        raise InputError(f"{name}: {value!r} is not a {'whole ' if whole else ''}number") from None
    if not low <= number <= high:
        raise InputError(f"{name}: between {low:g} and {high:g}")
    return _number(number)


def header_of(game: Game, size: int, given: Mapping[str, Any]) -> dict[str, list[str]]:
    """The root properties of a new recording from the header fields given (HEADER_FIELDS, and for Go
    `setup_black` / `setup_white`: handicap or set-up stones, ING-8, and `first`: `B` or `W`, the colour that moves
    first, PL). InputError for a field that is none, or a value that cannot be one."""
    unknown = set(given) - set(HEADER_FIELDS) - {"setup_black", "setup_white", "first"}
    if unknown:
        raise InputError(f"no header field {', '.join(sorted(unknown))} (the fields: "
                         f"{', '.join([*HEADER_FIELDS, 'setup_black', 'setup_white', 'first'])})")
    header: dict[str, list[str]] = {}
    for name, ident in HEADER_FIELDS.items():
        value = given.get(name)
        if value is None or value == "":
            continue
        if name in ("komi", "handicap"):
            header[ident] = [_numeric(name, value, -1000 if name == "komi" else 0,
                                      1000 if name == "komi" else size * size, whole=name == "handicap")]
            continue
        text = _text(name, value)
        if text is not None:
            header[ident] = [text]
    if "DT" not in header:
        header["DT"] = [dt.date.today().isoformat()]  # the day the game is recorded
    black = _points("setup_black", given.get("setup_black") or (), game, size)
    white = _points("setup_white", given.get("setup_white") or (), game, size)
    first = given.get("first")
    if (black or white or first) and game is not Game.GO:
        raise InputError("set-up stones and the colour that moves first are for Go only (FMT-10)")
    if black:
        header["AB"] = black
    if white:
        header["AW"] = white
    if first:
        if str(first).upper() not in ("B", "W"):
            raise InputError("first: B or W")
        header["PL"] = [str(first).upper()]
    return header


def checked_board(game_name: str, size: int | None) -> tuple[Game, int]:
    """The game a name spells and its board size (the game's default when none is given): InputError otherwise."""
    game = game_from_name(str(game_name))
    if game is None:
        raise InputError(f"no game {game_name!r} (the games: {', '.join(g.value for g in Game)})")
    spec = SPECS[game]
    size = size if size is not None else spec.default_size
    if size is None:
        raise InputError(f"{spec.title} has no default board size: give the size ({spec.size_rule})")
    if not spec.min_size <= size <= spec.max_size:
        raise InputError(f"size: {spec.title} is played on boards of {spec.min_size} to {spec.max_size} "
                         f"({spec.size_rule})")
    return game, size


def start(engine: Engine, game_name: str, size: int | None, given: Mapping[str, Any],
          who: str | None = None) -> Position:
    """A new recording of `game_name` on a `size` board with the header fields `given` (see header_of)."""
    game, size = checked_board(game_name, size)
    header = header_of(game, size, given)
    row = RecordingRow(game=game.value, size=size, header=json.dumps(header), created_by=who)
    _replayed(_record(row, (), ()))  # the set-up itself must be one the rules accept
    with writer(engine).begin() as conn:
        values = row.model_dump(exclude={"id"})
        new_id = conn.execute(RecordingRow.__table__.insert().values(**values)).inserted_primary_key  # type: ignore[attr-defined]
    row.id = int(new_id[0]) if new_id else 0
    return _position(row, (), ())


# -- reading --------------------------------------------------------------------------------------------------

def position(engine: Engine, recording_id: int) -> Position:
    """Where the recording stands."""
    if not has_recordings(engine):
        raise NotFound(f"no recording {recording_id}")
    with engine.connect() as conn:
        row, tree = _read(conn, recording_id)
    return _position(row, tree, _line(tree, row.tip))


def revision(engine: Engine, recording_id: int) -> int | None:
    """The recording's revision (moved by every change), None when there is none: what a watcher polls."""
    if not has_recordings(engine):
        return None
    with engine.connect() as conn:
        found = conn.execute(select(col(RecordingRow.revision)).where(col(RecordingRow.id) == recording_id)).scalar()
    return None if found is None else int(found)


def listing(engine: Engine, state: str = PLAYING) -> list[Summary]:
    """The recordings in `state` (those being played by default), the latest changed first."""
    if not has_recordings(engine):
        return []
    with engine.connect() as conn:
        rows = [RecordingRow.model_validate(r._mapping) for r in conn.execute(
            select(RecordingRow).where(RecordingRow.state == state)  # type: ignore[arg-type]
            .order_by(RecordingRow.updated_at.desc(), RecordingRow.id.desc()))]  # type: ignore[union-attr, attr-defined]
    out = []
    for row in rows:
        header = json.loads(row.header)
        first = {ident: values[0] if values else None for ident, values in header.items()}
        out.append(Summary(row.id or 0, row.game, row.size, first.get("PB"), first.get("PW"), first.get("EV"),
                           first.get("RO"), row.moves, row.state, _stamp(row.updated_at)))
    return out


# -- changing -------------------------------------------------------------------------------------------------

def _playing(row: RecordingRow, after: int | None) -> None:
    if row.state != PLAYING:
        raise MoveRefused(f"recording {row.id} is {row.state}: nothing more can be changed", None, row.state)
    if after is not None and after != row.moves:
        raise StalePosition.of(after, row.moves)


def _seconds(name: str, value: float | None) -> float | None:
    if value is None:
        return None
    if not 0 <= value <= 1_000_000 or value != value:
        raise InputError(f"{name}: seconds left, between 0 and 1000000")
    return float(value)


def _value(entry: Entry, game: Game, size: int, colour: Colour) -> str:
    """The entry's move as the record format writes it: a value of FMT-12 as it is (`pd`, `tt` for a pass in Go),
    else the move typed in the game's notation (`Q16`, `d3-f1`, `pass`); InputError for text that is neither."""
    spec = SPECS[game]
    move = parse_move(spec, size, colour, entry.move)
    if move.kind is not MoveKind.INVALID:
        return move.sgf_value()
    if move.rule == spec.size_rule:  # SGF letters of a point off the board
        raise InputError(f"move: {move.problem}")
    try:
        value = parse_move_text(entry.move, game, size, colour)
    except NotationError as exc:
        raise InputError(f"move: {exc}") from None
    move = parse_move(spec, size, colour, value)
    if move.kind is MoveKind.INVALID:
        raise InputError(f"move: {move.problem}")
    return move.sgf_value()


def _colour(entry: Entry, before: Callable[[], Replay], value_text: str) -> Colour:
    """The colour that plays the entry: the one named, else the colour to move (a resignation too), which
    `before()`, the line replayed, tells. While either colour may move (Conversion Go's opening, CON-5) the colour
    must be named."""
    if entry.colour is not None:
        named = str(entry.colour).strip().upper()[:1]
        if named not in ("B", "W"):
            raise InputError("colour: B or W")
        return Colour(named)
    run = before()
    to_move = run.engine.to_move
    if to_move is None:
        if value_text.strip().lower() == "resign" or _ended(run):
            raise InputError("colour: name the colour (B or W) that resigns")
        raise InputError("colour: either colour may move now (CON-5): name the colour that plays (B or W)")
    return to_move


def play(engine: Engine, recording_id: int, entry: Entry) -> Position:
    """Play `entry` in the recording, checked by the rules against the line played (MoveRefused with the rule when
    they refuse it, StalePosition when `entry.after` is not the number of moves played), and store it."""
    if len(entry.move) > 40:
        raise InputError("move: at most 40 characters")
    comment = _comment(entry.comment)
    black_time, white_time = _seconds("black_time", entry.black_time), _seconds("white_time", entry.white_time)

    with _change(engine, recording_id) as (conn, row):
        _playing(row, entry.after)
        if row.moves >= MOVES_MAX:
            raise MoveRefused(f"recording {row.id} holds {MOVES_MAX} moves, the most one game may hold")
        tree = _tree(conn, recording_id)
        line = _line(tree, row.tip)
        game = Game(row.game)
        colour = _colour(entry, lambda: _replayed(_record(row, line, line)), entry.move)
        value = _value(entry, game, row.size, colour)
        marks_black = " ".join(_points("marks_black", entry.marks_black, game, row.size)) or None
        marks_white = " ".join(_points("marks_white", entry.marks_white, game, row.size)) or None
        if (marks_black or marks_white) and game not in (Game.GO, Game.CONVERSION_GO):
            raise InputError("end-of-game marks are for Go and Conversion Go (ING-7, CON-7)")
        new = RecordingMoveRow(recording_id=recording_id, parent=row.tip, number=row.moves + 1, colour=colour.value,
                               value=value, comment=comment, black_time=black_time, white_time=white_time,
                               marks_black=marks_black, marks_white=marks_white)
        run = _replayed(_record(row, [*line, new], [*line, new]))  # MoveRefused: nothing is written
        again = next((m for m in tree if m.parent == row.tip and (m.colour, m.value, m.marks_black, m.marks_white)
                      == (colour.value, value, marks_black, marks_white)), None)
        if again is not None:  # the move undone, played again: the same node (with what the entry adds)
            new = _replayed_again(conn, again, new)
        else:
            values = new.model_dump(exclude={"id"})
            made = conn.execute(RecordingMoveRow.__table__.insert().values(**values))  # type: ignore[attr-defined]
            key: Any = made.inserted_primary_key
            new.id = int(key[0])
            tree.append(new)
        _bump(conn, row, tip=new.id, moves=row.moves + 1)
        row.tip, row.moves, row.revision = new.id, row.moves + 1, row.revision + 1
    return _position(row, tree, [*line, new], run)


def _replayed_again(conn: Connection, stored: RecordingMoveRow, entry: RecordingMoveRow) -> RecordingMoveRow:
    """A move of the tree played again after an undo: its comment and clocks replaced by the entry's, where the
    entry has them; the moves after it stay in the tree as they were."""
    changes = {name: getattr(entry, name) for name in ("comment", "black_time", "white_time")
               if getattr(entry, name) is not None}
    if changes:
        conn.execute(update(RecordingMoveRow).where(col(RecordingMoveRow.id) == stored.id).values(**changes))
        for name, value in changes.items():
            setattr(stored, name, value)
    return stored


def _comment(text: str | None) -> str | None:
    if text is None:
        return None
    if len(text) > COMMENT_MAX:
        raise InputError(f"comment: at most {COMMENT_MAX} characters")
    return text.strip() or None


def undo(engine: Engine, recording_id: int, after: int | None = None) -> Position:
    """Take back the last move of the line played; it stays in the recording's tree (a variation of the record
    once another move replaces it)."""
    with _change(engine, recording_id) as (conn, row):
        _playing(row, after)
        tree = _tree(conn, recording_id)
        line = _line(tree, row.tip)
        if not line:
            raise MoveRefused("no move to undo: the game has not started", None, "nothing-to-undo")
        line.pop()
        tip = line[-1].id if line else None
        _bump(conn, row, tip=tip, moves=row.moves - 1)
        row.tip, row.moves, row.revision = tip, row.moves - 1, row.revision + 1
    return _position(row, tree, line)


def comment(engine: Engine, recording_id: int, text: str, number: int | None = None,
            after: int | None = None) -> Position:
    """Set the comment of move `number` of the line played (the last move by default; an empty text removes it)."""
    note = _comment(text)
    with _change(engine, recording_id) as (conn, row):
        _playing(row, after)
        tree = _tree(conn, recording_id)
        line = _line(tree, row.tip)
        if not line:
            raise InputError("no move to comment on: the game has not started")
        number = len(line) if number is None else number
        if not 1 <= number <= len(line):
            raise InputError(f"number: the moves played are 1 to {len(line)}")
        target = line[number - 1]
        conn.execute(update(RecordingMoveRow).where(RecordingMoveRow.id == target.id)  # type: ignore[arg-type]
                     .values(comment=note))
        target.comment = note
        _bump(conn, row)
        row.revision += 1
    return _position(row, tree, line)


def _markable(game: Game, line: Sequence[RecordingMoveRow]) -> bool:
    """Whether the line ends on a pass of a game scored with marks (Go, Conversion Go): where the marks stand."""
    return game in (Game.GO, Game.CONVERSION_GO) and bool(line) and line[-1].value == ""


def set_marks(engine: Engine, recording_id: int, black: Sequence[str], white: Sequence[str],
              after: int | None = None) -> Position:
    """Set the end-of-game marks on the final pass (`TB` `black`, `TW` `white`: the agreed removals of ING-7, the
    conversions of CON-7), checked by the rules as the verifier checks them (a mark that splits a string is
    refused); empty lists take them away."""
    with _change(engine, recording_id) as (conn, row):
        _playing(row, after)
        tree = _tree(conn, recording_id)
        line = _line(tree, row.tip)
        game = Game(row.game)
        if not _markable(game, line):
            raise MoveRefused("the end-of-game marks stand on the final pass of a Go or Conversion Go game: the last "
                              "move is not a pass", "ING-7" if game is not Game.CONVERSION_GO else "CON-7", "marks")
        last = line[-1]
        marked = last.model_copy(update={
            "marks_black": " ".join(_points("marks_black", black, game, row.size)) or None,
            "marks_white": " ".join(_points("marks_white", white, game, row.size)) or None})
        line[-1] = marked
        run = _replayed(_record(row, line, line))  # MoveRefused: nothing is written
        conn.execute(update(RecordingMoveRow).where(col(RecordingMoveRow.id) == last.id)
                     .values(marks_black=marked.marks_black, marks_white=marked.marks_white))
        tree = [marked if m.id == last.id else m for m in tree]
        _bump(conn, row)
        row.revision += 1
    return _position(row, tree, line, run)


def discard(engine: Engine, recording_id: int) -> None:
    """Give up a recording that is being played: it is kept, marked discarded, and leaves the list of games being
    played."""
    with _change(engine, recording_id) as (conn, row):
        _playing(row, None)
        _bump(conn, row, state=DISCARDED)


def finish(engine: Engine, recording_id: int, result: str | None = None, *,
           settings: Settings = DEFAULTS) -> Finished:
    """Store the recording in the archive: its record written (the moves undone or replaced as variations), `RE`
    the result given (an editor's: a win on time, by forfeit, or an agreed score) or else the one the game's end
    shows, and stored as `records import` stores a record (verified, with its index rows). A game that has not
    ended needs the result. Finishing a finished recording answers its record again."""
    if result is not None:
        result = _text("result", result)
    with engine.connect() as conn:
        row, tree = _read(conn, recording_id)
    if row.state == FINISHED and row.record_id is not None:
        return _finished(engine, row, row.record_id, new=False)
    _playing(row, None)
    line = _line(tree, row.tip)
    run = _replayed(_record(row, line, line))
    if result is None:
        if run.resigned is not None:
            result = f"{run.resigned.other.value}+R"
        elif run.engine.end is not None:
            result = run.engine.outcome().text()
        else:
            raise InputError("the game has not ended: give the result (e.g. B+T, W+F, B+3.5, 0)")
    record = _record(row, tree, line, result)
    values, problems = archive_rows(record, source_file=f"recording {recording_id}",
                                    positions=settings.position_index, patterns=settings.patterns)
    record_id, new = retrying(lambda: _store(engine, values, problems))
    retrying(lambda: merge_pending(engine))
    with _change(engine, recording_id) as (conn, held):
        if held.state == PLAYING:
            _bump(conn, held, state=FINISHED, record_id=record_id, verdict=values["verdict"])
    return _finished(engine, row, record_id, new=new)


def _store(engine: Engine, values: dict[str, Any], problems: list[dict[str, Any]]) -> tuple[int, bool]:
    """The record's rows written as the import writes a batch of one (archive/store/importer.py: write_rows); its
    id, and whether it is new (False: the archive held these bytes already)."""
    from .importer import write_rows

    stored = write_rows(engine, [(values, problems)], _now())
    with engine.connect() as conn:
        found = conn.execute(select(col(GameRow.id)).where(col(GameRow.sha256) == values["sha256"])).scalar()
    if found is None:  # pragma: no cover - the unique hash is there once written
        raise InputError("the record could not be stored")
    return int(found), bool(stored)


def _finished(engine: Engine, row: RecordingRow, record_id: int, *, new: bool) -> Finished:
    with engine.connect() as conn:
        game = conn.execute(select(GameRow).where(GameRow.id == record_id)).first()  # type: ignore[arg-type]
    if game is None:
        raise NotFound(f"the record {record_id} of recording {row.id} is no longer in the archive")
    m = game._mapping
    return Finished(row.id or 0, record_id, m["verdict"], m["result"], m["winner_colour"], m["winner_player"], new)

