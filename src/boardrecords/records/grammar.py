"""The SGF FF[4] syntax: game trees, nodes, properties and values, read from bytes.

Everything the syntax uses is ASCII, so the tokenizer works on the raw bytes with one compiled regex and one pass
(`TOKEN.finditer`), whatever the charset; values are decoded afterwards by the record's `Decoder`. The parser is
iterative (an explicit stack of open variations), so nesting depth is limited by memory only.

What this module knows is syntax: where game trees, nodes and properties are, escapes and soft line breaks, and
which oddities of real files it reads with a warning. The meaning of values (moves, sizes, results...) is in
`properties.py`; turning trees into Records is in `reader.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .charset import Decoder
from .model import FormatError, Move, Node, Property, Repair, Severity, source_of

# One token per match. Groups (the dispatch is on `lastindex`, the last group that matched):
#   1 a run of nodes that each hold nothing but a plain move value (`;B[dd];W[pp]`: the fast path); the last
#     one may go on with other properties (`;B[dd]C[..]`), which come as the next tokens. (The loop is greedy,
#     not possessive: the tail takes the last node after the loop gives back one turn. A possessive loop would
#     fail at the end of every run and make reading quadratic.) A run is at most 4,096 nodes: a longer one comes
#     as several runs, so that its tokens, split out all at once, stay a few hundred kilobytes (a 3 MiB record
#     of moves alone once took 60 MB more to read than its tree holds).
#   2 `;` any other node
#   3 a property identifier, 4 its first value, 5 its further values (with the whitespace between them)
#   6 `(`   7 `)`   8 any other byte (an error, or the start of a value that never ends)
_BODY = rb"(?:[^\\\]]++|\\.)*+"
TOKEN = re.compile(
    rb"((?:;\s*+[BW]\[[A-Za-z\-]*+\]\s*+(?![\[A-Za-z])){0,4095};\s*+[BW]\[[A-Za-z\-]*+\]\s*+(?!\[))"
    rb"|(;)\s*+"
    rb"|([A-Za-z]++)\s*+\[(" + _BODY + rb")\]\s*+((?:\[" + _BODY + rb"\]\s*+)*+)"
    rb"|(\()\s*+"
    rb"|(\))\s*+"
    rb"|(.)",
    re.S,
)
_PLAIN_MOVE = re.compile(rb"[BW]\[[A-Za-z\-]*+\]")  # the tokens of a run (group 1)
VALUES = re.compile(rb"\[(" + _BODY + rb")\]", re.S)
# Every value (group 1) or `;` (no group): the `;` outside values start the nodes, in source order.
NODE_MARKS = re.compile(rb"(\[" + _BODY + rb"\])|;", re.S)
_IDENT_AT = re.compile(rb"([A-Za-z]++)\s*+")
_VALUE_AT = re.compile(rb"\[" + _BODY + rb"\]\s*+", re.S)
_WS_AT = re.compile(rb"\s*+")
# A backslash escapes the next byte; a backslash before a line break (any style) removes both (soft break).
_ESCAPE = re.compile(rb"\\(?:\r\n|\n\r|\r|\n|(.))", re.S)
_LOWER = bytes(range(ord("a"), ord("z") + 1))
# FMT-14: servers that write a line break in a text value as the four characters `\r\n` (needless escapes of `r`
# and `n`, which SGF reads as the letters "rn"). The first alternative is tried at each backslash before the plain
# escape, so an escaped backslash (`\\r`) is never taken for one.
_WRITTEN_BREAK = b"\\r\\n"
_ESCAPE_OR_BREAK = re.compile(rb"(\\r\\n)|\\(?:\r\n|\n\r|\r|\n|(.))", re.S)
_MOVES = frozenset({"B", "W"})

# SGF properties whose value is a list; every other known property takes one value.
LIST_PROPERTIES = frozenset({"AB", "AW", "AE", "AR", "CR", "DD", "LB", "LN", "MA", "SL", "SQ", "TR", "TB", "TW",
                             "VW"})
SINGLE_PROPERTIES = frozenset({
    "B", "W", "KO", "MN", "PL", "C", "DM", "GB", "GW", "HO", "N", "UC", "V", "BM", "DO", "IT", "TE", "AP", "CA",
    "FF", "GM", "ST", "SZ", "AN", "BR", "BT", "CP", "DT", "EV", "GN", "GC", "ON", "OT", "PB", "PC", "PW", "RE",
    "RO", "RU", "SO", "TM", "US", "WR", "WT", "BL", "OB", "OW", "WL", "FG", "PM", "HA", "KM", "TB", "TW",
} - LIST_PROPERTIES)

# (code, message, where, severity, rule[, repair]) of a problem found while reading; the reader makes Problems of
# them. `where` is a byte offset, or a function giving it once the tree is read (positions of nodes are found
# lazily); a value read in a server's own way adds what it was and what it became (FMT-14).
Note = (tuple[str, str, "int | Callable[[], int]", Severity, "str | None"]
        | tuple[str, str, "int | Callable[[], int]", Severity, "str | None", Repair])

_IDENTS: dict[bytes, tuple[str, str]] = {}  # raw identifier -> (identifier, raw as text)


def unescape(raw: bytes) -> bytes:
    """A value's bytes with escapes resolved and soft line breaks removed."""
    return _ESCAPE.sub(rb"\1", raw)


