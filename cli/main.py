"""The `records` command: one typer app; each group of commands registers itself from its own module."""

from __future__ import annotations

import typer

from . import archive_cmd, replay_cmd, verify_cmd

app = typer.Typer(
    name="records",
    help="Archive, verify and replay game records of Go (Ing rules), Conversion Go, Cation, Quentin and Squer.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)

verify_cmd.register(app)
archive_cmd.register(app)
replay_cmd.register(app)


if __name__ == "__main__":  # pragma: no cover
    app()
