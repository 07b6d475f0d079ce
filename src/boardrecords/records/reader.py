"""Reading records: bytes or a file in, a list of Records out (one per game tree of the collection)."""

from __future__ import annotations

import gc
import re
from collections.abc import Callable
from pathlib import Path

from ..common.settings import DEFAULT_MAX_RECORDS, DEFAULTS, ENV_MAX_RECORDS, Settings
from .charset import (
    BOM,
    DEFAULT,
    FALLBACK,
    Decoder,
    NeedsFallback,
    codec_for,
    detect_codec,
    utf16_codec,
)
from .dialects import read_dialects
from .formats import Converted, convert
from .games import Game, game_from_gm
from .grammar import Note, ParsedTree, parse_tree, scan_root, show_byte
from .limits import read_input
from .model import (
    FormatError,
    Locator,
    Node,
    Problem,
    Property,
    Record,
    Setup,
    Severity,
    SourcePos,
    source_of,
)
from .properties import (
    RecordMoves,
    move_table,
    read_date,
    read_handicap,
    read_komi,
    read_result,
    read_size,
)
from .setup_stones import collect_setup
from .source import MappedText, RecordSource, SourceText

# A game tree: `(` then `;`, or `(` then the root's first property without its `;` (FMT-3, the Nihon Ki-in's files).
_TREE_START = re.compile(rb"\(\s*(?:;|[A-Za-z]+\s*\[)")
_EMPTY_TREES = re.compile(rb"(?:\(\s*\)\s*)+")
_SETUP = ("AB", "AW", "AE", "PL")
# What the reader says of a record's place in its file rather than of its own bytes (`raw`): the notes of what
# stands before it (the file's encoding, a byte-order mark, text before the first game tree) and after it (up to
# the next game tree). Read back from `raw` alone, a record has none of them.
NOTES_BEFORE = frozenset({"utf-16", "bom", "junk-before"})
NOTES_AFTER = frozenset({"junk-after", "extra-paren", "empty-tree"})
TOO_MANY_RECORDS = "too-many-records"  # the code of the FormatError of a file past `max_records`


def read_bytes(data: bytes, source: str | None = None, *, strict: bool = False,
               max_records: int | None = DEFAULT_MAX_RECORDS) -> list[Record]:
    """Every record (game tree) in `data`, in file order.

    Lenient by default: oddities real files contain are read with a warning on the record's diagnostics;
    `strict=True` turns those warnings into errors. Raises FormatError (with file, line and column) when the data
    cannot be read as a collection at all, or when it holds more than `max_records` game records (None: no
    limit).
    """
    if not isinstance(data, bytes):
        data = bytes(data)
    # The parser makes many small objects and no garbage: the cyclic collector would only rescan them.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        converted = convert(data, source)  # FMT-13: a Tygem, WBaduk or Pandanet file, read as the SGF it makes
        if converted is not None:
            return _ConvertedReader(data, converted, source, strict, max_records).read()
        utf16 = utf16_codec(data)
        if utf16 is not None:
            return _Utf16Reader(data, utf16[0], utf16[1], source, strict, max_records).read()
        return _Reader(data, source, strict, max_records).read()
    except RecursionError as err:  # pragma: no cover - everything is iterative; kept as a last guard
        raise FormatError("the data is nested too deeply to read", None, source) from err
    finally:
        if was_enabled:
            gc.enable()


def read_file(path: str | Path, *, strict: bool = False, settings: Settings = DEFAULTS) -> list[Record]:
    """`read_bytes` of a file's contents, with the file's name in every message (within the limits of
    `settings`)."""
    p = Path(path)
    return read_bytes(read_input(p, settings.max_file_size), str(p), strict=strict, max_records=settings.max_records)


