"""Evenness: `-` wherever a record is read, explore's moves by spaces or commas, any output
encoding."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared import EXAMPLES, import_games, run

RECORD = EXAMPLES / "go" / "capture-and-resignation.rec"
CJK = "天下无狗"
GAMES = {
    "a.sgf": f"(;GM[1]SZ[19]PB[{CJK}]PW[Alice]RE[W+R];B[pd];W[dp];B[pp])\n",
    "b.sgf": "(;GM[1]SZ[19]PB[Bob]PW[Alice]RE[B+R];B[pd];W[dp];B[dd])\n",
}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("even")
    db = str(tmp / "even.db")
    import_games(tmp, db, GAMES)
    return db


def test_explore_takes_moves_separated_by_spaces_or_commas(archive: str) -> None:
    by_commas = run("explore", "Q16,D4", "--db", archive)
    assert by_commas.exit_code == 0, by_commas.output
    assert run("explore", "Q16", "D4", "--db", archive).stdout == by_commas.stdout
    assert run("explore", "Q16 D4", "--db", archive).stdout == by_commas.stdout
    assert "2 games reached this position" in by_commas.stdout


@pytest.mark.parametrize("command", [("replay", "-", "--move", "3"), ("diagram", "-", "--move", "3"),
                                     ("html", "-")])
def test_standard_input_is_a_record(command: tuple[str, ...], tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = [*command, *(["-o", str(out)] if command[0] != "replay" else [])]
    with RECORD.open("rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", *args], stdin=stdin,
                              capture_output=True, timeout=120, env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr.decode()
    if command[0] == "replay":
        assert b"Move 3" in done.stdout or b"move 3" in done.stdout, done.stdout.decode()
    else:
        assert out.read_text().lstrip().startswith("<")


@pytest.mark.parametrize("command", [("search",), ("search", "--json"), ("search", "--csv"), ("show", "1"),
                                     ("players",), ("verify",)])
def test_any_output_encoding(command: tuple[str, ...], archive: str) -> None:
    args = [*command, str(EXAMPLES)] if command[0] == "verify" else [*command, "--db", archive]
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", *args], capture_output=True, env=env,
                          timeout=120)
    assert done.returncode in (0, 1), done.stderr.decode()
    assert b"Traceback" not in done.stderr and b"UnicodeEncodeError" not in done.stderr
    assert done.stdout.isascii()
    if command[0] != "verify":
        assert b"\\u5929" in done.stdout  # the first character of the CJK name, escaped


def test_no_progress_bar_unless_on_a_terminal(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", "import", str(EXAMPLES), "--db",
                           str(tmp_path / "p.db")], capture_output=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr.decode()
    assert b"importing" not in done.stderr and b"importing" not in done.stdout


@pytest.mark.parametrize("command", ["diagram", "html"])
def test_a_missing_output_folder_is_made(command: str, tmp_path: Path) -> None:
    target = tmp_path / "new" / "folder" / "out"
    result = run(command, RECORD, "-o", target)
    assert result.exit_code == 0, result.output
    assert target.read_text().lstrip().startswith("<")


# Every command that takes --db, with the arguments it needs to reach the archive.
DB_COMMANDS: dict[str, tuple[str, ...]] = {
    "replay": ("1",), "diagram": ("1",), "html": ("1",), "import": (str(RECORD),), "search": (), "duplicates": (),
    "show": ("1",), "export": ("1",), "stats": (), "explore": (), "reindex": (), "delete": ("1", "--yes"),
    "fix": ("1", "--set", "RO=2"), "events": (), "crosstable": ("Cup",), "players": (), "alias": ("a", "b"),
    "ratings": (), "serve": ("--port", "0"), "audit": (), "player": ("a",), "record": ("--resume", "1"),
}


def test_every_command_with_db_is_checked() -> None:
    from boardrecords.cli.main import COMMANDS, load

    with_db = {name for name, (module, _, _) in COMMANDS.items()
               if any("--db" in p.opts for p in load(module)[name].params)}
    assert with_db == set(DB_COMMANDS)


def _db_error(command: str, db: str, cwd: Path) -> tuple[int, str]:
    args = DB_COMMANDS[command]
    here = os.getcwd()
    os.chdir(cwd)  # the path as the user types it, relative to where they are
    try:
        result = run(command, *args, "--db", db)
    finally:
        os.chdir(here)
    return result.exit_code, result.output


@pytest.mark.parametrize("command", sorted(DB_COMMANDS))
def test_db_errors_say_what_is_wrong_with_the_path(command: str, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("shopping: bread, milk\n")
    (tmp_path / "somefolder").mkdir()
    # Only import makes an archive: a path in a missing folder is a folder it cannot make it in; for every other
    # command (those that change an archive too), an archive that is not there.
    missing_says = "the folder missing/dir does not exist"
    for db, says in (("notes.txt", "error: notes.txt is not an archive: the file is not a SQLite database"),
                     ("somefolder/", "error: somefolder/ is a folder, not an archive"),
                     ("missing/dir/a.db", ("error: cannot create the archive missing/dir/a.db: " if command == "import"
                                           else "error: no archive at missing/dir/a.db: ") + missing_says)):
        code, output = _db_error(command, db, tmp_path)
        assert code == 2, (db, output)
        assert output.strip() == output.strip().splitlines()[0], output  # one line
        assert output.startswith(says), (db, output)
        assert "sqlite:" not in output and "disk I/O" not in output and "unable to open" not in output
    assert not (tmp_path / "missing").exists()


def test_a_path_in_an_existing_folder_is_an_archive_to_make_or_to_import_first(tmp_path: Path) -> None:
    code, output = _db_error("search", "none.db", tmp_path)
    assert code == 2 and output.startswith("error: no archive at none.db (run `records import` first")
    code, output = _db_error("import", "new.db", tmp_path)
    assert code == 0 and (tmp_path / "new.db").exists()


def test_export_of_a_missing_id_is_one_error(archive: str) -> None:
    for ids in (("42",), ("42", "42")):
        result = run("export", *ids, "--db", archive)
        assert result.exit_code == 1
        assert result.output.splitlines() == ["error: no record 42 in the archive"]
    two = run("export", "41", "42", "--db", archive)
    assert two.output.splitlines() == ["error: no record 41 in the archive", "error: no record 42 in the archive"]
    some = run("export", "1", "42", "--db", archive)
    assert some.exit_code == 1 and some.stdout.startswith("(;GM[1]")
    assert some.stderr.splitlines() == ["error: no record 42 in the archive"]


def test_import_counts_records_once_and_unreadable_files_apart(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name, body in GAMES.items():
        (folder / name).write_text(body)
    (folder / "again.sgf").write_text(GAMES["a.sgf"])  # a duplicate: read, counted, not stored again
    (folder / "broken.sgf").write_text("this is not a record\n")
    result = run("import", folder, "--db", tmp_path / "a.db")
    assert result.exit_code == 1
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    head = lines.index("files unreadable files records new duplicates")
    assert lines[head + 2] == "4 1 3 2 1"
    assert lines[-1].startswith("3 records: 3 pass, 0 invalid; 1 unreadable file; results: 3 agrees")
