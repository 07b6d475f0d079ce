"""The project beside Kombilo: import and pattern search on the same Go games, interleaved, as ratios.

    .venv/bin/python benchmarks/bench_kombilo.py [--corpus DIR] [--symmetries 8] [--workdir DIR] [--repeat 3]
        [--kombilo-src DIR] [--skip-import] [--only NAME,...] [--before-src DIR]

What it needs: Kombilo's sources (ugoertz/kombilo, MIT licence: a checkout or a bare git directory, --kombilo-src or
$KOMBILO_SRC; the `kombilo` 0.8.4 sdist on PyPI lacks `libkombilo.i`), SWIG 4, a C++ compiler, Boost's headers and
SQLite's (Debian: `apt-get install swig g++ libboost-dev libsqlite3-dev`). The script copies the sources into the work
folder, regenerates `libkombilo_wrap.cxx` with SWIG 4 and builds the extension in place with `CFLAGS=-std=gnu++14`
(once: a work folder that holds the build keeps it). Without them it says what is missing and measures the
project alone.

The games: the corpus's 19x19 records (the files of one game), each written in `--symmetries` of the 8 symmetries
of the board (benchmarks/bench_patterns.py's `transformed`) into the work folder. Then, with the load average
before each part:

1. Import: `records import FOLDER` (default workers, then `-j 1`) and Kombilo's `process()` of the same files (one
   process, benchmarks/peer_kombilo.py), whole processes: records a second, wall and CPU time (the process and its
   children). With `--before-src`, the earlier sources import the same files in the same run, each into an archive
   of its own. The sizes: the archives against Kombilo's files (kombilo.d*), and the bytes of each table and index
   (SQLite's dbstat).
2. Each pattern of PATTERNS, `--repeat` times, interleaved: a whole `records search --pattern ... --json` process
   against a whole Kombilo process that opens its game list and searches once (wall and CPU, the best run); and
   warm, in one process each: `Archive.pattern_search` (the archive opened once) against Kombilo's `search()` on
   its open game list (the best of `--repeat`, after one unmeasured run). The counts of both are printed side by
   side: games, appearances (Kombilo's hits), continuations in the region and those of them called tenuki.

Every ratio is the project's figure over Kombilo's (below 1: the project is faster or smaller).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_patterns import transformed  # noqa: E402

SHARED = ROOT.parent / "shared"
RECORDS = str(ROOT / ".venv" / "bin" / "records")
PEER = str(ROOT / "benchmarks" / "peer_kombilo.py")
DEFAULT_SRC = Path("/work/.mirror/ugoertz+kombilo/repo")


def board(points: dict[tuple[int, int], str], width: int, height: int | None = None) -> list[str]:
    """Rows of a pattern `width` x `height`: `.` everywhere but the (column, row) points given."""
    return ["".join(points.get((x, y), ".") for x in range(width)) for y in range(height or width)]


JOSEKI = {(3, 3): "X", (3, 2): "X", (2, 2): "O"}  # Black 4-4, Black 3-4 on its edge side, White 3-3
SHAPE = ["....", ".XO.", "..X.", "...."]
# name: (kind, rows, fixed colours). corner: the top left corner (and so, in every symmetry, all four);
# anywhere: every place where it fits, against the edges too; fullboard: the whole board.
PATTERNS: dict[str, tuple[str, list[str], bool]] = {
    "empty 7x7 corner": ("corner", board({}, 7), True),
    "empty 10x10 corner": ("corner", board({}, 10), True),
    "7x7 corner 4-4, 3-4, 3-3, fixed colours": ("corner", board(JOSEKI, 7), True),
    "7x7 corner 4-4, 3-4, 3-3, colours free": ("corner", board(JOSEKI, 7), False),
    "4x4 ..../.XO./..X./.... anywhere, fixed": ("anywhere", SHAPE, True),
    "4x4 ..../.XO./..X./.... anywhere, free": ("anywhere", SHAPE, False),
    "full board, B and W on adjacent 4-4 points": ("fullboard", board({(3, 3): "X", (15, 3): "O"}, 19), True),
}
ANCHORS = {"corner": "top-left", "anywhere": "anywhere", "fullboard": "top-left"}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} {five:.1f} {fifteen:.1f}"


def run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system of the process and its children) of one command, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd[:3])}... failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done.stdout


# -- the games ----------------------------------------------------------------------------------------------------

def go_files(corpus: Path, out: Path, symmetries: int) -> int:
    """The corpus's 19x19 records (files holding one game), each in `symmetries` symmetries, written into `out`."""
    from boardrecords.records.reader import read_file

    if out.exists():
        return sum(1 for _ in out.iterdir())
    final, out = out, out.with_name(out.name + ".part")  # renamed when complete: a stopped run leaves no half set
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    n = 0
    for path in sorted(corpus.rglob("*.sgf")):
        try:
            records = read_file(path)
        except Exception:
            continue
        if len(records) != 1 or records[0].size != 19:
            continue
        raw = path.read_text(encoding="utf-8", errors="replace")
        for number in range(symmetries):
            (out / f"{n:06d}.sgf").write_text(transformed(raw, 19, number) if number else raw, encoding="utf-8")
            n += 1
    out.rename(final)
    return n


