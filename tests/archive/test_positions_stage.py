"""The position index's stage (SQLite and PostgreSQL): an import's rows wait there until the run ends; an import
stopped before its merge leaves them pending, the questions still count them, a delete takes them along, and the
next writing command merges them, the index and its counts exact."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from boardrecords.archive.positions.stage import has_pending, merge_pending
from boardrecords.archive.store import importer

from ..shared import exact_counts, run, write_folder

# Every test here runs with the counts kept in each way (tests/conftest.py `counting`).
pytestmark = pytest.mark.usefixtures("counting")

FIRST = {
    "q1.rec": "(;GM[Quentin]SZ[5]PB[Ann]PW[Bo]DT[2024-01-02]RE[B+];B[bc];W[swap];W[cc];B[dd])",
    "g1.rec": "(;GM[1]SZ[9]PB[Eve]PW[Fay]DT[2022-01-01]RE[B+R];B[cd];W[ef];B[dg];W[gc])",
}
SECOND = {
    "q2.rec": "(;GM[Quentin]SZ[5]PB[Cy]PW[Di]DT[2024-03-04]RE[W+];B[bc];W[swap];W[dd])",
    "q3.rec": "(;GM[Quentin]SZ[5]PB[Ann]PW[Di]DT[2023-05-06]RE[B+];B[dc];W[cc])",
    "g2.rec": "(;GM[1]SZ[9]PB[Gus]PW[Eve]DT[2022-02-02]RE[W+R];B[fc];W[de];B[cd];W[gg])",
}
POSITIONS = {"q1.rec": 5, "g1.rec": 5, "q2.rec": 4, "q3.rec": 3, "g2.rec": 5}


def _rows(engine: Engine, table: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() or 0)


def _interrupted_import(folder: Path, db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`records import` stopped after its last batch committed, before its rows were merged."""
    with monkeypatch.context() as m:
        m.setattr(importer, "merge_pending", lambda engine: 0)
        assert run("import", folder, "--db", db, "-q").exit_code == 0


def _explore_start(db: str) -> dict[str, object]:
    r = run("explore", "--game", "quentin", "--size", "5", "--db", db, "--json")
    assert r.exit_code in (0, 1), r.output  # 1: no game reached it
    data: dict[str, object] = json.loads(r.stdout)
    return data


def test_an_import_merges_its_rows_when_it_ends(tmp_path: Path, db_url: str, engine: Engine) -> None:
    assert run("import", write_folder(tmp_path, "a", FIRST), "--db", db_url, "-q").exit_code == 0
    assert not has_pending(engine)
    assert _rows(engine, "position_stage") == 0
    assert _rows(engine, "position") == POSITIONS["q1.rec"] + POSITIONS["g1.rec"]
    exact_counts(engine)
    # A second import merges into an index that is not empty (the game_id index kept, not rebuilt).
    assert run("import", write_folder(tmp_path, "b", SECOND), "--db", db_url, "-q").exit_code == 0
    assert _rows(engine, "position") == sum(POSITIONS.values())
    assert _rows(engine, "position_stage") == 0
    exact_counts(engine)
    with engine.connect() as conn:  # the (game_id, ply) index is there after both kinds of merge
        assert conn.exec_driver_sql("SELECT count(*) FROM position WHERE game_id = 1 AND ply = 0").scalar() == 1


