"""Board drawing with rich, shared by `replay`, `verify` and `show`, and the highlight model every view uses.

Everything a view shows about a move comes from the replay's `Step` (its `change` and its `board`); nothing here
knows a game's rules. Highlights never rely on colour alone: each one also has a bracket or glyph, so a board stays
readable with `NO_COLOR` and in the ASCII fallback.

Points are shown in one notation per screen (GEN-10): the game's customary one unless SGF letters are asked for
(`--sgf-points`); `Analysis.points` names them for every line a view shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.text import Text

from ...records.games import SPECS, Game, MoveKind
from ...records.model import Colour, Move, Record
from ...records.notation import PointNames, names_for
from ...records.points import Point, parse_point
from ...verifier.judging.analysis import Analysis
from ...verifier.judging.replay import Step
from .stars import star_points
from .words import ending

Rows = Sequence[Sequence[Colour | None]]


class Mark(StrEnum):
    """What a view highlights on a point."""

    LAST = "last"  # the point the move played (a placement, or a relocation's destination)
    ILLEGAL = "illegal"  # the point of a refused move
    CAPTURED = "captured"  # Go: removed by a capture or a suicide (ING-3)
    REMOVED = "removed"  # Cation removal (CAT-7); Go stones removed by agreement (ING-7)
    CONVERTED = "converted"  # Conversion Go (CON-3, CON-7)
    FLIPPED = "flipped"  # Squer maneuver or sweep (SQU-3, SQU-4)
    FILLED = "filled"  # Quentin territory filling (QUE-3)
    FROM = "from"  # where a relocated Cation stone was lifted (CAT-6)
    CROSSCUT = "crosscut"  # Cation: a stone of a crosscut on the board after the move (CAT-2)
    SWEPT = "swept"  # Squer: a point of the swept line (SQU-4)
    FOCUS = "focus"  # the point a problem report is about (board_excerpt)


# What each mark means, for legends (terminal, SVG title, HTML).
MARK_WORDS: dict[Mark, str] = {
    Mark.LAST: "last move",
    Mark.ILLEGAL: "illegal move",
    Mark.CAPTURED: "captured",
    Mark.REMOVED: "removed",
    Mark.CONVERTED: "converted",
    Mark.FLIPPED: "flipped",
    Mark.FILLED: "filled",
    Mark.FROM: "moved away",
    Mark.CROSSCUT: "crosscut",
    Mark.SWEPT: "swept line",
    Mark.FOCUS: "this point",
}


@dataclass(frozen=True, slots=True)
class Highlights:
    """The highlights of one step: marks per point, and the swept line if any."""

    marks: dict[Point, frozenset[Mark]]
    swept: tuple[str, int] | None = None  # ("row" | "column", index)
    crosscuts: tuple[tuple[Point, ...], ...] = ()  # Cation (CAT-2): the four points of each

    def at(self, point: Point) -> frozenset[Mark]:
        return self.marks.get(point, frozenset())

    def used(self) -> list[Mark]:
        """The marks present, in the order of MARK_WORDS (for a legend)."""
        present: set[Mark] = set()
        for m in self.marks.values():
            present |= m
        return [m for m in MARK_WORDS if m in present]


NO_HIGHLIGHTS = Highlights({})


def move_point(move: Move) -> Point | None:
    """The point a move puts a stone on: the placement, or a relocation's destination; None for the others."""
    if move.kind is MoveKind.PLACE:
        return move.point
    if move.kind is MoveKind.RELOCATE:
        return move.target
    return None


def step_highlights(step: Step | None, size: int) -> Highlights:
    """The marks a view shows for `step` (None: no highlights)."""
    if step is None:
        return NO_HIGHLIGHTS
    marks: dict[Point, set[Mark]] = {}

    def add(points: Iterable[Point | None], mark: Mark) -> None:
        for p in points:
            if p is not None and 0 <= p[0] < size and 0 <= p[1] < size:
                marks.setdefault(p, set()).add(mark)

    if step.illegal is not None:
        # The position shown is the one before the refused move: only the move itself is marked.
        add([step.illegal.point or move_point(step.move) or step.move.point], Mark.ILLEGAL)
        return Highlights({p: frozenset(m) for p, m in marks.items()})

    change = step.change
    add([move_point(step.move), *change.placed], Mark.LAST)
    add(change.captured, Mark.CAPTURED)
    add(change.removed, Mark.REMOVED)
    add(change.converted, Mark.CONVERTED)
    add(change.flipped, Mark.FLIPPED)
    add(change.filled, Mark.FILLED)
    add((a for a, _ in change.relocated), Mark.FROM)
    add((b for _, b in change.relocated), Mark.LAST)
    for cut in change.crosscuts:
        add(cut, Mark.CROSSCUT)
    swept = change.swept
    if swept is not None:
        kind, index = swept
        line = [(index, r) for r in range(size)] if kind == "column" else [(c, index) for c in range(size)]
        add(line, Mark.SWEPT)
    return Highlights({p: frozenset(m) for p, m in marks.items()}, swept, change.crosscuts)


