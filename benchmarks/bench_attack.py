"""`records serve` under heavy questions: the figures of an attack by pattern searches, repeated.

    .venv/bin/python benchmarks/bench_attack.py [--work DIR] [--corpus DIR] [--pg URL] [--seconds 20]
                                                [--clients 1,4,24] [--names 1000000] [--skip-names]
                                                [--only-names] [--reuse] [--modes apart,threads]

1. Archives of the Go corpus (/work/shared/corpus/go): a SQLite file, and with `--pg` the same records in that
   PostgreSQL database (emptied first), both imported by `records import`.
2. For each archive and each number of heavy clients (`--clients`): that many clients ask
   `/api/search?pattern=.&game=go&size=19&limit=1` again and again for `--seconds`, while one quick client asks
   `/api/show/1` every 50 ms. Reported: the heavy answers by status and their p50, the quick request's p50 and max,
   the server's resident memory (RSS) idle, at its peak and 5 s after the burst.
3. The explorer's p99 (`/api/explore` at depth 0..6 of corpus games) idle, then while 4 clients ask a pattern
   search of a 4x4 shape anywhere (`..../.XO./..X./....`).
   Parts 2 and 3 run for each of `--modes`: `apart`, the pattern searches in the server's helper processes (the
   default), and `threads`, in the server's own threads (RECORDS_HEAVY_APART=off).
4. The player-name wildcard at `--names` records (a synthetic SQLite archive made by inserting game rows directly,
   about 20,000 players): `/api/search?player=...&limit=50` over HTTP, p50 and p99, for a rare, a prefix and a
   common name part.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlencode

from bench_serve import start as serve

RECORDS = str(Path(sys.executable).with_name("records"))
HEAVY = "/api/search?" + urlencode({"pattern": ".", "game": "go", "size": 19, "limit": 1})
SHAPE = "/api/search?" + urlencode({"pattern": "..../.XO./..X./....", "game": "go", "size": 19, "limit": 1})
QUICK = "/api/show/1"


def start(db: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str, int]:
    proc, host, port, _ = serve(db, env)
    return proc, host, port


def get(host: str, port: int, path: str, timeout: float = 600) -> tuple[float, int]:
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    began = time.perf_counter()
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return time.perf_counter() - began, response.status
    except (OSError, http.client.HTTPException):
        return time.perf_counter() - began, 0
    finally:
        conn.close()


def children(pid: int) -> list[int]:
    """The processes `pid` started (the server's helpers for heavy questions), and theirs."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with suppress(OSError):  # the thread ended meanwhile
            found += [int(c) for c in (task / "children").read_text().split()]
    return found + [g for c in found for g in children(c)]


def rss_mb(pid: int) -> float:
    """The resident memory of the server and of the helper processes it started."""
    total = 0.0
    for each in [pid, *children(pid)]:
        try:
            with open(f"/proc/{each}/status") as status:
                total += next((int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:")), 0.0)
        except OSError:
            pass
    return total


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def burst(host: str, port: int, pid: int, clients: int, seconds: float) -> dict[str, object]:
    """`clients` heavy clients for `seconds` beside one quick client; memory sampled all along."""
    stop = time.monotonic() + seconds
    heavy: list[tuple[float, int]] = []
    quick: list[float] = []
    peak = [rss_mb(pid)]
    idle = peak[0]
    lock = threading.Lock()

    def heavy_client() -> None:
        while time.monotonic() < stop:
            answer = get(host, port, HEAVY)
            with lock:
                heavy.append(answer)
            if answer[1] == 503:
                time.sleep(0.2)

    def quick_client() -> None:
        while time.monotonic() < stop or any(t.is_alive() for t in threads):
            quick.append(get(host, port, QUICK)[0])
            time.sleep(0.05)

    def sampler() -> None:
        while time.monotonic() < stop or any(t.is_alive() for t in threads):
            peak[0] = max(peak[0], rss_mb(pid))
            time.sleep(0.1)

    threads = [threading.Thread(target=heavy_client) for _ in range(clients)]
    extra = [threading.Thread(target=quick_client), threading.Thread(target=sampler)]
    for t in threads + extra:
        t.start()
    for t in threads + extra:
        t.join()
    time.sleep(5)
    statuses = Counter(s for _, s in heavy)
    return {"clients": clients, "heavy": dict(statuses), "heavy_p50": statistics.median(t for t, _ in heavy),
            "heavy_max": max(t for t, _ in heavy), "quick_p50": statistics.median(quick) * 1000,
            "quick_max": max(quick) * 1000, "rss_idle": idle, "rss_peak": peak[0], "rss_after": rss_mb(pid)}


def explorer_paths(host: str, port: int) -> list[str]:
    """The explorer at depths 0..6 along the first three continuations of each position (most played first)."""
    conn = http.client.HTTPConnection(host, port, timeout=60)
    paths = []
    lines: list[list[str]] = [[]]
    for _ in range(7):
        grown = []
        for line in lines:
            path = "/api/explore?" + urlencode({"game": "go", "size": 19, "moves": ",".join(line)})
            paths.append(path)
            conn.request("GET", path)
            found = json.loads(conn.getresponse().read()).get("continuations") or []
            grown += [[*line, c["move"].split()[-1]] for c in found[:3] if c["move"].split()[-1][:1].isalpha()]
        lines = grown[:6]
    conn.close()
    return paths


def explorer_p99(host: str, port: int, paths: list[str], seconds: float, pattern_clients: int) -> tuple[float, float]:
    stop = time.monotonic() + seconds

    def pattern_client() -> None:
        while time.monotonic() < stop:
            if get(host, port, SHAPE)[1] == 503:
                time.sleep(0.2)

    threads = [threading.Thread(target=pattern_client) for _ in range(pattern_clients)]
    for t in threads:
        t.start()
    times = []
    conn = http.client.HTTPConnection(host, port, timeout=600)
    i = 0
    while time.monotonic() < stop:
        began = time.perf_counter()
        conn.request("GET", paths[i % len(paths)])
        conn.getresponse().read()
        times.append(time.perf_counter() - began)
        i += 1
    conn.close()
    for t in threads:
        t.join()
    return pct(times, 0.5) * 1000, pct(times, 0.99) * 1000


SURNAMES = ["lee", "kim", "park", "cho", "choi", "jeong", "kang", "yoon", "jang", "lim", "han", "oh", "seo", "shin",
            "kwon", "hwang", "ahn", "song", "yoo", "hong", "chen", "wang", "zhang", "liu", "yang", "huang", "zhao",
            "wu", "zhou", "xu", "sun", "ma", "zhu", "hu", "guo", "he", "takahashi", "tanaka", "watanabe", "ito",
            "yamamoto", "nakamura", "kobayashi", "kato", "yoshida", "yamada", "sasaki", "yamaguchi", "matsumoto",
            "inoue", "smith", "jones", "brown", "miller", "davis", "garcia", "wilson", "moore", "taylor", "martin"]
SYLLABLES = ["sa", "se", "jin", "ho", "min", "yu", "xi", "ka", "ta", "ro", "mi", "do", "lan", "bo", "ri", "chang",
             "hao", "ken", "ji", "su", "won", "tae", "hyun", "ming", "wei", "hiro", "taka", "yuki", "dol", "gu"]


def synthetic(db: str, records: int) -> None:
    """An archive of `records` game rows with player names only, made by the Archive and filled by direct inserts:
    the indexes and triggers on `game` are dropped for the load and made again after it (SQLite), the player names'
    index (where the archive has one) filled from the rows as a writer opening an older archive fills it."""
    from sqlalchemy import insert, inspect

    from boardrecords import Archive
    from boardrecords.archive.core.models import GameRow

    rng = random.Random(7)
    players = sorted({f"{rng.choice(SURNAMES)} {rng.choice(SYLLABLES)}{rng.choice(SYLLABLES)}{rng.randrange(100)}"
                      for _ in range(20_000)})
    weights = [1 / (k + 1) ** 0.8 for k in range(len(players))]
    with Archive(db, create=True) as archive:
        engine = archive.engine
        table = GameRow.__table__  # type: ignore[attr-defined]
        with engine.begin() as conn:
            kept = [sql for (sql,) in conn.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE tbl_name = 'game' AND type IN ('index', 'trigger') "
                "AND sql IS NOT NULL AND name NOT LIKE 'game_text%'")]
            for kind, name in list(conn.exec_driver_sql(
                    "SELECT type, name FROM sqlite_master WHERE tbl_name = 'game' AND type IN ('index', 'trigger') "
                    "AND sql IS NOT NULL")):
                conn.exec_driver_sql(f"DROP {kind.upper()} {name}")
        done = 0
        while done < records:
            n = min(50_000, records - done)
            pairs = [rng.choices(players, weights, k=2) for _ in range(n)]
            rows = [{"sha256": f"{done + i:064x}", "raw": b"", "game": "go", "size": 19,
                     "black": b, "white": w, "black_norm": b, "white_norm": w, "black_final_norm": b,
                     "white_final_norm": w, "winner_norm": b if i % 2 else w, "winner_colour": "B" if i % 2 else "W",
                     "result_method": "resign", "result_status": "agrees", "verdict": "pass", "move_count": 200,
                     "moves": "", "opening": "", "search_text": ""} for i, (b, w) in enumerate(pairs)]
            with engine.begin() as conn:
                conn.execute(insert(table), rows)
            done += n
        with engine.begin() as conn:
            for sql in kept:
                conn.exec_driver_sql(sql)
            if inspect(conn).has_table("player_name"):
                from boardrecords.archive.core.db import NAME_COLUMNS

                conn.exec_driver_sql("INSERT OR IGNORE INTO player_name(name) SELECT n FROM ("
                                     + " UNION ".join(f"SELECT {c} AS n FROM game WHERE {c} IS NOT NULL"
                                                      for c in NAME_COLUMNS) + ")")
            conn.exec_driver_sql("ANALYZE")


def wildcard(db: str, records: int, runs: int = 40) -> list[tuple[str, float, float, int]]:
    proc, host, port = start(db)
    out = []
    try:
        for label, name in (("rare: *hyun*dol*", "*hyun*dol*"), ("prefix: lee s*", "lee s*"),
                            ("common: *ka*", "*ka*")):
            path = "/api/search?" + urlencode({"player": name, "limit": 50})
            get(host, port, path)
            times = []
            total = 0
            for _ in range(runs):
                conn = http.client.HTTPConnection(host, port, timeout=600)
                began = time.perf_counter()
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                times.append(time.perf_counter() - began)
                total = int(response.headers.get("X-Total-Count") or 0)
                conn.close()
            out.append((label, pct(times, 0.5) * 1000, pct(times, 0.99) * 1000, total))
            print(f"  wildcard {label:<20} p50 {out[-1][1]:8.1f} ms  p99 {out[-1][2]:8.1f} ms  ({total} games)",
                  flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return out


def empty_pg(url: str) -> None:
    from sqlalchemy import create_engine

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA public CASCADE")
        conn.exec_driver_sql("CREATE SCHEMA public")
    engine.dispose()


def run_import(db: str, corpus: Path) -> None:
    # exit status 1: some files of the corpus are unreadable on purpose; the others are stored
    subprocess.run([RECORDS, "import", "-q", "--db", db, str(corpus)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench_attack"))
    parser.add_argument("--corpus", type=Path, default=Path("/work/shared/corpus/go"))
    parser.add_argument("--pg", help="a PostgreSQL URL whose database may be emptied")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", default="1,4,24")
    parser.add_argument("--names", type=int, default=1_000_000)
    parser.add_argument("--skip-names", action="store_true")
    parser.add_argument("--only-names", action="store_true", help="only part 4 (with --reuse: an archive made before)")
    parser.add_argument("--reuse", action="store_true", help="keep the archives of an earlier run")
    parser.add_argument("--modes", default="apart,threads", help="apart (helper processes) and/or threads")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    clients = [int(c) for c in args.clients.split(",")]

    archives = [] if args.only_names else [("SQLite", str(args.work / "corpus.db"))]
    if args.pg and not args.only_names:
        archives.append(("PostgreSQL", args.pg))
    for label, db in archives:
        if not args.reuse or (label == "SQLite" and not Path(db).exists()):
            if label == "SQLite":
                Path(db).unlink(missing_ok=True)
            else:
                empty_pg(db)
            run_import(db, args.corpus)
    rows = []
    explorer: list[tuple[str, tuple[float, float], tuple[float, float]]] = []
    modes = {"apart": {}, "threads": {"RECORDS_HEAVY_APART": "off"}}
    for (archive, db), mode in [(a, m) for a in archives for m in args.modes.split(",")]:
        label = f"{archive}, {mode}"
        proc, host, port = start(db, modes[mode])
        try:
            for n in clients:
                r = burst(host, port, proc.pid, n, args.seconds)
                rows.append((label, r))
                print(f"{label} {n:>2} heavy: {r}", flush=True)
            paths = explorer_paths(host, port)
            idle = explorer_p99(host, port, paths, args.seconds / 2, 0)
            busy = explorer_p99(host, port, paths, args.seconds, 4)
            explorer.append((label, idle, busy))
            print(f"{label} explorer idle p50/p99 {idle[0]:.1f}/{idle[1]:.1f} ms; under 4 pattern clients "
                  f"{busy[0]:.1f}/{busy[1]:.1f} ms; load {os.getloadavg()[0]:.1f}", flush=True)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    names = []
    if not args.skip_names:
        db = str(args.work / f"names{args.names}.db")
        if not (args.reuse and Path(db).exists()):
            Path(db).unlink(missing_ok=True)
            began = time.perf_counter()
            synthetic(db, args.names)
            print(f"SQLite: {args.names} synthetic records in {time.perf_counter() - began:.0f} s", flush=True)
        names.append(("SQLite", wildcard(db, args.names)))

    print("\n| archive | heavy clients | heavy answers (status: n) | heavy p50 / max s | quick p50 / max ms "
          "| RSS idle / peak / 5 s after MB |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, r in rows:
        print(f"| {label} | {r['clients']} | {r['heavy']} | {r['heavy_p50']:.2f} / {r['heavy_max']:.2f} "
              f"| {r['quick_p50']:.1f} / {r['quick_max']:.1f} "
              f"| {r['rss_idle']:.0f} / {r['rss_peak']:.0f} / {r['rss_after']:.0f} |")
    print("\n| archive | explorer p50 / p99 idle ms | p50 / p99 under 4 pattern clients ms | ratio of p99 |")
    print("| --- | --- | --- | --- |")
    for label, idle, busy in explorer:
        print(f"| {label} | {idle[0]:.1f} / {idle[1]:.1f} | {busy[0]:.1f} / {busy[1]:.1f} | {busy[1] / idle[1]:.1f} |")
    if names:
        print(f"\n| archive ({args.names} records) | wildcard | p50 ms | p99 ms | games |")
        print("| --- | --- | --- | --- | --- |")
        for label, found in names:
            for name, p50, p99, total in found:
                print(f"| {label} | {name} | {p50:.1f} | {p99:.1f} | {total} |")
    print(f"\nload average: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
