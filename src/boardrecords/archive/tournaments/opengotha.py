"""Reading an OpenGotha tournament file (its XML save, `dataVersion` 201) into an `OfficialTournament`: the players
with their federation numbers, the rounds' pairings and byes with the official results, and the settings that
the standings are computed from (McMahon bar, floor and zero, the points of an absence and a bye, the placement
criteria, komi, dates, place).

The file is hostile data: it is parsed by defusedxml with entity declarations refused (no external entity, no
billion laughs) and a size cap, and every value is checked before anything is stored. A file that is not XML,
not an OpenGotha tournament, of another data version, or whose pairing names a player it does not list raises
TournamentFileError (an InputError) with the reason.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from ...common.errors import InputError

FILE_CAP = 32 * 1024 * 1024  # bytes: a tournament of 1200 players and 20 rounds is well under 2 MB
DATA_VERSIONS = frozenset({201})  # the XML layout OpenGotha has written since it saves as XML
MAX_ROUNDS = 20  # OpenGotha's own limit

# OpenGotha's result names: who won ("W", "B"), a jigo ("="), both lose ("0"), both win ("1"), none yet ("?");
# the `_BYDEF` forms are the same results given without the game being played (a forfeit).
RESULTS = {"RESULT_UNKNOWN": "?", "RESULT_WHITEWINS": "W", "RESULT_BLACKWINS": "B", "RESULT_EQUAL": "=",
           "RESULT_BOTHLOSE": "0", "RESULT_BOTHWIN": "1"}

_RANK = re.compile(r"^\s*(\d{1,2})\s*([kKdDpP])\s*$")


class TournamentFileError(InputError):
    """A tournament file that cannot be read: the message says why."""


@dataclass(frozen=True, slots=True)
class OfficialPlayer:
    key: str  # OpenGotha's key: name and first name joined, spaces dropped, upper-cased (what its pairings name)
    name: str
    first_name: str
    rank: str  # as the file gives it ("2K", "3D")
    rank_value: int  # OpenGotha's scale: 30K = -30, 1K = -1, 1D = 0, 9D = 8
    club: str = ""
    country: str = ""
    egd_pin: str = ""
    aga_id: str = ""
    ffg_licence: str = ""
    rating: int | None = None
    participating: str = ""  # one 0/1 a round
    smms_correction: int = 0  # added to the McMahon score the rank gives (OpenGotha's smmsCorrection)

    @property
    def full_name(self) -> str:
        """The name a record would give: first name then name."""
        return f"{self.first_name} {self.name}".strip()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "first_name": self.first_name, "rank": self.rank, "club": self.club,
                "country": self.country, "egd_pin": self.egd_pin or None, "aga_id": self.aga_id or None,
                "ffg_licence": self.ffg_licence or None, "rating": self.rating}


@dataclass(frozen=True, slots=True)
class OfficialPairing:
    """One board of one round, or a bye (`black` empty, `bye` true: `white` is the player who sat out)."""

    round: int
    board: int | None
    white: str  # player keys
    black: str
    handicap: int = 0
    known_colour: bool = True
    result: str = "?"  # RESULTS' values
    forfeit: bool = False
    bye: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "board": self.board, "white": self.white, "black": self.black or None,
                "handicap": self.handicap, "known_colour": self.known_colour, "result": self.result,
                "forfeit": self.forfeit, "bye": self.bye}


@dataclass(slots=True)
class OfficialTournament:
    name: str
    short_name: str
    location: str = ""
    begin: dt.date | None = None
    end: dt.date | None = None
    komi: float | None = None
    size: int | None = None
    rounds: int = 0
    data_version: int = 0
    settings: dict[str, Any] = field(default_factory=dict)
    players: list[OfficialPlayer] = field(default_factory=list)
    pairings: list[OfficialPairing] = field(default_factory=list)


def rank_value(text: str) -> int:
    """A rank on OpenGotha's scale (30K = -30 ... 1K = -1, 1D = 0 ... 9D = 8; a pro rank counts as 9D); ValueError
    for a text that is no rank."""
    found = _RANK.match(text or "")
    if not found:
        raise ValueError(text)
    n, kind = int(found.group(1)), found.group(2).upper()
    if kind == "K" and 1 <= n <= 30:
        return -n
    if kind == "D" and 1 <= n <= 9:
        return n - 1
    if kind == "P" and 1 <= n <= 9:
        return 8
    raise ValueError(text)


def parse_tournament(data: bytes, where: str = "the file") -> OfficialTournament:
    """The tournament an OpenGotha file holds (TournamentFileError for one that cannot be read)."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException  # type: ignore[import-untyped]
    from defusedxml.ElementTree import fromstring  # type: ignore[import-untyped]

    if len(data) > FILE_CAP:
        raise TournamentFileError(f"{where} is larger than {FILE_CAP // (1024 * 1024)} MB: no tournament file is")
    try:
        # OpenGotha's files declare a DOCTYPE (tournament.dtd, never loaded); an entity declaration is refused.
        root = fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise TournamentFileError(f"{where} declares XML entities, which a tournament file never does "
                                  f"({type(exc).__name__}): not read") from None
    except (ParseError, ValueError) as exc:
        raise TournamentFileError(f"{where} is not XML ({exc})") from None
    if root.tag != "Tournament":
        raise TournamentFileError(f"{where} is not an OpenGotha tournament file (its root is <{root.tag}>, "
                                  "not <Tournament>)")
    version = _version(root, where)
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    if general is None:
        raise TournamentFileError(f"{where} has no TournamentParameterSet/GeneralParameterSet")
    found = OfficialTournament(name=_text(general.get("name")), short_name=_text(general.get("shortName")),
                               location=_text(general.get("location")), data_version=version)
    if not found.name and not found.short_name:
        raise TournamentFileError(f"{where} names no tournament (GeneralParameterSet name and shortName are empty)")
    found.name = found.name or found.short_name
    found.short_name = found.short_name or found.name
    found.begin = _date(general.get("beginDate"), "beginDate", where)
    found.end = _date(general.get("endDate"), "endDate", where)
    found.komi = _number(general.get("komi"), "komi", where)
    size = general.get("size")
    found.size = _integer(size, "size", where) if size else None
    found.rounds = _integer(general.get("numberOfRounds"), "numberOfRounds", where)
    if not 1 <= found.rounds <= MAX_ROUNDS:
        raise TournamentFileError(f"{where}: numberOfRounds {found.rounds} is not 1 to {MAX_ROUNDS}")
    found.settings = _settings(root, general, where)
    found.players = _players(root, where)
    found.pairings = _pairings(root, {p.key for p in found.players}, found.rounds, where)
    return found


