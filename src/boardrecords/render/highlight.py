"""The highlight model every view of a board uses: what each point of a step is marked with (the last move,
captures, removals, conversions, flips, fillings, a relocation's origin, crosscuts, a swept line) and the words for
each mark.

The marks come from the replay's `Step` (its `change`); nothing here knows a game's rules. The terminal board
(cli/views/boards.py), the SVG diagrams (svg.py) and the HTML replay (html_replay.py) draw the same marks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..records.games import MoveKind
from ..records.model import Colour, Move
from ..records.points import Point
from ..verifier.judging.replay import Step

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
