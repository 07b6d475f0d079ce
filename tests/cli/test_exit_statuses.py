"""One exit status for the same bad input from every command (README.md, "Exit status"): a file that opens but
cannot be read as a record is unreadable (1), a path that cannot be opened is 2, from every command that reads a
record file; every command with two output formats refuses them together, in the same words (2); and the CLI's
one translation (cli/common.py: EXIT_STATUSES) gives each error of the library's family its status."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from boardrecords.cli.common import EXIT_FAILED, EXIT_STATUSES, EXIT_USAGE, CommandError, failure
from boardrecords.cli.main import COMMANDS, load
from boardrecords.common.errors import ArchiveError, InputError, NotFound, RecordsError, Unreadable

from ..shared import EXAMPLES, run
from ..test_error_family import family_classes, instance_of

GOOD = "(;GM[1]FF[4]SZ[19]PB[Ann]PW[Bob]EV[Cup]RO[1]DT[2024-05-01]RE[B+R];B[pd];W[dp];B[pp];W[dd])\n"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An archive of one game of Go (the commands that read a file and an archive need an archive that opens, so
    that only the file can fail)."""
    folder = tmp_path_factory.mktemp("archive")
    (folder / "good.sgf").write_text(GOOD)
    db = str(folder / "a.db")
    done = run("import", "-q", "--db", db, folder / "good.sgf")
    assert done.exit_code == 0, done.output
    return db


# Every command that reads one record file, with that file as `{}` (verify and import too: they read many).
READERS: dict[str, list[str]] = {
    "verify": ["verify", "{}"],
    "import": ["import", "-q", "--db", "{new}", "{}"],
    "replay": ["replay", "--all", "{}"],
    "diagram": ["diagram", "{}"],
    "html": ["html", "{}"],
    "search --like": ["search", "--db", "{db}", "--like", "{}"],
    "search --pattern-from": ["search", "--db", "{db}", "--pattern-from", "{}", "--region", "Q16:T19"],
    "explore --like": ["explore", "--db", "{db}", "--like", "{}"],
}


def read_with(command: str, path: Path, db: str, tmp_path: Path):
    argv = [a.format(path, db=db, new=tmp_path / "new.db") for a in READERS[command]]
    return run(*argv)


UNREADABLE = {
    "not a record": b"this is not a game record\n",
    "empty": b"",
    "not a game tree": b"(hello)\n",
}