class _Reader:
    # A reader of a file read through a transcoding says so: the codec its values are in, whatever CA says.
    forced_codec: str | None = None

    def __init__(self, data: bytes, source: str | None, strict: bool, max_records: int | None) -> None:
        self.data = data
        self.max_records = max_records
        self.source = source
        self.strict = strict
        self.text = SourceText(data, source)
        self.detected: str | None = None  # FMT-11: the charset the file's bytes show, found once per file

    def raw(self, start: int, end: int) -> bytes:
        """The file's own bytes of the record at data[start:end] (what the archive keeps)."""
        return self.data[start:end]

    @property
    def file_encoding(self) -> str | None:
        return None

    def detect(self) -> str:
        if self.detected is None:
            self.detected = detect_codec(self.data) or FALLBACK
        return self.detected

    def error(self, src: RecordSource | None, code: str = "syntax"):
        text = self.text
        encoding = src.encoding if src is not None else DEFAULT

        def make(message: str, offset: int) -> FormatError:
            line, col = text.line_col(offset, encoding)
            return FormatError(message, SourcePos(line, col, offset), self.source, code)

        return make

    def read(self) -> list[Record]:
        data = self.data
        pos = 0
        notes: list[Note] = []
        if data.startswith(BOM):
            pos = len(BOM)
            notes.append(("bom", "the file starts with a UTF-8 byte-order mark (skipped)", 0, Severity.WARNING,
                          "FMT-3"))
        m = _TREE_START.search(data, pos)
        if m is None:
            make = self.error(None, "no-game")
            if not data[pos:].strip():
                raise make("the data is empty: expected a game tree '(;'", pos)
            first = re.compile(rb"\s*").match(data, pos).end()  # type: ignore[union-attr]
            raise make(f"no game tree: expected '(;', found {show_byte(data, first)}", first)
        notes.extend(_outside(data, pos, m.start(), before=True))
        records: list[Record] = []
        start = m.start()
        most = self.max_records
        while True:
            if most is not None and len(records) >= most:
                # Raised before the next tree is parsed: a file of many records is not read whole to be refused.
                raise self.error(None, TOO_MANY_RECORDS)(
                    f"more than {most:,} game records in one file (set {ENV_MAX_RECORDS} to read more)", start)
            record, end = self.tree(start, len(records), notes)
            records.append(record)
            m = _TREE_START.search(data, end)
            stop = m.start() if m is not None else len(data)
            record.diagnostics.extend(_diagnostics(_outside(data, end, stop, before=False), record))
            if self.strict:
                self.refuse_warnings(record)
            if m is None:
                return records
            notes = []
            start = m.start()

    def tree(self, start: int, index: int, notes: list[Note]) -> tuple[Record, int]:
        data = self.data
        raw_root = scan_root(data, start)
        ca_values = raw_root.get("CA")
        codec = self.forced_codec
        if codec is None and ca_values:
            codec = codec_for(ca_values[0].decode("ascii", "replace"))
        declared = codec is not None
        if codec is None:
            codec = DEFAULT
        game, size = _game_and_size(raw_root, codec)
        src = RecordSource(self.text, codec, start)
        decoder = Decoder(codec, declared)
        tree_notes: list[Note] = list(notes)
        fallback_at: int | None = None
        try:
            tree = parse_tree(data, start, src, decoder, RecordMoves(move_table(game, size), decoder, src),
                              tree_notes, self.error(src))
        except NeedsFallback as signal:
            # No CA and not UTF-8: the whole record is read again in the charset its bytes show (FMT-11).
            fallback_at = signal.offset
            codec = self.detect()
            src = RecordSource(self.text, codec, start)
            decoder = Decoder(codec, True)
            tree_notes = list(notes)
            tree = parse_tree(data, start, src, decoder, RecordMoves(move_table(game, size), decoder, src),
                              tree_notes, self.error(src))
        src.root = tree.root
        src.end = tree.end
        record = self.build(tree, start, index, game, size, src, tree_notes)
        self.charset_notes(record, src, ca_values, declared, decoder, fallback_at)
        return record, tree.end

    def build(self, tree: ParsedTree, start: int, index: int, game: Game, size: int, src: RecordSource,
              notes: list[Note]) -> Record:
        root = tree.root
        props = root.properties
        record = Record(root=root, game=game, size=size, raw=self.raw(start, tree.end),
                        encoding=self.file_encoding or src.encoding, source=self.source, index=index)
        record.start = self.text.line_col(start, src.encoding)
        diags = record.diagnostics
        diags.extend(_note_problem(note, src) for note in notes)

        gm = props.get("GM")
        if gm is not None and game_from_gm(gm.value) is None:
            record.unknown_game = gm.value
            diags.append(Problem("unknown-game", f"GM[{gm.value}] is not one of the five games (Go GM[1], "
                                 "ConversionGo, Cation, Quentin, Squer): the record is not verified", Severity.ERROR,
                                 "FMT-6", pos=gm.pos))
        sz = props.get("SZ")
        _, problem = read_size(game, sz.value if sz is not None else None)
        if problem is not None:
            diags.append(problem.at(sz.pos if sz is not None else root.pos))

        record.black = _text(props, "PB")
        record.white = _text(props, "PW")
        record.black_rank = _text(props, "BR")
        record.white_rank = _text(props, "WR")
        record.event = _text(props, "EV")
        record.round = _text(props, "RO")
        record.place = _text(props, "PC")
        record.name = _text(props, "GN")
        record.rules = _text(props, "RU")
        # The Nihon Ki-in's files (a root without `;`, FMT-3) give the date as RD and the event as TE.
        nihon_kiin = src.root_offset is not None
        if nihon_kiin and record.event is None:
            record.event = _text(props, "TE")
        for ident, reader in (("DT", read_date), ("RE", read_result), ("HA", read_handicap)):
            prop = props.get(ident)
            if prop is None and ident == "DT" and nihon_kiin:
                prop = props.get("RD")
            if prop is None:
                continue
            value, problem = reader(prop.value)
            if ident == "DT":
                record.date = value  # type: ignore[assignment]
            elif ident == "RE":
                record.result = value  # type: ignore[assignment]
            else:
                record.handicap = value  # type: ignore[assignment]
            if problem is not None:
                diags.append(problem.at(prop.pos))
        km = props.get("KM")
        if km is not None:
            record.komi, problem = read_komi(km.value, game)
            if problem is not None:
                diags.append(problem.at(km.pos))

        if root.move is not None:
            prop = props.get(root.move.colour.value)
            diags.append(Problem("move-in-root", f"the root node holds a move ({root.move}); moves belong in "
                                 "the nodes after the root, so it is not played", Severity.ERROR, "FMT-4",
                                 pos=prop.pos if prop else root.pos))
        if game is Game.GO:
            # Setup points off the board, and a PL that is not B or W (ING-8), are reported when reading.
            if _has_setup(root):
                record.setup, problems = collect_setup(record)
                diags.extend(problems)
            else:
                record.setup = Setup()
        else:
            found = _first_setup(root)
            if found is not None:
                diags.append(Problem("setup-not-go", f"setup ({found.ident}) is only for Go records",
                                     Severity.ERROR, "FMT-10", pos=found.pos))
        read_dialects(record)  # FMT-14: values some servers write in their own way
        return record

    def charset_notes(self, record: Record, src: RecordSource, ca_values: list[bytes] | None, declared: bool,
                      decoder: Decoder, fallback_at: int | None) -> None:
        diags = record.diagnostics
        ca = record.root.properties.get("CA")
        used = charset_name(src.encoding)
        if ca_values and not declared:
            diags.append(Problem("charset-unknown", f"CA[{ca.value if ca else ''}] names no charset this reader "
                                 f"knows; read as {used}", Severity.WARNING, "FMT-11", pos=ca.pos if ca else None))
        if fallback_at is not None:
            how = "no charset fits better" if src.encoding == FALLBACK else "the charset they show (detected)"
            diags.append(Problem("charset-fallback", "the record has no usable CA and its bytes are not UTF-8; "
                                 f"read as {used}, {how}", Severity.WARNING, "FMT-11",
                                 pos=SourcePos.lazy(fallback_at, src)))
        if decoder.bad_offset is not None:
            diags.append(Problem("charset-invalid", f"bytes that are not valid {src.encoding} are kept as they "
                                 "are (shown as escapes; the writer gives them back)", Severity.WARNING, "FMT-11",
                                 pos=SourcePos.lazy(decoder.bad_offset, src)))

    def refuse_warnings(self, record: Record) -> None:
        warnings = [d for d in record.diagnostics if d.severity is Severity.WARNING]
        if not warnings:
            return
        first = min(warnings, key=lambda d: d.pos.offset if d.pos is not None else -1)
        raise FormatError(f"{first.message} (not allowed when reading strictly)", first.pos, self.source, first.code,
                          first.rule)


