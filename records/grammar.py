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
from .model import FormatError, Move, Node, Property, Severity, SourcePos

# One token per match. Groups (the dispatch is on `lastindex`, the last group that matched):
#   1 `;` a node; 2, 3 its move when the node is nothing but a plain `B[..]`/`W[..]` (the fast path)
#   4 a property identifier, 5 its first value, 6 its further values (with the whitespace between them)
#   7 `(`   8 `)`   9 any other byte (an error, or the start of a value that never ends)
_BODY = rb"(?:[^\\\]]++|\\.)*+"
TOKEN = re.compile(
    rb"(;)\s*+(?:([BW])\[([^\\\]]*+)\]\s*+(?!\[))?"
    rb"|([A-Za-z]++)\s*+\[(" + _BODY + rb")\]\s*+((?:\[" + _BODY + rb"\]\s*+)*+)"
    rb"|(\()\s*+"
    rb"|(\))\s*+"
    rb"|(.)",
    re.S,
)
_NODE, _FAST, _PROP, _OPEN, _CLOSE = 1, 3, 6, 7, 8
VALUES = re.compile(rb"\[(" + _BODY + rb")\]", re.S)
_IDENT_AT = re.compile(rb"([A-Za-z]++)\s*+")
_VALUE_AT = re.compile(rb"\[" + _BODY + rb"\]\s*+", re.S)
_WS_AT = re.compile(rb"\s*+")
# A backslash escapes the next byte; a backslash before a line break (any style) removes both (soft break).
_ESCAPE = re.compile(rb"\\(?:\r\n|\n\r|\r|\n|(.))", re.S)
_LOWER = bytes(range(ord("a"), ord("z") + 1))

# SGF properties whose value is a list; every other known property takes one value.
LIST_PROPERTIES = frozenset({"AB", "AW", "AE", "AR", "CR", "DD", "LB", "LN", "MA", "SL", "SQ", "TR", "TB", "TW",
                             "VW"})
SINGLE_PROPERTIES = frozenset({
    "B", "W", "KO", "MN", "PL", "C", "DM", "GB", "GW", "HO", "N", "UC", "V", "BM", "DO", "IT", "TE", "AP", "CA",
    "FF", "GM", "ST", "SZ", "AN", "BR", "BT", "CP", "DT", "EV", "GN", "GC", "ON", "OT", "PB", "PC", "PW", "RE",
    "RO", "RU", "SO", "TM", "US", "WR", "WT", "BL", "OB", "OW", "WL", "FG", "PM", "HA", "KM", "TB", "TW",
} - LIST_PROPERTIES)

# (code, message, offset, severity, rule) of a problem found while reading; the reader makes Diagnostics of them.
Note = tuple[str, str, int, Severity, "str | None"]

_IDENTS: dict[bytes, str] = {}


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
    """A node made by the parser: only its offset is kept; `pos` and plain-move properties come on demand."""

    __slots__ = ()

    def __init__(self, parent: Node | None, move: Move | None, off: int, src: Any) -> None:
        self._props = None
        self.children = []
        self.parent = parent
        self.move = move
        self._off = off
        self._src = src


class MoveSource:
    """What the parser needs to type moves: a cache of plain move values, and the slow path for the others."""

    cache: dict[tuple[bytes, bytes], Move]

    def from_bytes(self, colour: bytes, raw: bytes, offset: int) -> Move:  # pragma: no cover - interface
        raise NotImplementedError

    def from_text(self, colour: str, value: str, offset: int) -> Move:  # pragma: no cover - interface
        raise NotImplementedError


class ParsedTree:
    __slots__ = ("closed", "end", "root")

    def __init__(self, root: Node, end: int, closed: bool) -> None:
        self.root = root
        self.end = end  # just after the closing `)` (or the end of the data when the tree is unclosed)
        self.closed = closed


