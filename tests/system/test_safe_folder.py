"""Nothing in the current folder or the data's folders is ever imported or executed, from any folder.

A folder of downloaded records may hold a package named like one `records` loads (`boardrecords/`, or one of the
standard library's, `multiprocessing/`). The worker pool's helper processes (fork server, resource tracker,
workers) start as `python -c ...`, which would put the current folder first on `sys.path`; these tests run the
installed `records` command as a user does, on enough files for the pool, and check that nothing planted ran.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..shared import ROOT

# The command of this environment (an editable install), and the one of a plain `pip install .` when CI made one
# (RECORDS_TEST_INSTALLED: .ci/run), as users install it.
COMMANDS = [Path(sys.executable).with_name("records")]
if os.environ.get("RECORDS_TEST_INSTALLED"):
    COMMANDS.append(Path(os.environ["RECORDS_TEST_INSTALLED"]).resolve())
PLANTED = ("boardrecords", "multiprocessing", "concurrent")
FILES = 120  # the pool starts from 100 files on (common/workers.py)



@pytest.fixture(params=COMMANDS, ids=lambda p: "editable" if p == COMMANDS[0] else "installed")
def command(request: pytest.FixtureRequest) -> Path:
    if not request.param.is_file():
        pytest.skip(f"the records command is absent ({request.param})")
    return request.param


def planted_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A folder of FILES legal records beside packages that, if imported, leave a line in the marker file."""
    folder = tmp_path / "downloads"
    folder.mkdir()
    marker = tmp_path / "ran.txt"
    for name in PLANTED:
        (folder / name).mkdir()
        (folder / name / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n")
    letters = "abcdefghi"
    for i in range(FILES):
        point = letters[i % 9] + letters[i // 9 % 9]
        (folder / f"game-{i:03}.sgf").write_text(f"(;GM[1]SZ[9]GN[{i}]PB[Ann]PW[Bob]RE[B+R];B[{point}];W[resign])")
    return folder, marker


def records(command: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(command), *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


def test_verify_with_workers_runs_nothing_from_the_current_folder(tmp_path, command):
    folder, marker = planted_folder(tmp_path)
    done = records(command, "verify", "-j", "2", "--json", ".", cwd=folder)
    assert not marker.exists(), marker.read_text()
    assert done.returncode == 0, done.stderr
    verdicts = [json.loads(line)["verdict"] for line in done.stdout.splitlines()]
    assert verdicts == ["pass"] * FILES


def test_import_with_workers_runs_nothing_from_the_current_folder(tmp_path, command):
    folder, marker = planted_folder(tmp_path)
    db = tmp_path / "club.db"
    done = records(command, "import", "-j", "2", "--json", "--db", str(db), ".", cwd=folder)
    assert not marker.exists(), marker.read_text()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["new"] == FILES


def test_the_data_folder_named_on_the_command_line_runs_nothing_either(tmp_path, command):
    # From another folder (here the repository's own root, which holds a `boardrecords/` of its own).
    folder, marker = planted_folder(tmp_path)
    root = ROOT
    done = records(command, "verify", "-j", "2", "--json", str(folder), cwd=root)
    assert not marker.exists(), marker.read_text()
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == FILES
