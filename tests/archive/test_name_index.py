"""The player names' index (archive/core/db.py, `player_name`): a wildcard answered through it finds exactly what
reading every game finds, and the index is kept right by import, fix, alias and delete, on SQLite and PostgreSQL;
an archive made before it still answers, and gets it when a command that writes opens it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from boardrecords import Archive
from boardrecords.archive.core import search as search_module
from boardrecords.archive.core.db import NAME_COLUMNS

NAMES = ["Lee Sedol", "Lee Changho", "Go Seigen", "Cho Chikun", "Kim_Jiseok", "50% Bot", "O Meien", "lee"]


def _write(folder: Path) -> None:
    folder.mkdir()
    for i, (b, w) in enumerate(zip(NAMES, NAMES[1:] + NAMES[:1], strict=True)):
        result = "B+R" if i % 2 else "W+R"
        (folder / f"g{i}.sgf").write_text(f"(;GM[1]FF[4]SZ[19]PB[{b}]PW[{w}]RE[{result}];B[pd];W[dp])",
                                          encoding="utf-8")


@pytest.fixture
def names_db(db_url: str, tmp_path: Path) -> str:
    _write(tmp_path / "files")
    with Archive(db_url, create=True) as archive:
        archive.import_paths([tmp_path / "files"], workers=1)
    return db_url


def _stored(archive: Archive) -> set[str]:
    with archive.engine.connect() as conn:
        return {n for (n,) in conn.execute(text("SELECT name FROM player_name"))}


def _held(archive: Archive) -> set[str]:
    with archive.engine.connect() as conn:
        return {n for c in NAME_COLUMNS for (n,) in conn.execute(text(f"SELECT {c} FROM game WHERE {c} IS NOT NULL"))}


def _ids(archive: Archive, **criteria: str) -> list[int]:
    return [r.id for r in archive.search(limit=0, **criteria).games if r.id is not None]


def _by_reading(archive: Archive, **criteria: str) -> list[int]:
    """The same search with the index ignored: every game read."""
    engine = archive.engine
    search_module._NAME_INDEX[engine] = False
    try:
        return _ids(archive, **criteria)
    finally:
        search_module._NAME_INDEX.pop(engine, None)


WILDCARDS = ["lee*", "*lee*", "*sedol", "l*e*", "*o*", "*", "kim_*", "kim*jiseok", "50%*", "*chang*", "go s*", "x*"]


def test_wildcards_through_the_index_find_what_reading_finds(names_db: str) -> None:
    with Archive(names_db) as archive:
        assert search_module.has_name_index(archive.engine)
        assert _stored(archive) == _held(archive)
        for pattern in WILDCARDS:
            for field in ("player", "black", "white", "winner"):
                assert _ids(archive, **{field: pattern}) == _by_reading(archive, **{field: pattern}), (field, pattern)
        assert len(_ids(archive, player="lee*")) == 4  # Lee Sedol, Lee Changho and lee, each in two games
        assert _ids(archive, player="kim_*") == _ids(archive, player="kim_jiseok")
        assert _ids(archive, player="kimx*") == []  # `_` is no wildcard


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet="leosanchgi*_% ", min_size=1, max_size=8).filter(lambda s: "*" in s and s.strip()))
def test_any_wildcard_matches_as_reading(names_db: str, pattern: str) -> None:
    with Archive(names_db) as archive:
        assert _ids(archive, player=pattern) == _by_reading(archive, player=pattern)


def test_the_index_follows_fix_alias_and_delete(names_db: str) -> None:
    with Archive(names_db, write=True) as archive:
        first = archive.search(player="go seigen", limit=1).games[0].id
        assert first is not None
        archive.fix(first, {"PB": "Wu Qingyuan"})
        assert "wu qingyuan" in _stored(archive)
        assert _stored(archive) == _held(archive)
        assert _ids(archive, player="wu*") == [first]
        archive.alias("Go Seigen", "Wu Qingyuan")  # an alias changes no stored name: the wildcard is the same
        assert _ids(archive, player="wu*") == [first]
        assert _stored(archive) == _held(archive)
        archive.delete(player="cho chikun")
        assert "cho chikun" not in _stored(archive)
        assert _stored(archive) == _held(archive)
        assert _ids(archive, player="cho*") == []


def test_an_older_archive_answers_and_gets_the_index_when_written(names_db: str) -> None:
    with Archive(names_db, write=True) as archive, archive.engine.begin() as conn:
        if archive.engine.dialect.name == "sqlite":
            for trigger in ("game_names_insert", "game_names_update", "game_names_delete"):
                conn.execute(text(f"DROP TRIGGER {trigger}"))
            conn.execute(text("DROP TABLE player_name_text"))
        else:
            conn.execute(text("DROP TRIGGER game_names ON game"))
        conn.execute(text("DROP TABLE player_name"))
    with Archive(names_db) as old:  # read-only: no index, every game read
        assert not search_module.has_name_index(old.engine)
        assert len(_ids(old, player="lee*")) == 4
    with Archive(names_db, write=True) as upgraded:
        assert _stored(upgraded) == _held(upgraded)
    with Archive(names_db) as archive:
        assert search_module.has_name_index(archive.engine)
        assert len(_ids(archive, player="lee*")) == 4
