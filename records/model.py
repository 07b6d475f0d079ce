"""The typed model of a record: nodes with source positions, moves, results, dates and the record itself.

A record keeps everything it was read from: the exact original bytes, every property as written (unknown ones
included) and where each came from. Problems found while reading are kept on the record as diagnostics rather
than thrown, so that one bad value never hides the rest of a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from .games import Game, MoveKind
from .points import Point, format_point


class Colour(StrEnum):
    BLACK = "B"
    WHITE = "W"

    @property
    def other(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK

    @property
    def word(self) -> str:
        return "Black" if self is Colour.BLACK else "White"


@dataclass(frozen=True, slots=True)
class SourcePos:
    """Where something stands in the source: 1-based line and column (in characters), 0-based byte offset."""

    line: int
    column: int
    offset: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem found while reading: a stable code, what is wrong, and where."""

    code: str
    message: str
    pos: SourcePos | None = None
    severity: Severity = Severity.WARNING
    rule: str | None = None

    def describe(self, source: str | None = None) -> str:
        where = f"{source or '<record>'}:{self.pos}" if self.pos else (source or "<record>")
        return f"{where}: {self.severity}: {self.message}"


class FormatError(Exception):
    """A record or file that cannot be read: says which file, line and column, and what was expected."""

    def __init__(self, message: str, pos: SourcePos | None = None, source: str | None = None,
                 code: str = "syntax") -> None:
        self.message = message
        self.pos = pos
        self.source = source
        self.code = code
        super().__init__(self.describe())

    def describe(self) -> str:
        where = self.source or "<input>"
        if self.pos is not None:
            where += f":{self.pos.line}:{self.pos.column}"
        return f"{where}: {self.message}"


@dataclass(slots=True)
class Property:
    """One property as written: identifier (normalised, e.g. `CP`), the raw identifier (`CoPyright`),
    its decoded values (escapes resolved, soft line breaks removed) and positions."""

    ident: str
    values: list[str]
    pos: SourcePos
    raw_ident: str = ""
    value_pos: list[SourcePos] = field(default_factory=list)

    @property
    def value(self) -> str:
        return self.values[0] if self.values else ""


@dataclass(slots=True, eq=False)
class Node:
    """A node of the game tree: its properties in source order, and its child nodes (the first is the main line)."""

    properties: dict[str, Property]
    pos: SourcePos
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None
    # The move this node holds, typed for the record's game; set when the record is built.
    move: Move | None = None

    def get(self, ident: str) -> str | None:
        prop = self.properties.get(ident)
        return prop.value if prop is not None else None

    def get_all(self, ident: str) -> list[str]:
        prop = self.properties.get(ident)
        return list(prop.values) if prop is not None else []

    def has(self, ident: str) -> bool:
        return ident in self.properties

    @property
    def comment(self) -> str | None:
        return self.get("C")


@dataclass(frozen=True, slots=True)
class Move:
    """One move of the main line (or a variation), typed for the record's game.

    `kind` is one of MoveKind; `point` the placed point (or the origin of a relocation / removal), `target` the
    destination of a relocation, `line` the row or column of a sweep. A value that does not fit the game is kept as
    kind INVALID with the reason and the rule that decides it, so the verifier reports it at its move number.
    """

    colour: Colour
    kind: MoveKind
    point: Point | None = None
    target: Point | None = None
    line: int | None = None
    raw: str = ""
    problem: str | None = None
    rule: str | None = None
    pos: SourcePos | None = None

    def sgf_value(self) -> str:
        """The canonical value of this move in the record format."""
        k = self.kind
        if k is MoveKind.PLACE:
            assert self.point is not None
            return format_point(self.point)
        if k is MoveKind.PASS:
            return ""
        if k is MoveKind.SWAP:
            return "swap-sides"
        if k is MoveKind.RELOCATE:
            assert self.point is not None and self.target is not None
            return f"{format_point(self.point)}-{format_point(self.target)}"
        if k is MoveKind.REMOVE:
            assert self.point is not None
            return f"{format_point(self.point)}-"
        if k is MoveKind.SWEEP:
            assert self.line is not None
            return "sweep-" + format_point((self.line, 0))[0]
        if k is MoveKind.RESIGN:
            return "resign"
        return self.raw

    def __str__(self) -> str:
        value = self.sgf_value()
        return f"{self.colour.value}[{value}]"


