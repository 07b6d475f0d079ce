"""The stored games as the archive's commands list them (a table fitted to the terminal, JSON, CSV), and the
compact tables and counts beside them. Every text that comes from a record is shown literally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..records.games import short_name
from ..render.csv_out import dicts_csv
from ..render.safe_text import plain as shown
from ..verifier.judging.status import ResultStatus, VerdictClass
from .views.layout import Column, fitted_table
from .views.words import status_word, verdict_word

if TYPE_CHECKING:
    from ..archive.core.models import GameRow
    from ..archive.patterns.search import PatternResult
    from ..records.games import Game
    from ..verifier.judging.verdict import Verdict
    from ..verifier.keys.patterns import Pattern


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
    """A stored game in every JSON listing (the command's and the web application's) and CSV: its row, with its
    Dyer signature (None for a game without one)."""
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
        "signature": row.signature,
    }


JSON_FIELDS = ("id", "sha256", "game", "size", "black", "white", "black_final", "white_final", "event", "round", "date",
               "date_first", "date_last", "place", "result", "result_canonical", "computed_result", "result_status",
               "agrees", "winner_colour", "winner_player", "swapped", "moves", "verdict", "valid", "passes",
               "problems", "source_file", "source_index", "signature")


# The table's columns; `drop` is the order they are left out in when the width does not afford them all (the
# highest first: winner, moves, event, status, date, game, result, verdict); id and the players always stay, the
# names, the event and the result shortened with an ellipsis when they must be.
GAME_COLUMNS: list[tuple[Column, Callable[[GameRow], Text | str]]] = [
    (Column("id", justify="right"), lambda r: str(r.id)),
    (Column("game", drop=4), lambda r: f"{short_name(r.game)} {r.size or ''}".strip()),
    (Column("date", drop=5), lambda r: Text(shown(_date(r)))),
    (Column("black", shorten=True, least=12, want=24), lambda r: Text(shown(_players(r, "B")))),
    (Column("white", shorten=True, least=12, want=24), lambda r: Text(shown(_players(r, "W")))),
    (Column("result", drop=3, shorten=True, least=6), lambda r: Text(shown(_result(r)))),
    (Column("verdict", drop=2), lambda r: verdict_word(VerdictClass(r.verdict))),
    (Column("status", drop=6), lambda r: status_word(ResultStatus(r.result_status))),
    (Column("event", drop=7, shorten=True), lambda r: Text(shown(r.event or ""))),
    (Column("moves", justify="right", drop=8), lambda r: str(r.move_count)),
    (Column("winner", drop=9, shorten=True), lambda r: Text(shown(_winner(r)))),
]

# A column added after the games' own, and its cells (one per game).
Extra = tuple[Column, Sequence[Text | str]]


def record_json(row: GameRow, verdict: Verdict) -> dict[str, Any]:
    """`records show ID --json` (and the web application's): the row (with its signature) and its stored verdict."""
    return {**row_json(row), **verdict.to_json(), "id": row.id}


def pattern_json(result: PatternResult, pattern: Pattern, game: Game, size: int, origin: tuple[int, int], *,
                 either_colour: bool, games: list[dict[str, Any]]) -> dict[str, Any]:
    """`records search --pattern --json` (and the web application's): the continuations in the region and the
    moves right after, each named on the board where the pattern is drawn (`origin`: its top-left point)."""
    from ..records.notation import point_name

    ox, oy = origin

    def name(local: tuple[int, int]) -> str:
        return point_name((ox + local[0], oy + local[1]), game, size)

    nexts = [{"move": f"{c.colour} {name(c.local)}" if c.local is not None else "elsewhere",
              "hits": c.hits, "games": c.games, "black_wins": c.black_wins, "white_wins": c.white_wins}
             for c in result.next_moves]
    regions = [{"move": f"{c.colour} {name(c.local)}" if c.local is not None else "ended",
                "colour": c.colour or None, "point": name(c.local) if c.local is not None else None,
                "hits": c.hits, "tenuki": c.tenuki, "games": c.games, "black_wins": c.black_wins,
                "white_wins": c.white_wins} for c in result.continuations]
    return {"game": game.value, "size": size, "pattern": pattern.rows(), "anchor": sorted(pattern.sides),
            "either_colour": either_colour, "games": len(result.hits), "appearances": result.appearances,
            "records": games, "continuations": regions, "next_moves": nexts}


def game_table(found: Sequence[GameRow], width: int, *, extra: Sequence[Extra] = ()) -> Table:
    """The games in `width` terminal cells (views/layout.fitted_table), `extra` columns after the games' own."""
    columns = [col for col, _ in GAME_COLUMNS] + [col for col, _ in extra]
    rows = [[fmt(r) for _, fmt in GAME_COLUMNS] + [cells[n] for _, cells in extra] for n, r in enumerate(found)]
    return fitted_table(columns, rows, width)[0]


def rows_csv(found: Sequence[GameRow]) -> str:
    """The games as CSV, the JSON fields as columns (render/csv_out.py: dicts_csv). It stays beside `row_json`,
    the JSON fields it writes."""
    return dicts_csv([row_json(r) for r in found], None if found else list(JSON_FIELDS))


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
