"""The answers of the archive's questions (archive/front.py, `Archive`): one dataclass per question, holding what
the library found (rows, verdicts, positions, counts) and giving its JSON with `to_json()`: the object that the
commands' `--json` print and the web application's `/api/` routes send.

The shape of each JSON object is declared here too, as a TypedDict (`GameJson`, `RecordJson`...): `to_json()`
returns it, and the web application names it as its routes' response model, so that its OpenAPI description shows
each answer's fields. Parts whose JSON another layer owns (a verdict's problems, a crosstable's standings) are
plain objects there.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired

from typing_extensions import TypedDict

from ..records.games import SPECS, Game, MoveKind

# The answers' parts are only named here (the database layer is not loaded by importing the answers).
if TYPE_CHECKING:
    from ..records.model import Record
    from ..verifier.judging.analysis import Rows
    from ..verifier.judging.verdict import Verdict
    from ..verifier.keys.patterns import Pattern
    from ..verifier.keys.targets import Target
    from .core.models import AccountRow, AuditRow, GameRow
    from .core.numbers import Conflict
    from .core.stats import GameStats, PlayerStats
    from .patterns.search import PatternResult
    from .positions.explore import Continuation, Reached
    from .tournaments.check import Disagreement
    from .tournaments.crosstable import Crosstable
    from .tournaments.events import EventSummary
    from .tournaments.official_table import OfficialTable
    from .tournaments.opengotha import OfficialTournament
    from .tournaments.player_card import Card
    from .tournaments.players import NumberedPlayer, PlayerSummary
    from .tournaments.ratings import Rating, RatingRun


# -- the JSON shapes ------------------------------------------------------------------------------------------

class GameJson(TypedDict):
    """A stored game in every listing (and CSV): its row, with its Dyer signature (None for a game without one)."""

    id: int | None
    sha256: str
    game: str
    size: int | None
    black: str | None
    white: str | None
    black_final: str | None
    white_final: str | None
    event: str | None
    round: str | None
    date: str | None
    date_first: str | None
    date_last: str | None
    place: str | None
    result: str | None
    result_canonical: str | None
    computed_result: str
    result_status: str
    agrees: bool | None
    winner_colour: str | None
    winner_player: str | None
    swapped: bool
    moves: int
    verdict: str
    valid: bool
    passes: bool
    problems: int
    source_file: str | None
    source_index: int
    signature: str | None


# The fields of a game's JSON, in order: the CSV's columns when there is no row to take them from.
JSON_FIELDS = tuple(GameJson.__annotations__)


class ReachedGameJson(GameJson):
    """A game that reached a position: where (`at_move`) and the move played next (None: the game ended)."""

    at_move: int
    next: str | None


class PatternGameJson(GameJson):
    """A game where a pattern appeared, and after which moves."""

    at_moves: list[int]


class RecordJson(TypedDict):
    """`records show ID --json`: the row's fields and the stored verdict (`records verify --json`'s object)."""

    id: int | None
    sha256: str
    game: str
    size: int | None
    black: str | None
    white: str | None
    black_final: str | None
    white_final: str | None
    event: str | None
    round: str | None
    date: str | None
    date_first: str | None
    date_last: str | None
    place: str | None
    result: dict[str, Any]
    result_canonical: str | None
    computed_result: str
    result_status: str
    agrees: bool | None
    winner_colour: str | None
    winner_player: str | None
    swapped: bool
    moves: dict[str, int]
    verdict: str
    valid: bool
    passes: bool
    problems: list[dict[str, Any]]
    source_file: str | None
    source_index: int
    signature: str | None
    winner: dict[str, Any]
    score: dict[str, Any] | None
    end: str | None
    replayed: bool
    players: dict[str, str | None]


class ContinuationJson(TypedDict):
    """A move played at a position, with its games and how they went (the pie games: and the swaps)."""

    move: str
    games: int
    black_wins: int
    white_wins: int
    draws: int
    mover_wins: int
    last_played: str | None
    swapped: NotRequired[int]
    swapper_wins: NotRequired[int]


class OpeningJson(TypedDict):
    """An opening of Conversion Go (its stones after turn 3), how often the swap came next, and who won."""

    black: list[str]
    white: list[str]
    games: int
    swapped: int
    swap_rate: float | None
    black_wins: int
    white_wins: int
    draws: int
    first_player_wins: int
    second_player_wins: int
    swapper_wins: int
    last_played: str | None


class ExplorationJson(TypedDict):
    """`records explore --json`: the position, how many games reached it, and each move played next; at the start
    of Conversion Go instead the openings of turns 1-3 (`turns`, `openings`)."""

    game: str
    size: int
    games: int
    key: NotRequired[int]
    continuations: NotRequired[list[ContinuationJson]]
    turns: NotRequired[int]
    openings: NotRequired[list[OpeningJson]]


class PatternMoveJson(TypedDict):
    move: str
    hits: int
    games: int
    black_wins: int
    white_wins: int


class RegionMoveJson(PatternMoveJson):
    colour: str | None
    point: str | None
    tenuki: int


class PatternJson(TypedDict):
    """`records search --pattern --json`: the pattern, the games where it appeared, the first moves in its region
    (`continuations`) and the moves right after (`next_moves`), each named where the pattern is drawn."""

    game: str
    size: int
    pattern: list[str]
    anchor: list[str]
    either_colour: bool
    tenuki: str
    games: int
    appearances: int
    records: list[PatternGameJson]
    continuations: list[RegionMoveJson]
    next_moves: list[PatternMoveJson]


class DuplicateJson(TypedDict):
    """A group of one game stored more than once (`records duplicates --json`): its kind (same-game,
    same-moves, beginning), the id of the copy to keep, every id (oldest first), the kept copy's Dyer signature,
    and the records in that order."""

    kind: str
    keep: int
    ids: list[int]
    signature: str | None
    records: list[GameJson]


class StatsJson(TypedDict):
    games: list[dict[str, Any]]
    players: list[dict[str, Any]]


class PlayerJson(TypedDict):
    player: str
    game: str
    games: int
    wins: int
    losses: int
    draws: int
    first: str | None
    last: str | None
    spellings: list[str]
    rated: int  # records that count for the ratings: the player has a rating when this is not 0
    egd_pin: str | None  # federation numbers (records numbers set, or a tournament file)
    aga_id: str | None
    ffg_licence: str | None


# An event's JSON (`pass` is a keyword: the functional form names it).
EventJson = TypedDict("EventJson", {
    "event": str, "games": list[str], "first": str | None, "last": str | None, "rounds": int, "players": int,
    "records": int, "pass": int})


class CrosstableJson(TypedDict):
    event: str
    game: str
    family: str
    rounds: list[int]
    rounds_from: str
    tie_breaks: list[str]
    notation: str
    standings: list[dict[str, Any]]
    official: dict[str, Any] | None


class RatingJson(TypedDict):
    player: str
    game: str
    rating: float
    interval95: list[float]
    sd: float
    games: int
    last: str | None
    history: NotRequired[list[dict[str, Any]]]


class PlayerGameJson(GameJson):
    """A game on a player's card: the colour they held at its end, the opponent and how it went for them."""

    colour: str
    opponent: str | None
    outcome: str  # won, lost, drew, or - (no result known, or a game against oneself)


