"""`records verify`: replay records through the rules engines and report every problem."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..records.files import record_files, why_unopened
from ..records.limits import read_input
from ..records.model import FormatError
from ..records.reader import read_bytes
from ..verifier.verdict import verify
from .console import make_console
from .safe_text import json_text
from .verdict_view import FileFailure, Outcome, render_report, render_summary

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def verify_command(
    paths: Annotated[list[Path], typer.Argument(help="Record files (.rec, .sgf) or folders to search.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per record (JSON Lines).")] = False,
    variations: Annotated[
        bool, typer.Option("--variations", help="Check every line of play, not only the main line.")
    ] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Read strictly: oddities real files contain are errors.")
    ] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain output without colours.")] = False,
) -> None:
    """Verify records: every move's legality, the pie swap, the end of the game and the declared result.

    Exit status: 0 when every record passes, 1 when any does not, 2 when a path cannot be opened.
    """
    console = make_console(no_color=no_color)
    outcomes: list[Outcome] = []
    unopened = False
    for path, exists in record_files(paths):
        if not exists:
            unopened = True
            outcomes.append(FileFailure(str(path), why_unopened(path), None))
            continue
        try:
            data = read_input(path)
        except OSError as err:
            unopened = True
            outcomes.append(FileFailure(str(path), f"{path}: cannot be opened: {err.strerror or err}", None))
            continue
        try:
            records = read_bytes(data, str(path), strict=strict)
            if not records:
                outcomes.append(FileFailure(str(path), f"{path}: holds no game record", None))
                continue
            outcomes.extend((str(path), record, verify(record, variations=variations)) for record in records)
        except FormatError as err:
            outcomes.append(FileFailure(str(path), err.describe(), err))
        except (RecursionError, MemoryError, ValueError, LookupError, TypeError, ArithmeticError) as err:
            # The reader promises FormatError only; a failure it did not foresee costs this file, not the run.
            outcomes.append(FileFailure(str(path), f"{path}: cannot be read: {type(err).__name__}: {err}", None))

    if as_json:
        for outcome in outcomes:
            typer.echo(_json_text(_json_line(outcome)))
    elif len(outcomes) == 1:
        render_report(console, outcomes[0])
    elif outcomes:
        render_summary(console, outcomes)
    else:
        console.print("No record files found.")

    if unopened:
        raise typer.Exit(EXIT_USAGE)
    failed = any(isinstance(o, FileFailure) or not o[2].passes for o in outcomes)
    if failed or not outcomes:
        raise typer.Exit(EXIT_FAILED)


def _json_text(obj: dict[str, object]) -> str:
    """JSON as UTF-8; control characters and undecodable bytes (surrogate escapes) are written as \\u escapes."""
    return json_text(obj)


def _json_line(outcome: Outcome) -> dict[str, object]:
    if isinstance(outcome, FileFailure):
        err = outcome.error
        problem = {
            "code": err.code if err else "unreadable",
            "severity": "error",
            "move": None,
            "point": None,
            "rule": "FORMAT:syntax" if err else None,
            "message": err.message if err else outcome.message,
            "line": err.pos.line if err and err.pos else None,
            "column": err.pos.column if err and err.pos else None,
        }
        return {"file": outcome.file, "index": None, "game": None, "valid": False, "passes": False,
                "winner": {"colour": None, "player": None},
                "result": {"declared": None, "computed": None, "agrees": None},
                "problems": [problem]}
    file, record, verdict = outcome
    return {"file": file, "index": record.index, **verdict.to_json()}


def register(app: typer.Typer) -> None:
    """Add `verify` to the app."""
    app.command("verify")(verify_command)