def test_pending_rows_are_counted_by_the_questions_then_merged(tmp_path: Path, db_url: str, engine: Engine,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("import", write_folder(tmp_path, "a", FIRST), "--db", db_url, "-q").exit_code == 0
    merged = _explore_start(db_url)
    _interrupted_import(write_folder(tmp_path, "b", SECOND), db_url, monkeypatch)
    assert has_pending(engine)
    assert _rows(engine, "position_stage") == POSITIONS["q2.rec"] + POSITIONS["q3.rec"] + POSITIONS["g2.rec"]
    # The questions read the pending rows beside the index: every stored game counts.
    pending = _explore_start(db_url)
    assert pending["games"] == 3 and merged["games"] == 1
    r = run("search", "--after", "C6,E4", "--size", "9", "--db", db_url, "--json")
    assert r.exit_code == 0, r.output
    assert sorted(f["black"] for f in json.loads(r.stdout)) == ["Eve", "Gus"]
    r = run("explore", "b3", "--game", "quentin", "--size", "5", "--player", "ann", "--db", db_url, "--json")
    assert {c["move"]: c["games"] for c in json.loads(r.stdout)["continuations"]} == {"W swap-sides": 1, "W c3": 1}
    # The next command that writes merges them; the answers stay the same.
    assert run("reindex", "--db", db_url, "-q").exit_code == 0
    assert not has_pending(engine)
    assert _rows(engine, "position") == sum(POSITIONS.values())
    exact_counts(engine)
    assert _explore_start(db_url) == pending


def test_an_import_after_an_interrupted_one_merges_both(tmp_path: Path, db_url: str, engine: Engine,
                                                         monkeypatch: pytest.MonkeyPatch, counting: int) -> None:
    folder = write_folder(tmp_path, "a", {**FIRST, **SECOND})
    _interrupted_import(folder, db_url, monkeypatch)
    assert _rows(engine, "position") == 0
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0  # all duplicates: it stores nothing new
    assert _rows(engine, "position_stage") == 0
    assert _rows(engine, "position") == sum(POSITIONS.values())
    games = Counter[object]()
    for row in exact_counts(engine):
        games[row[0]] += int(str(row[2]))
    # Counted from two games: the start of Quentin 5x5 and the position after b3 (three games: d3 is its mirror
    # image), and every position of the Go game and its quarter turn (two); from 64, none.
    assert (sorted(games.values(), reverse=True)[:3] == [3, 3, 2]) if counting == 2 else not games


def test_a_deleted_game_takes_its_pending_rows_along(tmp_path: Path, db_url: str, engine: Engine,
                                                     monkeypatch: pytest.MonkeyPatch, counting: int) -> None:
    assert run("import", write_folder(tmp_path, "a", FIRST), "--db", db_url, "-q").exit_code == 0
    _interrupted_import(write_folder(tmp_path, "b", SECOND), db_url, monkeypatch)
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys = ON")
        conn.execute(text("DELETE FROM game WHERE source_file LIKE '%q2.rec' OR source_file LIKE '%q1.rec'"))
    assert _rows(engine, "position_stage") == POSITIONS["q3.rec"] + POSITIONS["g2.rec"]
    assert _explore_start(db_url)["games"] == 1
    assert merge_pending(engine) == POSITIONS["q3.rec"] + POSITIONS["g2.rec"]
    assert merge_pending(engine) == 0
    assert _rows(engine, "position") == POSITIONS["g1.rec"] + POSITIONS["q3.rec"] + POSITIONS["g2.rec"]
    exact_counts(engine)
    # Deleted after the merge: the counts follow too.
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys = ON")
        conn.execute(text("DELETE FROM game WHERE source_file LIKE '%q3.rec'"))
    assert _explore_start(db_url)["games"] == 0
    assert bool(exact_counts(engine)) == (counting == 2)  # the Go game and its quarter turn remain
    assert _rows(engine, "position") == POSITIONS["g1.rec"] + POSITIONS["g2.rec"]


def test_reindex_replaces_the_pending_rows_of_its_games(tmp_path: Path, db_url: str, engine: Engine,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _interrupted_import(write_folder(tmp_path, "a", {**FIRST, **SECOND}), db_url, monkeypatch)
    from boardrecords.archive.store.reindex import reindex

    with monkeypatch.context() as m:  # the pending rows are still there when the batches are made again
        m.setattr("boardrecords.archive.store.reindex.merge_pending", lambda engine: 0)
        done, positions, _, _ = reindex(engine)
    assert (done, positions) == (5, sum(POSITIONS.values()))
    assert _rows(engine, "position_stage") == sum(POSITIONS.values())
    assert merge_pending(engine) == sum(POSITIONS.values())
    exact_counts(engine)
