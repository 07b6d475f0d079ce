"""`records verify`: replay records through the rules engines and report every problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..records.files import record_files
from ..records.model import FormatError, Problem, Record, Severity
from ..records.notation import Notation
from ..records.reader import read_bytes
from ..verifier.analysis import analyse
from ..verifier.status import VerdictClass
from ..verifier.verdict import verify
from .console import SgfPointsOption, make_console
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
    require_complete: Annotated[
        bool, typer.Option("--require-complete", help="An unconfirmed result fails (GEN-8): for tournaments that "
                           "require complete records.")
    ] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain output without colours.")] = False,
    sgf_points: SgfPointsOption = False,
) -> None:
    """Verify records: every move's legality, the pie swap, the end of the game and the declared result.

    Every record gets one verdict: pass, invalid, wrong-result, unconfirmed (with --require-complete) or
    unreadable; its declared result one status: agrees, disagrees, unconfirmed, undeclared or kind-only (GEN-8).

    Exit status: 0 when every record passes, 1 when any does not, 2 when a path cannot be opened.
    """
    console = make_console(no_color=no_color)
    read: list[FileFailure | tuple[str, Record]] = []
    unopened = False
    for path, exists in record_files(paths):
        if not exists:
            unopened = True
            read.append(FileFailure(str(path), f"{path}: no such file or folder", None))
            continue
        try:
            data = path.read_bytes()
        except OSError as err:
            unopened = True
            read.append(FileFailure(str(path), f"{path}: cannot be opened: {err.strerror or err}", None))
            continue
        try:
            records = read_bytes(data, str(path), strict=strict)
        except FormatError as err:
            read.append(FileFailure(str(path), err.describe(), err))
            continue
        if not records:
            read.append(FileFailure(str(path), f"{path}: holds no game record", None))
            continue
        read.extend((str(path), record) for record in records)

    notation = Notation.SGF if sgf_points else Notation.CUSTOMARY
    if len(read) == 1 and not as_json and not isinstance(read[0], FileFailure):
        # One record: a full report, whose board excerpt comes from the same replay as the verdict.
        file, record = read[0]
        analysis = analyse(record, variations=variations, notation=notation, require_complete=require_complete)
        outcomes: list[Outcome] = [(file, record, analysis.verdict)]
        render_report(console, outcomes[0], sgf_points=sgf_points, analysis=analysis)
    else:
        outcomes = [item if isinstance(item, FileFailure) else
                    (item[0], item[1], verify(item[1], variations=variations, notation=notation,
                                              require_complete=require_complete))
                    for item in read]

    if as_json:
        for outcome in outcomes:
            typer.echo(_json_text(_json_line(outcome)))
    elif len(outcomes) == 1:
        if isinstance(outcomes[0], FileFailure):
            render_report(console, outcomes[0], sgf_points=sgf_points)
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
    """JSON as UTF-8; text that kept undecodable bytes (surrogate escapes) is written with \\u escapes instead."""
    text = json.dumps(obj, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj)
    return text


def _json_line(outcome: Outcome) -> dict[str, object]:
    if isinstance(outcome, FileFailure):
        err = outcome.error
        problem = (err.problem() if err else Problem("unreadable", outcome.message, Severity.ERROR)).to_json()
        return {"file": outcome.file, "index": None, "game": None, "verdict": VerdictClass.UNREADABLE.value,
                "valid": False, "passes": False, "winner": {"colour": None, "player": None},
                "result": {"declared": None, "computed": None, "status": None, "agrees": None},
                "problems": [problem]}
    file, record, verdict = outcome
    return {"file": file, "index": record.index, **verdict.to_json()}


def register(app: typer.Typer) -> None:
    """Add `verify` to the app."""
    app.command("verify")(verify_command)
