"""A running `records serve` over an archive of the examples (and a hostile record), for the tests that talk to it
as a browser or a program would."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app

from ..shared import EXAMPLES

HOSTILE = ("(;FF[4]CA[UTF-8]GM[Cation]SZ[5]PB[<script>window.pwned=1;document.title='pwned'</script>]"
           "PW[<img src=x onerror=\"window.pwned=2\">]EV[</script><script>window.pwned=3</script>]"
           ";B[bb]C[<img src=x onerror=window.pwned=4> </script><script>window.pwned=5</script>]"
           ";W[dd]C[<svg onload=window.pwned=6>])\n")


def serve(db: Path, *extra: str) -> tuple[subprocess.Popen[str], str, list[str]]:
    """A running `records serve` on a free port, its URL and the lines it wrote first."""
    proc = subprocess.Popen([sys.executable, "-m", "boardrecords.cli.main", "serve", "--db", str(db), "--port", "0",
                             *extra], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert proc.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"(http://\S+/)", line)
        if found:
            return proc, found.group(1), lines
    proc.kill()
    raise AssertionError("records serve did not start: " + "".join(lines))


@contextmanager
def serving(db: Path, *extra: str) -> Iterator[str]:
    """The URL of a `records serve` over `db` while the block runs; the server is stopped after."""
    proc, url, _ = serve(db, *extra)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def examples_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("served")
    (folder / "hostile.rec").write_text(HOSTILE, encoding="utf-8")
    db = folder / "a.db"
    done = CliRunner().invoke(app, ["import", "-q", "--db", str(db), str(EXAMPLES), str(folder / "hostile.rec")])
    assert done.exit_code == 0, done.output
    return db


@pytest.fixture(scope="module")
def served(examples_archive: Path) -> Iterator[str]:
    """The URL of a server over `examples_archive`."""
    pytest.importorskip("uvicorn", reason="records serve needs uvicorn (pip install -e '.[test]')")
    with serving(examples_archive) as url:
        yield url
