"""The review a Pandanet `.ugi` file holds beside its game (FMT-13): variations in `[ReviewNode]`, comments in
`[ReviewComment]`.

`[ReviewNode]` lists the game tree, one node a line, in the order of a walk through it:
- `NODE,N,C,X,Y`: node number N, by C (1 Black, 2 White; 0 no move: the first such line is the root), on column X
  and row Y counted from 1 at the lower left corner (the row from the bottom, as `[Data]` counts it); X and Y one
  beyond the board (`20,20` on 19x19) a pass, as `[Data]`'s `YA` at the same move shows;
- `VARIATION,` ... `VARIATIONEND,`: the nodes between them are a variation: its first node is a child of the node
  before `VARIATION,`, beside the node that follows `VARIATIONEND,` (the game's own continuation, the main line).
The main line's node N is move N - 1 (node 1 the root). `[ReviewComment]` holds `.Comment,N` lines, each followed by
the lines of the comment on node N (each line stripped of its leading and trailing spaces).

The main line is the game of `[Data]`; the review is read only when its main line is that same game, move for
move, with a warning (FMT-13) that says what was read. Sabaki's reader (src/modules/fileformats/ugf.js) reads the
comments the same way (node N as move N - 1) and leaves the variations out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import Line, Lines, SgfNode, SgfText, move_node

_NODE = re.compile(r"^NODE\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,?\s*$", re.IGNORECASE)
_COMMENT = re.compile(r"^\.Comment\s*,\s*(\d+)", re.IGNORECASE)


@dataclass(slots=True)
class _Entry:
    """One node of `[ReviewNode]`."""

    number: int
    move: tuple[str, tuple[int, int] | None] | None  # (colour, point or None for a pass); None: no move
    line: Line
    variation: bool = False  # the first node of a VARIATION block
    children: list[_Entry] = field(default_factory=list)


def read_review(lines: Lines, sgf: SgfText, sections: dict[str, list[Line]], size: int) -> None:
    """Add the review's variations and comments to `sgf`, whose main line holds the moves of `[Data]`."""
    rows = sections.get("reviewnode", [])
    comments = _comments(sections.get("reviewcomment", []))
    if not rows and not comments:
        return
    # node number -> the node of `sgf` (None: the root)
    placed: dict[int, SgfNode | None] = {1: None}
    variations = 0
    if rows:
        root = _tree(lines, rows, size)
        main = _main_line(root)
        game = [(n.props[0][0], n.props[0][1][0]) for n in sgf.main]
        shown = [(e.move[0], _value(e.move[1])) for e in main if e.move is not None]
        if shown != game:
            at = next((i for i, (a, b) in enumerate(zip(shown, game, strict=False)) if a != b),
                      min(len(shown), len(game)))
            lines.warn("review-not-read", f"the [ReviewNode] game differs from [Data] at move {at + 1}: its "
                       "variations and comments are not read", rows[0])
            return
        placed[root.number] = None
        variations = _place(root, main, sgf, placed)
    else:
        placed.update({number: node for number, node in enumerate(sgf.main, 2)})
    lost = []
    for number, (text, line) in comments.items():
        if number not in placed:
            lost.append(str(number))
            continue
        node = placed[number]
        if node is None:
            sgf.put("C", text, line)
        else:
            node.props.append(("C", [text]))
    where = rows[0] if rows else next(iter(comments.values()))[1]
    kept = len(comments) - len(lost)
    if variations or kept:  # (a [ReviewNode] that only repeats the game adds nothing to say)
        read = [f"{variations} variation{'s' if variations != 1 else ''}"] if rows else []
        read.append(f"{kept} comment{'s' if kept != 1 else ''}")
        lines.warn("review-read", f"the review read: {' and '.join(read)} ([ReviewNode] node N is move N - 1, "
                   "columns and rows counted from 1 at the lower left)", where)
    if lost:
        lines.warn("review-not-read", f"comments on nodes {', '.join(lost)}, which [ReviewNode] does not hold: not "
                   "read", where)


