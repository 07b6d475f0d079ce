"""How verdicts look in a terminal: a full report for one record, a summary table for many."""

from __future__ import annotations

import os
from dataclasses import dataclass

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..records.games import SPECS, Game
from ..records.model import FormatError, Record, Severity
from ..verifier.replay import replay
from ..verifier.verdict import Verdict
from .safe_text import plain as shown


@dataclass(frozen=True, slots=True)
class FileFailure:
    """A file that could not be opened or read: it still gets a line in the report."""

    file: str
    message: str
    error: FormatError | None


Outcome = FileFailure | tuple[str, Record, Verdict]


def _status(verdict: Verdict) -> Text:
    if verdict.passes:
        return Text("PASS", style="bold green")
    if verdict.valid:
        return Text("RESULT", style="bold yellow")
    return Text("FAIL", style="bold red")


def _agree_text(verdict: Verdict) -> Text:
    if verdict.agrees is None:
        return Text("not declared", style="dim")
    if verdict.agrees:
        return Text("agrees" if verdict.result_checked else "agrees (kind only)", style="green")
    return Text("disagrees", style="red")


def render_report(console: Console, outcome: Outcome) -> None:
    """The full report on one record."""
    if isinstance(outcome, FileFailure):
        console.print(Text("FAIL ", style="bold red") + Text(shown(outcome.message)))
        return
    file, record, verdict = outcome
    spec = SPECS[record.game]
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold", no_wrap=True)
    head.add_column(overflow="fold")
    head.add_row("File", Text(shown(file) + (f" (record {record.index + 1})" if record.index else "")))
    head.add_row("Game", Text(f"{spec.title}, {record.size}x{record.size}"))
    head.add_row("Black", Text(shown(_player(record.black, verdict.black_player, verdict.swapped, "Black"))))
    head.add_row("White", Text(shown(_player(record.white, verdict.white_player, verdict.swapped, "White"))))
    for label, value in (("Event", record.event), ("Round", record.round),
                         ("Date", record.date.raw if record.date else None), ("Place", record.place)):
        if value:
            head.add_row(label, Text(shown(value)))
    head.add_row("Moves", Text(f"{verdict.moves_replayed} of {verdict.moves_total} replayed"))
    if not verdict.replayed:
        end = "not replayed: the header has errors"
    else:
        end = verdict.end or "replay stopped at an illegal move"
    head.add_row("End", Text(end))
    declared = verdict.declared.raw if verdict.declared and verdict.declared.raw else "(none)"
    result = Text(shown(f"declared {declared}, replay shows {verdict.computed}: ")) + _agree_text(verdict)
    head.add_row("Result", result)
    if verdict.score is not None:
        s = verdict.score
        head.add_row("Score", Text(f"Black {s.black:g}, White {s.white:g}, komi {s.komi:g}"))
    if verdict.winner_colour is not None:
        head.add_row("Winner", Text(shown(f"{verdict.winner_colour.word} ({verdict.winner_player or 'unnamed'})")))
    if verdict.result_note:
        head.add_row("Note", Text(shown(verdict.result_note)))
    parts: list[object] = [head]
    if verdict.problems:
        parts.append(_problem_table(verdict))
    excerpt = _excerpt(record, verdict)
    if excerpt is not None:
        parts.append(excerpt)
    title = Text.assemble(_status(verdict), " ", Text(shown(file)))
    console.print(Panel(Group(*parts), title=title, title_align="left"))  # type: ignore[arg-type]


def _player(start: str | None, now: str | None, swapped: bool, colour: str) -> str:
    start = start or "(unnamed)"
    if swapped and now != start:
        return f"{start} at the start; {now or '(unnamed)'} after the swap"
    return start


def _problem_table(verdict: Verdict) -> Table:
    table = Table(title="Problems", title_justify="left", expand=False)
    for col in ("", "move", "point", "rule", "where", "problem"):
        table.add_column(col, overflow="fold")
    for p in verdict.problems:
        sev = Text("error", style="red") if p.severity is Severity.ERROR else Text("warning", style="yellow")
        where = f"{p.pos.line}:{p.pos.column}" if p.pos else ""
        table.add_row(sev, str(p.move or ""), Text(shown(p.point or "")), Text(shown(p.rule or "")), where,
                      Text(shown(p.message)))
    return table