def _version(root: Any, where: str) -> int:
    """The file's data version: `dataVersion` (201), or for the saves of OpenGotha 3.5 and later, which write
    `fullVersionNumber` ("3.51.02") instead, the layout of 201 they keep (as 201)."""
    if root.get("dataVersion") is None and root.get("fullVersionNumber") is not None:
        full = _text(root.get("fullVersionNumber"))
        if not re.fullmatch(r"3\.\d{1,3}(\.\d{1,3})?", full):
            raise TournamentFileError(f"{where} was saved by OpenGotha {full!r}; this reads the saves of "
                                      "OpenGotha 3")
        return 201
    version = _integer(root.get("dataVersion"), "the Tournament's dataVersion", where)
    if version not in DATA_VERSIONS:
        raise TournamentFileError(f"{where} has OpenGotha data version {version}; this reads version "
                                  f"{', '.join(str(v) for v in sorted(DATA_VERSIONS))}")
    return version


def _settings(root: Any, general: Any, where: str) -> dict[str, Any]:
    """The settings the standings are computed from, each checked."""
    settings: dict[str, Any] = {"director": _text(general.get("director"))}
    for attr, key, default in (("genMMBar", "mm_bar", "9D"), ("genMMFloor", "mm_floor", "30K"),
                               ("genMMZero", "mm_zero", "30K")):
        text = general.get(attr) or default
        try:
            settings[key] = rank_value(text)
        except ValueError:
            raise TournamentFileError(f"{where}: {attr} {text!r} is not a rank") from None
    # Points counted twice over (OpenGotha keeps half points as whole numbers): 0, 1 or 2.
    for attr, key, default in (("genMMS2ValueAbsent", "mms2_absent", "1"), ("genMMS2ValueBye", "mms2_bye", "2"),
                               ("genNBW2ValueAbsent", "nbw2_absent", "0"), ("genNBW2ValueBye", "nbw2_bye", "2")):
        value = _integer(general.get(attr) or default, attr, where)
        if not 0 <= value <= 2:
            raise TournamentFileError(f"{where}: {attr} {value} is not 0, 1 or 2")
        settings[key] = value
    handicap = root.find("TournamentParameterSet/HandicapParameterSet")
    correction = _integer((handicap.get("hdCorrection") if handicap is not None else None) or "0", "hdCorrection",
                          where)
    if not 0 <= correction <= 9:
        raise TournamentFileError(f"{where}: hdCorrection {correction} is not 0 to 9")
    settings["hd_correction"] = correction  # stones taken off the rank difference (the h9's HA[h...])
    settings["round_down"] = (general.get("genRoundDownNBWMMS") or "true").strip().lower() == "true"
    settings["not_played_half"] = (general.get("genCountNotPlayedGamesAsHalfPoint") or "false").lower() == "true"
    criteria: list[tuple[int, str]] = []
    for c in root.iterfind("TournamentParameterSet/PlacementParameterSet/PlacementCriteria/PlacementCriterion"):
        name = _text(c.get("name")).upper()
        if name and name != "NULL":
            criteria.append((_integer(c.get("number"), "a PlacementCriterion's number", where), name))
    settings["criteria"] = [name for _, name in sorted(criteria)]
    return settings


