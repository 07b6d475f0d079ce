"""What the readers of other formats share: the file's lines in its charset, the SGF text they build, ranks in
SGF's spelling, handicap stones where the Korean servers place them, and the errors and warnings they give.

A reader turns a file into the same game written as SGF (`SgfText`) and lets the SGF reader make the Record of it,
so that a record read from a `.gib` is what the same game written as `.sgf` gives. Each property and move of that
text is put on the line of the file it was read from, so that every position the SGF reader and the verifier report
(a move's line, a header value's line) points into the file the user has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..charset import FALLBACK, codec_for, detect_codec
from ..grammar import escape
from ..model import FormatError, Repair, SourcePos
from ..points import format_point

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
BOM = b"\xef\xbb\xbf"
RULE = "FMT-13"

# (code, message, line, rule, repair): a problem found while reading the file, made a Problem on the record; a value
# read by a server's habit says what it was and what it became.
Note = tuple[str, str, int, str, Repair | None]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the file: its 1-based number, the byte offset where it starts, and its text (no line break)."""

    number: int
    offset: int
    text: str


@dataclass(slots=True)
class Converted:
    """A file of another format as SGF text, with what reading it found."""

    sgf: bytes
    format: str  # how people name the format: `Tygem GIB`, `WBaduk NGF`, `Pandanet UGF`
    codec: str  # the charset the file was decoded in
    detected: bool  # the file names no charset and is not UTF-8: the codec is the one its bytes show
    notes: list[Note] = field(default_factory=list)
    kind: str = ""  # the format's short name, as `recognise` gives it: `gib`, `ngf`, `ugf`
    lines: list[int] = field(default_factory=list)  # the file's line of each line of `sgf` (SgfText.lines)


class Lines:
    """A file's lines decoded in its charset (FMT-11): UTF-8 when the bytes are UTF-8, else the charset the file
    declares (when it can name one), else the charset the bytes show (chardet), with a warning that names it."""

    def __init__(self, data: bytes, source: str | None, declared: str | None = None) -> None:
        self.source = source
        self.notes: list[Note] = []
        self.detected = False  # the charset was found by the detector (the reader's FMT-11 warning names it)
        body = data[len(BOM):] if data.startswith(BOM) else data
        start = len(data) - len(body)
        self.codec = self._codec(body, declared)
        self.lines: list[Line] = []
        pos = start
        number = 1
        for m in _LINE_BREAK.finditer(data, start):
            self.lines.append(Line(number, pos, data[pos:m.start()].decode(self.codec, "surrogateescape")))
            pos = m.end()
            number += 1
        if pos < len(data):
            self.lines.append(Line(number, pos, data[pos:].decode(self.codec, "surrogateescape")))
        self.end_line = self.lines[-1].number if self.lines else 1  # the last line of the file

    def _codec(self, body: bytes, declared: str | None) -> str:
        try:
            body.decode("utf-8")
            return "utf-8"
        except UnicodeDecodeError:
            pass
        named = codec_for(declared) if declared else None
        if named is not None and _decodes(body, named):
            return named
        found = detect_codec(body)
        self.detected = True
        return found if found is not None and _decodes(body, found) else FALLBACK

    def error(self, message: str, line: Line | int | None) -> FormatError:
        """A FormatError naming the file and the line (FMT-5, FMT-13)."""
        if isinstance(line, Line):
            pos = SourcePos(line.number, 1, line.offset)
        elif line is not None:
            pos = SourcePos(line, 1, self.lines[line - 1].offset if 0 < line <= len(self.lines) else -1)
        else:
            pos = None
        return FormatError(message, pos, self.source, "syntax", RULE)

    def warn(self, code: str, message: str, line: Line | int, repair: Repair | None = None) -> None:
        self.notes.append((code, message, line.number if isinstance(line, Line) else line, RULE, repair))


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


@dataclass(slots=True)
class SgfNode:
    """One node of the game the text holds: its properties, the line of the file it was read from, its children
    (the first the main line)."""

    props: list[tuple[str, list[str]]]
    line: int
    children: list[SgfNode] = field(default_factory=list)


