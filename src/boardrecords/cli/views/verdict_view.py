"""How verdicts look in a terminal: a full report for one record, a summary table for many."""

from __future__ import annotations

import os
from collections import Counter
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...records.files import FileFailure
from ...records.games import SPECS, short_name
from ...records.model import Record, Severity
from ...records.notation import PointNames, names_for
from ...records.points import parse_point
from ...render.ending import ending
from ...render.safe_text import plain as shown
from ...verifier.files import FileOutcome
from ...verifier.judging.status import ResultStatus, VerdictClass
from ...verifier.judging.verdict import Verdict
from .layout import Column, fit, write_fitted
from .words import formats_line, status_word, totals_line, verdict_word

if TYPE_CHECKING:
    from ...verifier.judging.analysis import Analysis

Outcome = FileFailure | tuple[str, Record, Verdict]  # a file that did not read, or one record and its verdict


def render_report(console: Console, outcome: Outcome, *, sgf_points: bool = False,
                  analysis: Analysis | None = None) -> None:
    """The full report on one record; points in the game's customary notation, or SGF letters (GEN-10). With the
    record's analysis, a board excerpt shows the position before the first illegal move."""
    if isinstance(outcome, FileFailure):
        console.print(verdict_word(VerdictClass.UNREADABLE) + Text(" ") + Text(shown(outcome.message)))
        return
    file, record, verdict = outcome
    spec = SPECS[record.game]
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold", no_wrap=True)
    head.add_column(overflow="fold")
    head.add_row("File", Text(shown(file) + (f" (record {record.index + 1})" if record.index else "")))
    game = f"{spec.title}, {record.size}x{record.size}" if record.unknown_game is None else \
        f"GM[{shown(record.unknown_game)}]: not one of the five games"
    head.add_row("Game", Text(game))
    head.add_row("Verdict", Text.assemble(verdict_word(verdict.verdict), f": {verdict.verdict.meaning}"))
    head.add_row("Black", Text(shown(_player(record.black, verdict.black_player, verdict.swapped, "Black"))))
    head.add_row("White", Text(shown(_player(record.white, verdict.white_player, verdict.swapped, "White"))))
    for label, value in (("Event", record.event), ("Round", record.round),
                         ("Date", record.date.raw if record.date else None), ("Place", record.place)):
        if value:
            head.add_row(label, Text(shown(value)))
    head.add_row("Moves", Text(f"{verdict.moves_replayed} of {verdict.moves_total} replayed"))
    head.add_row("End", Text(shown(ending(verdict))))
    declared = verdict.declared.raw if verdict.declared and verdict.declared.raw else "(none)"
    result = Text(shown(f"declared {declared}, replay shows {verdict.computed}: ")) + status_word(verdict.status)
    head.add_row("Result", result)
    if verdict.score is not None:
        s = verdict.score
        head.add_row("Score", Text(f"Black {s.black:g}, White {s.white:g}, komi {s.komi:g}"))
    if verdict.result_note:
        head.add_row("Note", Text(shown(verdict.result_note)))
    parts: list[object] = [head]
    names = names_for(record.game, record.size, sgf_points)
    if verdict.problems:
        parts.append(_problem_table(verdict, names))
    excerpt = _excerpt(analysis)
    if excerpt is not None:
        parts.append(excerpt)
    title = Text.assemble(verdict_word(verdict.verdict), " ", Text(shown(file)))
    console.print(Panel(Group(*parts), title=title, title_align="left"))  # type: ignore[arg-type]


def _player(start: str | None, now: str | None, swapped: bool, colour: str) -> str:
    start = start or "(unnamed)"
    if swapped and now != start:
        return f"{start} at the start; {now or '(unnamed)'} after the swap"
    return start


def _point_text(point: str | None, names: PointNames) -> str:
    """A problem's point (SGF letters) as the report names it."""
    p = parse_point(point) if point else None
    return names(p) if p is not None else point or ""


def _problem_table(verdict: Verdict, names: PointNames) -> Table:
    table = Table(title="Problems", title_justify="left", expand=False)
    for col in ("", "move", "point", "rule", "where", "problem"):
        table.add_column(col, overflow="fold")
    for p in verdict.problems:
        sev = Text("error", style="red") if p.severity is Severity.ERROR else Text("warning", style="yellow")
        where = f"{p.pos.line}:{p.pos.column}" if p.pos else ""
        table.add_row(sev, str(p.move or ""), _point_text(p.point, names), Text(shown(p.rule or "")), where,
                      Text(shown(p.message)))
    return table


