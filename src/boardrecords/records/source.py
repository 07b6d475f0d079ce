"""Source positions: byte offsets turned into line and column only when somebody asks.

A file is read as bytes; positions are kept as byte offsets. `SourceText` finds the line starts of a file as far
as the positions asked for need (then a bisection per position) and `RecordSource` adds the record's charset, so
that a column counts characters, not bytes.

Line breaks are those SGF knows: CR LF, LF CR, a lone CR and a lone LF each end one line (`\\n\\r` is one break,
as the SGF specification lists it among the line-break styles).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from .grammar import NODE_MARKS, scan_node_offsets
from .model import Node

LINE_BREAK = re.compile(rb"\r\n|\n\r|\r|\n")


class SourceText:
    """The bytes of one file and where its lines start, found as far as the positions asked for need."""

    __slots__ = ("_breaks", "_starts", "data", "name")

    def __init__(self, data: bytes, name: str | None = None) -> None:
        self.data = data
        self.name = name
        self._starts = [0]
        self._breaks: Iterator[re.Match[bytes]] | None = None  # the line breaks not yet in `_starts`

    def _lines_to(self, offset: int) -> list[int]:
        """The line starts, known at least up to the first beyond `offset`. Most positions asked for are in a
        record's header, near the start of its file, so the rest of a long file is seldom scanned."""
        starts = self._starts
        if starts[-1] <= offset:
            breaks = self._breaks
            if breaks is None:
                breaks = self._breaks = LINE_BREAK.finditer(self.data, starts[-1])
            for m in breaks:
                starts.append(m.end())
                if m.end() > offset:
                    break
        return starts

    def line_col(self, offset: int, encoding: str = "utf-8") -> tuple[int, int]:
        """1-based line and column (in characters of `encoding`) of a byte offset."""
        offset = max(0, min(offset, len(self.data)))
        starts = self._lines_to(offset)
        index = bisect_right(starts, offset) - 1
        prefix = self.data[starts[index]:offset]
        try:
            column = len(prefix.decode(encoding, "surrogateescape"))
        except (LookupError, UnicodeError):  # pragma: no cover - encodings are checked before use
            column = len(prefix)
        return index + 1, column + 1


class MappedText(SourceText):
    """The SGF text a file of another format becomes (FMT-13), whose lines stand for lines of that file:
    `lines[k]` is the file's line of the text's line k + 1 (formats/common.py, SgfText)."""

    __slots__ = ("lines",)

    def __init__(self, data: bytes, name: str | None, lines: list[int]) -> None:
        super().__init__(data, name)
        self.lines = lines

    def line_col(self, offset: int, encoding: str = "utf-8") -> tuple[int, int]:
        line, column = super().line_col(offset, encoding)
        lines = self.lines
        return (lines[line - 1] if 0 < line <= len(lines) else (lines[-1] if lines else line)), column


class RecordSource:
    """The source of one record: the file's text, the record's charset (for columns in characters), and where
    its game tree stands (for finding its nodes' positions)."""

    __slots__ = ("_node_offsets", "_walk", "encoding", "end", "root", "root_offset", "start", "text")

    def __init__(self, text: SourceText, encoding: str, start: int = 0) -> None:
        self.text = text
        self.encoding = encoding
        self.start = start  # the tree's `(`
        self.end = len(text.data)  # just after the tree's `)`, once it is known
        self.root: Node | None = None
        # Set when the root has no `;` (FMT-3): the offset that stands for it, just before its first property.
        self.root_offset: int | None = None
        self._node_offsets: dict[int, int] = {}
        self._walk: Iterator[None] | None = None

    def node_offset(self, node: Node) -> int:
        """Where a node's `;` stands. Nodes keep no offset: the k-th node of the tree in source order (a
        depth-first walk) is at the k-th `;` outside values. The walk goes only as far as the node asked for
        and resumes from there: most questions are about the root (header problems), which costs one step."""
        offsets = self._node_offsets
        key = id(node)
        if key not in offsets and self.root is not None:
            if self._walk is None:
                self._walk = self._find_offsets()
            for _ in self._walk:
                if key in offsets:
                    break
        return offsets.get(key, self.start)

    def let_go(self) -> None:
        """Forget the tree (Record.let_go): the offsets found, the walk under way, the root."""
        self.root = None
        self._walk = None
        self._node_offsets = {}

    def _find_offsets(self) -> Iterator[None]:
        """Record the next node's offset at each step."""
        assert self.root is not None
        out = self._node_offsets
        stack = [self.root]
        if self.root_offset is not None:
            out[id(self.root)] = self.root_offset
            stack = list(reversed(self.root.children))
        for m in NODE_MARKS.finditer(self.text.data, self.start, self.end):
            if m.lastindex is not None:  # a value: its `;` are text
                continue
            if not stack:
                return
            node = stack.pop()
            out[id(node)] = m.start()
            stack.extend(reversed(node.children))
            yield None

    def line_col(self, offset: int) -> tuple[int, int]:
        return self.text.line_col(offset, self.encoding)

    def scan_node(self, offset: int) -> dict[str, tuple[int, list[int]]]:
        """The properties of the node whose `;` is at `offset`: identifier -> (its offset, its values' offsets)."""
        return scan_node_offsets(self.text.data, offset)
