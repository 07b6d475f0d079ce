"""`Archive.check_tournament`: records of an event matched to the imported tournament's pairings (players in
either name order and through aliases, colours, rounds), and each kind of disagreement found, on SQLite and
PostgreSQL; the check reads records of any game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardrecords import Archive
from boardrecords.common.errors import NotFound

SMALL = (Path(__file__).parent / "tournament_files" / "small.xml").read_bytes()


def _record(folder: Path, name: str, ro: int | None, black: str, white: str, result: str, last: str) -> None:
    round_tag = f"RO[{ro}]" if ro is not None else ""
    # a draw: komi 0 and two stones placed alike, then two passes (equal areas)
    moves, komi = (";B[cc];W[gg];B[];W[]", 0) if last == "jigo" else (f";B[ee];W[cc];{last}", 6.5)
    folder.joinpath(name).write_text(f"(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[{komi}]EV[Small Open 2024]{round_tag}"
                                     f"PB[{black}]PW[{white}]RE[{result}]{moves})\n", encoding="utf-8")


def _kinds(found: list) -> list[tuple[str, int | None, int | None]]:
    return [(d.kind, d.round, d.board) for d in found]


def _archive(db_url: str, tmp_path: Path, records: list[tuple]) -> Archive:
    folder = tmp_path / "records"
    folder.mkdir()
    for i, spec in enumerate(records):
        _record(folder, f"r{i:02d}.sgf", *spec)
    archive = Archive(db_url, create=True)
    archive.import_paths([folder], workers=1)
    archive.import_tournament(SMALL)
    return archive


AGREEING = [
    (1, "Björn Berg", "Alice Adams", "W+R", "B[resign]"),  # round 1 board 1: White wins
    (1, "Dan Do", "Chloé Côté", "B+R", "W[resign]"),  # board 2, a forfeit with a record after all: agrees
    (2, "Chloé Côté", "Björn Berg", "0", "jigo"),  # a jigo (SGF's RE[0])
    (2, "Adams Alice", "Eve Ek", "B+R", "W[resign]"),  # name then first name; both lose: a winner differs
    (3, "Dan Do", "Alice Adams", "B+R", "W[resign]"),
    (3, "Chloé Côté", "Eve Ek", "W+R", "B[resign]"),  # official result not entered: not compared
]


def test_agreeing_records_and_each_disagreement(db_url: str, tmp_path: Path) -> None:
    with _archive(db_url, tmp_path, AGREEING) as archive:
        answer = archive.check_tournament("small-open-2024")
    assert (answer.records, answer.pairings) == (6, 6)
    # the one official result no record can give: both lose (round 2 board 2), which the record's winner differs from
    assert _kinds(answer.disagreements) == [("result", 2, 2)]
    (d,) = answer.disagreements
    assert (d.official, d.recorded) == ("both lose", "B+ Adams Alice")
    assert d.to_json()["kind"] == "result" and "the official result is both lose" in d.message


def test_disagreements(db_url: str, tmp_path: Path) -> None:
    records = [
        (1, "Alice Adams", "Björn Berg", "W+R", "B[resign]"),  # colours swapped, and so Berg won: result differs
        (2, "Chloé Côté", "Björn Berg", "B+R", "W[resign]"),  # official jigo
        (3, "Björn Berg", "Eve Ek", "B+R", "W[resign]"),  # not paired in round 3 (Berg has the bye)
        (3, "Dan Do", "Alice Adams", "B+R", "B[resign]"),  # a verdict that is not a pass (Black resigned)
        (3, "Dan Do", "Alice Adams", "B+R", "W[resign]"),  # a second record of one pairing
        (2, "Nobody Known", "Eve Ek", "B+R", "W[resign]"),  # a player the tournament does not list
    ]
    with _archive(db_url, tmp_path, records) as archive:
        found = archive.check_tournament("Small Open 2024").disagreements
    kinds = _kinds(found)
    assert ("colours", 1, 1) in kinds and ("result", 1, 1) in kinds
    assert ("result", 2, 1) in kinds
    assert next(d for d in found if d.kind == "result" and d.round == 2).official == "jigo"
    assert ("no-record", 2, 2) in kinds  # Ek - Adams has no record
    assert ("no-record", 3, 2) in kinds
    assert ("no-record", 1, 2) not in kinds  # a forfeit is not played: no record is expected
    pairless = [d for d in found if d.kind == "no-pairing"]
    assert len(pairless) == 3
    assert any("not paired in round 3" in d.message for d in pairless)
    assert any("Nobody Known is not a player of the tournament" in d.message for d in pairless)
    assert any("a second record of its pairing" in d.message for d in pairless)
    assert [d.recorded for d in found if d.kind == "verdict"] == ["wrong-result"]


def test_aliases_join_spellings(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    records = [(1, "B. Berg", "Alice Adams", "W+R", "B[resign]")]
    with _archive(db, tmp_path, records) as archive:
        assert ("no-pairing", 1, None) in _kinds(archive.check_tournament("small-open-2024").disagreements)
    with Archive(db, write=True) as archive:
        archive.alias("Björn Berg", "B. Berg")
        assert ("no-pairing", 1, None) not in _kinds(archive.check_tournament("small-open-2024").disagreements)


def test_no_round_matches_the_one_pairing(tmp_path: Path) -> None:
    records = [(None, "Björn Berg", "Alice Adams", "B+R", "W[resign]")]
    with _archive(str(tmp_path / "a.db"), tmp_path, records) as archive:
        found = archive.check_tournament("small-open-2024").disagreements
    assert ("result", 1, 1) in _kinds(found)


def test_records_of_another_game(tmp_path: Path) -> None:
    """A Cation record of the event's players is checked like a Go one (the check knows no game)."""
    cation = Path(__file__).parents[2] / "examples" / "cation"
    source = sorted(p for p in cation.glob("*.rec"))[0].read_text(encoding="utf-8")
    folder = tmp_path / "records"
    folder.mkdir()
    text = re.sub(r"EV\[[^\]]*\]", "", source)
    text = re.sub(r"PB\[[^\]]*\]", "PB[Björn Berg]", text)
    text = re.sub(r"PW\[[^\]]*\]", "PW[Alice Adams]", text)
    text = re.sub(r"RO\[[^\]]*\]", "", text)
    text = text.replace("(;", "(;EV[Small Open 2024]RO[1]", 1)
    folder.joinpath("c.rec").write_text(text, encoding="utf-8")
    with Archive(str(tmp_path / "a.db"), create=True) as archive:
        archive.import_paths([folder], workers=1)
        archive.import_tournament(SMALL)
        answer = archive.check_tournament("small-open-2024")
    assert answer.records == 1
    assert ("no-pairing", 1, None) not in _kinds(answer.disagreements)  # matched to round 1 board 1


def test_unknown_tournament(tmp_path: Path) -> None:
    with Archive(str(tmp_path / "a.db"), create=True) as archive, pytest.raises(NotFound):
        archive.check_tournament("Other Cup")
