"""Typed property values: moves of every game (read by model.parse_move, shared by the records of one game and
board size), board size, result, date, komi, handicap, player to move.

Each reader returns the typed value and, when the text needed a reading or could not be read, a `Problem`
(code, message, severity, rule) that the record keeps as a diagnostic. Nothing here raises on a bad value.
"""

from __future__ import annotations

import math
import re
from calendar import monthrange
from datetime import date
from typing import Any

from .charset import Decoder
from .games import SPECS, Game, MoveKind
from .grammar import MoveSource, Where
from .model import Colour, Move, Problem, RecordDate, Repair, Result, ResultMethod, Severity, SourcePos, parse_move

# -- moves -------------------------------------------------------------------------------------------------------

class MoveTable:
    """The typed moves of one game and board size, shared by every record of them (moves are immutable).

    Only well-formed moves are cached, keyed by their raw bytes; they carry no position (a move's position is
    its node's). INVALID moves are made per node, with the position of their value.
    """

    __slots__ = ("cache", "size", "spec")

    def __init__(self, game: Game, size: int) -> None:
        self.spec = SPECS[game]
        self.size = size
        self.cache: dict[bytes, Move] = {}


_TABLES: dict[tuple[Game, int], MoveTable] = {}
_COLOURS = {"B": Colour.BLACK, "W": Colour.WHITE}


_CACHED_MOVES = 20_000  # per table: every placement and pass of a 52x52 board, and more


def move_table(game: Game, size: int) -> MoveTable:
    # Beyond 52 no point is off the board whatever the size, so one table serves every larger size.
    size = min(size, 53)
    table = _TABLES.get((game, size))
    if table is None:
        table = _TABLES[(game, size)] = MoveTable(game, size)
    return table


class RecordMoves(MoveSource):
    """The moves of one record: the shared table's cache, and this record's decoder and source for the rest."""

    __slots__ = ("cache", "decoder", "src", "table")

    def __init__(self, table: MoveTable, decoder: Decoder, src: Any) -> None:
        self.table = table
        self.cache = table.cache
        self.decoder = decoder
        self.src = src

    def from_bytes(self, token: bytes, where: Where) -> Move:
        colour, raw = token[:1], token[2:-1]
        # Plain move tokens are ASCII (letters and `-`), so they always decode.
        move = self._make(colour.decode("ascii"), raw.decode("ascii"), where)
        if move.kind is not MoveKind.INVALID and len(self.cache) < _CACHED_MOVES:
            self.cache[token] = move
        return move

    def from_text(self, colour: str, value: str, where: Where) -> Move:
        if value.isascii():
            move = self.cache.get(f"{colour}[{value}]".encode("ascii"))
            if move is not None:
                return move
        return self._make(colour, value, where)

    def _make(self, colour: str, value: str, where: Where) -> Move:
        table = self.table
        move = parse_move(table.spec, table.size, _COLOURS[colour], value)
        if move.kind is MoveKind.INVALID:
            # The verifier reports it at its move number; keep where it stands for the message.
            move = Move(move.colour, move.kind, move.point, move.target, move.line, move.raw, move.problem,
                        move.rule, SourcePos.lazy(where, self.src) if isinstance(where, int)
                        else SourcePos.deferred(where, self.src))
        return move


# -- board size --------------------------------------------------------------------------------------------------

_SIZE = re.compile(r"\s*(\d{1,9})\s*(?::\s*(\d{1,9})\s*)?")


def read_size(game: Game, value: str | None) -> tuple[int, Problem | None]:
    """`SZ` for `game`: (size, problem). Size 0 means unknown (missing where the game needs it, or unreadable)."""
    spec = SPECS[game]
    rule = spec.size_rule
    if value is None:
        if spec.default_size is not None:
            return spec.default_size, None
        return 0, Problem("missing-size", f"{spec.title} records must state the board size with SZ ({rule})",
                          Severity.ERROR, rule)
    m = _SIZE.fullmatch(value)
    if m is None:
        return 0, Problem("bad-size", f"SZ[{value}] is not a board size ({rule})", Severity.ERROR, rule)
    size = int(m.group(1))
    if m.group(2) is not None and int(m.group(2)) != size:
        return 0, Problem("bad-size", f"SZ[{value}]: boards are square, {m.group(1)} columns and {m.group(2)} rows "
                          f"cannot be played ({rule})", Severity.ERROR, rule)
    if not spec.min_size <= size <= spec.max_size:
        return size, Problem("bad-size", f"SZ[{value}]: a {size}x{size} board is outside "
                             f"{spec.min_size}x{spec.min_size} to {spec.max_size}x{spec.max_size} ({rule})",
                             Severity.ERROR, rule)
    return size, None