# -- words shared by every view -----------------------------------------------------------------------------

def _points_text(points: Iterable[Point], names: PointNames) -> str:
    return " ".join(names(p) for p in sorted(points, key=lambda p: (p[1], p[0])))


def describe_move(move: Move, names: PointNames) -> str:
    """A move in words: `Black Q16`, `White passes`, `Black d3→f1`, `White sweeps column c`, ... (in `names`)."""
    who = move.colour.word
    k = move.kind
    if k is MoveKind.PLACE and move.point is not None:
        return f"{who} {names(move.point)}"
    if k is MoveKind.PASS:
        return f"{who} passes"
    if k is MoveKind.SWAP:
        return f"{who} swaps sides"
    if k is MoveKind.RELOCATE and move.point is not None and move.target is not None:
        return f"{who} {names(move.point)}→{names(move.target)}"
    if k is MoveKind.REMOVE and move.point is not None:
        return f"{who} removes {names(move.point)}"
    if k is MoveKind.SWEEP and move.line is not None:
        # SQU-11: Black sweeps a row, White a column, named as in a point.
        return f"{who} sweeps {names.line('row' if move.colour is Colour.BLACK else 'column', move.line)}"
    if k is MoveKind.RESIGN:
        return f"{who} resigns"
    return f"{who} [{move.raw}]"


def change_lines(step: Step | None, names: PointNames) -> list[str]:
    """What a step changed, one line per kind, e.g. `captured 2: C4 C3`; the refusal for an illegal step."""
    if step is None:
        return []
    if step.illegal is not None:
        ill = step.illegal
        return [f"illegal: {ill.message} ({ill.rule})"]
    ch = step.change
    out: list[str] = []
    if ch.swapped:
        out.append("the players swapped sides")
    for word, points in (("captured", ch.captured), ("removed", ch.removed), ("converted", ch.converted),
                         ("flipped", ch.flipped), ("filled", ch.filled)):
        if points:
            out.append(f"{word} {len(points)}: {_points_text(points, names)}")
    for a, b in ch.relocated:
        out.append(f"moved {names(a)}→{names(b)}")
    if ch.swept is not None:
        out.append(f"swept {names.line(*ch.swept)}")
    if ch.crosscuts:
        cuts = ", ".join(_points_text(cut, names) for cut in ch.crosscuts)
        out.append(f"crosscuts {len(ch.crosscuts)}: {cuts}")
    return out


def _name(name: str | None) -> str:
    return name if name else "?"


def header_lines(record: Record) -> list[str]:
    """The game, the players as they started, event, round, date and place (record text, not escaped)."""
    out = [f"{SPECS[record.game].title}, {record.size}x{record.size}"]
    black = _name(record.black) + (f" {record.black_rank}" if record.black_rank else "")
    white = _name(record.white) + (f" {record.white_rank}" if record.white_rank else "")
    # Go's terms go with the player they favour: the handicap stones are Black's, the komi White's (HA, KM).
    if record.handicap:
        black += f", handicap {record.handicap}"
    if record.komi is not None:
        white += f", komi {record.komi:g}"
    out.append(f"Black: {black}")
    out.append(f"White: {white}")
    if record.rules:
        out.append(f"Rules: {record.rules}")
    event = ", ".join(x for x in (record.event, f"round {record.round}" if record.round else None) if x)
    if event:
        out.append(f"Event: {event}")
    if record.date is not None and record.date.raw:
        out.append(f"Date: {record.date.raw}")
    if record.place:
        out.append(f"Place: {record.place}")
    return out


