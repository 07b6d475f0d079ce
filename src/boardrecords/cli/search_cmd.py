"""`records search`: records by their players, events, dates, results and verdicts (archive/core/search.py), by a
position they reached (`--after`, `--like/--move`, `--stones`: docs/positions.md), or by a pattern that appeared
in them (`--pattern`, `--pattern-from`: docs/patterns.md), and what was played next.
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from ..archive.core.filters import DEFAULT_LIMIT, SORT_NAMES, Filters
from ..records.games import Game
from ..records.notation import column_name
from ..render.csv_out import dicts_csv, rows_csv
from .asked_positions import first_record, resolve
from .common import (
    EXIT_FAILED,
    add_commands,
    archive,
    make_console,
    note,
    one_output,
    print_json,
    write_out,
)
from .filter_options import with_filters
from .options import CsvOption, DbOption, JsonOption, number
from .tables import (
    Extra,
    count_line,
    game_table,
    percent,
    print_table,
)
from .views.layout import Column

if TYPE_CHECKING:
    from ..archive.answers import GamePage
    from ..archive.patterns.search import PatternContinuation
    from ..verifier.keys.patterns import Pattern

# The position and pattern forms import the position index's and the pattern search's modules when they run:
# the plain search need not load them.


def register(app: typer.Typer) -> None:
    add_commands(app, {"search": search_cmd, "duplicates": duplicates_cmd})


@with_filters
def search_cmd(
    filters: Filters,
    db: DbOption = None,
    sort: Annotated[str, typer.Option("--sort", help=f"Sort by {', '.join(SORT_NAMES)}; `-` first for "
                                                     "descending; several with commas.")] = "id",
    limit: Annotated[int, typer.Option("--limit", help="At most this many records (0: all).", **number(0))
                     ] = DEFAULT_LIMIT,
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
    after: Annotated[str | None, typer.Option("--after", "--position", help="Games that reached the position after "
                                              "these moves (Q16,D4 or pd,dp; any move order, any symmetry).",
                                              rich_help_panel="Position")] = None,
    like: Annotated[Path | None, typer.Option("--like", help="... the position of this record (with --move).",
                                              rich_help_panel="Position")] = None,
    move: Annotated[int | None, typer.Option("--move", help="... after this many of its moves.",
                                             rich_help_panel="Position")] = None,
    stones: Annotated[str | None, typer.Option("--stones", help="... these stones: 'B:Q16,D4 W:C3'.",
                                               rich_help_panel="Position")] = None,
    to_move: Annotated[str | None, typer.Option("--to-move", help="With --stones: B or W (default: the colour "
                                                "with fewer stones, Black on a tie).", rich_help_panel="Position")
                       ] = None,
    pattern: Annotated[str | None, typer.Option("--pattern", help="Games where this pattern appeared: rows of X, O, "
                                                ". (empty) and * (any), separated by / or newlines.",
                                                rich_help_panel="Pattern")] = None,
    pattern_from: Annotated[Path | None, typer.Option("--pattern-from", help="... the pattern of a region of this "
                                                      "record (with --region, and --move).",
                                                      rich_help_panel="Pattern")] = None,
    region: Annotated[str | None, typer.Option("--region", help="... the region: two corners, Q16:T19.",
                                               rich_help_panel="Pattern")] = None,
    anchor: Annotated[str | None, typer.Option("--anchor", help="anywhere, corner (top left of the pattern in a "
                                               "corner), edge (top row on an edge), or sides: top-right...",
                                               rich_help_panel="Pattern")] = None,
    either_colour: Annotated[bool, typer.Option("--either-colour", help="Also with Black and White exchanged.",
                                                rich_help_panel="Pattern")] = False,
    next_move: Annotated[bool, typer.Option("--next-move", help="The table counts the move right after each "
                                            "appearance, not the first one in the pattern's region.",
                                            rich_help_panel="Pattern")] = False,
    tenuki: Annotated[str | None, typer.Option("--tenuki", help="Which continuations in the region count as "
                                               "tenuki: between (any move came before it) or kombilo (two or more "
                                               "did); default: RECORDS_TENUKI, or between.",
                                               rich_help_panel="Pattern")] = None,
    signature: Annotated[str | None, typer.Option("--signature", help="Games of Go or Conversion Go with this Dyer "
                                                  "signature, in any symmetry (docs/patterns.md).")] = None,
) -> None:
    """Find records in the archive (by a position or a pattern too: docs/positions.md, docs/patterns.md)."""
    one_output(json=as_json, csv=as_csv)
    if pattern is not None or pattern_from is not None:
        pattern_search(filters, db=db, pattern=pattern, source=pattern_from, move=move, region=region,
                       anchor=anchor, either_colour=either_colour, limit=limit, as_json=as_json, as_csv=as_csv,
                       next_move=next_move, tenuki=tenuki)
        return
    if after is not None or like is not None or stones is not None:
        position_search(filters, db=db, moves=after, like=like, move=move, stones=stones, to_move=to_move,
                        limit=limit, as_json=as_json, as_csv=as_csv)
        return
    with archive(db) as opened:
        if signature is not None:
            page = opened.signature_search(signature, size=filters.size, limit=limit)
        else:
            page = opened.search(filters, sort=sort, limit=limit)
    print_games(page, as_json=as_json, as_csv=as_csv,
                none="no records have this signature" if signature is not None else "no records match")


# -- by signature and duplicates --------------------------------------------------------------------------------

def print_games(page: GamePage, *, as_json: bool, as_csv: bool, none: str) -> None:
    """A listing of games as JSON, CSV or the games table with its count; `none` said, and exit 1, when empty."""
    found = page.games
    if as_json:
        print_json(page.to_json())
    elif as_csv:
        write_out(rows_csv(found))
    elif found:
        out = make_console()
        out.print(game_table(found, out.width))
        out.print(Text(count_line(len(found), page.total), style="dim"))
    if not found:
        if not as_json and not as_csv:
            note(none)
        raise typer.Exit(EXIT_FAILED)


# How `records duplicates` names each kind of group (archive/patterns/same_game.py).
GROUP_TITLES = {"same-game": "same game", "same-moves": "same moves, other players or formats",
                "beginning": "a record and its beginning"}


def duplicates_cmd(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Games stored more than once, decided on their moves: the same game, the same moves under other players or
    in other formats, and a record that is the beginning of another, each group with the copy to keep
    (docs/patterns.md). Exit 1 when there are none."""
    with archive(db) as opened:
        found = opened.duplicates()
    groups = found.groups
    if as_json:
        print_json(found.to_json())
    else:
        out = make_console()
        for grp in groups:
            out.print(Text(f"{GROUP_TITLES[grp.kind]}: {len(grp.ids)} records, keep #{grp.keep} "
                           f"({found.rows[grp.keep].move_count} moves)", style="bold"))
            out.print(game_table(found.games(grp), out.width))
        kinds = ", ".join(f"{n} {GROUP_TITLES[kind]}" for kind, n in found.kinds().items())
        if groups:
            out.print(Text(f"{len(groups)} group{'s' if len(groups) != 1 else ''} ({kinds}), "
                           f"{sum(len(g.ids) for g in groups)} records", style="dim"))
        else:
            note("no game is stored more than once")
    if found.unkeyed:
        note(f"{found.unkeyed} records were stored before their moves were indexed for this and are not compared: "
             "run `records reindex`")
    if not groups:
        raise typer.Exit(EXIT_FAILED)


