"""The environment is read once, at the edge: the library takes its settings as arguments (common/settings.py),
and only the faces (cli/, web/) read variables; a malformed one is a usage error of the command, never an error of
the library called as a library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import boardrecords
from boardrecords.archive.store.importer import process_chunk
from boardrecords.common.settings import DEFAULTS, Settings
from boardrecords.records.model import FormatError
from boardrecords.records.reader import read_bytes, read_file

from ..shared import run

PACKAGE = Path(boardrecords.__file__).parent
# Variables set for the helper processes a command starts (their interpreter, the main process's id): plumbing.
PLUMBING = {"common/workers.py", "common/worker_guard.py"}
FACES = ("cli/", "web/")


def _environment_reads(tree: ast.AST) -> list[int]:
    """The lines of `tree` that touch the environment: os.environ, os.getenv, os.putenv and their names imported."""
    names = ("environ", "environb", "getenv", "getenvb", "putenv")
    lines = []
    for node in ast.walk(tree):
        attribute = isinstance(node, ast.Attribute) and node.attr in names
        imported = isinstance(node, ast.ImportFrom) and node.module == "os" and any(a.name in names
                                                                                   for a in node.names)
        if attribute or imported:
            lines.append(getattr(node, "lineno", 0))
    return lines


def test_no_library_module_reads_the_environment() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        if name.startswith(FACES) or name in PLUMBING:
            continue
        lines = _environment_reads(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[name] = lines
    assert found == {}


def test_the_scan_finds_a_read() -> None:
    assert _environment_reads(ast.parse("import os\nx = os.environ.get('A')\n")) == [2]
    assert _environment_reads(ast.parse("from os import getenv\n")) == [1]
    assert _environment_reads(ast.parse("import os\nos.getenv('A')\n")) == [2]


def test_read_bytes_works_whatever_the_environment_holds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RECORDS_MAX_RECORDS", "garbage")
    monkeypatch.setenv("RECORDS_MAX_FILE_SIZE", "nonsense")
    data = b"(;GM[1]SZ[9];B[cc])" * 3
    assert len(read_bytes(data, "x.sgf")) == 3
    src = tmp_path / "x.sgf"
    src.write_bytes(data)
    assert len(read_file(src)) == 3
    # The limits are arguments.
    with pytest.raises(FormatError, match="more than 2 game records"):
        read_bytes(data, "x.sgf", max_records=2)
    with pytest.raises(OSError, match="larger than"):
        read_file(src, settings=Settings(max_file_size=10))


def test_a_malformed_variable_is_a_usage_error_of_the_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    src = tmp_path / "x.sgf"
    src.write_bytes(b"(;GM[1]SZ[9];B[cc])")
    monkeypatch.setenv("RECORDS_MAX_RECORDS", "garbage")
    done = run("verify", src)
    assert done.exit_code == 2
    assert done.output.strip().splitlines() == ["error: RECORDS_MAX_RECORDS=garbage is not a number of records: "
                                                "write a whole number, or 0 for no limit"]


def test_serve_reads_the_environment_too(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "RECORDS_MAX_FILE_SIZE": "1.5M", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", "serve", "--db", str(tmp_path / "a.db"),
                           "--port", "0"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "RECORDS_MAX_FILE_SIZE=1.5M is not a size" in done.stderr


def test_the_settings_go_to_the_import_workers_as_data(tmp_path: Path) -> None:
    src = tmp_path / "three.sgf"
    src.write_bytes(b"(;GM[1]SZ[9];B[cc])(;GM[1]SZ[9];B[dd])(;GM[1]SZ[9];B[ee])")
    limited, = process_chunk([(str(src), Settings(max_records=2))])
    assert limited.error is not None and "more than 2 game records" in limited.error
    whole, = process_chunk([(str(src), DEFAULTS)])
    assert whole.error is None and len(whole.rows) == 3
    assert all(game["_patterns"] is not None for game, _ in whole.rows)
    bare, = process_chunk([(str(src), Settings(patterns=False, position_index=False))])
    assert all(game["_patterns"] is None and "_positions" not in game for game, _ in bare.rows)


def test_the_environment_gives_each_setting() -> None:
    env = {"RECORDS_DB": "x.db", "RECORDS_MAX_FILE_SIZE": "64K", "RECORDS_MAX_RECORDS": "1_000",
           "RECORDS_PATTERNS": "off", "RECORDS_POSITION_INDEX": "0", "RECORDS_SCAN": "python",
           "RECORDS_TENUKI": "kombilo"}
    assert Settings.from_environment(env) == Settings(db="x.db", max_file_size=65536, max_records=1000,
                                                      patterns=False, position_index=False, plain_scan=True,
                                                      tenuki="kombilo")
    assert Settings.from_environment({}) == DEFAULTS
    assert Settings.from_environment({"RECORDS_MAX_RECORDS": "0", "RECORDS_MAX_FILE_SIZE": "0"}) == Settings(
        max_file_size=None, max_records=None)