def _excerpt(record: Record, verdict: Verdict) -> object | None:
    """A small board around the first illegal move, as the position stood before it."""
    first = verdict.first_error
    if first is None or first.move is None or first.point is None:
        return None
    try:
        from .boards import board_excerpt
    except ImportError:
        return None
    steps = list(replay(record, snapshots=True))
    if not steps or steps[-1].board is None:
        return None
    point = steps[-1].move.point
    if point is None or not (0 <= point[0] < record.size and 0 <= point[1] < record.size):
        return None
    return Panel(board_excerpt(record, steps[-1].board, point), title=f"before move {first.move}",
                 expand=False)


def render_summary(console: Console, outcomes: list[Outcome]) -> None:
    """One line per record, then the first problem of each record that does not pass, then totals."""
    base = _common_folder([o.file if isinstance(o, FileFailure) else o[0] for o in outcomes])
    title = Text(f"Verification of {shown(base or '.')}")
    table = _Rows()
    notes: list[Text] = []
    passed = invalid = disagree = unreadable = 0
    for outcome in outcomes:
        if isinstance(outcome, FileFailure):
            unreadable += 1
            name = shown(_relative(outcome.file, base))
            table.add_row(Text(name), "", "", Text("UNREADABLE", style="bold red"), "", "syntax")
            notes.append(Text.assemble((name, "bold"), ": ", shown(outcome.message)))
            continue
        file, record, verdict = outcome
        name = shown(_relative(file, base)) + (f" #{record.index + 1}" if record.index else "")
        if verdict.passes:
            passed += 1
        elif not verdict.valid:
            invalid += 1
        else:
            disagree += 1
        first = verdict.first_error
        short = ""
        if first is not None:
            short = " ".join(x for x in (f"move {first.move}" if first.move else "", first.rule or "") if x)
            notes.append(Text.assemble((name, "bold"), ": ", f"move {first.move}: " if first.move else "",
                                       shown(first.message), f" [{shown(first.rule)}]" if first.rule else ""))
        elif verdict.agrees is False:
            short = "result"
            notes.append(Text.assemble((name, "bold"), ": ", shown(verdict.result_note or "the result disagrees")))
        declared = verdict.declared.raw if verdict.declared and verdict.declared.raw else "-"
        table.add_row(Text(name), _SHORT[record.game], str(verdict.moves_total), _status(verdict),
                      Text(shown(f"{declared} / {verdict.computed}")), short)
    table.print(console, title)
    for note in notes:
        console.print(note)
    total = passed + invalid + disagree + unreadable
    console.print(Text.assemble(
        (f"{total} records: ", "bold"), (f"{passed} pass", "green"), ", ", (f"{invalid} invalid", "red"), ", ",
        (f"{disagree} with a wrong result", "yellow"), ", ", (f"{unreadable} unreadable", "red")))


class _Rows:
    """The summary's rows, printed as one table or, when there are many, as tables of CHUNK rows with the same
    column widths (rich lays a table out whole: one table of 100,000 rows would take gigabytes)."""

    CHUNK = 1000
    HEADERS = ("record", "game", "moves", "verdict", "declared/replay", "problem")

    def __init__(self) -> None:
        self.rows: list[tuple[Text | str, ...]] = []

    def add_row(self, *cells: Text | str) -> None:
        self.rows.append(cells)

    def _table(self, title: Text | None, widths: list[int] | None) -> Table:
        table = Table(title=title, title_justify="left", expand=True, show_header=title is not None)
        for i, header in enumerate(self.HEADERS):
            width = widths[i] if widths is not None and i else None
            table.add_column(header, overflow="fold" if i == 0 else "ellipsis", ratio=1 if i == 0 else None,
                             no_wrap=i > 0, justify="right" if header == "moves" else "left", width=width)
        return table

    def print(self, console: Console, title: Text) -> None:
        widths = None
        if len(self.rows) > self.CHUNK:
            widths = [max([len(h)] + [Text(c).cell_len if isinstance(c, str) else c.cell_len for c in column])
                      for h, column in zip(self.HEADERS, zip(*self.rows, strict=True), strict=True)]
        for start in range(0, max(1, len(self.rows)), self.CHUNK):
            table = self._table(title if start == 0 else None, widths)
            for row in self.rows[start:start + self.CHUNK]:
                table.add_row(*row)
            console.print(table)


_SHORT = {Game.GO: "Go", Game.CONVERSION_GO: "ConvGo", Game.CATION: "Cation", Game.QUENTIN: "Quentin",
          Game.SQUER: "Squer"}


def _common_folder(files: list[str]) -> str:
    parents = [os.path.dirname(f) for f in files]
    try:
        return os.path.commonpath(parents) if parents else ""
    except ValueError:  # a mix of absolute and relative paths
        return ""


def _relative(file: str, base: str) -> str:
    return os.path.relpath(file, base) if base else file