class SgfText:
    """The SGF text of one game, each property and node placed on the line of the file it was read from.

    The root's properties come first (in the order of their lines, each on its line or after the last one written),
    then the nodes: the main line, and the variations a file holds (a `.ugi`'s review). Where the order of SGF
    cannot follow the file's lines (a variation read from a section after the moves, a comment written at the end
    of the file), the text goes on on a line of its own, and `lines` (set by `text()`) says which line of the file
    each line of the text stands for, so that every position reported points into the file the user has.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.root: list[tuple[str, list[str], int]] = []
        self.first: list[SgfNode] = []  # the root's children
        self.main: list[SgfNode] = []  # the main line's nodes, in order
        self.lines: list[int] = []

    def put(self, ident: str, value: str | list[str], line: Line | int) -> None:
        """A root property (a later value of the same property replaces it)."""
        values = [value] if isinstance(value, str) else value
        number = line.number if isinstance(line, Line) else line
        self.root = [p for p in self.root if p[0] != ident]
        self.root.append((ident, values, number))

    def has(self, ident: str) -> bool:
        return any(p[0] == ident for p in self.root)

    def move(self, colour: str, point: tuple[int, int] | None, line: Line | int) -> SgfNode:
        """A move at the end of the main line: a point (column, row from the top, 0-based), or None for a pass."""
        node = move_node(colour, point, line)
        (self.main[-1].children if self.main else self.first).append(node)
        self.main.append(node)
        return node

    def text(self) -> bytes:
        out: list[str] = []
        lines = [1]  # lines[k]: the file's line that line k + 1 of the text stands for

        def at(number: int) -> None:
            if number > lines[-1]:
                out.append("\n" * (number - lines[-1]))
                lines.extend(range(lines[-1] + 1, number + 1))
            elif number < lines[-1]:  # the file's order goes back: a line of its own
                out.append("\n")
                lines.append(number)

        def emit(text: str) -> None:
            out.append(text)
            lines.extend([lines[-1]] * text.count("\n"))

        first = min((p[2] for p in self.root), default=1)
        at(first)
        emit(f"(;GM[1]SZ[{self.size}]")
        for ident, values, number in sorted(self.root, key=lambda p: p[2]):  # a line never goes back
            at(number)
            emit(_props([(ident, values)]))
        stack: list[SgfNode | str] = [")"]
        stack.extend(_branches(self.first))
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                emit(item)
                continue
            at(item.line)
            emit(";" + _props(item.props))
            stack.extend(_branches(item.children))
        emit("\n")
        self.lines = lines
        return "".join(out).encode("utf-8", "surrogateescape")


def move_node(colour: str, point: tuple[int, int] | None, line: Line | int) -> SgfNode:
    """A node holding one move: a point (column, row from the top, 0-based), or None for a pass."""
    value = "" if point is None else format_point(point)
    return SgfNode([(colour, [value])], line.number if isinstance(line, Line) else line)


def _props(props: list[tuple[str, list[str]]]) -> str:
    return "".join(ident + "".join(f"[{escape(v)}]" for v in values) for ident, values in props)


def _branches(children: list[SgfNode]) -> list[SgfNode | str]:
    """What the stack of `SgfText.text` holds for a node's children: one child continues the sequence; several
    are variations, each in parentheses, the first the main line (the stack pops from the end)."""
    if len(children) == 1:
        return [children[0]]
    items: list[SgfNode | str] = []
    for child in reversed(children):
        items.extend((")", child, "("))
    return items


# -- ranks ---------------------------------------------------------------------------------------------------------

_RANK = re.compile(r"^\s*(\d{1,2})\s*-?\s*(dan|kyu|kyu\.?|[dkpDKP]|DP|dp|段|级|級|단|급)(?:\s*pro)?\s*[*?]?\s*$",
                   re.IGNORECASE)
_UNITS = {"d": "d", "dan": "d", "段": "d", "단": "d", "k": "k", "kyu": "k", "kyu.": "k", "级": "k", "級": "k",
          "급": "k", "p": "p", "dp": "p"}


_NUMERALS = {"初": 1, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_DIGIT = "[一二三四五六七八九]"
_NUMERAL_RANK = re.compile(rf"^\s*(初|十{_DIGIT}?|{_DIGIT}十?{_DIGIT}?)\s*(段|级|級)\s*$")


def sgf_rank(raw: str) -> str | None:
    """A rank in SGF's spelling (`9p`, `7d`, `15k`) from the ways servers write it (`7D`, `15K`, `9DP`, `9-dan`,
    `9段`, `9단`, `3급`, and in Chinese and Japanese numerals: `初段` the first dan, `五段`, `十五级`); None when it is
    none of those (the raw text is then kept as it is)."""
    numeral = _NUMERAL_RANK.match(raw)
    if numeral is not None:
        digits = numeral.group(1)
        if "十" in digits:
            tens, _, ones = digits.partition("十")
            value = (_NUMERALS[tens] if tens else 1) * 10 + (_NUMERALS[ones] if ones else 0)
        else:
            value = _NUMERALS[digits]
        return f"{value}{_UNITS[numeral.group(2)]}"
    m = _RANK.match(raw)
    if m is None:
        return None
    return f"{int(m.group(1))}{_UNITS[m.group(2).lower()]}"


def rank_text(raw: str) -> str:
    return sgf_rank(raw) or raw.strip()


# -- handicap stones -------------------------------------------------------------------------------------------------

def korean_handicap(size: int, count: int) -> list[tuple[int, int]]:
    """Where Tygem and WBaduk place `count` handicap stones on a `size` board (their files do not list them):
    the star points, first the lower left and upper right corners, then the upper left (three stones), the lower
    right, the centre for five and seven, the sides' middles. (The order of Sabaki's `tygem` placement, which
    puts the third stone in the upper left where other servers put it in the lower right.)"""
    if size <= 6 or count < 2:
        return []
    near = 3 if size >= 13 else 2
    far = size - near - 1
    middle = (size - 1) // 2
    points = [(near, far), (far, near), (near, near), (far, far)]
    if size % 2 == 1 and size != 7:
        if count == 5:
            points.append((middle, middle))
        points += [(near, middle), (far, middle)]
        if count == 7:
            points.append((middle, middle))
        points += [(middle, near), (middle, far), (middle, middle)]
    return points[:count]


def number(text: str) -> int | None:
    text = text.strip()
    return int(text) if re.fullmatch(r"[+-]?\d+", text) else None


def show_points(points: list[tuple[int, int]]) -> str:
    return ", ".join(format_point(p) for p in points)
