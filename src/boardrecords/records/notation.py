"""How points are shown to people, and read back from what they type (GEN-10).

Records always hold SGF letters (GEN-1). Displays use each game's customary notation unless asked for SGF letters:

- Go and Conversion Go: Go coordinates, a column letter from the left without `I` (`A`..`H`, `J`..`Z`) and the row
  number counted from 1 at the BOTTOM: the SGF point `pd` on a 19x19 board is `Q16`.
- Cation, Quentin, Squer: `a1`-style coordinates, a column letter from the left (`a`..`z`) and the row number from 1
  at the bottom: `dc` on a 5x5 board is `d3`.

Boards wider than the single letters (Go: 25 columns, the connection games: 26) go on with two letters, as
spreadsheet columns do: Go `AA`, `AB`, ... `AZ` (still without `I`), then `BA`, `BB`; connection games `aa`..`az`.
Letters and digits never mix inside a part, so every name reads back unambiguously.

Reading is forgiving: a point may be typed in either notation, because SGF letters never hold a digit and the
customary names always do. Customary names are read case-insensitively (`q16` = `Q16`, `D3` = `d3`); SGF letters
are case-sensitive (`aa` is column 0, `AA` column 26).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from ..common.errors import InputError
from .games import SPECS, Colour, Game, MoveKind
from .points import Point, format_point, index_letter, letter_index, parse_point

GO_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # Go coordinates skip I
A1_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_GO_GAMES = frozenset({Game.GO, Game.CONVERSION_GO})
_CUSTOMARY = re.compile(r"([A-Za-z]{1,2})(\d{1,2})")
_SGF = re.compile(r"[A-Za-z]{2}")


class Notation(StrEnum):
    """How a display names points: each game's customary notation, or the SGF letters of the records."""

    CUSTOMARY = "customary"
    SGF = "sgf"


class NotationError(InputError):
    """Text that names no point (or move) of the board (an InputError); the message says what was expected."""


def _alphabet(game: Game) -> str:
    return GO_LETTERS if game in _GO_GAMES else A1_LETTERS


