"""The stored games as the archive's commands list them in a terminal (a table fitted to its width), and the
compact tables and counts beside them; their JSON is archive/answers.py's, their CSV render/csv_out.py's. Every text
that comes from a record is shown literally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..records.games import short_name
from ..render.safe_text import plain as shown
from ..verifier.judging.status import ResultStatus, VerdictClass
from .views.layout import Column, fitted_table
from .views.words import status_word, verdict_word

if TYPE_CHECKING:
    from ..archive.core.models import GameRow


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


# The table's columns; `drop` is the order they are left out in when the width does not afford them all (the
# highest first: winner, moves, event, status, date, game, result, verdict); id and the players always stay, the
# names, the event and the result shortened with an ellipsis when they must be.
GAME_COLUMNS: list[tuple[Column, Callable[[GameRow], Text | str]]] = [
    (Column("id", justify="right"), lambda r: str(r.id)),
    (Column("game", drop=4), lambda r: f"{short_name(r.game)} {r.size or ''}".strip()),
    (Column("date", drop=5), lambda r: Text(shown(_date(r)))),
    (Column("black", shorten=True, least=12, want=24), lambda r: Text(shown(_players(r, "B")))),
    (Column("white", shorten=True, least=12, want=24), lambda r: Text(shown(_players(r, "W")))),
    (Column("result", drop=3, shorten=True, least=6, tokens=True), lambda r: Text(shown(_result(r)))),
    (Column("verdict", drop=2), lambda r: verdict_word(VerdictClass(r.verdict))),
    (Column("status", drop=6), lambda r: status_word(ResultStatus(r.result_status))),
    (Column("event", drop=7, shorten=True), lambda r: Text(shown(r.event or ""))),
    (Column("moves", justify="right", drop=8), lambda r: str(r.move_count)),
    (Column("winner", drop=9, shorten=True), lambda r: Text(shown(_winner(r)))),
]

# A column added after the games' own, and its cells (one per game).
Extra = tuple[Column, Sequence[Text | str]]


def game_table(found: Sequence[GameRow], width: int, *, extra: Sequence[Extra] = ()) -> Table:
    """The games in `width` terminal cells (views/layout.fitted_table), `extra` columns after the games' own."""
    columns = [col for col, _ in GAME_COLUMNS] + [col for col, _ in extra]
    rows = [[fmt(r) for _, fmt in GAME_COLUMNS] + [cells[n] for _, cells in extra] for n, r in enumerate(found)]
    return fitted_table(columns, rows, width)[0]


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


def print_table(out: Console, columns: Sequence[Column], rows: Sequence[Sequence[Text | str]], *,
                title: str | None = None) -> None:
    """A listing fitted to the console's width (views/layout.fitted_table)."""
    out.print(fitted_table(columns, rows, out.width, title=title)[0])
