"""The archive's commands: `records import`, `search`, `show`, `export`, `stats`.

Exit codes: 0 ok; 1 nothing found, or some files or records failed; 2 bad usage or an unreachable database.
Every text that comes from a record is shown literally (never read as rich markup).
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import inspect
import io
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..records.model import FormatError
from ..schema.filters import DEFAULT_LIMIT, SORT_NAMES, FilterError, Filters
from .console import SafeConsole
from .safe_text import csv_cell, json_text
from .safe_text import plain as shown

if TYPE_CHECKING:
    from ..schema.importer import FileResult
    from ..schema.models import GameRow

# The database layer (SQLAlchemy, SQLModel) is imported inside the commands: `records verify` and `records replay`
# should not pay for loading it.

EXIT_OK, EXIT_NOTHING, EXIT_USAGE = 0, 1, 2
DB_INT_MAX = 2**63 - 1  # the largest integer SQLite and PostgreSQL (bigint) compare with: ids, sizes, limits

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Archive: a SQLite file or an SQLAlchemy URL (default: env RECORDS_DB, else "
                              "records.db here).", show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


# -- errors -------------------------------------------------------------------------------------------------

def _err() -> Console:
    return SafeConsole(stderr=True, highlight=False)


def fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    _err().print(Text(f"error: {message}"))
    return typer.Exit(code)


@contextmanager
def handling_errors() -> Iterator[None]:
    """Turn every expected failure into `error: ...` and an exit code, never a traceback."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..schema.db import ArchiveError, first_line

    try:
        yield
    except (ArchiveError, FilterError) as exc:
        raise fail(str(exc)) from None
    except SQLAlchemyError as exc:
        raise fail(f"database: {first_line(getattr(exc, 'orig', None) or exc)}") from None
    except FormatError as exc:
        raise fail(exc.describe(), EXIT_NOTHING) from None
    except OSError as exc:
        raise fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "), EXIT_NOTHING) from None


# -- the search filters, shared by search and export ----------------------------------------------------

def _opt(annotation: Any, *names: str, help: str, **kw: Any) -> inspect.Parameter:
    name = kw.pop("param", None) or names[0].lstrip("-").split("/")[0].replace("-", "_")
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=kw.pop("default", None),
                             annotation=Annotated[annotation, typer.Option(*names, help=help,
                                                                           rich_help_panel="Filters", **kw)])


_FILTER_PARAMS = [
    _opt(str | None, "--player", help="A player, either colour, at the start or the finish (`*` = wildcard)."),
    _opt(str | None, "--black", help="The player holding Black at the start or, after a swap, at the finish."),
    _opt(str | None, "--white", help="The player holding White at the start or, after a swap, at the finish."),
    _opt(str | None, "--winner", help="The winner: a player's name, or the colour B / W."),
    _opt(str | None, "--game", help="go-ing, conversion-go, cation, quentin, squer (also go, ConversionGo)."),
    _opt(int | None, "--size", help="Board size.", min=0, max=DB_INT_MAX),
    _opt(str | None, "--event", help="The event (EV), compared like names."),
    _opt(str | None, "--round", help="The round (RO), exactly."),
    _opt(str | None, "--from", help="Played on or after this date: 2017, 2017-05 or 2017-05-03.",
         param="date_from"),
    _opt(str | None, "--to", help="Played on or before this date: 2017, 2017-05 or 2017-05-03.",
         param="date_to"),
    _opt(str | None, "--result", help="Declared result: B+R, W+, B+3.5, 0, or a method: resign, time, score..."),
    _opt(bool | None, "--valid/--invalid", help="Only valid (or only invalid) records."),
    _opt(bool | None, "--swapped/--not-swapped", help="Only records where the pie swap was (or was not) taken."),
    _opt(int | None, "--moves-min", help="At least this many moves on the main line.", min=0, max=DB_INT_MAX),
    _opt(int | None, "--moves-max", help="At most this many moves on the main line.", min=0, max=DB_INT_MAX),
    _opt(str | None, "--text", help="Text in the comments or the names (case-insensitive)."),
    _opt(str | None, "--opening", help="The main line starts with these moves: 'B\\[pd] W\\[dp]' or pd,dp."),
]


def _filters(kw: dict[str, Any]) -> Filters:
    return Filters(**kw)


