"""What a user waits for, measured as whole `records` processes: start-up, and verify throughput on the Go corpus
beside the peer (sgfmill's parse and replay, benchmarks/peer_sgfmill.py) in the same run, alternating.

Usage: python benchmarks/bench_cli.py [--corpus PATH] [--runs 3] [--startup-runs 10]

Start-up: the median of N processes each of `python -c pass`, `records --help`, `records verify` of one small
record, and `records search` on a small archive (the bundled examples). Throughput: the median of R runs each of
`records verify --json -j 1 CORPUS`, `records verify --json CORPUS` (every CPU) and the peer, with records/s and
the ratio to the peer.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "go"
PYTHON = sys.executable
RECORDS = shutil.which("records", path=str(Path(PYTHON).parent)) or "records"


def wall(cmd: list[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, check=False)
    return time.perf_counter() - start


def median_ms(cmd: list[str], runs: int, cwd: Path | None = None) -> float:
    wall(cmd, cwd)  # warm the file cache
    return statistics.median(wall(cmd, cwd) for _ in range(runs)) * 1000


def compile_bytecode() -> None:
    """Write the project's bytecode first, as any installed copy has it after its first run: with
    PYTHONDONTWRITEBYTECODE set (some environments set it) every process would compile the sources again."""
    folders = [str(ROOT / "src" / "boardrecords" / d) for d in ("records", "verifier", "archive", "cli")]
    subprocess.run([PYTHON, "-m", "compileall", "-q", *folders], stdout=subprocess.DEVNULL, check=False)


def startup(runs: int) -> None:
    small = ROOT / "examples" / "go" / "capture-and-resignation.rec"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "small.db"
        subprocess.run([RECORDS, "import", "-q", "--db", str(db), str(ROOT / "examples")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        rows = [
            ("python -c pass", [PYTHON, "-c", "pass"]),
            ("records --help", [RECORDS, "--help"]),
            ("records verify ONE_SMALL_FILE", [RECORDS, "verify", str(small)]),
            ("records search (23 records)", [RECORDS, "search", "--db", str(db)]),
        ]
        print(f"Start-up, median of {runs} whole processes:")
        for label, cmd in rows:
            print(f"  {label:32} {median_ms(cmd, runs):7.0f} ms")


def throughput(corpus: Path, runs: int) -> None:
    files = sum(1 for _ in corpus.rglob("*.sgf"))
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    commands = {
        "records verify --json -j 1": [RECORDS, "verify", "--json", "-j", "1", str(corpus)],
        f"records verify --json (-j {cpus})": [RECORDS, "verify", "--json", str(corpus)],
        "sgfmill parse + replay (peer)": [PYTHON, str(Path(__file__).with_name("peer_sgfmill.py")), str(corpus)],
    }
    times: dict[str, list[float]] = {label: [] for label in commands}
    for _ in range(runs):  # alternating, so that a slow moment of the machine falls on all of them
        for label, cmd in commands.items():
            times[label].append(wall(cmd))
    peer = statistics.median(times["sgfmill parse + replay (peer)"])
    print(f"Verify throughput on {corpus} ({files} files), median of {runs} alternating runs:")
    for label, spent in times.items():
        t = statistics.median(spent)
        print(f"  {label:32} {t:6.2f} s {files / t:7.0f} files/s  {peer / t:5.2f}x the peer")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--startup-runs", type=int, default=10)
    args = parser.parse_args()
    compile_bytecode()
    startup(args.startup_runs)
    if args.runs and args.corpus.is_dir():
        throughput(args.corpus, args.runs)
    else:
        print(f"Go corpus not found at {args.corpus}; throughput skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
