"""The typed model of a record: nodes with source positions, moves, results, dates and the record itself.

A record keeps everything it was read from: the exact original bytes, every property as written (unknown ones
included) and where each came from. Problems found while reading are kept on the record as diagnostics rather
than thrown, so that one bad value never hides the rest of a file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum
from typing import Any, Protocol

from ..common.errors import Unreadable
from .games import SPECS, Colour, Game, GameSpec, MoveKind, game_named
from .points import Point, format_point, letter_index, parse_point


class SourcePos:
    """Where something stands in the source: 1-based line and column (in characters), 0-based byte offset.

    Positions made by the reader know only their byte offset at first (or only how to find it): the line and
    column are worked out on first use (a bisection over the file's line starts), so that reading a large file
    costs nothing for the positions nobody asks for.
    """

    __slots__ = ("_column", "_find", "_line", "_offset", "_src")

    def __init__(self, line: int, column: int, offset: int) -> None:
        self._line = line
        self._column = column
        self._offset: int | None = offset
        self._src: Locator | None = None
        self._find: Callable[[], int] | None = None

    @classmethod
    def lazy(cls, offset: int, src: Locator) -> SourcePos:
        """A position known by its byte offset; `src.line_col(offset)` gives line and column when asked."""
        pos = cls.__new__(cls)
        pos._line = 0
        pos._column = 0
        pos._offset = offset
        pos._src = src
        pos._find = None
        return pos

    @classmethod
    def deferred(cls, find: Callable[[], int], src: Locator) -> SourcePos:
        """A position whose byte offset `find()` works out when first asked (e.g. by scanning a node again)."""
        pos = cls.lazy(0, src)
        pos._offset = None
        pos._find = find
        return pos

    def _resolve(self) -> None:
        src = self._src
        if src is not None:
            self._line, self._column = src.line_col(self.offset)
            self._src = None

    @property
    def offset(self) -> int:
        off = self._offset
        if off is None:
            assert self._find is not None
            off = self._offset = self._find()
            self._find = None
        return off

    @property
    def line(self) -> int:
        if self._src is not None:
            self._resolve()
        return self._line

    @property
    def column(self) -> int:
        if self._src is not None:
            self._resolve()
        return self._column

    def settle(self) -> None:
        """Work out the line, column and offset now: the position then holds nothing of the file it was read from."""
        if self._offset is None or self._src is not None:
            self.offset  # noqa: B018  (the property works the offset out)
            self._resolve()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourcePos):
            return NotImplemented
        return (self.line, self.column, self.offset) == (other.line, other.column, other.offset)

    def __hash__(self) -> int:
        return hash((self.line, self.column, self.offset))

    def __repr__(self) -> str:
        return f"SourcePos(line={self.line}, column={self.column}, offset={self.offset})"

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


class Locator(Protocol):
    """What turns a byte offset into a line and column: the record's source (records/source.py)."""

    def line_col(self, offset: int) -> tuple[int, int]: ...


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Repair:
    """What a value read in a server's own way became (FMT-13, FMT-14): the property (`KM`, or the identifier as
    the file writes it, `CoPyright`), its value in the file, and the value read (None: no value, as an empty
    `KM[]` is no komi)."""

    property: str
    found: str
    read: str | None

    def to_json(self) -> dict[str, Any]:
        return {"property": self.property, "found": self.found, "read": self.read}


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem, wherever it is found: reading the file, replaying a move, judging the result.

    The same object travels from the parser to the verdict and the archive's rows, and has one JSON form. `move` is
    the 1-based move number (passes and swaps count; None for the header), `point` the point in SGF letters (stable
    for programs, whatever notation the message uses), `rule` the numbered rule that decides it (CAT-4, GEN-5,
    FMT-3...), `pos` where it stands in the file.
    """

    code: str
    message: str
    severity: Severity = Severity.WARNING
    rule: str | None = None
    move: int | None = None
    point: str | None = None
    pos: SourcePos | None = None
    repair: Repair | None = None  # a value read in a server's own way: what it was and what it became

    def at(self, pos: SourcePos | None) -> Problem:
        """The same problem, placed in the file."""
        return replace(self, pos=pos)

    def describe(self, source: str | None = None) -> str:
        where = f"{source or '<record>'}:{self.pos}" if self.pos else (source or "<record>")
        return f"{where}: {self.severity}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        """The problem as JSON data; a repair's (FMT-13, FMT-14) has `repair`: property, found, read."""
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity.value,
            "move": self.move,
            "point": self.point,
            "rule": self.rule,
            "message": self.message,
            "line": self.pos.line if self.pos else None,
            "column": self.pos.column if self.pos else None,
        }
        if self.repair is not None:
            out["repair"] = self.repair.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Problem:
        """The problem back from its JSON form (or an archive row's columns of the same names)."""
        line = data.get("line")
        repair = data.get("repair")
        return cls(data["code"], data["message"], Severity(data["severity"]), data.get("rule"), data.get("move"),
                   data.get("point"), SourcePos(line, data.get("column") or 0, -1) if line is not None else None,
                   Repair(repair["property"], repair["found"], repair["read"]) if repair else None)