def _tree(lines: Lines, rows: list[Line], size: int) -> _Entry:
    root = _Entry(1, None, rows[0])
    cursor = root
    stack: list[_Entry] = []
    starting = False
    first = True
    for row in rows:
        text = row.text.strip()
        word = text.split(",", 1)[0].strip().upper()
        if word == "VARIATIONEND":
            if not stack:
                raise lines.error("VARIATIONEND closes no VARIATION: expected a [ReviewNode] tree", row)
            cursor = stack.pop()
            continue
        if word == "VARIATION":
            stack.append(cursor)
            starting = True
            continue
        m = _NODE.match(text)
        if m is None:
            raise lines.error(f"'{text[:40]}' is not a [ReviewNode] line: expected 'NODE,<number>,<colour 0-2>,"
                              "<column>,<row>', VARIATION or VARIATIONEND", row)
        number, colour, x, y = (int(g) for g in m.groups())
        if colour == 0 and first:
            root.number, root.line = number, row
            first = False
            continue
        first = False
        entry = _Entry(number, _move(lines, row, colour, x, y, size), row, variation=starting)
        starting = False
        cursor.children.append(entry)
        cursor = entry
    if stack:
        raise lines.error(f"the [ReviewNode] section ends with {len(stack)} VARIATION not closed (VARIATIONEND): "
                          "it is truncated", rows[-1])
    return root


def _move(lines: Lines, row: Line, colour: int, x: int, y: int, size: int) -> tuple[str, tuple[int, int] | None] | None:
    if colour == 0:
        return None
    if colour not in (1, 2):
        raise lines.error(f"'{row.text.strip()[:40]}': colour {colour} is neither 1 (Black) nor 2 (White)", row)
    name = "B" if colour == 1 else "W"
    if x == y == size + 1:
        return name, None
    if not (1 <= x <= size and 1 <= y <= size):
        raise lines.error(f"'{row.text.strip()[:40]}': {x},{y} is not a point of the {size}x{size} board: expected "
                          f"a column and a row from 1 to {size} ({size + 1},{size + 1} a pass)", row)
    return name, (x - 1, size - y)


def _main_line(root: _Entry) -> list[_Entry]:
    """The main line (each node's first child that is not the start of a variation), from the root down."""
    out: list[_Entry] = []
    node = root
    while True:
        node.children.sort(key=lambda e: e.variation)  # the game's continuation first, then the variations
        if not node.children:
            return out
        node = node.children[0]
        out.append(node)


def _place(root: _Entry, main: list[_Entry], sgf: SgfText, placed: dict[int, SgfNode | None]) -> int:
    """Map the main line's entries to `sgf`'s main line and add every variation below the node it branches from;
    how many variations were added."""
    game = iter(sgf.main)
    at: SgfNode | None = None
    branches = [(child, at) for child in root.children[1:]]
    for entry in main:
        if entry.move is not None:
            at = next(game)
        placed[entry.number] = at  # a node without a move stands for the node before it
        branches.extend((child, at) for child in entry.children[1:])
    for child, parent in branches:
        _add(child, parent, sgf, placed)
    return len(branches)


def _add(entry: _Entry, parent: SgfNode | None, sgf: SgfText, placed: dict[int, SgfNode | None]) -> None:
    """Add the subtree of `entry` below `parent` (None: the root), its game's continuation first."""
    stack = [(entry, parent)]
    while stack:
        current, above = stack.pop()
        at = above
        if current.move is not None:
            at = move_node(current.move[0], current.move[1], current.line)
            (above.children if above is not None else sgf.first).append(at)
        placed[current.number] = at
        current.children.sort(key=lambda e: e.variation)
        stack.extend((child, at) for child in reversed(current.children))


def _comments(rows: list[Line]) -> dict[int, tuple[str, Line]]:
    out: dict[int, tuple[str, Line]] = {}
    number: int | None = None
    text: list[str] = []
    start: Line | None = None
    for row in [*rows, None]:
        m = _COMMENT.match(row.text.strip()) if row is not None else None
        if row is None or m is not None:
            if number is not None and start is not None and text:
                out[number] = ("\n".join(text), start)
            if row is None or m is None:
                break
            number, start, text = int(m.group(1)), row, []
            continue
        if number is not None:
            text.append(row.text.strip())
    return out


def _value(point: tuple[int, int] | None) -> str:
    from ..points import format_point

    return "" if point is None else format_point(point)
