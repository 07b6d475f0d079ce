"""The rich console every command prints with: colours off with NO_COLOR or --no-color, or when not a terminal."""

from __future__ import annotations

import os

from rich.console import Console


def make_console(*, no_color: bool = False, stderr: bool = False) -> Console:
    off = no_color or bool(os.environ.get("NO_COLOR"))
    return Console(no_color=off, highlight=False, stderr=stderr, soft_wrap=False)
