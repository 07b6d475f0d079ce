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
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..records.games import short_name
from ..records.model import FormatError
from ..schema.filters import DEFAULT_LIMIT, SORT_NAMES, FilterError, Filters
from ..verifier.status import ResultStatus, VerdictClass
from .console import SgfPointsOption, make_console
from .views.safe_text import csv_cell, json_text
from .views.safe_text import plain as shown
from .views.words import status_word, totals_line, verdict_word

T = TypeVar("T")

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..schema.importer import FileResult
    from ..schema.models import GameRow
    from ..verifier.analysis import Analysis
    from ..verifier.verdict import Verdict

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
    return make_console(stderr=True)


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


def reading(db: str | None, query: Callable[[Session], T]) -> T:
    """`query` run in a read session on the archive `db`, errors as one line and an exit status."""
    from ..schema.db import open_archive, session_scope

    with handling_errors():
        engine = open_archive(db)
        try:
            with session_scope(engine) as session:
                return query(session)
        finally:
            engine.dispose()


def print_count(out: Console, shown: int, total: int) -> None:
    """`50 of 272 records; --limit 0 for all` below a listing cut by --limit."""
    plural = "s" if total != 1 else ""
    more = f" of {total} record{plural}; --limit 0 for all" if total > shown else f" record{plural}"
    out.print(Text(f"{shown}{more}", style="dim"))


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
    _opt(str | None, "--verdict", help="pass, invalid, wrong-result, or unconfirmed (passes with an unconfirmed "
         "result)."),
    _opt(str | None, "--status", help="Result status (GEN-8): agrees, disagrees, unconfirmed, undeclared, kind-only."),
    _opt(bool | None, "--swapped/--not-swapped", help="Only records where the pie swap was (or was not) taken."),
    _opt(int | None, "--moves-min", help="At least this many moves on the main line.", min=0, max=DB_INT_MAX),
    _opt(int | None, "--moves-max", help="At most this many moves on the main line.", min=0, max=DB_INT_MAX),
    _opt(str | None, "--text", help="Text in the comments or the names (case-insensitive)."),
    _opt(str | None, "--opening", help="The main line starts with these moves: 'B\\[pd] W\\[dp]', pd,dp or Q16,D4. "
         "Points in SGF letters or the game's own notation (Q16; a1-style for the connection games), read on the "
         "board of --game and --size (default: Go, 19x19)."),
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


# The search table's columns, in the order they are dropped when the terminal is too narrow for all of them
# (from the end of this list); `id` ... `verdict` always stay.
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


def _table(found: Sequence[GameRow], width: int) -> Table:
    """The rows in `width` columns: names wrap between words (never inside one), the rest never wraps."""
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
    for c in cells:
        table.add_row(*(c[i] for i in keep))
    return table


def _out() -> Console:
    return make_console()


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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..schema.db import open_archive
    from ..schema.importer import Importer, collect_files

    err = _err()
    out = _out()
    files, missing = collect_files(paths)
    for line in missing:
        err.print(Text(f"error: {line}"))
    if not files:
        if missing:
            raise typer.Exit(EXIT_USAGE)
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
            for line in result.refused:
                progress.console.print(Text(f"not stored: {line}", style="red"))
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
        _print_json(summary.to_json())
        _import_exit(summary.ok, bool(missing))
        return
    table = Table("files", "records", "new", "duplicates", *(["not stored"] if summary.not_stored else []),
                  *(["failed"] if summary.failed else []), title="import", header_style="bold", box=box.SIMPLE_HEAD)
    table.add_row(*(str(n) for n in (summary.files, summary.records, summary.new, summary.duplicates)),
                  *([str(summary.not_stored)] if summary.not_stored else []),
                  *([str(summary.failed)] if summary.failed else []))
    out.print(table)
    out.print(totals_line(Counter({VerdictClass(k): n for k, n in summary.verdicts.items()}),
                          Counter({ResultStatus(k): n for k, n in summary.statuses.items()})))
    _import_exit(summary.ok, bool(missing))


