"""Start-up of whole `records` processes, for one install or several side by side in the same run.

Usage: python benchmarks/bench_startup.py [--runs 15] [RECORDS ...]

Each RECORDS is a `records` executable (default: the one beside this Python). For each, the median wall time and
the median CPU time (user + system of the process) of `records --help`, `records verify` of one small record, and
`records search` on an archive of the bundled examples (made by that install). The installs are run alternately,
command by command, so that a slow moment of the machine falls on all of them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "go" / "capture-and-resignation.rec"


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process (its CPU from the children's resource usage)."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("records", nargs="*", default=[str(Path(sys.executable).with_name("records"))])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        commands: dict[str, dict[str, list[str]]] = {}
        for n, exe in enumerate(args.records):
            db = Path(tmp) / f"examples-{n}.db"
            subprocess.run([exe, "import", "-q", "--db", str(db), str(ROOT / "examples")], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            commands[exe] = {"records --help": [exe, "--help"],
                             "records verify ONE_FILE": [exe, "verify", str(EXAMPLE)],
                             "records search": [exe, "search", "--db", str(db)]}
        labels = list(next(iter(commands.values())))
        spent: dict[tuple[str, str], list[tuple[float, float]]] = {(e, lb): [] for e in commands for lb in labels}
        for key in spent:
            timed(commands[key[0]][key[1]])  # warm the file cache and the bytecode
        for _ in range(args.runs):
            for label in labels:
                for exe in commands:
                    spent[(exe, label)].append(timed(commands[exe][label]))
    print(f"Start-up, median of {args.runs} whole processes each (wall / CPU, ms):")
    for label in labels:
        cells = []
        for exe in commands:
            walls, cpus = zip(*spent[(exe, label)], strict=True)
            cells.append(f"{statistics.median(walls) * 1000:5.0f} / {statistics.median(cpus) * 1000:4.0f}")
        print(f"  {label:26} " + "   ".join(cells))
    for n, exe in enumerate(commands):
        print(f"  [{n}] {exe}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