def escape(text: str) -> str:
    """A value as it must be written: `\\` and `]` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def ident_of(raw: bytes) -> str:
    """The identifier a raw one stands for: lower-case letters dropped (`CoPyright` -> `CP`)."""
    return raw.translate(None, _LOWER).decode("ascii")


def show_byte(data: bytes, offset: int) -> str:
    if offset >= len(data):
        return "the end of the data"
    b = data[offset]
    return f"'{chr(b)}'" if 0x21 <= b < 0x7F else f"byte 0x{b:02x}"


class _ParsedNode(Node):
    """A node made by the parser: nothing but its links and move; `pos` and plain-move properties come on demand."""

    __slots__ = ()

    def __init__(self, parent: Node | None, move: Move | None) -> None:
        self._props = None
        # `()` until the node gets a child (then a list of exactly that child) or ends a line (then `[]`): a list
        # made for the first child is smaller than one grown by `append`, and most nodes have one child.
        self.children = ()  # type: ignore[assignment]
        self.parent = parent
        self.move = move


class _ParsedRoot(_ParsedNode):
    """The root of a parsed tree: it holds the record's source, through which every node finds its position."""

    __slots__ = ("_src",)

    def __init__(self, move: Move | None, src: Any) -> None:
        super().__init__(None, move)
        self._src = src


class _ParsedProperty(Property):
    """A property made by the parser: its positions are found again in the source when asked for."""

    __slots__ = ()

    def __init__(self, ident: str, values: list[str], raw_ident: str, node: Node) -> None:
        self.ident = ident
        self.values = values
        self.raw_ident = raw_ident
        self._pos = None
        self._value_pos = None
        self._node = node
        self._offsets = None


def compiled_chain() -> Callable[[bytes, Node, dict[bytes, Move]], tuple[Node, Node, Any]] | None:
    """The compiled fast path (_runs.c, built at install when a C compiler is there) set up for the parser's node
    class, or None when it was not built."""
    try:
        from . import _runs
    except ImportError:
        return None
    slots = vars(Node)  # the member descriptors of Node's __slots__, whose offsets the compiled code writes
    _runs.setup(_ParsedNode, slots["children"], slots["parent"], slots["move"], slots["_props"])
    return _runs.chain


# The runs of plain-move nodes made in one compiled call; None: by the plain loop below (the reference, which the
# tests compare with it).
COMPILED_CHAIN = compiled_chain()


Where = int | Callable[[], int]  # a byte offset, or how to find it when asked


class MoveSource:
    """What the parser needs to type moves: a cache of plain moves (keyed by their bytes, e.g. `B[dd]`), and the
    slow path for the others."""

    cache: dict[bytes, Move]

    def from_bytes(self, token: bytes, where: Where) -> Move:  # pragma: no cover - interface
        """The move of a plain `B[..]` token whose `[` is at `where`."""
        raise NotImplementedError

    def from_text(self, colour: str, value: str, where: Where) -> Move:  # pragma: no cover - interface
        raise NotImplementedError


def _type_missed(missed: list[tuple[Node, bytes]], moves: MoveSource) -> None:
    """The moves of the compiled run's nodes whose token the cache lacked, typed in order as the plain loop types
    them."""
    for nd, token in missed:
        nd.move = moves.from_bytes(token, _value_offset(nd))


def _value_offset(node: Node) -> Callable[[], int]:
    """Where a plain move's `[` stands: the first `[` after its node's `;` (found when asked)."""

    def find() -> int:
        offset = node.pos.offset  # type: ignore[union-attr]
        src = source_of(node)
        found = src.text.data.find(b"[", offset) if src is not None else -1  # type: ignore[attr-defined]
        return found if found >= 0 else offset

    return find


