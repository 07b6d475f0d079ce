"""`import boardrecords`: the public names, each loaded from its module on first use, and seen by type checkers."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

import boardrecords

from ..shared import ROOT

HEAVY = ("sqlalchemy", "sqlmodel", "rich", "typer", "fastapi", "starlette", "pydantic", "jinja2")


def _type_checking_imports() -> dict[str, str]:
    """Each name the `if TYPE_CHECKING:` block of boardrecords/__init__.py imports, and its module."""
    tree = ast.parse((ROOT / "src" / "boardrecords" / "__init__.py").read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", None) == "TYPE_CHECKING")
    return {a.name: f"boardrecords.{n.module}" for n in block.body if isinstance(n, ast.ImportFrom) and n.level
            for a in n.names}


def test_every_public_name_is_one_type_checkers_see_from_the_module_that_defines_it() -> None:
    seen = _type_checking_imports()
    assert set(seen) == set(boardrecords.__all__)
    for name in boardrecords.__all__:
        assert getattr(boardrecords, name).__module__ == seen[name], name


def test_the_names_of_the_interface() -> None:
    assert {"Archive", "read_file", "read_bytes", "write", "new_record", "verify", "verify_files", "Record", "Move",
            "Colour", "Verdict", "Problem", "Game", "Filters", "RecordsError", "InputError", "NotFound",
            "ArchiveError"} <= set(boardrecords.__all__)
    assert dir(boardrecords) == sorted(boardrecords.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = boardrecords.nothing_here  # type: ignore[attr-defined]


def _loaded_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_package_loads_none_of_its_modules() -> None:
    loaded = _loaded_after("import boardrecords")
    assert {m for m in loaded if m.startswith("boardrecords.")} == set()
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}


def test_reading_and_verifying_load_neither_the_database_layer_nor_the_terminal_one() -> None:
    record = ROOT / "examples" / "go" / "handicap.rec"
    loaded = _loaded_after("import boardrecords as b\n"
                           f"(r,) = b.read_file({str(record)!r})\n"
                           "assert b.verify(r).passes\n"
                           f"assert all(v.passes for v in b.verify_files([{str(record)!r}]))\n"
                           "b.Archive, b.Filters, b.RecordsError\n")
    assert not {m for m in loaded if m.split(".")[0] in HEAVY}
    assert "boardrecords.cli" not in loaded and "concurrent.futures.process" not in loaded
