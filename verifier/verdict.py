"""The verdict on one record: valid or not, every problem precisely, the winner, and the result check."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..records.model import Colour, Record, Result, Severity, SourcePos
from .engine import Score


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: a stable code, severity, where (move number, point, source position), the rule, a reason."""

    code: str
    message: str
    severity: Severity = Severity.ERROR
    move: int | None = None  # 1-based move number (passes and swaps count); None for header problems
    point: str | None = None  # SGF letters, e.g. "dc"
    rule: str | None = None  # e.g. "CAT-4", "README:turns", "FORMAT:resign"
    pos: SourcePos | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "move": self.move,
            "point": self.point,
            "rule": self.rule,
            "message": self.message,
            "line": self.pos.line if self.pos else None,
            "column": self.pos.column if self.pos else None,
        }


@dataclass(slots=True)
class Verdict:
    """Everything `records verify` says about one record."""

    game: str
    size: int | None
    valid: bool  # every move legal and the end-of-game marks consistent
    problems: list[Problem] = field(default_factory=list)
    moves_replayed: int = 0  # legal moves replayed on the checked line
    moves_total: int = 0  # moves on the main line
    end: str | None = None  # how the game ended, e.g. "chain (CAT-8)"; None when it did not end
    winner_colour: Colour | None = None
    winner_player: str | None = None
    swapped: bool = False
    black_player: str | None = None  # who holds Black at the end (after any swap)
    white_player: str | None = None
    declared: Result | None = None
    computed: str = "?"  # the result the replay shows, in record vocabulary
    score: Score | None = None
    agrees: bool | None = None  # None when no result is declared
    result_checked: bool = True  # False when a rule exempts the result (ING-9) or it cannot be checked
    result_note: str | None = None  # why the result could not be checked, or how it was judged

    @property
    def passes(self) -> bool:
        """PASSES verification: valid and the declared result agrees (or is undeclared)."""
        return self.valid and self.agrees is not False

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.ERROR]

    @property
    def first_error(self) -> Problem | None:
        errs = [p for p in self.errors if p.move is not None]
        return errs[0] if errs else (self.errors[0] if self.errors else None)


def verify(record: Record, *, variations: bool = False) -> Verdict:
    """Replay the record's main line (every line with `variations`) and judge it."""
    raise NotImplementedError
