"""`records export`: records out of the archive, as their original bytes or in the writer's canonical form.

The original bytes are exactly the bytes of the record's game tree in the file it was imported from (what lies
between game trees in a collection is not part of any record). Several records written to one file or to standard
output are separated by one newline, which keeps the result a readable collection.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

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


def file_name(row: GameRow, *, canonical: bool = False) -> str:
    """`ID.sgf` for records imported from .sgf files, `ID.rec` otherwise (and for canonical output)."""
    source = (row.source_file or "").lower()
    return f"{row.id}{'.sgf' if source.endswith('.sgf') and not canonical else '.rec'}"


def is_folder_target(out: Path, raw: str | None = None) -> bool:
    """`-o` names a folder when it is one, or when it is written with a trailing slash."""
    text = raw if raw is not None else str(out)
    return out.is_dir() or text.endswith((os.sep, "/"))

