"""The archive's commands: `records import`, `show`, `export`, `stats` (search_cmd.py: `records search`).

Exit codes as in common.py: 0 ok; 1 nothing found, or some files or records failed; 2 bad usage or an unreachable
database. Every text that comes from a record is shown literally (never read as rich markup).
"""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from ..archive.core.filters import Filters
from ..records.games import short_name
from ..render.safe_text import plain as shown
from ..verifier.judging.status import ResultStatus, VerdictClass
from .common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    CommandError,
    add_commands,
    archive,
    make_console,
    note,
    print_json,
)
from .filter_options import with_filters
from .options import (
    DbOption,
    JsonOption,
    JsonReportOption,
    SgfPointsJsonOption,
    number,
    whole_number,
)
from .tables import percent, print_table
from .views.layout import Column
from .views.words import formats_line, plural, totals_line

if TYPE_CHECKING:
    from ..archive.answers import Export
    from ..archive.core.models import GameRow
    from ..archive.store.importer import ImportProgress, NearDuplicate
    from ..verifier.judging.analysis import Analysis
    from ..verifier.judging.verdict import Verdict


def register(app: typer.Typer) -> None:
    """Add the archive's commands to the app."""
    add_commands(app, {"import": import_cmd, "show": show_cmd, "export": export_cmd, "stats": stats_cmd})


