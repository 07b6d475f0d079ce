"""Archive benchmark: import throughput on the Go corpus, and search latency on archives of 100,000 and 1,000,000
records.

    .venv/bin/python benchmarks/bench_archive.py [--corpus DIR] [--sizes 100000,1000000] [--db-dir DIR] [--pg URL]

1. Plain verify (read + verify every record of the corpus, one process) next to `records import` of the same files
   into a fresh SQLite archive (with worker processes, and with one process), records/s; peak RSS.
2. Search: the archive is grown by bulk-inserting copies of the imported rows with varied names, dates, events and
   hashes (nothing is verified again), then typical filters run 30 times each: median and p95 in ms.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert, text
from sqlmodel import Session

from boardrecords.archive.core.db import create_text_index, drop_text_index, make_engine
from boardrecords.archive.core.models import GameRow
from boardrecords.archive.core.names import normalise_name
from boardrecords.archive.core.search import Filters, search
from boardrecords.archive.store.access import create_schema
from boardrecords.archive.store.importer import Importer, collect_files
from boardrecords.common.workers import default_workers
from boardrecords.records.reader import read_file
from boardrecords.verifier.judging.verdict import verify

SHARED = Path(__file__).resolve().parents[2] / "shared"


def peak_rss_mb() -> tuple[float, float]:
    """Peak resident memory of this process and of its (finished) children, in MB (Linux reports kB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def bench_verify(files: list[Path]) -> tuple[int, float]:
    start = time.perf_counter()
    n = 0
    for path in files:
        try:
            records = read_file(path)
        except Exception:
            continue
        for record in records:
            verify(record)
            n += 1
    return n, time.perf_counter() - start


def bench_import(files: list[Path], db: Path, workers: int | None) -> tuple[int, float]:
    engine = make_engine(str(db))
    create_schema(engine)
    start = time.perf_counter()
    summary = Importer(engine, workers=workers).run(files)
    seconds = time.perf_counter() - start
    engine.dispose()
    return summary.records, seconds


# -- growing an archive --------------------------------------------------------------------------------------

FIRST = ["Lee", "Park", "Kim", "Cho", "Chen", "Wang", "Li", "Zhang", "Iyama", "Ichiriki", "Shin", "Ke", "Mi", "Tang",
         "Gu", "Anna", "Bruno", "Chloé", "Dmitri", "Eva", "Fan", "Go", "Hana", "Ilya", "Jun", "Kaito", "Lena", "Mateo"]
LAST = ["Sedol", "Jie", "Yuting", "Yeonwoo", "Junghwan", "Jinseo", "Xiaochuan", "Li", "Yuta", "Ryo", "Hui", "Weixing",
        "Shin-ho", "Seong", "Smith", "Müller", "Novak", "Rossi", "García", "Ito", "Sato", "Okafor", "Quinn", "Reyes"]


def base_rows(engine: Engine) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(GameRow.__table__.select())]
    for r in rows:
        r.pop("id")
    return rows


def base_rows_sample(engine: Engine) -> list[dict[str, Any]]:
    """A few rows of an existing archive (for the queries that take their values from real rows)."""
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(GameRow.__table__.select().limit(200))]


def synth_rows(base: list[dict[str, Any]], start: int, count: int, rng: random.Random) -> list[dict[str, Any]]:
    names = [f"{f} {last}" for f in FIRST for last in LAST]  # 672 names, so ~3,000 records per player at 1M
    names += [f"player{i:05d}" for i in range(20_000)]
    events = [f"Event {i} Cup" for i in range(3_000)]
    out = []
    for i in range(start, start + count):
        b = dict(base[i % len(base)])
        black, white = rng.choice(names), rng.choice(names)
        first = dt.date(1990, 1, 1) + dt.timedelta(days=rng.randrange(35 * 365))
        event = rng.choice(events)
        winner = b["winner_colour"]
        winner_player = black if winner == "B" else white if winner == "W" else None
        b.update(
            sha256=hashlib.sha256(f"synthetic {i}".encode()).hexdigest(),
            black=black, white=white, black_final=black, white_final=white,
            black_norm=normalise_name(black), white_norm=normalise_name(white),
            black_final_norm=normalise_name(black), white_final_norm=normalise_name(white),
            winner_player=winner_player, winner_norm=normalise_name(winner_player),
            event=event, event_norm=normalise_name(event), round=str(rng.randint(1, 9)),
            date_raw=first.isoformat(), date_first=first, date_last=first, date_days=0,
            source_file=f"synthetic/{i}.sgf", source_index=0,
            search_text="\n".join(t for t in (b["search_text"], black.casefold(), white.casefold()) if t),
        )
        out.append(b)
    return out