# -- Kombilo ------------------------------------------------------------------------------------------------------

def build_kombilo(src: Path, dest: Path) -> tuple[Path | None, str]:
    """The folder to put on PYTHONPATH for Kombilo's built library, or None and what is missing."""
    if list((dest / "kombilo").glob("_libkombilo*.so")):
        return dest, "built before"
    missing = [tool for tool in ("swig", "g++") if shutil.which(tool) is None]
    if not Path("/usr/include/boost/version.hpp").exists():
        missing.append("Boost's headers (libboost-dev)")
    if not Path("/usr/include/sqlite3.h").exists():
        missing.append("SQLite's headers (libsqlite3-dev)")
    if not src.exists():
        missing.append(f"Kombilo's sources (--kombilo-src; {src} is not there)")
    if missing:
        return None, "needs " + ", ".join(missing)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if (src / "HEAD").exists() and (src / "objects").exists():  # a bare git directory: its newest commit
        tar = subprocess.run(["git", "--git-dir", str(src), "archive", "HEAD"], capture_output=True, check=True)
        subprocess.run(["tar", "x", "-C", str(dest)], input=tar.stdout, check=True)
    else:
        shutil.copytree(src, dest, dirs_exist_ok=True)
    lib = dest / "kombilo" / "libkombilo"
    subprocess.run(["swig", "-c++", "-python", "-o", "libkombilo_wrap.cxx", "libkombilo.i"], cwd=lib, check=True,
                   capture_output=True)
    env = dict(os.environ, CFLAGS="-std=gnu++14")
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=dest, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        return None, f"its build failed: {done.stderr[-1500:]}"
    return dest, "built now"


def kombilo_env(lib: Path) -> dict[str, str]:
    patterns = [[name, kind, rows, fixed] for name, (kind, rows, fixed) in PATTERNS.items()]
    return dict(os.environ, PYTHONPATH=str(lib), PATTERNS=json.dumps(patterns))


# -- sizes --------------------------------------------------------------------------------------------------------