def import_cmd(
    paths: Annotated[list[Path], typer.Argument(help="Record files (.rec, .sgf, .gib, .ngf, .ugf, .ugi) and folders "
                                                "(searched recursively).",
                                                show_default=False)],
    db: DbOption = None,
    workers: Annotated[int | None, typer.Option("--workers", "-j", help="Worker processes that parse and verify "
                                                "(1: none; default: one per CPU but one, at most 8; used from 100 "
                                                "files on).", **number(1, 256))] = None,
    batch_size: Annotated[int, typer.Option("--batch", help="Records per transaction.", **number(1, 100_000))] = 500,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every duplicate.")] = False,
    skip_duplicates: Annotated[bool, typer.Option("--skip-duplicates", help="Keep out near-duplicates too: "
                                                  "records that are one game with a stored one (the same moves, "
                                                  "its beginning, or longer) in other bytes.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar (there is none unless stderr is a "
                                        "terminal).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON instead of a table.")] = False,
) -> None:
    """Parse, verify and store records; an interrupted import completes when run again."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..archive.store.collect import collect_files
    from ..archive.store.importer import ImportInterrupted

    err = make_console(stderr=True)
    out = make_console()
    # The paths are looked at first: with no record file to import, no archive is made.
    files, missing = collect_files(paths)
    for line in missing:
        err.print(Text(f"error: {line}"))
    if not files:
        if missing:
            raise typer.Exit(EXIT_USAGE)
        raise CommandError("no record files found (.rec, .sgf, .gib, .ngf, .ugf or .ugi)", EXIT_FAILED)
    with archive(db, create=True) as opened:
        progress = Progress(TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
                            TextColumn("{task.fields[records]} records"), TimeElapsedColumn(), console=err,
                            disable=quiet or not err.is_terminal, transient=False)
        task = progress.add_task("import", total=len(files), records=0)

        def on_file(step: ImportProgress) -> None:
            result = step.file
            if result.error:
                label = "error" if result.unopened else "unreadable"
                progress.console.print(Text(f"{label}: {result.error}", style="red"))
            for line in result.failures:
                progress.console.print(Text(f"failed: {line}", style="red"))
            for line in result.refused:
                progress.console.print(Text(f"not stored: {line}", style="red"))
            progress.update(task, advance=1, records=step.summary.records)

        try:
            with progress:
                summary = opened.import_paths(files, workers=workers, batch_size=batch_size,
                                               skip_duplicates=skip_duplicates, progress=on_file)
        except ImportInterrupted as exc:
            err.print(f"interrupted: {exc.summary.new} new records were committed; run the same import again to "
                      "complete it")
            raise typer.Exit(EXIT_INTERRUPTED) from None
    for line in summary.missing:  # a path gone between the look above and the import
        err.print(Text(f"error: {line}"))
    missing += summary.missing
    dups = summary.duplicate_sources
    if dups and (verbose or len(dups) <= 10):
        for where in dups:
            err.print(Text(f"duplicate: {where} (already in the archive)"))
    near = summary.near_duplicates
    if near and (verbose or len(near) <= 10):
        for found in near:
            err.print(Text(f"{NEAR_TITLES[found.kind]}: {found.source} ({_near_note(found)}; "
                           f"{'stored' if found.stored else 'not stored'})"))
    elif near:
        err.print(Text(f"{len(near)} near-duplicates ({'not stored' if skip_duplicates else 'stored'}; "
                       "--verbose lists them, `records duplicates` shows the groups)"))
    if as_json:
        print_json(summary.to_json())
        _import_exit(summary.ok, bool(missing or summary.unopened))
        return
    # The records read, as the totals line below counts them; the files that could not be read, apart.
    counts = {"files": summary.files, "unreadable files": summary.unreadable, "records": summary.records,
              "new": summary.new, "duplicates": summary.duplicates, "not stored": summary.not_stored,
              "failed": summary.failed}
    shown_counts = {k: n for k, n in counts.items() if n or k in ("files", "records", "new", "duplicates")}
    table = Table(*shown_counts, title="import", header_style="bold", box=box.SIMPLE_HEAD)
    table.add_row(*(str(n) for n in shown_counts.values()))
    out.print(table)
    if summary.duplicates:
        out.print(Text("duplicates: " + ", ".join(f"{n} {DUPLICATE_TITLES[kind]}"
                                                  for kind, n in summary.duplicate_kinds.items() if n)))
    stored_near = Counter(d.kind for d in near if d.stored)
    if stored_near:
        out.print(Text("stored, though one game with another: "
                       + ", ".join(f"{n} {NEAR_TITLES[kind]}" for kind, n in stored_near.items())
                       + " (`records duplicates` shows the groups; --skip-duplicates keeps them out)"))
    out.print(Text(formats_line(summary.formats)))
    out.print(totals_line(Counter({VerdictClass(k): n for k, n in summary.verdicts.items()}),
                          Counter({ResultStatus(k): n for k, n in summary.statuses.items()})))
    _import_exit(summary.ok, bool(missing or summary.unopened))


# How the import names each kind of duplicate (archive/store/importer.py DUPLICATE_KINDS).
NEAR_TITLES = {"same-game": "same game", "beginning": "beginning of a stored game",
               "longer": "longer than a stored game"}
DUPLICATE_TITLES = {"exact": "exact (the same bytes)", **NEAR_TITLES}


def _near_note(found: NearDuplicate) -> str:
    if found.kind == "same-game":
        return f"the {found.moves} moves of {found.like}"
    if found.kind == "beginning":
        return f"the first {found.moves} of the {found.like_moves} moves of {found.like}"
    return f"{found.like} is its first {found.like_moves} of {found.moves} moves"


def _import_exit(ok: bool, missing: bool) -> None:
    # A path that cannot be opened is a usage error (2), as in every command; a record that fails, 1.
    if missing:
        raise typer.Exit(EXIT_USAGE)
    if not ok:
        raise typer.Exit(EXIT_FAILED)


def show_cmd(
    record_id: Annotated[int, typer.Argument(metavar="ID", help="The record's id in the archive.",
                                             parser=whole_number(1))],
    db: DbOption = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Draw the board with ASCII only.")] = False,
    as_json: JsonReportOption = False,
    sgf_points: SgfPointsJsonOption = False,
    history: Annotated[bool, typer.Option("--history", help="Also list the versions `records fix` replaced.")]
    = False,
) -> None:
    """A stored record: its verdict as `verify` gives it, every problem, and the final position."""
    with archive(db) as opened:
        stored = opened.record(record_id)
    row, verdict = stored.row, stored.verdict
    if as_json:
        print_json({**stored.to_json(), **({"history": _history_json(db, record_id)} if history else {})})
        return
    record = stored.record  # a stored record that no longer reads: unreadable (1), as every command says it
    from ..records.notation import Notation
    from ..verifier.judging.analysis import analyse

    # The boards come from one replay of the stored bytes; the verdict shown is the stored one.
    analysis = analyse(record, notation=Notation.SGF if sgf_points else Notation.CUSTOMARY)
    console = make_console()
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
        _print_history(db, record_id)


def _header(row: GameRow) -> Table:
    t = Table.grid(padding=(0, 2))
    t.add_column(style="bold")
    t.add_column()
    t.add_row("record", Text(f"#{row.id}, imported {row.imported_at:%Y-%m-%d %H:%M}"))
    if row.source_file:
        t.add_row("source", Text(shown(f"{row.source_file} (game {row.source_index + 1})")))
    t.add_row("sha256", Text(row.sha256))
    if row.signature:
        t.add_row("signature", Text(f"{row.signature} (Dyer, docs/patterns.md)"))
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


def _history_json(db: str | None, record_id: int) -> list[dict[str, Any]]:
    """The versions `records fix` replaced, for `records show --history`."""
    with archive(db) as opened:
        versions = opened.history(record_id)
    return [{"version": v.version, "sha256": v.sha256, "verdict": v.verdict, "result_status": v.result_status,
             "replaced_at": v.replaced_at.isoformat(), "replaced_by": v.change,
             "raw": v.raw.decode(v.encoding or "utf-8", "replace")} for v in versions]


def _print_history(db: str | None, record_id: int) -> None:
    """The versions `records fix` replaced, as a table."""
    versions = _history_json(db, record_id)
    out = make_console()
    if not versions:
        out.print(Text("history: the record as imported; never fixed", style="dim"))
        return
    columns = [Column("version", justify="right"), Column("sha256", drop=2), Column("verdict", drop=1),
               Column("replaced", drop=3), Column("replaced by", shorten=True, least=16)]
    cells: list[list[Text | str]] = [[str(v["version"]), v["sha256"][:12], v["verdict"],
                                      v["replaced_at"][:16].replace("T", " "), Text(v["replaced_by"])]
                                     for v in versions]
    cells.append([str(len(versions) + 1), "", "", "", Text("(the current version)")])
    out.print(Text("history", style="bold"))
    print_table(out, columns, cells)


@with_filters
def export_cmd(
    filters: Filters,
    ids: Annotated[list[int] | None, typer.Argument(metavar="ID", help="Record ids; or use the filters.",
                                                    show_default=False, parser=whole_number(1))] = None,
    db: DbOption = None,
    output: Annotated[str | None, typer.Option("--output", "-o", help="A file (one collection) or a folder (one "
                                               "file per record; a trailing / makes one). Default, and `-`: "
                                               "standard output (a file named - is ./-).")] = None,
    canonical: Annotated[bool, typer.Option("--canonical", help="The writer's canonical form instead of the "
                                            "original bytes.")] = False,
    everything: Annotated[bool, typer.Option("--all", help="Export every record.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace output files that exist.")] = False,
    sort: Annotated[str, typer.Option("--sort", help="Order, as for search.")] = "id",
    limit: Annotated[int, typer.Option("--limit", help="At most this many records (0: all).", **number(0))] = 0,
) -> None:
    """Records out of the archive: their original bytes (byte for byte) or --canonical."""
    ids = ids or []
    if not ids and filters.empty and not everything:
        raise CommandError("name record ids, give search filters, or use --all")
    with archive(db) as opened:
        chosen = opened.export(ids, filters, sort=sort, limit=limit or None)
    # One error per problem: an id that is not there is said once, and "no records match" only of the others.
    absent = [f"no record {i} in the archive" for i in chosen.missing]
    if not chosen.rows and absent and len(absent) == len(set(ids)):
        for line in absent[:-1]:
            note(f"error: {line}")
        raise CommandError(absent[-1], EXIT_FAILED)
    for line in absent:
        note(f"error: {line}")
    if not chosen.rows:
        raise CommandError("no records match", EXIT_FAILED)
    if output is None or output == "-":  # `-` is standard output, as for every command that names a file
        sys.stdout.buffer.write(chosen.collection(canonical=canonical))
        sys.stdout.buffer.flush()
    else:
        written = _export_files(chosen, output, canonical=canonical, force=force)
        where = output if len(written) == 1 else str(Path(output)) + "/"
        note(f"exported {plural(len(chosen.rows), 'record')} to {where}")
    if chosen.missing:
        raise typer.Exit(EXIT_FAILED)


def _export_files(chosen: Export, output: str, *, canonical: bool, force: bool) -> list[Path]:
    """Write the records to the file `output` (one collection) or, for a folder, one file per record: nothing is
    overwritten without `force`, no symlink is followed, and every file is renamed into place once complete."""
    from .output_files import OutputError, write_files

    out = Path(output)
    try:
        if out.is_dir() or output.endswith(("/", "\\")):
            if out.is_symlink():
                raise OutputError(f"{out} is a symbolic link: not written through")
            try:
                out.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise OutputError(f"cannot make the folder {out}: {exc.strerror or exc}") from None
            items = [(out / name, data) for name, data in chosen.files(canonical=canonical)]
        else:
            items = [(out, chosen.collection(canonical=canonical))]
        return write_files(items, force=force)
    except OutputError as exc:
        raise CommandError(str(exc)) from None


def stats_cmd(
    db: DbOption = None,
    game: Annotated[str | None, typer.Option("--game", help="Only this game.")] = None,
    players: Annotated[int, typer.Option("--players", help="How many players to list (0: all).", **number(0))] = 20,
    as_json: JsonOption = False,
) -> None:
    """Per game: records, the share that passes, results by method, win rates, the pie swap; per player: games
    and wins."""
    with archive(db) as opened:
        found = opened.stats(game=game, players=players)
    if as_json:
        print_json(found.to_json())
    else:
        _print_stats(found.games, found.players)
    if not found.games:
        raise typer.Exit(EXIT_FAILED)


def _print_stats(per_game: Sequence[Any], per_player: Sequence[Any]) -> None:
    console = make_console()
    if not per_game:
        note("the archive holds no records")
        return
    columns = [Column("game"), Column("records", justify="right"), Column("pass", justify="right", drop=3),
               Column("decided", justify="right", drop=5), Column("B wins", justify="right", drop=4),
               Column("W wins", justify="right", drop=4), Column("1st wins", justify="right", drop=6),
               Column("swaps", justify="right", drop=2), Column("swapper", justify="right", drop=1)]
    methods: list[Text] = []
    cells: list[list[Text | str]] = []
    for g in per_game:
        short = short_name(g.game)
        cells.append([short, str(g.records), percent(g.pass_share, missing="-"), str(g.decided),
                      percent(g.black_rate, missing="-"), percent(g.white_rate, missing="-"),
                      percent(g.first_player_rate, missing="-"),
                      f"{g.swaps} ({percent(g.swap_rate, missing='-')})" if g.swaps else "0",
                      f"{g.swapper_wins}/{g.swapper_decided}" if g.swapper_decided else "-"])
        listed = ", ".join(f"{m} {n}" for m, n in sorted(g.methods.items(), key=lambda kv: (-kv[1], kv[0])))
        methods.append(Text(shown(f"{short}: {listed}")))
    console.print(Text("per game (wins as shares of decided games; 1st: the player who moved first)", style="bold"))
    print_table(console, columns, cells)
    console.print(Text("declared results by method", style="bold"))
    for line in methods:
        console.print(line)
    if per_player:
        console.print()
        console.print(Text("per player", style="bold"))
        print_table(console, [Column("player", shorten=True, least=14), Column("games", justify="right"),
                              Column("wins", justify="right", drop=2), Column("win rate", justify="right", drop=1)],
                    [[Text(shown(s.name or "")), str(s.games), str(s.wins),
                      percent(s.wins / s.games if s.games else None, missing="-")] for s in per_player])
