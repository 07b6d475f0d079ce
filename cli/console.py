"""The rich console every command prints with: colours off with NO_COLOR or --no-color, or when not a terminal.

`SafeConsole` is a rich Console that never writes a control character it did not make itself: the text of every
segment it renders (record text, file names, messages) goes through `safe_text.terminal` before rich adds its own
styles and cursor controls. Record text should also be given as `Text` (never as markup) and escaped where it is
laid out (so that columns are measured right); this is the net under those.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment

from .safe_text import terminal


class SafeConsole(Console):
    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(terminal(segment.text), segment.style)
            for segment in buffer)


def make_console(*, no_color: bool = False, stderr: bool = False) -> Console:
    off = no_color or bool(os.environ.get("NO_COLOR"))
    return SafeConsole(no_color=off, highlight=False, stderr=stderr, soft_wrap=False)
