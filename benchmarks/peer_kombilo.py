"""The peer: what Kombilo's library (libkombilo, ugoertz/kombilo, MIT licence) does for `records import` and
`records search --pattern`, run as its own process by benchmarks/bench_kombilo.py.

    python benchmarks/peer_kombilo.py import DB FOLDER        # process every .sgf under FOLDER into DB (kombilo.d*)
    python benchmarks/peer_kombilo.py search DB NAME [NAME..]  # open DB, search each named pattern (one process)

`import` prints one JSON line {"games", "seconds", "cpu"}; `search` one line per pattern {"name", "games", "hits",
"switched", "continuations", "open", "search", "cpu"}: the time to open the game list and the time of `search()`
alone, wall seconds, and the CPU time of `search()` (all its threads). Kombilo's library must be importable
(PYTHONPATH= the folder that holds its built `kombilo` package); bench_kombilo.py builds it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from kombilo import libkombilo as lk  # type: ignore[import-not-found]

# name: (kind, rows, fixed colours). Kinds: corner (top left corner, all symmetries), anywhere, fullboard.
# The same list as bench_kombilo.PATTERNS (kept here too: this script runs without the project installed).
PATTERNS: dict[str, tuple[str, list[str], bool]] = {}


def load_patterns() -> None:
    PATTERNS.update({name: (kind, rows, fixed) for name, kind, rows, fixed in json.loads(os.environ["PATTERNS"])})


def open_list(db: str) -> lk.GameList:
    return lk.GameList(db, "", "[[id]]", lk.ProcessOptions(), 19, 5000)


def do_import(db: str, folder: str) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    for old in Path(db).parent.glob(Path(db).stem + ".d*"):
        old.unlink()
    gl = open_list(db)
    gl.start_processing()
    gls = lk.vectorGL()
    for path in sorted(Path(folder).rglob("*.sgf")):
        sgf = path.read_bytes().decode("utf-8", errors="replace")
        try:
            gl.process(sgf, str(path.parent), path.name, gls, "", lk.CHECK_FOR_DUPLICATES)
        except Exception:  # an SGF error: Kombilo skips the file
            continue
    gl.finalize_processing()
    games = gl.size_all()
    print(json.dumps({"games": games, "seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu}))


def make_pattern(kind: str, rows: list[str]) -> lk.Pattern:
    sy, sx = len(rows), len(rows[0])
    ipos = "".join(rows)
    if kind == "corner":
        return lk.Pattern(lk.CORNER_NW_PATTERN, 19, sx, sy, ipos)
    if kind == "fullboard":
        return lk.Pattern(lk.FULLBOARD_PATTERN, 19, 19, 19, ipos)
    # anywhere: every place where it fits, edges too (Kombilo's CENTER_PATTERN keeps off the edges)
    return lk.Pattern(0, 19 - sx, 0, 19 - sy, 19, sx, sy, ipos)


def continuations(gl: lk.GameList, sx: int, sy: int) -> list[dict[str, int]]:
    out = []
    for y in range(sy):
        for x in range(sx):
            if gl.lookupLabel(x, y) != ".":
                c = gl.lookupContinuation(x, y)
                out.append({"x": x, "y": y, "B": c.B, "W": c.W, "tB": c.tB, "tW": c.tW,
                            "wB": c.wB, "lB": c.lB, "wW": c.wW, "lW": c.lW})
    return out


def do_search(db: str, names: list[str]) -> None:
    load_patterns()
    start = time.perf_counter()
    gl = open_list(db)
    opened = time.perf_counter() - start
    for name in names:
        kind, rows, fixed = PATTERNS[name]
        gl.reset()
        so = lk.SearchOptions(1 if fixed else 0, 0, 10000)
        so.searchInVariations = False  # the main line only, as `records` reads a record
        pattern = make_pattern(kind, rows)
        t0, c0 = time.perf_counter(), time.process_time()
        gl.search(pattern, so)
        took, cpu = time.perf_counter() - t0, time.process_time() - c0  # cpu: all its threads (OpenMP)
        print(json.dumps({"name": name, "games": gl.size(), "hits": gl.num_hits, "switched": gl.num_switched,
                          "continuations": continuations(gl, len(rows[0]), len(rows)), "open": opened,
                          "search": took, "cpu": cpu}), flush=True)


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[0] == "import":
        do_import(argv[1], argv[2])
        return 0
    if len(argv) >= 3 and argv[0] == "search":
        do_search(argv[1], argv[2:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
