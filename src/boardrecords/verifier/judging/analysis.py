"""One analysis of a record: everything every view needs, from one replay.

`analyse` replays the record once and keeps, beside the verdict, the start position and every step with its board
and what it changed, and how the game stood after each step. `verify`, `replay`, `show`, `diagram`, `html` and the
importer all read this one object (or its verdict); the terminal, SVG, HTML and JSON views only render it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...records.model import Colour, Record
from ...records.notation import Notation, PointNames
from ..rules.engine import Outcome
from .replay import Step, Taken, Trace
from .verdict import Verdict, verify

Rows = list[list[Colour | None]]


@dataclass(slots=True)
class Analysis:
    """A record, its verdict, and its replay: position `i` is the board after move `i` (0: the start).

    When the last step is illegal, its position is the one before it (the replay stops there) and the views show
    the refused move and why. A record whose header keeps it from being replayed (FMT-6, the size rules) has no
    steps and no start position (`replayed` is False).
    """

    record: Record
    verdict: Verdict
    trace: Trace
    notation: Notation = Notation.CUSTOMARY
    points: PointNames = field(init=False)  # how every view names points (GEN-10)
    # The first legal swap (README: pie), found once: the views ask for it at every position.
    swap_step: Step | None = field(init=False)

    def __post_init__(self) -> None:
        self.points = PointNames(self.record.game, self.record.size, self.notation)
        self.swap_step = next((s for s in self.trace.steps if s.change.swapped and s.illegal is None), None)

    @property
    def replayed(self) -> bool:
        return self.verdict.replayed

    @property
    def start(self) -> Rows:
        return self.trace.start

    @property
    def start_to_move(self) -> Colour | None:
        return self.trace.start_to_move

    @property
    def steps(self) -> list[Step]:
        return self.trace.steps

    @property
    def last(self) -> int:
        return len(self.trace.steps)

    @property
    def moves(self) -> int:
        """The moves of the record's main line, which every `move N of M` counts to: the replay stops at an
        illegal move, the record does not (a refused setup node, ING-8, counts as the step it is)."""
        return max(self.verdict.moves_total, self.last)

    def step_at(self, index: int) -> Step | None:
        return self.trace.steps[index - 1] if index > 0 else None

    def rows_at(self, index: int) -> Rows:
        step = self.step_at(index)
        if step is None or step.board is None:
            return self.trace.start
        return step.board

    def end_at(self, index: int) -> Outcome | None:
        """How the game stood ended right after move `index`, or None while it goes on."""
        ends = self.trace.ends
        return ends[index - 1] if 0 < index <= len(ends) else None

    def taken_at(self, index: int) -> Taken:
        """The stones each colour has captured up to move `index` (counted once, by the replay's trace)."""
        taken = self.trace.taken
        return taken[index - 1] if 0 < index <= len(taken) else Taken()

    @property
    def illegal_step(self) -> Step | None:
        steps = self.trace.steps
        return steps[-1] if steps and steps[-1].illegal is not None else None


def analyse(record: Record, *, notation: Notation = Notation.CUSTOMARY, variations: bool = False,
            require_complete: bool = False) -> Analysis:
    """Replay `record` once: its verdict and every step the views show."""
    trace = Trace()
    verdict = verify(record, variations=variations, notation=notation, require_complete=require_complete,
                     watch=trace)
    return Analysis(record, verdict, trace, notation)