def _players(root: Any, where: str) -> list[OfficialPlayer]:
    players: list[OfficialPlayer] = []
    seen: set[str] = set()
    for e in root.iterfind("Players/Player"):
        name, first = _text(e.get("name")), _text(e.get("firstName"))
        if not name:
            raise TournamentFileError(f"{where}: a Player has no name")
        key = (name + first).replace(" ", "").upper()  # OpenGotha's key: spaces dropped, upper-cased
        if key in seen:
            raise TournamentFileError(f"{where}: the player {first} {name} is listed twice")
        seen.add(key)
        rank = _text(e.get("rank"))
        try:
            value = rank_value(rank)
        except ValueError:
            raise TournamentFileError(f"{where}: the player {first} {name} has rank {rank!r}, which is no "
                                      "rank") from None
        rating = e.get("rating")
        players.append(OfficialPlayer(
            key=key, name=name, first_name=first, rank=rank.upper(), rank_value=value, club=_text(e.get("club")),
            country=_text(e.get("country")).upper(), egd_pin=_text(e.get("egfPin")), aga_id=_text(e.get("agaId")),
            ffg_licence=_text(e.get("ffgLicence")),
            rating=_integer(rating, f"the rating of {first} {name}", where) if rating else None,
            participating=_text(e.get("participating")),
            smms_correction=_integer(e.get("smmsCorrection") or "0", f"the smmsCorrection of {first} {name}", where)))
    if not players:
        raise TournamentFileError(f"{where} lists no players")
    return players


def _pairings(root: Any, keys: set[str], rounds: int, where: str) -> list[OfficialPairing]:
    found: list[OfficialPairing] = []
    busy: set[tuple[int, str]] = set()  # (round, player): one board or bye a round each

    def player(text: str | None, what: str, ro: int) -> str:
        key = _text(text)
        if key not in keys:
            raise TournamentFileError(f"{where}: {what} of round {ro} names {key!r}, a player the file does not list")
        if (ro, key) in busy:
            raise TournamentFileError(f"{where}: {key!r} is paired twice in round {ro}")
        busy.add((ro, key))
        return key

    def round_of(text: str | None, what: str) -> int:
        ro = _integer(text, f"the roundNumber of {what}", where)
        if not 1 <= ro <= rounds:
            raise TournamentFileError(f"{where}: {what} is in round {ro}, not 1 to {rounds}")
        return ro

    for e in root.iterfind("Games/Game"):
        ro = round_of(e.get("roundNumber"), "a Game")
        white = player(e.get("whitePlayer"), "a Game's whitePlayer", ro)
        black = player(e.get("blackPlayer"), "a Game's blackPlayer", ro)
        if white == black:
            raise TournamentFileError(f"{where}: a Game of round {ro} pairs {white!r} with themselves")
        result = _text(e.get("result")) or "RESULT_UNKNOWN"
        forfeit = result.endswith("_BYDEF")
        code = RESULTS.get(result.removesuffix("_BYDEF"))
        if code is None:
            raise TournamentFileError(f"{where}: a Game of round {ro} has the result {result!r}, which OpenGotha "
                                      "does not write")
        board = e.get("tableNumber")
        handicap = _integer(e.get("handicap") or "0", "a Game's handicap", where)
        if not 0 <= handicap <= 9:
            raise TournamentFileError(f"{where}: a Game of round {ro} has handicap {handicap}, not 0 to 9")
        found.append(OfficialPairing(
            round=ro, board=_integer(board, "a Game's tableNumber", where) if board else None, white=white,
            black=black, handicap=handicap, known_colour=(e.get("knownColor") or "true").lower() == "true",
            result=code, forfeit=forfeit))
    for e in root.iterfind("ByePlayers/ByePlayer"):
        ro = round_of(e.get("roundNumber"), "a ByePlayer")
        found.append(OfficialPairing(round=ro, board=None, white=player(e.get("player"), "a ByePlayer", ro),
                                     black="", result="", bye=True))
    found.sort(key=lambda p: (p.round, p.bye, p.board if p.board is not None else 10**6, p.white))
    return found


def _text(value: str | None) -> str:
    # NUL and lone surrogates cannot reach an attribute through the parser; control characters can be written as
    # character references, and are dropped so that no stored text carries one.
    return "".join(ch for ch in (value or "") if ch >= " " or ch == "\t").strip()


def _integer(value: str | None, what: str, where: str) -> int:
    if value is None:
        raise TournamentFileError(f"{where}: {what} is missing")
    try:
        number = int((value or "").strip())
    except ValueError:
        raise TournamentFileError(f"{where}: {what} is {value!r}, not a whole number") from None
    if abs(number) > 10**9:
        raise TournamentFileError(f"{where}: {what} is {value!r}, out of range")
    return number


def _number(value: str | None, what: str, where: str) -> float | None:
    if not value:
        return None
    try:
        number = float(value)
    except ValueError:
        raise TournamentFileError(f"{where}: {what} is {value!r}, not a number") from None
    if not -1000 <= number <= 1000:
        raise TournamentFileError(f"{where}: {what} is {value!r}, out of range")
    return number


def _date(value: str | None, what: str, where: str) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise TournamentFileError(f"{where}: {what} is {value!r}, not a date (YYYY-MM-DD)") from None
