"""The replay screen: the board beside its move information, key decoding, and the live loop on a real terminal.

The terminal is put in raw mode (termios) for single key presses and always restored, also when the loop ends
by an exception. Steps are computed once before the loop (verifier/judging/analysis.py); a key only moves an index.
"""

from __future__ import annotations

import os
import select
from collections.abc import Callable
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.console import Console, Group, RenderableType
from rich.segment import Segment, Segments
from rich.style import Style
from rich.table import Table
from rich.text import Text

from ...render.game_lines import (
    change_lines,
    comment_of,
    header_lines,
    move_line,
    swap_line,
    taken_line,
    to_move_line,
    verdict_lines,
)
from ...verifier.judging.analysis import Analysis
from .boards import board_renderable, label_width, narrow_fits

# The key help, longest first: the status line shows the longest that fits the terminal's width (never wrapped).
HELP = ("→/n next   ←/p back   Home/End   g <number> Enter: jump   q quit",
        "→ next  ← back  Home/End  g N Enter: jump  q quit",
        "→ ← step  g N: jump  q quit",
        "q quit")
HELP_ASCII = ("right/n next   left/p back   Home/End   g <number> Enter: jump   q quit",
              "n next  p back  Home/End  g N Enter: jump  q quit",
              "n p step  g N: jump  q quit",
              "q quit")
_PANEL_MIN = 34
_PANEL_TIGHT = 26  # on a screen that must hold everything, a narrower panel beside the board beats text below it
_LEGEND_MIN = 30
_SPACING = 9  # blank lines between the panel's parts: the first thing left out, without a word

# -- the view ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Part:
    """One part of the text beside the board: its name (for the line saying what was left out), how much it
    matters (1: kept longest), and its lines with their styles."""

    name: str
    rank: int
    lines: tuple[tuple[str, Style], ...]


def _part(name: str, rank: int, lines: list[str], style: Style | None = None) -> Part:
    return Part(name, rank, tuple((line, style or Style()) for line in lines))


def info_parts(data: Analysis, index: int) -> list[Part]:
    """The text beside the board, in reading order. Record text goes into Text objects, never through rich markup.

    Ranks: the move line, who moves next and the verdict's first line are kept longest; then what the move
    changed, the players, the stones taken; then the rest of the header, the comment and the verdict's details.
    """
    step = data.step_at(index)
    refused = step is not None and step.illegal is not None
    header = header_lines(data.record)
    players = [line for line in header if line.startswith(("Black: ", "White: ", "Rules: "))]
    others = [_part(line.partition(":")[0].lower(), 7, [line]) for line in header[1:] if line not in players]
    verdict = verdict_lines(data)
    comment = comment_of(data, index)
    swap = swap_line(data, index)
    taken = taken_line(data, index)
    blank = _part("", _SPACING, [""])
    parts = [
        Part("title", 6, ((header[0], Style(bold=True)),)),
        _part("players", 4, players),
        *others,
        blank,
        _part("move", 1, [move_line(data, index)], Style(bold=True, color="red" if refused else None)),
        _part("changes", 4, ["  " + line for line in change_lines(step, data.points)],
              Style(color="red") if refused else Style(color="magenta")),
        _part("to move", 2, [to_move_line(data, index)]),
        _part("swap", 4, [swap] if swap else [], Style(color="cyan")),
        _part("stones taken", 5, [taken] if taken else []),
        Part("comment", 7, (("Comment:", Style(bold=True)), (comment.rstrip(), Style())) if comment else ()),
        blank,
        Part("verdict", 3, ((verdict[0], Style(bold=True)),)),
        _part("result", 6, verdict[1:]),
    ]
    return [p for p in parts if p.lines]


def parts_text(parts: list[Part]) -> Text:
    """The parts as one Text."""
    out = Text()
    for part in parts:
        for line, style in part.lines:
            out.append(line + "\n", style)
    out.rstrip()
    return out


def _with_note(parts: list[Part], left_out: list[str]) -> RenderableType:
    """The parts, and one line (never wrapped) naming what was left out, the most important first."""
    if not left_out:
        return parts_text(parts)
    note = Text(f"Not shown: {', '.join(left_out)}", style=Style(dim=True), no_wrap=True, overflow="ellipsis")
    return Group(parts_text(parts), note) if parts else note


def info_renderable(data: Analysis, index: int) -> RenderableType:
    """Everything about the position, for printing (`replay --move`, `--all`): no height to keep to."""
    return parts_text(info_parts(data, index))


def board_width(size: int, label: int = 1, *, narrow: bool = False) -> int:
    """The board's width in characters, with row labels `label` characters wide."""
    return (2 * size + 6 if narrow else 3 * size + 5) + 2 * label


def _board(data: Analysis, index: int, *, ascii: bool, compact: bool, narrow: bool,
           frame: bool = True) -> RenderableType:
    return board_renderable(data.record, data.step_at(index), data.rows_at(index), ascii=ascii, compact=compact,
                            narrow=narrow, frame=frame, names=data.points)