class ParsedTree:
    __slots__ = ("closed", "end", "root")

    def __init__(self, root: Node, end: int, closed: bool) -> None:
        self.root = root
        self.end = end  # just after the closing `)` (or the end of the data when the tree is unclosed)
        self.closed = closed


def parse_tree(data: bytes, start: int, src: Any, decoder: Decoder, moves: MoveSource, notes: list[Note],
               error: Callable[[str, int], FormatError]) -> ParsedTree:
    """Parse the game tree whose `(` is at `start` (followed by `;`, or by the root's properties: FMT-3), with all
    its variations."""
    codec = decoder.codec
    cache = moves.cache
    chain = COMPILED_CHAIN
    idents = _IDENTS
    Parsed = _ParsedNode
    Root = _ParsedRoot
    Prop = _ParsedProperty
    escape_sub = _ESCAPE.sub
    stack: list[Node | None] = []
    last: Node | None = None  # the last node of the current sequence: the parent of the next node
    node: Node | None = None  # the node that takes properties (None right after a parenthesis)
    root: Node | None = None
    nd: _ParsedNode  # the node just made
    # Anything unusual before the next node sets `state` (so the common case tests one variable):
    need_node = False  # just after `(`: a node must come
    after_variation = False  # a variation of the current sequence has closed: only `(` or `)` may come
    pending: Node | None = None  # a node given B/W on the slow path: its move is typed when the node ends
    state = False
    seen_lower: set[bytes] = set()
    joined: set[str] = set()  # list properties already reported as given twice in a node

    # The token numbers are written as literals below (see TOKEN): 1 run of plain-move nodes, 2 node,
    # 5 property, 6 `(`, 7 `)`, 8 anything else.
    for m in TOKEN.finditer(data, start):
        k = m.lastindex
        if k == 1:
            # The common case, kept short: nodes holding nothing but a plain move (whose values hold no `;`, so
            # splitting the run at `;` gives one piece per node).
            if state:
                if pending is not None:
                    _type_move(pending, moves, notes)
                    pending = None
                if need_node:
                    need_node = False
                elif after_variation:
                    raise error("expected '(' or ')' after a variation; a node cannot follow variations", m.start())
                state = False
                if chain is not None and last is not None:
                    first, last_of_run, missed = chain(m.group(1), last, cache)
                    if last.children:
                        last.children.append(first)
                    else:
                        last.children = [first]
                    last = last_of_run
                    if missed is not None:
                        _type_missed(missed, moves)
                    node = last
                    continue
                it = iter(_PLAIN_MOVE.findall(m.group(1)))
                token = next(it)
                move = cache.get(token)
                if last is None:
                    nd = root = Root(move, src)
                else:
                    nd = Parsed(last, move)
                    if last.children:
                        last.children.append(nd)
                    else:
                        last.children = [nd]
                if move is None:
                    nd.move = moves.from_bytes(token, _value_offset(nd))
                last = nd
            elif chain is not None:
                # `last` is the node before (never None here: a node or property came just before), still childless
                first, last_of_run, missed = chain(m.group(1), last, cache)  # type: ignore[arg-type]
                last.children = [first]  # type: ignore[union-attr]
                last = last_of_run
                if missed is not None:
                    _type_missed(missed, moves)
                node = last
                continue
            else:
                it = iter(_PLAIN_MOVE.findall(m.group(1)))
            for token in it:
                move = cache.get(token)
                nd = Parsed(last, move)
                if move is None:
                    nd.move = moves.from_bytes(token, _value_offset(nd))
                last.children = [nd]  # type: ignore[union-attr]  # `last` is the node before, still childless
                last = nd
            node = last
        elif k == 2:
            if pending is not None:
                _type_move(pending, moves, notes)
                pending = None
            if need_node:
                need_node = False
            elif after_variation:
                raise error("expected '(' or ')' after a variation; a node cannot follow variations", m.start())
            state = False
            if last is None:
                nd = root = Root(None, src)
            else:
                nd = Parsed(last, None)
                if last.children:
                    last.children.append(nd)
                else:
                    last.children = [nd]
            last = node = nd
        elif k == 5:
            if node is None:
                if root is None and need_node:
                    # FMT-3: the first node without its `;`, as the Nihon Ki-in's files have it: it is the root.
                    notes.append(("root-without-semicolon", "the game tree's first node has no ';' (read as the "
                                  "root node)", m.start(), Severity.WARNING, "FMT-3"))
                    src.root_offset = m.start() - 1
                    nd = root = Root(None, src)
                    last = node = nd
                    need_node = state = False
                else:
                    where = "after '('" if need_node else "after ')'"
                    raise error(f"expected ';' before the property {m.group(3).decode('ascii')!r} {where}",
                                m.start())
            raw_ident = m.group(3)
            names = idents.get(raw_ident)
            if names is None:
                names = _names(raw_ident, m.start(), seen_lower, notes, error)
            ident = names[0]
            raw, more = m.group(4, 5)
            if b"\\" in raw:
                raw = escape_sub(rb"\1", raw) if ident in _MOVES else text_value(ident, raw, m.start(4), notes)
            try:
                values = [raw.decode(codec)]
            except UnicodeDecodeError:
                values = [decoder.bad_bytes(raw, m.start(4))]
            if more:
                _more_values(ident, more, m.start(5), values, decoder, notes)
            props = node.properties
            if ident in props:
                _repeat(props[ident], values, m.start(), notes, joined)
            else:
                if len(values) > 1 and ident in SINGLE_PROPERTIES:
                    values = _single(ident, values, m.start(), notes)
                props[ident] = Prop(ident, values, names[1], node)
            if ident == "B" or ident == "W":
                pending = node
                state = True
        elif k == 6:
            if need_node:
                raise error("expected ';' after '(': a game tree starts with a node", m.start())
            if pending is not None:
                _type_move(pending, moves, notes)
                pending = None
            stack.append(last)
            need_node = state = True
            after_variation = False
            node = None
        elif k == 7:
            if pending is not None:
                _type_move(pending, moves, notes)
                pending = None
            if need_node:
                need_node = False
                notes.append(("empty-tree", "empty game tree '()' skipped", m.start() - 1, Severity.WARNING, "FMT-3"))
            if last is not None and not last.children:
                last.children = []  # a leaf: the end of a line of play
            last = stack.pop()
            node = None
            after_variation = state = True
            if not stack:
                assert root is not None
                return ParsedTree(root, m.start() + 1, True)
        else:
            offset = m.start()
            partial = _unterminated(data, offset)
            if partial is None:
                raise error(_unexpected(data, offset, node is not None, need_node), offset)
            if node is None:
                raise error(f"expected ';' before the property {partial[0]!r}", offset)
            _partial_property(node, partial, decoder, src, notes)
            if partial[0] in ("B", "W"):
                pending = node
            break

    # The data ends inside the tree: keep what was read.
    if last is not None and not last.children:
        last.children = []
    if pending is not None:
        _type_move(pending, moves, notes)
    if root is None:
        raise error("the data ends before the game tree's first node", len(data))
    open_count = len(stack)
    notes.append(("truncated", f"the file ends before the game tree is closed ({open_count} parenthes"
                  f"{'is' if open_count == 1 else 'es'} missing): the record is truncated; the moves read before the "
                  "cut are replayed", len(data), Severity.ERROR, "FMT-3"))
    return ParsedTree(root, len(data), False)


