"""`records record`: a game recorded at the terminal as it is played, for a director without a browser.

The header is asked for (or given as options), then one move a line: a point in the game's notation (`Q16`,
`d3`) or SGF letters, `pass`, `swap`, `d3-f1`, `d3-`, `sweep-3`, `resign`; a colour first (`W d3`) where either
may move. Each move is checked by the rules and stored in the archive before the next prompt, through the same
Archive methods the web recorder calls (archive/store/recordings.py), so a recording left (`quit`, Ctrl-D, a
closed terminal) goes on with `records record --resume ID`. `finish` stores the game in the archive, verified,
and `-o FILE` writes its record.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from .common import CommandError, add_commands, archive, failure, make_console
from .options import DbOption

if TYPE_CHECKING:
    from rich.console import Console

    from ..archive.front import Archive
    from ..archive.store.recordings import Position

HELP = ("a point (Q16, d3, or SGF letters), pass, swap, d3-f1, d3-, sweep-3, resign; 'W d3' names the colour; "
        "undo; comment TEXT; dead POINTS (after the final passes); finish [RESULT]; discard; quit")


def register(app: typer.Typer) -> None:
    add_commands(app, {"record": record_cmd})


def _ask(label: str, default: str = "") -> str:
    """A header value from the next line typed ('' when none is given or standard input has ended)."""
    shown = f"{label} [{default}]: " if default else f"{label}: "
    sys.stdout.write(shown)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        return default
    return line.strip() or default


def _board(console: Console, position: Position, ascii: bool) -> None:
    """The position as the interactive replay draws it (cli/views/boards.py)."""
    from ..records.games import Colour
    from ..records.writer import new_record
    from .views.boards import board_renderable

    header = position.header
    record = new_record(position.game, position.size, black=header.get("black"), white=header.get("white"))
    rows = [[Colour(c) if c in "BW" else None for c in row] for row in position.board]
    console.print(board_renderable(record, None, rows, ascii=ascii))
    if position.moves:
        last = position.moves[-1]
        console.print(Text(f"last: {last.number}. {'Black' if last.colour == 'B' else 'White'} {last.name}"))
    if position.ended:
        console.print(Text(f"the game has ended: {position.result} ({position.reason}); type finish to store it"))
    elif position.to_move is None:
        console.print(Text(f"move {len(position.moves) + 1}: either colour may play: type 'B d3' or 'W d3'"))
    else:
        who = "Black" if position.to_move == "B" else "White"
        by = f" ({position.player_to_move})" if position.player_to_move else ""
        stop = " (two passes stopped the game: finish, or play on)" if position.stopped else ""
        console.print(Text(f"move {len(position.moves) + 1}: {who}{by} to play{stop}"))


def _start(opened: Archive, game: str | None, size: int | None, black: str | None, white: str | None,
           event: str | None, round_: str | None, komi: float | None) -> Position:
    from ..records.games import SPECS, game_from_name

    game_name = game or _ask("game (go, conversion-go, cation, quentin, squer)", "go")
    if size is None:
        found = game_from_name(game_name)
        default = SPECS[found].default_size if found is not None else None
        typed = _ask("size", str(default) if default else "")
        try:
            size = int(typed) if typed else None
        except ValueError:
            raise CommandError(f"size: {typed!r} is not a whole number") from None
    header = {"black": black if black is not None else _ask("black"),
              "white": white if white is not None else _ask("white"),
              "event": event if event is not None else _ask("event"),
              "round": round_ if round_ is not None else _ask("round")}
    if komi is not None:
        header["komi"] = str(komi)
    return opened.start_recording(game_name, size, **{k: v for k, v in header.items() if v})


def _act(opened: Archive, recording: int, line: str, after: int) -> Position | str | None:
    """Do what a line says: the position after it, "finish RESULT" / "quit" / "discard" for the loop, or None
    for a line that changed nothing."""
    word, _, rest = line.partition(" ")
    lowered = word.lower()
    if lowered in ("quit", "exit"):
        return "quit"
    if lowered == "discard":
        opened.discard_recording(recording)
        return "discard"
    if lowered == "finish":
        return "finish " + rest.strip()
    if lowered == "undo":
        return opened.undo_move(recording, after=after)
    if lowered == "comment":
        return opened.comment_move(recording, rest, after=after)
    if lowered == "dead":
        return _dead(opened, recording, rest.split(), after)
    if lowered in ("help", "?"):
        return None
    colour = None
    if word.upper() in ("B", "W") and rest.strip():
        colour, line = word.upper(), rest.strip()
    return opened.play_move(recording, line, colour=colour, after=after)


def _tried(console: Console, action: Callable[[], Any]) -> tuple[bool, Any]:
    """(True, what the action answers), or (False, the error) once the error is shown: a move the rules refuse,
    a value that names no move; the recorder then asks again."""
    from ..archive.store.recordings import MoveRefused

    try:
        return True, action()
    except MoveRefused as exc:
        console.print(Text(f"refused: {exc}"))
        return False, exc
    except CommandError:
        raise
    except Exception as exc:
        found = failure(exc)
        if found is None:
            raise
        console.print(Text(f"error: {found.message}"))
        return False, exc


def _dead(opened: Archive, recording: int, points: list[str], after: int) -> Position:
    """The stones agreed dead after the final passes (ING-7; Conversion Go's conversions, CON-7), marked on the
    final pass: a white stone in Black's territory (TB), a black one in White's (TW)."""
    from ..common.errors import InputError
    from ..records.games import Game
    from ..records.notation import NotationError, parse_point_text

    position = opened.recording(recording)
    black: list[str] = []
    white: list[str] = []
    for text in points:
        try:
            column, row = parse_point_text(text, Game(position.game), position.size)
        except NotationError as exc:
            raise InputError(f"dead: {exc}") from None
        stone = position.board[row][column]
        if stone == ".":
            raise InputError(f"dead: no stone on {text}")
        (black if stone == "W" else white).append(text)
    return opened.mark_recording(recording, black=black, white=white, after=after)


def record_cmd(
    game: Annotated[str | None, typer.Option("--game", "-g", help="go, conversion-go, cation, quentin, squer "
                                             "(asked for when not given).")] = None,
    size: Annotated[int | None, typer.Option("--size", help="The board size (asked for when not given).")] = None,
    black: Annotated[str | None, typer.Option("--black", help="The player who starts with Black.")] = None,
    white: Annotated[str | None, typer.Option("--white", help="The player who starts with White.")] = None,
    event: Annotated[str | None, typer.Option("--event", help="The event (EV).")] = None,
    round_: Annotated[str | None, typer.Option("--round", help="The round (RO).")] = None,
    komi: Annotated[float | None, typer.Option("--komi", help="Komi (KM).")] = None,
    resume: Annotated[int | None, typer.Option("--resume", help="Go on with the recording of this id.",
                                               min=1)] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the finished record to this file "
                                                "(.rec).")] = None,
    ascii: Annotated[bool, typer.Option("--ascii", help="Draw the board with ASCII characters only.")] = False,
    db: DbOption = None,
) -> None:
    """Record a game as it is played: each move checked by the rules and stored at once; finished into the
    archive, verified."""
    from ..archive.store.recordings import MoveRefused

    if output is not None and output.exists():
        raise CommandError(f"{output} exists already: name another file")
    console = make_console(board=True)
    with archive(db, write=True) as opened:
        position = opened.recording(resume) if resume is not None else _start(
            opened, game, size, black, white, event, round_, komi)
        if position.state != "playing":
            raise CommandError(f"recording {position.id} is {position.state}: nothing more can be recorded")
        console.print(Text(f"recording {position.id}: {HELP}"))
        while True:
            _board(console, position, ascii)
            sys.stdout.write("> ")
            sys.stdout.flush()
            line = sys.stdin.readline()
            if not line:  # standard input ended: the recording stays, to be resumed
                line = "quit"
            line = line.strip()
            if not line:
                continue
            ok, done = _tried(console, partial(_act, opened, position.id, line, len(position.moves)))
            if not ok:
                if isinstance(done, MoveRefused) and done.code == "stale":
                    position = opened.recording(position.id)
                continue
            if done is None:
                console.print(Text(HELP))
            elif isinstance(done, str):
                if done == "quit":
                    console.print(Text(f"recording {position.id} kept: `records record --resume {position.id}` "
                                       "goes on with it"))
                    return
                if done == "discard":
                    console.print(Text(f"recording {position.id} discarded"))
                    return
                result = done.removeprefix("finish").strip() or None
                ok, finished = _tried(console, partial(opened.finish_recording, position.id, result))
                if not ok:
                    continue
                if output is not None:
                    output.write_bytes(opened.record(finished.record).row.raw)
                winner = f", won by {finished.winner_player or finished.winner}" if finished.winner else ""
                console.print(Text(f"stored as record #{finished.record}: {finished.verdict}, "
                                   f"{finished.result}{winner}" + (f"; written to {output}" if output else "")))
                return
            else:
                position = done
