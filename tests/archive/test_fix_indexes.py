"""`records fix` and `fix --undo` keep the position index and the pattern index exact (SQLite and PostgreSQL): right
after the fix, the explorer, `search --after` and `search --pattern` give what they give once `records reindex`
has rebuilt both indexes from the stored records; and a fix that changes nothing says so and stores no version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, text

from ..shared import exact_counts, import_games, run

GAMES = {
    "g1.rec": "(;GM[1]SZ[9]PB[Eve]PW[Fay]DT[2022-01-01]RE[B+R];B[bb];W[ef];B[dg];W[gc];B[cc];W[resign])",
    "g2.rec": "(;GM[1]SZ[9]PB[Gus]PW[Eve]DT[2022-02-02]RE[W+R];B[bb];W[de];B[cd];W[gg];B[resign])",
    "g3.rec": "(;GM[1]SZ[9]PB[Ann]PW[Bo]DT[2023-03-03]RE[B+R];B[ee];W[bb];B[cc];W[resign])",
}
# What the fixes change of what the indexes hold: the result (every position's outcome), the date (the day
# the explorer reports), and the side to move first (ING-8: White moves first, so Black's first move is illegal
# and the replay, its positions and its change list end there).
FIXES = [("g1.rec", ["RE=W+R", "DT=2021-05-05"]), ("g2.rec", ["PL=W"])]


def _json(*args: object) -> Any:
    r = run(*args)
    assert r.exit_code in (0, 1), r.output  # 1: nothing found
    return json.loads(r.stdout)


def _answers(db: str) -> dict[str, Any]:
    """What the position index and the pattern index answer (and the stored records, their signatures with them)."""
    size = ("--size", "9", "--db", db, "--json")
    return {
        "start": _json("explore", *size),
        "after bb": _json("explore", "bb", *size),
        "after bb de": _json("explore", "bb", "de", *size),
        "search after": sorted(r["sha256"] for r in _json("search", "--after", "bb", *size)),
        "search after ee": sorted(r["sha256"] for r in _json("search", "--after", "ee", *size)),
        "pattern": _json("search", "--pattern", "X.", *size),
        "pattern two": _json("search", "--pattern", "XO", "--anchor", "anywhere", *size),
        # Each record as stored; its `version` counts the fixes and undos it went through, which a reindex does not
        # repeat: left out.
        "records": [{k: v for k, v in _json("show", r["id"], "--db", db, "--json").items() if k != "version"}
                    for r in _json("search", *size)],
    }


def _id(engine: Engine, name: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT id FROM game WHERE source_file LIKE :f"), {"f": f"%{name}"}).scalar_one())


def _reindexed(db: str) -> dict[str, Any]:
    assert run("reindex", "--db", db, "-q").exit_code == 0
    return _answers(db)


@pytest.mark.usefixtures("counting")
def test_fix_and_undo_give_what_a_reindex_gives(tmp_path: Path, db_url: str, engine: Engine) -> None:
    import_games(tmp_path, db_url, GAMES)
    imported = _answers(db_url)
    for name, settings in FIXES:
        args = [a for s in settings for a in ("--set", s)]
        assert run("fix", _id(engine, name), "--db", db_url, *args).exit_code == 0
    fixed = _answers(db_url)
    assert fixed != imported  # the fixes reach what the indexes answer ...
    exact_counts(engine)
    assert _reindexed(db_url) == fixed  # ... exactly as a rebuild from the stored records gives it
    for name, _ in FIXES:
        assert run("fix", _id(engine, name), "--db", db_url, "--undo").exit_code == 0
    undone = _answers(db_url)
    exact_counts(engine)
    assert undone == imported
    assert _reindexed(db_url) == undone


def test_a_fix_that_changes_nothing_stores_no_version(tmp_path: Path, db_url: str, engine: Engine) -> None:
    import_games(tmp_path, db_url, GAMES)
    gid = _id(engine, "g1.rec")
    for settings in (["PB=Eve"], ["RE=B+R", "PB=Eve"], ["PC="]):  # PC is not there: removing it changes nothing
        r = run("fix", gid, "--db", db_url, *(a for s in settings for a in ("--set", s)))
        assert r.exit_code == 0, r.output
        assert f"record {gid}: nothing to change" in r.output
        assert _json("show", gid, "--db", db_url, "--history", "--json")["history"] == []
    assert _json("fix", gid, "--db", db_url, "--set", "PB=Eve", "--json") == {"id": gid, "changed": False}
    assert _json("fix", gid, "--db", db_url, "--set", "PB=Eva", "--json")["changed"] is True
    assert len(_json("show", gid, "--db", db_url, "--history", "--json")["history"]) == 1
