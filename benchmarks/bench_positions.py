"""Position index benchmark: import with and without the index, its size, and `explore` / `search --position`
latency on archives of 100,000 and more records (SQLite, or PostgreSQL with --pg).

    .venv/bin/python benchmarks/bench_positions.py [--records 100000] [--scale 1000000] [--work DIR]
                                                   [--corpus DIR] [--workers N] [--skip-noindex] [--rounds N]
                                                   [--import-only] [--reuse [--scale-only]]
                                                   [--pg URL [--pg-plain URL]]

1. Records: the real Go corpus (records without setup stones) and random legal games of all five games (Go 9x9,
   Conversion Go 16x16, Cation and Quentin 8x8, Squer 7x7), then copies of them under the board's symmetries (8 for
   Go and Conversion Go, 4 for the connection games) with other players and dates until there are `--records`,
   100 records per file.
2. Import: `records import` as a whole process into a fresh archive, with the index and without it
   (RECORDS_POSITION_INDEX=0), `--rounds` times each, alternating; records/s and the ratio of the medians. Sizes
   from SQLite's dbstat: the archive, its free pages, the position index's tables; bytes per position. With
   `--pg URL` the archive is that PostgreSQL database (its tables dropped before each import; the import without
   the index goes to `--pg-plain`, by default the same URL with `_plain` after the database's name), sizes from
   pg_relation_size; `--scale` is SQLite's only.
3. Questions: for 5 Go games of the corpus, the position after 0..10 of their moves: `explore` unfiltered, with a
   player filter and with a date filter, and `search --position` (first page), timed in-process (p50 of 5 runs over
   the 5 positions) and as whole `records` processes (p50 over 3 positions).
4. `--scale N`: a copy of the archive grown to N records by copying game rows (new hashes, players and dates) and
   their position rows in SQL (the keys stay: each position is reached by N/records as many games), the counts
   table rebuilt; then step 3 again.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_verify

from boardrecords.records.games import SPECS, Game, MoveKind
from boardrecords.records.model import FormatError, Record
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.keys.position_keys import move_text
from boardrecords.verifier.keys.symmetry import symmetries

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "go"
RECORDS = str(Path(sys.executable).with_name("records"))
GENERATED = {Game.GO: (9, 600), Game.CONVERSION_GO: (16, 300), Game.CATION: (8, 600), Game.QUENTIN: (8, 600),
             Game.SQUER: (7, 600)}  # game: (size, records)
NAMES = [f"Player {i:04d}" for i in range(1000)]


# -- records ---------------------------------------------------------------------------------------------------

def base_records(corpus: Path) -> list[Record]:
    out: list[Record] = []
    for path in sorted(corpus.rglob("*.sgf")):
        try:
            records = read_bytes(path.read_bytes(), str(path))
        except FormatError:
            continue
        out.extend(r for r in records if not (r.setup and (r.setup.black or r.setup.white)) and not r.handicap
                   and r.unknown_game is None and len(r.moves()) >= 10)
    for game, (size, count) in GENERATED.items():
        bench_verify.SIZES[game] = size
        for blob in bench_verify.generated(game, count, seed=11):
            out.extend(read_bytes(blob))
    return out


def variant(record: Record, number: int, rng: random.Random) -> str:
    syms = symmetries(record.game, record.size)
    sym = syms[(number // 7) % len(syms)]
    moves = ";".join(move_text(m, sym) for m in record.moves() if m.kind is not MoveKind.RESIGN)
    black, white = rng.sample(NAMES, 2)
    date = f"{rng.randrange(1990, 2026)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
    komi = f"KM[{record.komi:g}]" if record.komi is not None else ""
    result = record.result.raw.replace("]", "")
    return (f"(;GM[{SPECS[record.game].gm_value}]SZ[{record.size}]PB[{black}]PW[{white}]DT[{date}]{komi}"
            f"RE[{result}]GC[copy {number}];{moves})")


def write_files(folder: Path, bases: list[Record], count: int, per_file: int = 100) -> None:
    rng = random.Random(5)
    folder.mkdir(parents=True)
    for start in range(0, count, per_file):
        texts = [variant(bases[i % len(bases)], i // len(bases) * 7 + i % 7, rng)
                 for i in range(start, min(count, start + per_file))]
        (folder / f"r{start // per_file:05d}.sgf").write_text("\n".join(texts) + "\n")


# -- import and sizes ------------------------------------------------------------------------------------------

def fresh(target: Path | str) -> None:
    """An empty archive at `target`: the SQLite file removed, or the PostgreSQL database's tables dropped."""
    if isinstance(target, str):
        from sqlalchemy import create_engine

        engine = create_engine(target)
        with engine.begin() as conn:
            conn.exec_driver_sql("DROP TABLE IF EXISTS pattern_line, position_stage, position_count, position_game, "
                                 "position, problem, game_version, game, alias CASCADE")
        engine.dispose()
        return
    for p in (target, target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
        p.unlink(missing_ok=True)


def run_import(folder: Path, db: Path | str, *, index: bool, workers: int | None) -> float:
    fresh(db)
    env = dict(os.environ, RECORDS_POSITION_INDEX="1" if index else "0")
    args = [RECORDS, "import", str(folder), "--db", str(db), "-q", "--json"]
    if workers:
        args += ["-j", str(workers)]
    start = time.perf_counter()
    subprocess.run(args, env=env, check=False, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def sizes(db: Path | str) -> dict[str, int]:
    """The archive's size, its free pages, each table's and index's size, its position rows and games."""
    if isinstance(db, str):
        return pg_sizes(db)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    out = {name: size for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name")}
    out["_file"] = db.stat().st_size
    out["_free"] = conn.execute("PRAGMA freelist_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
    out["_positions"] = conn.execute("SELECT count(*) FROM position").fetchone()[0]
    out["_games"] = conn.execute("SELECT count(*) FROM game").fetchone()[0]
    conn.close()
    return out


def pg_sizes(url: str) -> dict[str, int]:
    """As `sizes`, for PostgreSQL: each relation's pages (heap, index, TOAST), after a VACUUM (ANALYZE) of the
    database so that the free space map is current; `_free` is the space that map says the tables and indexes
    hold free, and `_dead` their dead rows."""
    from sqlalchemy import create_engine

    engine = create_engine(url)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE")
        out = {name: int(size) for name, size in conn.exec_driver_sql(
            "SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i', 't')")}
        out["_file"] = int(conn.exec_driver_sql("SELECT pg_database_size(current_database())").scalar() or 0)
        free = 0
        try:  # pg_freespacemap: the free space of every page, as VACUUM recorded it
            conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_freespacemap")
            free = int(conn.exec_driver_sql(
                "SELECT coalesce(sum((SELECT sum(avail) FROM pg_freespace(c.oid))), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'"
            ).scalar() or 0)
        except Exception:  # not installed, or not allowed: left out
            free = -1
        out["_free"] = free
        out["_dead"] = int(conn.exec_driver_sql("SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables")
                           .scalar() or 0)
        out["_positions"] = int(conn.exec_driver_sql("SELECT count(*) FROM position").scalar() or 0)
        out["_games"] = int(conn.exec_driver_sql("SELECT count(*) FROM game").scalar() or 0)
    engine.dispose()
    return out


def grow(src: Path, dst: Path, target: int) -> float:
    """Copy the archive and its game and position rows until it holds `target` records; seconds taken. The
    position rows are copied in game order (into the table clustered by key), `position_game` with them, and the
    counts table made again at the end (as a bulk load would)."""
    from boardrecords.archive.positions.counts import rebuild_counts

    shutil.copy(src, dst)
    start = time.perf_counter()
    conn = sqlite3.connect(dst)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("PRAGMA cache_size=-1000000")
    top = conn.execute("SELECT max(id) FROM game").fetchone()[0]
    columns = [r[1] for r in conn.execute("PRAGMA table_info(game)") if r[1] != "id"]
    names = ", ".join(columns)
    copy = 1
    while top * copy < target:
        off = top * copy
        last = min(top, target - off)
        values = ", ".join(f"'c{copy}' || sha256" if c == "sha256" else c for c in columns)
        conn.execute(f"INSERT INTO game (id, {names}) SELECT id + {off}, {values} FROM game "
                     f"WHERE id <= {last} ORDER BY id")
        conn.execute(f"INSERT INTO position (key, game_id, ply, next, outcome, day) SELECT key, game_id + {off}, "
                     f"ply, next, outcome, day FROM position WHERE game_id <= {last}")
        conn.execute(f"INSERT INTO position_game (game_id, rows, opening) SELECT game_id + {off}, rows, opening "
                     f"FROM position_game WHERE game_id <= {last}")
        conn.commit()
        print(f"  copy {copy}: {off + last} records ({time.perf_counter() - start:.0f} s)")
        sys.stdout.flush()
        copy += 1
    conn.execute("DELETE FROM position_count")
    conn.execute(rebuild_counts())
    conn.execute("ANALYZE game")  # as the import does
    conn.commit()
    conn.close()
    return time.perf_counter() - start


# -- questions -------------------------------------------------------------------------------------------------

def lines(bases: list[Record], count: int) -> list[list[str]]:
    go = [r for r in bases if r.game is Game.GO and r.size == 19 and all(
        m.kind is MoveKind.PLACE for m in r.moves()[:10])]
    return [[m.raw for m in r.moves()[:10]] for r in go[:count]]


def p50_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


def in_process(db: Path | str, games: list[list[str]], runs: int = 5) -> dict[str, list[float]]:
    from boardrecords.archive.core.filters import Filters
    from boardrecords.archive.positions.explore import explore, games_at
    from boardrecords.archive.store.access import open_archive
    from boardrecords.cli.asked_positions import resolve

    engine = open_archive(str(db))
    modes = {"explore": Filters(), "explore --player": Filters(player=NAMES[3]),
             "explore --from/--to": Filters(date_from="2000-01-01", date_to="2004-12-31")}
    out: dict[str, list[float]] = {}
    for depth in range(11):
        targets = [resolve(Filters(), moves=",".join(line[:depth])) for line in games]
        for name, f in modes.items():
            times = []
            for t in targets:
                explore(engine, t.key, f)  # warm
                for _ in range(runs):
                    start = time.perf_counter()
                    explore(engine, t.key, f)
                    times.append(time.perf_counter() - start)
            out.setdefault(name, []).append(p50_ms(times))
        times = []
        for t in targets:
            games_at(engine, t.key, Filters())
            for _ in range(runs):
                start = time.perf_counter()
                games_at(engine, t.key, Filters())
                times.append(time.perf_counter() - start)
        out.setdefault("search --position", []).append(p50_ms(times))
    engine.dispose()
    return out


def processes(db: Path | str, games: list[list[str]]) -> dict[str, list[float]]:
    modes = {"explore": ["explore", "{m}"], "explore --player": ["explore", "{m}", "--player", NAMES[3]],
             "explore --from/--to": ["explore", "{m}", "--from", "2000-01-01", "--to", "2004-12-31"],
             "search --position": ["search", "--position", "{m}"]}
    out: dict[str, list[float]] = {}
    for depth in range(11):
        for name, args in modes.items():
            times = []
            for line in games:
                m = ",".join(line[:depth])
                cmd = [RECORDS, *(a.replace("{m}", m) for a in args), "--db", str(db), "--json"]
                if not m and name == "search --position":
                    cmd = [RECORDS, "search", "--stones", "", "--db", str(db), "--json"]
                    continue
                start = time.perf_counter()
                subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                times.append(time.perf_counter() - start)
            out.setdefault(name, []).append(p50_ms(times) if times else float("nan"))
    return out


def report(title: str, table: dict[str, list[float]]) -> None:
    print(f"  {title}: p50 ms at depth 0..10")
    for name, values in table.items():
        print(f"    {name:22} " + " ".join(f"{v:6.1f}" for v in values))


def questions(db: Path | str, games: list[list[str]], label: str) -> None:
    print(f"{label}: {db}")
    report("in-process", in_process(db, games))
    report("whole process", processes(db, games[:3]))
    floor = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([RECORDS, "explore", "--help"], stdout=subprocess.DEVNULL, check=False)
        floor.append(time.perf_counter() - start)
    print(f"  a `records explore --help` process (start-up, no archive): p50 {p50_ms(floor):.0f} ms")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--scale", type=int, default=0, help="also grow a copy to this many records")
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench_positions"))
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--skip-noindex", action="store_true")
    parser.add_argument("--reuse", action="store_true", help="keep the files and archive of an earlier run")
    parser.add_argument("--rounds", type=int, default=1, help="imports with and without the index, alternating")
    parser.add_argument("--import-only", action="store_true",
                        help="the imports and sizes, no questions (with --reuse: the files of an earlier run)")
    parser.add_argument("--scale-only", action="store_true",
                        help="with --reuse: only grow the archive to --scale and ask there")
    parser.add_argument("--pg", metavar="URL", help="a PostgreSQL database for the archive (its tables are dropped)")
    parser.add_argument("--pg-plain", metavar="URL", help="with --pg: the database of the import without the index")
    args = parser.parse_args()

    work: Path = args.work
    folder = work / f"files{args.records}"
    db: Path | str = args.pg or work / f"index{args.records}.db"
    start = time.perf_counter()
    bases = [] if args.import_only and args.reuse and folder.exists() else base_records(args.corpus)
    print(f"{len(bases)} base records ({time.perf_counter() - start:.0f} s)")
    if not (args.reuse and folder.exists()):
        shutil.rmtree(folder, ignore_errors=True)
        start = time.perf_counter()
        write_files(folder, bases, args.records)
        print(f"{args.records} records written to {folder} ({time.perf_counter() - start:.0f} s)")
    sys.stdout.flush()

    if args.import_only or not (args.reuse and archive_exists(db)):
        imports(folder, db, work, args)
    if args.import_only:
        return sizes_report(db)
    games = lines(bases, 5)
    if args.scale_only and not isinstance(db, str):
        return scaled(db, work, args.scale, games, reuse=args.reuse)
    sizes_report(db)
    questions(db, games, f"{args.records} records")
    return scaled(db, work, args.scale, games, reuse=args.reuse) if args.scale else 0


def archive_exists(db: Path | str) -> bool:
    if isinstance(db, Path):
        return db.exists()
    from sqlalchemy import create_engine, inspect

    engine = create_engine(db)
    try:
        return inspect(engine).has_table("position")
    finally:
        engine.dispose()


def plain_url(url: str) -> str:
    """The URL of the same server with `_plain` after the database's name."""
    base, _, query = url.partition("?")
    return base + "_plain" + (f"?{query}" if query else "")


def imports(folder: Path, db: Path | str, work: Path, args: argparse.Namespace) -> None:
    """`--rounds` imports with the index and (unless skipped) without it, alternating, so that both meet the same
    load on a shared machine; each round's figures, then the medians."""
    plain: Path | str = (args.pg_plain or plain_url(db)) if isinstance(db, str) else work / f"plain{args.records}.db"
    times: dict[bool, list[float]] = {True: [], False: []}
    for round_ in range(args.rounds):
        for index in (True, False) if round_ % 2 == 0 else (False, True):
            if not index and args.skip_noindex:
                continue
            seconds = run_import(folder, db if index else plain, index=index, workers=args.workers)
            times[index].append(seconds)
            label = "with the index:   " if index else "without the index:"
            print(f"import {label} {seconds:7.1f} s  {args.records / seconds:7.0f} records/s  "
                  f"(load {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
            sys.stdout.flush()
    with_index = statistics.median(times[True])
    if times[False]:
        without = statistics.median(times[False])
        print(f"median over {args.rounds}: with {args.records / with_index:.0f} records/s, without "
              f"{args.records / without:.0f} records/s; ratio (with / without, records/s): {without / with_index:.2f}")
        plain_sizes = sizes(plain)
        print(f"  archive without the index: {plain_sizes['_file'] / 1e6:.0f} MB, of which "
              f"{plain_sizes['_free'] / 1e6:.0f} MB free")
    sys.stdout.flush()


def sizes_report(db: Path | str) -> int:
    s = sizes(db)
    index_bytes = sum(v for k, v in s.items() if k.startswith(("position", "ix_position", "sqlite_autoindex_position")))
    free = (f"{s['_free'] / 1e6:.0f} MB free ({100 * s['_free'] / s['_file']:.1f}%)" if s["_free"] >= 0
            else "free space not measured (no pg_freespacemap)")
    print(f"archive: {s['_games']} records, {s['_positions']} positions, {s['_file'] / 1e6:.0f} MB, of which {free}"
          + (f", {s['_dead']} dead rows" if "_dead" in s else ""))
    for name in sorted(k for k in s if "position" in k and not k.startswith("_")):
        print(f"  {name:32} {s[name] / 1e6:8.1f} MB  {s[name] / max(1, s['_positions']):6.1f} bytes/position")
    print(f"  index in all: {index_bytes / 1e6:.0f} MB, {index_bytes / max(1, s['_positions']):.1f} bytes/position, "
          f"{100 * index_bytes / s['_file']:.0f}% of the archive; "
          f"{s['_file'] / max(1, s['_games']):.0f} bytes a record in all")
    sys.stdout.flush()
    return 0


def scaled(db: Path, work: Path, size: int, games: list[list[str]], *, reuse: bool) -> int:
    big = work / f"index{size}.db"
    if not (reuse and big.exists()):
        seconds = grow(db, big, size)
        print(f"grown to {size} records in {seconds:.0f} s")
    s = sizes(big)
    print(f"archive: {s['_games']} records, {s['_positions']} positions, file {s['_file'] / 1e6:.0f} MB")
    questions(big, games, f"{size} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
