"""Where an import with the position index spends its time (SQLite): the import without the index, the import that
stages its rows but does not merge them, the whole import, then each statement of the merge timed alone on a copy of
the staged archive.

    .venv/bin/python benchmarks/bench_merge.py FOLDER [--work DIR] [--phases-only]

FOLDER is a folder of records (e.g. the files `bench_positions.py` writes: /tmp/bench_positions/files100000).
The three imports are whole `records import` processes; the one that only stages runs this script again with the
merge switched off (`--stage-only`), as an import interrupted after its last batch would leave the archive.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

RECORDS = str(Path(sys.executable).with_name("records"))


def fresh(db: Path) -> None:
    for p in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        p.unlink(missing_ok=True)


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the main process) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, env=env, check=False, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imports(folder: Path, work: Path) -> Path:
    staged = work / "staged.db"
    runs = {
        "without the index": ([RECORDS, "import", str(folder), "--db", str(work / "plain.db"), "-q", "--json"],
                              {"RECORDS_POSITION_INDEX": "0"}),
        "staged, not merged": ([sys.executable, __file__, "--stage-only", str(folder), "--db", str(staged)], {}),
        "with the index": ([RECORDS, "import", str(folder), "--db", str(work / "index.db"), "-q", "--json"], {}),
    }
    for label, (args, extra) in runs.items():
        fresh(Path(args[args.index("--db") + 1]))
        wall, cpu = timed(args, dict(os.environ, **extra))
        print(f"import {label:20} {wall:7.1f} s  (main process CPU {cpu:6.1f} s; load {os.getloadavg()[0]:.2f})")
        sys.stdout.flush()
    return staged


def phases(staged: Path, work: Path) -> None:
    """The merge's statements (archive/positions/stage.py, the path of a merge into an empty index) one by one."""
    import re

    from boardrecords.archive.positions.counts import rebuild_counts
    from boardrecords.archive.positions.stage import MERGE_CACHE_KIB
    from boardrecords.archive.positions.values import OPENING_PLY

    copy = work / "merge.db"
    fresh(copy)
    shutil.copy(staged, copy)
    conn = sqlite3.connect(copy, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(f"PRAGMA cache_size=-{MERGE_CACHE_KIB}")
    rows = conn.execute("SELECT count(*) FROM position_stage").fetchone()[0]
    print(f"merge of {rows} staged rows, each statement alone:")
    columns = "key, game_id, ply, next, outcome, day"
    ddl = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'position'").fetchone()[0]
    steps = [
        ("read the stage", ["SELECT count(*), sum(key & 1) FROM position_stage"]),
        ("sort it in key order (read only)", [f"SELECT count(*) FROM (SELECT {columns} FROM position_stage "
                                              "ORDER BY key, game_id, ply)"]),
        ("sort it into a temporary table", [re.sub(r'^CREATE TABLE\s+"?position"?', "CREATE TEMP TABLE sorted", ddl),
                                            f"INSERT INTO temp.sorted SELECT {columns} FROM position_stage "
                                            "ORDER BY key, game_id, ply"]),
        ("its games into position_game", ["INSERT INTO position_game (game_id, rows, opening) SELECT game_id, "
                                          f"count(*), max(CASE WHEN ply = {OPENING_PLY} THEN key END) "
                                          "FROM position_stage GROUP BY game_id"]),
        ("empty the stage", ["DELETE FROM position_stage"]),
        ("copy into the empty index", ["INSERT INTO position SELECT * FROM temp.sorted"]),
        ("counts of the counted positions", ["DELETE FROM position_count", rebuild_counts()]),
        ("drop the temporary table", ["DROP TABLE temp.sorted"]),
    ]
    conn.execute("BEGIN")
    for label, statements in steps:
        start = time.perf_counter()
        for sql in statements:
            conn.execute(sql).fetchall()
        spent = time.perf_counter() - start
        print(f"  {label:38} {spent:7.2f} s  {spent / max(1, rows) * 1e6:5.2f} µs a row")
        sys.stdout.flush()
    start = time.perf_counter()
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    conn.execute("COMMIT")
    print(f"  {'commit (' + str(free) + ' free pages given back)':38} {time.perf_counter() - start:7.2f} s")
    start = time.perf_counter()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    print(f"  {'checkpoint':38} {time.perf_counter() - start:7.2f} s")
    conn.close()


def stage_only(argv: list[str]) -> None:
    """`records import ARGS` with the merge switched off: every position row stays in the stage."""
    from boardrecords.archive.positions import stage as position_stage
    from boardrecords.archive.store import importer

    importer.merge_pending = position_stage.merge_pending = lambda engine: 0  # type: ignore[assignment]
    from boardrecords.cli.main import app

    sys.argv = ["records", "import", *argv, "-q", "--json"]
    app()


def main() -> int:
    if sys.argv[1:2] == ["--stage-only"]:
        stage_only(sys.argv[2:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench_merge"))
    parser.add_argument("--phases-only", action="store_true", help="time the merge of an earlier run's stage")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    staged = args.work / "staged.db" if args.phases_only else imports(args.folder, args.work)
    phases(staged, args.work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