class PlayerCardJson(TypedDict):
    """`records player NAME --json`: one player's games and what they say (archive/tournaments/player_card.py)."""

    player: str
    spellings: list[str]
    games: int
    results: list[dict[str, Any]]  # per game: games, wins, losses, draws
    colours: list[dict[str, Any]]  # per game and colour (the one held at the end)
    opponents: list[dict[str, Any]]
    events: list[dict[str, Any]]
    openings: list[dict[str, Any]]
    ratings: list[RatingJson]  # one per game the player is rated in, with its history
    records: list[PlayerGameJson]


class RatingsJson(TypedDict):
    ratings: list[RatingJson]
    records_rated: int
    records_left_out: dict[str, int]


# -- the answers ----------------------------------------------------------------------------------------------

def row_json(row: GameRow) -> GameJson:
    """A stored game as every listing gives it (JSON and CSV)."""
    return {
        "id": row.id, "sha256": row.sha256, "game": row.game, "size": row.size,
        "black": row.black, "white": row.white, "black_final": row.black_final, "white_final": row.white_final,
        "event": row.event, "round": row.round, "date": row.date_raw,
        "date_first": row.date_first.isoformat() if row.date_first else None,
        "date_last": row.date_last.isoformat() if row.date_last else None,
        "place": row.place, "result": row.result, "result_canonical": row.result_canonical,
        "computed_result": row.computed_result, "result_status": row.result_status, "agrees": row.agrees,
        "winner_colour": row.winner_colour, "winner_player": row.winner_player, "swapped": row.swapped,
        "moves": row.move_count, "verdict": row.verdict, "valid": row.valid, "passes": row.passes,
        "problems": row.problem_count, "source_file": row.source_file, "source_index": row.source_index,
        "signature": row.signature,
    }