def _excerpt(analysis: Analysis | None) -> object | None:
    """A small board around the first illegal move, as the position stood before it (from the analysis' replay)."""
    if analysis is None:
        return None
    step = analysis.illegal_step
    if step is None or step.board is None:
        return None
    record = analysis.record
    point = step.move.point
    if point is None or not (0 <= point[0] < record.size and 0 <= point[1] < record.size):
        return None
    from .boards import board_excerpt

    return Panel(board_excerpt(record, step.board, point, names=analysis.points), title=f"before move {step.number}",
                 expand=False)



def render_summary(console: Console, outcomes: list[FileOutcome]) -> None:
    """One line per record, then the first problem of each record that does not pass, then totals."""
    base = _common_folder([o.file for o in outcomes])
    rows: list[list[Text]] = []
    notes: list[Text] = []
    classes: Counter[VerdictClass] = Counter()
    statuses: Counter[ResultStatus] = Counter()
    formats: dict[str, str] = {}  # the format of each file read (FMT-13), by file
    # The cells most rows share (a verdict, a status, a game's name) made once: the table only reads its cells.
    words: dict[tuple[type, object], Text] = {}

    def word(key: VerdictClass | ResultStatus | str | None) -> Text:
        # Keyed with the type: a verdict and a status can be one word (`unconfirmed`) in two colours.
        made = words.get((type(key), key))
        if made is None:
            made = words[type(key), key] = (verdict_word(key) if isinstance(key, VerdictClass) else status_word(key)
                                 if isinstance(key, ResultStatus) else Text(short_name(key)))
        return made

    for outcome in outcomes:
        if isinstance(outcome, FileFailure):
            classes[VerdictClass.UNREADABLE] += 1
            name = shown(_relative(outcome.file, base))
            rule = (outcome.error.rule if outcome.error else None) or ""
            rows.append([Text(name), Text(""), Text(""), verdict_word(VerdictClass.UNREADABLE), Text(""), Text(rule)])
            notes.append(Text.assemble((name, "bold"), ": ", shown(outcome.message)))
            continue
        formats.setdefault(outcome.file, outcome.file_format)
        verdict = outcome.verdict
        index = outcome.index
        name = shown(_relative(outcome.file, base)) + (f" #{index + 1}" if index else "")
        classes[verdict.verdict] += 1
        statuses[verdict.status] += 1
        first = verdict.first_error
        short = ""
        if first is not None:
            short = " ".join(x for x in (f"move {first.move}" if first.move else "", first.rule or "") if x)
            notes.append(Text.assemble((name, "bold"), ": ", f"move {first.move}: " if first.move else "",
                                       shown(first.message), f" [{shown(first.rule)}]" if first.rule else ""))
        elif verdict.status in (ResultStatus.DISAGREES, ResultStatus.UNCONFIRMED):
            short = "GEN-8"
            if not verdict.passes:
                notes.append(Text.assemble((name, "bold"), ": ", shown(verdict.result_note or "the result disagrees")))
        rows.append([Text(name), word(verdict.game), Text(str(verdict.moves_total)), word(verdict.verdict),
                     word(verdict.status), Text(short)])
    # The file name (and `#N`) stays whole where the width allows: the path is shortened from the left.
    names = max((cell_len(r[0].plain.rsplit("/", 1)[-1]) + 2 for r in rows), default=6)
    columns = [Column("record", shorten=True, path=True, least=min(names, 32)), Column("game", drop=3),
               Column("moves", justify="right", drop=4), Column("verdict"), Column("result", drop=2),
               Column("problem", drop=1, shorten=True, least=13)]
    layout = fit(columns, rows, console.width)
    # The rows as plain lines (thousands of records cost what printing lines costs), laid out as the other tables.
    console.print(Text(f"Verification of {shown(base or '.')}", style="table.title"))
    write_fitted(console, columns, layout, rows)
    for note in notes:
        console.print(note)
    if len(formats) > 1:  # files of a folder: how many of each format were read (one file's format says nothing)
        console.print(Text(formats_line(Counter(formats.values()))))
    console.print(totals_line(classes, statuses))


def _common_folder(files: list[str]) -> str:
    parents = [os.path.dirname(f) for f in files]
    try:
        return os.path.commonpath(parents) if parents else ""
    except ValueError:  # a mix of absolute and relative paths
        return ""


def _relative(file: str, base: str) -> str:
    if not base:
        return file
    # Every file lies below the common folder: its name past the folder is the relative path (relpath's work,
    # without its normalising of both paths, which was a twentieth of the summary of thousands of records).
    prefix = base if base.endswith(os.sep) else base + os.sep
    return file[len(prefix):] if file.startswith(prefix) else os.path.relpath(file, base)
