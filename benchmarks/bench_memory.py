"""Peak memory of `records verify` and `records import` as whole processes, main process and workers together.

    python benchmarks/bench_memory.py [--workers 1 2] [--case tiny big many] [--command verify import]
                                      [--out /tmp/bench-memory]

The cases are those that once took gigabytes: one 2.9 MB file of 100,000 tiny records (`tiny`), 20 files of 3 MiB of
moves (`big`; each file one long record), and 200 such files (`many`, only when named: 600 MB of input). Each
command runs as a user runs it (the installed `records`); a sampler adds up the resident memory of the command's
whole process tree every 20 ms (fork server and workers included) and reports the peak of that sum, and the peak of
the main process alone."""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

RECORDS = Path(sys.executable).with_name("records")
PAGE = 4096


def tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            pass
    return out


def rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def peak(command: list[str]) -> tuple[float, float, float]:
    """(peak MB of the whole tree, peak MB of the main process, seconds)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    top = main = 0
    while proc.poll() is None:
        pids = tree(proc.pid)
        top = max(top, sum(rss(p) for p in pids))
        main = max(main, rss(proc.pid))
        time.sleep(0.02)
    return top / 1e6, main / 1e6, time.perf_counter() - start


def make_cases(out: Path, chosen: list[str]) -> dict[str, Path]:
    random.seed(7)
    cases: dict[str, Path] = {}
    if "tiny" in chosen:
        tiny = out / "tiny"
        tiny.mkdir(parents=True, exist_ok=True)
        (tiny / "many.sgf").write_text("".join(f"(;GM[1]SZ[9]GN[{i}];B[cc])" for i in range(100_000)))
        cases["one file of 100,000 tiny records"] = tiny
    for key, count in (("big", 20), ("many", 200)):
        if key not in chosen:
            continue
        folder = out / key
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(count):
            (folder / f"big-{i:03}.sgf").write_text(_long_record(i))
        cases[f"{count} files of 3 MiB"] = folder
    return cases


def _long_record(i: int) -> str:
    letters = "abcdefghijklmnopqrs"
    moves = "".join(f";B[{random.choice(letters)}{random.choice(letters)}];W[{random.choice(letters)}"
                    f"{random.choice(letters)}]" for _ in range(3 * 1024 * 1024 // 13))
    return f"(;GM[1]SZ[19]GN[{i}]{moves})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--case", nargs="+", choices=["tiny", "big", "many"], default=["tiny", "big"])
    parser.add_argument("--command", nargs="+", choices=["verify", "import"], default=["verify", "import"])
    parser.add_argument("--out", type=Path, default=Path("/tmp/bench-memory"))
    args = parser.parse_args()
    cases = make_cases(args.out, args.case)
    print("| case | command | workers | peak MB (all processes) | peak MB (main) | seconds |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, folder in cases.items():
        for workers in args.workers:
            for command in args.command:
                db = args.out / "archive.db"
                for leftover in args.out.glob("archive.db*"):
                    leftover.unlink()
                extra = ["--db", str(db), "-q"] if command == "import" else ["--json"]
                total, main_mb, secs = peak([str(RECORDS), command, "-j", str(workers), *extra, str(folder)])
                print(f"| {name} | {command} | {workers} | {total:.0f} | {main_mb:.0f} | {secs:.1f} |")
    shutil.rmtree(args.out)


if __name__ == "__main__":
    main()