def sqlite_parts(path: Path) -> dict[str, int]:
    """Bytes of each table and index of a SQLite file (dbstat), or {} when it is not one."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return dict(conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"))
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return {}


def print_parts(title: str, total: int, parts: dict[str, int]) -> None:
    print(f"  {title}: {total / 1e6:.1f} MB", flush=True)
    for name, size in parts.items():
        if size >= total / 200:
            print(f"    {name:40s} {size / 1e6:8.2f} MB  {100 * size / total:5.1f}%")


# -- the project's searches ---------------------------------------------------------------------------------------

def records_search_cmd(db: Path, name: str) -> list[str]:
    kind, rows, fixed = PATTERNS[name]
    cmd = [RECORDS, "search", "--pattern", "/".join(rows), "--anchor", ANCHORS[kind], "--db", str(db), "--json",
           "--limit", "20"]
    return cmd + ([] if fixed else ["--either-colour"])


def our_counts(answer: Any) -> dict[str, int]:
    """Games, appearances, continuations in the region (a move, not the line's end) and those called tenuki."""
    result = answer.result
    conts = [c for c in result.continuations if c.local is not None]
    return {"games": len(result.hits), "hits": result.appearances, "continuations": sum(c.hits for c in conts),
            "tenuki": sum(c.tenuki for c in conts)}


def warm_ours(db: Path, names: list[str], repeat: int) -> dict[str, tuple[float, float, dict[str, int]]]:
    """In this process: the archive opened once, each pattern searched once unmeasured, then `repeat` times
    (the best wall and CPU time)."""
    from boardrecords.archive.front import Archive

    out = {}
    with Archive(str(db)) as archive:
        for name in names:
            kind, rows, fixed = PATTERNS[name]
            answer = archive.pattern_search("/".join(rows), anchor=ANCHORS[kind], either_colour=not fixed,
                                            limit=20)
            walls, cpus = [], []
            for _ in range(repeat):
                start, cpu = time.perf_counter(), time.process_time()
                archive.pattern_search("/".join(rows), anchor=ANCHORS[kind], either_colour=not fixed, limit=20)
                walls.append(time.perf_counter() - start)
                cpus.append(time.process_time() - cpu)
            out[name] = (min(walls), min(cpus), our_counts(answer))
    return out


def kombilo_counts(line: dict[str, Any]) -> dict[str, int]:
    conts = line["continuations"]
    return {"games": line["games"], "hits": line["hits"], "continuations": sum(c["B"] + c["W"] for c in conts),
            "tenuki": sum(c["tB"] + c["tW"] for c in conts)}


def ratio(a: float, b: float | None) -> str:
    return f"{a / b:.2f}x" if b else "-"


def archive_path(db: Path, version: str) -> Path:
    """The archive one version imports into: `db` itself for the project as it is, beside it for the others."""
    return db if version == "records" else db.with_name(f"{db.stem}-{version}{db.suffix}")


def import_version(version: str, folder: Path, db: Path, env: dict[str, str] | None, kombilo_rate: float | None,
                   kombilo_cpu: float | None) -> None:
    """One version's `records import` of `folder`, with the default workers and with one process, against
    Kombilo's figures (records a second, CPU of one process)."""
    db.unlink(missing_ok=True)
    wall, _, _ = run([RECORDS, "import", str(folder), "--db", str(db), "-q"], env)
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT count(*) FROM game").fetchone()[0]
    conn.close()
    print(f"  {version}: records import: {stored} records, {wall:.1f} s wall, {stored / wall:.0f} records/s",
          flush=True)
    # the workers are the fork server's children, not this process's grandchildren: their CPU time is not
    # counted, so the CPU time is that of an import in one process
    one = db.with_name(f"{db.stem}-j1{db.suffix}")
    one.unlink(missing_ok=True)
    wall1, cpu, _ = run([RECORDS, "import", str(folder), "--db", str(one), "-q", "-j", "1"], env)
    one.unlink()
    print(f"  {version}: records import -j 1: {wall1:.1f} s wall, {cpu:.1f} s CPU, {stored / wall1:.0f} records/s",
          flush=True)
    if kombilo_rate:
        print(f"  {version}: ratios: records/s {(stored / wall) / kombilo_rate:.2f}x Kombilo's (default workers), "
              f"{(stored / wall1) / kombilo_rate:.2f}x (one process); CPU of one process {ratio(cpu, kombilo_cpu)}; "
              f"{load()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpus" / "go")
    ap.add_argument("--symmetries", type=int, default=8, choices=range(1, 9))
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kombilo-src", type=Path, default=Path(os.environ.get("KOMBILO_SRC", DEFAULT_SRC)))
    ap.add_argument("--skip-import", action="store_true", help="search the archives already in --workdir")
    ap.add_argument("--only", default="", help="comma-separated pattern names (default: all)")
    ap.add_argument("--before-src", type=Path, default=None,
                    help="also import and search with the package in this folder (a copy of an earlier src/)")
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-kombilo-"))
    work.mkdir(parents=True, exist_ok=True)
    names = [n for n in PATTERNS if not args.only or any(part.strip() in n for part in args.only.split(","))]
    print(f"work in {work}; {load()}", flush=True)
    lib, how = build_kombilo(args.kombilo_src, work / "kombilo-build")
    print(f"Kombilo: {how}" + ("" if lib else " -- measuring the project alone"), flush=True)
    env = kombilo_env(lib) if lib else None

    folder = work / f"games-{args.symmetries}"
    n = go_files(args.corpus, folder, args.symmetries)
    print(f"games: {n} files (the corpus's 19x19 records in {args.symmetries} symmetries)", flush=True)
    db, kdb = work / f"records-{args.symmetries}.db", work / f"kombilo-{args.symmetries}" / "kombilo.db"
    kdb.parent.mkdir(exist_ok=True)

    # the project as it is, and (--before-src) an earlier copy of its sources, interleaved with Kombilo
    versions = {"records": None} | ({"before": str(args.before_src)} if args.before_src else {})
    if not args.skip_import:
        print(f"import ({load()})", flush=True)
        kombilo_rate = None
        if env:
            kwall, kcpu, out = run([sys.executable, PEER, "import", str(kdb), str(folder)], env)
            games = json.loads(out.strip().splitlines()[-1])["games"]
            kombilo_rate = games / kwall
            print(f"  Kombilo process(): {games} games, {kwall:.1f} s wall, {kcpu:.1f} s CPU, "
                  f"{kombilo_rate:.0f} games/s", flush=True)
        for version, src in versions.items():
            import_version(version, folder, archive_path(db, version),
                           dict(os.environ, PYTHONPATH=src) if src else None, kombilo_rate, kcpu if env else None)
    for version in versions:
        path = archive_path(db, version)
        if path.exists():
            print_parts(f"archive {path.name} ({version})", path.stat().st_size, sqlite_parts(path))
    size = db.stat().st_size
    if env:
        ksize = 0
        for part in sorted(kdb.parent.glob("kombilo.d*")):
            ksize += part.stat().st_size
            inner = sqlite_parts(part)
            print_parts(f"Kombilo {part.name}", part.stat().st_size, inner or {part.name: part.stat().st_size})
        print(f"  size ratio: {ratio(size, ksize)} ({size / 1e6:.1f} MB against {ksize / 1e6:.1f} MB)", flush=True)

    print(f"searches ({load()}), best of {args.repeat}", flush=True)
    whole: dict[tuple[str, str], tuple[float, float]] = {}
    for _ in range(args.repeat):
        for name in names:
            for version, src in versions.items():
                w, c, _ = run(records_search_cmd(db, name), dict(os.environ, PYTHONPATH=src) if src else None)
                whole[version, name] = min(whole.get((version, name), (w, c)), (w, c), key=lambda t: t[1])
            if env:
                w, c, _ = run([sys.executable, PEER, "search", str(kdb), name], env)
                whole["kombilo", name] = min(whole.get(("kombilo", name), (w, c)), (w, c), key=lambda t: t[1])
    warm: dict[tuple[str, str], dict[str, Any]] = {}
    for version, src in versions.items():
        _, _, out = run([sys.executable, __file__, "--warm", str(db), "--repeat", str(args.repeat), *names],
                        dict(os.environ, PYTHONPATH=src) if src else None)
        for line in map(json.loads, out.strip().splitlines()):
            warm[version, line["name"]] = line
    if env:
        again = [nm for nm in names for _ in range(args.repeat + 1)]  # the first of each: unmeasured, as ours
        _, _, out = run([sys.executable, PEER, "search", str(kdb), *again], env)
        for line in map(json.loads, out.strip().splitlines()):
            best = warm.get(("kombilo", line["name"]))
            if best is None or line["cpu"] < best["cpu"]:
                warm["kombilo", line["name"]] = line
    print(f"  {load()}")
    print_table(names, list(versions), whole, warm)


def print_table(names: list[str], versions: list[str], whole: dict[tuple[str, str], tuple[float, float]],
                warm: dict[tuple[str, str], dict[str, Any]]) -> None:
    """One row per pattern: each version against Kombilo, CPU time (wall time beside it), whole processes and warm
    searches; then both programs' counts."""
    head = " | ".join(f"{v} / Kombilo: whole process CPU (wall) | {v} / Kombilo: warm CPU (wall)" for v in versions)
    print(f"\n| pattern | {head} | games, appearances, continuations, tenuki: records | Kombilo |")
    print("|" + " --- |" * (2 * len(versions) + 3))
    for name in names:
        cells = []
        kw, kc = whole.get(("kombilo", name), (0.0, 0.0))
        k = warm.get(("kombilo", name))
        for v in versions:
            w, c = whole[v, name]
            ours = warm[v, name]
            cells.append(f"{ratio(c, kc)} ({ratio(w, kw)}): {c:.2f} s / {kc:.2f} s")
            kcpu, kwall = (k["cpu"], k["search"]) if k else (None, None)
            cells.append(f"{ratio(ours['cpu'], kcpu)} ({ratio(ours['wall'], kwall)}): {ours['cpu']:.3f} s / "
                         f"{kcpu or 0:.3f} s")
        counts = warm[versions[0], name]["counts"]
        mine = ", ".join(str(counts[key]) for key in ("games", "hits", "continuations", "tenuki"))
        theirs = ", ".join(str(v) for v in kombilo_counts(k).values()) if k else "-"
        print(f"| {name} | {' | '.join(cells)} | {mine} | {theirs} |")
    if ("kombilo", names[0]) in warm:
        print(f"\nKombilo's time to open its game list: {warm['kombilo', names[0]]['open']:.2f} s")
    print("records' counts with the tenuki count `between`; Kombilo's tenuki are those of `--tenuki kombilo`.")


def warm_main(argv: list[str]) -> None:
    """--warm DB --repeat N NAME...: the warm searches of this process's sources, one JSON line per pattern."""
    db, repeat, names = Path(argv[0]), int(argv[2]), argv[3:]
    for name, (wall, cpu, counts) in warm_ours(db, names, repeat).items():
        print(json.dumps({"name": name, "wall": wall, "cpu": cpu, "counts": counts}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--warm"]:
        warm_main(sys.argv[2:])
    else:
        main()
