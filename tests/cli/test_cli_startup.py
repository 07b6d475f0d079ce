"""Start-up: a command loads what it needs and nothing more (the archive's SQLAlchemy only for archive commands),
and the command table `records --help` shows agrees with the modules that define the commands."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from boardrecords.cli.main import COMMANDS, load

from ..shared import EXAMPLES

EXAMPLE = EXAMPLES / "go" / "capture-and-resignation.rec"


def test_the_command_table_names_every_command_of_every_module():
    modules = {module for module, _, _ in COMMANDS.values()}
    defined = {name: module for module in modules for name in load(module)}
    assert defined == {name: module for name, (module, _, _) in COMMANDS.items()}


def _modules_after(*argv: str) -> set[str]:
    """The modules a `records` process has loaded when it is done with `argv`."""
    code = (
        "import sys, json, atexit\n"
        "atexit.register(lambda: sys.__stderr__.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n'))\n"
        "from boardrecords.cli.main import app\n"
        f"sys.argv = ['records', *{list(argv)!r}]\n"
        "app()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


@pytest.mark.parametrize("argv", [("--help",), ("verify", str(EXAMPLE)), ("replay", "--all", str(EXAMPLE))])
def test_commands_without_the_archive_do_not_load_the_database_layer(argv):
    loaded = _modules_after(*argv)
    assert not {m for m in loaded if m.split(".")[0] in ("sqlalchemy", "sqlmodel")}
    assert "boardrecords.cli.archive_cmd" not in loaded and "boardrecords.cli.tournament_cmd" not in loaded


def test_help_loads_no_command_module():
    loaded = _modules_after("--help")
    ours = ("boardrecords.cli.", "boardrecords.verifier", "boardrecords.records")
    assert not {m for m in loaded if m.startswith(ours) and m != "boardrecords.cli.main"}
    assert "rich.progress" not in loaded


def test_one_record_is_verified_without_the_worker_pool_or_a_progress_bar():
    loaded = _modules_after("verify", str(EXAMPLE))
    assert "concurrent.futures.process" not in loaded and "rich.progress" not in loaded


def test_search_loads_neither_the_rules_engines_nor_a_progress_bar(tmp_path):
    db = tmp_path / "a.db"
    subprocess.run([sys.executable, "-m", "boardrecords.cli.main", "import", "-q", "--db", str(db), str(EXAMPLE)],
                   check=True, capture_output=True)
    loaded = _modules_after("search", "--db", str(db))
    assert "sqlalchemy" in loaded  # an archive command
    assert not {m for m in loaded if m.startswith("boardrecords.verifier.rules")}
    assert "rich.progress" not in loaded


def test_a_go_record_loads_only_the_go_engine():
    loaded = _modules_after("verify", str(EXAMPLE))
    rules = {m.rsplit(".", 1)[1] for m in loaded if m.startswith("boardrecords.verifier.rules.")}
    # `_go`: the Go engine's compiled plain plays (verifier/rules/_go.c), when they were built
    assert rules - {"engine", "registry", "grid", "chains", "_go"} == {"go_ing"}


def test_pydantic_is_not_loaded_by_commands_without_the_archive():
    # typer 0.29 builds a pydantic adapter for every option (about 100 ms at each start); see pyproject.toml.
    for argv in (("--help",), ("verify", str(EXAMPLE))):
        assert "pydantic" not in _modules_after(*argv)