# -- by position --------------------------------------------------------------------------------------------

def position_search(filters: Filters, *, db: str | None, moves: str | None, like: Path | None, move: int | None,
                    stones: str | None, to_move: str | None, limit: int, as_json: bool, as_csv: bool) -> None:
    """`records search` with a position: the games that reached it, where, and what came next."""
    with archive(db) as opened:
        target = resolve(opened, filters, moves=moves, like=like, move=move, stones=stones, to_move=to_move)
        page = opened.reached(target, filters, limit=limit)
    data = page.to_json()
    if as_json:
        print_json(data)
    elif as_csv:
        write_out(dicts_csv([dict(item) for item in data]))
    elif page.found:
        out = make_console()
        extra: list[Extra] = [(Column("at", justify="right"), [str(item["at_move"]) for item in data]),
                              (Column("next"), [Text(item["next"] or "") for item in data])]
        out.print(game_table(page.games, out.width, extra=extra))
        out.print(Text(count_line(len(page.found), page.total), style="dim"))
    if not page.found:
        if not as_json and not as_csv:
            note("no records reached this position")
        raise typer.Exit(EXIT_FAILED)


# -- by pattern ---------------------------------------------------------------------------------------------

# Labels of the continuations on the drawing: lower-case letters that are not a stone's X or O.
SIDE_ORDER = ("top", "bottom", "left", "right")
LABELS = [ch for ch in string.ascii_lowercase if ch not in "ox"]


