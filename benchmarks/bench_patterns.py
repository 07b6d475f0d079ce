"""Pattern search benchmark: import throughput with and without the change lists, and `records search --pattern`
latency (whole processes) on archives grown to --records games.

    .venv/bin/python benchmarks/bench_patterns.py [--corpus DIR] [--records 100000] [--import-files 8000]
        [--others 100000] [--base-others 400] [--workdir DIR] [--games go,cation,...]
        [--search ROWS@ANCHOR ... [--repeat 5]]

Go: every corpus record is written under each of the 8 symmetries of the board (the moves and setup stones moved,
the rest as it was), which gives about 39,000 distinct records. `--import-files` of them are imported twice by
`records import` processes, with RECORDS_PATTERNS=off and with the change lists; then all of them are imported and
the archive is grown to --records by copying game rows and change lists in SQL (new hashes, same games: a search
costs what it costs on real games). 20 corner patterns (7x7, 6-10 stones, every point of the region required, taken
from real positions) and 20 4x4 shapes anywhere on the board (3-6 stones) are searched, each by one
`records search --pattern` process; p50 and the worst in seconds. `--search ROWS@ANCHOR` (repeatable) times those
patterns instead, each `--repeat` times (the median and the best); `--records 0` keeps the archive as imported, and
a `--workdir` that already holds go.db is searched as it is (the wall and the CPU time of each process).

The other games: --base-others random legal games from the engines (the generator of the property tests), imported
and grown the same way; corner patterns of a third of the board and 3x3 shapes anywhere.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boardrecords.archive.core.db import make_engine  # noqa: E402
from boardrecords.archive.core.models import GameRow  # noqa: E402
from boardrecords.records.games import SPECS, Game  # noqa: E402
from boardrecords.records.reader import read_file  # noqa: E402
from boardrecords.verifier.judging.replay import Replay  # noqa: E402
from boardrecords.verifier.keys.patterns import pattern_of_board  # noqa: E402
from boardrecords.verifier.keys.symmetry import all_symmetries  # noqa: E402

SHARED = ROOT.parent / "shared"
RECORDS = str(ROOT / ".venv" / "bin" / "records")
_PROP = re.compile(r"(?<![A-Za-z])(AB|AW|AE|B|W)((?:\s*\[[a-zA-Z]{2}\])+)")
OTHER_SIZES = {Game.CONVERSION_GO: 9, Game.CATION: 8, Game.QUENTIN: 9, Game.SQUER: 8}


def transformed(raw: str, size: int, number: int) -> str:
    sym = all_symmetries(size)[number]

    def point(m: re.Match[str]) -> str:
        v = m[1]
        x, y = ord(v[0]) - 97, ord(v[1]) - 97
        if not (0 <= x < size and 0 <= y < size):
            return m[0]  # a pass (tt) or a point off the board stays as written
        x, y = sym.point((x, y))
        return f"[{chr(97 + x)}{chr(97 + y)}]"

    return _PROP.sub(lambda m: m[1] + re.sub(r"\[([a-zA-Z]{2})\]", point, m[2]), raw)


def go_files(corpus: Path, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for path in sorted(corpus.rglob("*.sgf")):
        try:
            records = read_file(path)
        except Exception:
            continue
        if len(records) != 1:
            continue
        raw = path.read_text(encoding="utf-8", errors="replace")
        for number in range(8):
            dest = out / f"{len(files):06d}.sgf"
            dest.write_text(transformed(raw, records[0].size, number) if number else raw, encoding="utf-8")
            files.append(dest)
    return files


def import_files(files: list[Path], db: Path, *, patterns: bool) -> tuple[int, float]:
    folder = db.parent / f"in-{db.stem}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    for f in files:
        os.symlink(f, folder / f.name)
    env = dict(os.environ, RECORDS_PATTERNS="on" if patterns else "off")
    start = time.perf_counter()
    subprocess.run([RECORDS, "import", str(folder), "--db", str(db), "-q"], env=env, check=False,
                   stdout=subprocess.DEVNULL)
    took = time.perf_counter() - start
    engine = make_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        n = conn.execute(text("SELECT count(*) FROM game")).scalar() or 0
    engine.dispose()
    return int(n), took


def grow(db: Path, target: int) -> int:
    """Copy game rows and their change lists until the archive holds `target` games (new ids and hashes)."""
    engine = make_engine(f"sqlite:///{db}")
    cols = [c.name for c in GameRow.__table__.columns]  # type: ignore[attr-defined]
    with engine.begin() as conn:
        base = int(conn.execute(text("SELECT max(id) FROM game")).scalar() or 0)
        have = int(conn.execute(text("SELECT count(*) FROM game")).scalar() or 0)
        copy = 1
        while have < target:
            off = copy * base
            take = min(base, target - have)
            picked = ", ".join(f"id + {off}" if c == "id" else f"sha256 || '-{copy}'" if c == "sha256" else c
                               for c in cols)
            conn.execute(text(f"INSERT INTO game ({', '.join(cols)}) SELECT {picked} FROM game "
                              f"WHERE id <= {take}"))
            conn.execute(text(f"INSERT INTO pattern_line (game_id, game, size, plies, black, white, changes) "
                              f"SELECT game_id + {off}, game, size, plies, black, white, changes FROM pattern_line "
                              f"WHERE game_id <= {take}"))
            have = int(conn.execute(text("SELECT count(*) FROM game")).scalar() or 0)
            copy += 1
    with engine.begin() as conn:
        conn.execute(text("ANALYZE"))
    engine.dispose()
    return have


def patterns_of(records: list, rng: random.Random, count: int, *, corner: int | None, shape: int,
                stones: tuple[int, int]) -> list[tuple[str, str]]:
    """(rows, anchor): corner regions of `corner` points a side, or `shape`-sided regions anywhere, from positions
    the records reached, with a number of stones in `stones`."""
    out: list[tuple[str, str]] = []
    seen = set()
    tries = 0
    while len(out) < count and tries < 20000:
        tries += 1
        record = rng.choice(records)
        run = Replay(record)
        stop = rng.randrange(8, 60)
        rows = run.engine.rows()
        for s in run:
            if s.illegal is not None or s.number > stop:
                break
            rows = run.engine.rows()
        size = record.size
        if corner:
            w = corner
            x = rng.choice((0, size - w))
            y = rng.choice((0, size - w))
            anchor = "-".join(["top" if y == 0 else "bottom", "left" if x == 0 else "right"])
        else:
            w = shape
            x, y = rng.randrange(1, size - w), rng.randrange(1, size - w)
            anchor = "anywhere"
        p = pattern_of_board(rows, x, y, x + w - 1, y + w - 1, anchor=anchor)
        if not stones[0] <= p.stones <= stones[1] or p.text in seen:
            continue
        seen.add(p.text)
        out.append((p.text, anchor))
    return out


def time_searches(db: Path, game: Game, size: int, pats: list[tuple[str, str]]) -> list[float]:
    times = []
    for rows, anchor in pats:
        start = time.perf_counter()
        subprocess.run([RECORDS, "search", "--pattern", rows, "--anchor", anchor, "--game", game.value, "--size",
                        str(size), "--db", str(db), "--json", "--limit", "20"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def time_given(db: Path, game: Game, size: int, given: list[str], repeat: int) -> None:
    """Each ROWS@ANCHOR pattern searched `repeat` times, one process each: the median and the best of the wall
    time and of the CPU time of the process (user and system: less moved by other work on the machine)."""
    import resource

    for item in given:
        rows, _, anchor = item.partition("@")
        walls, cpus = [], []
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            walls += time_searches(db, game, size, [(rows, anchor or "anywhere")])
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        print(f"  {rows} ({anchor or 'anywhere'}): {repeat} runs, wall median {statistics.median(walls):.2f} s, "
              f"best {min(walls):.2f} s; CPU median {statistics.median(cpus):.2f} s, best {min(cpus):.2f} s",
              flush=True)


def summary(name: str, times: list[float]) -> None:
    if not times:
        return
    print(f"  {name}: {len(times)} patterns, p50 {statistics.median(times):.2f} s, worst {max(times):.2f} s",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpus" / "go")
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--import-files", type=int, default=8000)
    ap.add_argument("--others", type=int, default=100_000)
    ap.add_argument("--base-others", type=int, default=400)
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--games", default="go,conversion-go,cation,quentin,squer")
    ap.add_argument("--corners", type=int, default=20, help="corner patterns per game")
    ap.add_argument("--shapes", type=int, default=20, help="shapes anywhere per game")
    ap.add_argument("--search", action="append", default=[], metavar="ROWS@ANCHOR",
                    help="time this Go 19x19 pattern instead of the random ones (repeatable)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each --search pattern")
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-patterns-"))
    work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2024)
    wanted = {g.strip() for g in args.games.split(",")}
    print(f"work in {work}", flush=True)

    if "go" in wanted and args.search and (work / "go.db").exists():
        time_given(work / "go.db", Game.GO, 19, args.search, args.repeat)  # the archive as it is
        return
    if "go" in wanted:
        files = go_files(args.corpus, work / "go-files")
        print(f"Go: {len(files)} record files (the corpus under 8 symmetries)", flush=True)
        part = files[:args.import_files]
        for label, on in (("without change lists", False), ("with change lists", True))[:2 if part else 0]:
            db = work / f"import-{'on' if on else 'off'}.db"
            db.unlink(missing_ok=True)
            n, took = import_files(part, db, patterns=on)
            print(f"  import {n} records {label}: {took:.1f} s, {n / took:.0f} records/s", flush=True)
        db = work / "go.db"
        if not db.exists():
            n, took = import_files(files, db, patterns=True)
            print(f"  import all {n} records with change lists: {took:.1f} s, {n / took:.0f} records/s", flush=True)
        total = grow(db, args.records)
        print(f"  archive: {total} records, {db.stat().st_size / 1e6:.0f} MB", flush=True)
        if args.search:
            time_given(db, Game.GO, 19, args.search, args.repeat)
            return
        sample = [r for f in rng.sample(files, 300) for r in read_file(f) if r.size == 19]
        corner = patterns_of(sample, rng, args.corners, corner=7, shape=0, stones=(6, 10))
        shapes = patterns_of(sample, rng, args.shapes, corner=None, shape=4, stones=(3, 6))
        summary("7x7 corner", time_searches(db, Game.GO, 19, corner))
        summary("4x4 anywhere", time_searches(db, Game.GO, 19, shapes))

    sys.path.insert(0, str(ROOT))
    from boardrecords.records.writer import new_record, write
    from tests.verifier.test_verify_properties import random_game

    for game, size in OTHER_SIZES.items():
        if game.value not in wanted:
            continue
        folder = work / f"{game.value}-files"
        folder.mkdir(exist_ok=True)
        start = time.perf_counter()
        made = []
        for k in range(args.base_others):
            moves, _ = random_game(game, size, 7919 * k + 1)
            path = folder / f"{k:05d}.rec"
            path.write_bytes(write(new_record(game, size, moves, black=f"P{k % 97}", white=f"Q{k % 89}")))
            made.append(path)
        print(f"{SPECS[game].title} {size}x{size}: {len(made)} random games made in "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        db = work / f"{game.value}.db"
        db.unlink(missing_ok=True)
        n, took = import_files(made, db, patterns=True)
        print(f"  import {n} records with change lists: {n / took:.0f} records/s", flush=True)
        total = grow(db, args.others)
        print(f"  archive: {total} records", flush=True)
        sample = [read_file(p)[0] for p in made[:200]]
        side = max(3, size // 3)
        corner = patterns_of(sample, rng, args.corners, corner=side, shape=0, stones=(2, side * side // 2))
        shapes = patterns_of(sample, rng, args.shapes, corner=None, shape=3, stones=(2, 6))
        summary(f"{side}x{side} corner", time_searches(db, game, size, corner))
        summary("3x3 anywhere", time_searches(db, game, size, shapes))


if __name__ == "__main__":
    main()
