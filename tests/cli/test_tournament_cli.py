"""`records tournament import`: an OpenGotha file stored, its summary in words and JSON, a later save updating
it, and a bad file a one-line message with exit 2 and the archive unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from boardrecords import Archive
from boardrecords.cli.main import app

runner = CliRunner()
SMALL = Path(__file__).parents[1] / "archive" / "tournament_files" / "small.xml"


def test_import_then_update(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    first = runner.invoke(app, ["tournament", "import", str(SMALL), "--db", db])
    assert first.exit_code == 0, first.output
    assert "imported Small Open 2024: 5 players, 3 rounds, 6 pairings, 3 byes" in first.output
    again = runner.invoke(app, ["tournament", "import", str(SMALL), "--db", db, "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == {"tournament": "Small Open 2024", "short_name": "small-open-2024",
                                        "updated": True, "players": 5, "rounds": 3, "pairings": 6, "byes": 3,
                                        "conflicts": []}  # of the players' federation numbers: none here


def test_bad_file_is_a_message(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    assert runner.invoke(app, ["tournament", "import", str(SMALL), "--db", db]).exit_code == 0
    bad = tmp_path / "bad.xml"
    bad.write_text(SMALL.read_text(encoding="utf-8").replace('whitePlayer="EKEVE"/>', 'whitePlayer="NOBODY"/>'),
                   encoding="utf-8")
    result = runner.invoke(app, ["tournament", "import", str(bad), "--db", db])
    assert result.exit_code == 2
    assert "bad.xml" in result.output and "'NOBODY', a player the file does not list" in result.output
    assert "Traceback" not in result.output
    with Archive(db) as archive:
        assert all(p.white != "NOBODY" for p in archive.tournament("small-open-2024").pairings)
    missing = runner.invoke(app, ["tournament", "import", str(tmp_path / "none.xml"), "--db", db])
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_check(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    folder = tmp_path / "records"
    folder.mkdir()
    folder.joinpath("r1.sgf").write_text("(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[6.5]EV[Small Open 2024]RO[1]PB[Björn Berg]"
                                         "PW[Alice Adams]RE[B+R];B[ee];W[cc];W[resign])\n", encoding="utf-8")
    assert runner.invoke(app, ["import", str(folder), "--db", db]).exit_code == 0
    none_yet = runner.invoke(app, ["tournament", "check", "Small Open 2024", "--db", db])
    assert none_yet.exit_code == 1 and "no tournament named 'Small Open 2024' was imported" in none_yet.output
    assert runner.invoke(app, ["tournament", "import", str(SMALL), "--db", db]).exit_code == 0
    result = runner.invoke(app, ["tournament", "check", "small open 2024", "--db", db, "--json"])
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert {"kind": "result", "round": 1, "board": 1, "record": 1, "official": "W+ Alice Adams",
            "recorded": "B+ Björn Berg",
            "message": "round 1 board 1: the official result is W+ Alice Adams, record 1 says B+ Björn Berg"} in lines
    assert sum(d["kind"] == "no-record" for d in lines) == 4  # every other board played (the forfeit aside)
    text = runner.invoke(app, ["tournament", "check", "small-open-2024", "--db", db])
    assert text.exit_code == 1 and "1 record, 6 pairings, 5 disagreements" in text.output
