"""Board drawing with rich, shared by `replay`, `verify` and `show`: the board, a window of it round a problem,
and the legend, drawn with the highlight model every view uses (render/highlight.py).

Highlights never rely on colour alone: each one also has a bracket or glyph, so a board stays readable with
`NO_COLOR` and in the ASCII fallback.

Points are shown in one notation per screen (GEN-10): the game's customary one unless SGF letters are asked for
(`--sgf-points`); `Analysis.points` names them for every line a view shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from ...records.games import SPECS
from ...records.model import Colour, Record
from ...records.notation import PointNames, names_for
from ...records.points import Point
from ...render.game_lines import point_of
from ...render.highlight import MARK_WORDS, NO_HIGHLIGHTS, Highlights, Mark, Rows, step_highlights
from ...render.stars import star_points
from ...verifier.judging.replay import Step

# -- glyphs and styles --------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Glyphs:
    black: str
    white: str
    empty: str
    gone: str  # a captured or removed stone's point
    vacated: str  # where a relocated stone was lifted
    edge_h: str  # top and bottom edge of a board without owned edges
    edge_v: str
    corners: tuple[str, str, str, str]  # top-left, top-right, bottom-left, bottom-right
    own_h: str  # Black's edges (connection games): top and bottom
    own_v: str  # White's edges: left and right
    own_corners: tuple[str, str, str, str]
    star: str = "+"  # an empty star point (Go boards: stars.py)


UNICODE = Glyphs("●", "○", "·", "×", "◌", "─", "│", ("┌", "┐", "└", "┘"), "━", "┃", ("┏", "┓", "┗", "┛"))
ASCII = Glyphs("X", "O", ".", "x", "-", "-", "|", ("+", "+", "+", "+"), "=", "|", ("+", "+", "+", "+"))

# Brackets around a point's glyph, by priority: the first mark present decides.
_BRACKETS: list[tuple[Mark, str, str]] = [
    (Mark.ILLEGAL, "!", "!"),
    (Mark.LAST, "(", ")"),
    (Mark.FOCUS, ">", "<"),
    (Mark.CONVERTED, "[", "]"),
    (Mark.FLIPPED, "[", "]"),
    (Mark.FILLED, "[", "]"),
    (Mark.CROSSCUT, "{", "}"),
]

_WOOD = "#d6aa5f"
BOARD = Style(bgcolor=_WOOD, color="#5a4320")
STONE = {Colour.BLACK: Style(color="#000000", bold=True, bgcolor=_WOOD),
         Colour.WHITE: Style(color="#ffffff", bold=True, bgcolor=_WOOD)}
# Tints are mid-tones so that both black and white stones stay visible on them.
_MARK_STYLE: dict[Mark, Style] = {
    Mark.ILLEGAL: Style(color="#ffffff", bold=True, bgcolor="#d04040"),
    Mark.LAST: Style(color="#c00000", bold=True),
    Mark.FOCUS: Style(color="#c00000", bold=True),
    Mark.CONVERTED: Style(color="#4b0070", bold=True, bgcolor="#a77cc0"),
    Mark.FLIPPED: Style(color="#4b0070", bold=True, bgcolor="#a77cc0"),
    Mark.FILLED: Style(color="#0b3d0b", bold=True, bgcolor="#6fa862"),
    Mark.CROSSCUT: Style(color="#4a3500", bold=True, bgcolor="#b8962e"),
    Mark.SWEPT: Style(bgcolor="#5b8fd0"),
}
_TINTS = (Mark.ILLEGAL, Mark.CONVERTED, Mark.FLIPPED, Mark.FILLED, Mark.CROSSCUT, Mark.SWEPT)
_GONE_STYLE = Style(color="#c00000", bold=True, bgcolor=_WOOD)
EDGE_STYLE = {Colour.BLACK: Style(color="#000000", bold=True, bgcolor=_WOOD),
              Colour.WHITE: Style(color="#ffffff", bold=True, bgcolor=_WOOD)}
_LABEL = Style(dim=True)


def glyphs_for(ascii: bool) -> Glyphs:
    return ASCII if ascii else UNICODE


def console_needs_ascii(console: Console) -> bool:
    """True when the console's encoding cannot show the stone glyphs (then the ASCII board is used)."""
    sample = UNICODE.black + UNICODE.white + UNICODE.empty + UNICODE.gone + UNICODE.own_h + "→"
    try:
        sample.encode(console.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return True
    return False


def _glyph(rows: Rows, point: Point, marks: frozenset[Mark], g: Glyphs, mover: Colour | None,
           stars: frozenset[Point]) -> tuple[str, Style]:
    """What a point shows, without its brackets: a stone, a refused stone, an emptied point, a star point, ..."""
    col, row = point
    stone = rows[row][col]
    if stone is not None:
        return (g.black if stone is Colour.BLACK else g.white), STONE[stone]
    if Mark.ILLEGAL in marks and mover is not None:
        # An illegal placement on an empty point shows the stone that was refused.
        return (g.black if mover is Colour.BLACK else g.white), STONE[mover]
    if Mark.CAPTURED in marks or Mark.REMOVED in marks:
        return g.gone, _GONE_STYLE
    if Mark.FROM in marks:
        return g.vacated, _GONE_STYLE
    return (g.star if point in stars else g.empty), BOARD


def _brackets(marks: frozenset[Mark]) -> tuple[str, str, Style]:
    """The brackets around a point: the first mark present decides (`_BRACKETS`)."""
    for mark, lb, rb in _BRACKETS:
        if mark in marks:
            return lb, rb, _MARK_STYLE[mark]
    return " ", " ", Style()


def _tint(marks: frozenset[Mark]) -> Style:
    """A tint behind the whole cell: the strongest change on the point."""
    return next((Style(bgcolor=_MARK_STYLE[m].bgcolor) for m in _TINTS if m in marks), Style())


def _cell(rows: Rows, point: Point, marks: frozenset[Mark], g: Glyphs, mover: Colour | None,
          stars: frozenset[Point]) -> Text:
    """One point as three characters: a bracket, the glyph, a bracket."""
    glyph, style = _glyph(rows, point, marks, g, mover, stars)
    left, right, bracket = _brackets(marks)
    tint = _tint(marks)
    text = Text()
    text.append(left, BOARD + bracket + tint)
    text.append(glyph, style + tint)
    text.append(right, BOARD + bracket + tint)
    return text


def label_width(names: PointNames) -> int:
    """How many characters the widest row label takes (2 for customary rows from 10 up)."""
    return max(len(names.row(r)) for r in range(names.size))


def narrow_fits(names: PointNames) -> bool:
    """Whether a board can be drawn two characters a point (`narrow`): every column label is one character."""
    return all(len(names.column(c)) == 1 for c in range(names.size))


def _draw(record: Record, rows: Rows, highlights: Highlights, cols: range, rws: range, *, ascii: bool,
          mover: Colour | None, names: PointNames, compact: bool = False, narrow: bool = False,
          frame: bool = True) -> Text:
    """The board (or a window of it) with coordinates, in `names`, on all four sides and its edges drawn.

    A point takes three characters (a bracket, the glyph, a bracket); `narrow` draws two (the space before the
    glyph, and one after the last): two neighbours then share the space between them, and its bracket is the
    stronger mark's (`_BRACKETS`). Without `frame` the top and bottom edge lines are left out (the coordinates
    and the side edges still show where the board ends).
    """
    size = record.size
    lw = label_width(names)
    g = glyphs_for(ascii)
    stars = star_points(record.game, size)
    owned = SPECS[record.game].connection
    h_edge, v_edge = (g.own_h, g.own_v) if owned else (g.edge_h, g.edge_v)
    corners = g.own_corners if owned else g.corners
    top_style = EDGE_STYLE[Colour.BLACK] if owned else BOARD
    side_style = EDGE_STYLE[Colour.WHITE] if owned else BOARD
    corner_style = BOARD
    cell = 2 if narrow else 3
    inner = cell * len(cols) + (1 if narrow else 0)

    left_open = cols.start > 0
    right_open = cols.stop < size
    top_open = rws.start > 0
    bottom_open = rws.stop < size

    out = Text(no_wrap=True, overflow="ignore")
    pad = " " * (lw + 2)  # row label, space, frame column

    def column_labels() -> None:
        out.append(pad)
        for c in cols:
            out.append(f" {names.column(c)}" if narrow else f"{names.column(c):^3}", _LABEL)
        out.append("\n")

    def horizontal(is_top: bool) -> None:
        if not frame or (top_open if is_top else bottom_open):
            return  # a window that does not reach this edge: no edge line
        left_c, right_c = (corners[0], corners[1]) if is_top else (corners[2], corners[3])
        out.append(" " * (lw + 1))
        out.append(" " if left_open else left_c, corner_style)
        out.append(h_edge * inner, top_style)
        out.append(" " if right_open else right_c, corner_style)
        out.append("\n")

    def narrow_row(r: int) -> None:
        gaps: list[tuple[str, Style] | None] = [None] * (len(cols) + 1)
        looks = []
        for c in cols:
            marks = highlights.at((c, r))
            looks.append((*_glyph(rows, (c, r), marks, g, mover, stars), _tint(marks)))
        # Stronger marks take the shared spaces first.
        order = sorted(range(len(cols)), key=lambda i: _bracket_rank(highlights.at((cols[i], r))))
        for i in order:
            marks = highlights.at((cols[i], r))
            if _bracket_rank(marks) == len(_BRACKETS):
                break
            left, right, bracket = _brackets(marks)
            for k, char in ((i, left), (i + 1, right)):
                if gaps[k] is None:
                    gaps[k] = (char, BOARD + bracket + looks[i][2])
        for i, (glyph, style, tint) in enumerate(looks):
            out.append(*(gaps[i] or (" ", BOARD)))
            out.append(glyph, style + tint)
        out.append(*(gaps[-1] or (" ", BOARD)))

    column_labels()
    horizontal(True)
    for r in rws:
        out.append(f"{names.row(r).rjust(lw)} ", _LABEL)
        out.append(" " if left_open else v_edge, BOARD if left_open else side_style)
        if narrow:
            narrow_row(r)
        else:
            for c in cols:
                out.append_text(_cell(rows, (c, r), highlights.at((c, r)), g, mover, stars))
        out.append(" " if right_open else v_edge, BOARD if right_open else side_style)
        out.append(f" {names.row(r)}", _LABEL)
        if highlights.swept == ("row", r):
            out.append(" <" if ascii else " ◀", _MARK_STYLE[Mark.LAST])
        out.append("\n")
    horizontal(False)
    if not compact:
        column_labels()
    if highlights.swept is not None and highlights.swept[0] == "column" and highlights.swept[1] in cols:
        at = highlights.swept[1] - cols.start
        arrow = "^" if ascii else "▲"
        out.append(pad + (" " * (2 * at) + f" {arrow}" if narrow else "   " * at + f" {arrow} "),
                   _MARK_STYLE[Mark.LAST])
        out.append("\n")
    out.rstrip()
    return out


def _bracket_rank(marks: frozenset[Mark]) -> int:
    """The place of a point's bracket in `_BRACKETS` (len(_BRACKETS): no bracket)."""
    return next((i for i, (mark, _, _) in enumerate(_BRACKETS) if mark in marks), len(_BRACKETS))


def clauses(line: str, width: int) -> list[str]:
    """`line` in lines of at most `width` cells, broken after its commas only (a clause such as `A..T (no I) left to
    right` is never broken inside; one wider than `width` stays whole)."""
    out: list[str] = []
    for clause in line.split(", "):
        if out and cell_len(out[-1]) + 2 + cell_len(clause) <= width:
            out[-1] += ", " + clause
        else:
            if out:
                out[-1] += ","
            out.append(clause)
    return out


class Clauses:
    """A line of words shown whole where the width allows, else broken after its commas only (`clauses`)."""

    def __init__(self, line: str, style: Style) -> None:
        self.line = line
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n".join(clauses(self.line, options.max_width)), style=self.style)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max(cell_len(c) + 1 for c in self.line.split(", "))
        return Measurement(min(widest, options.max_width), min(cell_len(self.line), options.max_width))


def _legend(record: Record, highlights: Highlights, rows: Rows, mover: Colour | None, ascii: bool,
            names: PointNames) -> RenderableType:
    """The notation (broken between its clauses where the width it is given is too narrow), the owned edges, and
    each mark in use drawn as on the board (`(●) last move`)."""
    parts: list[str] = []
    g = glyphs_for(ascii)
    stars = star_points(record.game, record.size)
    if SPECS[record.game].connection:
        parts.append(f"Black {g.black}: top, bottom edges {g.own_h}")
        parts.append(f"White {g.white}: left, right edges {g.own_v}")

    def drawn(mark: Mark) -> str:
        """The mark's brackets around the glyph of the first point it is on (as that point is drawn)."""
        point = min((p for p, m in highlights.marks.items() if mark in m), key=lambda p: (p[1], p[0]))
        left, right = next((lb, rb) for m, lb, rb in _BRACKETS if m is mark)
        return left + _glyph(rows, point, highlights.at(point), g, mover, stars)[0] + right

    words = {
        Mark.CAPTURED: f"{g.gone} captured", Mark.REMOVED: f"{g.gone} removed", Mark.FROM: f"{g.vacated} moved away",
    }
    used: list[str] = []
    for m in highlights.used():
        if m is Mark.SWEPT:
            continue
        if any(m is b for b, _, _ in _BRACKETS):
            used.append(f"{drawn(m)} {MARK_WORDS[m]}")
        elif m in words:
            used.append(words[m])
    if highlights.swept is not None:
        used.append(f"swept {names.line(*highlights.swept)}")
    parts.extend(used)
    notation = Clauses(names.words, _LABEL)
    return Group(notation, Text("\n".join(parts), style=_LABEL)) if parts else notation


def board_renderable(record: Record, step: Step | None, rows: Rows, *, ascii: bool = False,
                     compact: bool = False, narrow: bool = False, frame: bool = True,
                     names: PointNames | None = None) -> RenderableType:
    """The whole board with coordinates, owned edges coloured (connection games) and the step's highlights.

    `rows`: the position to draw (rows of Colour | None, row 0 at the top); `step`: the move whose changes are
    highlighted (None: none). Works for every size from 2x2 to 52x52. Coordinates are in `names` (default: the
    game's customary notation, GEN-10), and the legend's first line says which notation that is.
    `compact` leaves out the bottom coordinates and the legend (for a terminal too short for them); `narrow`
    draws two characters a point instead of three (when `narrow_fits(names)`), for a terminal too narrow;
    without `frame` the top and bottom edge lines are left out, for one still too short.
    """
    size = record.size
    names = names or names_for(record.game, size)
    highlights = step_highlights(step, size)
    mover = step.colour if step is not None else None
    board = _draw(record, rows, highlights, range(size), range(size), ascii=ascii, mover=mover, names=names,
                  compact=compact, narrow=narrow, frame=frame)
    return board if compact else Group(board, _legend(record, highlights, rows, mover, ascii, names))


def board_excerpt(record: Record, rows: Rows, point: Point | str | None, *, radius: int = 3,
                  ascii: bool = False, names: PointNames | None = None) -> RenderableType:
    """A small diagram of the points within `radius` of `point` (marked), for showing where a problem is.

    `point` may be a (column, row) tuple or SGF letters (`Problem.point`); None or a point off the board draws
    the whole board without a mark.
    """
    size = record.size
    names = names or names_for(record.game, size)
    p = point_of(point)
    if p is None or not (0 <= p[0] < size and 0 <= p[1] < size):
        board = _draw(record, rows, NO_HIGHLIGHTS, range(size), range(size), ascii=ascii, mover=None, names=names)
        return Group(board, Text(names.words, style=_LABEL))
    radius = max(0, radius)
    cols = range(max(0, p[0] - radius), min(size, p[0] + radius + 1))
    rws = range(max(0, p[1] - radius), min(size, p[1] + radius + 1))
    highlights = Highlights({p: frozenset({Mark.FOCUS})})
    board = _draw(record, rows, highlights, cols, rws, ascii=ascii, mover=None, names=names)
    return Group(board, Text(names.words, style=_LABEL))
