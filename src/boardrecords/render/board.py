"""The one board of the served pages: a position drawn as svg.py draws `records diagram` (Go and Conversion Go on
the intersections with their star points, Cation, Quentin and Squer with their owned edges), the coordinates in the
game's notation on all four sides, the last move marked, and a layer of points on top, each named in that notation
(`aria-label`): links to follow (the explorer), points to edit (the pattern editor, static/patterns.js), or names
only (the game page). The continuations of a position are lettered on it (Kombilo's A, B, C... by the number of
games), each with its count and a colour for how it went for its mover, linked to its row of the table beside it
(static/board.js lights a letter's point and its row together).

The SVG has a viewBox and no fixed size: the page's CSS makes it as wide as its column (a phone shows a whole 19x19
board).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from string import ascii_uppercase
from typing import Any

from ..records.games import SPECS, Game
from ..records.notation import PointNames
from ..records.points import Point
from .highlight import Highlights, Mark, Rows
from .safe_text import xml_text
from .svg import CELL, Geometry, Shape, frame_shapes, mark_shapes, stone_shapes, to_xml


@dataclass(frozen=True, slots=True)
class Continuation:
    """A move played next, as the board letters it: where, its letter, its games, the share of them its mover won
    (None: no game has a known result), the page it leads to and the words a screen reader says for it."""

    point: Point
    name: str  # the point in the board's notation
    letter: str
    games: int
    share: float | None
    href: str
    words: str


def letters(count: int) -> list[str]:
    """Kombilo's letters for `count` continuations: A..Z, then AA, AB..."""
    out = list(ascii_uppercase[:count])
    for i in range(26, count):
        out.append(ascii_uppercase[i // 26 - 1] + ascii_uppercase[i % 26])
    return out


def move_point(move: str, names: PointNames) -> Point | None:
    """The point a move shown as `B Q16`, `Q16` or `d3-f1` is played on (a relocation: where the stone goes);
    None for a pass, a swap, a sweep, a removal, the end of a line."""
    word = move.split(" ", 1)[-1]
    word = word.split("-", 1)[1] if "-" in word else word
    try:
        return names.parse(word) if word else None
    except ValueError:
        return None


Row = Mapping[str, Any]  # a row of a continuations table, as its JSON answer gives it


def lettered(rows: Sequence[Row], names: PointNames, *, share: Callable[[Row], float | None],
             href: Callable[[Row, str], str]) -> list[dict[str, Any]]:
    """The continuations of a table (JSON rows with `move` and `games`), each with its `letter` (A for the most
    games) and its `mark` on the board (None for a move that is no point, or a point a row with more games marks
    already), leading to `href(row, letter)`."""
    order = sorted(range(len(rows)), key=lambda i: -int(rows[i]["games"]))
    out = [dict(r) for r in rows]
    marked: set[Point] = set()
    for letter, i in zip(letters(len(rows)), order, strict=True):
        row = out[i]
        row["letter"] = letter
        point = move_point(str(row["move"]), names)
        row["mark"] = None
        if point is not None and point not in marked:
            marked.add(point)
            won = share(row)
            games = int(row["games"])
            words = (f"{letter}: {row['move']}, {games} game{'' if games == 1 else 's'}"
                     + (f", its mover won {100 * won:.0f}%" if won is not None else ""))
            row["mark"] = Continuation(point, names(point), letter, games, won, href(row, letter), words)
    return out


def share_colour(share: float | None) -> str:
    """How a continuation went for its mover: red (lost them all) through amber to green (won them all), grey when
    no result is known."""
    if share is None:
        return "#8c8c8c"
    return f"hsl({round(120 * max(0.0, min(1.0, share)))}, 70%, 38%)"


def point_rect(geo: Geometry, point: Point) -> dict[str, str | int | float]:
    x, y = geo.xy(point)
    return {"x": x - CELL / 2, "y": y - CELL / 2, "width": CELL, "height": CELL}


def _attrs(attrs: Mapping[str, str | int | float]) -> str:
    return "".join(f' {k}="{xml_text(str(v), quote=True)}"' for k, v in attrs.items())


def points_layer(geo: Geometry, names: PointNames, *, links: Mapping[Point, str] | None = None,
                 editor: bool = False) -> str:
    """One element per point, named in `names`: a link where `links` has one, a point of the pattern editor
    (`editor`: a Tab stop of its own, its state drawn by static/patterns.js), else a name only."""
    out = ['<g class="points">']
    n = geo.size
    for r in range(n):
        for c in range(n):
            point = (c, r)
            name = names(point)
            hit = f'<rect class="hit"{_attrs(point_rect(geo, point))} fill="transparent"/>'
            if editor:
                x, y = geo.xy(point)
                out.append(f'<g class="pattern-point" data-index="{r * n + c}" data-point="{escape(name)}" '
                           f'data-state="" role="button" tabindex="{0 if r == c == 0 else -1}" '
                           f'aria-label="{escape(name)}">{hit}<circle class="pick" cx="{x:g}" cy="{y:g}" '
                           f'r="{CELL * 0.44:g}" fill="transparent"/>'
                           f'<text class="pick-text" x="{x:g}" y="{y:g}"></text></g>')
            elif links is not None and point in links:
                out.append(f'<a href="{escape(links[point])}" class="point" data-point="{escape(name)}" '
                           f'aria-label="{escape(name)}">{hit}</a>')
            else:
                out.append(f'<g class="point" data-point="{escape(name)}" role="img" '
                           f'aria-label="{escape(name)}">{hit}</g>')
    out.append("</g>")
    return "".join(out)


def continuation_layer(geo: Geometry, continuations: Sequence[Continuation]) -> str:
    """Each continuation on its point: a disc in the colour of how it went, its letter and its number of games,
    a link to where it leads."""
    out = ['<g class="continuation-marks">']
    for c in continuations:
        x, y = geo.xy(c.point)
        out.append(
            f'<a href="{escape(c.href)}" class="continuation-mark" data-letter="{c.letter}" '
            f'data-point="{escape(c.name)}" '
            f'aria-label="{escape(c.words)}"><circle cx="{x:g}" cy="{y:g}" r="{CELL * 0.47:g}" '
            f'fill="{share_colour(c.share)}" stroke="#ffffff" stroke-width="1.5"/>'
            f'<text class="letter" x="{x:g}" y="{y - CELL * 0.08:g}" font-size="{CELL * 0.46:g}">{c.letter}</text>'
            f'<text class="games" x="{x:g}" y="{y + CELL * 0.3:g}" font-size="{CELL * 0.26:g}">{c.games}</text>'
            f'<title>{escape(c.words)}</title></a>')
    out.append("</g>")
    return "".join(out)


def last_shapes(geo: Geometry, rows: Rows, last: Point | None) -> list[Shape]:
    """The ring on the last move's stone, as the game page and `records diagram` draw it."""
    if last is None:
        return []
    _, over = mark_shapes(geo, Highlights({last: frozenset({Mark.LAST})}), rows, mover=None)
    return over


def svg_open(game: Game, size: int, geo: Geometry, element_id: str, *, role: str = "group") -> str:
    """The board's <svg> element: a viewBox and no fixed size (the CSS sizes it to its column)."""
    w = f"{geo.width:g}"
    label = f"{SPECS[game].title} board, {size}x{size}"
    return (f'<svg id="{escape(element_id)}" class="board-svg" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {w} {w}" width="100%" role="{role}" aria-label="{escape(label)}" '
            f'data-game="{escape(game.value)}" data-size="{size}">')


def board_svg(game: Game, size: int, names: PointNames, element_id: str, *, rows: Rows | None = None,
              last: Point | None = None, links: Mapping[Point, str] | None = None, editor: bool = False,
              continuations: Sequence[Continuation] = ()) -> str:
    """A whole board: frame, stones of `rows`, the `last` move's ring, the points layer, the continuations."""
    geo = Geometry.of(game, size, caption=False)
    shapes = frame_shapes(geo, names)
    if rows is not None:
        shapes += stone_shapes(geo, rows) + last_shapes(geo, rows, last)
    region = ('<rect id="region-box" class="region-box" x="0" y="0" width="0" height="0" fill="none"/>'
              if editor else "")
    return "\n".join([svg_open(game, size, geo, element_id), to_xml(shapes), region,
                      points_layer(geo, names, links=links, editor=editor),
                      continuation_layer(geo, continuations), "</svg>"])
