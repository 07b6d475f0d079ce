"""Ctrl-C inside the final merge of an import or a reindex (SQLite and PostgreSQL): the interrupted message and
exit 130, never the database's complaint about the broken transaction; the archive intact, and the next writing
command completes the merge. A Ctrl-C just after a batch's commit: the message counts that batch's records.

The interruption is raised from inside the merge's statement that fills the index, where the driver would raise a
KeyboardInterrupt of a real Ctrl-C: SQLAlchemy then throws the connection away, which is what the command must
survive."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.engine.default import DefaultDialect

from ..shared import exact_counts, run, write_folder

GAMES = {
    "g1.rec": "(;GM[1]SZ[9]PB[Eve]PW[Fay]DT[2022-01-01]RE[B+R];B[cd];W[ef];B[dg];W[gc])",
    "q1.rec": "(;GM[Quentin]SZ[5]PB[Ann]PW[Bo]DT[2024-01-02]RE[B+];B[bc];W[swap];W[cc];B[dd])",
}
MORE = {
    "g2.rec": "(;GM[1]SZ[9]PB[Gus]PW[Eve]DT[2022-02-02]RE[W+R];B[fc];W[de];B[cd];W[gg])",
}


def _ctrl_c_in_merge(m: pytest.MonkeyPatch) -> None:
    """Every statement that fills the index from the merge's rows is interrupted, as a Ctrl-C would be."""
    execute = DefaultDialect.do_execute

    def interrupted(self, cursor, statement, parameters, context=None):  # type: ignore[no-untyped-def]
        if statement.startswith("INSERT INTO position SELECT"):
            raise KeyboardInterrupt
        return execute(self, cursor, statement, parameters, context)

    m.setattr(DefaultDialect, "do_execute", interrupted)


def _explore(db: str) -> dict[str, object]:
    r = run("explore", "--game", "go", "--size", "9", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    data: dict[str, object] = json.loads(r.stdout)
    return data


def _games(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM game")).scalar() or 0)


def test_ctrl_c_in_the_merge_of_an_import(tmp_path: Path, db_url: str, engine: Engine,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("import", write_folder(tmp_path, "a", GAMES), "--db", db_url, "-q").exit_code == 0
    with monkeypatch.context() as m:
        _ctrl_c_in_merge(m)
        r = run("import", write_folder(tmp_path, "b", MORE), "--db", db_url, "-q")
    assert r.exit_code == 130, r.output
    assert "interrupted: 1 new records were committed; run the same import again" in r.output
    assert "rolled back" not in r.output and "database" not in r.output
    assert _games(engine) == 3  # the records committed; their positions wait in the stage
    before = _explore(db_url)  # the questions count the staged rows
    assert before["games"] == 2
    again = run("import", write_folder(tmp_path, "c", MORE), "--db", db_url, "-q", "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["duplicates"] == 1
    assert _explore(db_url) == before
    exact_counts(engine)


def test_ctrl_c_just_after_a_commit_counts_its_records(tmp_path: Path, db_url: str, engine: Engine,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from boardrecords.archive.store import importer

    write_rows = importer.write_rows
    calls = 0

    def committed_then_interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        stored = write_rows(*args, **kwargs)
        if calls == 2:
            raise KeyboardInterrupt  # reaching Python after the commit, before write_rows returns its answer
        return stored

    monkeypatch.setattr(importer, "write_rows", committed_then_interrupted)
    r = run("import", write_folder(tmp_path, "a", {**GAMES, **MORE}), "--db", db_url, "-q", "--batch", "1")
    assert r.exit_code == 130, r.output
    assert _games(engine) == 2
    assert "interrupted: 2 new records were committed; run the same import again" in r.output
    monkeypatch.undo()
    again = run("import", tmp_path / "a", "--db", db_url, "-q", "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["new"] == 1
    exact_counts(engine)


def test_ctrl_c_in_the_merge_of_a_reindex(tmp_path: Path, db_url: str, engine: Engine,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert run("import", write_folder(tmp_path, "a", {**GAMES, **MORE}), "--db", db_url, "-q").exit_code == 0
    before = _explore(db_url)
    with monkeypatch.context() as m:
        _ctrl_c_in_merge(m)
        r = run("reindex", "--db", db_url, "-q")
    assert r.exit_code == 130, r.output
    assert "interrupted: the records done so far are indexed again; run `records reindex` again" in r.output
    assert "rolled back" not in r.output
    assert _explore(db_url) == before
    assert run("reindex", "--db", db_url, "-q").exit_code == 0
    assert _explore(db_url) == before
    exact_counts(engine)
