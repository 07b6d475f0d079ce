"""The rich console every command prints with: colours off with NO_COLOR or --no-color, or when not a terminal;
as wide as the terminal, or when piped as wide as COLUMNS says (else layout.PIPE_WIDTH).

`SafeConsole` is a rich Console that never writes a control character it did not make itself: the text of every
segment it renders (record text, file names, messages) goes through `safe_text.terminal` before rich adds its own
styles and cursor controls. Record text should also be given as `Text` (never as markup) and escaped where it is
laid out (so that columns are measured right); this is the net under those.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Annotated

import typer
from rich.console import Console
from rich.segment import Segment

from .views.layout import output_width
from .views.safe_text import terminal

# One option on every command that shows points (GEN-10): the game's own notation by default, SGF letters with it.
SgfPointsOption = Annotated[bool, typer.Option(
    "--sgf-points",
    help="Show points in the SGF letters of the records (pd) instead of the game's own notation (Q16 in Go and "
         "Conversion Go, d3 in Cation, Quentin and Squer). JSON `point` fields are SGF letters either way.")]


class SafeConsole(Console):
    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(terminal(segment.text), segment.style)
            for segment in buffer)


def make_console(*, no_color: bool = False, stderr: bool = False) -> Console:
    """Standard output (or, with `stderr`, the error stream, whose one-line messages are never folded)."""
    off = no_color or bool(os.environ.get("NO_COLOR"))
    probe = Console(stderr=stderr)
    # emoji=False: a record's text is shown as written (":smile:" in a name stays those seven characters).
    return SafeConsole(no_color=off, highlight=False, emoji=False, stderr=stderr, soft_wrap=stderr,
                       width=output_width(probe.is_terminal, probe.width))