def _names(raw_ident: bytes, offset: int, seen_lower: set[bytes], notes: list[Note],
           error: Callable[[str, int], FormatError]) -> tuple[str, str]:
    """(identifier, raw identifier) of a raw one; lower-case letters are dropped with a warning."""
    ident = ident_of(raw_ident)
    raw = raw_ident.decode("ascii")
    if not ident:
        raise error(f"property identifier {raw!r} has no upper-case letter", offset)
    if ident == raw and len(_IDENTS) < 4096:  # bounded: files may hold any number of odd identifiers
        _IDENTS[raw_ident] = (ident, raw)
    elif raw_ident not in seen_lower:
        seen_lower.add(raw_ident)
        notes.append(("lc-propident", f"property identifier {raw!r} read as {ident!r} (lower-case letters are "
                      "dropped)", offset, Severity.WARNING, "FMT-3", Repair(raw, raw, ident)))
    return ident, raw


def text_value(ident: str, raw: bytes, offset: int, notes: list[Note]) -> bytes:
    """The bytes of a value that holds a backslash, escapes resolved; a line break written as the four characters
    `\\r\\n` is read as a line break, with a warning (FMT-14). The same four characters in the value itself (the
    file escapes its backslashes: `\\\\r\\\\n`) may be text: they are kept, with a warning that they look odd."""
    if _WRITTEN_BREAK not in raw:
        text = _ESCAPE.sub(rb"\1", raw)
    else:
        breaks = 0

        def resolve(m: re.Match[bytes]) -> bytes:
            nonlocal breaks
            if m.group(1) is not None:
                breaks += 1
                return b"\n"
            return m.group(2) or b""

        text = _ESCAPE_OR_BREAK.sub(resolve, raw)
        if breaks:
            times = "once" if breaks == 1 else f"{breaks} times"
            notes.append(("text-line-break", f"{ident}: the file writes a line break as the four characters \\r\\n "
                          f"({times}), as some servers do; read as a line break", offset, Severity.WARNING,
                          "FMT-14", Repair(ident, "\\r\\n", "\n")))
    if _WRITTEN_BREAK in text:
        notes.append(("text-backslash-rn", f"{ident} holds the characters \\r\\n as text (the file writes them "
                      "escaped); they may stand for a line break, but nothing shows it: kept as written", offset,
                      Severity.WARNING, "FMT-14"))
    return text


