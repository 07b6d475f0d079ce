"""The `records` command: one typer app whose commands are loaded when they are used.

Each group of commands lives in its own module and registers itself there (`register(app)`). Loading them all would
cost every command the start-up of all (SQLAlchemy for the archive, the rules engines for verify...), so this group
knows only their names, panels and one-line summaries, and imports a module when one of its commands runs (or
shows its own --help). tests/cli/test_cli_startup.py checks that this table and the modules agree.

Command modules (`*_cmd.py`) import only the shared ones, never each other: common.py (exit codes, consoles, JSON,
CommandError, the archive), options.py (option types, search filters), tables.py (the games' tables),
positions.py (the position asked for), the terminal views (views/) and the renderers below both faces
(render/).
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

# name -> (module, help panel, summary), in the order `records --help` lists them.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "verify": ("verify_cmd", "Verify", "Replay records through the rules and check every move and the result."),
    "replay": ("replay_cmd", "Replay", "Replay a record move by move in the terminal."),
    "diagram": ("replay_cmd", "Replay", "An SVG diagram of one position."),
    "html": ("replay_cmd", "Replay", "A self-contained HTML page that replays the game."),
    "convert": ("convert_cmd", "Replay", "Write records of any format (GIB, NGF, UGF...) as SGF."),
    "import": ("archive_cmd", "Archive", "Verify and store records in the archive."),
    "search": ("search_cmd", "Archive", "Find records: players, events, dates, results, verdicts, positions."),
    "duplicates": ("search_cmd", "Archive", "Games stored more than once, decided on their moves."),
    "show": ("archive_cmd", "Archive", "A stored record, its verdict and its final position."),
    "export": ("archive_cmd", "Archive", "Records out of the archive, byte for byte."),
    "stats": ("archive_cmd", "Archive", "Results, win rates and pie swaps per game and per player."),
    "explore": ("explore_cmd", "Archive", "What was played next at a position, and how it went."),
    "reindex": ("explore_cmd", "Archive", "Rebuild the position index."),
    "record": ("record_cmd", "Archive", "Record a game as it is played: each move checked and stored at once."),
    "delete": ("curate_cmd", "Curation", "Delete records from the archive."),
    "fix": ("curate_cmd", "Curation", "Correct a stored record, keeping its history."),
    "events": ("tournament_cmd", "Tournaments", "Every event: games, dates, rounds, players."),
    "crosstable": ("tournament_cmd", "Tournaments", "An event's crosstable with tie-breaks."),
    "players": ("tournament_cmd", "Tournaments", "Every player: games, wins and losses per game."),
    "player": ("player_cmd", "Tournaments", "One player: games, opponents, colours, events, openings, rating."),
    "alias": ("tournament_cmd", "Tournaments", "Make several spellings one player."),
    "ratings": ("tournament_cmd", "Tournaments", "Whole-History Rating of every player, per game."),
    "tournament": ("tournament_cmd", "Tournaments", "Official tournaments: import OpenGotha files."),
    "numbers": ("tournament_cmd", "Tournaments", "Players' federation numbers: EGD PIN, AGA id, FFG licence."),
    "serve": ("serve_cmd", "Serve", "The archive in a browser: games, replays, the explorer (read-only)."),
    "user": ("user_cmd", "Serve", "The accounts of a served archive: add, list, remove, password."),
    "audit": ("user_cmd", "Serve", "The changes made through a served archive: who, when, what."),
}


class LazyCommands(TyperGroup):
    """A group that imports a command's module only when the command is asked for."""

    listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        if self.listing:  # the group's --help: a summary, without loading the module
            summary = typer.core.TyperCommand(cmd_name, help=entry[2])
            summary.rich_help_panel = entry[1]
            return summary
        return load(entry[0])[cmd_name]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        LazyCommands.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            LazyCommands.listing = False


def load(module: str) -> dict[str, Any]:
    """The click commands a module registers, by name."""
    sub = typer.Typer(rich_markup_mode="rich")
    importlib.import_module(f"{__package__}.{module}").register(sub)
    return dict(typer.main.get_group(sub).commands)


app = typer.Typer(
    name="records",
    cls=LazyCommands,
    help="Archive, verify and replay game records of Go (Simplified Ing Rules), Conversion Go, Cation, Quentin and "
         "Squer.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("boardrecords")
        except PackageNotFoundError:  # run from a source tree that was not installed
            number = "unknown"
        typer.echo(f"records {number}")
        raise typer.Exit()


@app.callback()
def main(
    _version: Annotated[bool, typer.Option("--version", help="Print the version and exit.", callback=_show_version,
                                           is_eager=True)] = False,
) -> None:
    """Archive, verify and replay game records of Go (Simplified Ing Rules), Conversion Go, Cation, Quentin and
    Squer."""


def forget_handled_interrupt() -> None:
    """Clear CPython's mark of an interrupt left unhandled, once the command has handled it.

    A Ctrl-C that interrupts code a library runs from a string (`exec` of generated source: dataclasses, SQLAlchemy
    and pydantic make classes so) leaves a mark in the interpreter as if the interrupt had gone unhandled, though
    the command caught it, said `interrupted` and exits with 130. Under `python -m` the interpreter reads that mark
    at its very end and kills itself with SIGINT instead of exiting with the command's status. (The installed
    `records` script is run otherwise and exits at once with the status.) The mark is cleared at the start of every
    run of source from a string: running an empty one clears it, and runs nothing."""
    exec("")  # an empty, constant source: nothing from the data or the user


if __name__ == "__main__":  # pragma: no cover
    try:
        app()
    finally:
        forget_handled_interrupt()
