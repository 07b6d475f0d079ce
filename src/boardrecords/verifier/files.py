"""Verifying record files: the one module of the verifier that reads files (through records/files.py); the rest of
the verifier judges records already read, and reads nothing.

`verify_files` reads and judges every record of the files and folders it is given, in this process or in worker
processes (common/workers.py), and yields each record's verdict in the files' order. Nothing of a record outlives
its file: a verdict's positions in the file are worked out as it is made (so it holds no part of the file), a file's
records are let go one by one as they are judged, and a large file's game trees are collected when it is done. Memory
stays bounded by the largest file, not by the number of records; what a worker sends back is the verdicts alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common.memory import release_file
from ..common.settings import DEFAULTS, Settings
from ..records.files import FileFailure, read_records, record_files, why_unopened
from ..records.model import Record
from ..records.notation import Notation
from .judging.verdict import Verdict, verify


@dataclass(frozen=True, slots=True)
class Options:
    """How the records are read and judged (the arguments of `verify_files` of the same names)."""

    strict: bool = False
    variations: bool = False
    notation: Notation = Notation.CUSTOMARY
    require_complete: bool = False
    settings: Settings = DEFAULTS  # the limits of what is read, sent to the worker processes with the rest


@dataclass(frozen=True, slots=True)
class RecordVerdict:
    """One record of a file and its verdict."""

    file: str
    index: int  # the record's place in its file, from 0
    verdict: Verdict
    file_format: str = "sgf"  # the format of its file (FMT-13, records/formats: `sgf`, `gib`, `ngf`, `ugf`)

    @property
    def passes(self) -> bool:
        """GEN-8: every move legal, the marks consistent, and the declared result not contradicted."""
        return self.verdict.passes

    def to_json(self) -> dict[str, Any]:
        """The record's `records verify --json` object: file, index, and the verdict's JSON form."""
        return {"file": self.file, "index": self.index, **self.verdict.to_json()}


# Modules a verdict loads on demand (the engines, the charset detector of FMT-11): a worker pool loads them once,
# before its workers are made.
LOADED_ON_DEMAND = ("chardet", *(f"{__package__}.rules.{name}" for name in
                                 ("go_ing", "conversion_go", "cation", "quentin", "squer")))

FileOutcome = RecordVerdict | FileFailure  # one record's verdict, or a file that could not be opened or read


def verify_files(paths: str | Path | Iterable[str | Path], *, workers: int | None = 1, strict: bool = False,
                 variations: bool = False, require_complete: bool = False,
                 notation: Notation = Notation.CUSTOMARY, settings: Settings = DEFAULTS) -> Iterator[FileOutcome]:
    """Every record of every file named, and of the record files below every folder named (records/files.py), judged.

    `paths` is one path or several. Yields one RecordVerdict per record, or a FileFailure for a file that could not
    be opened or read (`unopened` for a path that does not exist or cannot be opened), in the order of the paths and
    of the files found in a folder. `strict` reads strictly (oddities real files contain are errors), `variations`
    checks every line of play, `require_complete` fails a record whose result is unconfirmed (GEN-8), `notation`
    names the points of the messages; `settings` bound what is read (the file cap, the records of one file).

    `workers` is the number of processes to judge in (None: one per CPU, at most 8); worker processes start only
    from 100 files on. As with every use of multiprocessing, a script that asks for them runs its own work under
    `if __name__ == "__main__":`, because each worker imports the script again.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    yield from verify_found([(str(path), exists) for path, exists in record_files(paths)], workers=workers,
                            strict=strict, variations=variations, require_complete=require_complete,
                            notation=notation, settings=settings)


def verify_found(found: Sequence[tuple[str, bool]], *, workers: int | None = 1, strict: bool = False,
                 variations: bool = False, require_complete: bool = False,
                 notation: Notation = Notation.CUSTOMARY, settings: Settings = DEFAULTS) -> Iterator[FileOutcome]:
    """`verify_files` of the (path, exists) pairs `records.files.record_files` gave already (a caller that lists
    the files itself does not have the folders walked twice)."""
    from ..common.workers import default_workers, in_order

    options = Options(strict, variations, notation, require_complete, settings)
    # Verifying holds no connection nor lock a fork must not copy: the workers may be forked from this process.
    yield from in_order(verify_paths, [(path, exists, options) for path, exists in found],
                        workers=default_workers() if workers is None else workers, preload=__name__,
                        size_of=_size_of_item, also=LOADED_ON_DEMAND, fork_ok=True)


def _size_of_item(item: tuple[str, bool, Options]) -> int:
    from ..common.workers import file_size

    return file_size(item[0])


def verify_paths(paths: Sequence[tuple[str, bool, Options]]) -> list[FileOutcome]:
    """Every record of every file, in order (one unit of work of the worker pool); (path, exists, options)."""
    out: list[FileOutcome] = []
    for path, exists, options in paths:
        if exists:
            out.extend(verify_file(path, options))
        else:
            out.append(FileFailure(path, why_unopened(Path(path)), None, unopened=True))
    return out


def verify_file(path: str, options: Options) -> list[FileOutcome]:
    """Every record of one file, or why it cannot be read."""
    records = read_records(path, strict=options.strict, settings=options.settings)
    if isinstance(records, FileFailure):
        return [records]
    out: list[FileOutcome] = list(verify_records(path, records, options))
    release_file(path)
    return out


def verify_records(path: str, records: list[Record], options: Options) -> Iterator[RecordVerdict]:
    """The verdict on each record of a file read already; the list of records is emptied as they are judged."""
    records.reverse()
    while records:
        record = records.pop()  # let each record go once it is judged
        verdict = verify(record, variations=options.variations, notation=options.notation,
                         require_complete=options.require_complete)
        judged = RecordVerdict(path, record.index, _settled(verdict), record.file_format)
        record.let_go()  # freed now, by reference counting: the verdict holds nothing of it
        yield judged


def _settled(verdict: Verdict) -> Verdict:
    """The verdict with its problems' positions worked out: a position read from a file finds its line and column
    through the record's source when first asked, and so would keep the whole file alive. Worked out in place (a new
    problem for each was a twentieth of verifying the Go corpus)."""
    for problem in verdict.problems:
        pos = problem.pos
        if pos is not None:
            pos.settle()
    return verdict
