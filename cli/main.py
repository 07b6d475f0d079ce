"""The `records` command: one typer app; each group of commands registers itself from its own module."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer

from . import archive_cmd, explore_cmd, replay_cmd, tournament_cmd, verify_cmd

app = typer.Typer(
    name="records",
    help="Archive, verify and replay game records of Go (Ing rules), Conversion Go, Cation, Quentin and Squer.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
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
    """Archive, verify and replay game records of Go (Ing rules), Conversion Go, Cation, Quentin and Squer."""

verify_cmd.register(app)
archive_cmd.register(app)
explore_cmd.register(app)
replay_cmd.register(app)
tournament_cmd.register(app)


if __name__ == "__main__":  # pragma: no cover
    app()
