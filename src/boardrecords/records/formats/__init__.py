"""Go records in the other file formats that servers write (FMT-13): Tygem's `.gib` (`gib.py`), WBaduk's and
Cyberoro's `.ngf` (`ngf.py`), Pandanet's `.ugf` and `.ugi` (`ugf.py`), with what they share in `common.py`.

`recognise` names the format of a file by its content (a `.gib` renamed `.txt` is still a GIB file), and by its name
only when the content shows none; `convert` turns such a file into the same game written as SGF, which the SGF
reader then reads (records/reader.py), so that every record has one model whatever its file's format.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePath

from . import gib, ngf, ugf
from .common import BOM, Converted

SUFFIXES = (".gib", ".ngf", ".ugf", ".ugi")
_CONVERTERS: dict[str, Callable[[bytes, str | None], Converted]] = {
    "gib": gib.convert, "ngf": ngf.convert, "ugf": ugf.convert, "ugi": ugf.convert}
# Every format a record file can be in, by the short name `Record.file_format` holds, with how people name it:
# the order in which counts of files per format are shown.
FORMAT_NAMES = {"sgf": "SGF", "gib": "GIB", "ngf": "NGF", "ugf": "UGF"}
_HEAD = 8192  # the start of a file that recognition reads
_FIRST_LINES = re.compile(rb"\r\n|\r|\n")


def recognise(data: bytes, source: str | None = None) -> str | None:
    """`gib`, `ngf` or `ugf` when `data` is a file of that format; None for SGF (or anything else: the SGF reader
    says what it is not). The content decides first; the file's suffix only when the content shows no format."""
    head = data[:_HEAD]
    start = head[len(BOM):] if head.startswith(BOM) else head
    if start.lstrip().startswith(b"("):
        return None
    if gib.sniff(start):
        return "gib"
    if ugf.sniff(start):
        return "ugf"
    if ngf.sniff(_FIRST_LINES.split(start, 14)):
        return "ngf"
    suffix = PurePath(source).suffix.lower() if source else ""
    if suffix in SUFFIXES and not re.search(rb"\(\s*;", head):
        return "ugf" if suffix == ".ugi" else suffix[1:]
    return None


def convert(data: bytes, source: str | None = None) -> Converted | None:
    """The file as SGF text when it is in one of these formats (FormatError when it is and cannot be read), else
    None."""
    found = recognise(data, source)
    if found is None:
        return None
    converted = _CONVERTERS[found](data, source)
    converted.kind = found
    return converted


__all__ = ["FORMAT_NAMES", "SUFFIXES", "Converted", "convert", "recognise"]
