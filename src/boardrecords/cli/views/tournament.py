"""An event's crosstable in a terminal: every text from a record is shown through rich Text (never read as
markup). The crosstable as CSV and HTML is render/crosstable.py, the rating chart render/rating_chart.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...records.games import short_name
from ...render.crosstable import score_text

if TYPE_CHECKING:
    from ...archive.tournaments.crosstable import Crosstable
    from ...archive.tournaments.official_table import OfficialTable


def print_crosstable(out: Console, table: Crosstable) -> None:
    """One table when it fits the terminal; else the standings, then the rounds in as many tables as they need."""
    header = f"{table.event} ({short_name(table.game)}; rounds from {table.rounds_from})"
    out.print(Text(header, style="bold"))
    by_round = {s.key: [" ".join(table.cell_text(c) for c in s.cells if c.round == r) for r in table.rounds]
                for s in table.standings}
    widths = [max([len(f"R{r}")] + [len(by_round[s.key][i]) for s in table.standings])
              for i, r in enumerate(table.rounds)]
    rank_w = len(str(len(table.standings)))
    breaks_w = sum(max(len(n), 5) + 1 for n in table.tie_break_names) + 5
    name_w = min(max(cell_len(s.name) for s in table.standings), 16)
    whole = rank_w + 1 + name_w + 1 + sum(w + 1 for w in widths) + breaks_w

    def new_table() -> Table:
        t = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=0)
        t.add_column("#", justify="right", no_wrap=True)
        return t

    def add_breaks(t: Table) -> None:
        t.add_column("pts", justify="right", no_wrap=True)
        for name in table.tie_break_names:
            t.add_column(name, justify="right", no_wrap=True)

    def breaks(s: Any) -> list[str]:
        return [score_text(s.points), *(score_text(s.tie_breaks[n]) for n in table.tie_break_names)]

    if whole <= out.width:
        t = new_table()
        t.add_column("player", overflow="fold", min_width=name_w)
        for r in table.rounds:
            t.add_column(f"R{r}", no_wrap=True)
        add_breaks(t)
        for s in table.standings:
            t.add_row(str(s.rank), Text(s.name), *by_round[s.key], *breaks(s))
        out.print(t)
    else:
        t = new_table()
        t.add_column("player", overflow="fold")
        add_breaks(t)
        for s in table.standings:
            t.add_row(str(s.rank), Text(s.name), *breaks(s))
        out.print(t)
        chunks: list[list[int]] = [[]]
        used = rank_w + 1
        for i, w in enumerate(widths):
            if chunks[-1] and used + w + 1 > out.width:
                chunks.append([])
                used = rank_w + 1
            chunks[-1].append(i)
            used += w + 1
        for chunk in chunks:
            t = new_table()
            for i in chunk:
                t.add_column(f"R{table.rounds[i]}", no_wrap=True)
            for s in table.standings:
                t.add_row(str(s.rank), *(by_round[s.key][i] for i in chunk))
            out.print(t)
    if table.notation == "opengotha":
        out.print(Text("cell: opponent's rank, + win, - loss, = draw, ? no result, / played or ! forfeit, colour "
                       "(w, b), handicap; 0+ / 0-: a bye and its point", style="dim"))
        return
    out.print(Text("cell: opponent's rank, colour held (s: after a swap), + win, - loss, = draw, +f/-f forfeit, "
                   "? no result; * unconfirmed result, ! record fails; bye1/bye0: a bye and its points",
                   style="dim"))


def print_official(out: Console, official: OfficialTable) -> None:
    """The official results (OpenGotha's notation), each board's record (`#id`) and its disagreements (`!kind`),
    one round a column; the disagreements of records no board took follow."""
    out.print(Text(f"official results: {official.tournament}", style="bold"))
    t = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1, 0, 0))
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column("player", overflow="fold")
    for name in official.scores:
        t.add_column(name, justify="right", no_wrap=True)
    for r in range(official.rounds):
        t.add_column(f"R{r + 1}", overflow="fold")
    for row in official.rows:
        t.add_row(str(row.place), Text(row.player), *(row.scores[n] for n in official.scores),
                  *(Text(c.marked, style="bold red" if c.disagreements else "") for c in row.cells))
    out.print(t)
    for message in official.unmatched:
        out.print(Text(f"! {message}"))
    out.print(Text("cell: OpenGotha's (opponent's place, result, / or ! forfeit, colour, handicap), #: the record, "
                   "!: what disagrees (records tournament check)", style="dim"))