def column_name(col: int, game: Game) -> str:
    """The customary name of column `col` (0 on the left): `A`..`T` without `I` for Go, `a`.. for the others."""
    letters = _alphabet(game)
    k = len(letters)
    if col < k:
        return letters[col]
    rest = col - k
    return letters[rest // k] + letters[rest % k]


def _column_index(text: str, game: Game) -> int | None:
    letters = _alphabet(game)
    text = text.upper() if game in _GO_GAMES else text.lower()
    k = len(letters)
    idx = [letters.find(ch) for ch in text]
    if -1 in idx:
        return None
    if len(idx) == 1:
        return idx[0]
    return k + idx[0] * k + idx[1]


def row_name(row: int, size: int) -> str:
    """The customary name of row `row` (0 at the top): its number counted from 1 at the bottom."""
    return str(size - row)


def point_name(point: Point, game: Game, size: int, notation: Notation = Notation.CUSTOMARY) -> str:
    """A point as a display shows it: `Q16` (Go, 19x19), `d3` (Cation 5x5, `dc`), or SGF letters with SGF.

    A point off the board has no customary name; it is shown in SGF letters (or as numbers when it has none).
    """
    col, row = point
    if notation is Notation.CUSTOMARY and 0 <= col < size and 0 <= row < size:
        return column_name(col, game) + row_name(row, size)
    if 0 <= col < 52 and 0 <= row < 52:
        return format_point(point)
    return f"({col}, {row})"


def example_point(size: int) -> Point:
    """A point to show in help texts: `pd` on 19x19 (Q16), near the top right corner on any board."""
    return (max(0, size - 4), min(3, size - 1))


def notation_words(game: Game, size: int, notation: Notation = Notation.CUSTOMARY) -> str:
    """What a screen says about its coordinates, e.g. `Points: Go coordinates, A..T (no I) left to right, 1..19
    bottom to top`."""
    last = size - 1
    if notation is Notation.SGF:
        letters = f"{index_letter(0)}..{index_letter(last)}"
        return f"Points: SGF letters, column {letters} left to right, then row {letters} top to bottom"
    cols = f"{column_name(0, game)}..{column_name(last, game)}"
    if game in _GO_GAMES:
        skip = " (no I)" if size > 8 else ""
        return f"Points: Go coordinates, {cols}{skip} left to right, 1..{size} bottom to top"
    return f"Points: a1-style, {cols} left to right, 1..{size} bottom to top"


def _expected(game: Game, size: int) -> str:
    ex = example_point(size)
    style = "Go coordinates" if game in _GO_GAMES else "coordinates"
    last = size - 1
    return (f"{style} such as {point_name(ex, game, size)} (columns {column_name(0, game)}..{column_name(last, game)}"
            f"{' without I' if game in _GO_GAMES and size > 8 else ''}, rows 1..{size} from the bottom) or SGF letters "
            f"such as {format_point(ex)}")


def parse_point_text(text: str, game: Game, size: int) -> Point:
    """The point a user typed, in SGF letters (`pd`) or the game's customary notation (`Q16`, `q16`, `d3`).

    Raises NotationError, saying what was expected, for text that names no point of the board.
    """
    t = text.strip()
    where = f"a {size}x{size} {SPECS[game].title.split(' (')[0]} board"
    m = _CUSTOMARY.fullmatch(t)
    if m is not None:
        letters, digits = m[1], m[2]
        if game in _GO_GAMES and "I" in letters.upper():
            raise NotationError(f"{text!r}: Go coordinates have no column I; write {_expected(game, size)}")
        col = _column_index(letters, game)
        number = int(digits)
        if col is None or not 0 <= col < size or not 1 <= number <= size:
            raise NotationError(f"{text!r} is not a point of {where}: write {_expected(game, size)}")
        return (col, size - number)
    if _SGF.fullmatch(t):
        point = parse_point(t)
        if point is None or not (point[0] < size and point[1] < size):
            raise NotationError(f"{text!r} is not a point of {where}: write {_expected(game, size)}")
        return point
    raise NotationError(f"cannot read {text!r} as a point of {where}: write {_expected(game, size)}")


def _line_index(text: str, kind: str, game: Game, size: int) -> int:
    """A Squer sweep's line: SGF letter (`c`), or customary (a row's number, a column's letters)."""
    if kind == "row" and text.isdigit():
        number = int(text)
        if 1 <= number <= size:
            return size - number
    elif len(text) == 1 and letter_index(text) is not None:
        index = letter_index(text)
        assert index is not None
        if index < size:
            return index
    elif kind == "column" and len(text) == 2 and text.isalpha():
        index = _column_index(text, game)
        if index is not None and index < size:
            return index
    example = f"{size - 2} or c" if kind == "row" else "c"
    raise NotationError(f"sweep-{text}: no {kind} of a {size}x{size} board; write the {kind} as in a point, "
                        f"e.g. sweep-{example}")


def parse_move_text(text: str, game: Game, size: int, colour: Colour = Colour.BLACK) -> str:
    """A move a user typed, as its value in the record format (SGF letters).

    Points in either notation (`Q16` or `pd`); `pass` or empty, `swap` or `swap-sides`, `resign`; Cation
    relocations `dc-fe` / `d3-f1` and removals `dc-`; Squer sweeps `sweep-c` (Black sweeps a row, White a column,
    named as in a point: `sweep-3` is the row numbered 3).
    """
    t = text.strip()
    low = t.lower()
    if low in ("", "pass"):
        return ""
    if low in ("swap", "swap-sides"):
        return "swap-sides"
    if low == "resign":
        return "resign"
    if low.startswith("sweep-"):
        kind = "row" if colour is Colour.BLACK else "column"
        index = _line_index(t[len("sweep-"):], kind, game, size)
        return "sweep-" + index_letter(index)
    if "-" in t:
        src, _, dst = t.partition("-")
        a = format_point(parse_point_text(src, game, size))
        return f"{a}-" if not dst else f"{a}-{format_point(parse_point_text(dst, game, size))}"
    return format_point(parse_point_text(t, game, size))


class ShownMove(Protocol):
    """What a display reads of a move (model.py's Move): this module sits below the record model, which parses
    the moves players write with it (`Move.parse`)."""

    @property
    def colour(self) -> Colour: ...

    @property
    def kind(self) -> MoveKind: ...

    @property
    def point(self) -> Point | None: ...

    @property
    def target(self) -> Point | None: ...

    @property
    def line(self) -> int | None: ...

    def sgf_value(self) -> str: ...


@dataclass(frozen=True, slots=True)
class PointNames:
    """The names of one board's points in one notation: call it with a point to get its name."""

    game: Game
    size: int
    notation: Notation = Notation.CUSTOMARY

    def __call__(self, point: Point) -> str:
        return point_name(point, self.game, self.size, self.notation)

    def column(self, col: int) -> str:
        if self.notation is Notation.SGF or not 0 <= col < self.size:
            return index_letter(col) if 0 <= col < 52 else str(col)
        return column_name(col, self.game)

    def row(self, row: int) -> str:
        if self.notation is Notation.SGF or not 0 <= row < self.size:
            return index_letter(row) if 0 <= row < 52 else str(row)
        return row_name(row, self.size)

    def line(self, kind: str, index: int) -> str:
        """A Squer line (`row` or `column`) by its name in a point: `row 3`, `column c`."""
        return f"{kind} {self.row(index) if kind == 'row' else self.column(index)}"

    def points(self, points: list[Point] | tuple[Point, ...]) -> str:
        return " ".join(self(p) for p in points)

    def move(self, move: ShownMove) -> str:
        """A move's value in this notation: `Q16`, `d3-f1`, `d3-`, `sweep-3`, `pass`, `swap-sides`, `resign`."""
        k = move.kind
        if k is MoveKind.PLACE and move.point is not None:
            return self(move.point)
        if k is MoveKind.RELOCATE and move.point is not None and move.target is not None:
            return f"{self(move.point)}-{self(move.target)}"
        if k is MoveKind.REMOVE and move.point is not None:
            return f"{self(move.point)}-"
        if k is MoveKind.SWEEP and move.line is not None:
            kind = "row" if move.colour is Colour.BLACK else "column"
            return "sweep-" + (self.row(move.line) if kind == "row" else self.column(move.line))
        if k is MoveKind.PASS:
            return "pass"
        return move.sgf_value()

    @property
    def words(self) -> str:
        return notation_words(self.game, self.size, self.notation)

    def parse(self, text: str) -> Point:
        return parse_point_text(text, self.game, self.size)



def names_for(game: Game, size: int, sgf: bool = False) -> PointNames:
    """The names a display uses: customary by default, SGF letters with `sgf` (the commands' `--sgf-points`)."""
    return PointNames(game, size, Notation.SGF if sgf else Notation.CUSTOMARY)
