"""What every command says when it cannot do its job: one line, the right exit status, no traceback, no password."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app

from ..shared import CONFORMANCE, ROOT

runner = CliRunner()
GOOD = "(;GM[1]SZ[9]PB[Ann]PW[Bo]RE[W+R];B[ee];W[cc];B[resign])"


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def one_error_line(result) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.parametrize(("url", "hint"), [
    ("mysql://ann:secret@db.example/club", "pip install mysqlclient"),
    ("postgresql+psycopg2://ann:secret@db.example/club", "pip install psycopg2-binary"),
    ("nosuchdb://ann:secret@db.example/club", "not a database SQLAlchemy knows"),
])
def test_a_missing_driver_or_unknown_scheme_is_one_line_without_the_password(url, hint):
    for command in (("search",), ("stats",), ("show", "1"), ("import", "--quiet")):
        extra = [] if command[0] != "import" else [Path(__file__)]
        result = run(*command, "--db", url, *extra)
        assert result.exit_code == 2, (command, result.output)
        line = one_error_line(result)
        assert hint in line and "secret" not in result.output


def test_import_refuses_a_sqlite_file_of_another_program(tmp_path):
    other = tmp_path / "notes.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    record = tmp_path / "g.sgf"
    record.write_text(GOOD)
    result = run("import", record, "--db", other, "-q")
    assert result.exit_code == 2
    assert "another program (notes)" in one_error_line(result)
    with sqlite3.connect(other) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"notes"}  # nothing of ours was added


@pytest.mark.parametrize("command", [("verify",), ("import", "-q"), ("replay", "--all"), ("diagram", "-o", "x.svg"),
                                     ("html", "-o", "x.html")])
def test_a_missing_path_exits_2_in_every_command(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*command, tmp_path / "nowhere.sgf")
    assert result.exit_code == 2, result.output
    assert "nowhere.sgf" in result.output
    assert result.output.count("nowhere.sgf") == 1  # said once


def test_version_and_short_help():
    version = run("--version")
    assert version.exit_code == 0 and version.stdout.startswith("records ")
    assert "Usage: records" in run("-h").stdout
    assert "--require-complete" in run("verify", "-h").stdout


def test_fmt_6_an_unknown_game_is_never_verified_or_stored(tmp_path):
    chess = tmp_path / "chess.sgf"
    chess.write_text("(;GM[Chess]SZ[8]RE[W+R];B[ee])")
    verdict = json.loads(run("verify", "--json", chess).stdout)
    assert verdict["game"] is None and verdict["verdict"] == "invalid"
    (problem,) = [p for p in verdict["problems"] if p["severity"] == "error"]
    assert problem["rule"] == "FMT-6" and "GM[Chess]" in problem["message"]
    db = tmp_path / "a.db"
    result = run("import", chess, "--db", db, "-q", "--json")
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert (summary["new"], summary["not_stored"], summary["verdicts"]["invalid"]) == (0, 1, 1)
    assert "FMT-6" in result.stderr
    assert run("search", "--db", db).exit_code == 1  # nothing stored


def test_show_renders_a_stored_verdict_as_verify_renders_it(tmp_path):
    record = tmp_path / "unconfirmed.sgf"
    record.write_text("(;GM[1]SZ[5]KM[0.5]PB[Ann]PW[Bo]RE[B+3.5];B[ba];W[da];B[bb];W[db];B[];W[])")
    db = tmp_path / "a.db"
    assert run("import", record, "--db", db, "-q").exit_code == 0
    fresh = json.loads(run("verify", "--json", record).stdout)
    stored = json.loads(run("show", "1", "--db", db, "--json").stdout)
    for key in ("verdict", "valid", "passes", "winner", "result", "score", "end", "swapped", "players", "moves"):
        assert stored[key] == fresh[key], key
    assert [{k: p[k] for k in ("code", "rule", "move", "message", "line", "column")} for p in stored["problems"]] == \
        [{k: p[k] for k in ("code", "rule", "move", "message", "line", "column")} for p in fresh["problems"]]
    assert fresh["result"]["status"] == "unconfirmed" and fresh["verdict"] == "pass"
    # The terminal report is the same rendering: the verdict's words and its problem table.
    shown = run("show", "1", "--db", db).stdout
    verified = run("verify", record).stdout
    for line in verified.splitlines()[1:]:
        if "File " not in line and "unconfirmed.sgf" not in line:  # the file is named differently
            assert line in shown
    assert run("search", "--db", db, "--status", "unconfirmed", "--json").exit_code == 0
    assert run("search", "--db", db, "--verdict", "unconfirmed", "--json").exit_code == 0
    assert run("search", "--db", db, "--verdict", "wrong-result").exit_code == 1


RECORDS_COMMAND = Path(sys.executable).with_name("records")


@pytest.mark.skipif(not Path("/dev/full").exists() or not RECORDS_COMMAND.is_file(), reason="no /dev/full here")
@pytest.mark.parametrize("command", [["verify", "examples"], ["verify", "--json", "examples"]])
def test_a_full_disk_on_standard_output_gives_one_line_and_a_failure(command):
    with open("/dev/full", "w") as full:
        done = subprocess.run([str(RECORDS_COMMAND), *command], cwd=ROOT, stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == ["error: cannot write the output: No space left on device"]


@pytest.mark.skipif(not RECORDS_COMMAND.is_file() or not CONFORMANCE.is_dir(), reason="no command or records")
def test_a_closed_pipe_on_standard_output_ends_quietly():
    # More output than a pipe holds, so that the command is still writing when the reader goes.
    proc = subprocess.Popen([str(RECORDS_COMMAND), "verify", "--json", "-j", "1", str(CONFORMANCE)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) != 0 and "Traceback" not in err and "Exception ignored" not in err


@pytest.mark.parametrize(("args", "said"), [
    (("search", "--stones", "B:cc", "--to-move", "X", "--size", "9"), "error: --to-move: write B or W, not 'X'"),
    # Without a game, a size is checked against the boards of every game when the filters are built.
    (("explore", "--size", "53"), "error: --size 53 is too large: give at most 52"),
    (("explore", "--game", "go", "--size", "53"),
     "error: --size 53: Go (Simplified Ing Rules) is played on 2x2 to 52x52 boards"),
    (("search", "--after", "cc", "--game", "go", "--size", "53"), "error: --size 53: Go"),
    (("search", "--pattern", "X", "--game", "go", "--size", "53"), "error: --size 53: Go"),
    (("search", "--pattern", "X", "--size", "1"), "error: --size 1 is too small: give 2 or more"),
    (("explore", "--game", "quentin", "--size", "99"), "error: --size 99: Quentin is played on 3x3 to 52x52"),
])
def test_a_bad_board_or_colour_is_a_usage_error(tmp_path, args, said):
    (tmp_path / "g.rec").write_text(GOOD)
    db = tmp_path / "a.db"
    assert run("import", tmp_path, "--db", db, "-q").exit_code == 0
    result = run(*args, "--db", db)
    assert result.exit_code == 2, result.output
    assert one_error_line(result).startswith(said)