class FormatError(Unreadable):
    """A record or file that cannot be read (the family's Unreadable: `records` exits 1, the web answers 400):
    says which file, line and column, and what was expected."""

    def __init__(self, message: str, pos: SourcePos | None = None, source: str | None = None,
                 code: str = "syntax", rule: str | None = "FMT-1") -> None:
        self.message = message
        self.pos = pos
        self.source = source
        self.code = code
        self.rule = rule  # the numbered rule it breaks: FMT-1 (the SGF grammar) unless another says otherwise
        super().__init__(self.describe())

    def describe(self) -> str:
        where = self.source or "<input>"
        if self.pos is not None:
            where += f":{self.pos.line}:{self.pos.column}"
        rule = f" ({self.rule})" if self.rule and self.rule not in self.message else ""
        return f"{where}: {self.message}{rule}"

    def problem(self) -> Problem:
        """The error as the problem of a file that could not be read."""
        return Problem(self.code, self.message, Severity.ERROR, self.rule, pos=self.pos)


class Property:
    """One property as written: identifier (normalised, e.g. `CP`), the raw identifier (`CoPyright`),
    its decoded values (escapes resolved, soft line breaks removed) and positions.

    A property that occurs twice in a node is one Property holding the values of both occurrences; `pos` is
    where the first occurrence starts, `value_pos` where each value's `[` stands. For a property read from a
    file both are found again in the source when first asked for.
    """

    __slots__ = ("_node", "_offsets", "_pos", "_value_pos", "ident", "raw_ident", "values")

    def __init__(self, ident: str, values: list[str], pos: SourcePos | None = None, raw_ident: str = "",
                 value_pos: list[SourcePos] | None = None) -> None:
        self.ident = ident
        self.values = values
        self.raw_ident = raw_ident or ident
        self._pos = pos
        self._value_pos = value_pos
        self._node: Node | None = None  # the node it was read in (None for a property made in code)
        self._offsets: tuple[int, list[int]] | None = None

    def _scan(self) -> tuple[int, list[int]]:
        offsets = self._offsets
        if offsets is None:
            node = self._node
            src = source_of(node) if node is not None else None
            node_pos = node.pos if node is not None else None
            found = src.scan_node(node_pos.offset).get(self.ident) if src is not None and node_pos else None
            # (Never None for a property read from a file: the scan reads the same bytes the parser read.)
            offsets = self._offsets = found if found is not None else (node_pos.offset if node_pos else 0, [])
        return offsets

    def _ident_offset(self) -> int:
        return self._scan()[0]

    @property
    def pos(self) -> SourcePos | None:
        """Where the identifier stands; None for a property made in code."""
        if self._pos is None and self._node is not None:
            src = source_of(self._node)
            if src is not None:
                self._pos = SourcePos.deferred(self._ident_offset, src)
        return self._pos

    @pos.setter
    def pos(self, value: SourcePos | None) -> None:
        self._pos = value

    @property
    def value_pos(self) -> list[SourcePos]:
        """Where each value's `[` stands (empty for a property made in code)."""
        if self._value_pos is None:
            src = source_of(self._node) if self._node is not None else None
            self._value_pos = [SourcePos.lazy(o, src) for o in self._scan()[1]] if src is not None else []
        return self._value_pos

    @property
    def value(self) -> str:
        return self.values[0] if self.values else ""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Property):
            return NotImplemented
        return self.ident == other.ident and self.values == other.values

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Property({self.ident!r}, {self.values!r})"


