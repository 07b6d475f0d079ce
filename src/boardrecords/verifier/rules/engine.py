"""The small interface every game's rules engine implements, and the values it returns.

An engine holds one game's position and plays moves on it. `play` either applies a legal move and says what it
changed, or raises IllegalMove and leaves the position as it was. Engines know nothing about files, players'
names or declared results: the replay driver (`replay.py`) and the verdict (`verdict.py`) do that.

Points are (column, row) tuples at this interface; an engine may store its board as it likes inside.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ...records.games import Game
from ...records.model import Colour, Move, Node, ResultMethod, Setup, format_margin
from ...records.notation import Notation, PointNames
from ...records.points import Point

# Cell codes for engines that keep a flat board (index = row * size + column).
EMPTY, BLACK, WHITE = 0, 1, 2
CODE = {Colour.BLACK: BLACK, Colour.WHITE: WHITE}
COLOUR = {BLACK: Colour.BLACK, WHITE: Colour.WHITE}


@dataclass(frozen=True, slots=True)
class Marks:
    """End-of-game territory marks on a node (`TB`, `TW`): agreed removals (ING-7) or conversions (CON-7)."""

    black: frozenset[Point] = frozenset()
    white: frozenset[Point] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.black or self.white)


@dataclass(slots=True)
class Change:
    """What one move did to the board, beyond the stone it placed. Empty tuples for what did not happen."""

    placed: tuple[Point, ...] = ()
    captured: tuple[Point, ...] = ()  # Go: strings removed (opponent's or, by suicide, the mover's)
    converted: tuple[Point, ...] = ()  # Conversion Go: stones that changed colour (also by CON-7 marks)
    flipped: tuple[Point, ...] = ()  # Squer: stones flipped by a maneuver or a sweep
    filled: tuple[Point, ...] = ()  # Quentin: territory points filled
    relocated: tuple[tuple[Point, Point], ...] = ()  # Cation: (from, to)
    removed: tuple[Point, ...] = ()  # Cation removal (CAT-7); Go stones removed by agreement (ING-7)
    swept: tuple[str, int] | None = None  # Squer: ("row" | "column", index)
    crosscuts: tuple[tuple[Point, ...], ...] = ()  # Cation: crosscuts on the board after the move
    swapped: bool = False  # a pie swap


class IllegalMove(Exception):
    """A move the rules do not allow: a stable code, the rule that decides it, and a one-line reason. Outside the
    exception family on purpose: an illegal move is a finding of the replay (a problem of the verdict), not a
    failure; where a move typed in must be legal, the caller raises PositionError for it."""

    def __init__(self, code: str, rule: str, message: str, point: Point | None = None) -> None:
        self.code = code
        self.rule = rule
        # The rule travels in its own field; a message that repeats it at the end is trimmed so it shows once.
        self.message = message.removesuffix(f" ({rule})")
        self.point = point
        super().__init__(f"{self.message} ({rule})")


@dataclass(frozen=True, slots=True)
class Score:
    black: float
    white: float
    komi: float

    @property
    def margin(self) -> float:
        """Black's score minus White's score minus komi."""
        return self.black - self.white - self.komi


@dataclass(frozen=True, slots=True)
class Side:
    """One colour's pieces of a Go count on the final board, after any agreed removals (ING-7): the pieces an area
    count (ING-6) adds up and the prisoners a territory count adds instead of the stones."""

    stones: int  # the colour's stones on the board
    territory: int  # empty points of the regions that touch this colour only (ING-6)
    prisoners: int  # opposing stones this colour took off: captured in play (ING-3) or removed by agreement (ING-7)
    # Empty points the agreement's marks give this colour (ING-7); None without an agreement, or when its marks
    # name no point but the stones they remove.
    marked: int | None = None


@dataclass(frozen=True, slots=True)
class Pieces:
    """The pieces of a Go count (see Side), Black's and White's."""

    black: Side
    white: Side

    def side(self, colour: Colour) -> Side:
        return self.black if colour is Colour.BLACK else self.white


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the replay ended: finished or not, the winner and how, and the rule that decided it."""

    finished: bool
    method: ResultMethod = ResultMethod.UNKNOWN
    winner: Colour | None = None
    margin: float | None = None
    score: Score | None = None
    reason: str = ""  # e.g. "chain (CAT-8)", "two passes and agreement (ING-5)"

    @classmethod
    def scored(cls, score: Score, reason: str) -> Outcome:
        """The end of a game decided by `score`: Black wins when the margin is positive, White when it is negative;
        zero is a tie (ING-6, CON-7)."""
        margin = score.margin
        if margin > 0:
            return cls(True, ResultMethod.SCORE, Colour.BLACK, margin, score, reason)
        if margin < 0:
            return cls(True, ResultMethod.SCORE, Colour.WHITE, -margin, score, reason)
        return cls(True, ResultMethod.DRAW, None, 0.0, score, reason)

    def text(self) -> str:
        """The result in the record vocabulary: `B+`, `W+3.5`, `0`, `Void`, or `?` for an unfinished game."""
        m = self.method
        if not self.finished or m is ResultMethod.UNKNOWN:
            return "?"
        if m is ResultMethod.DRAW:
            return "0"
        if m is ResultMethod.VOID:
            return "Void"
        assert self.winner is not None
        if m is ResultMethod.CHAIN:
            return f"{self.winner.value}+"
        if m is ResultMethod.SCORE:
            assert self.margin is not None
            return f"{self.winner.value}+{format_margin(self.margin)}"
        return f"{self.winner.value}+?"


