"""Writing records: the canonical form of the record format (UTF-8, `CA[UTF-8]`), and records built in code.

The canonical form:
- one collection; each record is one game tree, in order;
- the root starts with `FF[4]CA[UTF-8]`, then `GM` and `SZ` when the record has them, then the other root
  properties in their order;
- every other node keeps its properties in their order; unknown properties and comments are kept;
- values are escaped (`\\` and `]`), their text is written as it is (line breaks in comments included);
- nodes follow each other on lines of at most 80 characters where a value's own line breaks allow it; each
  variation starts on a new line.

`read_bytes(write(r))` gives back the same tree, the same properties and values (but `FF` and `CA`, which the
writer sets) and the same moves. Bytes that could not be decoded when the record was read come back as they were.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .charset import encode_value
from .games import SPECS, Game, game_named
from .grammar import escape
from .model import Colour, Move, Node, Property, Record, RecordDate, Result

WIDTH = 80
_ROOT_FIRST = ("FF", "CA", "GM", "SZ")


def write(records: Record | Iterable[Record]) -> bytes:
    """The canonical bytes of one record or of a collection of records."""
    if isinstance(records, Record):
        records = [records]
    return encode_value("\n".join(write_text(r) for r in records) + "\n")


def write_text(record: Record) -> str:
    """The canonical text of one record (one game tree)."""
    root = record.root
    # The root on its own line(s); the moves start on the next line.
    out: list[str] = ["(", _root_text(_root_properties(root)), "\n"]
    col = 0
    stack: list[str | Node] = [")"]
    stack.extend(_tail(root.children))
    if len(root.children) == 1:
        stack[1:] = [root.children[0]]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item == "(":
                out.append("\n(")
                col = 1
            else:
                out.append(item)
                col += 1
            continue
        node = item
        # One sequence: this node and its first children while there is no branch.
        while True:
            text = write_node(node)
            if col + _first_line_len(text) > WIDTH and col > 1:
                out.append("\n")
                col = 0
            out.append(text)
            col = _advance(col, text)
            children = node.children
            if len(children) == 1:
                node = children[0]
                continue
            if children:
                stack.extend(_tail(children))
            break
    return "".join(out)


def _tail(children: Sequence[Node]) -> list[str | Node]:
    """The stack items that write `children` as variations, in order (the stack pops from the end)."""
    items: list[str | Node] = []
    for child in reversed(children):
        items.extend((")", child, "("))
    return items


def _first_line_len(text: str) -> int:
    i = text.find("\n")
    return len(text) if i < 0 else i


def _advance(col: int, text: str) -> int:
    i = text.rfind("\n")
    return col + len(text) if i < 0 else len(text) - i - 1


def _root_properties(root: Node) -> list[tuple[str, list[str]]]:
    props = root.properties
    out: list[tuple[str, list[str]]] = [("FF", ["4"]), ("CA", ["UTF-8"])]
    for ident in ("GM", "SZ"):
        if ident in props:
            out.append((ident, props[ident].values))
    out.extend((p.ident, p.values) for p in props.values() if p.ident not in _ROOT_FIRST)
    return out


def _root_text(props: list[tuple[str, list[str]]]) -> str:
    """The root node: `;` and its properties, broken into lines of at most WIDTH characters where possible."""
    parts: list[str] = [";"]
    col = 2
    for ident, values in props:
        text = _property_text(ident, values)
        if col + _first_line_len(text) > WIDTH and col > 2:
            parts.append("\n")
            col = 0
        parts.append(text)
        col = _advance(col, text)
    return "".join(parts)


def _property_text(ident: str, values: list[str]) -> str:
    if not values:
        return f"{ident}[]"
    return ident + "".join(f"[{escape(v)}]" for v in values)


def write_node(node: Node) -> str:
    """One node: `;` and its properties in order (a node read as a plain move is written from its move)."""
    props = node.extra_properties
    if props is None and node.move is not None:
        move = node.move
        return f";{move.colour.value}[{escape(move.raw)}]"
    return ";" + "".join(_property_text(p.ident, p.values) for p in node.properties.values())


# -- records built in code ----------------------------------------------------------------------------------------

_HEADER = {
    "black": "PB", "white": "PW", "black_rank": "BR", "white_rank": "WR", "event": "EV", "round": "RO",
    "date": "DT", "place": "PC", "name": "GN", "komi": "KM", "handicap": "HA", "rules": "RU", "result": "RE",
}


def new_record(game: Game | str, size: int, moves: Iterable[Move | str | tuple[Colour | str, str]] = (),
               **header: object) -> Record:
    """A record built in code: `game`, board `size`, the main line's `moves`, and header fields.

    `moves` are Moves (their canonical value is written), `"B[dd]"` strings or (colour, value) pairs.
    Header keywords are the Record's field names (`black`, `white`, `event`, `date`, `result`, `komi`, ...);
    any other keyword in capitals is written as that root property (`GC="a note"`, `AB=["dd", "pp"]`).
    The record is written and read back, so it is exactly what a file with the same text would give.
    """
    from .reader import read_bytes

    game = game_named(game)
    root_props: dict[str, Property] = {}

    def put(ident: str, values: list[str]) -> None:
        root_props[ident] = Property(ident, values)

    put("FF", ["4"])
    put("CA", ["UTF-8"])
    put("GM", [SPECS[game].gm_value])
    put("SZ", [str(size)])
    for key, value in header.items():
        if value is None:
            continue
        ident = _HEADER.get(key, key)
        if not ident.isupper():
            raise TypeError(f"new_record() got an unknown header field {key!r}")
        put(ident, _header_values(value))
    root = Node(root_props)
    node = root
    for item in moves:
        colour, value = _move_parts(item)
        child = Node({colour: Property(colour, [value])}, parent=node)
        node.children.append(child)
        node = child
    draft = Record(root=root, game=game, size=size, raw=b"", encoding="utf-8")
    return read_bytes(write(draft), "<new record>")[0]


def _header_values(value: object) -> list[str]:
    if isinstance(value, Result):
        return [value.raw or value.canonical()]
    if isinstance(value, RecordDate):
        return [value.raw]
    if isinstance(value, float):
        return [_format_number(value)]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return [str(value)]


def _format_number(value: float) -> str:
    if value == int(value):
        return str(int(value))
    return f"{value:g}" if abs(value) >= 1e-4 else repr(value)


def _move_parts(item: Move | str | tuple[Colour | str, str]) -> tuple[str, str]:
    if isinstance(item, Move):
        return item.colour.value, item.sgf_value()
    if isinstance(item, str):
        text = item.strip()
        if len(text) < 3 or text[0] not in "BW" or text[1] != "[" or not text.endswith("]"):
            raise ValueError(f"not a move: {item!r} (expected e.g. 'B[dd]')")
        return text[0], text[2:-1]
    colour, value = item
    return (colour.value if isinstance(colour, Colour) else str(colour)), value


def properties_of(node: Node) -> Mapping[str, list[str]]:
    """A node's properties as identifier -> values (for comparing trees)."""
    return {p.ident: list(p.values) for p in node.properties.values()}