# -- result -------------------------------------------------------------------------------------------------------

_RESULT = re.compile(r"([BW])\+(.*)", re.S)
# GEN-8: what after `B+` names a second colour (`B+W`, `B+ White`, `B+1.5 ? W+timeout`), so that the text names no
# one winner.
_SECOND_COLOUR = re.compile(r"\s*(?:[BW]|black|white)\s*|.*[BW]\s*\+.*", re.S | re.I)
_MARGIN = re.compile(r"\d+(?:\.\d+)?|\.\d+")
# A score counts points of a 52x52 board at most, komi aside: anything above this is no score (and may not fit a
# number at all: RE[B+999...9]).
MAX_MARGIN = 10_000
_METHODS = {
    "": ResultMethod.CHAIN,
    "r": ResultMethod.RESIGN, "resign": ResultMethod.RESIGN,
    "t": ResultMethod.TIME, "time": ResultMethod.TIME,
    "f": ResultMethod.FORFEIT, "forfeit": ResultMethod.FORFEIT,
}


def read_result(raw: str | None) -> tuple[Result, Problem | None]:
    """`RE` in the vocabulary of the rules: B+ / W+, B+3.5, 0 / Draw, B+R / B+Resign, B+T / B+Time, B+F /
    B+Forfeit, Void, ? (and empty). A bare `B` / `W` reads as B+ / W+ with a warning; any other text is kept as
    OTHER with the raw text (the words R, Resign, T, Time, F, Forfeit, Draw and Void in any case). Text that names
    one colour as the winner by a method outside the vocabulary (`B+J`, `W+AW`, `B+Illegal`: a colour, `+`, and no
    second colour) is OTHER with that colour as its winner (GEN-8: the verdict credits it)."""
    if raw is None:
        return Result("", ResultMethod.UNKNOWN), None
    text = raw.strip()
    if text in ("", "?"):
        return Result(raw, ResultMethod.UNKNOWN), None
    lower = text.lower()
    if text == "0" or lower == "draw":
        return Result(raw, ResultMethod.DRAW), None
    if lower == "void":
        return Result(raw, ResultMethod.VOID), None
    if text in ("B", "W"):
        return Result(raw, ResultMethod.CHAIN, Colour(text)), Problem(
            "result-bare", f"RE[{raw}] read as {text}+ (a winner without '+')", rule="FMT-9")
    m = _RESULT.fullmatch(text)
    if m is not None:
        winner = Colour(m.group(1))
        rest = m.group(2)
        method = _METHODS.get(rest.lower())
        if method is not None:
            return Result(raw, method, winner), None
        if _MARGIN.fullmatch(rest):
            margin = float(rest)
            if margin <= MAX_MARGIN:
                return Result(raw, ResultMethod.SCORE, winner, margin), None
            # No board gives such a score: kept as text outside the vocabulary (GEN-8), never a number; the
            # text still names the winner.
            return Result(raw, ResultMethod.OTHER, winner), Problem(
                "result-margin", f"the margin of RE[{text[:2]}{rest[:12]}{'...' if len(rest) > 12 else ''}] is "
                f"larger than any board can give ({MAX_MARGIN:,}); read as text", rule="FMT-9")
        if not _SECOND_COLOUR.fullmatch(rest):
            return Result(raw, ResultMethod.OTHER, winner), None
    return Result(raw, ResultMethod.OTHER), None


# -- dates --------------------------------------------------------------------------------------------------------

_FULL = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MONTH = re.compile(r"(\d{4})-(\d{2})")
_YEAR = re.compile(r"\d{4}")
_MONTH_DAY = re.compile(r"(\d{2})-(\d{2})")
_TWO = re.compile(r"\d{2}")
# A day and its time: `2016-12-30 12:35:24`, `2016-12-30T12:35`, seconds' fractions and a zone (`Z`, `+08:00`, `UTC`).
_DATE_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})(?:\s+|T)(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                        r"(?:\s*(?:Z|[+-]\d{2}(?::?\d{2})?|UTC|GMT|UT))?)")