def _more_values(ident: str, more: bytes, base: int, values: list[str], decoder: Decoder,
                 notes: list[Note]) -> None:
    codec = decoder.codec
    for vm in VALUES.finditer(more):
        raw = vm.group(1)
        if b"\\" in raw:
            raw = _ESCAPE.sub(rb"\1", raw) if ident in _MOVES else text_value(ident, raw, base + vm.start(1), notes)
        try:
            values.append(raw.decode(codec))
        except UnicodeDecodeError:
            values.append(decoder.bad_bytes(raw, base + vm.start(1)))


def _single(ident: str, values: list[str], offset: int, notes: list[Note]) -> list[str]:
    """Several values for a property that takes one: the same value repeated is read once, with a warning."""
    first = values[0]
    if all(v == first for v in values):
        notes.append(("repeated-property", f"{ident} takes one value but has {len(values)} equal ones "
                      f"({ident}{''.join(f'[{escape(v)}]' for v in values)}); read as one", offset,
                      Severity.WARNING, "FMT-3"))
        return [first]
    if ident not in ("B", "W"):
        notes.append(("conflicting-property", f"{ident} takes one value but has {len(values)} different ones; "
                      f"the first, {first!r}, is used", offset, Severity.WARNING, "FMT-3"))
    return values


def _repeat(prop: Property, values: list[str], offset: int, notes: list[Note], joined: set[str]) -> None:
    """A property given twice in one node (`GM[1]GM[1]`): one property with the values of both."""
    ident = prop.ident
    if ident in LIST_PROPERTIES or ident not in SINGLE_PROPERTIES:
        # Old programs write `AB[dd]AB[gd]...`: joining the lists loses nothing; one warning per record says so.
        if ident not in joined:
            joined.add(ident)
            notes.append(("repeated-property", f"{ident} is given more than once in a node; the values are joined",
                          offset, Severity.WARNING, "FMT-3"))
        prop.values.extend(values)
        return
    if all(v == prop.values[0] for v in values) and len(set(prop.values)) == 1:
        notes.append(("repeated-property", f"{ident} is given twice in one node with the same value; read once",
                      offset, Severity.WARNING, "FMT-3"))
        return
    prop.values.extend(values)
    if ident not in ("B", "W"):
        notes.append(("conflicting-property", f"{ident} is given twice in one node with different values; the "
                      f"first, {prop.values[0]!r}, is used", offset, Severity.WARNING, "FMT-3"))


def _type_move(node: Node, moves: MoveSource, notes: list[Note]) -> None:
    """Type the move of a node whose B/W came on the slow path; two moves in one node are an error."""
    props = node.properties
    found = [props[c] for c in props if c == "B" or c == "W"]
    if not found:  # a move cut off by the end of the file is left out
        return
    prop = found[0]
    if len(found) > 1 or len(prop.values) > 1:
        given = "".join(f"{p.ident}" + "".join(f"[{escape(v)}]" for v in p.values) for p in found)
        notes.append(("two-moves", f"a node holds more than one move ({given}); the first, "
                      f"{prop.ident}[{escape(prop.value)}], is read",
                      lambda: node.pos.offset, Severity.ERROR, "FMT-4"))  # type: ignore[union-attr]
    node.move = moves.from_text(prop.ident, prop.value, lambda: prop.value_pos[0].offset)


