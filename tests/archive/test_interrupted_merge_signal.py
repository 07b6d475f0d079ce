"""A real Ctrl-C (SIGINT to the `records import` process) while the import's final merge runs, SQLite and
PostgreSQL: the interrupted message on one line and exit 130, no traceback, the archive intact with exact counts,
and the same import run again stores every record once.

The merge is seen from outside, with nothing added to the command for it: on PostgreSQL its statement that fills
`position` is active in `pg_stat_activity`; on SQLite every record is committed, their rows still wait in the
stage, and a writer holds the write lock (the one write left for the run is the merge); either seen twice in a
row. A merge missed (the command ended first) is tried again with a folder of new records; the test needs one
interruption that fell inside the merge (its rows still staged afterwards)."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from boardrecords.records.games import Game, MoveKind
from boardrecords.records.model import Move
from boardrecords.records.writer import new_record, write
from boardrecords.verifier.rules.registry import engine_for

from ..shared import exact_counts, interruptible

pytestmark = pytest.mark.slow

# 100 random games written 30 times each under other players: 3,000 records of 9x9 Go, about 180,000 position
# rows, which one merge moves in about a second.
GAMES, COPIES, MOVES, PER_FILE = 100, 30, 60, 200
ATTEMPTS = 6
INTERRUPTED = "interrupted: {} new records were committed; run the same import again to complete it"


@pytest.fixture(scope="module")
def games() -> list[list[Move]]:
    """Random legal 9x9 Go games (ING-, GEN- rules as the engine plays them), without passes."""
    rng = random.Random(18)
    out: list[list[Move]] = []
    for _ in range(GAMES):
        engine = engine_for(Game.GO)(9)
        moves: list[Move] = []
        while engine.end is None and len(moves) < MOVES:
            plays = [m for m in engine.legal_moves() if m.kind is not MoveKind.PASS]
            if not plays:
                break
            moves.append(rng.choice(plays))
            engine.play(moves[-1])
        out.append(moves)
    return out


def _folder(root: Path, attempt: int, games: list[list[Move]]) -> tuple[Path, int]:
    """A folder of new records (players of their own for each attempt) and how many it holds."""
    blobs = [write(new_record(Game.GO, 9, moves, black=f"Black {attempt}-{c}", white=f"White {g}", result="?"))
             for c in range(COPIES) for g, moves in enumerate(games)]
    folder = root / f"attempt{attempt}"
    folder.mkdir()
    for start in range(0, len(blobs), PER_FILE):
        (folder / f"games{start:05d}.sgf").write_bytes(b"\n".join(blobs[start:start + PER_FILE]))
    return folder, len(blobs)


def _command(folder: Path, db: str) -> list[str]:
    return [sys.executable, "-m", "boardrecords.cli.main", "import", str(folder), "--db", db, "-q", "--json"]


def _sqlite_merging(db: str, stored: int) -> bool:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=rw", uri=True, timeout=0, isolation_level=None)
    except sqlite3.OperationalError:
        return False  # the archive is not made yet
    try:
        conn.execute("BEGIN")
        games = conn.execute("SELECT count(*) FROM game").fetchone()[0]
        staged = conn.execute("SELECT 1 FROM position_stage LIMIT 1").fetchone() is not None
        conn.execute("COMMIT")
        if games < stored or not staged:
            return False
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return True  # the write lock is held: the merge runs
        conn.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError:
        return False  # the tables are not made yet
    finally:
        conn.close()


def _pg_merging(db: str) -> bool:
    import psycopg

    with psycopg.connect(db.replace("+psycopg", ""), autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() "
                            "AND query LIKE 'INSERT INTO position SELECT%'").fetchone() is not None


def _count(engine: Engine, sql: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar() or 0)


def _intact(engine: Engine) -> None:
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            assert conn.execute(text("PRAGMA integrity_check")).scalar() == "ok"
            assert conn.execute(text("PRAGMA foreign_key_check")).all() == []
    exact_counts(engine)
    assert _count(engine, "SELECT count(*) FROM game") == _count(engine, "SELECT count(DISTINCT sha256) FROM game")


def test_sigint_during_the_final_merge_of_an_import(tmp_path: Path, db_url: str, engine: Engine,
                                                    games: list[list[Move]]) -> None:
    stored = 0  # the records of the attempts before, all in the archive
    caught = 0
    for attempt in range(ATTEMPTS):
        folder, records = _folder(tmp_path, attempt, games)
        proc = subprocess.Popen(_command(folder, db_url), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=interruptible)
        sent = False
        seen = 0
        while proc.poll() is None:
            merging = _pg_merging(db_url) if "://" in db_url else _sqlite_merging(db_url, stored + records)
            seen = seen + 1 if merging else 0
            # Seen twice in a row: the last batch's commit, visible a moment before it lets the lock go, is not
            # taken for the merge.
            if seen == 2:
                proc.send_signal(signal.SIGINT)  # the main process only, as a terminal's Ctrl-C reaches it first
                sent = True
                break
            time.sleep(0.005)
        _, err = proc.communicate(timeout=600)
        message = err.decode(errors="replace")
        if not sent:
            assert proc.returncode == 0, message
            print(f"attempt {attempt}: the merge ended before it was seen")
        else:
            assert proc.returncode == 130, message
            assert "Traceback" not in message
            # The records were all committed before the merge began.
            assert message.splitlines() == [INTERRUPTED.format(records)], message
            _intact(engine)
            staged = _count(engine, "SELECT count(*) FROM position_stage")
            print(f"attempt {attempt}: interrupted; {staged} rows left staged")
            if staged:
                caught += 1
            again = subprocess.run(_command(folder, db_url), capture_output=True, timeout=600)
            assert again.returncode == 0, again.stderr.decode(errors="replace")
            assert json.loads(again.stdout)["duplicates"] == records
        stored += records
        _intact(engine)
        assert _count(engine, "SELECT count(*) FROM game") == stored
        assert _count(engine, "SELECT count(*) FROM position_stage") == 0
        assert _count(engine, "SELECT coalesce(sum(rows), 0) FROM position_game") == \
            _count(engine, "SELECT count(*) FROM position")
        if caught:
            break
    assert caught, f"no interruption fell inside the merge in {ATTEMPTS} attempts"
