"""SVG board diagrams: one position with stones, coordinates, owned edges, the last move and what it changed.

Drawing is described as shapes (tag, attributes, text) so that the HTML replayer draws each step's marks from the
very same shapes this module writes into a diagram. Every element carries classes (`stone black`, `mark captured`)
and `data-point` (SGF letters, whatever notation the coordinates and captions use) so a reader, or a test, can
query the picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..records.games import SPECS, Game
from ..records.model import Colour
from ..records.notation import PointNames
from ..records.points import Point, format_point, index_letter
from ..verifier.judging.analysis import Analysis
from .game_lines import change_lines, header_lines, move_line, taken_line
from .highlight import MARK_WORDS, Highlights, Mark, Rows, step_highlights
from .safe_text import xml_text
from .stars import star_points

Attrs = dict[str, str | int | float]
Shape = tuple[str, Attrs, str | None]  # tag, attributes, text content

CELL = 32
STONE_R = 0.46 * CELL
WOOD = "#dcb35c"
INK = "#3b2a10"
BLACK_FILL, WHITE_FILL = "#111111", "#f7f7f4"
RED = "#d01010"
PURPLE = "#9b1fd1"
GREEN = "#178a17"
AMBER = "#e0a000"


@dataclass(frozen=True, slots=True)
class Geometry:
    """Where things go on a board of `size` points; owned edges drawn as bands for connection games."""

    size: int
    connection: bool
    caption: bool = True
    stars: frozenset[Point] = frozenset()  # drawn as dots on the grid (Go boards, stars.py)

    @classmethod
    def of(cls, game: Game, size: int, *, caption: bool = True) -> Geometry:
        """The geometry of a `game` board: its owned edges and its star points."""
        return cls(size, SPECS[game].connection, caption, star_points(game, size))

    @property
    def off(self) -> float:
        """The centre of point 0 (room for coordinates and an edge band)."""
        return CELL * 1.6

    def xy(self, point: Point) -> tuple[float, float]:
        return self.off + point[0] * CELL, self.off + point[1] * CELL

    @property
    def board_span(self) -> float:
        return (self.size - 1) * CELL

    @property
    def width(self) -> float:
        return 2 * self.off + self.board_span



def _num(v: str | int | float) -> str:
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(v)


def to_xml(shapes: list[Shape]) -> str:
    """Shapes as SVG elements; every attribute value and text escaped."""
    out: list[str] = []
    for tag, attrs, text in shapes:
        attr = "".join(f' {k}="{xml_text(_num(v), quote=True)}"' for k, v in attrs.items())
        if text is None:
            out.append(f"<{tag}{attr}/>")
        else:
            out.append(f"<{tag}{attr}>{xml_text(text, quote=False)}</{tag}>")
    return "\n".join(out)


def frame_shapes(geo: Geometry, names: PointNames) -> list[Shape]:
    """Background, grid, owned-edge bands (Black top and bottom, White left and right), coordinates in `names`."""
    n, off, span = geo.size, geo.off, geo.board_span
    pad = CELL * 0.6
    lo, hi = off - pad, off + span + pad
    shapes: list[Shape] = [("rect", {"class": "board", "x": lo, "y": lo, "width": hi - lo, "height": hi - lo,
                                     "fill": WOOD}, None)]
    if geo.connection:
        band = CELL * 0.22
        # Corners belong to both players; the bands stop at the board's corners so neither owns them visually.
        for y in (lo - band, hi):
            shapes.append(("rect", {"class": "edge edge-black", "x": lo, "y": y, "width": hi - lo, "height": band,
                                    "fill": BLACK_FILL}, None))
        for x in (lo - band, hi):
            shapes.append(("rect", {"class": "edge edge-white", "x": x, "y": lo, "width": band, "height": hi - lo,
                                    "fill": WHITE_FILL, "stroke": "#777777", "stroke-width": 1}, None))
    for i in range(n):
        p = off + i * CELL
        shapes.append(("line", {"class": "grid", "x1": off, "y1": p, "x2": off + span, "y2": p, "stroke": INK,
                                "stroke-width": 1}, None))
        shapes.append(("line", {"class": "grid", "x1": p, "y1": off, "x2": p, "y2": off + span, "stroke": INK,
                                "stroke-width": 1}, None))
    for point in sorted(geo.stars):
        x, y = geo.xy(point)
        shapes.append(("circle", {"class": "star", "data-point": format_point(point), "cx": x, "cy": y,
                                  "r": CELL * 0.1, "fill": INK}, None))
    label_gap = CELL * (1.1 if geo.connection else 0.9)
    font: Attrs = {"font-family": "sans-serif", "font-size": CELL * 0.42, "fill": "#333333",
                   "text-anchor": "middle", "dominant-baseline": "central"}
    for i in range(n):
        p = off + i * CELL
        column, row = names.column(i), names.row(i)
        for x, y in ((p, lo - label_gap + pad), (p, hi + label_gap - pad)):
            shapes.append(("text", {"class": "coord", **font, "x": x, "y": y}, column))
        for x, y in ((lo - label_gap + pad, p), (hi + label_gap - pad, p)):
            shapes.append(("text", {"class": "coord", **font, "x": x, "y": y}, row))
    return shapes


def stone_shape(geo: Geometry, point: Point, colour: Colour, *, extra: str = "") -> Shape:
    x, y = geo.xy(point)
    black = colour is Colour.BLACK
    return ("circle", {"class": f"stone {'black' if black else 'white'}{extra}", "data-point": format_point(point),
                       "cx": x, "cy": y, "r": STONE_R, "fill": BLACK_FILL if black else WHITE_FILL,
                       "stroke": "#000000" if black else "#555555", "stroke-width": 1}, None)


def stone_shapes(geo: Geometry, rows: Rows) -> list[Shape]:
    return [stone_shape(geo, (c, r), colour) for r, row in enumerate(rows) for c, colour in enumerate(row)
            if colour is not None]


def _cross(geo: Geometry, point: Point, cls: str, colour: str, half: float) -> list[Shape]:
    x, y = geo.xy(point)
    attrs: Attrs = {"class": cls, "data-point": format_point(point), "stroke": colour, "stroke-width": 3,
                    "stroke-linecap": "round"}
    return [("line", {**attrs, "x1": x - half, "y1": y - half, "x2": x + half, "y2": y + half}, None),
            ("line", {**attrs, "x1": x - half, "y1": y + half, "x2": x + half, "y2": y - half}, None)]


def mark_shapes(geo: Geometry, highlights: Highlights, rows: Rows, *,
                mover: Colour | None) -> tuple[list[Shape], list[Shape]]:
    """The marks of one step: (drawn under the stones, drawn over them)."""
    under: list[Shape] = []
    over: list[Shape] = []
    n = geo.size
    if highlights.swept is not None:
        kind, index = highlights.swept
        half = CELL * 0.5
        if kind == "row":
            x, y = geo.xy((0, index))
            box = {"x": x - half, "y": y - half, "width": geo.board_span + CELL, "height": CELL}
        else:
            x, y = geo.xy((index, 0))
            box = {"x": x - half, "y": y - half, "width": CELL, "height": geo.board_span + CELL}
        under.append(("rect", {"class": "mark swept", "data-line": f"{kind}-{index_letter(index)}", **box,
                               "fill": "#3a8ee6", "fill-opacity": 0.35}, None))
    for point, marks in sorted(highlights.marks.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        x, y = geo.xy(point)
        stone = rows[point[1]][point[0]] if 0 <= point[1] < n and 0 <= point[0] < n else None
        pid = format_point(point)
        if Mark.ILLEGAL in marks:
            if stone is None and mover is not None:
                shape = stone_shape(geo, point, mover, extra=" refused")
                shape[1]["fill-opacity"] = 0.45
                over.append(shape)
            over.extend(_cross(geo, point, "mark illegal", RED, CELL * 0.32))
        if Mark.CAPTURED in marks:
            over.extend(_cross(geo, point, "mark captured", RED, CELL * 0.2))
        if Mark.REMOVED in marks:
            over.extend(_cross(geo, point, "mark removed", RED, CELL * 0.2))
        if Mark.FROM in marks:
            over.append(("circle", {"class": "mark from", "data-point": pid, "cx": x, "cy": y, "r": STONE_R * 0.8,
                                    "fill": "none", "stroke": RED, "stroke-width": 2, "stroke-dasharray": "3 3"},
                         None))
        for mark, colour in ((Mark.CONVERTED, PURPLE), (Mark.FLIPPED, PURPLE)):
            if mark in marks:
                over.append(("circle", {"class": f"mark {mark.value}", "data-point": pid, "cx": x, "cy": y,
                                        "r": STONE_R + 1.5, "fill": "none", "stroke": colour, "stroke-width": 3},
                             None))
        if Mark.FILLED in marks:
            s = CELL * 0.22
            over.append(("rect", {"class": "mark filled", "data-point": pid, "x": x - s / 2, "y": y - s / 2,
                                  "width": s, "height": s, "fill": GREEN, "stroke": "#ffffff", "stroke-width": 1},
                         None))
        if Mark.LAST in marks:
            ring = "#ffffff" if stone is Colour.BLACK else RED
            over.append(("circle", {"class": "mark last", "data-point": pid, "cx": x, "cy": y, "r": STONE_R * 0.42,
                                    "fill": "none", "stroke": ring, "stroke-width": 2.5}, None))
        if Mark.FOCUS in marks:
            over.append(("rect", {"class": "mark focus", "data-point": pid, "x": x - CELL / 2, "y": y - CELL / 2,
                                  "width": CELL, "height": CELL, "fill": "none", "stroke": RED, "stroke-width": 2},
                         None))
    for cut in highlights.crosscuts:
        cols = [p[0] for p in cut]
        rws = [p[1] for p in cut]
        x0, y0 = geo.xy((min(cols), min(rws)))
        x1, y1 = geo.xy((max(cols), max(rws)))
        m = CELL * 0.52
        over.append(("rect", {"class": "mark crosscut", "data-points": " ".join(format_point(p) for p in cut),
                              "x": x0 - m, "y": y0 - m, "width": x1 - x0 + 2 * m, "height": y1 - y0 + 2 * m,
                              "rx": 6, "fill": "none", "stroke": AMBER, "stroke-width": 3,
                              "stroke-dasharray": "6 3"}, None))
    return under, over


def arrow_shapes(geo: Geometry, relocations: tuple[tuple[Point, Point], ...]) -> list[Shape]:
    """An arrow from where a Cation stone was lifted to where it was put (CAT-6)."""
    out: list[Shape] = []
    for a, b in relocations:
        (x0, y0), (x1, y1) = geo.xy(a), geo.xy(b)
        out.append(("line", {"class": "mark move-arrow", "data-from": format_point(a), "data-to": format_point(b),
                             "x1": x0, "y1": y0, "x2": x1, "y2": y1, "stroke": RED, "stroke-width": 2,
                             "stroke-dasharray": "5 4", "stroke-opacity": 0.8}, None))
    return out


def number_shapes(geo: Geometry, colours: dict[Point, Colour], numbers: dict[Point, int]) -> list[Shape]:
    """The move numbers written on stones: white on Black's, black on White's."""
    out: list[Shape] = []
    for p, k in sorted(numbers.items(), key=lambda kv: kv[1]):
        x, y = geo.xy(p)
        colour = "#ffffff" if colours[p] is Colour.BLACK else "#000000"
        size = CELL * (0.42 if k < 100 else 0.34)
        out.append(("text", {"class": "number", "data-point": format_point(p), "x": x, "y": y,
                             "font-family": "sans-serif", "font-size": size, "font-weight": "bold", "fill": colour,
                             "text-anchor": "middle", "dominant-baseline": "central"}, str(k)))
    return out


def step_shapes(data: Analysis, index: int, geo: Geometry) -> tuple[list[Shape], list[Shape]]:
    """The highlights of position `index` as shapes (under the stones, over them)."""
    step = data.step_at(index)
    rows = data.rows_at(index)
    highlights = step_highlights(step, data.record.size)
    under, over = mark_shapes(geo, highlights, rows, mover=step.colour if step else None)
    if step is not None and step.illegal is None:
        under.extend(arrow_shapes(geo, step.change.relocated))
    return under, over


def _wrap(lines: list[str], width: int) -> list[str]:
    """Caption lines broken at spaces to about `width` characters (SVG text does not wrap by itself)."""
    width = max(12, width)
    out: list[str] = []
    for line in lines:
        current = ""
        for word in line.split(" "):
            if current and len(current) + 1 + len(word) > width:
                out.append(current)
                current = "  " + word
            else:
                current = f"{current} {word}" if current else word
        out.append(current)
    return out


def players_lines(data: Analysis) -> list[str]:
    """The players with the handicap and komi, and the rules the record names (header_lines)."""
    return [line for line in header_lines(data.record) if line.startswith(("Black: ", "White: ", "Rules: "))]


def diagram_svg(data: Analysis, index: int) -> str:
    """A standalone SVG document of the position after move `index` (0: the start)."""
    record = data.record
    geo = Geometry.of(record.game, record.size)
    rows = data.rows_at(index)
    under, over = step_shapes(data, index, geo)
    step = data.step_at(index)
    shapes = frame_shapes(geo, data.points) + under + stone_shapes(geo, rows) + over
    taken = taken_line(data, index)
    first = move_line(data, index)
    caption = [first, *change_lines(step, data.points), *([taken] if taken else []), *players_lines(data),
               data.points.words]
    legend = ", ".join(MARK_WORDS[m] for m in step_highlights(step, record.size).used())
    return svg_document(data, geo, shapes, caption, title=first, marks=legend, attrs={"data-move": index})


def svg_document(data: Analysis, geo: Geometry, shapes: list[Shape], caption: list[str], *, title: str,
                 marks: str = "", attrs: Attrs | None = None) -> str:
    """The SVG document around `shapes`: a white page, the caption lines under the board (wrapped), the title
    (`title` after the game and size) and a description naming the marks in use and the notation."""
    record = data.record
    lines: list[str] = []
    shapes = list(shapes)
    if geo.caption:
        font = CELL * 0.38
        lines = _wrap(caption, int((geo.width - CELL * 0.5) / (font * 0.55)))
        for i, line in enumerate(lines):
            shapes.append(("text", {"class": "caption", "x": CELL * 0.25, "y": geo.width + CELL * 0.1 + i * font * 1.3,
                                    "font-family": "sans-serif", "font-size": font, "fill": "#222222"}, line))
    desc = "; ".join(x for x in (f"Marks: {marks}" if marks else "", data.points.words) if x)
    w, h = _num(geo.width), _num(geo.width + (CELL * 0.4 + len(lines) * CELL * 0.38 * 1.3 if lines else 0))
    extra = "".join(f' {k}="{xml_text(_num(v), quote=True)}"' for k, v in (attrs or {}).items())
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'role="img" data-game="{escape(record.game.value)}" data-size="{record.size}"{extra}>')
    full_title = f"{SPECS[record.game].title} {record.size}x{record.size}: {title}"
    parts = [head, f"<title>{xml_text(full_title, quote=False)}</title>"]
    if desc:
        parts.append(f"<desc>{xml_text(desc, quote=False)}</desc>")
    parts.append(f'<rect class="paper" x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>')
    parts.append(to_xml(shapes))
    parts.append("</svg>\n")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + "\n".join(parts)