def position_view(data: Analysis, index: int, *, ascii: bool, width: int, compact: bool = False) -> RenderableType:
    """The board after move `index` with its highlights, and the information beside it (below when narrow)."""
    board = _board(data, index, ascii=ascii, compact=compact, narrow=False)
    info = info_renderable(data, index)
    # The legend under the board wraps to the board's width (but not narrower than a short legend line).
    bw = max(board_width(data.record.size, label_width(data.points)), _LEGEND_MIN)
    if width >= bw + 2 + _PANEL_MIN:
        return _beside(board, info, bw)
    return Group(board, Text(""), info)


def _beside(board: RenderableType, info: RenderableType, bw: int) -> RenderableType:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(width=bw)
    grid.add_column(ratio=1)
    grid.add_row(board, info)
    return grid


def _fit_parts(console: Console, parts: list[Part], width: int, room: int,
               missing: list[str]) -> tuple[list[Part], list[str]] | None:
    """The parts that fit `room` lines of `width` columns, leaving out the least important first, and the names
    of what was left out (`missing` first, then by rank), whose line counts in the room; None when not even that
    line fits."""
    shown = list(parts)
    options = console.options.update(width=max(1, width), height=None)
    out_parts: list[Part] = []

    def fits() -> bool:
        note = 1 if missing or any(p.rank != _SPACING for p in out_parts) else 0
        return len(console.render_lines(parts_text(shown), options, pad=False)) + note <= room if shown else (
            note <= room)

    for part in sorted(parts, key=lambda p: -p.rank):  # the least important first; stable within a rank
        if fits():
            break
        shown.remove(part)
        out_parts.append(part)
    if not fits():
        return None
    names = [p.name for p in sorted(out_parts, key=lambda p: p.rank) if p.rank != _SPACING]
    return shown, [*missing, *dict.fromkeys(names)]


def screen_view(console: Console, data: Analysis, index: int, *, ascii: bool, width: int,
                room: int) -> RenderableType:
    """The position drawn in at most `room` lines of `width` columns: the layout that leaves out the least.

    Tried in turn: the board of three characters a point, then of two (`narrow`), each with its legend and
    bottom coordinates and then without (`compact`), with the text beside it when there is room for a panel,
    else below. The text's parts are left out by rank (`info_parts`), and one line says which.
    """
    parts = info_parts(data, index)
    lw = label_width(data.points)
    size = data.record.size
    options = console.options.update(width=width, height=None)
    best: tuple[tuple[int, ...], RenderableType] | None = None
    narrows = (False, True) if narrow_fits(data.points) else (False,)
    for narrow in narrows:
        for compact, frame in ((False, True), (True, True), (True, False)):
            board = _board(data, index, ascii=ascii, compact=compact, narrow=narrow, frame=frame)
            lines = console.render_lines(board, options, pad=False)
            bw = max(board_width(size, lw, narrow=narrow), 0 if compact else _LEGEND_MIN)
            if len(lines) > room or bw > width:
                continue
            missing = ["legend"] if compact else []
            beside = width >= bw + 2 + _PANEL_TIGHT
            fitted = (_fit_parts(console, parts, width - bw - 2, room, missing) if beside else
                      _fit_parts(console, parts, width, room - len(lines), missing))
            if fitted is None:
                continue
            shown, out = fitted
            text = _with_note(shown, out)
            view: RenderableType = _beside(board, text, bw) if beside else Group(board, text) if shown or out else board
            # Fewest important parts left out first, then fewest parts; the earlier layout on a tie.
            score = tuple(sum(1 for p in parts if p.rank <= r and p.name in out) for r in range(1, 8))
            if best is None or score < best[0]:
                best = (score, view)
            if not out:
                return view
    if best is not None:
        return best[1]
    # Too small for any board: keep the top, which holds the coordinates and the board's first rows.
    board = _board(data, index, ascii=ascii, compact=True, narrow=len(narrows) == 2, frame=False)
    lines = console.render_lines(board, options, pad=False)[:max(0, room - 1)]
    note = [Segment("… the board is cut: the terminal is too small", Style(dim=True))]
    return Segments([seg for line in [*lines, note] for seg in (*line, Segment.line())])


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

    def status(self, ascii: bool, width: int = 1000) -> str:
        """The status line, never wider than `width`: the jump being typed, a message, or the key help."""
        if self.typing is not None:
            return _shortest([f"Go to move: {self.typing}_   (Enter: go, Esc: cancel)", f"Go to: {self.typing}_"],
                             width)
        if self.message:
            return _shortest([self.message], width)
        return _shortest(list(HELP_ASCII if ascii else HELP), width)


def _shortest(texts: list[str], width: int) -> str:
    """The first text that fits `width` columns, else the last one cut to it."""
    for text in texts:
        if cell_len(text) <= width:
            return text
    return set_cell_size(texts[-1], max(0, width))


def screen_renderable(console: Console, data: Analysis, state: ReplayState, *, ascii: bool) -> RenderableType:
    """One screen: the position in the lines above the status line, which is last and never wrapped.

    The screen is printed without a newline after the status line, so it fills the terminal without scrolling.
    """
    width, height = console.size
    status = Text(state.status(ascii, width - 1), no_wrap=True, overflow="crop", end="",
                  style=Style(reverse=True) if state.typing is not None else Style(dim=True))
    view = screen_view(console, data, state.index, ascii=ascii, width=width, room=max(1, height - 1))
    options = console.options.update(width=width, height=None)
    lines = console.render_lines(view, options, pad=False)
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
        console.print(screen_renderable(console, data, state, ascii=ascii), end="")
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
