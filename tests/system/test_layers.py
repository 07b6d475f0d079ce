"""The layer contract of pyproject.toml ([tool.importlinter]) holds: records -> verifier -> archive -> render -> cli
and web, and the faces import nothing of each other but the one documented edge (`records serve` starts the web
application)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..shared import ROOT

LINT = shutil.which("lint-imports", path=str(Path(sys.executable).parent))


@pytest.mark.skipif(LINT is None, reason="import-linter is not installed (pip install -e '.[test]')")
def test_the_layer_contract_is_kept() -> None:
    assert LINT is not None
    done = subprocess.run([LINT, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "1 kept, 0 broken" in done.stdout


def test_the_contract_names_every_layer_of_the_package() -> None:
    import tomllib

    contract = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in contract["contracts"] if c["type"] == "layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    package = ROOT / "src" / "boardrecords"
    folders = {p.parent.name for p in package.glob("*/__init__.py")}
    assert named == folders