def parse_tree(data: bytes, start: int, src: Any, decoder: Decoder, moves: MoveSource, notes: list[Note],
               error: Callable[[str, int], FormatError]) -> ParsedTree:
    """Parse the game tree whose `(` is at `start` (followed by `;`), with all its variations."""
    codec = decoder.codec
    cache = moves.cache
    idents = _IDENTS
    stack: list[Node | None] = []
    last: Node | None = None  # the last node of the current sequence: the parent of the next node
    node: Node | None = None  # the node that takes properties (None right after a parenthesis)
    root: Node | None = None
    need_node = False  # just after `(`: a node must come
    after_variation = False  # a variation of the current sequence has closed: only `(` or `)` may come
    pending: Node | None = None  # a node given B/W on the slow path: its move is typed when the node ends
    seen_lower: set[bytes] = set()
    joined: set[str] = set()  # list properties already reported as given twice in a node

    for m in TOKEN.finditer(data, start):
        k = m.lastindex
        if k == _FAST or k == _NODE:  # noqa: SIM109 - two compares are faster than a tuple test here
            if pending is not None:
                _type_move(pending, moves, notes)
                pending = None
            if need_node:
                need_node = False
            elif after_variation:
                raise error("expected '(' or ')' after a variation; a node cannot follow variations", m.start())
            off = m.start()
            if k == _FAST:
                key = m.group(2, 3)
                move = cache.get(key)
                if move is None:
                    move = moves.from_bytes(key[0], key[1], m.start(3) - 1)
                nd = _ParsedNode(last, move, off, src)
            else:
                nd = _ParsedNode(last, None, off, src)
            if last is None:
                root = nd
            else:
                last.children.append(nd)
            last = node = nd
        elif k == _PROP:
            if node is None:
                where = "after '('" if need_node else "after ')'"
                raise error(f"expected ';' before the property {m.group(4).decode('ascii')!r} {where}", m.start())
            raw_ident = m.group(4)
            ident = idents.get(raw_ident)
            if ident is None:
                ident = ident_of(raw_ident)
                if not ident:
                    raise error(f"property identifier {raw_ident.decode('ascii')!r} has no upper-case letter",
                                m.start())
                if ident == raw_ident.decode("ascii"):
                    idents[raw_ident] = ident
                elif raw_ident not in seen_lower:
                    seen_lower.add(raw_ident)
                    notes.append(("lc-propident", f"property identifier {raw_ident.decode('ascii')!r} read as "
                                  f"{ident!r} (lower-case letters are dropped)", m.start(), Severity.WARNING, None))
            raw = m.group(5)
            if b"\\" in raw:
                raw = _ESCAPE.sub(rb"\1", raw)
            try:
                value = raw.decode(codec)
            except UnicodeDecodeError:
                value = decoder.bad_bytes(raw, m.start(5))
            values = [value]
            more = m.group(6)
            if more:
                base = m.start(6)
                for vm in VALUES.finditer(more):
                    raw = vm.group(1)
                    if b"\\" in raw:
                        raw = _ESCAPE.sub(rb"\1", raw)
                    try:
                        values.append(raw.decode(codec))
                    except UnicodeDecodeError:
                        values.append(decoder.bad_bytes(raw, base + vm.start(1)))
            props = node.properties
            if ident in props:
                _repeat(props[ident], values, m.start(), notes, joined)
            else:
                if len(values) > 1 and ident in SINGLE_PROPERTIES:
                    values = _single(ident, values, m.start(), notes)
                props[ident] = Property.parsed(ident, values, raw_ident.decode("ascii"), node._off, src)
            if ident == "B" or ident == "W":
                pending = node
        elif k == _OPEN:
            if need_node:
                raise error("expected ';' after '(': a game tree starts with a node", m.start())
            if pending is not None:
                _type_move(pending, moves, notes)
                pending = None
            stack.append(last)
            need_node = True
            after_variation = False
            node = None
        elif k == _CLOSE:
            if pending is not None:
                _type_move(pending, moves, notes)
                pending = None
            if need_node:
                need_node = False
                notes.append(("empty-tree", "empty game tree '()' skipped", m.start() - 1, Severity.WARNING, None))
            last = stack.pop()
            node = None
            after_variation = True
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
    if pending is not None:
        _type_move(pending, moves, notes)
    if root is None:
        raise error("the data ends before the game tree's first node", len(data))
    open_count = len(stack)
    notes.append(("unclosed", f"the data ends inside the game tree ({open_count} parenthes"
                  f"{'is' if open_count == 1 else 'es'} not closed); what was read is kept", len(data),
                  Severity.WARNING, None))
    return ParsedTree(root, len(data), False)


