"""How the position index is stored (SQLite and PostgreSQL): no index by game, so a deleted record's rows are found
again by their keys (from its stored bytes replayed) or by one read of the index, and the counts stay exact either
way; a reindex's staged rows stand for the games' indexed rows until its merge; an import, a reindex and a delete
leave at most a tenth of a SQLite file free; and an archive of the older layout (a foreign key to `game` and an
index on (game_id, ply)) answers read-only and is migrated when a command that writes opens it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, inspect, text

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.positions import stage
from boardrecords.archive.positions.stage import has_pending, merge_pending
from boardrecords.archive.store import record_rows as analysis
from boardrecords.archive.store.reindex import reindex

from ..shared import exact_counts, import_games, run
from .test_positions_archive import CONVERSION
from .test_positions_archive import GAMES as ARCHIVE_GAMES

# Every test here runs with the counts kept in each way (tests/conftest.py `counting`).
pytestmark = pytest.mark.usefixtures("counting")

# Quentin and Go (those of test_positions_archive.py), and Conversion Go: one opening played twice (c2 in another
# order), one once.
GAMES = {**ARCHIVE_GAMES, **{name: CONVERSION[name] for name in ("c1.rec", "c2.rec", "c4.rec")}}
ROWS = {name: body.count(";") for name, body in GAMES.items()}  # every move legal: the start and one a move


def _count(engine: Engine, sql: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar() or 0)


def _id(engine: Engine, name: str) -> int:
    return _count(engine, f"SELECT id FROM game WHERE source_file LIKE '%{name}'")


def _answers(db: str) -> dict[str, Any]:
    """What the questions of the index answer about the archive: the explorer at the starts of Quentin and Go, the
    opening table of Conversion Go, the games that reached a position."""
    out: dict[str, Any] = {}
    for name, args in {"quentin": ["explore", "--game", "quentin", "--size", "5"],
                       "go": ["explore", "c6", "--game", "go", "--size", "9"],
                       "openings": ["explore", "--game", "conversion-go", "--size", "9"],
                       "search": ["search", "--after", "C6,E4", "--size", "9"]}.items():
        r = run(*args, "--db", db, "--json")
        assert r.exit_code in (0, 1), r.output  # 1: nothing found
        out[name] = json.loads(r.stdout) if r.exit_code == 0 else None
    return out


def _held(engine: Engine) -> dict[int, int]:
    """`position_game` (game: rows), checked against the index's own rows."""
    with engine.connect() as conn:
        held = {int(g): int(n) for g, n in conn.execute(text("SELECT game_id, rows FROM position_game"))}
        rows = {int(g): int(n) for g, n in conn.execute(text("SELECT game_id, count(*) FROM position GROUP BY 1"))}
    assert held == rows
    return held


def _exact(engine: Engine) -> None:
    exact_counts(engine)
    _held(engine)


@pytest.mark.parametrize("way", ["replayed", "read-whole", "keys-changed"])
def test_a_delete_finds_the_games_rows_again(tmp_path: Path, db_url: str, engine: Engine,
                                            monkeypatch: pytest.MonkeyPatch, way: str) -> None:
    import_games(tmp_path, db_url, GAMES)
    before = _answers(db_url)
    assert before["openings"]["games"] == 3
    replayed: list[int] = []
    keys_of = analysis.index_keys

    def spied(record: Any) -> Any:
        keys = keys_of(record)
        replayed.append(len(keys))
        return keys[1:] if way == "keys-changed" else keys  # a newer verifier would give other keys

    monkeypatch.setattr(analysis, "index_keys", spied)
    monkeypatch.setattr(stage, "REPLAY_SHARE", 10**9 if way == "read-whole" else 1)
    gone = [_id(engine, "q2.rec"), _id(engine, "c2.rec")]
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(" ".join(statement.split()))

    event.listen(Engine, "before_cursor_execute", seen)
    try:
        r = run("delete", *gone, "--yes", "--db", db_url)
    finally:
        event.remove(Engine, "before_cursor_execute", seen)
    assert r.exit_code == 0, r.output
    # Found by key, or by one read of the index (for both games at once).
    read_whole = [s for s in statements if s.startswith("DELETE FROM position WHERE game_id IN")]
    by_key = [s for s in statements if s.startswith("DELETE FROM position WHERE game_id =")]
    assert (len(by_key), len(read_whole)) == {"replayed": (2, 0), "read-whole": (0, 1), "keys-changed": (2, 1)}[way]
    assert sorted(replayed) == ([] if way == "read-whole" else sorted([ROWS["q2.rec"], ROWS["c2.rec"]]))
    assert _count(engine, "SELECT count(*) FROM position") == sum(ROWS.values()) - ROWS["q2.rec"] - ROWS["c2.rec"]
    assert set(_held(engine)).isdisjoint(gone)
    exact_counts(engine)
    after = _answers(db_url)
    assert after["quentin"]["games"] == 2 and after["openings"]["games"] == 2
    assert [o["games"] for o in after["openings"]["openings"]] == [1, 1]
    # Imported again, the records come back, and every answer with them.
    assert run("import", tmp_path / "games", "--db", db_url, "-q").exit_code == 0
    _exact(engine)
    again = _answers(db_url)
    assert again["quentin"] == before["quentin"] and again["openings"] == before["openings"]