def _import_exit(ok: bool, missing: bool) -> None:
    # A path that cannot be opened is a usage error (2), as in every command; a record that fails, 1.
    if missing:
        raise typer.Exit(EXIT_USAGE)
    if not ok:
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
) -> None:
    """Find records in the archive (by a position or a pattern too: docs/positions.md, docs/patterns.md)."""
    if pattern is not None or pattern_from is not None:
        from .pattern_cmd import pattern_search

        pattern_search(filters, db=db, pattern=pattern, source=pattern_from, move=move, region=region,
                       anchor=anchor, either_colour=either_colour, limit=limit, as_json=as_json, as_csv=as_csv)
        return
    if after is not None or like is not None or stones is not None:
        from .explore_cmd import position_search

        position_search(filters, db=db, moves=after, like=like, move=move, stones=stones, to_move=to_move,
                        limit=limit, as_json=as_json, as_csv=as_csv)
        return
    from ..schema.archive import open_archive, rows
    from ..schema.db import session_scope
    from ..schema.search import count

    if as_json and as_csv:
        raise fail("--json and --csv exclude each other")
    with handling_errors():
        engine = open_archive(db)
        try:
            found = rows(engine, filters, sort=sort, limit=limit or None, light=True)
            total = len(found)
            if limit and total == limit:
                with session_scope(engine) as session:
                    total = count(session, filters)
        finally:
            engine.dispose()
    if as_json:
        _print_json([row_json(r) for r in found])
    elif as_csv:
        sys.stdout.write(_csv(found))
    elif found:
        out = _out()
        out.print(_table(found, out.width))
        print_count(out, len(found), total)
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
    sgf_points: SgfPointsOption = False,
    history: Annotated[bool, typer.Option("--history", help="Also list the versions `records fix` replaced.")]
    = False,
) -> None:
    """A stored record: its verdict as `verify` gives it, every problem, and the final position."""
    from ..schema.archive import open_archive, problems_of, rows_by_ids
    from ..schema.export import parse_row
    from ..schema.stored import stored_verdict
    from .tournament_cmd import history_json, print_history

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
        verdict = stored_verdict(row, problems)
        if as_json:
            _print_json({**row_json(row), **verdict.to_json(), "id": row.id,
                         **({"history": history_json(db, record_id)} if history else {})})
            return
        record = parse_row(row)
    from ..records.notation import Notation
    from ..verifier.analysis import analyse

    # The boards come from one replay of the stored bytes; the verdict shown is the stored one.
    analysis = analyse(record, notation=Notation.SGF if sgf_points else Notation.CUSTOMARY)
    console = _out()
    console.print(_header(row))
    from .views.verdict_view import render_report

    render_report(console, (row.source_file or f"archive #{row.id}", record, _in_notation(verdict, analysis)),
                  sgf_points=sgf_points, analysis=analysis)
    if analysis.replayed:
        from .views.boards import board_renderable

        last = analysis.last
        console.print(board_renderable(record, analysis.step_at(last), analysis.rows_at(last), ascii=ascii_only,
                                       names=analysis.points))
    if history:
        with handling_errors():
            print_history(db, record_id)


def _header(row: GameRow) -> Table:
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold")
    t.add_column()
    t.add_row("record", Text(f"#{row.id}, imported {row.imported_at:%Y-%m-%d %H:%M}"))
    if row.source_file:
        t.add_row("source", Text(shown(f"{row.source_file} (game {row.source_index + 1})")))
    t.add_row("sha256", Text(row.sha256))
    return t


def _in_notation(verdict: Verdict, analysis: Analysis) -> Verdict:
    """The stored verdict, its messages naming points as the screen does (GEN-10). Stored messages use the game's
    own notation; with `--sgf-points` they are taken from the fresh replay when it finds the same problems."""
    from ..records.notation import Notation

    fresh = analysis.verdict.problems
    if analysis.notation is Notation.CUSTOMARY or \
            [(p.code, p.move) for p in fresh] != [(p.code, p.move) for p in verdict.problems]:
        return verdict
    return dataclasses.replace(verdict, problems=fresh)


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
    """Per game: records, the share that passes, results by method, win rates, the pie swap; per player: games
    and wins."""
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
    return "-" if value is None else f"{value * 100:.0f}%"


def _compact_table(*headers: str, title: str) -> Table:
    table = Table(title=title, title_justify="left", header_style="bold", box=None, pad_edge=False,
                  show_edge=False)
    for header in headers:
        table.add_column(header, no_wrap=True, justify="left" if header in ("game", "player") else "right")
    return table


def _print_stats(per_game: Sequence[Any], per_player: Sequence[Any]) -> None:
    console = _out()
    if not per_game:
        _err().print("the archive holds no records")
        return
    # Short headers and whole percentages keep the table within 80 columns; the methods follow as lines.
    t = _compact_table("game", "records", "pass", "decided", "B wins", "W wins", "1st wins", "swaps", "swapper",
                       title="per game (wins as shares of decided games; 1st: the player who moved first)")
    methods: list[Text] = []
    for g in per_game:
        short = short_name(g.game)
        t.add_row(short, str(g.records), _pct(g.pass_share), str(g.decided), _pct(g.black_rate),
                  _pct(g.white_rate), _pct(g.first_player_rate),
                  f"{g.swaps} ({_pct(g.swap_rate)})" if g.swaps else "0",
                  f"{g.swapper_wins}/{g.swapper_decided}" if g.swapper_decided else "-")
        listed = ", ".join(f"{m} {n}" for m, n in sorted(g.methods.items(), key=lambda kv: (-kv[1], kv[0])))
        methods.append(Text(shown(f"{short}: {listed}")))
    console.print(t)
    console.print(Text("declared results by method", style="bold"))
    for line in methods:
        console.print(line)
    if per_player:
        p = _compact_table("player", "games", "wins", "win rate", title="per player")
        for s in per_player:
            p.add_row(Text(shown(s.name or "")), str(s.games), str(s.wins), _pct(s.wins / s.games if s.games else None))
        console.print()
        console.print(p)
