"""`records serve` benchmark: real HTTP requests against the running server (SQLite).

    .venv/bin/python benchmarks/bench_serve.py [--records 100000] [--work DIR] [--corpus DIR] [--reuse]
                                               [--runs 20] [--clients 50]

1. The archive: the records of benchmarks/bench_positions.py (the Go corpus and random legal games of all five
   games, with their symmetric copies until there are `--records`), imported by `records import` (with
   `--reuse`: the files and archive of an earlier run of this script or of bench_positions.py are kept).
2. Start-up: `records serve --port 0` as a whole process, until it answers its first request (3 times, p50).
3. Latency over HTTP (one keep-alive connection, `--runs` requests each, p50 and p99): `/api/explore` and the
   explorer page at depths 0..10 of 5 Go games, the games page's first page, `/api/search`; the game pages of the
   20 longest Go games at their first view (made by a replay of every move) and again (kept), `/api/show/ID`.
4. `--clients` concurrent clients, each asking 20 questions of every kind: errors (must be 0), requests/s, p50 and
   p99.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_positions

RECORDS = str(Path(sys.executable).with_name("records"))


def start(db: Path | str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str, int, float]:
    """`records serve` on a free port (with `env` added to the environment): the process, its host, its port and
    the seconds until it answered."""
    began = time.perf_counter()
    proc = subprocess.Popen([RECORDS, "serve", "--db", str(db), "--port", "0"], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, env={**os.environ, **(env or {})})
    assert proc.stderr is not None
    line = proc.stderr.readline()
    found = re.search(r"http://([^:/]+):(\d+)/", line)
    if not found:
        proc.kill()
        raise SystemExit(f"records serve did not start: {line}{proc.stderr.read()}")
    host, port = found.group(1), int(found.group(2))
    threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep its log from filling the pipe
    conn = http.client.HTTPConnection(host, port, timeout=60)
    conn.request("GET", "/api/search?limit=1")
    conn.getresponse().read()
    conn.close()
    return proc, host, port, time.perf_counter() - began


def timed(conn: http.client.HTTPConnection, path: str) -> tuple[float, int]:
    began = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    return time.perf_counter() - began, response.status


def quantiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000


def paths(games: list[list[str]], depth: int, *, page: bool) -> list[str]:
    route = "/explore" if page else "/api/explore"
    return [f"{route}?{urlencode({'game': 'go', 'size': 19, 'moves': ','.join(g[:depth])})}" for g in games]


def latency(host: str, port: int, games: list[list[str]], runs: int, game_ids: list[int]
            ) -> list[tuple[str, float, float]]:
    conn = http.client.HTTPConnection(host, port, timeout=60)
    rows: list[tuple[str, float, float]] = []

    def measure(label: str, asked: list[str], *, warm: bool = True, repeat: int = runs) -> None:
        for p in asked if warm else ():  # warm: the first answer of each question is not counted
            timed(conn, p)
        times = []
        for _ in range(repeat):
            for p in asked:
                seconds, status = timed(conn, p)
                assert status == 200, (p, status)
                times.append(seconds)
        p50, p99 = quantiles(times)
        rows.append((label, p50, p99))
        print(f"{label:<34} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   ({len(times)} requests)")
        sys.stdout.flush()

    for depth in range(11):
        measure(f"/api/explore depth {depth}", paths(games, depth, page=False))
    for depth in (0, 5, 10):
        measure(f"explorer page depth {depth}", paths(games, depth, page=True))
    measure("games page (first 50)", ["/games"])
    measure("games page, player filter", ["/games?player=Player+00*"])
    measure("/api/search first 50", ["/api/search"])
    # The longest games: a game page is made once (a replay of every move), then kept while the server runs.
    measure("game page, first view", [f"/games/{i}" for i in game_ids], warm=False, repeat=1)
    measure("game page, again", [f"/games/{i}" for i in game_ids[:5]])
    measure("/api/show/ID", [f"/api/show/{i}" for i in game_ids[:5]])
    conn.close()
    return rows


def concurrent(host: str, port: int, games: list[list[str]], clients: int, game_id: int) -> None:
    asked = [*paths(games, 3, page=False), *paths(games, 7, page=True), "/games", f"/games/{game_id}",
             "/api/search?player=Player+01*"]
    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        conn = http.client.HTTPConnection(host, port, timeout=120)
        mine = []
        for i in range(20):
            p = asked[(n + i) % len(asked)]
            try:
                seconds, status = timed(conn, p)
                mine.append(seconds)
                if status != 200:
                    with lock:
                        errors.append(f"{p}: {status}")
            except Exception as exc:
                with lock:
                    errors.append(f"{p}: {exc!r}")
                conn.close()
                conn = http.client.HTTPConnection(host, port, timeout=120)
        conn.close()
        with lock:
            times.extend(mine)

    began = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - began
    p50, p99 = quantiles(times) if times else (0.0, 0.0)
    print(f"{clients} concurrent clients: {len(times)} requests in {wall:.1f} s ({len(times) / wall:.0f}/s), "
          f"{len(errors)} errors, p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    for e in errors[:5]:
        print("  ", e)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench_serve"))
    parser.add_argument("--corpus", type=Path, default=bench_positions.DEFAULT_CORPUS)
    parser.add_argument("--reuse", action="store_true", help="keep the files and archive of an earlier run")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()

    work: Path = args.work
    folder = work / f"files{args.records}"
    db = work / f"index{args.records}.db"
    bases = bench_positions.base_records(args.corpus)
    # An archive grown by bench_positions.py --scale has no files of its own.
    if not (args.reuse and (folder.exists() or db.exists())):
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
        bench_positions.write_files(folder, bases, args.records)
    if not (args.reuse and db.exists()):
        seconds = bench_positions.run_import(folder, db, index=True, workers=None)
        print(f"{args.records} records imported in {seconds:.0f} s")
    games = bench_positions.lines(bases, 5)
    print(f"archive: {db} ({db.stat().st_size / 1e6:.0f} MB), load {os.getloadavg()[0]:.2f}")

    startups = []
    for _ in range(3):
        proc, _, _, seconds = start(db)
        startups.append(seconds)
        proc.terminate()
        proc.wait(timeout=30)
    print(f"start-up until the first answer: p50 {statistics.median(startups) * 1000:.0f} ms "
          f"({', '.join(f'{s * 1000:.0f}' for s in startups)})")
    proc, host, port, _ = start(db)
    try:
        conn = http.client.HTTPConnection(host, port, timeout=60)
        conn.request("GET", "/api/search?limit=40&sort=-moves&game=go")
        import json

        game_ids = [g["id"] for g in json.loads(conn.getresponse().read())]
        conn.close()
        latency(host, port, games, args.runs, game_ids[:20])
        concurrent(host, port, games, args.clients, game_ids[-1])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