def with_filters(func: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the search filters as options; it receives them as one `filters: Filters` argument."""
    sig = inspect.signature(func, eval_str=True)
    own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in sig.parameters.values() if p.name != "filters"]

    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> Any:
        values = {p.name: kwargs.pop(p.name) for p in _FILTER_PARAMS}
        return func(filters=_filters(values), **kwargs)

    params = own + _FILTER_PARAMS
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper


# -- presenting rows ----------------------------------------------------------------------------------------

COLUMNS = ("id", "game", "date", "black", "white", "result", "winner", "moves", "valid", "event")


def _date(row: GameRow) -> str:
    return row.date_raw or ""


def _players(row: GameRow, colour: str) -> str:
    start = row.black if colour == "B" else row.white
    final = row.black_final if colour == "B" else row.white_final
    return start or "" if not row.swapped or final == start else f"{final or '?'} (swap; was {start or '?'})"


def _result(row: GameRow) -> str:
    declared = row.result_canonical or row.result or ""
    if declared and declared != row.computed_result and row.computed_result != "?":
        return f"{declared} (replay {row.computed_result})"
    return declared or (f"({row.computed_result})" if row.computed_result != "?" else "")


def _winner(row: GameRow) -> str:
    if not row.winner_colour:
        return ""
    return f"{row.winner_colour} {row.winner_player}" if row.winner_player else row.winner_colour


JSON_FIELDS = ("id", "sha256", "game", "size", "black", "white", "black_final", "white_final", "event", "round", "date",
               "date_first", "date_last", "place", "result", "result_canonical", "computed_result", "agrees",
               "winner_colour", "winner_player", "swapped", "moves", "valid", "passes", "problems", "source_file",
               "source_index")


def row_json(row: GameRow) -> dict[str, Any]:
    return {
        "id": row.id, "sha256": row.sha256, "game": row.game, "size": row.size,
        "black": row.black, "white": row.white, "black_final": row.black_final, "white_final": row.white_final,
        "event": row.event, "round": row.round, "date": row.date_raw,
        "date_first": row.date_first.isoformat() if row.date_first else None,
        "date_last": row.date_last.isoformat() if row.date_last else None,
        "place": row.place, "result": row.result, "result_canonical": row.result_canonical,
        "computed_result": row.computed_result, "agrees": row.agrees,
        "winner_colour": row.winner_colour, "winner_player": row.winner_player, "swapped": row.swapped,
        "moves": row.move_count, "valid": row.valid, "passes": row.passes, "problems": row.problem_count,
        "source_file": row.source_file, "source_index": row.source_index,
    }


def _table(found: Sequence[GameRow]) -> Table:
    table = Table(header_style="bold")
    for name in COLUMNS:
        # Fold rather than cut with an ellipsis: a name must never be shown shortened.
        table.add_column(name, overflow="fold", no_wrap=name in ("id", "game", "moves", "valid"))
    for r in found:
        table.add_row(
            str(r.id), Text(shown(f"{r.game} {r.size or ''}".strip())), Text(shown(_date(r))),
            Text(shown(_players(r, "B"))), Text(shown(_players(r, "W"))), Text(shown(_result(r))),
            Text(shown(_winner(r))), str(r.move_count),
            Text("valid", style="green") if r.valid else Text("invalid", style="red"), Text(shown(r.event or "")),
        )
    return table


def _out() -> Console:
    """Standard output; wider than 80 columns when it is not a terminal, so that piped tables stay readable."""
    console = SafeConsole(highlight=False)
    if not console.is_terminal and console.width < 160:
        console = SafeConsole(highlight=False, width=160)
    return console


def _csv(found: Sequence[GameRow]) -> str:
    buf = io.StringIO()
    records = [row_json(r) for r in found]
    fields = list(records[0]) if records else list(JSON_FIELDS)
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows({k: csv_cell(v) for k, v in r.items()} for r in records)
    return buf.getvalue()


def _print_json(data: Any) -> None:
    sys.stdout.write(json_text(data, indent=1) + "\n")
    sys.stdout.flush()


# -- commands -----------------------------------------------------------------------------------------------

def register(app: typer.Typer) -> None:
    """Add the archive's commands to the app."""
    app.command("import")(import_cmd)
    app.command("search")(search_cmd)
    app.command("show")(show_cmd)
    app.command("export")(export_cmd)
    app.command("stats")(stats_cmd)


def import_cmd(
    paths: Annotated[list[Path], typer.Argument(help="Record files (.rec, .sgf) and folders (searched recursively).",
                                                show_default=False)],
    db: DbOption = None,
    workers: Annotated[int | None, typer.Option("--workers", "-j", help="Worker processes that parse and verify "
                                                "(1: none; default: one per CPU but one, at most 8; used from 100 "
                                                "files on).", min=1, max=256)] = None,
    batch_size: Annotated[int, typer.Option("--batch", help="Records per transaction.", min=1, max=100_000)] = 500,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every duplicate.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON instead of a table.")] = False,
) -> None:
    """Parse, verify and store records; an interrupted import completes when run again."""
    from ..schema.db import open_archive
    from ..schema.importer import Importer, collect_files

    err = _err()
    out = _out()
    files, missing = collect_files(paths)
    for line in missing:
        err.print(Text(f"error: {line}"))
    if not files:
        raise fail("no record files found (.rec or .sgf)", EXIT_NOTHING)
    with handling_errors():
        engine = open_archive(db, create=True)
        progress = Progress(TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
                            TextColumn("{task.fields[records]} records"), TimeElapsedColumn(), console=err,
                            disable=quiet, transient=False)
        task = progress.add_task("import", total=len(files), records=0)

        def on_file(result: FileResult) -> None:
            if result.error:
                progress.console.print(Text(f"unreadable: {result.error}", style="red"))
            for line in result.failures:
                progress.console.print(Text(f"failed: {line}", style="red"))
            progress.update(task, advance=1, records=importer.summary.records)

        importer = Importer(engine, batch_size=batch_size, workers=workers, on_file=on_file)
        try:
            with progress:
                summary = importer.run(files)
        except KeyboardInterrupt:
            s = importer.summary
            err.print(f"interrupted: {s.new} new records were committed; run the same import again to complete it")
            raise typer.Exit(130) from None
        finally:
            engine.dispose()
    dups = summary.duplicate_sources
    if dups and (verbose or len(dups) <= 10):
        for where in dups:
            err.print(Text(f"duplicate: {where} (already in the archive)"))
    if as_json:
        _print_json({k: getattr(summary, k) for k in ("files", "records", "new", "duplicates", "valid", "invalid",
                                                     "unreadable", "failed", "errors", "duplicate_sources")})
        if not summary.ok or missing:
            raise typer.Exit(EXIT_NOTHING)
        return
    table = Table("files", "records", "new", "duplicates", "valid", "invalid", "unreadable",
                  *(["failed"] if summary.failed else []), title="import", header_style="bold")
    table.add_row(*(str(n) for n in (summary.files, summary.records, summary.new, summary.duplicates, summary.valid,
                                      summary.invalid, summary.unreadable)),
                  *([str(summary.failed)] if summary.failed else []))
    out.print(table)
    if not summary.ok or missing:
        raise typer.Exit(EXIT_NOTHING)


@with_filters
def search_cmd(
    filters: Filters,
    db: DbOption = None,
    sort: Annotated[str, typer.Option("--sort", help=f"Sort by {', '.join(SORT_NAMES)}; `-` first for "
                                                     "descending; several with commas.")] = "id",
    limit: Annotated[int, typer.Option("--limit", help="At most this many records (0: all).", min=0,
                                       max=DB_INT_MAX)] = DEFAULT_LIMIT,
    as_json: JsonOption = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV instead of a table.")] = False,
) -> None:
    """Find records in the archive."""
    from ..schema.archive import open_archive, rows

    if as_json and as_csv:
        raise fail("--json and --csv exclude each other")
    with handling_errors():
        engine = open_archive(db)
        try:
            found = rows(engine, filters, sort=sort, limit=limit or None, light=True)
        finally:
            engine.dispose()
    if as_json:
        _print_json([row_json(r) for r in found])
    elif as_csv:
        sys.stdout.write(_csv(found))
    elif found:
        _out().print(_table(found))
    if not found:
        if not as_json and not as_csv:
            _err().print("no records match")
        raise typer.Exit(EXIT_NOTHING)


def show_cmd(
    record_id: Annotated[int, typer.Argument(metavar="ID", help="The record's id in the archive.", min=1,
                                             max=DB_INT_MAX)],
    db: DbOption = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Draw the board with ASCII only.")] = False,
    as_json: JsonOption = False,
) -> None:
    """A stored record: its header, its verdict with every problem, and the final position."""
    from ..schema.archive import open_archive, problems_of, rows_by_ids

    with handling_errors():
        engine = open_archive(db)
        try:
            found, _ = rows_by_ids(engine, [record_id])
            problems = problems_of(engine, record_id) if found else []
        finally:
            engine.dispose()
    if not found:
        raise fail(f"no record {record_id} in the archive", EXIT_NOTHING)
    row = found[0]
    if as_json:
        _print_json({**row_json(row), "problems": [
            {k: getattr(p, k) for k in ("code", "severity", "move", "point", "rule", "message", "line", "column")}
            for p in problems]})
        return
    console = _out()
    console.print(_header(row))
    console.print(_verdict(row, problems))
    board = _final_board(row, ascii_only)
    if board is not None:
        console.print(board)


def _header(row: GameRow) -> Table:
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold")
    t.add_column()
    title = Text(f"#{row.id}  {row.game} {row.size}x{row.size}" if row.size else f"#{row.id}  {row.game}")
    t.add_row("record", title)
    fields: list[tuple[str, str | None]] = [
        ("black", row.black), ("white", row.white),
        ("after swap", f"Black {row.black_final or '?'}, White {row.white_final or '?'}" if row.swapped else None),
        ("event", row.event), ("round", row.round), ("date", row.date_raw), ("place", row.place),
        ("game name", row.name), ("result", row.result), ("computed", row.computed_result),
        ("winner", _winner(row) or None), ("moves", str(row.move_count)),
        ("source", f"{row.source_file} (game {row.source_index + 1})" if row.source_file else None),
        ("sha256", row.sha256),
    ]
    for label, value in fields:
        if value:
            t.add_row(label, Text(shown(value)))
    return t


def _verdict(row: GameRow, problems: Sequence[Any]) -> Group:
    if row.passes:
        head = Text("PASSES: every move legal, the result agrees" if row.agrees else "PASSES: every move legal",
                    style="green")
    elif row.valid:
        head = Text(f"VALID, but the declared result {row.result_canonical or row.result} disagrees with the replay "
                    f"({row.computed_result})", style="yellow")
    else:
        head = Text("INVALID", style="bold red")
    parts: list[Any] = [head]
    if row.end:
        parts.append(Text(f"ended: {row.end}"))
    if row.result_note:
        parts.append(Text(f"result: {row.result_note}"))
    if problems:
        t = Table("move", "point", "rule", "code", "severity", "where", "message", header_style="bold")
        for p in problems:
            where = f"{p.line}:{p.column}" if p.line is not None else ""
            t.add_row(str(p.move or ""), Text(shown(p.point or "")), Text(shown(p.rule or "")), Text(shown(p.code)),
                      p.severity, where, Text(shown(p.message)))
        parts.append(t)
    return Group(*parts)


def _final_board(row: GameRow, ascii_only: bool) -> Any:
    """The final position drawn by cli/boards.py, or None while that module (or the replay) is not there."""
    from ..schema.export import parse_row

    try:
        from ..verifier.replay import new_engine, replay
        from .boards import board_renderable
    except ImportError:
        return None
    from ..records.games import SPECS

    try:
        record = parse_row(row)
        spec = SPECS[record.game]
        if not spec.min_size <= record.size <= spec.max_size:
            return None  # no board to draw: the verdict above names the size rule (ING-1, CAT-1, ...)
        last = None
        for step in replay(record, snapshots=True):
            last = step
        rows_ = last.board if last is not None and last.board is not None else new_engine(record).rows()
        return board_renderable(record, last, rows_, ascii=ascii_only)
    except (NotImplementedError, FormatError, ValueError, KeyError, IndexError, AttributeError, TypeError):
        return None  # the position is extra; the header and the verdict above are the record's account


@with_filters
def export_cmd(
    filters: Filters,
    ids: Annotated[list[int] | None, typer.Argument(metavar="ID", help="Record ids; or use the filters.",
                                                    show_default=False, min=1, max=DB_INT_MAX)] = None,
    db: DbOption = None,
    output: Annotated[str | None, typer.Option("--output", "-o", help="A file (one collection) or a folder (one "
                                               "file per record; a trailing / makes one). Default: stdout.")] = None,
    canonical: Annotated[bool, typer.Option("--canonical", help="The writer's canonical form instead of the "
                                            "original bytes.")] = False,
    everything: Annotated[bool, typer.Option("--all", help="Export every record.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace output files that exist.")] = False,
    sort: Annotated[str, typer.Option("--sort", help="Order, as for search.")] = "id",
    limit: Annotated[int, typer.Option("--limit", help="At most this many records (0: all).", min=0,
                                       max=DB_INT_MAX)] = 0,
) -> None:
    """Records out of the archive: their original bytes (byte for byte) or --canonical."""
    from ..schema.archive import open_archive, rows, rows_by_ids
    from ..schema.export import record_bytes

    ids = ids or []
    if not ids and filters.empty and not everything:
        raise fail("name record ids, give search filters, or use --all")
    with handling_errors():
        engine = open_archive(db)
        try:
            if ids:
                found, missing = rows_by_ids(engine, ids)
                found_ids = [r.id for r in found if r.id is not None]  # rows read back always have their id
                extra = rows(engine, dataclasses.replace(filters, ids=found_ids), sort="id",
                             limit=None) if not filters.empty else found
                keep = {r.id for r in extra}
                found = [r for r in found if r.id in keep]
                for i in missing:
                    _err().print(f"error: no record {i} in the archive")
            else:
                missing = []
                found = rows(engine, filters, sort=sort, limit=limit or None)
        finally:
            engine.dispose()
        if not found:
            raise fail("no records match", EXIT_NOTHING)
        if output is None:
            sys.stdout.buffer.write(record_bytes(found, canonical=canonical))
            sys.stdout.buffer.flush()
        else:
            written = _export_files(found, output, canonical=canonical, force=force)
            _err().print(Text(f"exported {len(found)} record(s) to "
                              f"{output if len(written) == 1 else str(Path(output)) + '/'}"))
    if missing:
        raise typer.Exit(EXIT_NOTHING)


def _export_files(found: Sequence[GameRow], output: str, *, canonical: bool, force: bool) -> list[Path]:
    """Write the records to the file `output` (one collection) or, for a folder, one file per record: nothing is
    overwritten without `force`, no symlink is followed, and every file is renamed into place once complete."""
    from ..schema.export import file_name, record_bytes
    from .output_files import OutputError, write_files

    out = Path(output)
    try:
        if out.is_dir() or output.endswith(("/", "\\")):
            if out.is_symlink():
                raise OutputError(f"{out} is a symbolic link: not written through")
            out.mkdir(parents=True, exist_ok=True)
            items = [(out / file_name(r, canonical=canonical), record_bytes([r], canonical=canonical)) for r in found]
        else:
            if out.parent != Path(""):
                out.parent.mkdir(parents=True, exist_ok=True)
            items = [(out, record_bytes(found, canonical=canonical))]
        return write_files(items, force=force)
    except OutputError as exc:
        raise fail(str(exc)) from None


def stats_cmd(
    db: DbOption = None,
    game: Annotated[str | None, typer.Option("--game", help="Only this game.")] = None,
    players: Annotated[int, typer.Option("--players", help="How many players to list (0: all).", min=0,
                                         max=DB_INT_MAX)] = 20,
    as_json: JsonOption = False,
) -> None:
    """Per game: records, valid share, results by method, win rates, the pie swap; per player: games and wins."""
    from ..schema.db import open_archive, session_scope
    from ..schema.stats import game_stats, player_stats

    filters = Filters(game=game)
    with handling_errors():
        engine = open_archive(db)
        try:
            with session_scope(engine) as session:
                per_game = game_stats(session, filters)
                per_player = player_stats(session, filters, limit=players)
        finally:
            engine.dispose()
    if as_json:
        _print_json({"games": [g.to_json() for g in per_game], "players": [p.to_json() for p in per_player]})
    else:
        _print_stats(per_game, per_player)
    if not per_game:
        raise typer.Exit(EXIT_NOTHING)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _print_stats(per_game: Sequence[Any], per_player: Sequence[Any]) -> None:
    console = _out()
    if not per_game:
        _err().print("the archive holds no records")
        return
    t = Table("game", "records", "valid", "decided", "Black wins", "White wins", "first player wins", "swaps",
              "swapper wins", "results by method", title="per game", header_style="bold")
    for g in per_game:
        methods = ", ".join(f"{m} {n}" for m, n in sorted(g.methods.items(), key=lambda kv: (-kv[1], kv[0])))
        t.add_row(g.game, str(g.records), _pct(g.valid_share), str(g.decided), _pct(g.black_rate),
                  _pct(g.white_rate), _pct(g.first_player_rate),
                  f"{g.swaps} ({_pct(g.swap_rate)})" if g.swaps else "0",
                  f"{g.swapper_wins}/{g.swapper_decided} ({_pct(g.swapper_rate)})" if g.swapper_decided else "-",
                  methods)
    console.print(t)
    if per_player:
        p = Table("player", "games", "wins", "win rate", title="per player", header_style="bold")
        for s in per_player:
            p.add_row(Text(shown(s.name or "")), str(s.games), str(s.wins), _pct(s.wins / s.games if s.games else None))
        console.print(p)