def taken_line(data: Analysis, index: int) -> str | None:
    """`Stones taken: Black 3, White 5` after move `index`: the stones each has captured (Go only)."""
    if data.record.game is not Game.GO:
        return None
    taken = data.taken_at(index)
    return f"Stones taken: Black {taken.black}, White {taken.white}"


def who(colour: Colour | None, player: str | None) -> str:
    if colour is None:
        return "either colour" + (f" ({player})" if player else "")
    return colour.word + (f" ({player})" if player else "")


def move_line(data: Analysis, index: int) -> str:
    """`Move 5 of 40: Black D3 (Alice)`; `Start` for position 0."""
    step = data.step_at(index)
    if step is None:
        return f"Start (moves: {data.moves})"
    prefix = "Illegal move" if step.illegal is not None else "Move"
    return f"{prefix} {step.number} of {data.moves}: {describe_move(step.move, data.points)}" + (
        f" ({step.player})" if step.player else "")


def to_move_line(data: Analysis, index: int) -> str:
    step = data.step_at(index)
    if step is None:
        colour = data.start_to_move
        # Before any move nobody has swapped: the player holding a colour is the one the record names for it;
        # while either colour may move (Conversion Go's opening, CON-5) it is the first player (PB).
        player = data.record.player(colour) if colour is not None else data.record.black
        return f"To move: {who(colour, player)}"
    if step.illegal is not None:
        return f"To move: {who(step.colour, step.player)}; the recorded move is refused"
    if step.move.kind is MoveKind.RESIGN:
        return f"Game over: {who(step.colour, step.player)} resigned"
    end = data.end_at(index)
    if end is not None:
        winner = f"{who(end.winner, _holder(data, index, end.winner))} wins, " if end.winner is not None else ""
        if index < data.last:
            # ING-5: a stop that the record goes on from is not the end; the next move resumes play.
            return f"Play stopped: {winner}{end.reason or end.text()}; the record goes on"
        return f"Game over: {winner}{end.reason or end.text()}"
    return f"To move: {who(step.to_move, step.player_to_move)}"


def _holder(data: Analysis, index: int, colour: Colour) -> str | None:
    """The player holding `colour` after move `index` (player 0 started with Black; a swap exchanges them)."""
    swap = data.swap_step
    swapped = swap is not None and swap.number <= index
    return data.record.player(colour.other if swapped else colour)


def swap_line(data: Analysis, index: int) -> str | None:
    """The swap, once it has happened: who swapped and the colour they play from then on."""
    step = data.swap_step
    if step is None or step.number > index:
        return None
    # The swapper wrote the swap with the colour they held; from then on they play the other colour (README: pie).
    return f"Swap at move {step.number}: {_name(step.player)} now plays {step.colour.other.word}"


def comment_of(data: Analysis, index: int) -> str | None:
    step = data.step_at(index)
    node = data.record.root if step is None else step.node
    return node.comment


def verdict_lines(data: Analysis) -> list[str]:
    """The verdict in a few lines: status, first error, results, winner (record text, not escaped)."""
    v = data.verdict
    out = [f"Verdict: {v.verdict.value} ({v.verdict.meaning})"]
    first = v.first_error
    if first is not None:
        point = point_of(first.point)
        named = data.points(point) if point is not None else first.point
        where = " ".join(x for x in (f"move {first.move}" if first.move else None, named) if x)
        rule = f" ({first.rule})" if first.rule else ""
        out.append(f"First error: {where + ': ' if where else ''}{first.message}{rule}")
    declared = v.declared.raw if v.declared is not None and v.declared.declared else "none"
    out.append(f"Result: declared {declared}, computed {v.computed}: {v.status.value}")
    out.append(f"End: {ending(v)}")
    if v.result_note:
        out.append(v.result_note)
    return out


def point_of(value: Point | str | None) -> Point | None:
    """A point given as a tuple or as SGF letters (`Problem.point`)."""
    if value is None or isinstance(value, tuple):
        return value
    return parse_point(value)


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


def _legend(record: Record, highlights: Highlights, rows: Rows, mover: Colour | None, ascii: bool,
            names: PointNames) -> Text:
    """The notation, the owned edges, and each mark in use drawn as on the board (`(●) last move`)."""
    parts: list[str] = [names.words]
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
    return Text("\n".join(parts), style=_LABEL)


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
