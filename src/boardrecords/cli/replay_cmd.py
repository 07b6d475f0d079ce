"""The commands `records replay`, `records diagram` and `records html` (see cli/main.py).

Each takes a record file or, when the argument is an integer and no such file exists, an archive id (`--db`).
They only show what the replay computed (verifier/judging/analysis.py); bad input ends with `error: ...` and a non-zero
exit, never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.text import Text

from ..records.limits import STDIN
from ..records.model import Record
from ..render.game_lines import move_line
from .common import EXIT_FAILED, CommandError, add_commands, archive, make_console, note, run_settings
from .options import DB_INT_MAX, ForceOption, SgfPointsOption, number
from .views.boards import console_needs_ascii
from .views.words import plural

if TYPE_CHECKING:
    from ..verifier.judging.analysis import Analysis


# -- loading -----------------------------------------------------------------------------------------------


def _read_path(path: Path, index: int | None) -> Record:
    from ..records.reader import read_file

    # FormatError (unreadable: 1) or InputRefused (cannot be opened: 2), as verify's
    records = read_file(path, settings=run_settings())
    if not records:
        raise CommandError(f"{path}: no game record in this file")
    if index is None:
        if len(records) > 1:
            note(f"{path} holds {len(records)} records; showing the first (choose another with --index)")
        index = 0
    if not 0 <= index < len(records):
        raise CommandError(f"{path} holds {plural(len(records), 'record')}: --index must be 0..{len(records) - 1}")
    return records[index]


def _read_archive(record_id: int, db: str | None) -> Record:
    """The stored record `record_id`, read back from its original bytes: NotFound (1) when there is none, the
    archive's errors (2) or the stored record's (unreadable: 1), as every command says them."""
    with archive(db) as opened:
        return opened.record(record_id).record


def load_record(source: str, db: str | None, index: int | None) -> Record:
    """The record a command's argument names: a file, or an archive id when it is an integer and no such file."""
    path = Path(source)
    if source == STDIN:  # standard input, as verify and import read it
        return _read_path(path, index)
    if path.exists():
        if path.is_dir():
            raise CommandError(f"{source} is a folder, not a record file")
        return _read_path(path, index)
    if source.strip().isdigit():
        record_id = int(source)
        if record_id > DB_INT_MAX:  # larger than any id a database holds (and than its integers)
            raise CommandError(f"no record {source.strip()} in the archive", EXIT_FAILED)
        return _read_archive(record_id, db)
    raise CommandError(f"no such file: {source} (nor an archive id)")


def load_replay(source: str, db: str | None, index: int | None, sgf_points: bool = False) -> Analysis:
    """The named record's analysis; a record whose header keeps it from being replayed (an unknown game, a board
    size outside the game's range) ends the command with its problem, as `verify` states it."""
    from ..records.notation import Notation
    from ..verifier.judging.analysis import analyse

    record = load_record(source, db, index)
    data = analyse(record, notation=Notation.SGF if sgf_points else Notation.CUSTOMARY)
    if not data.replayed:
        first = data.verdict.first_error
        reason = first.describe(record.source) if first is not None else f"{source}: the record cannot be replayed"
        raise CommandError(f"cannot replay this record: {reason}" + (f" ({first.rule})" if first and first.rule and
                                                                     first.rule not in first.message else ""))
    return data


def _check_move(data: Analysis, move: int) -> int:
    if move < 0:
        raise CommandError("--move must be 0 (the start) or a move number")
    if move > data.last:
        ill = data.illegal_step
        if ill is not None and ill.illegal is not None:
            raise CommandError(f"no position after move {move}: the replay stops at move {ill.number}, which is "
                               f"illegal: {ill.illegal.message} ({ill.illegal.rule})")
        raise CommandError(f"no position after move {move}: the record has {data.last} moves")
    return move


# -- commands ------------------------------------------------------------------------------------------------

SourceArg = Annotated[str, typer.Argument(help="A record file (.rec, .sgf), - (standard input), or an archive id.",
                                          show_default=False)]
DbOpt = Annotated[str | None, typer.Option("--db", help="Archive: a path or SQLAlchemy URL (default: $RECORDS_DB, "
                                                        "else records.db).")]
IndexOpt = Annotated[int | None, typer.Option("--index", help="Which record of a collection file (0 = the first).",
                                              **number(0))]


def replay_command(
    source: SourceArg,
    move: Annotated[int | None, typer.Option("--move", "-m", help="Print the position after move N (0: start).")]
    = None,
    all_: Annotated[bool, typer.Option("--all", help="Print every position, one after the other.")] = False,
    ascii_: Annotated[bool, typer.Option("--ascii", help="Plain ASCII board.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colours or styles (also: NO_COLOR set).")]
    = False,
    db: DbOpt = None,
    index: IndexOpt = None,
    sgf_points: SgfPointsOption = False,
) -> None:
    """Replay a record: interactive in a terminal (→/n next, ←/p back, Home/End, g N Enter jump, q quit)."""
    console = make_console(no_color=no_color, board=True)
    data = load_replay(source, db, index, sgf_points)
    ascii = ascii_ or console_needs_ascii(console)
    if move is not None:
        _print_position(console, data, _check_move(data, move), ascii)
        return
    keys = None if all_ or not console.is_terminal else _terminal_input()
    if keys is None:
        for i in range(data.last + 1):
            _print_position(console, data, i, ascii)
        return
    from .views.interactive import run

    key_fd, opened = keys
    try:
        run(console, data, ascii=ascii, fd=key_fd)
    finally:
        if opened:
            os.close(key_fd)


