"""Fitting tables into the terminal: which columns a width affords, and breaking long paths only at their `/`."""

from __future__ import annotations

import os

# Piped output (not a terminal) is laid out this wide unless COLUMNS says otherwise.
PIPE_WIDTH = 100


def output_width(is_terminal: bool, terminal_width: int) -> int:
    """The width to lay tables out in: the terminal's, else COLUMNS, else PIPE_WIDTH."""
    if is_terminal:
        return terminal_width
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else PIPE_WIDTH


def wrap_path(path: str, width: int) -> str:
    """The path on as many lines as it needs, broken after a `/` (a segment longer than a line is cut)."""
    width = max(width, 8)
    if len(path) <= width:
        return path
    lines: list[str] = []
    line = ""
    for part in path.replace("/", "/\0").split("\0"):
        while len(part) > width:  # one segment longer than a line: no better place to break it
            if line:
                lines.append(line)
                line = ""
            lines.append(part[:width])
            part = part[width:]
        if len(line) + len(part) > width:
            lines.append(line)
            line = ""
        line += part
    if line:
        lines.append(line)
    return "\n".join(lines)
