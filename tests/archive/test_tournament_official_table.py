"""The official results beside the crosstable (a tournament with deliberate errors): each board's result as
OpenGotha writes it, its record, and the same disagreements `tournament check` finds, computed once; and the
records' crosstable in OpenGotha's notation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords import Archive
from boardrecords.cli.main import app
from boardrecords.common.errors import InputError

SMALL = (Path(__file__).parent / "tournament_files" / "small.xml").read_bytes()

# The tournament of small.xml, its records with deliberate errors:
ERRORS = [
    (1, "Björn Berg", "Alice Adams", "B+R", "W[resign]"),  # officially White (Adams) won: a result disagreement
    (1, "Dan Do", "Chloé Côté", "B+R", "W[resign]"),  # the forfeit, played after all: agrees
    (2, "Björn Berg", "Chloé Côté", "0", ""),  # colours swapped (officially Côté had Black)
    # round 2 board 2, Ek - Adams: no record
    (3, "Dan Do", "Alice Adams", "B+R", "W[resign]"),  # colours unknown officially: agrees
    (3, "Chloé Côté", "Eve Ek", "W+R", "B[resign]"),  # the official result not entered: not compared
    (2, "Eve Ek", "Dan Do", "B+R", "W[resign]"),  # Do had the bye in round 2: no pairing
]


def write_records(folder: Path, games: list[tuple[int, str, str, str, str]], event: str = "Small Open 2024") -> None:
    folder.mkdir()
    for i, (ro, black, white, result, last) in enumerate(games):
        moves, komi = (";B[cc];W[gg];B[];W[]", 0) if result == "0" else (f";B[ee];W[cc];{last}", 6.5)
        folder.joinpath(f"g{i}.sgf").write_text(
            f"(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[{komi}]EV[{event}]RO[{ro}]PB[{black}]PW[{white}]RE[{result}]{moves})\n",
            encoding="utf-8")


def _archive(db: str, tmp_path: Path) -> Archive:
    write_records(tmp_path / "records", ERRORS)
    archive = Archive(db, create=True)
    archive.import_paths([tmp_path / "records"], workers=1)
    archive.import_tournament(SMALL)
    return archive


def test_official_results_with_records_and_marks(db_url: str, tmp_path: Path) -> None:
    with _archive(db_url, tmp_path) as archive:
        answer = archive.crosstable("Small Open 2024")
        checked = archive.check_tournament("Small Open 2024").disagreements
    official = answer.official
    assert official is not None
    rows = {r.player: r for r in official.rows}
    assert [r.player for r in official.rows] == ["Alice Adams", "Björn Berg", "Chloé Côté", "Dan Do", "Eve Ek"]
    adams = [(c.text, c.disagreements) for c in rows["Alice Adams"].cells]
    assert adams == [("2+/w0", ("result",)), ("5-/b0", ("no-record",)), ("4-/?0", ())]
    assert [c.disagreements for c in rows["Björn Berg"].cells] == [("result",), ("colours",), ()]
    assert rows["Björn Berg"].cells[2].text == "0+" and rows["Björn Berg"].cells[2].record is None  # the bye
    ids = {c.record for r in official.rows for c in r.cells if c.record is not None}
    assert len(ids) == 5  # every record matched to a board, the one without a pairing aside
    # the disagreements are the check's, board for board
    on_boards = {(kind, c.record) for r in official.rows for c in r.cells for kind in c.disagreements}
    assert on_boards == {(d.kind, d.record) for d in checked if d.kind != "no-pairing"}
    assert official.unmatched == [d.message for d in checked if d.kind == "no-pairing"]
    found = answer.to_json()["official"]
    assert found["standings"][0]["games"][0] == {"round": 1, "cell": "2+/w0", "record": rows["Alice Adams"]
                                                  .cells[0].record, "disagreements": ["result"],
                                                  "messages": [rows["Alice Adams"].cells[0].messages[0]]}


def test_no_tournament_no_official_results(tmp_path: Path) -> None:
    write_records(tmp_path / "records", ERRORS, event="Other Cup")
    with Archive(str(tmp_path / "a.db"), create=True) as archive:
        archive.import_paths([tmp_path / "records"], workers=1)
        archive.import_tournament(SMALL)
        answer = archive.crosstable("Other Cup")
    assert answer.official is None and answer.to_json()["official"] is None


def test_opengotha_notation(tmp_path: Path) -> None:
    with _archive(str(tmp_path / "a.db"), tmp_path) as archive:
        table = archive.crosstable("Small Open 2024", notation="opengotha").table
        with pytest.raises(InputError, match="no crosstable notation 'tou'") as caught:
            archive.crosstable("Small Open 2024", notation="tou")
    assert caught.value.field == "notation"
    cells = {s.name: [table.cell_text(c) for c in s.cells] for s in table.standings}
    ranks = {s.name: s.rank for s in table.standings}
    assert cells["Alice Adams"][0] == f"{ranks['Björn Berg']}-/w0"  # lost as White, no handicap
    assert cells["Eve Ek"][0] == "0+"  # the odd player out: a bye worth a point
    assert cells["Chloé Côté"][1] == f"{ranks['Björn Berg']}=/w0"  # the record's colours
    assert table.to_json()["notation"] == "opengotha"


def test_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    _archive(db, tmp_path).close()
    run = CliRunner().invoke
    shown = run(app, ["crosstable", "Small Open 2024", "--db", db], env={"COLUMNS": "160"})
    assert shown.exit_code == 0
    assert "official results: Small Open 2024" in shown.stdout and "!result" in shown.stdout
    assert "2+/w0 #" in shown.stdout and "no pairing" in shown.stdout
    notated = run(app, ["crosstable", "Small Open 2024", "--notation", "opengotha", "--db", db, "--json"])
    found = json.loads(notated.stdout)
    assert found["notation"] == "opengotha" and found["official"]["tournament"] == "Small Open 2024"
    page = run(app, ["crosstable", "Small Open 2024", "--html", "--db", db]).stdout
    assert "Official results: Small Open 2024" in page and "!result</strong>" in page
    bad = run(app, ["crosstable", "Small Open 2024", "--notation", "tou", "--db", db])
    assert bad.exit_code == 2 and "no crosstable notation" in bad.output and "Traceback" not in bad.output