def _sqlite_value(v: Any) -> Any:
    """A value as SQLAlchemy stores it in SQLite (dates as ISO text, booleans as 0/1)."""
    if isinstance(v, dt.datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, bool):
        return int(v)
    return v


def grow(engine: Engine, base: list[dict[str, Any]], have: int, target: int, rng: random.Random) -> None:
    """Bulk-insert synthetic rows until the archive holds `target` records (indexes rebuilt once at the end)."""
    table = GameRow.__table__
    indexes = list(table.indexes)
    sqlite = engine.dialect.name == "sqlite"
    with engine.begin() as conn:
        for index in indexes:
            index.drop(conn)
        if sqlite:  # the text index is filled once at the end, not by the trigger row by row
            conn.exec_driver_sql("DROP TRIGGER IF EXISTS game_text_insert")
    drop_text_index(engine)
    columns = [c.name for c in table.columns if c.name != "id"]
    sql = f"INSERT INTO game ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    now = dt.datetime.now(dt.UTC)
    step = 20_000
    done = have
    while done < target:
        n = min(step, target - done)
        rows = synth_rows(base, done, n, rng)
        with engine.begin() as conn:
            if sqlite:  # the DB-API directly: SQLAlchemy's per-row processing would double the build time
                values = [tuple(_sqlite_value(r.get(c, now if c == "imported_at" else None)) for c in columns)
                          for r in rows]
                conn.exec_driver_sql(sql, values)
            else:
                conn.execute(insert(table), [{**r, "imported_at": now} for r in rows])
        done += n
        print(f"\r  {done:,} rows", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if sqlite:
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO game_text(rowid, search_text) SELECT id, search_text FROM game "
                                 "WHERE id > (SELECT coalesce(max(rowid), 0) FROM game_text)")
    create_text_index(engine)  # PostgreSQL's index; SQLite's trigger again
    with engine.begin() as conn:
        for index in indexes:
            index.create(conn)
        t = time.perf_counter()
        conn.execute(text("ANALYZE game"))  # as the importer does
        print(f"  ANALYZE: {time.perf_counter() - t:.1f} s", file=sys.stderr)


def queries(base: list[dict[str, Any]]) -> dict[str, Filters]:
    opening = next(b["moves"] for b in base if b["moves"].count(";") >= 3).split(";")
    return {
        "player": Filters(player="lee sedol"),
        "black": Filters(black="Park Junghwan"),
        "player + date range": Filters(player="ke jie", date_from="2016", date_to="2018-06"),
        "winner B + game": Filters(winner="B", game="go"),
        "game + size": Filters(game="go-ing", size=9),
        "event": Filters(event="event 1234 cup"),
        "date range": Filters(date_from="2017-05", date_to="2017-05"),
        "result B+R": Filters(result="B+R"),
        "result resign + player": Filters(result="resign", player="player00042"),
        "opening 2 moves": Filters(opening=" ".join(opening[:2])),
        "opening 4 moves": Filters(opening=" ".join(opening[:4])),
        "moves 250-260": Filters(moves_min=250, moves_max=260),
        "invalid": Filters(valid=False),
        "swapped": Filters(swapped=True),
    }


SORTED = {"player, newest first": (Filters(player="lee sedol"), "-date"), "all, longest first": (Filters(), "-moves"),
          "date range, by date": (Filters(date_from="2010", date_to="2011"), "date")}
TEXT = {"text (comment substring)": Filters(text="resign"), "text (name substring)": Filters(text="sedol")}


def time_queries(engine: Engine, cases: dict[str, tuple[Filters, str]], runs: int = 30) -> dict[str, tuple]:
    out = {}
    with Session(engine) as session:
        for name, (filters, sort) in cases.items():
            times = []
            found = 0
            for _ in range(runs):
                t = time.perf_counter()
                found = len(search(session, filters, sort=sort, limit=50, light=True))
                times.append((time.perf_counter() - t) * 1000)
                session.expunge_all()
            times.sort()
            out[name] = (statistics.median(times), times[int(len(times) * 0.95) - 1], found)
    return out


def report(size: int, results: dict[str, tuple]) -> float:
    print(f"\nsearch on {size:,} records (limit 50; 30 runs each)")
    print(f"  {'filter':34} {'median ms':>10} {'p95 ms':>8} {'rows':>5}")
    medians = []
    for name, (median, p95, found) in results.items():
        print(f"  {name:34} {median:10.2f} {p95:8.2f} {found:5d}")
        medians.append(median)
    overall = statistics.median(medians)
    print(f"  median over all filters: {overall:.2f} ms; slowest median {max(medians):.2f} ms "
          "(target < 20 ms at 1,000,000)")
    return overall


