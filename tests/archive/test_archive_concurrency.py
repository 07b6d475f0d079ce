"""Imports killed at random moments leave a consistent archive that a re-run completes; two imports at once into
one archive store each record once. The imports run as real processes (`python -m boardrecords.cli.main`)."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from boardrecords.records.reader import read_file

pytestmark = pytest.mark.slow


def _command(folder: Path, db: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "boardrecords.cli.main", "import", str(folder), "--db", db, "-q", "--json", *extra]


def _start(folder: Path, db: str, *extra: str) -> subprocess.Popen[bytes]:
    # A session of its own, so that the kill reaches the import's worker processes too.
    return subprocess.Popen(_command(folder, db, *extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def _hashes(folder: Path) -> set[str]:
    return {hashlib.sha256(r.raw).hexdigest() for p in sorted(folder.rglob("*.sgf")) for r in read_file(p)}


def _check_consistent(db: str) -> int:
    """No partial record: every game row has all its problems and its moves. Returns the number of records."""
    url = db if "://" in db else f"sqlite:///{db}"
    engine = create_engine(url)
    with engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
            assert conn.execute(text("PRAGMA foreign_key_check")).all() == []
        if not conn.execute(text("SELECT count(*) FROM information_schema.tables WHERE table_name = 'game'")
                            if conn.dialect.name == "postgresql" else
                            text("SELECT count(*) FROM sqlite_master WHERE name = 'game'")).scalar():
            engine.dispose()
            return 0  # killed before the tables were made
        bad = conn.execute(text(
            "SELECT g.id, g.problem_count, count(p.id) FROM game g LEFT JOIN problem p ON p.game_id = g.id "
            "GROUP BY g.id, g.problem_count HAVING g.problem_count <> count(p.id)")).all()
        assert bad == []
        for moves, count in conn.execute(text("SELECT moves, move_count FROM game")):
            assert (len(moves.split(";")) if moves else 0) == count
        orphans = conn.execute(text("SELECT count(*) FROM problem WHERE game_id NOT IN (SELECT id FROM game)"))
        assert orphans.scalar() == 0
        n = conn.execute(text("SELECT count(*) FROM game")).scalar()
        distinct = conn.execute(text("SELECT count(DISTINCT sha256) FROM game")).scalar()
        assert n == distinct
    engine.dispose()
    return int(n or 0)


def _stored(db: str) -> int:
    """How many records the archive holds now (0 while its tables do not exist yet)."""
    url = db if "://" in db else f"sqlite:///{db}"
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM game")).scalar() or 0)
    except Exception:
        return 0
    finally:
        engine.dispose()


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_sigkill_at_a_random_moment_then_rerun_completes(seed: int, db_url: str, corpus_sample) -> None:
    folder = corpus_sample(300, start=seed * 300 + 100)
    expected = _hashes(folder)
    rng = random.Random(seed)
    # Killed once a random number of records is committed, then a little later, so that the kill falls inside a
    # batch as often as between batches; seed 0 kills at a random moment of the start-up (tables half made).
    threshold = rng.randint(1, 260) if seed else 0
    proc = _start(folder, db_url, "--batch", "40", "--workers", "2")
    if threshold == 0:
        time.sleep(rng.uniform(0.2, 2.0))
    else:
        while proc.poll() is None and _stored(db_url) < threshold:
            time.sleep(0.05)
        time.sleep(rng.uniform(0.0, 0.5))
    killed = proc.poll() is None
    if killed:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    stored = _check_consistent(db_url)
    print(f"seed {seed}: kill after {threshold} records; killed: {killed}; {stored} of {len(expected)} stored")
    assert stored <= len(expected)
    rerun = subprocess.run(_command(folder, db_url), capture_output=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr.decode(errors="replace")
    assert _check_consistent(db_url) == len(expected)
    if "://" not in db_url:
        with sqlite3.connect(db_url) as conn:
            assert {h for (h,) in conn.execute("SELECT sha256 FROM game")} == expected


def test_two_imports_at_once_store_each_record_once(db_url: str, corpus_sample) -> None:
    a = corpus_sample(200, start=0, name="a")
    b = corpus_sample(200, start=100, name="b")  # half of b's files are a's, under other paths
    expected = _hashes(a) | _hashes(b)
    procs = [_start(a, db_url, "--batch", "25"), _start(b, db_url, "--batch", "25")]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err.decode(errors="replace")
    assert _check_consistent(db_url) == len(expected)
    import json

    summaries = [json.loads(out) for out, _ in outs]
    assert sum(s["new"] for s in summaries) == len(expected)


def test_ctrl_c_rolls_back_the_open_batch_and_exits_130(sqlite_db: str, corpus_sample) -> None:
    folder = corpus_sample(300, start=50)
    expected = _hashes(folder)
    proc = _start(folder, sqlite_db, "--batch", "40", "--workers", "2")
    while proc.poll() is None and _stored(sqlite_db) < 40:
        time.sleep(0.05)
    interrupted = proc.poll() is None
    if interrupted:
        proc.send_signal(signal.SIGINT)  # to the main process only, as a terminal's Ctrl-C reaches it first
    _, err = proc.communicate(timeout=300)
    if interrupted and proc.returncode != 0:
        assert proc.returncode == 130, err.decode(errors="replace")
        assert b"run the same import again" in err
        assert b"Traceback" not in err
    assert _check_consistent(sqlite_db) <= len(expected)
    rerun = subprocess.run(_command(folder, sqlite_db), capture_output=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr.decode(errors="replace")
    assert _check_consistent(sqlite_db) == len(expected)
