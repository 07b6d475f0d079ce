"""`records search --pattern`: the games where a pattern appeared, at which moves, and what was played next in and
around it. docs/patterns.md describes patterns and the index behind them.
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from ..records.games import Game
from ..records.notation import NotationError, column_name, parse_point_text, point_name
from ..schema.filters import Filters
from ..verifier.patterns import Pattern, PatternError, offsets, parse_anchor, parse_pattern, pattern_of_board
from .common import EXIT_FAILED, CommandError, make_console, note, open_archive, print_json
from .options import game_and_size
from .positions import first_record
from .tables import count_line, dicts_csv, game_table, percent, row_json

# Labels of the continuations on the drawing: lower-case letters that are not a stone's X or O.
SIDE_ORDER = ("top", "bottom", "left", "right")
LABELS = [ch for ch in string.ascii_lowercase if ch not in "ox"]


def _region(text: str, game: Game, size: int) -> tuple[int, int, int, int]:
    a, sep, b = text.partition(":")
    if not sep:
        raise CommandError(f"--region: write two corners, Q16:T19, not {text!r}")
    try:
        (c1, r1), (c2, r2) = parse_point_text(a, game, size), parse_point_text(b, game, size)
    except NotationError as exc:
        raise CommandError(f"--region: {exc}") from None
    return min(c1, c2), min(r1, r2), max(c1, c2), max(r1, r2)


def resolve_pattern(filters: Filters, *, pattern: str | None, source: Path | None, move: int | None,
                    region: str | None, anchor: str | None) -> tuple[Pattern, Game, int, tuple[int, int]]:
    """The pattern asked for, its game and board size, and where it is drawn (the offset of its top left)."""
    from ..verifier.targets import PositionError, board_after

    try:
        if source is not None:
            if region is None:
                raise CommandError("--pattern-from needs --region, e.g. --region Q16:T19")
            record = first_record(source)
            game, size = record.game, record.size
            left, top, right, bottom = _region(region, game, size)
            rows = board_after(record, move)
            return pattern_of_board(rows, left, top, right, bottom, anchor=anchor), game, size, (left, top)
        game, size = game_and_size(filters)
        assert pattern is not None
        found = parse_pattern(pattern, anchor)
        return found, game, size, reference(found, size)
    except (PatternError, PositionError) as exc:
        raise CommandError(str(exc)) from None


def reference(pattern: Pattern, size: int) -> tuple[int, int]:
    """Where a pattern given as rows is drawn: against the edges its anchor names, else one point in from the
    top left (so that the points around it have names)."""
    allowed = offsets(pattern, size)
    xs = sorted({x for x, _ in allowed})
    ys = sorted({y for _, y in allowed})
    return (1 if 1 in xs and "left" not in pattern.sides else xs[0],
            1 if 1 in ys and "top" not in pattern.sides else ys[0])


def pattern_search(filters: Filters, *, db: str | None, pattern: str | None, source: Path | None,
                   move: int | None, region: str | None, anchor: str | None, either_colour: bool, limit: int,
                   as_json: bool, as_csv: bool) -> None:
    from ..schema.patterns import search_pattern

    if as_json and as_csv:
        raise CommandError("--json and --csv exclude each other")
    if anchor is not None:
        try:
            parse_anchor(anchor)
        except PatternError as exc:
            raise CommandError(str(exc)) from None
    pat, game, size, (ox, oy) = resolve_pattern(filters, pattern=pattern, source=source, move=move, region=region,
                                                anchor=anchor)
    with open_archive(db) as engine:
        result = search_pattern(engine, pat, game, size, filters, either_colour=either_colour)
        shown = result.hits[:limit] if limit else result.hits
        from ..schema.archive import rows_by_ids

        rows, _ = rows_by_ids(engine, [h.game_id for h in shown]) if shown else ([], [])
    by_id = {r.id: r for r in rows}

    def name(local: tuple[int, int] | None) -> str:
        if local is None:
            return "elsewhere"
        return point_name((ox + local[0], oy + local[1]), game, size)

    conts = [{"move": f"{c.colour} {name(c.local)}" if c.local is not None else "elsewhere",
              "hits": c.hits, "games": c.games, "black_wins": c.black_wins, "white_wins": c.white_wins}
             for c in result.continuations]
    games = [row_json(by_id[h.game_id]) | {"at_moves": h.moves} for h in shown if h.game_id in by_id]
    total = len(result.hits)
    if as_json:
        print_json({"game": game.value, "size": size, "pattern": pat.rows(), "anchor": sorted(pat.sides),
                    "either_colour": either_colour, "games": total, "appearances": result.appearances,
                    "records": games, "continuations": conts})
    elif as_csv:
        sys.stdout.write(dicts_csv([g | {"at_moves": " ".join(map(str, g["at_moves"]))} for g in games]))
    else:
        out = make_console()
        labels: dict[tuple[int, int], str] = {}
        for c in result.continuations:
            if c.local is not None and c.local not in labels and len(labels) < len(LABELS):
                labels[c.local] = LABELS[len(labels)]
        out.print(_drawing(pat, game, size, ox, oy, labels))
        if result.continuations:
            table = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
            for head in ("", "next", "hits", "games", "B won", "W won"):
                table.add_column(head, justify="left" if head in ("", "next") else "right", no_wrap=True)
            for c, item in zip(result.continuations, conts, strict=True):
                table.add_row(labels.get(c.local, "") if c.local is not None else "", Text(str(item["move"])),
                              str(c.hits), str(c.games), percent(c.black_wins, c.hits), percent(c.white_wins, c.hits))
            out.print(table)
        if shown:
            at = [Text(_moves_text(g["at_moves"])) for g in games]
            out.print(game_table([by_id[h.game_id] for h in shown if h.game_id in by_id], out.width - 16,
                                 extra=[("at", {"no_wrap": False, "max_width": 14}, at)]))
        if total:
            out.print(Text(f"{count_line(len(shown), total)}, {result.appearances} appearance"
                           f"{'s' if result.appearances != 1 else ''}", style="dim"))
    if not total:
        if not as_json and not as_csv:
            note("no records hold this pattern")
        raise typer.Exit(EXIT_FAILED)


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


__all__ = ["pattern_search", "reference", "resolve_pattern"]