def _single(ident: str, values: list[str], offset: int, notes: list[Note]) -> list[str]:
    """Several values for a property that takes one: the same value repeated is read once, with a warning."""
    first = values[0]
    if all(v == first for v in values):
        notes.append(("repeated-property", f"{ident} takes one value but has {len(values)} equal ones "
                      f"({ident}{''.join(f'[{escape(v)}]' for v in values)}); read as one", offset,
                      Severity.WARNING, None))
        return [first]
    if ident not in ("B", "W"):
        notes.append(("conflicting-property", f"{ident} takes one value but has {len(values)} different ones; "
                      f"the first, {first!r}, is used", offset, Severity.WARNING, None))
    return values


def _repeat(prop: Property, values: list[str], offset: int, notes: list[Note], joined: set[str]) -> None:
    """A property given twice in one node (`GM[1]GM[1]`): one property with the values of both."""
    ident = prop.ident
    if ident in LIST_PROPERTIES or ident not in SINGLE_PROPERTIES:
        # Old programs write `AB[dd]AB[gd]...`: joining the lists loses nothing; one warning per record says so.
        if ident not in joined:
            joined.add(ident)
            notes.append(("repeated-property", f"{ident} is given more than once in a node; the values are joined",
                          offset, Severity.WARNING, None))
        prop.values.extend(values)
        return
    if all(v == prop.values[0] for v in values) and len(set(prop.values)) == 1:
        notes.append(("repeated-property", f"{ident} is given twice in one node with the same value; read once",
                      offset, Severity.WARNING, None))
        return
    prop.values.extend(values)
    if ident not in ("B", "W"):
        notes.append(("conflicting-property", f"{ident} is given twice in one node with different values; the "
                      f"first, {prop.values[0]!r}, is used", offset, Severity.WARNING, None))


def _type_move(node: Node, moves: MoveSource, notes: list[Note]) -> None:
    """Type the move of a node whose B/W came on the slow path; two moves in one node are an error."""
    props = node.properties
    found = [props[c] for c in props if c == "B" or c == "W"]
    if not found:  # pragma: no cover - only called for nodes given B or W
        return
    prop = found[0]
    offset = node._off
    if len(found) > 1 or len(prop.values) > 1:
        given = "".join(f"{p.ident}" + "".join(f"[{escape(v)}]" for v in p.values) for p in found)
        notes.append(("two-moves", f"a node holds more than one move ({given}); the first, "
                      f"{prop.ident}[{escape(prop.value)}], is read", offset, Severity.ERROR, None))
    node.move = moves.from_text(prop.ident, prop.value, offset)


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
        notes.append(("unclosed", f"the data ends after the property identifier {ident!r}; it has no value and "
                      "is left out", offset, Severity.WARNING, None))
        return
    text_raw = unescape(raw)
    try:
        value = text_raw.decode(decoder.codec)
    except UnicodeDecodeError:
        value = decoder.bad_bytes(text_raw, offset)
    notes.append(("unclosed", f"the data ends inside the value of {ident}; the value is kept as read "
                  f"({len(raw)} bytes)", offset, Severity.WARNING, None))
    props = node.properties
    if ident in props:
        props[ident].values.append(value)
    else:
        props[ident] = Property.parsed(ident, [value], ident, node._off, src)


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


def scan_root(data: bytes, start: int) -> dict[str, list[bytes]]:
    """The raw values (escapes resolved, not decoded) of the root node of the tree at `start` (`(` then `;`).

    Read before the tree itself, to learn the charset, game and size; stops quietly at anything unexpected (the
    full parse reports it).
    """
    out: dict[str, list[bytes]] = {}
    pos = _WS_AT.match(data, start + 1).end()  # type: ignore[union-attr]
    if data[pos:pos + 1] != b";":
        return out
    pos += 1
    while True:
        pos = _WS_AT.match(data, pos).end()  # type: ignore[union-attr]
        m = _IDENT_AT.match(data, pos)
        if m is None:
            return out
        ident = ident_of(m.group(1))
        pos = m.end()
        found = False
        while True:
            v = VALUES.match(data, pos)
            if v is None:
                break
            found = True
            out.setdefault(ident, []).append(unescape(v.group(1)))
            pos = _WS_AT.match(data, v.end()).end()  # type: ignore[union-attr]
        if not found:
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


def source_pos(src: Any, offset: int) -> SourcePos:
    return SourcePos.lazy(offset, src)