class _Utf16Reader(_Reader):
    """FMT-3: a file written in UTF-16, read through its UTF-8 transcoding; each record keeps the file's bytes."""

    forced_codec = "utf-8"

    def __init__(self, data: bytes, codec: str, bom: int, source: str | None, strict: bool,
                 max_records: int | None) -> None:
        self.original = data
        self.codec = codec
        self.bom = bom
        try:
            self.chars = data[bom:].decode(codec, "surrogatepass")
            self.damaged = False
        except UnicodeDecodeError:  # an odd length or broken pairs: shown as U+FFFD, the record's bytes kept
            self.chars = data[bom:].decode(codec, "replace")
            self.damaged = True
        super().__init__(self.chars.encode("utf-8", "surrogatepass"), source, strict, max_records)

    @property
    def file_encoding(self) -> str | None:
        return self.codec

    def raw(self, start: int, end: int) -> bytes:
        return self.original[self.file_offset(start):self.file_offset(end)]

    def file_offset(self, offset: int) -> int:
        """The file's byte offset of the transcoding's byte offset `offset`."""
        chars = len(self.data[:offset].decode("utf-8", "surrogatepass"))
        return self.bom + len(self.chars[:chars].encode(self.codec, "surrogatepass"))

    def read(self) -> list[Record]:
        records = super().read()
        order = "LE" if self.codec.endswith("le") else "BE"
        mark = "with a byte-order mark" if self.bom else "without a byte-order mark (its bytes show it)"
        note = f"the file is written in UTF-16 {order}, {mark}; read as such"
        if self.damaged:
            note += "; bytes that are not valid UTF-16 are shown as \ufffd (the record keeps the file's bytes)"
        records[0].diagnostics.insert(0, Problem("utf-16", note, Severity.WARNING, "FMT-3",
                                                 pos=SourcePos(1, 1, 0)))
        return records


