"""Verifying files for `records verify`, in this process or in worker processes (common/workers.py).

What a worker sends back is plain data: each record's `verify --json` object (the verdict's JSON form, which the
summary turns back into a Verdict), or the reason a file could not be read. Nothing of a record outlives its file,
so memory stays bounded by the largest file, not by the number of records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..common.memory import release_file
from ..common.settings import DEFAULTS, Settings
from ..records.files import FileFailure, read_records
from ..records.model import Record
from ..records.notation import Notation
from ..verifier.judging.verdict import verify


@dataclass(frozen=True, slots=True)
class Options:
    strict: bool = False
    variations: bool = False
    notation: Notation = Notation.CUSTOMARY
    require_complete: bool = False
    settings: Settings = DEFAULTS  # the limits of what is read, sent to the worker processes with the rest


Verified = dict[str, Any]  # one record's `verify --json` object: file, index, and the verdict's JSON form
Item = FileFailure | Verified


def verify_paths(paths: Sequence[tuple[str, Options]]) -> list[Item]:
    """Every record of every file, in order (one work unit of the worker pool)."""
    out: list[Item] = []
    for path, options in paths:
        out.extend(verify_file(path, options))
    return out


def verify_file(path: str, options: Options) -> list[Item]:
    records = read_records(path, strict=options.strict, settings=options.settings)
    if isinstance(records, FileFailure):
        return [records]
    out = verify_records(path, records, options)
    release_file(path)
    return out


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
