"""How tournaments look: an event's crosstable in a terminal, as CSV and as a printable HTML page, and rating
histories as an SVG chart. Every text from a record is shown through rich Text (never read as markup) and escaped
in HTML and SVG.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...records.games import game_title, short_name
from .safe_text import csv_cell, html_text, xml_text

if TYPE_CHECKING:
    from ...archive.tournaments.crosstable import Crosstable
    from ...archive.tournaments.ratings import Rating


def _num(value: float) -> str:
    return f"{value:g}"


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
        return [_num(s.points), *(_num(s.tie_breaks[n]) for n in table.tie_break_names)]

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
    out.print(Text("cell: opponent's rank, colour held (s: after a swap), + win, - loss, = draw, +f/-f forfeit, "
                   "? no result; * unconfirmed result, ! record fails; bye1/bye0: a bye and its points",
                   style="dim"))


def crosstable_csv(table: Crosstable) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "player", *(f"R{r}" for r in table.rounds), "points", *table.tie_break_names])
    # Names and events come from records: through the one CSV escaping (no formula, no control character).
    for s in table.standings:
        w.writerow([csv_cell(v) for v in (
            s.rank, s.name, *(" ".join(table.cell_text(c) for c in s.cells if c.round == r) for r in table.rounds),
            _num(s.points), *(_num(s.tie_breaks[n]) for n in table.tie_break_names))])
    return buf.getvalue()


_PAGE_CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#111}
table{border-collapse:collapse}th,td{border:1px solid #999;padding:.25em .5em;text-align:center}
td.name{text-align:left}caption{font-weight:bold;margin-bottom:.5em}p{color:#444;font-size:.9em}
@media print{body{margin:0}}"""


def crosstable_html(table: Crosstable) -> str:
    """One page, no script, every record text escaped."""
    head = "".join(f"<th>{html_text(h)}</th>" for h in ["#", "player", *(f"R{r}" for r in table.rounds), "points",
                                                     *table.tie_break_names])
    body = []
    for s in table.standings:
        rounds = "".join(f"<td>{html_text(' '.join(table.cell_text(c) for c in s.cells if c.round == r))}</td>"
                         for r in table.rounds)
        breaks = "".join(f"<td>{_num(s.tie_breaks[n])}</td>" for n in table.tie_break_names)
        body.append(f"<tr><td>{s.rank}</td><td class=\"name\">{html_text(s.name)}</td>{rounds}"
                    f"<td>{_num(s.points)}</td>{breaks}</tr>")
    title = html_text(f"{table.event} ({game_title(table.game)})")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<title>{title}</title><style>{_PAGE_CSS}</style></head><body>\n"
            f"<table><caption>{title}</caption><thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(body) +
            f"\n</tbody></table>\n<p>Rounds from {html_text(table.rounds_from)}. Tie-breaks in order: "
            f"{html_text(', '.join(table.tie_break_names))}. A cell gives the opponent's rank, the colour held "
            "(s: after a swap) and the result: + win, - loss, = draw, +f/-f forfeit, ? no result; * marks an "
            "unconfirmed result, ! a record that fails; bye1/bye0 a bye and its points.</p>\n</body></html>\n")


def rating_svg(found: Sequence[Rating]) -> str:
    """A line chart of rating histories (one line per game) with the 95% band; text escaped, no script."""
    width, height, pad = 640, 320, 48
    points = [(d.toordinal(), v, s) for r in found for d, v, s in r.history]
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0 = min(v - 1.96 * s for _, v, s in points)
    y1 = max(v + 1.96 * s for _, v, s in points)
    x1, y1 = (x1 if x1 > x0 else x0 + 1), (y1 if y1 > y0 else y0 + 1)

    def x(day: int) -> float:
        return pad + (day - x0) / (x1 - x0) * (width - 2 * pad)

    def y(value: float) -> float:
        return height - pad - (value - y0) / (y1 - y0) * (height - 2 * pad)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#333"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#333"/>',
             f'<text x="{pad}" y="{pad - 16}" font-weight="bold">'
             f'{xml_text(", ".join(f"{r.name} ({game_title(r.game)})" for r in found))}</text>',
             f'<text x="4" y="{y(y1):.1f}">{y1:.0f}</text><text x="4" y="{y(y0):.1f}">{y0:.0f}</text>']
    first = min(d for r in found for d, _, _ in r.history)
    last = max(d for r in found for d, _, _ in r.history)
    parts.append(f'<text x="{pad}" y="{height - pad + 16}">{first.isoformat()}</text>')
    parts.append(f'<text x="{width - pad}" y="{height - pad + 16}" text-anchor="end">{last.isoformat()}</text>')
    colours = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
    for i, r in enumerate(found):
        colour = colours[i % len(colours)]
        upper = [(x(d.toordinal()), y(v + 1.96 * s)) for d, v, s in r.history]
        lower = [(x(d.toordinal()), y(v - 1.96 * s)) for d, v, s in reversed(r.history)]
        band = " ".join(f"{a:.1f},{b:.1f}" for a, b in upper + lower)
        line = " ".join(f"{x(d.toordinal()):.1f},{y(v):.1f}" for d, v, _ in r.history)
        parts.append(f'<polygon points="{band}" fill="{colour}" fill-opacity="0.15"/>')
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
