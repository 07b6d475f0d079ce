"""`records fix` and `records delete` keep the archive consistent (rows, problems, history, search), both databases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlmodel import Session, func, select
from typer.testing import CliRunner

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.core.models import GameRow, GameVersionRow, ProblemRow
from boardrecords.cli.main import app

from ..shared import ROOT

runner = CliRunner()
RECORD = ROOT / "examples" / "go" / "capture-and-resignation.rec"


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _json(*args: object):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def archive(db_url: str, tmp_path: Path) -> str:
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(RECORD, folder / RECORD.name)
    shutil.copy(ROOT / "examples" / "go" / "handicap.rec", folder / "handicap.rec")
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    return db_url


def _consistent(db: str) -> None:
    """Every row's problem_count is its number of problem rows; every version belongs to a row."""
    engine = make_engine(db)
    with Session(engine) as session:
        for row in session.exec(select(GameRow)):
            n = session.exec(select(func.count()).select_from(ProblemRow).where(ProblemRow.game_id == row.id)).one()
            assert n == row.problem_count
        ids = set(session.exec(select(GameRow.id)))
        for version in session.exec(select(GameVersionRow)):
            assert version.game_id in ids
    engine.dispose()


def _id_of(db: str) -> int:
    return _json("search", "--db", db, "--player", "Carla Nunes", "--json")[0]["id"]


def test_fix_a_name_and_a_round_keeps_the_original_and_the_indexes(archive):
    record_id = _id_of(archive)
    before = _json("show", record_id, "--db", archive, "--json")
    fixed = _json("fix", record_id, "--db", archive, "--set", "PB=Karla Nunes", "--set", "RO=Round 2", "--json")
    assert fixed["black"] == "Karla Nunes" and fixed["round"] == "Round 2" and fixed["verdict"] == "pass"
    assert run("search", "--db", archive, "--player", "carla nunes").exit_code == 1
    assert [r["id"] for r in _json("search", "--db", archive, "--black", "karla-nunes", "--json")] == [record_id]
    assert [r["id"] for r in _json("search", "--db", archive, "--text", "karla", "--json")] == [record_id]
    # The position index (the opening) is the same record's.
    assert [r["id"] for r in _json("search", "--db", archive, "--opening", "bb,ab,ac", "--json")] == [record_id]
    shown = _json("show", record_id, "--db", archive, "--history", "--json")
    assert shown["history"][0]["version"] == 1 and shown["history"][0]["sha256"] == before["sha256"]
    assert shown["history"][0]["raw"].encode() == RECORD.read_bytes().strip()
    assert shown["history"][0]["replaced_by"] == "PB=Karla Nunes; RO=Round 2"
    exported = run("export", record_id, "--db", archive).stdout
    assert "PB[Karla Nunes]" in exported and "RO[Round 2]" in exported
    _consistent(archive)
    # Undo brings the original bytes back, and is itself in the history.
    assert _json("fix", record_id, "--db", archive, "--undo", "--json")["sha256"] == before["sha256"]
    assert [r["id"] for r in _json("search", "--db", archive, "--player", "carla nunes", "--json")] == [record_id]
    assert len(_json("show", record_id, "--db", archive, "--history", "--json")["history"]) == 2
    _consistent(archive)


def test_fix_a_result_verifies_again(archive):
    record_id = _id_of(archive)
    wrong = _json("fix", record_id, "--db", archive, "--set", "RE=W+R", "--json")
    assert wrong["verdict"] == "wrong-result" and wrong["result_status"] == "disagrees"
    shown = _json("show", record_id, "--db", archive, "--json")
    assert shown["verdict"] == "wrong-result" and shown["result"]["declared"] == "W+R"
    _consistent(archive)
    right = _json("fix", record_id, "--db", archive, "--set", "RE=B+R", "--json")
    assert right["verdict"] == "pass" and right["result_status"] == "agrees"
    _consistent(archive)


def test_fix_refuses_moves_bad_settings_and_missing_records(archive):
    record_id = _id_of(archive)
    assert run("fix", record_id, "--db", archive, "--set", "B=cc").exit_code == 2
    assert run("fix", record_id, "--db", archive, "--set", "nonsense").exit_code == 2
    assert run("fix", record_id, "--db", archive).exit_code == 2
    assert run("fix", 999, "--db", archive, "--set", "RO=1").exit_code == 1
    assert run("fix", record_id, "--db", archive, "--undo").exit_code == 2  # never fixed


def test_delete_takes_the_history_along(archive):
    record_id = _id_of(archive)
    _json("fix", record_id, "--db", archive, "--set", "RO=7", "--json")
    assert _json("delete", record_id, "--db", archive, "--yes", "--json") == {"deleted": [record_id]}
    _consistent(archive)
    assert run("show", record_id, "--db", archive).exit_code == 1
    engine = make_engine(archive)
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(GameVersionRow)).one() == 0
    engine.dispose()
