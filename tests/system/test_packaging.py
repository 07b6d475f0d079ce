"""The built wheel holds every module of src/boardrecords, its assets, py.typed and the compiled helpers (setup.py):
the pattern scan and Go's plain plays."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ..shared import ROOT

PACKAGE = ROOT / "src" / "boardrecords"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                           capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("boardrecords-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_holds_every_module_and_asset_of_the_tree(wheel):
    tree = {f"boardrecords/{p.relative_to(PACKAGE).as_posix()}" for p in PACKAGE.rglob("*")
            if p.suffix in (".py", ".pyi", ".js", ".css", ".html", ".typed") and "__pycache__" not in p.parts}
    held = {name for name in wheel.namelist() if name.startswith("boardrecords/")}
    assert tree - held == set()
    assert {n for n in held if n.endswith(".py")} == {n for n in tree if n.endswith(".py")}
    assert "boardrecords/py.typed" in held


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler here")
def test_the_wheel_holds_the_compiled_scan(wheel):
    assert [n for n in wheel.namelist() if n.startswith("boardrecords/verifier/keys/_scan.") and n.endswith(".so")]


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler here")
def test_the_wheel_holds_the_compiled_go_plays(wheel):
    assert [n for n in wheel.namelist() if n.startswith("boardrecords/verifier/rules/_go.") and n.endswith(".so")]


def test_the_console_command_is_records(wheel):
    entry = next(n for n in wheel.namelist() if n.endswith("entry_points.txt"))
    assert "records = boardrecords.cli.main:app" in wheel.read(entry).decode()


@pytest.mark.skipif(not os.environ.get("RECORDS_TEST_INSTALLED"),
                    reason="no plain install to try (RECORDS_TEST_INSTALLED: .ci/run makes one)")
def test_the_public_api_imports_from_a_plain_install(tmp_path):
    # The Python beside the installed command, run from an empty folder: nothing of the repository on its path.
    python = Path(os.environ["RECORDS_TEST_INSTALLED"]).resolve().with_name("python")
    code = ("import boardrecords, sys; from boardrecords import Archive, read_file, verify; "
            "assert 'sqlalchemy' not in sys.modules; print(boardrecords.__file__)")
    done = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "site-packages" in done.stdout
