"""A player, event or round of any length is stored whole and found (archive/core/models.py LONG_TEXT_COLUMNS):
PostgreSQL's B-tree cannot index a value past about 2,700 bytes, so there the columns of free text have hash
indexes; an archive made with B-trees is changed by the first writer that opens it."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from boardrecords.archive.front import Archive
from boardrecords.common.errors import InputError

from ..shared import write_folder

LONG = "Ünïcödé Player " + "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(3000))  # ~9,000 bytes
EVENT = "Cup " + "ё" * 4000
GAME = f"(;GM[1]SZ[9]PB[{LONG}]PW[Short]EV[{EVENT}]RO[{'7' * 5000}]RE[B+R];B[cc];W[resign])"
OTHER = f"(;GM[1]SZ[9]PB[Short]PW[{LONG}]EV[{EVENT}]RE[W+R];B[dd];W[cc];B[resign])"


def _check_found(archive: Archive) -> None:
    assert archive.search(player=LONG[:30] + "*", limit=0).total == 2
    stored = archive.search(black=LONG[:30] + "*").games[0]
    assert stored.black == LONG and stored.event == EVENT  # whole, nothing cut
    assert {p["player"] for p in archive.players().to_json()} >= {LONG, "Short"}
    assert archive.crosstable(EVENT).to_json()["event"] == EVENT


def test_a_name_of_thousands_of_bytes_is_stored_whole_and_found(db_url, tmp_path):
    folder = write_folder(tmp_path, "long", {"a.sgf": GAME, "b.sgf": OTHER})
    with Archive(db_url, create=True) as archive:
        summary = archive.import_paths([folder], workers=1)
        assert summary.new == 2 and not summary.errors
        _check_found(archive)
        record_id = archive.search(black=LONG[:30] + "*").games[0].id or 0
        fixed = archive.fix(record_id, {"PB": LONG + " II"}, version=1)
        assert fixed.black == LONG + " II"
        with pytest.raises(InputError, match="at most 400 characters"):
            archive.alias("Short", LONG)
        assert archive.delete(ids=[record_id]) == [record_id]


@pytest.mark.postgres
def test_an_archive_with_b_trees_is_changed_by_its_first_writer(db_url, tmp_path):
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's B-tree limit")
    with Archive(db_url, create=True):
        pass
    engine = create_engine(db_url)
    with engine.begin() as conn:  # the layout before: B-trees, and a unique constraint on the names
        for column in ("black_norm", "white_norm", "event_norm", "round"):
            conn.execute(text(f"DROP INDEX ix_game_{column}"))
            conn.execute(text(f"CREATE INDEX ix_game_{column} ON game ({column})"))
        conn.execute(text("DROP INDEX uq_player_name_md5"))
        conn.execute(text("DROP INDEX ix_player_name_name"))
        conn.execute(text("ALTER TABLE player_name ADD CONSTRAINT player_name_name_key UNIQUE (name)"))
    folder = write_folder(tmp_path, "long", {"a.sgf": GAME, "b.sgf": OTHER})
    with Archive(db_url, write=True) as archive:
        assert archive.import_paths([folder], workers=1).new == 2
        _check_found(archive)
    with engine.connect() as conn:
        kinds = dict(conn.execute(text("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'game'")).all())
    engine.dispose()
    assert all("USING hash" in kinds[f"ix_game_{c}"] for c in ("black_norm", "white_norm", "event_norm", "round"))
