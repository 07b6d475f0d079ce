"""Verifying files for `records verify`, in this process or in worker processes (common/workers.py).

What a worker sends back is plain data: each record's `verify --json` object (the verdict's JSON form, which the
summary turns back into a Verdict), or the reason a file could not be read. Nothing of a record outlives its file,
so memory stays bounded by the largest file, not by the number of records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..records.limits import read_input
from ..records.model import FormatError, Record
from ..records.notation import Notation
from ..records.reader import read_bytes
from ..verifier.verdict import verify


@dataclass(frozen=True, slots=True)
class Options:
    strict: bool = False
    variations: bool = False
    notation: Notation = Notation.CUSTOMARY
    require_complete: bool = False


@dataclass(frozen=True, slots=True)
class FileFailure:
    """A file that could not be opened or read: it still gets a line in the report."""

    file: str
    message: str
    error: FormatError | None
    unopened: bool = False  # the path could not be opened at all (exit status 2)


Verified = dict[str, Any]  # one record's `verify --json` object: file, index, and the verdict's JSON form
Item = FileFailure | Verified


def verify_paths(paths: Sequence[tuple[str, Options]]) -> list[Item]:
    """Every record of every file, in order (one work unit of the worker pool)."""
    out: list[Item] = []
    for path, options in paths:
        out.extend(verify_file(path, options))
    return out


def read_records(path: str, options: Options) -> list[Record] | FileFailure:
    """The records of one file, or why it cannot be read."""
    try:
        data = read_input(Path(path))
    except OSError as err:
        return FileFailure(path, f"{path}: cannot be opened: {err.strerror or err}", None, unopened=True)
    try:
        records = read_bytes(data, path, strict=options.strict)
    except FormatError as err:
        return FileFailure(path, err.describe(), err)
    except (RecursionError, MemoryError, ValueError, LookupError, TypeError, ArithmeticError) as err:
        # The reader promises FormatError only; a failure it did not foresee costs this file, not the run.
        return FileFailure(path, f"{path}: cannot be read: {type(err).__name__}: {err}", None)
    return records or FileFailure(path, f"{path}: holds no game record", None)


def verify_file(path: str, options: Options) -> list[Item]:
    records = read_records(path, options)
    return [records] if isinstance(records, FileFailure) else verify_records(path, records, options)


def verify_records(path: str, records: list[Record], options: Options) -> list[Item]:
    """Each record's `verify --json` object; the list of records is emptied as they are judged."""
    out: list[Item] = []
    records.reverse()
    while records:
        record = records.pop()  # let each record go once it is judged
        verdict = verify(record, variations=options.variations, notation=options.notation,
                         require_complete=options.require_complete)
        out.append({"file": path, "index": record.index, **verdict.to_json()})
    return out