def _terminal_input() -> tuple[int, bool] | None:
    """The terminal to read keys from (stdin, else the controlling terminal, opened here: True), or None."""
    try:
        if sys.stdin is not None and sys.stdin.isatty():
            return sys.stdin.fileno(), False
    except (ValueError, OSError):
        pass
    try:
        return os.open("/dev/tty", os.O_RDONLY), True
    except OSError:
        return None


def _print_position(console: Console, data: Analysis, index: int, ascii: bool) -> None:
    from .views.interactive import position_view

    if data.last > 0 or index > 0:
        console.print(Text(("=" if ascii else "━") * 3 + " " + move_line(data, index), style="bold"))
    console.print(position_view(data, index, ascii=ascii, width=console.width))
    console.print()


def _move_range(value: str) -> tuple[int, int]:
    """`101-200` as (101, 200): a usage error for anything else."""
    first, sep, last = value.strip().partition("-")
    if not (sep and first.strip().isdigit() and last.strip().isdigit()):
        raise typer.BadParameter(f"{value!r} is not a range of moves such as 101-200")
    a, b = int(first), int(last)
    if not 1 <= a <= b:
        raise typer.BadParameter(f"{value!r}: the first move is 1 or more and not after the last")
    return a, b


def diagram_command(
    source: SourceArg,
    move: Annotated[int | None, typer.Option("--move", "-m", help="The position after move N (default: the last).")]
    = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The SVG file to write (default: stdout); with --figures, the folder.")] = None,
    numbers: Annotated[str | None, typer.Option(
        "--numbers", metavar="FIRST-LAST",
        help="A numbered figure of these moves, e.g. 101-200: the position before the first, the moves' stones "
             "numbered, and notes such as '120 at 97' for stones played where the figure has one.")] = None,
    figures: Annotated[bool, typer.Option(
        "--figures", help="Every figure of the game, 100 moves each, as fig-1.svg, fig-2.svg, ... in the folder "
                          "-o (default: here).")] = False,
    force: ForceOption = False,
    db: DbOpt = None,
    index: IndexOpt = None,
    sgf_points: SgfPointsOption = False,
) -> None:
    """Write an SVG diagram of one position (stones, coordinates, owned edges, last move and what it changed), or
    numbered figures of moves as Go books print them."""
    from ..render.figures import figure_ranges, figure_svg, playable_last
    from ..render.svg import diagram_svg

    chosen = [name for name, given in (("--move", move is not None), ("--numbers", numbers is not None),
                                       ("--figures", figures)) if given]
    if len(chosen) > 1:
        raise CommandError(f"{' and '.join(chosen)} cannot be combined: a diagram shows one of them")
    span = _move_range(numbers) if numbers is not None else None
    data = load_replay(source, db, index, sgf_points)
    if figures:
        _write_figures(data, output or Path("."), figure_ranges(data), force)
        return
    if span is not None:
        end = playable_last(data)
        if span[0] > end:
            raise CommandError(f"no move {span[0]} to number: the record has {plural(end, 'move')}"
                               + (" before its illegal one" if end < data.last else ""))
        _write(output, figure_svg(data, span[0], min(span[1], end)), force)
        return
    at = data.last if move is None else _check_move(data, move)
    _write(output, diagram_svg(data, at), force)


def _write_figures(data: Analysis, folder: Path, ranges: list[tuple[int, int]], force: bool) -> None:
    from ..render.figures import figure_svg
    from .output_files import OutputError, write_files

    if not ranges:
        raise CommandError("no figure to draw: the record has no moves")
    if folder.exists() and not folder.is_dir():
        raise CommandError(f"{folder} is a file: --figures writes into a folder")
    items = [(folder / f"fig-{i}.svg", figure_svg(data, a, b).encode("utf-8", "replace"))
             for i, (a, b) in enumerate(ranges, 1)]
    try:
        write_files(items, force=force)
    except OutputError as exc:
        raise CommandError(str(exc)) from None
    names = items[0][0].name + (f" .. {items[-1][0].name}" if len(items) > 1 else "")
    note(f"wrote {plural(len(items), 'figure')} in {folder}: {names}")


def html_command(
    source: SourceArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The HTML file to write (default: stdout).")]
    = None,
    force: ForceOption = False,
    db: DbOpt = None,
    index: IndexOpt = None,
    sgf_points: SgfPointsOption = False,
) -> None:
    """Write one self-contained HTML page (no network access) that replays the game with buttons and arrow keys."""
    from ..render.html_replay import html_page

    data = load_replay(source, db, index, sgf_points)
    _write(output, html_page(data), force)


def _write(output: Path | None, text: str, force: bool = False) -> None:
    from .output_files import OutputError, write_output

    try:
        written = write_output(output, text, force=force)
    except OutputError as exc:
        raise CommandError(str(exc)) from None
    if written is not None:
        note(f"wrote {written}")


def register(app: typer.Typer) -> None:
    """Add `replay`, `diagram` and `html` to the app."""
    add_commands(app, {"replay": replay_command, "diagram": diagram_command, "html": html_command})
