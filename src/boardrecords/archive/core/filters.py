"""The search filters: their plain values (`Filters`) and the table that declares each one once (`FILTERS`).

Every face builds its options from `FILTERS`: the command line's typer options (cli/options.py) and the web's
query parameters (web/params.py), with one name, one help text and one set of bounds; both build the values with
`Filters.parse`, which checks them and reads their words (dates, verdict and status words, game names, openings),
so that a bad value is refused the same way by both. Nothing here imports the database, typer or FastAPI: the CLI
builds filters before it opens anything.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from ...common.bounds import DB_INT_MAX, unstorable
from ...common.errors import InputError, concerning
from ...records.games import SPECS, Game, game_from_name
from ...verifier.judging.status import ResultStatus, VerdictClass

DEFAULT_LIMIT = 50
SORT_NAMES = ("id", "date", "moves", "event", "round", "game", "size", "black", "white", "winner", "result", "verdict",
              "problems")
TEXT_MAX = 200  # a name, an event, a round, a text
WORD_MAX = 40  # a game, a result, a verdict or status word
DATE_MAX = 10  # 2017-05-03
MOVES_MAX = 4000  # moves typed in: Q16,D4,...
SIZE_LEAST = min(spec.min_size for spec in SPECS.values())
SIZE_MOST = max(spec.max_size for spec in SPECS.values())


class FilterError(InputError):
    """A filter value that cannot be understood (an InputError: the CLI exits with 2, the web answers 400)."""


# -- reading the words of the filters -------------------------------------------------------------------------

_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")


def date_bound(text: str, *, end: bool) -> dt.date:
    """The first (or, with `end`, last) day of a full or partial ISO date: `2017`, `2017-05`, `2017-05-03`."""
    m = _DATE.match(text.strip())
    if not m:
        raise FilterError(f"not a date: {text!r} (use YYYY, YYYY-MM or YYYY-MM-DD)")
    year = int(m[1])
    month = int(m[2]) if m[2] else (12 if end else 1)
    try:
        if m[3]:
            return dt.date(year, month, int(m[3]))
        day = calendar.monthrange(year, month)[1] if end else 1
        return dt.date(year, month, day)
    except ValueError as exc:
        raise FilterError(f"not a date: {text!r} ({exc})") from exc


def vocabulary_word(text: str, vocabulary: type[StrEnum], option: str) -> str:
    """A word of the verdict vocabulary (verifier/judging/status.py), spaces or underscores read as `-`."""
    key = re.sub(r"[\s_]+", "-", text.strip().lower())
    for member in vocabulary:
        if member.value == key:
            return member.value
    raise FilterError(f"{option} {text!r}: one of {', '.join(m.value for m in vocabulary)}")


def check_size(game: Game, size: int) -> None:
    """FilterError unless `game` is played on boards of `size` (the one check of both faces and the Archive)."""
    spec = SPECS[game]
    if not spec.min_size <= size <= spec.max_size:
        raise FilterError(f"--size {size}: {spec.title} is played on {spec.min_size}x{spec.min_size} to "
                          f"{spec.max_size}x{spec.max_size} boards ({spec.size_rule})")


def game_value(text: str) -> str:
    """The stored value of the game a user names (`go` -> `go-ing`)."""
    game = game_from_name(text)
    if game is None:
        raise FilterError(f"unknown game {text!r} (one of: {', '.join(g.value for g in Game)})")
    return game.value


_MOVE_TOKEN = re.compile(r"^([BW])\[([^\]]*)\]$", re.IGNORECASE)


def _opening_value(value: str, colour: str, game: Game, size: int | None) -> str:
    """One move of `--opening` as the record format writes it (GEN-10: SGF letters or the customary notation)."""
    from ...records.model import Colour
    from ...records.notation import parse_move_text

    mover = Colour.BLACK if colour == "B" else Colour.WHITE
    if not any(ch.isdigit() for ch in value):
        # SGF letters name the same point on every board: no size is needed to read them.
        return parse_move_text(value, game, 52, mover)
    if size is None:
        raise FilterError(f"--opening: {value!r} is in {SPECS[game].title}'s own notation, which depends on the "
                          "board size: give --size (or write SGF letters)")
    return parse_move_text(value, game, size, mover)


def canonical_opening(text: str, game: Game | str | None = None, size: int | None = None) -> str:
    """`"B[pd] W[dp]"`, `"B[pd];W[dp]"`, `"pd,dp"` or `"Q16,D4"` as the archive stores a main line: `B[pd];W[dp]`.

    Bare values take alternating colours from Black (README: Black moves first, turns alternate); after a pie swap
    the labels no longer alternate, so such openings must be written with their colours, `B[cc];W[swap-sides];W[dd]`.
    `pass` and `swap` are accepted for `[]` and `swap-sides`. Points may be SGF letters (`pd`) or the customary
    notation of `game` on a `size` board (GEN-10: `Q16` in Go, `d3` in the connection games); without a game it
    is Go, and without a size the game's default size (19 for Go).
    """
    from ...records.notation import NotationError

    g = game_from_name(game) if isinstance(game, str) else game
    g = g or Game.GO
    board = size if size is not None else SPECS[g].default_size
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if not tokens:
        raise FilterError("--opening needs at least one move, e.g. 'B[pd] W[dp]' or 'pd,dp'")
    out: list[str] = []
    colour = "B"
    for token in tokens:
        m = _MOVE_TOKEN.match(token)
        if m:
            colour, value = m[1].upper(), m[2]
        elif re.fullmatch(r"[A-Za-z0-9-]+|\[\]", token):
            value = "" if token == "[]" else token
        else:
            raise FilterError(f"--opening: cannot read move {token!r} (write B[pd], pd or Q16)")
        try:
            value = _opening_value(value, colour, g, board)
        except NotationError as exc:
            raise FilterError(f"--opening: {exc}") from None
        out.append(f"{colour}[{value}]")
        colour = "W" if colour == "B" else "B"
    return ";".join(out)


def _date(text: str) -> str:
    date_bound(text, end=False)
    return text.strip()


_RULE = re.compile(r"^[A-Za-z]{2,4}-\d{1,3}$")
_CODE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


def problem_value(text: str) -> tuple[str, str]:
    """`("rule", "FMT-14")` for a rule number, `("code", "fox-komi")` for a problem's code (as `verify` names it);
    FilterError for anything else."""
    word = text.strip()
    if _RULE.match(word):
        return "rule", word.upper()
    if _CODE.match(word.lower()):
        return "code", word.lower()
    raise FilterError(f"--problem {text!r}: a problem's code (fox-komi, komi-tenths, charset-fallback...) or a rule "
                      "number (FMT-14, ING-4)")


def _problem(text: str) -> str:
    return problem_value(text)[1]


# -- the table --------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class FilterSpec:
    """One search filter, as every face offers it.

    `field` is its name in `Filters`; `option` its name to users (`--from` on the command line, `from` on the web);
    `kind` the type of its value (str, int or bool); a text has at most `max_length` characters, a number lies
    in `least`..`most`; `parse` reads a text into the value kept (raising FilterError); a yes/no filter is said no
    to with `off` (`--not-swapped`, `swapped=false`).
    """

    field: str
    option: str
    kind: type
    help: str
    max_length: int | None = None
    least: int | None = None
    most: int | None = None
    parse: Callable[[str], str] | None = None
    off: str | None = None


def _text(field: str, help: str, *, option: str | None = None, max_length: int = TEXT_MAX,
          parse: Callable[[str], str] | None = None) -> FilterSpec:
    return FilterSpec(field, option or field, str, help, max_length=max_length, parse=parse)


def _whole(field: str, option: str, help: str, least: int, most: int) -> FilterSpec:
    return FilterSpec(field, option, int, help, least=least, most=most)


FILTERS: tuple[FilterSpec, ...] = (
    _text("player", "A player, either colour, at the start or the finish (`*` = wildcard)."),
    _text("black", "The player holding Black at the start or, after a swap, at the finish."),
    _text("white", "The player holding White at the start or, after a swap, at the finish."),
    _text("winner", "The winner: a player's name, or the colour B / W."),
    _text("game", "go-ing, conversion-go, cation, quentin, squer (also go, ConversionGo).", max_length=WORD_MAX,
          parse=game_value),
    _whole("size", "size", f"Board size ({SIZE_LEAST} to {SIZE_MOST}, within the range of the game asked for).",
           SIZE_LEAST, SIZE_MOST),
    _text("event", "The event (EV), compared like names."),
    _text("round", "The round (RO), exactly."),
    _text("date_from", "Played on or after this date: 2017, 2017-05 or 2017-05-03.", option="from",
          max_length=DATE_MAX, parse=_date),
    _text("date_to", "Played on or before this date: 2017, 2017-05 or 2017-05-03.", option="to",
          max_length=DATE_MAX, parse=_date),
    _text("result", "Declared result: B+R, W+, B+3.5, 0, or a method: resign, time, score...", max_length=WORD_MAX),
    _text("verdict", "pass, invalid, wrong-result, or unconfirmed (passes with an unconfirmed result).",
          max_length=WORD_MAX, parse=lambda text: vocabulary_word(text, VerdictClass, "--verdict")),
    _text("status", "Result status (GEN-8): agrees, disagrees, unconfirmed, undeclared, kind-only.",
          max_length=WORD_MAX, parse=lambda text: vocabulary_word(text, ResultStatus, "--status")),
    FilterSpec("swapped", "swapped", bool, "Only records where the pie swap was (or was not) taken.",
               off="not-swapped"),
    _whole("moves_min", "moves-min", "At least this many moves on the main line.", 0, DB_INT_MAX),
    _whole("moves_max", "moves-max", "At most this many moves on the main line.", 0, DB_INT_MAX),
    _text("text", "Text in the comments or the names (case-insensitive)."),
    _text("problem", "Records with this problem or warning: its code as verify names it (fox-komi, komi-tenths, "
          "charset-fallback...), or a rule number (FMT-14: every record repaired in a server's way; FMT-13).",
          max_length=WORD_MAX, parse=_problem),
    # Read in Filters.parse, on the board of the game and size given with it.
    _text("opening", "The main line starts with these moves: 'B[pd] W[dp]', pd,dp or Q16,D4. Points in SGF letters "
          "or the game's own notation (Q16; a1-style for the connection games), read on the board of the game "
          "and size filters (default: Go, 19x19).", max_length=MOVES_MAX),
)
FILTER_BY_FIELD = {spec.field: spec for spec in FILTERS}


def check_storable(name: str, value: str) -> None:
    """FilterError when the text `value` given for `name` holds what no database stores (common/bounds.py): refused
    here, with the name, rather than by the database (PostgreSQL's error carries the whole query)."""
    bad = unstorable(value)
    if bad is not None:
        raise FilterError(f"{name}: the text holds {bad}, which no archive stores or searches for")


def _checked(spec: FilterSpec, value: Any) -> Any:
    """`value` of the filter `spec`, checked against its bounds and read by its parser."""
    name = f"--{spec.option}"
    if spec.kind is bool:
        if not isinstance(value, bool):
            raise FilterError(f"{name} {value!r}: true or false")
        return value
    if spec.kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise FilterError(f"{name} {value!r}: not a whole number")
        if spec.least is not None and value < spec.least:
            raise FilterError(f"{name} {value} is too small: give {spec.least} or more")
        if spec.most is not None and value > spec.most:
            raise FilterError(f"{name} {value} is too large: give at most {spec.most}")
        return value
    if not isinstance(value, str):
        raise FilterError(f"{name} {value!r}: not a text")
    if spec.max_length is not None and len(value) > spec.max_length:
        raise FilterError(f"{name}: at most {spec.max_length} characters")
    check_storable(name, value)
    return spec.parse(value) if spec.parse is not None else value


@dataclass(slots=True)
class Filters:
    """The filters of a search, every one optional; `FILTERS` declares them (all but `ids`, the records' ids,
    which commands take as their arguments). Build them from what a user gave with `Filters.parse`."""

    player: str | None = None
    black: str | None = None
    white: str | None = None
    winner: str | None = None
    game: str | None = None
    size: int | None = None
    event: str | None = None
    round: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    result: str | None = None
    verdict: str | None = None  # a VerdictClass value
    status: str | None = None  # a ResultStatus value
    swapped: bool | None = None
    moves_min: int | None = None
    moves_max: int | None = None
    text: str | None = None
    problem: str | None = None  # a problem's code or a rule number (problem_value)
    opening: str | None = None
    ids: Sequence[int] = ()

    @classmethod
    def parse(cls, **given: Any) -> Filters:
        """The filters of the values a user gave, by field name (None: not given), each checked against its bounds
        in `FILTERS` and read: the game's stored value, the verdict and status words, dates checked, a board size
        within the game's range, the opening as the archive stores main lines. FilterError for a value that is
        not one. `ids` (the records' ids) are kept as given."""
        ids: Sequence[int] = given.pop("ids", ())
        unknown = set(given) - set(FILTER_BY_FIELD)
        if unknown:
            raise TypeError(f"no such filter: {', '.join(sorted(unknown))}")
        game = given.get("game")
        if game is not None:
            with concerning("game"):
                game = _checked(FILTER_BY_FIELD["game"], game)
            size = given.get("size")
            # A size with its game is checked against that game's boards, the most precise thing to say.
            if isinstance(size, int):
                with concerning("size"):
                    check_size(Game(game), size)
        values = {}
        for field, value in given.items():
            if value is not None:
                with concerning(FILTER_BY_FIELD[field].option):  # the form shows the message beside it
                    values[field] = _checked(FILTER_BY_FIELD[field], value)
        if "opening" in values:
            with concerning("opening"):
                values["opening"] = canonical_opening(values["opening"], values.get("game"), values.get("size"))
        return cls(ids=tuple(ids), **values)

    @property
    def empty(self) -> bool:
        return all(getattr(self, f.name) in (None, ()) for f in fields(self))
