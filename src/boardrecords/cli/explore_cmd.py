"""`records explore` (what was played at a position, and how it went) and `records reindex`. docs/positions.md
describes the index; `records search --after` finds the games that reached a position (search_cmd.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from ..archive.core.filters import Filters
from ..records.model import Colour
from ..records.notation import column_name
from ..render.csv_out import dicts_csv
from ..render.stars import star_points
from .asked_positions import resolve
from .common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    add_commands,
    archive,
    make_console,
    one_output,
    print_json,
    write_out,
)
from .filter_options import with_filters
from .options import CsvOption, DbOption, JsonOption
from .tables import percent, print_table
from .views.layout import Column
from .views.words import plural

if TYPE_CHECKING:
    from ..archive.answers import Exploration
    from ..verifier.keys.targets import Target


def _board(target: Target) -> Text:
    size = target.size
    cols = [column_name(c, target.game) for c in range(size)]
    stars = star_points(target.game, size)
    lines = ["    " + " ".join(cols)]
    for r, row in enumerate(target.rows):
        cells = " ".join("X" if s is Colour.BLACK else "O" if s is Colour.WHITE else "+" if (c, r) in stars else "."
                         for c, s in enumerate(row))
        lines.append(f"{size - r:>3} {cells}")
    to_move = target.to_move.word if target.to_move else "either colour"
    lines.append(f"{to_move} to move (X Black, O White)")
    return Text("\n".join(lines))


# -- commands -----------------------------------------------------------------------------------------------

def register(app: typer.Typer) -> None:
    add_commands(app, {"explore": explore_cmd, "reindex": reindex_cmd})


@with_filters
def explore_cmd(
    filters: Filters,
    moves: Annotated[list[str] | None, typer.Argument(help="Moves from the start, separated by spaces or commas: "
                                                      "Q16 D4, Q16,D4 or pd,dp (Go: --game, --size for the "
                                                      "others). None: the start (the opening table).",
                                                      show_default=False)] = None,
    like: Annotated[Path | None, typer.Option("--like", help="The position of this record (with --move).")] = None,
    move: Annotated[int | None, typer.Option("--move", help="... after this many moves (0: the start).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
) -> None:
    """What was played at a position: each next move with its games, wins, draws, swaps and when last played."""
    one_output(json=as_json, csv=as_csv)
    return _explore(filters, moves=",".join(moves) if moves else None, like=like, move=move, db=db,
                    as_json=as_json, as_csv=as_csv)


def _explore(filters: Filters, *, moves: str | None, like: Path | None, move: int | None, db: str | None,
             as_json: bool, as_csv: bool) -> None:
    with archive(db) as opened:
        found = opened.explore(resolve(opened, filters, moves=moves, like=like, move=move), filters)
    if found.openings is not None:
        return opening_table(found, as_json=as_json, as_csv=as_csv)
    target, total, pie = found.target, found.total, found.pie
    data = found.continuation_json()
    if as_json:
        print_json(found.to_json())
    elif as_csv:
        fields = ["move", "games", "black_wins", "white_wins", "draws", "mover_wins", "last_played"]
        write_out(dicts_csv([dict(item) for item in data], fields + (["swapped", "swapper_wins"] if pie else [])))
    else:
        out = make_console()
        out.print(_board(target))
        columns = [Column("move"), Column("games", justify="right"), Column("B won", justify="right", drop=3),
                   Column("W won", justify="right", drop=3), Column("draws", justify="right", drop=1),
                   Column("mover", justify="right", drop=2)]
        if pie:
            columns += [Column("swap", justify="right", drop=5), Column("swapper", justify="right", drop=4)]
        columns.append(Column("last", drop=6))
        rows: list[list[Text | str]] = []
        for c, item in zip(found.continuations, data, strict=True):
            cells: list[Text | str] = [Text(item["move"]), str(c.games), percent(c.black_wins, c.games),
                                       percent(c.white_wins, c.games), str(c.draws), percent(c.mover_wins, c.games)]
            if pie:
                cells += [percent(c.swapped, c.games), percent(c.swapper_wins, c.swapped)]
            cells.append(c.last_played or "")
            rows.append(cells)
        if found.continuations:
            print_table(out, columns, rows)
        out.print(Text(f"{total} game{'s' if total != 1 else ''} reached this position", style="dim"))
    if not total:
        raise typer.Exit(EXIT_FAILED)


def opening_table(found: Exploration, *, as_json: bool, as_csv: bool) -> None:
    """`records explore` at the start of Conversion Go: every opening of turns 1-3 (CON-5), how often the second
    player swapped on turn 4, and who won after it."""
    from ..verifier.keys.targets import OPENING_TURNS

    report = found.openings or {}
    data: list[dict[str, Any]] = report["openings"]
    total = report["games"]
    if as_json:
        print_json(found.to_json())
    elif as_csv:
        fields = ["black", "white", "games", "swapped", "swap_rate", "black_wins", "white_wins", "draws",
                  "first_player_wins", "second_player_wins", "swapper_wins", "last_played"]
        write_out(dicts_csv([{**d, "black": " ".join(d["black"]), "white": " ".join(d["white"])}
                                    for d in data], fields))
    else:
        out = make_console()
        columns = [Column("black"), Column("white"), Column("games", justify="right"),
                   Column("swap", justify="right", drop=5), Column("B won", justify="right", drop=3),
                   Column("W won", justify="right", drop=3), Column("draws", justify="right", drop=1),
                   Column("first", justify="right", drop=2), Column("swapper", justify="right", drop=4),
                   Column("last", drop=6)]
        if data:
            print_table(out, columns, [
                [" ".join(d["black"]), " ".join(d["white"]), str(d["games"]), percent(d["swapped"], d["games"]),
                 percent(d["black_wins"], d["games"]), percent(d["white_wins"], d["games"]), str(d["draws"]),
                 percent(d["first_player_wins"], d["games"]), percent(d["swapper_wins"], d["swapped"]),
                 d["last_played"] or ""] for d in data])
        plural = "s" if len(data) != 1 else ""
        out.print(Text(f"{len(data)} opening{plural} of turns 1-{OPENING_TURNS} in {total} game"
                       f"{'s' if total != 1 else ''}; swap: how often the second player swapped on turn 4; "
                       "first: the first player's wins; swapper: the swapper's wins of the swapped games",
                       style="dim"))
    if not data:
        raise typer.Exit(EXIT_FAILED)


def reindex_cmd(
    db: DbOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress line.")] = False,
) -> None:
    """Rebuild the position and pattern indexes from the stored records, and update stored verdicts to the rules
    as they stand (older archives, or after a rules change)."""
    err = make_console(stderr=True)
    with archive(db):  # an archive that exists (read-only), then for writing (tables added since)
        pass
    with archive(db, create=True) as opened:
        try:
            summary = opened.reindex(progress=None if quiet else (lambda n: err.print(f"\r{n} records", end="")))
        except KeyboardInterrupt:
            # Each batch is replaced whole and its rows stand for the old ones until the merge: the archive
            # answers as before for the records not yet done.
            err.print(("\n" if not quiet else "") + "interrupted: the records done so far are indexed again; run "
                      "`records reindex` again to complete it")
            raise typer.Exit(EXIT_INTERRUPTED) from None
    if not quiet:
        err.print()
    out = make_console()
    out.print(Text(f"{plural(summary.records, 'record')}, {plural(summary.positions, 'position')} indexed, "
                   f"{plural(summary.change_lists, 'change list')} for pattern search"))
    if summary.verdicts_updated:
        out.print(Text(f"{summary.verdicts_updated} stored verdicts updated to the rules as they stand"))
