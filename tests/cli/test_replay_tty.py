"""The interactive replay driven through a real pseudo-terminal: keys in, screen out, terminal mode restored."""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ..shared import interruptible

fcntl = pytest.importorskip("fcntl", reason="pseudo-terminals need a POSIX system")
termios = pytest.importorskip("termios", reason="pseudo-terminals need a POSIX system")

GO = b"(;GM[1]SZ[9]PB[Alice]PW[Bob];B[ca]C[first move];W[aa];B[ab];W[ba];B[bb]C[two captured])"
# 14 moves without a capture, for jumps.
LONG = (b"(;GM[1]SZ[9]PB[Alice]PW[Bob];B[aa];W[ia];B[ai];W[ii];B[ee];W[ce];B[ec];W[ge];B[eg];W[cc];B[gc];W[cg]"
        b";B[gg];W[hh])")
ILLEGAL = b"(;GM[1]SZ[9]PB[Alice]PW[Bob];B[aa];W[aa];B[bb])"  # move 2 plays on an occupied point
MARKUP = b"(;GM[Squer]SZ[4]PB[[bold red\\]x[/\\]]PW[Bob];B[dd];W[ab])"

RIGHT, LEFT, HOME, END = b"\x1b[C", b"\x1b[D", b"\x1b[H", b"\x1b[F"
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
# The status line closes every frame: the key help, the jump prompt, or a message.
_STATUS = ("q quit", "Esc: cancel", "moves; showing move")


class Terminal:
    """A child process on a pseudo-terminal of a fixed size; what it shows is read back as text."""

    def __init__(self, args: list[str], *, rows: int = 40, cols: int = 130, env: dict[str, str] | None = None):
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.mode_before = termios.tcgetattr(self.slave)
        base = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
        base.update({"TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8"})
        base.update(env or {})
        # A user's terminal delivers Ctrl-C; a test run started in the background by a shell without job control
        # ignores SIGINT, and its children would inherit that: the command starts as it would from a terminal.
        self.proc = subprocess.Popen([sys.executable, "-m", "boardrecords.cli.main", *args], stdin=self.slave,
                                     stdout=self.slave, stderr=self.slave, env=base, start_new_session=True,
                                     preexec_fn=interruptible)
        self.raw = b""

    def _pump(self, wait: float) -> None:
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            with contextlib.suppress(OSError):
                self.raw += os.read(self.master, 65536)

    def text(self) -> str:
        return self.raw.decode("utf-8", errors="replace")

    def screen(self) -> str:
        """The latest frame: what follows the last clear-screen, without escape codes."""
        text = self.text()
        return _ANSI.sub("", text[text.rfind("\x1b[2J"):] if "\x1b[2J" in text else text)

    def wait_for(self, predicate: Callable[[str], bool], what: str, deadline: float = 30.0) -> str:
        # A generous deadline only guards against a hung child; nothing here measures speed.
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            screen = self.screen()
            if predicate(screen):
                return screen
            self._pump(0.1)
        raise AssertionError(f"timed out waiting for {what}; screen:\n{self.screen()}")

    def frame(self, *needles: str) -> str:
        """Wait for a complete frame (its status line is the last) holding every needle."""
        return self.wait_for(lambda s: any(x in s for x in _STATUS) and all(n in s for n in needles),
                             " / ".join(needles))

    def send(self, data: bytes) -> None:
        # Mark the screen as stale so that the next frame is the answer to these keys.
        self.raw += b"\x1b[2J"
        os.write(self.master, data)

    def wait_exit(self) -> int:
        end = time.monotonic() + 30
        while self.proc.poll() is None and time.monotonic() < end:
            self._pump(0.1)
        self._pump(0.1)
        code = self.proc.wait(timeout=5)
        return code

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    opened: list[Terminal] = []

    def start(record: bytes, *extra: str, env: dict[str, str] | None = None, rows: int = 40,
              cols: int = 130) -> Terminal:
        path = tmp_path / f"game{len(opened)}.rec"
        path.write_bytes(record)
        t = Terminal(["replay", str(path), *extra], env=env, rows=rows, cols=cols)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def _row(screen: str, label: str) -> str:
    """The board row labelled `label` (Go coordinates: its number from the bottom) as drawn (cells only, three
    characters a point)."""
    m = re.search(rf"^ ?{label} [┃│|](.*?)[┃│|] {label}\b", screen, re.M)
    assert m, f"row {label} not on screen:\n{screen}"
    return m.group(1)


def _lflag_bits(mode: list) -> int:
    return mode[3] & (termios.ECHO | termios.ICANON | termios.ISIG)