class ResultMethod(StrEnum):
    CHAIN = "chain"  # B+ / W+ : won by the rules
    SCORE = "score"  # B+3.5
    DRAW = "draw"  # 0 / Draw
    RESIGN = "resign"
    TIME = "time"
    FORFEIT = "forfeit"
    VOID = "void"
    UNKNOWN = "unknown"  # ? / empty / absent
    OTHER = "other"  # text that is not in the vocabulary


@dataclass(frozen=True, slots=True)
class Result:
    """A declared result: the raw text kept, parsed into winner / method / margin."""

    raw: str
    method: ResultMethod
    winner: Colour | None = None
    margin: float | None = None

    @property
    def declared(self) -> bool:
        """False for no result, an empty one or `?`: nothing to agree or disagree with."""
        return self.method is not ResultMethod.UNKNOWN

    def canonical(self) -> str:
        m = self.method
        if m is ResultMethod.UNKNOWN:
            return "?"
        if m is ResultMethod.VOID:
            return "Void"
        if m is ResultMethod.DRAW:
            return "0"
        if m is ResultMethod.OTHER or self.winner is None:
            return self.raw
        w = self.winner.value
        if m is ResultMethod.CHAIN:
            return f"{w}+"
        if m is ResultMethod.SCORE:
            assert self.margin is not None
            return f"{w}+{format_margin(self.margin)}"
        return f"{w}+" + {ResultMethod.RESIGN: "R", ResultMethod.TIME: "T", ResultMethod.FORFEIT: "F"}[m]


def format_margin(margin: float) -> str:
    margin = abs(margin)
    return str(int(margin)) if margin == int(margin) else f"{margin:g}"


@dataclass(frozen=True, slots=True)
class RecordDate:
    """`DT`: the raw text, and the range of days it covers when it is ISO (SGF's partial and multiple dates)."""

    raw: str
    first: date | None = None
    last: date | None = None
    dates: tuple[str, ...] = ()  # each date as normalised ISO text (`2024`, `2024-05`, `2024-05-03`)

    @property
    def iso(self) -> bool:
        return self.first is not None


@dataclass(slots=True)
class Setup:
    """The starting position: stones set up (Go handicap, positions) and who moves first when `PL` says so."""

    black: set[Point] = field(default_factory=set)
    white: set[Point] = field(default_factory=set)
    to_move: Colour | None = None

    @property
    def empty(self) -> bool:
        return not self.black and not self.white


@dataclass(slots=True, eq=False)
class Record:
    """One game record: the root of its tree, the typed header, the main line, and everything read about it."""

    root: Node
    game: Game
    size: int
    raw: bytes  # the exact bytes of this game tree in its file
    encoding: str
    source: str | None = None  # file name, for messages
    index: int = 0  # position of the game tree in its file (0-based)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Typed header (raw values stay in root.properties)
    black: str | None = None
    white: str | None = None
    black_rank: str | None = None
    white_rank: str | None = None
    event: str | None = None
    round: str | None = None
    date: RecordDate | None = None
    place: str | None = None
    name: str | None = None
    komi: float | None = None
    handicap: int | None = None
    rules: str | None = None
    result: Result = field(default_factory=lambda: Result("", ResultMethod.UNKNOWN))

    def main_line(self) -> list[Node]:
        """The nodes of the main line after the root (the first child at every branch)."""
        nodes: list[Node] = []
        node = self.root
        while node.children:
            node = node.children[0]
            nodes.append(node)
        return nodes

    def moves(self) -> list[Move]:
        return [n.move for n in self.main_line() if n.move is not None]

    def lines(self) -> list[list[Node]]:
        """Every line of play from the root to a leaf (the main line first), for checking variations."""
        out: list[list[Node]] = []
        stack: list[tuple[Node, list[Node]]] = [(self.root, [])]
        while stack:
            node, path = stack.pop()
            if not node.children:
                out.append(path)
                continue
            for child in reversed(node.children):
                stack.append((child, [*path, child]))
        return out

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def player(self, colour: Colour) -> str | None:
        """The player holding `colour` at the start of the game (before any swap)."""
        return self.black if colour is Colour.BLACK else self.white