def import_phase(args: argparse.Namespace, files: list[Path], workdir: Path) -> Path:
    """Plain verify before and after the imports (their mean is the reference: the machine's load drifts)."""
    n_verify, s_before = bench_verify(files)
    print(f"plain verify (1 process):       {n_verify:6d} records in {s_before:6.2f} s = "
          f"{n_verify / s_before:7.1f} records/s")
    runs: list[tuple[str, int | None, Path]] = [
        (f"import (default: {default_workers()} worker(s))", None, workdir / "import.db"),
        ("import (2 worker processes)", 2, workdir / "import-2.db"),
    ]
    if not args.skip_serial:
        runs.append(("import (1 process)", 1, workdir / "import-serial.db"))
    results = []
    for label, workers, db in runs:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        results.append((label, *bench_import(files, db, workers=workers)))
    _, s_after = bench_verify(files)
    print(f"plain verify again:             {n_verify:6d} records in {s_after:6.2f} s = "
          f"{n_verify / s_after:7.1f} records/s")
    reference = n_verify / ((s_before + s_after) / 2)
    for label, n, seconds in results:
        print(f"{label:31} {n:6d} records in {seconds:6.2f} s = {n / seconds:7.1f} records/s = "
              f"{(n / seconds) / reference:.2f}x verify (mean of the two verify runs)")
    own, _ = peak_rss_mb()
    print(f"peak RSS of this process (plain verify, then the imports' main process): {own:.0f} MB")
    return runs[0][2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpus" / "go")
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--db-dir", type=Path, default=None)
    ap.add_argument("--pg", default=None, help="also grow and search a PostgreSQL archive at this URL (tables "
                                               "dropped first)")
    ap.add_argument("--skip-serial", action="store_true", help="skip the one-process import")
    ap.add_argument("--base", default=None, metavar="DB",
                    help="take the rows to copy from this archive instead of importing the corpus")
    ap.add_argument("--pg-sizes", default=None, help="sizes for --pg (default: --sizes)")
    ap.add_argument("--search-only", default=None, metavar="DB",
                    help="only time the searches, on this existing archive (a path or URL)")
    args = ap.parse_args()
    if args.search_only:
        engine = make_engine(args.search_only)
        with engine.connect() as conn:
            size = int(conn.execute(text("SELECT count(*) FROM game")).scalar() or 0)
        base = base_rows_sample(engine)
        cases = {name: (f, "id") for name, f in queries(base).items()} | SORTED
        cases |= {name: (f, "id") for name, f in TEXT.items()}
        report(size, time_queries(engine, cases))
        engine.dispose()
        return
    if not args.corpus.is_dir():
        sys.exit(f"corpus not found: {args.corpus}")
    workdir = Path(args.db_dir or tempfile.mkdtemp(prefix="bench-archive-"))
    workdir.mkdir(parents=True, exist_ok=True)
    files, _ = collect_files([args.corpus])
    print(f"corpus: {len(files)} files ({args.corpus}); archives in {workdir}")

    if args.base:  # rows of an existing archive instead of importing the corpus again
        source = make_engine(args.base)
        base = base_rows(source)
        source.dispose()
        db = workdir / "search.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        engine = make_engine(str(db))
        create_schema(engine)
    else:
        db = import_phase(args, files, workdir)
        engine = make_engine(str(db))
        base = base_rows(engine)
    rng = random.Random(20240601)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    # The searches run against synthetic rows only, so that every size has the same mix.
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM problem"))
        conn.execute(text("DELETE FROM game"))
    have = 0
    cases = {name: (f, "id") for name, f in queries(base).items()} | SORTED
    cases |= {name: (f, "id") for name, f in TEXT.items()}
    for size in sizes:
        t = time.perf_counter()
        grow(engine, base, have, size, rng)
        have = size
        print(f"grew the archive to {size:,} records in {time.perf_counter() - t:.0f} s")
        report(size, time_queries(engine, cases))
    engine.dispose()
    if args.pg:
        pg = make_engine(args.pg)
        with pg.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS position, problem, game CASCADE"))
        create_schema(pg)
        have = 0
        for size in [int(x) for x in (args.pg_sizes or args.sizes).split(",") if x]:
            t = time.perf_counter()
            grow(pg, base, have, size, rng)
            have = size
            print(f"PostgreSQL: grew to {size:,} records in {time.perf_counter() - t:.0f} s")
            report(size, time_queries(pg, cases))
        pg.dispose()


if __name__ == "__main__":
    main()
