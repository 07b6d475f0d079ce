"""`records verify`: replay records through the rules engines and report every problem."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, cast

import typer

from ..records.files import record_files, why_unopened
from ..records.games import Game
from ..records.limits import read_input
from ..records.model import FormatError, Record
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
    outcomes = _Outcomes(as_json)
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
        pass  # printed as they came
    elif len(outcomes.kept) == 1:
        render_report(console, outcomes.kept[0])
    elif outcomes.kept:
        render_summary(console, outcomes.kept)
    else:
        console.print("No record files found.")

    if unopened:
        raise typer.Exit(EXIT_USAGE)
    if outcomes.failed or not outcomes.count:
        raise typer.Exit(EXIT_FAILED)


@dataclass(frozen=True, slots=True)
class _Summarised:
    """What the summary table needs of a record (`index`, `game`): the record itself is not kept for it."""

    index: int
    game: Game


class _Outcomes:
    """The outcomes of a run. With --json each is printed at once and not kept; otherwise the first keeps its
    record (a one-record run gets the full report) and, once there are two, every record gives way to what the
    summary shows of it, so that memory does not grow with the records of a large collection."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.kept: list[Outcome] = []
        self.count = 0
        self.failed = False

    def append(self, outcome: Outcome) -> None:
        self.count += 1
        if isinstance(outcome, FileFailure) or not outcome[2].passes:
            self.failed = True
        if self.as_json:
            typer.echo(_json_text(_json_line(outcome)))
            return
        self.kept.append(outcome)
        if len(self.kept) >= 2:
            for i in (0, -1) if len(self.kept) == 2 else (-1,):
                self.kept[i] = _summarised(self.kept[i])

    def extend(self, items: Iterable[Outcome]) -> None:
        for outcome in items:
            self.append(outcome)


def _summarised(outcome: Outcome) -> Outcome:
    if isinstance(outcome, FileFailure):
        return outcome
    file, record, verdict = outcome
    # render_summary reads only `index` and `game` of the record.
    return file, cast(Record, _Summarised(record.index, record.game)), verdict


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
