"""The Python examples of docs/python.md run as written, one after the other, in a fresh folder that holds a copy
of the examples."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from ..shared import ROOT

DOC = ROOT / "docs" / "python.md"
# The sections whose examples make and ask the archive `club.db` (in this order).
SECTIONS = ("Import a folder and search it", "Explore a position", "A crosstable")


def blocks(heading: str) -> list[str]:
    """The ```python blocks of the section `## heading`."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert found, heading
    return re.findall(r"```python\n(.*?)```", found.group(1), re.S)


def test_the_examples_run_as_written(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    outputs = []
    for heading in SECTIONS:
        code = "\n".join(blocks(heading))
        assert code, heading
        done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, (heading, done.stderr)
        outputs.append(done.stdout)
    imported, explored, table = outputs
    assert "records stored" in imported and "games of Go" in imported
    assert "games of Go on 9x9" in explored and "--size 99: Quentin is played on" in explored
    assert "1 Alice Martin 1.0" in table
