"""An event's crosstable as CSV and as a printable HTML page (no script). Every text from a record goes through
the one escaping of its output (safe_text.py): no CSV cell a spreadsheet would evaluate, HTML escaped.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

from ..records.games import game_title
from .safe_text import csv_cell, html_text

if TYPE_CHECKING:
    from ..archive.tournaments.crosstable import Crosstable
    from ..archive.tournaments.official_table import OfficialTable

RECORDS_LEGEND = ("A cell gives the opponent's rank, the colour held (s: after a swap) and the result: + win, - loss, "
                  "= draw, +f/-f forfeit, ? no result; * marks an unconfirmed result, ! a record that fails; "
                  "bye1/bye0 a bye and its points.")
OPENGOTHA_LEGEND = ("A cell is written as OpenGotha writes a result: the opponent's rank, + win, - loss, = draw, "
                    "? no result, / played or ! forfeit, the colour held (w, b) and the handicap; 0+/0- a bye and "
                    "its point.")


def score_text(value: float) -> str:
    """Points and tie-breaks as every crosstable writes them: `3`, `2.5`."""
    return f"{value:g}"


def crosstable_csv(table: Crosstable) -> str:
    """One row a player: rank, name, a cell a round, points and the tie-breaks in order."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "player", *(f"R{r}" for r in table.rounds), "points", *table.tie_break_names])
    # Names and events come from records: through the one CSV escaping (no formula, no control character).
    for s in table.standings:
        w.writerow([csv_cell(v) for v in (
            s.rank, s.name, *(" ".join(table.cell_text(c) for c in s.cells if c.round == r) for r in table.rounds),
            score_text(s.points), *(score_text(s.tie_breaks[n]) for n in table.tie_break_names))])
    return buf.getvalue()


_PAGE_CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#111}
table{border-collapse:collapse}th,td{border:1px solid #999;padding:.25em .5em;text-align:center}
td.name{text-align:left}caption{font-weight:bold;margin-bottom:.5em}p{color:#444;font-size:.9em}
@media print{body{margin:0}}"""


def crosstable_html(table: Crosstable, official: OfficialTable | None = None) -> str:
    """One page, no script, every record text escaped; the official results after the crosstable when given."""
    head = "".join(f"<th>{html_text(h)}</th>" for h in ["#", "player", *(f"R{r}" for r in table.rounds), "points",
                                                     *table.tie_break_names])
    body = []
    for s in table.standings:
        rounds = "".join(f"<td>{html_text(' '.join(table.cell_text(c) for c in s.cells if c.round == r))}</td>"
                         for r in table.rounds)
        breaks = "".join(f"<td>{score_text(s.tie_breaks[n])}</td>" for n in table.tie_break_names)
        body.append(f"<tr><td>{s.rank}</td><td class=\"name\">{html_text(s.name)}</td>{rounds}"
                    f"<td>{score_text(s.points)}</td>{breaks}</tr>")
    title = html_text(f"{table.event} ({game_title(table.game)})")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<title>{title}</title><style>{_PAGE_CSS}</style></head><body>\n"
            f"<table><caption>{title}</caption><thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(body) +
            f"\n</tbody></table>\n<p>Rounds from {html_text(table.rounds_from)}. Tie-breaks in order: "
            f"{html_text(', '.join(table.tie_break_names))}. "
            f"{OPENGOTHA_LEGEND if table.notation == 'opengotha' else RECORDS_LEGEND}</p>\n"
            f"{official_html(official) if official is not None else ''}</body></html>\n")


def official_html(official: OfficialTable) -> str:
    """The official results as a table: OpenGotha's notation, each board's record id and what disagrees."""
    head = "".join(f"<th>{html_text(h)}</th>" for h in ["#", "player", *official.scores,
                                                     *(f"R{r + 1}" for r in range(official.rounds))])
    body = [f"<tr><td>{row.place}</td><td class=\"name\">{html_text(row.player)}</td>"
            + "".join(f"<td>{html_text(row.scores[n])}</td>" for n in official.scores)
            + "".join(f"<td>{'<strong>' if c.disagreements else ''}{html_text(c.marked)}"
                      f"{'</strong>' if c.disagreements else ''}</td>" for c in row.cells) + "</tr>"
            for row in official.rows]
    notes = "".join(f"<p>! {html_text(m)}</p>\n" for m in official.unmatched)
    return (f"<table><caption>Official results: {html_text(official.tournament)}</caption><thead><tr>{head}</tr>"
            "</thead><tbody>\n" + "\n".join(body) + "\n</tbody></table>\n" + notes +
            "<p>Each result as OpenGotha writes it (opponent's place, result, / or ! forfeit, colour, handicap), "
            "the id of its record (#), and what disagrees with the record (!).</p>\n")