@dataclass(slots=True)
class GamePage:
    """One page of games (`search`, `signature_search`): its rows and how many match in all. The rows are light
    (without the original bytes, the moves and the text)."""

    games: list[GameRow]
    total: int

    def to_json(self) -> list[GameJson]:
        return [row_json(r) for r in self.games]


@dataclass
class StoredRecord:
    """A stored record (`record`): its row, its stored verdict, and the record read back from its original bytes
    (`record`, read when first asked for; the reader's FormatError if the bytes no longer read)."""

    row: GameRow
    verdict: Verdict
    parsed: Record | None = field(default=None, repr=False)

    @property
    def record(self) -> Record:
        if self.parsed is None:
            from .core.stored import parse_row

            self.parsed = parse_row(self.row)
        return self.parsed

    def to_json(self) -> RecordJson:
        return {**row_json(self.row), **self.verdict.to_json(), "id": self.row.id}  # type: ignore[typeddict-item]


@dataclass(slots=True)
class Export:
    """Stored records to write out (`export`): their whole rows (with the original bytes), in the order asked, and
    the ids asked for that are not in the archive."""

    rows: list[GameRow]
    missing: list[int] = field(default_factory=list)

    def collection(self, *, canonical: bool = False) -> bytes:
        """Every record as one collection: the original bytes (byte for byte), or the writer's canonical form."""
        from .core.export import record_bytes

        return record_bytes(self.rows, canonical=canonical)

    def files(self, *, canonical: bool = False) -> list[tuple[str, bytes]]:
        """One file per record: its name (`ID.sgf` for records imported from .sgf files, else `ID.rec`) and its
        bytes."""
        from .core.export import file_name, record_bytes

        return [(file_name(r, canonical=canonical), record_bytes([r], canonical=canonical)) for r in self.rows]

    def to_json(self) -> list[GameJson]:
        return [row_json(r) for r in self.rows]


@dataclass(slots=True)
class ReachedPage:
    """The games that reached a position (`reached`), one page of them, newest first: each with the move number
    where it first stood there and the move played next; `total` how many reached it in all."""

    target: Target
    found: list[Reached]
    total: int

    @property
    def games(self) -> list[GameRow]:
        return [r.game for r in self.found]

    def to_json(self) -> list[ReachedGameJson]:
        at = self.target
        return [{**row_json(r.game), "at_move": r.ply, "next": at.shown(r.next) if r.next else None}
                for r in self.found]


@dataclass(slots=True)
class Exploration:
    """What was played at a position (`explore`): how many games reached it and each move played next; at the
    start of Conversion Go, `openings` instead (every opening of turns 1-3, CON-5). `reached`: the first page of
    the games that reached it, when asked for."""

    target: Target
    total: int
    continuations: list[Continuation] = field(default_factory=list)
    openings: dict[str, Any] | None = None
    reached: ReachedPage | None = None

    @property
    def pie(self) -> bool:
        """Whether the game has the pie swap (the continuations count swaps)."""
        return MoveKind.SWAP in SPECS[self.target.game].kinds

    def continuation_json(self) -> list[ContinuationJson]:
        at, pie = self.target, self.pie
        data: list[ContinuationJson] = []
        for c in self.continuations:
            item: ContinuationJson = {"move": at.shown(c.move), "games": c.games, "black_wins": c.black_wins,
                                      "white_wins": c.white_wins, "draws": c.draws, "mover_wins": c.mover_wins,
                                      "last_played": c.last_played}
            if pie:
                item |= {"swapped": c.swapped, "swapper_wins": c.swapper_wins}
            data.append(item)
        return data

    def to_json(self) -> ExplorationJson:
        if self.openings is not None:
            return self.openings  # type: ignore[return-value]  # positions/explore.py's opening_report
        at = self.target
        return {"game": at.game.value, "size": at.size, "key": at.key, "games": self.total,
                "continuations": self.continuation_json()}


