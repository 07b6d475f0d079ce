"""Evenness (issue 21, point 5): `-` wherever a record is read, explore's moves by spaces or commas, any output
encoding."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared import EXAMPLES, import_games, run

RECORD = EXAMPLES / "go" / "capture-and-resignation.rec"
CJK = "天下无狗"
GAMES = {
    "a.sgf": f"(;GM[1]SZ[19]PB[{CJK}]PW[Alice]RE[W+R];B[pd];W[dp];B[pp])\n",
    "b.sgf": "(;GM[1]SZ[19]PB[Bob]PW[Alice]RE[B+R];B[pd];W[dp];B[dd])\n",
}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("even")
    db = str(tmp / "even.db")
    import_games(tmp, db, GAMES)
    return db


def test_explore_takes_moves_separated_by_spaces_or_commas(archive: str) -> None:
    by_commas = run("explore", "Q16,D4", "--db", archive)
    assert by_commas.exit_code == 0, by_commas.output
    assert run("explore", "Q16", "D4", "--db", archive).stdout == by_commas.stdout
    assert run("explore", "Q16 D4", "--db", archive).stdout == by_commas.stdout
    assert "2 games reached this position" in by_commas.stdout


@pytest.mark.parametrize("command", [("replay", "-", "--move", "3"), ("diagram", "-", "--move", "3"),
                                     ("html", "-")])
def test_standard_input_is_a_record(command: tuple[str, ...], tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = [*command, *(["-o", str(out)] if command[0] != "replay" else [])]
    with RECORD.open("rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", *args], stdin=stdin,
                              capture_output=True, timeout=120, env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr.decode()
    if command[0] == "replay":
        assert b"Move 3" in done.stdout or b"move 3" in done.stdout, done.stdout.decode()
    else:
        assert out.read_text().lstrip().startswith("<")


@pytest.mark.parametrize("command", [("search",), ("search", "--json"), ("search", "--csv"), ("show", "1"),
                                     ("players",), ("verify",)])
def test_any_output_encoding(command: tuple[str, ...], archive: str) -> None:
    args = [*command, str(EXAMPLES)] if command[0] == "verify" else [*command, "--db", archive]
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", *args], capture_output=True, env=env,
                          timeout=120)
    assert done.returncode in (0, 1), done.stderr.decode()
    assert b"Traceback" not in done.stderr and b"UnicodeEncodeError" not in done.stderr
    assert done.stdout.isascii()
    if command[0] != "verify":
        assert b"\\u5929" in done.stdout  # the first character of the CJK name, escaped


def test_no_progress_bar_unless_on_a_terminal(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", "import", str(EXAMPLES), "--db",
                           str(tmp_path / "p.db")], capture_output=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr.decode()
    assert b"importing" not in done.stderr and b"importing" not in done.stdout


@pytest.mark.parametrize("command", ["diagram", "html"])
def test_a_missing_output_folder_is_made(command: str, tmp_path: Path) -> None:
    target = tmp_path / "new" / "folder" / "out"
    result = run(command, RECORD, "-o", target)
    assert result.exit_code == 0, result.output
    assert target.read_text().lstrip().startswith("<")
