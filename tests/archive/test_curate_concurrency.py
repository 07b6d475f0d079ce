"""Commands that change one archive at once, as real processes started together (SQLite and PostgreSQL): two fixes
of one record both apply (neither change is lost, both versions are in the history); a fix racing a delete either
lands before the delete or says the record was deleted, in one line; two imports creating one new archive both
succeed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from ..conftest import _clean_pg
from ..shared import import_games

pytestmark = pytest.mark.slow

ROUNDS = 20
GAMES = {f"g{i}.rec": f"(;GM[1]SZ[9]PB[P{i}]PW[Q{i}]RE[B+R];B[cc];W[{'defg'[i % 4]}e];B[resign])" for i in range(10)}


def _start(*args: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "boardrecords.cli.main", *(str(a) for a in args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _together(*commands: tuple[object, ...]) -> list[tuple[int, str]]:
    """The commands started at once; each one's exit status and standard error."""
    procs = [_start(*c) for c in commands]
    return [(p.returncode, err.decode(errors="replace")) for p in procs for _, err in [p.communicate(timeout=300)]]


def _query(db: str, sql: str, **params: object) -> list[tuple[object, ...]]:
    engine = create_engine(db if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql), params)]
    finally:
        engine.dispose()


def test_two_fixes_of_one_record_at_once_both_apply(tmp_path: Path, db_url: str) -> None:
    import_games(tmp_path, db_url, GAMES)
    gid = 1
    for n in range(ROUNDS):
        results = _together(("fix", gid, "--db", db_url, "--set", f"PC=Place {n}"),
                            ("fix", gid, "--db", db_url, "--set", f"GN=Game {n}"))
        for code, err in results:
            assert code == 0, err
        [(raw,)] = _query(db_url, "SELECT raw FROM game WHERE id = :i", i=gid)
        text_of = bytes(raw).decode()
        assert f"PC[Place {n}]" in text_of and f"GN[Game {n}]" in text_of, (n, text_of)  # neither change lost
        [(versions,)] = _query(db_url, "SELECT count(*) FROM game_version WHERE game_id = :i", i=gid)
        assert versions == 2 * (n + 1)


def test_a_fix_racing_a_delete_lands_first_or_says_the_record_is_gone(tmp_path: Path, db_url: str) -> None:
    import_games(tmp_path, db_url, GAMES)
    ids = [int(i) for (i,) in _query(db_url, "SELECT id FROM game ORDER BY id")]
    for gid in ids:
        (fix_code, fix_err), (delete_code, delete_err) = _together(
            ("fix", gid, "--db", db_url, "--set", "PC=Here"), ("delete", gid, "--db", db_url, "--yes"))
        assert delete_code == 0, delete_err
        assert "No row was found" not in fix_err and "Traceback" not in fix_err
        if fix_code:  # the delete went first: one line saying so
            assert fix_code == 1, fix_err
            assert fix_err.strip() in (f"error: record {gid} was deleted before the fix could be stored",
                                       f"error: no record {gid} in the archive"), fix_err
        assert _query(db_url, "SELECT id FROM game WHERE id = :i", i=gid) == []
        assert _query(db_url, "SELECT game_id FROM game_version WHERE game_id = :i", i=gid) == []
        assert _query(db_url, "SELECT count(*) FROM position_game WHERE game_id = :i", i=gid) == [(0,)]


def test_two_imports_creating_one_new_archive_both_succeed(tmp_path: Path, db_url: str) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for name, body in GAMES.items():
        (folder / name).write_text(body)
    for n in range(ROUNDS // 2):
        db = str(tmp_path / f"new{n}.db") if "://" not in db_url else db_url
        if "://" in db_url:
            _clean_pg(db_url)
        results = _together(*(("import", folder, "--db", db, "-q", "--json") for _ in range(2)))
        for code, err in results:
            assert code == 0, err
        assert _query(db, "SELECT count(*) FROM game") == [(len(GAMES),)]
