"""`records convert`: record files of any format (SGF, Tygem GIB, WBaduk NGF, Pandanet UGF/UGI) written as SGF.

Each file is read as `verify` reads it (records/files.py), written in the canonical form to the name that
records/convert.py gives it (`.sgf` for Go, `.rec` for the other games), then read back and verified: a file whose
written records would not get the same verdicts as the file's own (the same verdict, result status and winner) is
not written, so what `convert` leaves behind always verifies as its input does. Nothing is overwritten without
`--force`. The rules engines load only when the command runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..records.formats import FORMAT_NAMES
from .common import EXIT_FAILED, EXIT_USAGE, CommandError, add_commands, note, print_json, run_settings
from .views.words import plural

if TYPE_CHECKING:
    from ..records.model import Record
    from ..verifier.judging.verdict import Verdict


@dataclass(slots=True)
class Converted:
    """What became of one input file: the file written (or None) and why not."""

    file: str
    output: str | None = None
    format: str | None = None  # the input's format: sgf, gib, ngf, ugf
    records: int = 0
    verdicts: list[str] | None = None
    error: str | None = None
    unopened: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "output": self.output, "format": self.format, "records": self.records,
                "verdicts": self.verdicts, "written": self.output is not None, "error": self.error}


def convert_command(
    paths: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Record files (.rec, .sgf, .gib, .ngf, "
                                                ".ugf, .ugi, or any name: the content decides) or folders to "
                                                "search.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The folder the SGF files are written to (made "
                                         "when missing).")],
    force: Annotated[bool, typer.Option("--force", help="Replace output files that exist.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per input file: its output, format, "
                                          "verdicts or error.")] = False,
) -> None:
    """Write records of any format as SGF (.sgf for Go, .rec for the other games) that verify reads back to the
    same verdict.

    A file that cannot be read, whose output exists (without --force), or whose written records would not verify
    as the file does, is reported and not written; the others are still converted.

    Exit status: 0 when every file was written, 1 when one was not, 2 when a path cannot be opened.
    """
    if output.exists() and not output.is_dir():
        raise CommandError(f"{output} is not a folder: -o names the folder the converted files go to")
    if output.is_symlink():
        raise CommandError(f"{output} is a symbolic link: not written through")
    done: list[Converted] = []
    taken: dict[Path, str] = {}
    for source, below in _inputs(paths):
        item = _convert_one(source, below, output, force, taken)
        done.append(item)
        if not as_json:
            if item.error is not None:
                note(f"error: {item.error}")
            else:
                shown = FORMAT_NAMES.get(item.format or "", item.format)
                note(f"{item.file} -> {item.output} ({plural(item.records, 'record')}, {shown}: "
                     f"{', '.join(item.verdicts or [])})")
    if as_json:
        print_json([c.to_json() for c in done])
    written = sum(1 for c in done if c.output is not None)
    if not done:
        raise CommandError("no record files found", EXIT_FAILED)
    if not as_json:
        note(f"converted {written} of {plural(len(done), 'file')} to {output}/")
    if any(c.unopened for c in done):
        raise typer.Exit(EXIT_USAGE)
    if written < len(done):
        raise typer.Exit(EXIT_FAILED)


def _inputs(paths: list[Path]) -> Iterator[tuple[Path | None, Path | None]]:
    """(file, the named folder it was found below or None) for every input; (None, path) for a path that cannot
    be opened."""
    from ..records.files import record_files
    from ..records.limits import STDIN

    for path in paths:
        if str(path) == STDIN:
            raise CommandError("convert reads files, not standard input: name the files")
        below = path if path.is_dir() else None
        for found, exists in record_files([path]):
            yield (found, below) if exists else (None, found)


def _convert_one(source: Path | None, below: Path | None, folder: Path, force: bool,
                 taken: dict[Path, str]) -> Converted:
    from ..records.convert import converted_bytes, output_path
    from ..records.files import FileFailure, read_records, why_unopened
    from ..records.model import FormatError
    from ..records.reader import read_bytes
    from .output_files import OutputError, write_file

    if source is None:  # `below` is the path that cannot be opened
        assert below is not None
        return Converted(str(below), error=why_unopened(below), unopened=True)
    name = str(source)
    read = read_records(name, settings=run_settings())
    if isinstance(read, FileFailure):
        return Converted(name, error=read.message, unopened=read.unopened)
    kind = read[0].file_format
    target = output_path(source, below, read, folder)
    item = Converted(name, format=kind, records=len(read))
    if target in taken:
        item.error = f"{name}: would be written to {target}, as {taken[target]} is: not converted (convert it on " \
                     "its own, or to another folder)"
        return item
    taken[target] = name
    before = [_verdict(r) for r in read]
    data = converted_bytes(read)
    try:
        again = read_bytes(data, str(target))
    except FormatError as exc:  # the writer's output must read: a failure here is a bug worth a clear line
        item.error = f"{name}: its SGF does not read back ({exc}): not written"
        return item
    after = [_verdict(r) for r in again]
    if len(after) != len(before) or any(_same(a) != _same(b) for a, b in zip(after, before, strict=False)):
        item.error = f"{name}: {_difference(before, after)}: not written"
        return item
    try:
        write_file(target, data, force=force)
    except OutputError as exc:
        item.error = f"{name}: {exc}"
        return item
    item.output = str(target)
    item.verdicts = [v.verdict.value for v in before]
    return item


def _verdict(record: Record) -> Verdict:
    from ..verifier.judging.verdict import verify

    return verify(record)


def _same(verdict: Verdict) -> tuple[object, ...]:
    """What the written record must keep: the verdict, the result's status, the winner, the moves replayed."""
    return (verdict.verdict, verdict.status, verdict.winner_colour, verdict.moves_replayed)


def _difference(before: list[Verdict], after: list[Verdict]) -> str:
    if len(before) != len(after):
        return f"the file holds {plural(len(before), 'record')}, its SGF {len(after)}"
    for number, (b, a) in enumerate(zip(before, after, strict=True), 1):
        if _same(a) != _same(b):
            why = next((p.message for p in b.errors if p.code not in {q.code for q in a.errors}), None)
            tail = f" (the file's {why})" if why else ""
            return (f"record {number} verifies as {b.verdict.value} ({b.status.value}), its SGF as "
                    f"{a.verdict.value} ({a.status.value}){tail}")
    return "the verdicts differ"  # pragma: no cover - only called when one does


def register(app: typer.Typer) -> None:
    """Add `convert` to the app."""
    add_commands(app, {"convert": convert_command})