@dataclass(slots=True)
class PatternAnswer:
    """The games where a pattern appeared (`pattern_search`) and what was played next in and around it.

    `origin` is where the pattern is drawn (its top-left point), where its continuations are named; `shown` the
    page of games asked for, each with the moves after which it appeared; `board` the position a `pattern_from`
    record's pattern was taken from."""

    pattern: Pattern
    game: Game
    size: int
    origin: tuple[int, int]
    either_colour: bool
    result: PatternResult
    shown: list[tuple[GameRow, list[int]]]
    board: Rows | None = None

    @property
    def total(self) -> int:
        return len(self.result.hits)

    def name(self, local: tuple[int, int]) -> str:
        """A point of the pattern's frame named on the board where it is drawn."""
        from ..records.notation import point_name

        ox, oy = self.origin
        return point_name((ox + local[0], oy + local[1]), self.game, self.size)

    def games_json(self) -> list[PatternGameJson]:
        return [{**row_json(row), "at_moves": moves} for row, moves in self.shown]

    def to_json(self) -> PatternJson:
        name = self.name
        nexts: list[PatternMoveJson] = [
            {"move": f"{c.colour} {name(c.local)}" if c.local is not None else "elsewhere",
             "hits": c.hits, "games": c.games, "black_wins": c.black_wins, "white_wins": c.white_wins}
            for c in self.result.next_moves]
        regions: list[RegionMoveJson] = [
            {"move": f"{c.colour} {name(c.local)}" if c.local is not None else "ended",
             "colour": c.colour or None, "point": name(c.local) if c.local is not None else None,
             "hits": c.hits, "tenuki": c.tenuki, "games": c.games, "black_wins": c.black_wins,
             "white_wins": c.white_wins} for c in self.result.continuations]
        return {"game": self.game.value, "size": self.size, "pattern": self.pattern.rows(),
                "anchor": sorted(self.pattern.sides), "either_colour": self.either_colour,
                "tenuki": self.result.tenuki, "games": len(self.result.hits), "appearances": self.result.appearances,
                "records": self.games_json(), "continuations": regions, "next_moves": nexts}


@dataclass(frozen=True, slots=True)
class DuplicateGroup:
    """One game stored more than once: `kind` (archive/patterns/same_game.py: same-game, same-moves, beginning),
    the copy to keep, and every id of the group, oldest first."""

    kind: str
    keep: int
    ids: list[int]


@dataclass(slots=True)
class Duplicates:
    """The games stored more than once (`duplicates`): the groups, the rows by id, and how many records have no
    keys to be compared by (stored before them: `records reindex` makes them)."""

    groups: list[DuplicateGroup]
    rows: dict[int, GameRow]
    unkeyed: int = 0

    def games(self, group: DuplicateGroup) -> list[GameRow]:
        return [self.rows[i] for i in group.ids if i in self.rows]

    def kinds(self) -> dict[str, int]:
        """Groups per kind, every kind named (zeros too)."""
        from .patterns.same_game import BEGINNING, SAME_GAME, SAME_MOVES

        return {kind: sum(g.kind == kind for g in self.groups) for kind in (SAME_GAME, SAME_MOVES, BEGINNING)}

    def to_json(self) -> list[DuplicateJson]:
        return [{"kind": g.kind, "keep": g.keep, "ids": g.ids, "signature": self.rows[g.keep].signature,
                 "records": [row_json(r) for r in self.games(g)]} for g in self.groups]


@dataclass(slots=True)
class Stats:
    """`stats`: per game and per player."""

    games: list[GameStats]
    players: list[PlayerStats]

    def to_json(self) -> StatsJson:
        return {"games": [g.to_json() for g in self.games], "players": [p.to_json() for p in self.players]}


@dataclass(slots=True)
class Players:
    """`players`: every player with games, wins, losses and draws per game."""

    players: list[PlayerSummary]

    def to_json(self) -> list[PlayerJson]:
        return [p.to_json() for p in self.players]  # type: ignore[misc]  # tournaments/players.py's object


@dataclass(slots=True)
class PlayerCard:
    """`player_card`: one player's games, results against each opponent, by colour, by game and by event, the
    openings they play most, their events, and their ratings (`ratings`, one per game, with the history)."""

    card: Card
    ratings: list[Rating] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.card.name

    def to_json(self) -> PlayerCardJson:
        c = self.card
        records: list[PlayerGameJson] = [
            row_json(g.row) | {"colour": g.colour, "opponent": g.opponent, "outcome": g.outcome}  # type: ignore[misc]
            for g in c.games]
        return {"player": c.name, "spellings": c.spellings, "games": len(c.games),
                "results": [{"game": game, **t.to_json()} for game, t in sorted(c.by_game.items())],
                "colours": [{"game": game, "colour": colour, **t.to_json()}
                            for (game, colour), t in sorted(c.by_colour.items())],
                "opponents": [a.to_json() for a in c.opponents], "events": [e.to_json() for e in c.events],
                "openings": [o.to_json() for o in c.openings],
                "ratings": [r.to_json(history=True) for r in self.ratings],  # type: ignore[misc]
                "records": records}