class _ConvertedReader(_Reader):
    """FMT-13: a file of another format read through the SGF text it converts to; the record keeps the file's bytes
    and charset, and carries what the conversion found (the values read by a server's habit, FMT-13)."""

    forced_codec = "utf-8"

    def __init__(self, original: bytes, converted: Converted, source: str | None, strict: bool,
                 max_records: int | None) -> None:
        self.original = original
        self.converted = converted
        super().__init__(converted.sgf, source, strict, max_records)
        if converted.lines:
            self.text = MappedText(converted.sgf, source, converted.lines)

    @property
    def file_encoding(self) -> str | None:
        return self.converted.codec

    def raw(self, start: int, end: int) -> bytes:
        return self.original

    def read(self) -> list[Record]:
        records = super().read()
        found = self.converted
        notes = [Problem(code, message, Severity.WARNING, rule, pos=SourcePos(line, 1, -1), repair=repair)
                 for code, message, line, rule, repair in sorted(found.notes, key=lambda n: n[2])]
        if found.detected:
            how = "no charset fits better" if found.codec == FALLBACK else "the charset they show (detected)"
            notes.insert(0, Problem("charset-fallback", f"the {found.format} file names no charset and its bytes "
                                    f"are not UTF-8; read as {charset_name(found.codec)}, {how}", Severity.WARNING,
                                    "FMT-11", pos=SourcePos(1, 1, 0)))
        for record in records:
            record.file_format = found.kind
            record.start = (1, 1)  # its bytes are the whole file, read back the same way
            record.diagnostics[:0] = notes
            if self.strict:
                self.refuse_warnings(record)
        return records