def pattern_search(filters: Filters, *, db: str | None, pattern: str | None, source: Path | None,
                   move: int | None, region: str | None, anchor: str | None, either_colour: bool, limit: int,
                   as_json: bool, as_csv: bool, next_move: bool = False, tenuki: str | None = None) -> None:
    record = first_record(source) if source is not None else None
    with archive(db) as opened:
        answer = opened.pattern_search(pattern, filters, anchor=anchor, either_colour=either_colour,
                                       pattern_from=record, region=region, move=move, limit=limit, tenuki=tenuki)
    data = answer.to_json()
    games = data["records"]
    total = answer.total
    if as_json:
        print_json(data)
    elif as_csv:
        write_out(dicts_csv([dict(g) | {"at_moves": " ".join(map(str, g["at_moves"]))} for g in games]))
    else:
        out = make_console()
        labels: dict[tuple[int, int], str] = {}
        result = answer.result
        counted = result.next_moves if next_move else result.continuations
        for c in counted:
            if c.local is not None and c.local not in labels and len(labels) < len(LABELS):
                labels[c.local] = LABELS[len(labels)]
        ox, oy = answer.origin
        out.print(_drawing(answer.pattern, answer.game, answer.size, ox, oy, labels))
        if counted:
            items = [dict(m) for m in (data["next_moves"] if next_move else data["continuations"])]
            _continuation_table(out, counted, items, labels, tenuki=not next_move)
        if answer.shown:
            at = [Text(_moves_text(g["at_moves"])) for g in games]
            out.print(game_table([row for row, _ in answer.shown], out.width,
                                 extra=[(Column("at", shorten=True, least=4), at)]))
        if total:
            out.print(Text(f"{count_line(len(answer.shown), total)}, {result.appearances} appearance"
                           f"{'s' if result.appearances != 1 else ''}", style="dim"))
    if not total:
        if not as_json and not as_csv:
            note("no records hold this pattern")
        raise typer.Exit(EXIT_FAILED)


def _continuation_table(out: Console, counted: list[PatternContinuation], items: list[dict[str, Any]],
                        labels: dict[tuple[int, int], str], *, tenuki: bool) -> None:
    """The continuations: in the region (`tenuki`: with the hits that came after moves elsewhere, and the
    appearances after which the game ended first) or the moves right after."""
    columns = [Column(""), Column("in region" if tenuki else "next"), Column("hits", justify="right"),
               *((Column("tenuki", justify="right", drop=1),) if tenuki else ()),
               Column("games", justify="right"), Column("B won", justify="right", drop=2),
               Column("W won", justify="right", drop=2)]
    rows = []
    for c, item in zip(counted, items, strict=True):
        move = str(item["move"]) if item["move"] != "ended" else "game ended first"
        rows.append([labels.get(c.local, "") if c.local is not None else "", Text(move), str(c.hits),
                     *((str(c.tenuki),) if tenuki else ()), str(c.games), percent(c.black_wins, c.hits),
                     percent(c.white_wins, c.hits)])
    print_table(out, columns, rows)


def _moves_text(moves: list[int], most: int = 4) -> str:
    text = ", ".join(map(str, moves[:most]))
    return text + (f" +{len(moves) - most}" if len(moves) > most else "")


def _drawing(pat: Pattern, game: Game, size: int, ox: int, oy: int, labels: dict[tuple[int, int], str]) -> Text:
    """The pattern where it is drawn, with the points around it: X Black, O White, . empty, * any; letters mark
    the continuations of the table, a blank the points around the pattern that no continuation names."""
    cols = [c for c in range(-1, pat.width + 1) if 0 <= ox + c < size]
    rws = [r for r in range(-1, pat.height + 1) if 0 <= oy + r < size]
    width = max(len(column_name(ox + c, game)) for c in cols)
    lines = ["    " + " ".join(column_name(ox + c, game).rjust(width) for c in cols)]
    for r in rws:
        cells = []
        for c in cols:
            inside = 0 <= c < pat.width and 0 <= r < pat.height
            cell = labels.get((c, r)) or ("XO.*"[[1, 2, 0, -1].index(pat.cell(c, r))] if inside else " ")
            cells.append(cell.rjust(width))
        lines.append(f"{size - (oy + r):>3} " + " ".join(cells))
    named = [s for s in SIDE_ORDER if s in pat.sides]
    sides = (f"its {' and '.join(named)} side{'s' if len(named) > 1 else ''} on the board's edge"
             if named else "anywhere on the board")
    lines.append(f"X Black, O White, . empty, * any; {sides}")
    return Text("\n".join(lines))

