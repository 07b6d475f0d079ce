"""The change lists an open archive keeps in memory for repeated pattern searches (archive/patterns/search.py
`KeptLines`): kept from the second search on, the same answers as a search from the database, given up when the
archive changes or when they pass the cap, not used with other filters; and the collector held off only while a
search runs."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from boardrecords.archive.front import Archive
from boardrecords.common.settings import DEFAULTS, SettingError, Settings, pattern_memory

from ..shared import import_games, run

GAMES = {
    "g1.rec": "(;GM[1]SZ[5]PB[Ann]PW[Bo]RE[B+R];B[aa];W[ba];B[ca];W[ee];B[bb])",
    "g2.rec": "(;GM[1]SZ[5]PB[Cy]PW[Di]RE[W+R];B[ea];W[da];B[ca];W[ae];B[db])",
    "g3.rec": "(;GM[1]SZ[5]PB[Ann]PW[Di]RE[B+R];B[cc];W[aa];B[ee])",
    "g4.rec": "(;GM[1]SZ[5]PB[Eve]PW[Bo]RE[W+R];B[aa];W[bb])",
}
MORE = {"g5.rec": "(;GM[1]SZ[5]PB[Eve]PW[Fay]RE[B+R];B[aa];W[ee];B[dd])"}


def _answer(archive: Archive, **kw: object) -> tuple[object, ...]:
    a = archive.pattern_search("X./..", anchor="corner", size=5, limit=None, **kw)  # type: ignore[arg-type]
    r = a.result
    conts = [(c.colour, c.local, c.hits, c.games, c.black_wins, c.white_wins, c.tenuki) for c in r.continuations]
    nxt = [(c.colour, c.local, c.hits, c.games, c.black_wins, c.white_wins) for c in r.next_moves]
    return ([(h.game_id, h.winner, h.at) for h in r.hits], conts, nxt, r.considered)


def test_kept_from_the_second_search_and_the_same_answers(tmp_path: Path, db_url: str) -> None:
    import_games(tmp_path, db_url, GAMES)
    with Archive(db_url, settings=Settings(pattern_memory=0)) as plain:
        expected = _answer(plain)
        assert not plain.kept_lines._kept  # a cap of 0 keeps nothing
    with Archive(db_url) as archive:
        first = _answer(archive)
        assert not archive.kept_lines._kept  # one search alone reads only what it needs
        second = _answer(archive)
        assert archive.kept_lines._kept  # the second keeps them
        third = _answer(archive)  # from memory
        assert expected == first == second == third
        assert expected[0]  # the pattern is there: the comparison says something


def test_a_change_of_the_archive_is_seen(tmp_path: Path, db_url: str) -> None:
    import_games(tmp_path, db_url, GAMES)
    with Archive(db_url) as archive:
        _answer(archive), _answer(archive)
        before = _answer(archive)
        assert run("import", import_games_folder(tmp_path, MORE), "--db", db_url, "-q").exit_code == 0
        after = _answer(archive)  # another writer's import moved the marker: the kept lines are not used
        assert len(after[0]) == len(before[0]) + 1  # type: ignore[arg-type]
        _answer(archive)
        assert _answer(archive) == after


def import_games_folder(tmp_path: Path, games: dict[str, str]) -> Path:
    folder = tmp_path / "more"
    folder.mkdir()
    for name, text in games.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_over_the_cap_nothing_is_kept(tmp_path: Path, sqlite_db: str) -> None:
    import_games(tmp_path, sqlite_db, GAMES)
    with Archive(sqlite_db, settings=Settings(pattern_memory=10)) as archive:
        answers = [_answer(archive) for _ in range(3)]
        assert answers[0] == answers[1] == answers[2]
        kept = archive.kept_lines._kept
        assert kept and all(rows is None for _, rows, _ in kept.values())  # marked too large, read from the database


def test_other_filters_search_the_database(tmp_path: Path, sqlite_db: str) -> None:
    import_games(tmp_path, sqlite_db, GAMES)
    with Archive(sqlite_db) as archive:
        for _ in range(3):
            only_ann = _answer(archive, player="Ann")
        assert not archive.kept_lines._kept
        assert {gid for gid, _, _ in only_ann[0]} and len(only_ann[0]) < len(_answer(archive)[0])  # type: ignore[arg-type]


def test_the_collector_is_on_again_after_a_search(tmp_path: Path, sqlite_db: str) -> None:
    import_games(tmp_path, sqlite_db, GAMES)
    seen: list[bool] = []
    with Archive(sqlite_db) as archive:
        from boardrecords.archive.patterns import search

        real = search._kept_found

        def watched(*args: object, **kw: object) -> object:
            seen.append(gc.isenabled())
            return real(*args, **kw)  # type: ignore[arg-type]

        search._kept_found = watched  # type: ignore[assignment]
        try:
            for _ in range(3):
                _answer(archive)
        finally:
            search._kept_found = real
        assert gc.isenabled()
        assert seen == [False, False]  # the second and third searches, from memory, with the collector off
        gc.disable()
        try:
            _answer(archive)
            assert not gc.isenabled()  # off before the search: left off
        finally:
            gc.enable()

        def broken(*args: object, **kw: object) -> object:
            raise RuntimeError("the scan failed")

        search._kept_found = broken  # type: ignore[assignment]
        try:
            with pytest.raises(RuntimeError, match="the scan failed"):
                _answer(archive)
        finally:
            search._kept_found = real
        assert gc.isenabled()  # on again after a search that failed


def test_the_setting() -> None:
    assert DEFAULTS.pattern_memory == 256 * 1024 * 1024
    assert pattern_memory("64M") == 64 * 1024 * 1024 and pattern_memory("0") == 0 and pattern_memory(" ") > 0
    assert Settings.from_environment({"RECORDS_PATTERN_MEMORY": "1G"}).pattern_memory == 1024 ** 3
    with pytest.raises(SettingError, match="RECORDS_PATTERN_MEMORY"):
        pattern_memory("lots")