@pytest.mark.parametrize("command", READERS)
@pytest.mark.parametrize("content", UNREADABLE, ids=list(UNREADABLE))
def test_an_unreadable_file_is_1_from_every_command(command: str, content: str, archive: str,
                                                    tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(UNREADABLE[content])
    done = read_with(command, bad, archive, tmp_path)
    assert done.exit_code == EXIT_FAILED, (command, done.output)
    assert "bad.sgf" in done.output and "Traceback" not in done.output


@pytest.mark.parametrize("command", READERS)
def test_a_missing_path_is_2_from_every_command(command: str, archive: str, tmp_path: Path) -> None:
    done = read_with(command, tmp_path / "missing.sgf", archive, tmp_path)
    assert done.exit_code == EXIT_USAGE, (command, done.output)
    assert "missing.sgf" in done.output and "Traceback" not in done.output


@pytest.mark.parametrize("command", READERS)
def test_a_file_over_the_cap_is_2_from_every_command(command: str, archive: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A file refused without being read (larger than RECORDS_MAX_FILE_SIZE) is a path that cannot be opened."""
    big = tmp_path / "big.sgf"
    big.write_text(GOOD)
    monkeypatch.setenv("RECORDS_MAX_FILE_SIZE", "16")
    done = read_with(command, big, archive, tmp_path)
    assert done.exit_code == EXIT_USAGE, (command, done.output)
    assert "big.sgf" in done.output and "larger than" in " ".join(done.output.split())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("command", READERS)
def test_a_fifo_is_2_from_every_command(command: str, archive: str, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.sgf"
    os.mkfifo(fifo)
    done = read_with(command, fifo, archive, tmp_path)  # refused without being opened: nothing waits for a writer
    assert done.exit_code == EXIT_USAGE, (command, done.output)
    assert "FIFO" in done.output


@pytest.mark.parametrize("command", READERS)
def test_a_good_file_is_read_by_every_command(command: str, archive: str, tmp_path: Path) -> None:
    """The same commands succeed on a record that reads (so that the statuses above are the file's)."""
    good = tmp_path / "good.sgf"
    good.write_text(GOOD)
    done = read_with(command, good, archive, tmp_path)
    # search --pattern-from finds the game it was taken from; explore and search --like reach its position.
    assert done.exit_code == 0, (command, done.output)


# -- two output formats --------------------------------------------------------------------------------------

def commands_with_formats() -> set[str]:
    """Every command of `records` that offers both --json and --csv."""
    found = set()
    for name, (module, _, _) in COMMANDS.items():
        command = load(module)[name]
        options = {opt for param in command.params for opt in getattr(param, "opts", [])}
        if {"--json", "--csv"} <= options:
            found.add(name)
    return found


# Each form of every command with --json and --csv (the listings), as it is run.
LISTINGS: dict[str, list[str]] = {
    "search": ["search"],
    "search --after": ["search", "--after", "Q16"],
    "search --like": ["search", "--like", "{good}"],
    "search --stones": ["search", "--stones", "B:Q16"],
    "search --pattern": ["search", "--pattern", "X"],
    "search --pattern-from": ["search", "--pattern-from", "{good}", "--region", "Q16:R17"],
    "search --signature": ["search", "--signature", "------------"],
    "explore": ["explore"],
    "explore MOVES": ["explore", "Q16"],
    "explore --like": ["explore", "--like", "{good}"],
    "explore conversion-go": ["explore", "--game", "conversion-go"],
    "crosstable": ["crosstable", "Cup"],
}


def test_the_listings_are_every_command_with_two_formats() -> None:
    assert {argv[0] for argv in LISTINGS.values()} == commands_with_formats()


@pytest.mark.parametrize("listing", LISTINGS)
@pytest.mark.parametrize("formats", [("--json", "--csv"), ("--csv", "--json")])
def test_every_listing_refuses_two_output_formats(listing: str, formats: tuple[str, str], archive: str,
                                                  tmp_path: Path) -> None:
    good = tmp_path / "good.sgf"
    good.write_text(GOOD)
    argv = [a.format(good=good) for a in LISTINGS[listing]]
    done = run(*argv, "--db", archive, *formats)
    assert done.exit_code == EXIT_USAGE, (listing, done.output)
    assert done.stdout == ""  # nothing printed in either format
    assert "--json and --csv exclude each other: choose one output format" in done.output


@pytest.mark.parametrize("listing", LISTINGS)
def test_each_format_alone_is_taken(listing: str, archive: str, tmp_path: Path) -> None:
    good = tmp_path / "good.sgf"
    good.write_text(GOOD)
    argv = [a.format(good=good) for a in LISTINGS[listing]]
    for fmt in ("--json", "--csv"):
        done = run(*argv, "--db", archive, fmt)
        assert done.exit_code in (0, 1), (listing, fmt, done.output)  # 1: nothing found, never a usage error
        assert "exclude each other" not in done.output


@pytest.mark.parametrize("formats", [("--json", "--html"), ("--csv", "--html"), ("--json", "--csv", "--html")])
def test_crosstable_refuses_its_three_formats_in_the_same_words(formats: tuple[str, ...], archive: str) -> None:
    done = run("crosstable", "Cup", "--db", archive, *formats)
    assert done.exit_code == EXIT_USAGE
    shown = ", ".join(formats[:-1]) + f" and {formats[-1]}"
    assert f"{shown} exclude each other: choose one output format" in done.output


# -- the one translation ----------------------------------------------------------------------------------------

def test_each_family_class_has_its_status() -> None:
    from boardrecords.archive.core.filters import FilterError
    from boardrecords.common.settings import SettingError
    from boardrecords.records.limits import InputRefused
    from boardrecords.records.model import FormatError

    expected = {
        FormatError("x"): EXIT_FAILED,  # unreadable: as a record that does not pass
        Unreadable("x"): EXIT_FAILED,
        NotFound("x"): EXIT_FAILED,
        InputError("x"): EXIT_USAGE,
        FilterError("x"): EXIT_USAGE,
        SettingError("x"): EXIT_USAGE,
        InputRefused("some.sgf", "a FIFO"): EXIT_USAGE,  # a path that cannot be opened
        ArchiveError("x"): EXIT_USAGE,
    }
    for exc, code in expected.items():
        found = failure(exc)
        assert found is not None and found.code == code, type(exc).__name__
        assert found.message == str(exc)
    assert str(InputRefused("some.sgf", "a FIFO")) == "some.sgf: a FIFO"


@pytest.mark.parametrize("kind", family_classes(), ids=lambda k: f"{k.__module__}.{k.__name__}")
def test_every_error_of_the_family_has_a_row(kind: type[RecordsError]) -> None:
    rows = [code for base, code in EXIT_STATUSES if issubclass(kind, base)]
    assert rows, f"{kind.__name__} has no exit status of its own"
    exc = instance_of(kind)
    found = failure(exc)
    assert found is not None and (found.code, found.message) == (rows[0], str(exc))


def test_the_table_is_most_specific_first() -> None:
    """No class of the table comes after one of its bases (it would never be reached)."""
    kinds = [kind for kind, _ in EXIT_STATUSES]
    for i, kind in enumerate(kinds):
        assert not any(issubclass(kind, earlier) for earlier in kinds[:i]), kind
    assert all(issubclass(k, RecordsError) for k in kinds)


def test_what_is_not_expected_is_not_translated() -> None:
    assert failure(RuntimeError("a bug")) is None
    assert failure(OSError(5, "Input/output error")) is None  # an output failure is reported apart
    keep = CommandError("as it is", 3)
    assert failure(keep) is keep


def test_a_database_error_is_translated_once_loaded() -> None:
    from sqlalchemy.exc import OperationalError

    assert "sqlalchemy.exc" in sys.modules
    found = failure(OperationalError("SELECT 1", {}, Exception("the server went away\nmore")))
    assert found is not None and found.code == EXIT_USAGE
    assert found.message == "database: the server went away"


def test_a_setting_that_is_no_setting_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    good = tmp_path / "good.sgf"
    good.write_text(GOOD)
    monkeypatch.setenv("RECORDS_MAX_RECORDS", "many")
    done = run("verify", good)
    assert done.exit_code == EXIT_USAGE
    assert "RECORDS_MAX_RECORDS=many" in done.output


@pytest.mark.parametrize("argv", [["search"], ["search", "--after", "Q16"], ["search", "--pattern", "X"], ["explore"],
                                  ["players"], ["events"], ["ratings"]])
def test_an_unknown_game_is_the_same_error_from_every_command(argv: list[str], archive: str) -> None:
    done = run(*argv, "--db", archive, "--game", "nonsense")
    assert done.exit_code == EXIT_USAGE, (argv, done.output)
    assert "error: unknown game 'nonsense' (one of: go-ing, conversion-go, cation, quentin, squer)" in " ".join(
        done.output.split())


def test_examples_still_verify() -> None:
    """The statuses above are those of bad input only: the examples' folder verifies as before (1: some of its
    records are invalid on purpose), with no file unreadable."""
    done = run("verify", "--json", EXAMPLES)
    assert done.exit_code == EXIT_FAILED
    assert '"verdict": "unreadable"' not in done.stdout