def _unterminated(data: bytes, offset: int) -> tuple[str, bytes | None, int] | None:
    """(identifier, partial value or None, value offset) when the data ends inside a property; else None."""
    m = _IDENT_AT.match(data, offset)
    if m is None:
        return None
    pos = m.end()
    if pos >= len(data):
        return ident_of(m.group(1)) or m.group(1).decode("ascii"), None, pos
    while True:
        v = _VALUE_AT.match(data, pos)
        if v is None:
            break
        pos = v.end()
    if pos < len(data) and data[pos] == 0x5B and data.find(b"]", pos) < 0:
        return ident_of(m.group(1)) or m.group(1).decode("ascii"), data[pos + 1:], pos
    return None


def _partial_property(node: Node, partial: tuple[str, bytes | None, int], decoder: Decoder, src: Any,
                      notes: list[Note]) -> None:
    ident, raw, offset = partial
    if raw is None:
        notes.append(("truncated", f"the file ends after the property identifier {ident!r}, before its value; "
                      "the property is left out", offset, Severity.ERROR, "FMT-3"))
        return
    text_raw = unescape(raw)
    try:
        value = text_raw.decode(decoder.codec)
    except UnicodeDecodeError:
        value = decoder.bad_bytes(text_raw, offset)
    if ident in ("B", "W"):
        # A move cut in the middle is not a move: an empty value would read as a pass.
        notes.append(("truncated", f"the file ends inside the move {ident}[{raw.decode('latin-1')}; the move is "
                      "not replayed", offset, Severity.ERROR, "FMT-3"))
        return
    notes.append(("truncated", f"the file ends inside the value of {ident}; the value is kept as read "
                  f"({len(raw)} bytes)", offset, Severity.ERROR, "FMT-3"))
    props = node.properties
    if ident in props:
        props[ident].values.append(value)
    else:
        props[ident] = _ParsedProperty(ident, [value], ident, node)


def _unexpected(data: bytes, offset: int, in_node: bool, need_node: bool) -> str:
    found = show_byte(data, offset)
    m = _IDENT_AT.match(data, offset)
    if m is not None:
        name = m.group(1).decode("ascii")
        return f"expected '[' after the property identifier {name!r}, found {show_byte(data, m.end())}"
    if data[offset] == 0x5B:
        return "expected a property identifier before '['"
    if need_node:
        return f"expected ';' after '(', found {found}"
    if in_node:
        return f"expected a property, ';', '(' or ')', found {found}"
    return f"expected ';', '(' or ')', found {found}"


_ROOT = re.compile(rb"\(\s*+;?\s*+((?:[A-Za-z]++\s*+(?:\[" + _BODY + rb"\]\s*+)++)*+)", re.S)
_ROOT_PROPS = re.compile(rb"([A-Za-z]++)\s*+((?:\[" + _BODY + rb"\]\s*+)++)", re.S)


_ROOT_WANTED = frozenset({"CA", "GM", "SZ"})


def scan_root(data: bytes, start: int, wanted: frozenset[str] = _ROOT_WANTED) -> dict[str, list[bytes]]:
    """The raw values (escapes resolved, not decoded) of the `wanted` properties of the root node of the tree at
    `start` (`(` then `;`).

    Read before the tree itself, to learn the charset, game and size; stops quietly at anything unexpected (the
    full parse reports it).
    """
    out: dict[str, list[bytes]] = {}
    m = _ROOT.match(data, start)
    if m is None:
        return out
    for raw_ident, values in _ROOT_PROPS.findall(m.group(1)):
        ident = raw_ident.decode("ascii") if raw_ident.isupper() else ident_of(raw_ident)
        if ident in wanted:
            out.setdefault(ident, []).extend(unescape(v) if b"\\" in v else v for v in VALUES.findall(values))
    return out


def scan_node_offsets(data: bytes, offset: int) -> dict[str, tuple[int, list[int]]]:
    """The properties of the node whose `;` is at `offset`: identifier -> (offset, offsets of its values' `[`)."""
    out: dict[str, tuple[int, list[int]]] = {}
    pos = offset + 1
    while True:
        pos = _WS_AT.match(data, pos).end()  # type: ignore[union-attr]
        m = _IDENT_AT.match(data, pos)
        if m is None:
            return out
        ident = ident_of(m.group(1)) or m.group(1).decode("ascii")
        pos = m.end()
        value_offsets: list[int] = []
        while True:
            v = _VALUE_AT.match(data, pos)
            if v is None:
                break
            value_offsets.append(v.start())
            pos = v.end()
        if not value_offsets and pos < len(data) and data[pos] == 0x5B:
            value_offsets.append(pos)  # a value that runs to the end of the data
        if ident in out:
            out[ident][1].extend(value_offsets)
        else:
            out[ident] = (m.start(), value_offsets)
        if not value_offsets:
            return out

