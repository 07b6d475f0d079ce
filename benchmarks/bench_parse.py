"""Reading throughput: the record reader on the whole Go corpus, next to sgfmill on the same files in the same run.

Usage: python benchmarks/bench_parse.py [--corpus PATH] [--runs 3] [--big]

Every `.sgf` file of the corpus is read into memory first; then, `--runs` times each, alternating:
- ours: `read_bytes` (game trees, typed header, every node's typed move; positions are kept as offsets);
- sgfmill: `Sgf_game.from_bytes` (game tree; values are left undecoded until asked for).
Prints games/s, MB/s and moves/s (median of the runs, CPU time of this process) and the ratio.
With `--big`, also reads a generated 50 MB collection and prints its time and the peak RSS.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

from boardrecords.records.model import FormatError
from boardrecords.records.reader import read_bytes

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "go"


def ours(files: list[bytes]) -> int:
    games = 0
    for data in files:
        try:
            games += len(read_bytes(data))
        except FormatError:
            continue
    return games


def theirs(files: list[bytes]) -> int:
    from sgfmill import sgf

    games = 0
    for data in files:
        try:
            sgf.Sgf_game.from_bytes(data)
        except ValueError:
            continue
        games += 1
    return games


def main_line_moves(files: list[bytes]) -> int:
    """The moves our reader typed on the main lines (counted outside the timed runs)."""
    total = 0
    for data in files:
        try:
            total += sum(len(r.moves()) for r in read_bytes(data))
        except FormatError:
            continue
    return total


def big_collection() -> bytes:
    """About 50 MB of plain 19x19 games (many moves, few comments): the hardest case for memory."""
    game = (b"(;FF[4]GM[1]SZ[19]PB[Black]PW[White]RE[B+R]\n"
            + b"".join(b";B[%c%c];W[%c%c]" % (97 + i % 19, 97 + i // 19, 115 - i % 19, 115 - i // 19)
                       for i in range(100)) + b")\n")
    return game * (50_000_000 // len(game) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big", action="store_true", help="also read a generated 50 MB collection")
    args = parser.parse_args(argv)
    paths = sorted(args.corpus.rglob("*.sgf"))
    if not paths:
        print(f"no .sgf files under {args.corpus}", file=sys.stderr)
        return 2
    files = [p.read_bytes() for p in paths]
    megabytes = sum(map(len, files)) / 1e6
    print(f"{len(files)} files, {megabytes:.2f} MB, Python {sys.version.split()[0]}, median of {args.runs} runs "
          "(CPU time)")
    moves = main_line_moves(files)
    contenders = {"ours (read_bytes)": ours, "sgfmill (Sgf_game.from_bytes)": theirs}
    times: dict[str, list[float]] = {name: [] for name in contenders}
    games: dict[str, int] = {}
    for _ in range(args.runs):  # alternating, so that both see the same conditions
        for name, fn in contenders.items():
            start = time.process_time()
            games[name] = fn(files)
            times[name].append(time.process_time() - start)
    rates = {}
    for name in contenders:
        seconds = statistics.median(times[name])
        rates[name] = games[name] / seconds
        print(f"{name:32} {games[name]:5} games in {seconds:6.2f} s: {rates[name]:7,.0f} games/s, "
              f"{megabytes / seconds:5.2f} MB/s, {moves / seconds:9,.0f} moves/s")
    ours_rate, theirs_rate = rates.values()
    print(f"ratio ours / sgfmill: {ours_rate / theirs_rate:.2f} ({moves:,} main-line moves)")
    if args.big:
        data = big_collection()
        start = time.perf_counter()
        records = read_bytes(data, "big.sgf")
        seconds = time.perf_counter() - start
        moves = sum(len(r.moves()) for r in records)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"50 MB collection: {len(records):,} records, {moves:,} moves in {seconds:.1f} s "
              f"({len(data) / 1e6 / seconds:.1f} MB/s), peak RSS {rss:,.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