def test_a_fix_keeps_the_index_exact(tmp_path: Path, db_url: str, engine: Engine) -> None:
    import_games(tmp_path, db_url, GAMES)
    before = _answers(db_url)
    record = _id(engine, "q1.rec")
    assert run("fix", record, "--set", "RO=3", "--db", db_url).exit_code == 0
    assert run("fix", record, "--undo", "--db", db_url).exit_code == 0
    _exact(engine)
    assert _answers(db_url) == before
    r = run("delete", record, "--yes", "--db", db_url)  # a fixed record is found again by its keys too
    assert r.exit_code == 0, r.output
    _exact(engine)
    assert _answers(db_url)["quentin"]["games"] == 2


def test_a_reindex_counts_every_game_once_until_its_merge(tmp_path: Path, db_url: str, engine: Engine,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import_games(tmp_path, db_url, GAMES)
    before = _answers(db_url)
    with monkeypatch.context() as m:  # stopped after its last batch, before its merge
        m.setattr("boardrecords.archive.store.reindex.merge_pending", lambda engine: 0)
        assert reindex(engine)[:2] == (len(GAMES), sum(ROWS.values()))
    assert has_pending(engine)
    assert _count(engine, "SELECT count(*) FROM position_stage") == sum(ROWS.values())
    assert _count(engine, "SELECT count(*) FROM position") == sum(ROWS.values())  # kept until the merge
    assert _answers(db_url) == before  # each game once: its staged rows stand for its indexed rows
    # A game deleted meanwhile goes from both.
    assert run("delete", _id(engine, "g2.rec"), "--yes", "--db", db_url).exit_code == 0
    assert _answers(db_url)["go"]["games"] == 1
    assert merge_pending(engine) == sum(ROWS.values()) - ROWS["g2.rec"]
    assert _count(engine, "SELECT count(*) FROM position") == sum(ROWS.values()) - ROWS["g2.rec"]
    _exact(engine)
    assert _answers(db_url)["quentin"] == before["quentin"]


def test_a_reindex_stopped_early_is_replaced_by_the_next_merge(tmp_path: Path, db_url: str, engine: Engine,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import_games(tmp_path, db_url, GAMES)
    before = _answers(db_url)

    class Stop(Exception):
        pass

    def stop(done: int) -> None:
        raise Stop

    with monkeypatch.context() as m, pytest.raises(Stop):
        m.setattr("boardrecords.archive.store.reindex.merge_pending", lambda engine: 0)
        reindex(engine, batch=3, on_batch=stop)  # the first three games staged again, then stopped
    assert _count(engine, "SELECT count(DISTINCT game_id) FROM position_stage") == 3
    assert _answers(db_url) == before
    assert merge_pending(engine) > 0  # not the whole index: the three games' indexed rows replaced
    assert _count(engine, "SELECT count(*) FROM position") == sum(ROWS.values())
    _exact(engine)
    assert _answers(db_url) == before


def _free(engine: Engine) -> float:
    """The share of the SQLite file's pages that are free."""
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        free = int(conn.exec_driver_sql("PRAGMA freelist_count").scalar() or 0)
        pages = int(conn.exec_driver_sql("PRAGMA page_count").scalar() or 1)
    return free / pages


def test_an_import_leaves_at_most_a_tenth_of_the_file_free(corpus_sample: Any, sqlite_db: str) -> None:
    folder = corpus_sample(60)
    assert run("import", folder, "--db", sqlite_db, "-q").exit_code == 0
    engine = make_engine(sqlite_db)
    try:
        # The stage held every position row (a third of the file) until the merge emptied it.
        assert _count(engine, "SELECT count(*) FROM position") > 10_000
        assert _free(engine) <= 0.10
        assert run("reindex", "--db", sqlite_db, "-q").exit_code == 0
        assert _free(engine) <= 0.10
        r = run("delete", "--from", "1000-01-01", "--to", "9999-12-31", "--yes", "--db", sqlite_db)
        assert r.exit_code == 0, r.output
        assert _free(engine) <= 0.10
        _exact(engine)
    finally:
        engine.dispose()


# The layout before `position_game`, as the archive's older version made it.
_OLD_SQLITE = (
    "DROP TRIGGER IF EXISTS position_game_delete",
    "DROP TABLE position_game",
    'CREATE TABLE position_old ("key" BIGINT NOT NULL, game_id INTEGER NOT NULL, ply SMALLINT NOT NULL, '
    'next VARCHAR, outcome SMALLINT NOT NULL, day INTEGER, PRIMARY KEY ("key", game_id, ply), '
    "FOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE) WITHOUT ROWID",
    "INSERT INTO position_old SELECT * FROM position",
    "DROP TABLE position",
    "ALTER TABLE position_old RENAME TO position",
    "CREATE INDEX ix_position_game_ply ON position (game_id, ply)",
)
_OLD_PG = (
    "DROP TRIGGER IF EXISTS position_game_delete ON game",
    "DROP TABLE position_game",
    "ALTER TABLE position ADD CONSTRAINT position_game_id_fkey FOREIGN KEY (game_id) REFERENCES game (id) "
    "ON DELETE CASCADE",
    "CREATE INDEX ix_position_game_ply ON position (game_id, ply)",
)


def _make_old(engine: Engine) -> None:
    from boardrecords.archive.positions.counts import create_count_trigger

    with engine.begin() as conn:
        for statement in _OLD_SQLITE if engine.dialect.name == "sqlite" else _OLD_PG:
            conn.exec_driver_sql(statement)
        create_count_trigger(conn)
    if engine.dialect.name == "sqlite":
        raw = engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("PRAGMA auto_vacuum = NONE")
            cursor.execute("VACUUM")
            cursor.close()
        finally:
            raw.close()


def test_an_archive_of_the_older_layout_answers_then_migrates(tmp_path: Path, db_url: str, engine: Engine) -> None:
    folder = import_games(tmp_path, db_url, GAMES)
    before = _answers(db_url)
    counts = exact_counts(engine)
    _make_old(engine)
    engine.dispose()
    insp = inspect(engine)
    assert [i["name"] for i in insp.get_indexes("position")] == ["ix_position_game_ply"]
    assert insp.get_foreign_keys("position") and not insp.has_table("position_game")
    # Read-only commands answer from the older layout as they did.
    assert _answers(db_url) == before
    # The first command that writes migrates it: the games counted into position_game, the index and the foreign
    # key gone, the counts untouched, and on SQLite the file switched to give its free pages back.
    r = run("delete", _id(engine, "q3.rec"), "--yes", "--db", db_url)
    assert r.exit_code == 0, r.output
    engine.dispose()
    insp = inspect(engine)
    assert insp.get_indexes("position") == [] and insp.get_foreign_keys("position") == []
    assert sum(_held(engine).values()) == sum(ROWS.values()) - ROWS["q3.rec"]
    assert exact_counts(engine) != counts or not counts
    after = _answers(db_url)
    assert after["quentin"]["games"] == 2 and after["openings"] == before["openings"]
    if engine.dialect.name == "sqlite":
        assert _count(engine, "PRAGMA auto_vacuum") == 1
        assert _free(engine) <= 0.10
    # Imported again into the migrated archive: as before.
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    _exact(engine)
    assert _answers(db_url) == before


def test_an_older_archive_with_pending_rows_migrates_and_merges(tmp_path: Path, db_url: str, engine: Engine,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from boardrecords.archive.store import importer

    first = {k: v for k, v in GAMES.items() if k.startswith("q")}
    import_games(tmp_path, db_url, first)
    _make_old(engine)
    engine.dispose()
    rest = tmp_path / "rest"
    rest.mkdir()
    for name, body in GAMES.items():
        if name not in first:
            (rest / name).write_text(body)
    with monkeypatch.context() as m:  # an import of the older version, stopped before its merge
        m.setattr(importer, "merge_pending", lambda engine: 0)
        m.setattr("boardrecords.archive.store.access.upgrade_schema", lambda engine: None)
        m.setattr("boardrecords.archive.positions.stage.prepare_positions", lambda engine: None)
        assert run("import", rest, "--db", db_url, "-q").exit_code == 0
    assert has_pending(engine)
    assert _answers(db_url)["go"]["games"] == 2  # read from the stage beside the older index
    assert run("reindex", "--db", db_url, "-q").exit_code == 0
    engine.dispose()
    assert not has_pending(engine)
    assert sum(_held(engine).values()) == sum(ROWS.values())
    _exact(engine)