def test_keys_step_through_the_game_and_q_quits(term) -> None:
    t = term(GO)
    screen = t.frame("Start (moves: 5)", "To move: Black (Alice)")
    # Go coordinates (GEN-10): row a is 9, row b is 8; ca = C9, aa = A9, bb = B8, ba = B9.
    assert _row(screen, "9") == " ·  ·  ·  ·  ·  ·  ·  ·  · "
    t.send(b"n")
    screen = t.frame("Move 1 of 5: Black C9 (Alice)", "first move")
    assert _row(screen, "9").startswith(" ·  · (●)")
    t.send(RIGHT)
    screen = t.frame("Move 2 of 5: White A9 (Bob)")
    assert _row(screen, "9").startswith("(○) ·  ● ")
    t.send(END)
    screen = t.frame("Move 5 of 5: Black B8 (Alice)", "captured 2: A9 B9", "two captured")
    assert _row(screen, "9").startswith(" ×  ×  ● ")  # ING-3: the captured pair, now empty
    assert _row(screen, "8").startswith(" ● (●)")
    t.send(LEFT)
    screen = t.frame("Move 4 of 5: White B9 (Bob)")
    assert _row(screen, "9").startswith(" ○ (○) ● ")
    t.send(HOME)
    t.frame("Start (moves: 5)")
    t.send(b"p")  # already at the start: stays
    t.frame("Start (moves: 5)")
    t.send(b"q")
    assert t.wait_exit() == 0
    assert "\x1b[?1049l" in t.text()  # left the alternate screen
    assert _lflag_bits(termios.tcgetattr(t.slave)) == _lflag_bits(t.mode_before)


def test_g_number_enter_jumps(term) -> None:
    t = term(LONG)
    t.frame("Start (moves: 14)")
    t.send(b"g12")
    t.frame("Go to move: 12_")
    t.send(b"\r")
    screen = t.frame("Move 12 of 14: White C3 (Bob)")
    assert _row(screen, "3")[6:9] == "(○)"  # cg = C3: column c of row g, the last move
    assert _row(screen, "3")[12:15] == " ● "  # eg (move 9)
    assert _row(screen, "3")[18:21] == " + "  # gg (move 13) not yet played: a star point (render/stars.py)
    assert _row(screen, "2")[21:24] == " · "  # hh (move 14) not yet played
    t.send(b"g99\r")
    t.frame("Move 14 of 14", "the replay has 14 moves")
    t.send(b"q")
    assert t.wait_exit() == 0


def test_an_invalid_record_stops_at_its_illegal_move(term) -> None:
    t = term(ILLEGAL)
    t.frame("Start (moves: 3)")  # the record's moves, though the replay stops at the second
    t.send(END)
    screen = t.frame("Illegal move 2 of 3: White A9 (Bob)", "illegal: A9 is occupied", "Verdict: invalid")
    assert _row(screen, "9").startswith("!●!")  # the occupied point the refused move named
    t.send(RIGHT)  # nothing after the illegal move
    t.frame("Illegal move 2 of 3")
    t.send(b"q")
    assert t.wait_exit() == 0


def test_terminal_mode_is_restored_after_an_interrupt(term) -> None:
    t = term(GO)
    t.frame("Start (moves: 5)")
    assert _lflag_bits(termios.tcgetattr(t.slave)) != _lflag_bits(t.mode_before)  # raw while it runs
    os.kill(t.proc.pid, signal.SIGINT)
    assert t.wait_exit() != 0
    assert _lflag_bits(termios.tcgetattr(t.slave)) == _lflag_bits(t.mode_before)
    assert "Traceback" not in t.text()


def test_markup_in_a_name_is_literal_on_screen(term) -> None:
    t = term(MARKUP)
    t.frame("Black: [bold red]x[/]")
    t.send(b"q")
    assert t.wait_exit() == 0


def test_no_color_means_no_escape_codes(term) -> None:
    coloured = term(GO, "--all")
    assert coloured.wait_exit() == 0
    assert "\x1b[" in coloured.text()  # on a terminal, colours are on by default
    for extra, env in (((), {"NO_COLOR": "1"}), (("--no-color",), None)):
        t = term(GO, "--all", *extra, env=env)
        assert t.wait_exit() == 0
        out = t.text()
        assert "Move 5 of 5" in out
        assert "\x1b" not in out


def test_a_19x19_board_on_a_small_terminal_keeps_every_row_and_the_move(term) -> None:
    t = term(b"(;GM[1]PB[Alice]PW[Bob];B[pd];W[dp];B[ss])", rows=30, cols=80)
    t.frame("Start (moves: 3)")
    t.send(END)
    screen = t.frame("Move 3 of 3: Black T1 (Alice)", "To move: White (Bob)")  # ss
    assert _row(screen, "19").count("·") == 19
    assert _row(screen, "1").endswith("(●)")  # the last move in the bottom-right corner
    # Two characters a point, to leave room for the text beside the board: a glyph at 2 * column + 1.
    assert _row(screen, "16")[30:33] == " ● "  # pd = Q16
    assert max(len(line) for line in screen.splitlines()) <= 80
    t.send(b"q")
    assert t.wait_exit() == 0
