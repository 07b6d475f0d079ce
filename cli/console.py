"""The rich console every command prints with: colours off with NO_COLOR or --no-color, or when not a terminal;
as wide as the terminal, or when piped as wide as COLUMNS says (else layout.PIPE_WIDTH)."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console

from .layout import output_width

# One option on every command that shows points (GEN-10): the game's own notation by default, SGF letters with it.
SgfPointsOption = Annotated[bool, typer.Option(
    "--sgf-points",
    help="Show points in the SGF letters of the records (pd) instead of the game's own notation (Q16 in Go and "
         "Conversion Go, d3 in Cation, Quentin and Squer). JSON `point` fields are SGF letters either way.")]


def make_console(*, no_color: bool = False, stderr: bool = False) -> Console:
    off = no_color or bool(os.environ.get("NO_COLOR"))
    probe = Console(stderr=stderr)
    return Console(no_color=off, highlight=False, stderr=stderr, soft_wrap=False,
                   width=output_width(probe.is_terminal, probe.width))
