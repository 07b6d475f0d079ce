"""`records export`: records out of the archive, as their original bytes or in the writer's canonical form.

The original bytes are exactly the bytes of the record's game tree in the file it was imported from (what lies
between game trees in a collection is not part of any record). Several records written to one file or to standard
output are separated by one newline, which keeps the result a readable collection.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

from ...records.formats import SUFFIXES
from .models import GameRow
from .stored import parse_row

SEPARATOR = b"\n"


def canonical_bytes(rows: Sequence[GameRow]) -> bytes:
    """The records in the writer's canonical form (`records.writer.write`), one collection."""
    from ...records.writer import write  # the writer is optional until `--canonical` asks for it

    return write([parse_row(r) for r in rows])


def record_bytes(rows: Sequence[GameRow], *, canonical: bool = False) -> bytes:
    if canonical:
        return canonical_bytes(rows)
    return SEPARATOR.join(r.raw for r in rows)


# The suffixes an exported record's original bytes keep: a file of another format stays one (FMT-13).
KEPT_SUFFIXES = (".sgf", *SUFFIXES)


def file_name(row: GameRow, *, canonical: bool = False) -> str:
    """`ID.sgf` for records imported from .sgf files (`ID.gib`, `ID.ngf`... for the other formats, whose original
    bytes are theirs), `ID.rec` otherwise and for canonical output."""
    suffix = PurePath(row.source_file or "").suffix.lower()
    return f"{row.id}{suffix if suffix in KEPT_SUFFIXES and not canonical else '.rec'}"
