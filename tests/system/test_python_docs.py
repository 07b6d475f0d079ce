"""Every Python example of docs/python.md runs as written: the blocks in order, as one script, in a fresh folder that
holds a copy of the repository's `examples/`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..shared import ROOT

PAGE = ROOT / "docs" / "python.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks() -> list[tuple[int, str]]:
    """Each ```python block of the page: the line of the page it starts on, and its code."""
    text = PAGE.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in BLOCK.finditer(text)]


def test_the_page_shows_the_tasks() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for heading in ("## Read and verify a file", "## Verify a folder", "## Record a game move by move and write it",
                    "### Import a folder and search it", "### Explore a position", "### A crosstable"):
        assert heading in text
    assert len(blocks()) >= 3
    assert "(docs/python.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_example_runs_as_written(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    script: list[str] = []
    starts: list[tuple[int, int]] = []  # (line of the script, line of the page) where each block starts
    for page_line, code in blocks():
        script.append(f"# docs/python.md, line {page_line}\n")
        starts.append((sum(part.count("\n") for part in script) + 1, page_line))
        script.append(code + "\n")
    (tmp_path / "examples.py").write_text("".join(script), encoding="utf-8")
    done = subprocess.run([sys.executable, "examples.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        failed = [int(n) for n in re.findall(r'File ".*examples\.py", line (\d+)', done.stderr)]
        where = ""
        if failed:
            script_line, page_line = max((s for s in starts if s[0] <= failed[-1]), default=(1, 0))
            where = f"docs/python.md line {page_line + failed[-1] - script_line}: "
        raise AssertionError(f"{where}the example fails:\n{done.stderr[-3000:]}")
    # What the archive's examples print: records stored, the explorer's continuations, the size checked against
    # the game's boards, and the crosstable's winner.
    assert "records stored" in done.stdout and "games of Go on 9x9" in done.stdout
    assert "--size 99: Quentin is played on" in done.stdout
    assert "1 Alice Martin 1.0" in done.stdout