UNFINISHED = Outcome(False)


@dataclass(slots=True)
class EngineWarning:
    code: str
    rule: str
    message: str


class Engine(ABC):
    """One game's rules. Subclasses set `game` and implement the abstract methods.

    Players: player 0 is the one who starts with Black (`PB`), player 1 the other. `swapped` tells whether a pie
    swap has exchanged them, so player 0 holds White after a swap.
    """

    game: ClassVar[Game]

    def __init__(self, size: int, *, komi: float = 0.0, setup: Setup | None = None,
                 notation: Notation = Notation.CUSTOMARY) -> None:
        self.size = size
        # How messages name points (GEN-10): the game's customary notation unless SGF letters are asked for.
        self.names = PointNames(type(self).game, size, notation)
        self.komi = komi
        self.turn = 0  # turns played (passes and swaps count)
        self.swapped = False
        self.end: Outcome | None = None  # set once the game has ended
        # True while `end` is provisional: a record may stop there, but a further move goes on (ING-5's first stop).
        self.stopped = False
        self.warnings: list[EngineWarning] = []

    # -- state ---------------------------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> Colour | None:
        """The colour of the next move, or None while either colour may move (Conversion Go's opening)."""

    @property
    def player_to_move(self) -> int:
        """0 for the player who started with Black, 1 for the other (turns alternate between players)."""
        return self.turn % 2

    def colour_of_player(self, player: int) -> Colour:
        holds_black = (player == 0) != self.swapped
        return Colour.BLACK if holds_black else Colour.WHITE

    @abstractmethod
    def stone(self, point: Point) -> Colour | None:
        """The stone on a point, or None."""

    def rows(self) -> list[list[Colour | None]]:
        """The whole board, row by row (row 0 at the top)."""
        return [[self.stone((c, r)) for c in range(self.size)] for r in range(self.size)]

    # -- play ----------------------------------------------------------------------------------------------
    @abstractmethod
    def play(self, move: Move, marks: Marks | None = None) -> Change:
        """Apply a legal move and say what it changed; raise IllegalMove and change nothing otherwise.

        `marks` are the TB/TW marks of the move's node (Go and Conversion Go score with them).
        A `resign` move is handled by the replay driver and never reaches an engine.
        """

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move (never `resign`); empty once the game has ended."""

    @property
    def compiled_runs(self) -> bool:
        """Whether `play_run` plays anything: an engine with a compiled path for plain plays (all five games)."""
        return False

    def play_run(self, nodes: Sequence[Node], start: int) -> tuple[int, int, int]:
        """Play the plain moves of `nodes` from `start` at once, as `play` would one by one, and stop before any
        other: (the first node not played, the moves played, the last node played or -1). Here: none."""
        return start, 0, -1

    @property
    def logs_runs(self) -> bool:
        """Whether `play_logged` plays anything: an engine whose compiled runs also say what each play changed
        (Go's), for the watchers that follow a replay (the import's position keys, change list and signature)."""
        return False

    def play_logged(self, nodes: Sequence[Node], start: int) -> tuple[int, int, int, bytes, bytes]:
        """`play_run`, and what the run did: the point index of every play and what each took off, as int32 in
        native order (per play a count, then that many point indices; a negative count is the mover's own stones
        removed by a suicide, the played point left out). Here: none."""
        return start, 0, -1, b"", b""

    def outcome(self) -> Outcome:
        """The result the position shows: the end if the game has ended, else UNFINISHED."""
        return self.end if self.end is not None else UNFINISHED

    def standing(self) -> Outcome | None:
        """The score of the board as it stands, in games decided by score; None in the connection games."""
        return None

    def pieces(self) -> Pieces | None:
        """The pieces of the count on the board as it stands (Go); None in the other games."""
        return None


def touched(move: Move, change: Change) -> list[Point]:
    """Every point a move changed: where it played or moved to, and each stone it placed, captured, converted,
    flipped, filled, removed or relocated (the position and pattern watchers follow these)."""
    points: list[Point] = []
    if move.point is not None:
        points.append(move.point)
    if move.target is not None:
        points.append(move.target)
    points.extend(change.placed)
    points.extend(change.captured)
    points.extend(change.converted)
    points.extend(change.flipped)
    points.extend(change.filled)
    points.extend(change.removed)
    for a, b in change.relocated:
        points.append(a)
        points.append(b)
    return points
