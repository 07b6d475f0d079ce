"""`records verify`: replay records through the rules engines and report every problem."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..records.files import FileFailure, read_records, record_files, why_unopened
from ..records.model import Problem, Severity
from ..records.notation import Notation
from ..render.safe_text import json_text
from ..verifier.files import FileOutcome, Options, verify_records
from ..verifier.judging.status import VerdictClass
from .common import EXIT_FAILED, EXIT_USAGE, add_commands, make_console, run_settings
from .options import SgfPointsJsonOption, number
from .views.verdict_view import render_report, render_summary

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from ..records.model import Record

def verify_command(
    paths: Annotated[list[Path], typer.Argument(help="Record files (.rec, .sgf, .gib, .ngf, .ugf, .ugi), folders to "
                                                "search, or - (stdin).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per record (JSON Lines).")] = False,
    variations: Annotated[
        bool, typer.Option("--variations", help="Check every line of play, not only the main line.")
    ] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Read strictly: oddities real files contain are errors.")
    ] = False,
    require_complete: Annotated[
        bool, typer.Option("--require-complete", help="An unconfirmed result fails (GEN-8): for tournaments that "
                           "require complete records.")
    ] = False,
    workers: Annotated[int | None, typer.Option("--workers", "-j", help="Worker processes (1: none; default: one "
                                                "per CPU, at most 8; used from 100 files on).", **number(1, 64))
                       ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain output without colours.")] = False,
    sgf_points: SgfPointsJsonOption = False,
) -> None:
    """Verify records: every move's legality, the pie swap, the end of the game and the declared result.

    Every record gets one verdict: pass, invalid, wrong-result, unconfirmed (with --require-complete) or
    unreadable; its declared result one status: agrees, disagrees, unconfirmed, undeclared or kind-only (GEN-8).

    Exit status: 0 when every record passes, 1 when any does not, 2 when a path cannot be opened.
    """
    console = make_console(no_color=no_color)
    options = Options(strict, variations, Notation.SGF if sgf_points else Notation.CUSTOMARY, require_complete,
                      run_settings())
    files: list[str] = []
    missing: list[FileFailure] = []
    for path, exists in record_files(paths):
        if exists:
            files.append(str(path))
        else:
            missing.append(FileFailure(str(path), why_unopened(path), None, unopened=True))

    items: Iterable[FileOutcome]
    if len(files) == 1 and not missing:
        # One file is read here, once (it may be standard input); one record of it gets the full report.
        records = read_records(files[0], strict=options.strict, settings=options.settings)
        if not isinstance(records, FileFailure) and len(records) == 1 and not as_json:
            _report_one(console, files[0], records[0], options)
            return
        items = [records] if isinstance(records, FileFailure) else verify_records(files[0], records, options)
    else:
        from ..verifier.files import verify_found

        items = verify_found([(file, True) for file in files], workers=workers, strict=options.strict,
                             variations=options.variations, require_complete=options.require_complete,
                             notation=options.notation, settings=options.settings)
    kept: list[FileOutcome] = list(missing)
    failed = unopened = bool(missing)
    count = len(missing)
    with _progress(console, len(files), quiet or as_json) as advance:
        last_file = None
        for item in items:
            count += 1
            file = item.file
            if file != last_file:
                advance()
                last_file = file
            if isinstance(item, FileFailure):
                failed = True
                unopened = unopened or item.unopened
            elif item.verdict.verdict is not VerdictClass.PASS:
                failed = True
            if as_json:
                typer.echo(json_text(_json_line(item)))
            else:
                kept.append(item)
    if as_json:
        for item in missing:
            typer.echo(json_text(_json_line(item)))
    elif len(kept) == 1 and isinstance(kept[0], FileFailure):
        render_report(console, kept[0])
    elif kept:
        render_summary(console, kept)
    else:
        console.print("No record files found.")

    if unopened:
        raise typer.Exit(EXIT_USAGE)
    if failed or not count:
        raise typer.Exit(EXIT_FAILED)


def _report_one(console: Console, file: str, record: Record, options: Options) -> None:
    """The full report on one record, with a board excerpt from the same replay as the verdict."""
    from ..verifier.judging.analysis import analyse

    analysis = analyse(record, variations=options.variations, notation=options.notation,
                       require_complete=options.require_complete)
    render_report(console, (file, record, analysis.verdict), sgf_points=options.notation is Notation.SGF,
                  analysis=analysis)
    if not analysis.verdict.passes:
        raise typer.Exit(EXIT_FAILED)


class _progress:
    """A progress bar on a terminal (files done of files), nothing otherwise; `advance()` counts one file."""

    def __init__(self, console: Console, total: int, off: bool) -> None:
        self.console, self.total, self.off = console, total, off
        self.bar: Progress | None = None

    def __enter__(self) -> Callable[[], None]:
        console = self.console
        if self.off or self.total < 2 or not console.is_terminal:
            return lambda: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
                            TimeElapsedColumn(), console=console, transient=True)
        task = self.bar.add_task("verify", total=self.total)
        self.bar.start()
        bar = self.bar
        return lambda: bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _json_line(item: FileOutcome) -> dict[str, object]:
    if not isinstance(item, FileFailure):
        return item.to_json()
    err = item.error
    problem = err.problem() if err else Problem("unreadable", item.message, Severity.ERROR)
    return {"file": item.file, "index": None, "game": None, "verdict": VerdictClass.UNREADABLE.value,
            "valid": False, "passes": False, "winner": {"colour": None, "player": None},
            "result": {"declared": None, "computed": None, "status": None, "agrees": None},
            "problems": [problem.to_json()]}


def register(app: typer.Typer) -> None:
    """Add `verify` to the app."""
    add_commands(app, {"verify": verify_command})
