"""The interactive replay of a 19x19 game in real terminals of several sizes (tmux): what each size shows, and that
the screen never scrolls nor draws a line wider than the terminal."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

# Black's fifth move captures White's corner stone (ING-3); komi and rules from KM and RU.
GAME = ("(;GM[1]SZ[19]PB[Alice]PW[Bob]KM[6.5]RU[Japanese]DT[2024-05-01]RE[B+R]"
        ";B[pd];W[dp];B[ba];W[aa];B[ab]C[Black takes the corner stone.])")
TOP = re.compile(r"^ +A +B +C +D +E +F +G +H +J +K +L +M +N +O +P +Q +R +S +T\b")  # no I (GEN-10)
MOVE = "Move 5 of 5: Black A18 (Alice)"
TO_MOVE = "To move: White (Bob)"
VERDICT = "Verdict: pass"


class Pane:
    """`records replay` in a detached tmux session of its own server (its own socket), read with capture-pane."""

    def __init__(self, socket: Path, record: Path, cols: int, rows: int) -> None:
        self.socket, self.cols, self.rows = str(socket), cols, rows
        env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "COLUMNS", "LINES", "NO_COLOR")}
        env["PYTHONIOENCODING"] = "utf-8"
        command = f"{sys.executable} -m boardrecords.cli.main replay {record}"
        subprocess.run(["tmux", "-S", self.socket, "-f", os.devnull, "new-session", "-d", "-x", str(cols),
                        "-y", str(rows), "-s", "replay", command], check=True, env=env)

    def capture(self) -> list[str]:
        out = subprocess.run(["tmux", "-S", self.socket, "capture-pane", "-p", "-t", "replay"],
                             capture_output=True, text=True, check=True).stdout
        return out.split("\n")[:self.rows]

    def wait_for(self, text: str) -> list[str]:
        # The deadline only guards against a hung child; nothing here measures speed.
        end = time.monotonic() + 30
        while time.monotonic() < end:
            lines = self.capture()
            if any(text in line for line in lines) and any("quit" in line for line in lines):
                return lines
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {text!r}:\n" + "\n".join(self.capture()))

    def keys(self, *names: str) -> None:
        subprocess.run(["tmux", "-S", self.socket, "send-keys", "-t", "replay", *names], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Callable[[int, int], Pane]]:
    record = tmp_path / "game.sgf"
    record.write_text(GAME)
    opened: list[Pane] = []

    def start(cols: int, rows: int) -> Pane:
        p = Pane(tmp_path / f"tmux-{len(opened)}", record, cols, rows)
        opened.append(p)
        return p

    yield start
    for p in opened:
        p.close()


def _last_position(pane: Pane) -> str:
    pane.wait_for("Start (moves: 5)")
    pane.keys("End")
    lines = pane.wait_for(MOVE)
    assert TOP.match(lines[0]), "the top coordinates are the first line: the screen did not scroll\n" + "\n".join(lines)
    assert all(cell_len(line) <= pane.cols for line in lines), "\n".join(lines)
    shown = [line for line in lines if line.strip()]
    assert "quit" in shown[-1]  # the key help is the last line, whole (shortened, never wrapped)
    return "\n".join(lines)


def test_60x24_shows_the_move_and_names_what_it_left_out(pane) -> None:
    screen = _last_position(pane(60, 24))
    assert TO_MOVE in screen
    assert VERDICT not in screen
    note = next(line for line in screen.splitlines() if line.startswith("Not shown:"))
    assert "verdict" in note
    assert "Home/End" in screen and "g <number>" not in screen  # the short key help


def test_80x24_shows_the_board_the_move_who_moves_and_the_verdict(pane) -> None:
    screen = _last_position(pane(80, 24))
    for needed in (TO_MOVE, VERDICT, "Stones taken: Black 1, White 0", "White: Bob, komi 6.5"):
        assert needed in screen
    assert re.search(r"^ 1 │.*│ 1\b", screen, re.M)  # the bottom row of the board is there
    assert "Not shown: legend" in screen  # the legend, for one, did not fit
    assert "→/n next   ←/p back   Home/End   g <number> Enter: jump   q quit" in screen


@pytest.mark.parametrize(("cols", "rows"), [(100, 30), (132, 43)])
def test_larger_terminals_show_everything(pane, cols: int, rows: int) -> None:
    screen = _last_position(pane(cols, rows))
    for needed in (TO_MOVE, VERDICT, "captured 1: A19", "Stones taken: Black 1, White 0", "Rules: Japanese",
                   "Black takes the corner stone.", "(●) last move", "× captured"):
        assert needed in screen
    assert "Not shown" not in screen
    assert re.search(r"^19 │ ×  ●  · ", screen, re.M)  # three characters a point; A19 emptied by the capture
