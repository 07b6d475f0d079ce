"""Reading records: bytes or a file in, a list of Records out (one per game tree of the collection)."""

from __future__ import annotations

from pathlib import Path

from .model import Record


def read_bytes(data: bytes, source: str | None = None, *, strict: bool = False) -> list[Record]:
    """Every record (game tree) in `data`, in file order.

    Lenient by default: oddities real files contain are read with a warning on the record's diagnostics;
    `strict=True` turns those warnings into errors. Raises FormatError (with file, line and column) when the data
    cannot be read as a collection at all.
    """
    raise NotImplementedError


def read_file(path: str | Path, *, strict: bool = False) -> list[Record]:
    """`read_bytes` of a file's contents, with the file's name in every message."""
    p = Path(path)
    return read_bytes(p.read_bytes(), str(p), strict=strict)