def read_date(raw: str | None) -> tuple[RecordDate | None, Problem | None]:
    """`DT` as SGF writes it: ISO dates, partial (`2024`, `2024-05`) and several separated by commas, where a
    later one may leave out what it shares with the one before (`1996-05-06,07,08`, `1996-05,06`,
    `1996-12-27,1997-01-03`, `1996-05-06,06-01`). One date with a time of day (`2016-12-30 12:35:24`, as the Fox
    and Tygem servers write it) is read as its day, the time kept, with a warning (FMT-14). Anything else keeps
    its raw text, with a warning."""
    if raw is None:
        return None, None
    text = raw.strip()
    if not text:
        return RecordDate(raw), None
    timed = _DATE_TIME.fullmatch(text)
    if timed is not None:
        day, problem = read_date(timed.group(1))
        time = timed.group(2)
        hour, minute = time.split(":")[:2]
        if day is None or problem is not None or int(hour) > 23 or int(minute) > 59:
            return RecordDate(raw), _not_iso(raw)
        return RecordDate(raw, day.first, day.last, day.dates, time), Problem(
            "date-time", f"DT[{raw}] read as the day {day.dates[0]}; the time of day, {time}, is kept",
            rule="FMT-14", repair=Repair("DT", raw, str(day.dates[0])))
    days: list[tuple[date, date]] = []
    shown: list[str] = []
    prev: tuple[int, int | None, int | None] | None = None  # the previous date: year, month or None, day or None
    for part in (p.strip() for p in text.split(",")):
        y: int
        mo: int | None = None
        d: int | None = None
        if m := _FULL.fullmatch(part):
            y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        elif m := _MONTH.fullmatch(part):
            y, mo = int(m.group(1)), int(m.group(2))
        elif _YEAR.fullmatch(part):
            y = int(part)
        elif (m := _MONTH_DAY.fullmatch(part)) and prev is not None and prev[2] is not None:
            y, mo, d = prev[0], int(m.group(1)), int(m.group(2))
        elif _TWO.fullmatch(part) and prev is not None and prev[2] is not None:
            y, mo, d = prev[0], prev[1], int(part)
        elif _TWO.fullmatch(part) and prev is not None and prev[1] is not None:
            y, mo = prev[0], int(part)
        else:
            return RecordDate(raw), _not_iso(raw)
        try:
            if d is not None:
                assert mo is not None
                first = last = date(y, mo, d)
                shown.append(first.isoformat())
            elif mo is not None:
                first = date(y, mo, 1)
                last = date(y, mo, monthrange(y, mo)[1])
                shown.append(f"{y:04d}-{mo:02d}")
            else:
                first, last = date(y, 1, 1), date(y, 12, 31)
                shown.append(f"{y:04d}")
        except ValueError:
            return RecordDate(raw), _not_iso(raw)
        days.append((first, last))
        prev = (y, mo, d)
    return RecordDate(raw, min(f for f, _ in days), max(la for _, la in days), tuple(shown)), None


def _not_iso(raw: str) -> Problem:
    return Problem("date-not-iso", f"DT[{raw}] is not an ISO date (YYYY-MM-DD); kept as text", rule="FMT-8")


# -- komi, handicap, player to move -------------------------------------------------------------------------------


def read_komi(raw: str | None, game: Game) -> tuple[float | None, Problem | None]:
    """`KM` as a number, as written. An empty `KM[]` is no komi, with a warning (FMT-14). A Go komi in the Fox
    server's hundredths (`KM[750]`) is read as written here, with a warning that it looks odd: only a file that
    shows it is Fox's has it read in Fox's units (records/dialects.py, FMT-14)."""
    if raw is None:
        return None, None
    if not raw.strip():
        return None, Problem("komi-empty", f"KM[{raw}] is empty: read as no komi stated (0 when the game is "
                             "scored)", rule="FMT-14", repair=Repair("KM", raw, None))
    try:
        komi = float(raw.strip())
    except ValueError:
        return None, Problem("bad-komi", f"KM[{raw}] is not a number; komi left unknown", rule="FMT-8")
    if not math.isfinite(komi):
        return None, Problem("bad-komi", f"KM[{raw}] is not a number; komi left unknown", rule="FMT-8")
    if game is Game.GO and in_hundredths(komi):
        return komi, Problem("komi-odd", f"KM[{raw}] looks like a komi in the Fox server's hundredths, but nothing "
                             "in the file shows it comes from Fox (AP[foxwq], or its TC and TT): read as written, "
                             f"{komi:g}", rule="FMT-14")
    return komi, None


def in_hundredths(komi: float) -> bool:
    """Whether a Go komi looks written in the Fox server's hundredths (`KM[750]`, `KM[375]`): no komi is 100 points
    or more, and Fox's are multiples of a quarter point."""
    return abs(komi) >= 100 and komi % 25 == 0


def read_handicap(raw: str | None) -> tuple[int | None, Problem | None]:
    if raw is None or not raw.strip():
        return None, None
    text = raw.strip()
    if re.fullmatch(r"\d{1,4}", text):
        return int(text), None
    return None, Problem("bad-handicap", f"HA[{raw}] is not a whole number of stones; handicap left unknown",
                         rule="FMT-8")
