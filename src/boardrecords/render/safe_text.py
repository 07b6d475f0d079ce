"""Record text made safe for each place it is written to: a terminal, CSV, SVG/XML, HTML and JSON.

Record text (names, events, comments, file names, messages that quote a record) may hold anything a file holds:
escape sequences, other control characters, and bytes that were not valid in the record's charset (kept as lone
surrogates, U+DC80..U+DCFF). Every output passes it through the function for its destination:

- `terminal`: C0 controls (but the line feed), DEL and C1 controls are shown as the four visible characters
  `\\xNN` (ESC as `\\x1b`, CSI as `\\x9b`); an undecodable byte is shown the same way (`\\xff`), any other lone
  surrogate, and the bidi and zero-width format characters, as `\\uXXXX`. Nothing a record holds reaches the
  terminal as a control character.
- `xml_text` (SVG) and `html_text`: the same visible escapes (XML forbids most controls), then markup escaped.
- `csv_cell`: the visible escapes, and a cell a spreadsheet would evaluate as a formula (one that starts with
  `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`.
- `json_text`: JSON in which DEL, C1 controls and lone surrogates are `\\uXXXX` escapes (JSON escapes C0 itself).
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any

# C0 but LF, DEL, C1, lone surrogates, and the invisible format characters that reorder or hide text: the bidi
# marks, embeddings, overrides and isolates (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069), the zero-width
# characters (U+200B-U+200D, U+2060, U+FEFF): a name "Ann\u202eoG" must not show as another name.
_INVISIBLE = "\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff"
_UNSAFE = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff{_INVISIBLE}]")
_UNSAFE_WITH_LF = re.compile(f"[\x00-\x1f\x7f-\x9f\ud800-\udfff{_INVISIBLE}]")
_JSON_UNSAFE = re.compile("[\x7f-\x9f\ud800-\udfff\u2028\u2029]")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # a byte the record's charset could not decode (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def terminal(text: str, *, keep_newlines: bool = True) -> str:
    """Text for a terminal: control characters and undecodable bytes as visible `\\xNN` escapes."""
    pattern = _UNSAFE if keep_newlines else _UNSAFE_WITH_LF
    if text.isascii() and text.isprintable():
        return text
    return pattern.sub(_visible, text)


def plain(text: str) -> str:
    """One line of text with every control character (line feeds too) made visible."""
    return terminal(text, keep_newlines=False)


def xml_text(text: str, *, quote: bool = True) -> str:
    """Text for XML (SVG) character data or an attribute value: no control character, markup escaped."""
    return escape(terminal(text, keep_newlines=True), quote=quote)


def html_text(text: str, *, quote: bool = True) -> str:
    """Text for HTML: as for XML."""
    return xml_text(text, quote=quote)


def csv_cell(value: object) -> object:
    """A CSV cell: text with visible escapes, and never a formula a spreadsheet would evaluate."""
    if not isinstance(value, str):
        return value
    text = plain(value)
    if value.startswith(FORMULA_START) or text.startswith(FORMULA_START):
        return "'" + text
    return text


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_text(obj: Any, **kwargs: Any) -> str:
    """`json.dumps(obj, ensure_ascii=False, ...)` with no raw control character or lone surrogate in it."""
    text = json.dumps(obj, ensure_ascii=False, **kwargs)
    return _JSON_UNSAFE.sub(_json_escape, text)
