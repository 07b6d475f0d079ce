"""Charsets: which codec a record's `CA` names, and how values are decoded without losing a byte.

- `CA` present and known: honoured. Common spellings are mapped (`UTF-8`, `utf8`, `ISO-8859-1`, `ISO8859_1`,
  `Latin-1`, `ASCII`, `GB2312`, `Big5`, `Shift_JIS`, `EUC-KR`, ...); anything Python knows as an ASCII-compatible
  text codec is accepted too. A few legacy names are read with the codec that extends them (GB2312 with GB18030,
  Shift_JIS with CP932, EUC-KR with CP949, Big5 with Big5-HKSCS), which decodes every valid byte sequence of the
  named charset the same way and also reads the vendor extensions such files often contain.
- `CA` absent: UTF-8; when the record's bytes are not UTF-8, the charset they show as a charset detector (chardet)
  finds it, with a warning that names it (FMT-11); when the detector names a Western single-byte charset (or
  nothing) but every non-ASCII byte of the file is part of a pair that reads as Han characters in GB2312 or as
  Hangul in EUC-KR, that charset (a short CJK name in an ASCII file); ISO-8859-1 only when neither names a charset
  this reader can honour. UTF-8 and ASCII files never reach the detector.
- `CA` unknown (or a codec the syntax cannot be read in, such as UTF-16): a warning, then as if absent.
- A file written in UTF-16 (with a byte-order mark, or without one when its first characters show it) is read
  through its UTF-8 transcoding (FMT-3); the record keeps the file's own bytes (records/reader.py).
- Bytes that are not valid in the chosen codec are kept: they decode to lone surrogates (Python's
  "surrogateescape"), and encoding the value again with the same error handler gives the original bytes back.
"""

from __future__ import annotations

import codecs
import functools
import re
import warnings

DEFAULT = "utf-8"
FALLBACK = "iso-8859-1"
ERRORS = "surrogateescape"
BOM = b"\xef\xbb\xbf"
UTF16_BOMS = ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
_UTF16_LE_START = re.compile(rb"(?:[\t\n\r ]\x00)*\(\x00(?:[\t\n\r ]\x00)*[;A-Za-z]\x00")
_UTF16_BE_START = re.compile(rb"(?:\x00[\t\n\r ])*\x00\((?:\x00[\t\n\r ])*\x00[;A-Za-z]")

_ALIASES = {
    "utf8": "utf-8",
    "iso88591": "iso-8859-1",
    "iso885911987": "iso-8859-1",
    "latin1": "iso-8859-1",
    "latin": "iso-8859-1",
    "l1": "iso-8859-1",
    "ascii": "ascii",
    "usascii": "ascii",
    "ansix3.41968": "ascii",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb18030": "gb18030",
    "cp936": "gb18030",
    "euccn": "gb18030",
    "big5": "big5hkscs",
    "big5hkscs": "big5hkscs",
    "cp950": "cp950",
    "shiftjis": "cp932",
    "sjis": "cp932",
    "mskanji": "cp932",
    "cp932": "cp932",
    "windows31j": "cp932",
    "eucjp": "euc_jp",
    "euckr": "cp949",
    "ksc56011987": "cp949",
    "cp949": "cp949",
    "uhc": "cp949",
}
_NOT_SYNTAX_SAFE = ("utf-16", "utf-32", "utf-7", "utf_16", "utf_32", "utf_7")
_PROBE = b"(;)[]\\:ABZabz09 \t\r\n"
_ASCII_PROBE = bytes(range(128)) + b"\\u0041\\U00000041\\x41\\N{DIGIT ONE}\\101 xn--a-b +AGE-"


def _key(name: str) -> str:
    return re.sub(r"[^0-9a-z.]", "", name.strip().lower())