class Node:
    """A node of the game tree: its properties in source order, and its child nodes (the first is the main line).

    Nodes read from a file are kept small: their position is worked out when first asked for (from the record's
    source), and a node that holds nothing but a plain move builds its `properties` dict on first use.
    """

    __slots__ = ("_pos", "_props", "children", "move", "parent")

    def __init__(self, properties: dict[str, Property] | None = None, pos: SourcePos | None = None,
                 children: list[Node] | None = None, parent: Node | None = None, move: Move | None = None) -> None:
        # None for a node read on the fast path, until `properties` builds the dict.
        self._props: dict[str, Property] | None = properties if properties is not None else {}
        self._pos = pos
        self.children: list[Node] = children if children is not None else []
        self.parent = parent
        # The move this node holds, typed for the record's game; set when the record is built.
        self.move = move

    @property
    def properties(self) -> dict[str, Property]:
        props = self._props
        if props is None:
            # A node read on the fast path: its only property is its move, whose value is the move's raw text.
            props = {}
            move = self.move
            if move is not None:
                ident = move.colour.value
                prop = props[ident] = Property(ident, [move.raw])
                prop._node = self
            self._props = props
        return props

    @properties.setter
    def properties(self, value: dict[str, Property]) -> None:
        self._props = value

    @property
    def pos(self) -> SourcePos | None:
        """Where the node's `;` stands; None for a node made in code."""
        try:
            return self._pos
        except AttributeError:
            # A node read from a file: found through the record's source (see RecordSource.node_offset).
            src = source_of(self)
            pos = self._pos = SourcePos.deferred(lambda: src.node_offset(self), src) if src is not None else None
            return pos

    @pos.setter
    def pos(self, value: SourcePos | None) -> None:
        self._pos = value

    def get(self, ident: str) -> str | None:
        prop = self.properties.get(ident)
        return prop.value if prop is not None else None

    def get_all(self, ident: str) -> list[str]:
        prop = self.properties.get(ident)
        return list(prop.values) if prop is not None else []

    def has(self, ident: str) -> bool:
        return ident in self.properties

    @property
    def bare_move(self) -> bool:
        """True for a node read with nothing but its move: no setup, marks or comments to look for."""
        return self._props is None

    @property
    def extra_properties(self) -> dict[str, Property] | None:
        """The node's properties when it has more than its move; None for a bare move (nothing is built then)."""
        return self._props

    @property
    def comment(self) -> str | None:
        return self.get("C")

    def __repr__(self) -> str:
        idents = "".join(f"{p.ident}[{p.value[:12]}]" for p in self.properties.values())
        return f"<Node ;{idents} children={len(self.children)}>"


def _compiled_walks() -> Any:
    """The compiled walks of a tree (_runs.c: main_line, let_go), or None when it was not built."""
    try:
        from . import _runs
    except ImportError:
        return None
    return _runs


# The compiled walks of `Record.main_line` and `Record.let_go`; None: the plain loops (the reference, which the
# tests compare with them).
COMPILED_WALKS: Any = _compiled_walks()


def source_of(node: Node) -> _Scanner | None:
    """The source a node was read from (held by the root of its tree), or None for a tree made in code."""
    while node.parent is not None:
        node = node.parent
    return getattr(node, "_src", None)