@dataclass(slots=True)
class Events:
    """`events`: every event with its games, dates, rounds, players and records."""

    events: list[EventSummary]

    def to_json(self) -> list[EventJson]:
        return [e.to_json() for e in self.events]  # type: ignore[misc]  # tournaments/events.py's object


@dataclass(slots=True)
class EventTable:
    """`crosstable`: an event's crosstable with its tie-breaks, and the official results of its imported
    tournament (None without one)."""

    table: Crosstable
    official: OfficialTable | None = None

    def to_json(self) -> CrosstableJson:
        found = self.table.to_json()
        found["official"] = self.official.to_json() if self.official is not None else None
        return found  # type: ignore[return-value]  # tournaments/crosstable.py's object


@dataclass(slots=True)
class Ratings:
    """`ratings`: the run over every player (`run`), the players shown (`shown`: at most `limit` per game), and
    with `player`, that player's ratings (`mine`, one per game, with their history)."""

    run: RatingRun
    shown: list[Rating]
    player: str | None = None
    mine: list[Rating] = field(default_factory=list)

    def to_json(self) -> RatingsJson | list[RatingJson]:
        if self.player is not None:
            return [r.to_json(history=True) for r in self.mine]  # type: ignore[misc]
        shown: list[RatingJson] = [r.to_json() for r in self.shown]  # type: ignore[misc]
        return {"ratings": shown, "records_rated": self.run.counted, "records_left_out": dict(self.run.skipped)}


# -- official tournaments (tournament files) --------------------------------------------------------------------

class TournamentImportJson(TypedDict):
    tournament: str
    short_name: str
    updated: bool
    players: int
    rounds: int
    pairings: int
    byes: int
    conflicts: list[dict[str, Any]]


@dataclass(slots=True)
class TournamentImport:
    """`tournament import`: the tournament a file held, stored (`updated`: it replaced an earlier import of the
    same tournament), and the conflicts of federation numbers its players are in."""

    tournament: OfficialTournament
    updated: bool
    conflicts: list[Conflict] = field(default_factory=list)

    def to_json(self) -> TournamentImportJson:
        t = self.tournament
        byes = sum(p.bye for p in t.pairings)
        return {"tournament": t.name, "short_name": t.short_name, "updated": self.updated,
                "players": len(t.players), "rounds": t.rounds, "pairings": len(t.pairings) - byes, "byes": byes,
                "conflicts": [c.to_json() for c in self.conflicts]}


@dataclass(slots=True)
class PlayerNumbers:
    """`numbers list`: every player with a federation number, and every conflict between numbers."""

    players: list[NumberedPlayer]
    conflicts: list[Conflict]

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players], "conflicts": [c.to_json() for c in self.conflicts]}


class TournamentCheckJson(TypedDict):
    tournament: str
    records: int
    pairings: int
    disagreements: list[dict[str, Any]]


@dataclass(slots=True)
class TournamentCheck:
    """`tournament check`: the records of an event against its official tournament, and every disagreement."""

    tournament: str
    records: int
    pairings: int  # boards, byes aside
    disagreements: list[Disagreement]

    def to_json(self) -> TournamentCheckJson:
        return {"tournament": self.tournament, "records": self.records, "pairings": self.pairings,
                "disagreements": [d.to_json() for d in self.disagreements]}

class AccountJson(TypedDict):
    """An account as `records user list --json` lists it: never its password's hash."""

    name: str
    role: str
    created: str
    password_changed: str


@dataclass
class Accounts:
    """Every account of the archive, by name (`Archive.users`)."""

    rows: list[AccountRow]

    def to_json(self) -> list[AccountJson]:
        return [{"name": r.name, "role": r.role, "created": utc_text(r.created_at),
                 "password_changed": utc_text(r.password_changed_at)} for r in self.rows]


def utc_text(moment: dt.datetime) -> str:
    """A stored time in ISO 8601 with its offset: the archive stores UTC, and reads some databases' times back
    without their zone."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)).isoformat(timespec="seconds")


class AuditJson(TypedDict):
    """A row of the audit log as `records audit --json` lists it."""

    who: str
    when: str
    action: str
    ids: list[int]
    before: Any
    after: Any


@dataclass
class Audit:
    """The audit log, newest first (`Archive.audit`)."""

    rows: list[AuditRow]

    def to_json(self) -> list[AuditJson]:
        import json

        return [{"who": r.who, "when": utc_text(r.at), "action": r.action, "ids": json.loads(r.ids),
                 "before": json.loads(r.before), "after": json.loads(r.after)} for r in self.rows]
