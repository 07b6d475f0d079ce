"""Numbered figures, as Go books print a game: the position before the figure's first move, and the stones of its
moves numbered where they were played (absolute move numbers, as in the books).

A stone played on a point the figure already shows a stone on (a point played again after a capture, ING-3) is not
drawn; a note under the figure says where it went: `120 at 97` (the point of the stone numbered 97), or `120 at K10`
when the point holds a stone from before the figure. A move that places no stone is noted too (`145 pass`). Moves
other than placements (Cation's relocations are drawn at their destination) are noted in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..records.games import MoveKind
from ..records.model import Colour
from ..records.points import Point
from ..verifier.judging.analysis import Analysis
from .game_lines import describe_move
from .highlight import move_point
from .svg import (
    Geometry,
    frame_shapes,
    number_shapes,
    players_lines,
    stone_shape,
    stone_shapes,
    svg_document,
)

FIGURE_MOVES = 100  # the classic book figure: 100 moves a diagram


@dataclass(slots=True)
class Figure:
    """Moves `first`..`last` as a book figure: the stones numbered on their points, and the notes under it."""

    first: int
    last: int
    numbers: dict[Point, int] = field(default_factory=dict)
    colours: dict[Point, Colour] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def playable_last(data: Analysis) -> int:
    """The last move a figure can show: the replay's last, or the one before a refused move."""
    return data.last - 1 if data.illegal_step is not None else data.last


def figure_of(data: Analysis, first: int, last: int) -> Figure:
    """The figure of moves `first`..`last` (1-based, within `playable_last`)."""
    before = data.rows_at(first - 1)
    figure = Figure(first, last)
    for step in data.steps[first - 1:last]:
        point = move_point(step.move)
        number = step.number
        if point is None:
            kind = step.move.kind
            figure.notes.append(f"{number} pass" if kind is MoveKind.PASS else
                                f"{number}: {describe_move(step.move, data.points)}")
            continue
        if point in figure.numbers:
            figure.notes.append(f"{number} at {figure.numbers[point]}")
        elif before[point[1]][point[0]] is not None:
            figure.notes.append(f"{number} at {data.points(point)}")
        else:
            figure.numbers[point] = number
            figure.colours[point] = step.move.colour
    return figure


def figure_svg(data: Analysis, first: int, last: int) -> str:
    """A standalone SVG document of the figure of moves `first`..`last`."""
    record = data.record
    figure = figure_of(data, first, last)
    geo = Geometry.of(record.game, record.size)
    stones = [stone_shape(geo, p, figure.colours[p]) for p in sorted(figure.numbers, key=figure.numbers.__getitem__)]
    shapes = (frame_shapes(geo, data.points) + stone_shapes(geo, data.rows_at(first - 1)) + stones
              + number_shapes(geo, figure.colours, figure.numbers))
    title = f"moves {first}-{last}"
    # No-break spaces keep each note whole when the caption is wrapped to the figure's width.
    notes = ", ".join(note.replace(" ", "\u00a0") for note in figure.notes)
    caption = [f"Moves {first}-{last} of {data.last}", *([notes] if notes else []),
               *players_lines(data), data.points.words]
    return svg_document(data, geo, shapes, caption, title=title,
                        attrs={"data-first": first, "data-last": last})


def figure_ranges(data: Analysis, size: int = FIGURE_MOVES) -> list[tuple[int, int]]:
    """Every figure of the game: moves 1-100, 101-200, ..., the last one ending at the last move."""
    end = playable_last(data)
    return [(a, min(a + size - 1, end)) for a in range(1, end + 1, size)]