@functools.lru_cache(maxsize=256)
def codec_for(name: str) -> str | None:
    """The Python codec for a `CA` value, or None when it names no charset this reader can honour."""
    key = _key(name)
    if not key:
        return None
    if key in _ALIASES:
        return _ALIASES[key]
    try:
        info = codecs.lookup(name.strip())
    except (LookupError, ValueError, TypeError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name.startswith(_NOT_SYNTAX_SAFE):
        return None
    try:
        with warnings.catch_warnings():  # escape codecs warn about the probe's backslashes: they are refused below
            warnings.simplefilter("ignore")
            return _probe(info.name)
    except Exception:  # any failure of a codec (UnicodeError, LookupError, TypeError, ...) rules it out
        return None


def _probe(name: str) -> str | None:
    """`name` when it is a charset the syntax can be read in, else None; a codec may also raise."""
    # The syntax is read on bytes: only codecs that keep ASCII as ASCII can be honoured. A charset decodes every
    # ASCII byte (backslash sequences included) to itself, and any byte at all with surrogateescape: that also
    # turns away codecs that are transformations rather than charsets (unicode_escape, raw_unicode_escape,
    # idna, punycode...).
    if _PROBE.decode(name) != _PROBE.decode("ascii"):
        return None
    if _ASCII_PROBE.decode(name, ERRORS) != _ASCII_PROBE.decode("ascii"):
        return None
    bytes(range(256)).decode(name, ERRORS)
    return name


class Decoder:
    """Decodes the values of one record: escapes resolved, then the record's codec.

    `declared` says whether the codec was named by `CA` (invalid bytes are then kept with a warning) or is the
    UTF-8 default (invalid bytes then mean the record is read again as ISO-8859-1: see `NeedsFallback`).
    """

    __slots__ = ("bad_offset", "codec", "declared")

    def __init__(self, codec: str, declared: bool) -> None:
        self.codec = codec
        self.declared = declared
        self.bad_offset: int | None = None  # where the first undecodable byte was found

    def bad_bytes(self, raw: bytes, offset: int) -> str:
        """The value of `raw`, which failed to decode strictly; `offset` is where it stands in the file."""
        try:
            raw.decode(self.codec)
        except UnicodeDecodeError as err:
            offset += err.start  # the first byte that is not valid (exact unless escapes came before it)
        if not self.declared:
            raise NeedsFallback(offset)
        if self.bad_offset is None:
            self.bad_offset = offset
        return raw.decode(self.codec, ERRORS)


class NeedsFallback(Exception):
    """A record without `CA` whose bytes are not UTF-8: it is read again as ISO-8859-1. Outside the exception
    family on purpose: the reader catches it itself to read again; it never reaches a user."""

    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


def encode_value(text: str) -> bytes:
    """UTF-8 bytes of a value; bytes kept from an undecodable source come back as they were."""
    try:
        return text.encode("utf-8", ERRORS)
    except UnicodeEncodeError:
        # Lone surrogates that did not come from reading (a value made in code): keep them representable.
        return text.encode("utf-8", "surrogatepass")


def utf16_codec(data: bytes) -> tuple[str, int] | None:
    """(codec, length of the byte-order mark) when the file is written in UTF-16 (FMT-3), else None.

    Without a byte-order mark the start decides: `(` and the `;` or property name after it (blanks allowed), each
    character with a zero byte beside it, as no file in an ASCII-compatible charset has.
    """
    for bom, codec in UTF16_BOMS:
        if data.startswith(bom):
            return codec, len(bom)
    if _UTF16_LE_START.match(data):
        return "utf-16-le", 0
    if _UTF16_BE_START.match(data):
        return "utf-16-be", 0
    return None


def detect_codec(data: bytes) -> str | None:
    """FMT-11: the charset bytes that are not UTF-8 show, as chardet finds it, if the syntax can be read in it.

    chardet rather than charset-normalizer: on records of a few hundred bytes with a handful of names in Shift_JIS,
    GB18030 or EUC-KR (what Asian servers write without `CA`), charset-normalizer named EUC-KR for all three and
    chardet each rightly (tests/records/test_format_charset.py holds such files).
    """
    import chardet  # loaded only for the rare file that needs it

    name = chardet.detect(data).get("encoding")
    found = codec_for(name) if name else None
    if found is None or found.startswith(_SINGLE_BYTE):
        # A name of a few CJK characters in a file of ASCII text (a move list, English comments) is too little
        # for the detector, which then names a Western charset (two GB2312 bytes read as `°×`): the file's
        # non-ASCII bytes, all of them, decide when they read as CJK text in GB2312 or EUC-KR.
        return cjk_codec(data) or found
    return found


# Single-byte charsets (the Western ones a detector falls back to): every byte is a character of its own.
_SINGLE_BYTE = ("cp125", "iso8859", "iso-8859", "latin", "mac-", "mac_", "ascii", "koi8")
_HIGH_RUNS = re.compile(rb"[\x80-\xff]+")
_HAN = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]+")
_HANGUL = re.compile("[\uac00-\ud7a3\u3130-\u318f\u3000-\u303f]+")
# GB2312 before EUC-KR: both code their characters as byte pairs of A1-FE, and the pairs of EUC-KR's Hangul
# syllables are Han characters in GB2312: such bytes are read as GB2312 (the detector tells the two apart once a
# file holds more of them); EUC-KR when only it reads them as Hangul (its letters, which GB2312 reads as kana).
_CJK_READINGS = (("gb18030", _HAN), ("cp949", _HANGUL))


def cjk_codec(data: bytes) -> str | None:
    """FMT-11: GB2312 (read as GB18030) or EUC-KR (as CP949) when every run of non-ASCII bytes of the file is made of
    byte pairs of A1-FE that read in that charset as Han characters (GB2312) or Hangul syllables (EUC-KR); else
    None. Text in a Western charset has lone accented letters, which are no such pairs."""
    runs = _HIGH_RUNS.findall(data)
    if not runs or any(len(run) % 2 or min(run) < 0xA1 or max(run) > 0xFE for run in runs):
        return None
    for codec, letters in _CJK_READINGS:
        try:
            if all(letters.fullmatch(run.decode(codec)) for run in runs):
                return codec
        except UnicodeDecodeError:
            continue
    return None

