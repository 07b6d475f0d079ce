"""The stored games as the archive's commands list them (a table fitted to the terminal, JSON, CSV), and the
compact tables and counts beside them. Every text that comes from a record is shown literally.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..records.games import short_name
from ..verifier.status import ResultStatus, VerdictClass
from .views.safe_text import csv_cell
from .views.safe_text import plain as shown
from .views.words import status_word, verdict_word

if TYPE_CHECKING:
    from ..schema.core.models import GameRow


def _date(row: GameRow) -> str:
    return row.date_raw or ""


def _players(row: GameRow, colour: str) -> str:
    start = row.black if colour == "B" else row.white
    final = row.black_final if colour == "B" else row.white_final
    return start or "" if not row.swapped or final == start else f"{final or '?'} (swap; was {start or '?'})"


def _result(row: GameRow) -> str:
    declared = row.result_canonical or row.result or ""
    return declared or (f"({row.computed_result})" if row.computed_result != "?" else "")


def _winner(row: GameRow) -> str:
    if not row.winner_colour:
        return ""
    return f"{row.winner_colour} {row.winner_player}" if row.winner_player else row.winner_colour


def row_json(row: GameRow) -> dict[str, Any]:
    return {
        "id": row.id, "sha256": row.sha256, "game": row.game, "size": row.size,
        "black": row.black, "white": row.white, "black_final": row.black_final, "white_final": row.white_final,
        "event": row.event, "round": row.round, "date": row.date_raw,
        "date_first": row.date_first.isoformat() if row.date_first else None,
        "date_last": row.date_last.isoformat() if row.date_last else None,
        "place": row.place, "result": row.result, "result_canonical": row.result_canonical,
        "computed_result": row.computed_result, "result_status": row.result_status, "agrees": row.agrees,
        "winner_colour": row.winner_colour, "winner_player": row.winner_player, "swapped": row.swapped,
        "moves": row.move_count, "verdict": row.verdict, "valid": row.valid, "passes": row.passes,
        "problems": row.problem_count, "source_file": row.source_file, "source_index": row.source_index,
    }


JSON_FIELDS = ("id", "sha256", "game", "size", "black", "white", "black_final", "white_final", "event", "round", "date",
               "date_first", "date_last", "place", "result", "result_canonical", "computed_result", "result_status",
               "agrees", "winner_colour", "winner_player", "swapped", "moves", "verdict", "valid", "passes",
               "problems", "source_file", "source_index")


# The table's columns, in the order they are dropped when the terminal is too narrow for all of them (from the
# end of this list); `id` ... `verdict` always stay.
_COLUMNS: list[tuple[str, Callable[[GameRow], Text | str]]] = [
    ("id", lambda r: str(r.id)),
    ("game", lambda r: f"{short_name(r.game)} {r.size or ''}".strip()),
    ("date", lambda r: Text(shown(_date(r)))),
    ("black", lambda r: Text(shown(_players(r, "B")))),
    ("white", lambda r: Text(shown(_players(r, "W")))),
    ("result", lambda r: Text(shown(_result(r)))),
    ("verdict", lambda r: verdict_word(VerdictClass(r.verdict))),
    ("status", lambda r: status_word(ResultStatus(r.result_status))),
    ("event", lambda r: Text(shown(r.event or ""))),
    ("moves", lambda r: str(r.move_count)),
    ("winner", lambda r: Text(shown(_winner(r)))),
]
_NAME_COLUMNS = {"black", "white", "event", "winner"}

# A column added after the games' own: its header, its options (as for Table.add_column) and one cell per game.
Extra = tuple[str, Mapping[str, Any], Sequence[RenderableType]]


def game_table(found: Sequence[GameRow], width: int, *, extra: Sequence[Extra] = ()) -> Table:
    """The games in `width` columns: names wrap between words (never inside one), the rest never wraps. `extra`
    columns follow, outside that width."""
    cells = [[fmt(r) for _, fmt in _COLUMNS] for r in found]
    names = [name for name, _ in _COLUMNS]

    def cell_len(value: Text | str) -> int:
        return value.cell_len if isinstance(value, Text) else len(value)

    def longest_word(value: Text | str) -> int:
        text = value.plain if isinstance(value, Text) else value
        return max((len(w) for w in text.split()), default=0)

    def need(i: int, *, wrapped: bool) -> int:
        # A name column can wrap down to its longest word; the others need their widest cell.
        measure = longest_word if wrapped and names[i] in _NAME_COLUMNS else cell_len
        return max([len(names[i])] + [measure(c[i]) for c in cells])

    keep = list(range(len(names)))
    while len(keep) > 7 and sum(need(i, wrapped=True) + 3 for i in keep) > width:
        keep.pop()
    table = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for i in keep:
        wraps = names[i] in _NAME_COLUMNS
        table.add_column(names[i], no_wrap=not wraps, min_width=need(i, wrapped=True),
                         max_width=None if wraps else need(i, wrapped=False), overflow="fold")
    for header, options, _ in extra:
        table.add_column(header, **options)
    for n, c in enumerate(cells):
        table.add_row(*(c[i] for i in keep), *(column[n] for _, _, column in extra))
    return table


def rows_csv(found: Sequence[GameRow]) -> str:
    """The games as CSV, the JSON fields as columns; no cell a spreadsheet would evaluate (safe_text.csv_cell)."""
    buf = io.StringIO()
    records = [row_json(r) for r in found]
    fields = list(records[0]) if records else list(JSON_FIELDS)
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows({k: csv_cell(v) for k, v in r.items()} for r in records)
    return buf.getvalue()


def dicts_csv(data: Sequence[Mapping[str, Any]], fields: Sequence[str] | None = None) -> str:
    """CSV of `data`, one row each, with `fields` as the columns (default: the first row's keys; no row, no
    header)."""
    buf = io.StringIO()
    if fields is None and data:
        fields = list(data[0])
    if fields is not None:
        w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(data)
    return buf.getvalue()


def count_line(shown: int, total: int) -> str:
    """`50 of 272 records; --limit 0 for all` below a listing cut by --limit (`12 records` when it is not)."""
    plural = "s" if total != 1 else ""
    more = f" of {total} record{plural}; --limit 0 for all" if total > shown else f" record{plural}"
    return f"{shown}{more}"


def percent(part: float | None, whole: float = 1, *, missing: str = "") -> str:
    """`part` of `whole` in whole percent (`42%`); `missing` when there is no part, or nothing to take it of."""
    if part is None or not whole:
        return missing
    return f"{100 * part / whole:.0f}%"


_WRAPS = {"event": 16, "player": 12, "spelling": 12, "game": 7, "replaced by": 16}


def compact_table(*headers: str, right: Sequence[str] = ()) -> Table:
    """A table whose name columns wrap (down to a useful width); the others never do."""
    table = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=0)
    for h in headers:
        table.add_column(h, justify="right" if h in right else "left", no_wrap=h not in _WRAPS,
                         min_width=_WRAPS.get(h), overflow="fold")
    return table
