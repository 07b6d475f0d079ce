"""The replay screen: the board beside its move information, key decoding, and the live loop on a real terminal.

The terminal is put in raw mode (termios) for single key presses and always restored, also when the loop ends
by an exception. Steps are computed once before the loop (verifier/analysis.py); a key only moves an index.
"""

from __future__ import annotations

import os
import select
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.segment import Segment, Segments
from rich.style import Style
from rich.table import Table
from rich.text import Text

from ...verifier.analysis import Analysis
from .boards import (
    board_renderable,
    change_lines,
    comment_of,
    header_lines,
    label_width,
    move_line,
    swap_line,
    to_move_line,
    verdict_lines,
)

HELP = "→/n next   ←/p back   Home/End   g <number> Enter: jump   q quit"
HELP_ASCII = "right/n next   left/p back   Home/End   g <number> Enter: jump   q quit"
_PANEL_MIN = 34
_LEGEND_MIN = 30

# -- the view ------------------------------------------------------------------------------------------------


def info_renderable(data: Analysis, index: int) -> RenderableType:
    """The text beside the board. Record text goes into Text objects, never through rich markup."""
    out = Text()
    for i, line in enumerate(header_lines(data.record)):
        out.append(line + "\n", Style(bold=True) if i == 0 else Style())
    out.append("\n")
    step = data.step_at(index)
    out.append(move_line(data, index) + "\n", Style(bold=True, color="red" if step and step.illegal else None))
    for line in change_lines(step, data.points):
        out.append("  " + line + "\n", Style(color="red") if step and step.illegal else Style(color="magenta"))
    out.append(to_move_line(data, index) + "\n")
    swap = swap_line(data, index)
    if swap:
        out.append(swap + "\n", Style(color="cyan"))
    comment = comment_of(data, index)
    if comment:
        out.append("Comment:\n", Style(bold=True))
        out.append(comment.rstrip() + "\n")
    out.append("\n")
    for i, line in enumerate(verdict_lines(data)):
        out.append(line + "\n", Style(bold=True) if i == 0 else Style())
    out.rstrip()
    return out


def short_view(data: Analysis, index: int, *, ascii: bool) -> RenderableType:
    """For a terminal too small for the board and its information: the board, then the move in a few lines."""
    board = board_renderable(data.record, data.step_at(index), data.rows_at(index), ascii=ascii, compact=True,
                             names=data.points)
    step = data.step_at(index)
    info = [move_line(data, index), "; ".join(change_lines(step, data.points)), to_move_line(data, index)]
    text = Text("\n".join(line for line in info if line), no_wrap=True, overflow="ellipsis")
    return Group(board, text)


def board_width(size: int, label: int = 1) -> int:
    """The board's width in characters, with row labels `label` characters wide."""
    return 3 * size + 5 + 2 * label


def position_view(data: Analysis, index: int, *, ascii: bool, width: int, compact: bool = False) -> RenderableType:
    """The board after move `index` with its highlights, and the information beside it (below when narrow)."""
    board = board_renderable(data.record, data.step_at(index), data.rows_at(index), ascii=ascii, compact=compact,
                             names=data.points)
    info = info_renderable(data, index)
    # The legend under the board wraps to the board's width (but not narrower than a short legend line).
    bw = max(board_width(data.record.size, label_width(data.points)), _LEGEND_MIN)
    if width >= bw + 2 + _PANEL_MIN:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=bw)
        grid.add_column(ratio=1)
        grid.add_row(board, info)
        return grid
    return Group(board, Text(""), info)


# -- keys ------------------------------------------------------------------------------------------------------

_SEQUENCES: dict[bytes, str] = {
    b"\x1b[C": "right", b"\x1bOC": "right",
    b"\x1b[D": "left", b"\x1bOD": "left",
    b"\x1b[A": "up", b"\x1bOA": "up",
    b"\x1b[B": "down", b"\x1bOB": "down",
    b"\x1b[H": "home", b"\x1bOH": "home", b"\x1b[1~": "home", b"\x1b[7~": "home",
    b"\x1b[F": "end", b"\x1bOF": "end", b"\x1b[4~": "end", b"\x1b[8~": "end",
    b"\x1b[5~": "pageup", b"\x1b[6~": "pagedown",
}
_SINGLE: dict[int, str] = {0x0D: "enter", 0x0A: "enter", 0x7F: "backspace", 0x08: "backspace", 0x03: "ctrl-c",
                           0x04: "ctrl-d", 0x1B: "escape"}


def decode_keys(data: bytes) -> tuple[list[str], bytes]:
    """Key names in `data`, and the bytes of an escape sequence cut short at its end (to be completed).

    Printable characters are their own names (`n`, `5`); escape sequences become `right`, `home`, ...;
    an unknown sequence is dropped. A lone ESC is returned as the remainder so the caller can wait for the rest.
    """
    keys: list[str] = []
    i = 0
    while i < len(data):
        b = data[i]
        if b == 0x1B:
            if i + 1 >= len(data):
                return keys, data[i:]
            nxt = data[i + 1]
            if nxt in (0x5B, 0x4F):  # CSI `[` or SS3 `O`
                j = i + 2
                # A CSI sequence ends with a byte in 0x40..0x7E; SS3 is one byte after `O`.
                while j < len(data) and nxt == 0x5B and not 0x40 <= data[j] <= 0x7E:
                    j += 1
                if j >= len(data):
                    return keys, data[i:]
                seq = data[i:j + 1]
                name = _SEQUENCES.get(seq)
                if name:
                    keys.append(name)
                i = j + 1
                continue
            keys.append("escape")
            i += 1
            continue
        if b in _SINGLE:
            keys.append(_SINGLE[b])
        elif 0x20 <= b < 0x7F:
            keys.append(chr(b))
        i += 1
    return keys, b""


