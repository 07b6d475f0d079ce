"""Official results of a non-Go event (a Cation club's) from a table of pairings: read (CSV and TSV), checked
against the records as a Go tournament's are, on the crosstable in OpenGotha's notation; bad tables refused with
the line; the h9 left to Go."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords import Archive
from boardrecords.archive.tournaments.opengotha import TournamentFileError
from boardrecords.archive.tournaments.pairings_file import parse_pairings
from boardrecords.cli.main import app
from boardrecords.common.errors import InputError

PAIRINGS = """round,board,black,white,result
1,1,Ann Archer,Bo Brandt,B
1,2,Cy Cole,Di Dunn,B
1,,Eli Eng,,bye
2,1,Bo Brandt,Cy Cole,W!
2,2,Di Dunn,Eli Eng,=
2,,Ann Archer,,bye
"""

# Cation records (CAT rules) of round 1: Archer beats Brandt as the table says; Cole - Dunn is recorded as White's
# win while the table says Black's. Round 2 has no record: the forfeit needs none, Dunn - Eng does.
RECORDS = [("Ann Archer", "Bo Brandt", "B+R", ";B[ab];W[bb];B[ca];W[resign]"),
           ("Cy Cole", "Di Dunn", "W+R", ";B[ab];W[bb];B[resign]")]


def _archive(db: str, tmp_path: Path, table: str = PAIRINGS) -> Archive:
    folder = tmp_path / "records"
    folder.mkdir()
    for i, (black, white, result, moves) in enumerate(RECORDS):
        folder.joinpath(f"c{i}.rec").write_text(
            f"(;FF[4]CA[UTF-8]GM[Cation]SZ[4]PB[{black}]PW[{white}]EV[Cation Club 2024]RO[1]RE[{result}]{moves})\n",
            encoding="utf-8")
    archive = Archive(db, create=True)
    archive.import_paths([folder], workers=1)
    archive.import_tournament(table.encode("utf-8"), "cation-club-2024.csv", game="cation", name="Cation Club 2024")
    return archive


def test_table_read() -> None:
    t = parse_pairings(PAIRINGS.encode("utf-8"), "cation", "Cation Club 2024")
    assert (t.name, t.rounds, t.settings["game"]) == ("Cation Club 2024", 2, "cation")
    assert [p.full_name for p in t.players] == ["Ann Archer", "Bo Brandt", "Cy Cole", "Di Dunn", "Eli Eng"]
    forfeit = next(p for p in t.pairings if p.round == 2 and p.board == 1)
    assert (forfeit.result, forfeit.forfeit, forfeit.black, forfeit.white) == ("W", True, "BO BRANDT", "CY COLE")
    assert [(p.round, p.white) for p in t.pairings if p.bye] == [(1, "ELI ENG"), (2, "ANN ARCHER")]
    tsv = parse_pairings(PAIRINGS.replace(",", "\t").encode("utf-8"), "cation", "Cation Club 2024")
    assert tsv.pairings == t.pairings


def test_check_and_official_results(db_url: str, tmp_path: Path) -> None:
    with _archive(db_url, tmp_path) as archive:
        checked = archive.check_tournament("Cation Club 2024")
        answer = archive.crosstable("Cation Club 2024", notation="opengotha")
        with pytest.raises(InputError, match="for Go"):
            archive.export_tournament("Cation Club 2024")
    kinds = [(d.kind, d.round, d.board) for d in checked.disagreements]
    assert kinds == [("result", 1, 2), ("no-record", 2, 2)]
    assert "the official result is B+ Cy Cole" in checked.disagreements[0].message
    official = answer.official
    assert official is not None and official.rows[0].rank == ""
    cells = {r.player: [c.text for c in r.cells] for r in official.rows}
    places = {r.player: r.place for r in official.rows}
    assert cells["Ann Archer"] == [f"{places['Bo Brandt']}+/b0", "0+"]
    assert cells["Cy Cole"] == [f"{places['Di Dunn']}+/b0", f"{places['Bo Brandt']}+!w0"]
    assert cells["Di Dunn"][1] == f"{places['Eli Eng']}=/b0"
    marked = {r.player: [c.disagreements for c in r.cells] for r in official.rows}
    assert marked["Cy Cole"] == [("result",), ()] and marked["Eli Eng"] == [(), ("no-record",)]
    records = {s.name: [answer.table.cell_text(c) for c in s.cells] for s in answer.table.standings}
    ranks = {s.name: s.rank for s in answer.table.standings}
    assert records["Di Dunn"] == [f"{ranks['Cy Cole']}+/w0"]  # the records' crosstable in OpenGotha's notation


BAD = {
    "no header": ("1,Ann,Bo,B\n", "round, black, white, result are missing"),
    "bad result": ("round,black,white,result\n1,Ann,Bo,B+R\n", "line 2: the result 'B+R' is none of"),
    "bad round": ("round,black,white,result\n0,Ann,Bo,B\n", "line 2: the round 0 is not 1 to 20"),
    "twice": ("round,black,white,result\n1,Ann,Bo,B\n1,Ann,Cy,W\n", "line 3: Ann is paired twice in round 1"),
    "self": ("round,black,white,result\n1,Ann,ann,B\n", "paired twice in round 1"),
    "empty name": ("round,black,white,result\n1,,Bo,B\n", "line 2: a player's name is empty"),
    "bye of two": ("round,black,white,result\n1,Ann,Bo,bye\n", "a bye names one player"),
    "binary": ("\x00\x01", "NUL"),
    "nothing": ("round,black,white,result\n", "holds no pairing"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_tables(case: str, tmp_path: Path) -> None:
    data, message = BAD[case]
    with Archive(str(tmp_path / "a.db"), create=True) as archive:
        version = archive.version()
        with pytest.raises(TournamentFileError, match=re.escape(message)):
            archive.import_tournament(data.encode("utf-8"), "t.csv", game="squer", name="T")
        assert archive.version() == version


def test_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    _archive(db, tmp_path).close()
    table = tmp_path / "club.csv"
    table.write_text(PAIRINGS, encoding="utf-8")
    run = CliRunner().invoke
    again = run(app, ["tournament", "import", str(table), "--game", "cation", "--name", "Cation Club 2024", "--db",
                      db, "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["updated"] is True
    check = run(app, ["tournament", "check", "Cation Club 2024", "--db", db, "--json"])
    assert check.exit_code == 1 and [json.loads(x)["kind"] for x in check.stdout.splitlines()] == ["result",
                                                                                                   "no-record"]
    assert run(app, ["tournament", "import", str(table), "--name", "X", "--db", db]).exit_code == 2
    h9 = run(app, ["tournament", "export", "Cation Club 2024", "--db", db])
    assert h9.exit_code == 2 and "for Go" in h9.output
