"""Words a user reads (issue 21, point 4): whole numbers in help and errors, plurals, the games' names."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrecords.cli.views.words import plural
from boardrecords.records.games import game_title
from tests.shared import run

COMMANDS = ["verify", "import", "search", "show", "export", "stats", "explore", "delete", "fix", "ratings",
            "players", "replay", "diagram", "html"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_no_raw_integer_range(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "x<=" not in result.output and "9223372036854775807" not in result.output


@pytest.mark.parametrize(("args", "says"), [
    (("show", "abc"), "'abc' is not a whole number"),
    (("show", str(2**63)), f"{2**63} is too large"),
    (("show", "0"), "0 is too small"),
    (("export", str(2**64)), "is too large"),
    (("delete", "99999999999999999999"), "is too large"),
    (("fix", str(2**63), "--set", "RO=1"), "is too large"),
    (("search", "--limit", "abc"), "'abc' is not a whole number"),
    (("search", "--size", "-1"), "-1 is too small"),
    (("verify", "-j", "100", "examples"), "100 is too large: give at most 64"),
])
def test_a_bad_number_is_a_usage_error(args: tuple[str, ...], says: str, tmp_path: Path) -> None:
    result = run(*args, "--db", tmp_path / "none.db") if args[0] not in ("verify",) else run(*args)
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.replace("│", " ").split()), result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_top_level_help_names_the_rules() -> None:
    result = run("--help")
    assert "Go (Simplified Ing Rules)" in " ".join(result.output.split())
    assert "Ing rules)" not in result.output


def test_plurals_and_titles() -> None:
    assert plural(1, "game") == "1 game" and plural(0, "game") == "0 games" and plural(2, "record") == "2 records"
    assert game_title("go-ing") == "Go (Simplified Ing Rules)" and game_title("cation") == "Cation"
    assert game_title("chess") == "chess"