@dataclass(slots=True)
class ReplayState:
    """Which position is shown, and the `g` jump being typed."""

    last: int
    index: int = 0
    typing: str | None = None  # the digits typed after `g`, or None
    message: str = ""

    def handle(self, key: str) -> bool:
        """Apply one key; False when the replay should end."""
        self.message = ""
        if self.typing is not None:
            return self._typing(key)
        if key in ("q", "Q", "ctrl-c", "ctrl-d"):
            return False
        if key in ("right", "n", " ", "down"):
            self.index = min(self.last, self.index + 1)
        elif key in ("left", "p", "up"):
            self.index = max(0, self.index - 1)
        elif key == "pagedown":
            self.index = min(self.last, self.index + 10)
        elif key == "pageup":
            self.index = max(0, self.index - 10)
        elif key in ("home", "<"):
            self.index = 0
        elif key in ("end", ">"):
            self.index = self.last
        elif key == "g":
            self.typing = ""
        return True

    def _typing(self, key: str) -> bool:
        assert self.typing is not None
        if key.isdigit() and len(key) == 1:
            self.typing += key
        elif key == "backspace":
            self.typing = self.typing[:-1]
        elif key == "enter":
            if self.typing:
                wanted = int(self.typing)
                self.index = min(self.last, wanted)
                if wanted > self.last:
                    self.message = f"the replay has {self.last} moves; showing move {self.last}"
            self.typing = None
        elif key in ("escape", "g"):
            self.typing = None
        elif key in ("ctrl-c", "ctrl-d"):
            return False
        return True

    def status(self, ascii: bool) -> str:
        if self.typing is not None:
            return f"Go to move: {self.typing}_   (Enter: go, Esc: cancel)"
        return self.message or (HELP_ASCII if ascii else HELP)


def screen_renderable(console: Console, data: Analysis, state: ReplayState, *, ascii: bool) -> RenderableType:
    """One screen: the position, cut to the terminal's height when it is too short, and the status line last."""
    status = Text(state.status(ascii), style=Style(reverse=True) if state.typing is not None else Style(dim=True))
    width, height = console.size
    room = max(1, height - 2)  # the status line, and one line to spare so the screen never scrolls
    options = console.options.update(width=width, height=None)
    lines: list[list[Segment]] = []
    for view in (position_view(data, state.index, ascii=ascii, width=width),
                 position_view(data, state.index, ascii=ascii, width=width, compact=True),
                 short_view(data, state.index, ascii=ascii)):
        lines = console.render_lines(view, options, pad=False)
        if len(lines) <= room:
            break
    if len(lines) > room:
        # Still too tall (a big board, or a long comment): keep the top, which holds the board's first rows.
        lines = [*lines[:room - 1], [Segment("…", Style(dim=True))]]
    body = Segments([seg for line in lines for seg in (*line, Segment.line())])
    return Group(body, status)


# -- the terminal loop ---------------------------------------------------------------------------------------


class KeyReader:
    """Key names from a terminal file descriptor in raw mode."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def read(self, timeout: float | None = None) -> list[str]:
        """Keys typed; [] when `timeout` passes without input. Raises EOFError when the terminal is gone."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return []
        chunk = os.read(self.fd, 1024)
        if not chunk:
            raise EOFError
        keys, rest = decode_keys(chunk)
        # An escape sequence may arrive in pieces: wait briefly for the rest; an ESC alone is the Escape key.
        while rest:
            more, _, _ = select.select([self.fd], [], [], 0.05)
            if more:
                extra = os.read(self.fd, 1024)
                if not extra:
                    raise EOFError
                rest += extra
            else:
                keys.append("escape")
                rest = rest[1:]
            done, rest = decode_keys(rest)
            keys.extend(done)
        return keys


def run(console: Console, data: Analysis, *, ascii: bool, fd: int,
        on_draw: Callable[[], None] | None = None) -> None:
    """Replay interactively on the terminal `fd` until `q`. The terminal's mode is restored however this ends."""
    import termios
    import tty

    state = ReplayState(last=data.last)
    saved = termios.tcgetattr(fd)
    reader = KeyReader(fd)

    def draw() -> None:
        console.clear()
        console.print(screen_renderable(console, data, state, ascii=ascii))
        if on_draw is not None:
            on_draw()

    try:
        tty.setraw(fd, termios.TCSANOW)
        # Raw input, but keep output processing so that rich's newlines still return the carriage.
        mode = termios.tcgetattr(fd)
        mode[1] |= termios.OPOST | termios.ONLCR
        termios.tcsetattr(fd, termios.TCSANOW, mode)
        console.set_alt_screen(True)
        console.show_cursor(False)
        draw()
        size = console.size
        while True:
            try:
                keys = reader.read(timeout=0.5)
            except EOFError:
                return
            if not keys:
                if console.size != size:  # the window was resized
                    size = console.size
                    draw()
                continue
            for key in keys:
                if not state.handle(key):
                    return
            draw()
    finally:
        console.show_cursor(True)
        console.set_alt_screen(False)
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
