"""`records serve` as a process: it listens where it says, serves the archive, warns when bound beyond this
machine, and refuses an archive it cannot open before it listens."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app

from ..shared import EXAMPLES
from .conftest import serve

pytest.importorskip("uvicorn", reason="records serve needs uvicorn (pip install -e '.[test]')")


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    db = tmp_path / "a.db"
    done = CliRunner().invoke(app, ["import", "-q", "--db", str(db), str(EXAMPLES)])
    assert done.exit_code == 0, done.output
    return db


def test_serve_answers_over_http_and_stops(archive):
    proc, url, lines = serve(archive)
    try:
        assert url.startswith("http://127.0.0.1:")
        assert not any("warning" in line for line in lines)
        with urllib.request.urlopen(url + "api/search?limit=2", timeout=10) as r:
            assert r.status == 200 and len(json.load(r)) == 2
            assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_beyond_localhost_says_there_is_no_login(archive):
    proc, _, lines = serve(archive, "--host", "0.0.0.0")
    try:
        assert any("warning" in line and "no login" in line for line in lines)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_serve_without_an_archive_is_a_usage_error(tmp_path):
    done = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "none.db")])
    assert done.exit_code == 2
    assert "error: no archive" in done.output


def test_serve_on_a_port_in_use_is_one_line_and_exit_2(archive):
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        done = CliRunner().invoke(app, ["serve", "--db", str(archive), "--port", str(taken.getsockname()[1])])
    finally:
        taken.close()
    assert done.exit_code == 2
    assert "error: cannot listen on 127.0.0.1:" in done.output and "Traceback" not in done.output