def charset_name(codec: str) -> str:
    """How a warning names a codec: as people write charsets (`GB18030`, `Shift_JIS`, `ISO-8859-1`)."""
    return _CHARSET_NAMES.get(codec, codec.upper().replace("_", "-"))


_CHARSET_NAMES = {"cp932": "Shift_JIS (CP932)", "cp949": "EUC-KR (CP949)", "big5hkscs": "Big5-HKSCS",
                  "euc_jp": "EUC-JP", "iso-8859-1": "ISO-8859-1", "utf-8": "UTF-8", "gb18030": "GB18030",
                  **{f"cp125{i}": f"Windows-125{i}" for i in range(9)}}


def _game_and_size(raw_root: dict[str, list[bytes]], codec: str) -> tuple[Game, int]:
    gm = raw_root.get("GM")
    game = Game.GO
    if gm:
        game = game_from_gm(gm[0].decode(codec, "surrogateescape")) or Game.GO
    sz = raw_root.get("SZ")
    size, _ = read_size(game, sz[0].decode(codec, "surrogateescape") if sz else None)
    return game, size


def _text(props: dict[str, Property], ident: str) -> str | None:
    prop = props.get(ident)
    if prop is None or not prop.values or prop.values[0] == "":
        return None
    return prop.values[0]


def _has_setup(root: Node) -> bool:
    """Whether the root or a node before the first move holds setup (nodes read as plain moves hold none)."""
    node: Node | None = root
    while node is not None:
        props = node.extra_properties
        if props and any(ident in props for ident in _SETUP):
            return True
        if node.move is not None and node is not root:
            return False
        node = node.children[0] if node.children else None
    return False


def _first_setup(root: Node) -> Property | None:
    """The first setup property anywhere in the tree (nodes holding only a plain move are skipped unread)."""
    stack = [root]
    while stack:
        node = stack.pop()
        while True:  # down the first line of play, the other lines kept for later (in order: preorder)
            props = node.extra_properties
            if props:
                for ident in _SETUP:
                    if ident in props:
                        return props[ident]
            children = node.children
            if not children:
                break
            if len(children) > 1:
                stack.extend(reversed(children[1:]))
            node = children[0]
    return None


def _outside(data: bytes, start: int, stop: int, *, before: bool) -> list[Note]:
    """Warnings for what stands between game trees (or before the first, or after the last)."""
    region = data[start:stop]
    stripped = region.strip()
    if not stripped:
        return []
    offset = start + (len(region) - len(region.lstrip()))
    if not before and not stripped.strip(b") \t\r\n\f\v"):
        count = stripped.count(b")")
        return [("extra-paren", f"{count} extra ')' after the game tree (ignored)", offset, Severity.WARNING, "FMT-3")]
    if _EMPTY_TREES.fullmatch(stripped):
        count = stripped.count(b"(")
        return [("empty-tree", f"{count} empty game tree{'s' if count > 1 else ''} '()' skipped", offset,
                 Severity.WARNING, "FMT-3")]
    excerpt = stripped[:40].decode("utf-8", "replace").replace("\r", " ").replace("\n", " ")
    if len(stripped) > 40:
        excerpt += "..."
    if before:
        return [("junk-before", f"text before the first game tree is ignored: {excerpt!r}", offset,
                 Severity.WARNING, "FMT-3")]
    return [("junk-after", f"text after the game tree is ignored: {excerpt!r}", offset, Severity.WARNING, "FMT-3")]


def _diagnostics(notes: list[Note], record: Record) -> list[Problem]:
    src = source_of(record.root)
    return [_note_problem(note, src) for note in notes]


def _note_problem(note: Note, src: Locator | None) -> Problem:
    code, message, off, severity, rule = note[:5]
    return Problem(code, message, severity, rule, pos=_pos(off, src) if src is not None else None,
                   repair=note[5] if len(note) > 5 else None)


def _pos(where: int | Callable[[], int], src: Locator) -> SourcePos:
    return SourcePos.lazy(where, src) if isinstance(where, int) else SourcePos.deferred(where, src)
