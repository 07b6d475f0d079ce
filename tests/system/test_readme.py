"""Every command the README shows runs as shown, on the bundled examples, in a fresh folder."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..shared import ROOT

README = ROOT / "README.md"
BIN = Path(sys.executable).parent


def commands() -> list[str]:
    """The `records ...` lines of the README's sh blocks, in order (comments dropped)."""
    lines: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith("records "):
                lines.append(line)
    return lines


# Commands that report broken records on purpose (the examples hold some), and so exit with status 1.
FAILS_ON_PURPOSE = ("verify examples", "invalid", "--require-complete", "verify --json examples/go",
                    "verify -j 1 --json examples")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "examples", work / "examples")
    return work


def test_the_readme_shows_commands():
    assert len(commands()) >= 30


@pytest.mark.parametrize("line", commands())
def test_readme_command_runs_as_shown(line: str, workdir: Path) -> None:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "80"}
    env.pop("RECORDS_DB", None)
    if line.startswith("records replay") and "--move" not in line and "--all" not in line:
        line += " --all"  # the interactive replay needs a terminal; the same record, every position
    if line.startswith("records serve"):
        _serves(line, workdir, env)
        return
    # `records user add` asks for the password: given on standard input, as a script would give it.
    given = {"input": "the readme's password\n"} if line.startswith("records user ") else {"stdin": subprocess.DEVNULL}
    done = subprocess.run(["bash", "-c", line], cwd=workdir, env=env, capture_output=True, text=True, timeout=120,
                          **given)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    expected = {0, 1} if any(word in line for word in FAILS_ON_PURPOSE) else {0}
    assert done.returncode in expected, (line, done.stdout[-2000:], done.stderr[-2000:])


def _serves(line: str, workdir: Path, env: dict[str, str]) -> None:
    """`records serve` runs until stopped: it is started on a free port (without --open: no browser here), asked
    for its games page, and stopped."""
    import urllib.request

    argv = [a for a in line.split() if a != "--open"] + ["--port", "0"]
    proc = subprocess.Popen(["bash", "-c", "exec " + " ".join(argv)], cwd=workdir, env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert proc.stderr is not None
        started = proc.stderr.readline()
        found = re.search(r"(http://\S+/)", started)
        assert found, (line, started + proc.stderr.read() if proc.poll() is not None else started)
        with urllib.request.urlopen(found.group(1) + "games", timeout=30) as page:
            assert page.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