class _Scanner(Locator, Protocol):
    def scan_node(self, offset: int) -> dict[str, tuple[int, list[int]]]: ...

    def node_offset(self, node: Node) -> int: ...

    def let_go(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Move:
    """One move of the main line (or a variation), typed for the record's game.

    `kind` is one of MoveKind; `point` the placed point (or the origin of a relocation / removal), `target` the
    destination of a relocation, `line` the row or column of a sweep. A value that does not fit the game is kept as
    kind INVALID with the reason and the rule that decides it, so the verifier reports it at its move number.

    Moves read from a file are shared between the nodes that hold the same value (they are immutable), so a
    well-formed move has no `pos`: its position is its node's (`Node.pos`). An INVALID move has the position of
    its value's `[`.
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

    @classmethod
    def parse(cls, text: str, game: Game | str, size: int, colour: Colour = Colour.BLACK) -> Move:
        """The move a player writes, in the game's notation or in SGF letters, for `colour` (Black unless told).

        Points as players name them (`Q16` in Go and Conversion Go, `d3` in Cation, Quentin and Squer, either case)
        or in SGF letters (`pd`); `pass`, `swap`, `resign`; Cation's relocations `d3-f1` and removals `d3-`; Squer's
        sweeps `sweep-3` (Black sweeps a row, White a column, each named as in a point). `game` is a Game or a name
        of one (`go`, `cation`...). The move is the one reading its value from a file gives (`Move.parse("Q16",
        "go", 19).sgf_value()` is `pd`); whether it is legal, in its game and position, is for `verify` to say.

        Raises NotationError (a ValueError) for text that names no move of the board.
        """
        from .notation import parse_move_text

        spec = SPECS[game_named(game)]
        colour = Colour(colour)
        return parse_move(spec, size, colour, parse_move_text(text, spec.game, size, colour))


_PASS_TT = (Game.GO, Game.CONVERSION_GO)


def parse_move(spec: GameSpec, size: int, colour: Colour, value: str) -> Move:
    """The move a `B`/`W` value stands for in `spec`'s game on a `size` board (0: size unknown, no board check).

    Every kind is recognised in every game (`swap-sides` is a SWAP even in Go): the engines refuse the kinds
    their game lacks, citing their own rule. A value that fits no kind, or names a point off the board, is an
    INVALID move carrying the reason and the rule (the notation rule, or the size rule for a point off the board).
    """
    if value == "":
        return Move(colour, MoveKind.PASS, raw=value)
    n = len(value)
    if n == 2:
        point = parse_point(value)
        if point is not None:
            if value == "tt" and spec.game in _PASS_TT and size <= 19:
                # FF[3] habit kept by FF[4]: `tt` is a pass on boards up to 19x19 (ING-10, CON-8).
                return Move(colour, MoveKind.PASS, raw=value)
            off = _off_board(spec, size, colour, value, point)
            return off or Move(colour, MoveKind.PLACE, point, raw=value)
    elif value in ("swap-sides", "swap"):
        return Move(colour, MoveKind.SWAP, raw=value)
    elif value == "resign":
        return Move(colour, MoveKind.RESIGN, raw=value)
    elif n == 7 and value.startswith("sweep-"):
        line = letter_index(value[6])
        if line is not None:
            if size and line >= size:
                return _invalid(colour, value, f"{value}: line {value[6]} is off the {size}x{size} board "
                                f"({spec.size_rule})", spec.size_rule, None)
            return Move(colour, MoveKind.SWEEP, line=line, raw=value)
    elif n == 3 and value[2] == "-":
        point = parse_point(value[:2])
        if point is not None:
            off = _off_board(spec, size, colour, value, point)
            return off or Move(colour, MoveKind.REMOVE, point, raw=value)
    elif n == 5 and value[2] == "-":
        point, target = parse_point(value[:2]), parse_point(value[3:])
        if point is not None and target is not None:
            off = _off_board(spec, size, colour, value, point) or _off_board(spec, size, colour, value, target)
            return off or Move(colour, MoveKind.RELOCATE, point, target, raw=value)
    return _invalid(colour, value, f"{colour.value}[{value}] is not a move value ({spec.notation_rule})",
                    spec.notation_rule, None)


def _off_board(spec: GameSpec, size: int, colour: Colour, value: str, point: tuple[int, int]) -> Move | None:
    if size and (point[0] >= size or point[1] >= size):
        return _invalid(colour, value, f"point {format_point(point)} is off the {size}x{size} board "
                        f"({spec.size_rule})", spec.size_rule, point)
    return None


def _invalid(colour: Colour, value: str, problem: str, rule: str, point: tuple[int, int] | None) -> Move:
    return Move(colour, MoveKind.INVALID, point, raw=value, problem=problem, rule=rule)


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
    """A declared result: the raw text kept, parsed into winner / method / margin.

    A result outside the vocabulary (OTHER) has a winner when its text names one colour by a method the vocabulary
    lacks (`B+J`, `W+AW`): GEN-8 credits that colour."""

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


def _line_facts(node: Node) -> tuple[int, bool]:
    """The moves of the line that starts at `node` (its first children to the end), and whether it has a comment."""
    moves, comment = 0, False
    at: Node | None = node
    while at is not None:
        moves += at.move is not None
        comment = comment or bool(at.comment)
        at = at.children[0] if at.children else None
    return moves, comment


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
    time: str | None = None  # the time of day a server wrote after the date (`12:35:24`, FMT-14), as written

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


VARIATIONS_MAX = 1000  # the variations a tree lists (a file may hold any number; a page shows this many)
Path = tuple[tuple[int, int], ...]  # a line of a record's tree: (depth of a branching node, child taken) each


@dataclass(slots=True)
class Variation:
    """A line of a record's tree that leaves another line at one of its nodes (the main line or a variation).

    `path` names it (Record.follow): for each branching on the way from the root, the depth of the node it leaves
    (the root is 0, counted along the line followed so far) and which of that node's children it takes (1 for the
    first that is not the main continuation). `before` is the number of moves on the way before its first node,
    `first` that node's move (None for a node without one), `moves` how many moves it plays to its end, and
    `variations` the lines that leave it in turn."""

    path: Path
    before: int
    first: Move | None
    moves: int
    comment: bool  # whether one of its nodes has a comment
    variations: list[Variation] = field(default_factory=list)

    def walk(self) -> list[Variation]:
        """This variation and all that leave it, depth first."""
        out: list[Variation] = []
        stack = [self]
        while stack:
            v = stack.pop()
            out.append(v)
            stack.extend(reversed(v.variations))
        return out


def variation_path(text: str) -> Path:
    """A path as a page's address writes it (`12.1` or `12.1,15.2`: depth.child for each branching), read; raises
    ValueError for text that names none."""
    out: list[tuple[int, int]] = []
    for part in text.split(","):
        depth, dot, child = part.strip().partition(".")
        if not dot or not depth.isdigit() or not child.isdigit() or len(depth) > 7 or len(child) > 7:
            raise ValueError(f"{part.strip()!r} is no branching (depth.child, e.g. 12.1)")
        out.append((int(depth), int(child)))
    return tuple(out)


def path_text(path: Path) -> str:
    """A path as a page's address writes it: `12.1,15.2`."""
    return ",".join(f"{d}.{k}" for d, k in path)


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
    start: tuple[int, int] = (1, 1)  # the line and column where `raw` starts in its file (its problems' frame)
    file_format: str = "sgf"  # the format of its file (FMT-13): `sgf` (also `.rec`), `gib`, `ngf` or `ugf`
    diagnostics: list[Problem] = field(default_factory=list)
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
    # FMT-6: the GM value when it names none of the five games (the record is then never verified or stored).
    unknown_game: str | None = None
    # Go's starting position from AB/AW/AE/PL (ING-8), collected once by the reader; None when not collected yet.
    setup: Setup | None = None

    def let_go(self) -> None:
        """Break the links that make the tree cyclic (each node's parent, each property's node, the source's root),
        so that the tree is freed by reference counting as soon as the record goes, not by the cyclic collector:
        rescanning trees already judged was a seventh of verifying a collection. For a record that is done with:
        its nodes no longer know their parents, nor where they stand in the file."""
        src = source_of(self.root)
        if src is not None:
            src.let_go()
        if COMPILED_WALKS is not None:
            COMPILED_WALKS.let_go(self.root)
            return
        todo = [self.root]
        while todo:
            node = todo.pop()
            node.parent = None
            node._pos = None  # a position still to be found holds the node
            move = node.move
            if move is not None and move.pos is not None:  # a move that does not fit: its position finds the node
                node.move = None
            props = node._props
            if props:
                for prop in props.values():
                    prop._node = None
                    prop._pos = None  # a position still to be found holds the node
            todo.extend(node.children)

    def main_line(self) -> list[Node]:
        """The nodes of the main line after the root (the first child at every branch)."""
        if COMPILED_WALKS is not None:
            line: list[Node] = COMPILED_WALKS.main_line(self.root)
            return line
        nodes: list[Node] = []
        node = self.root
        while node.children:
            node = node.children[0]
            nodes.append(node)
        return nodes

    def moves(self) -> list[Move]:
        return [n.move for n in self.main_line() if n.move is not None]

    def variations(self, limit: int = VARIATIONS_MAX) -> list[Variation]:
        """The tree of the record's variations: the lines that leave the main line, each with those that leave it
        in turn (at most `limit` in all, in the order of the file; no recursion, so any depth of nesting reads)."""
        top: list[Variation] = []
        count = 0
        # Each entry: a line's first node, its depth, the moves before it, its path, and where its variations go.
        todo: list[tuple[Node, int, int, Path, list[Variation]]] = [(self.root, 0, 0, (), top)]
        while todo and count < limit:
            node, depth, moves, path, into = todo.pop(0)
            while node.children:
                for k, child in enumerate(node.children[1:], 1):
                    if count >= limit:
                        break
                    v = Variation((*path, (depth, k)), moves, child.move, *_line_facts(child))
                    into.append(v)
                    count += 1
                    todo.append((child, depth + 1, moves + (child.move is not None), v.path, v.variations))
                node = node.children[0]
                depth += 1
                moves += node.move is not None
        return top

    def follow(self, path: Path) -> None:
        """Make the line `path` names the record's main line (each branching's child taken moved first, in place),
        so that everything that reads the main line (the replay, the verdict) reads that line. Raises ValueError
        for a path that names no line of this record."""
        for depth, child in path:
            node = self.root
            for _ in range(depth):
                if not node.children:
                    raise ValueError(f"the line has no node at depth {depth}")
                node = node.children[0]
            if not 0 < child < len(node.children):
                raise ValueError(f"the node at depth {depth} has no variation {child}")
            node.children.insert(0, node.children.pop(child))

    def lines(self) -> list[list[Node]]:
        """Every line of play from the root to a leaf (the main line first), for checking variations."""
        out: list[list[Node]] = []
        path: list[Node] = []
        # Iterative depth-first walk with one shared path; a None on the stack means "leave the last node".
        stack: list[Node | None] = [child for child in reversed(self.root.children)]
        if not stack:
            return [[]]
        while stack:
            node = stack.pop()
            if node is None:
                path.pop()
                continue
            path.append(node)
            if not node.children:
                out.append(list(path))
                path.pop()
                continue
            stack.append(None)
            stack.extend(reversed(node.children))
        return out

    @property
    def errors(self) -> list[Problem]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def player(self, colour: Colour) -> str | None:
        """The player holding `colour` at the start of the game (before any swap)."""
        return self.black if colour is Colour.BLACK else self.white
