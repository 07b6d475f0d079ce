"""Verify beside its peers, as whole processes in the same run, interleaved: `records verify` (one process and the
default workers) against sgfmill's parse and replay (benchmarks/peer_sgfmill.py) and SGFC's syntax check, on the Go
corpus and on generated records of all five games.

Usage:
    python benchmarks/bench_verify.py [--corpus PATH] [--generated 100000] [--rounds 3] [--sgfc SGFC_SOURCE]
                                      [--records LABEL=PATH ...] [--per-game N]

Each round runs every contestant once on each set, in turn (the order rotates from round to round), and the figures
are the medians of the rounds: CPU time of the whole process and everything it started (user + system, the worker
pool and SGFC's processes included: this script is their subreaper, so even a worker whose parent has gone is
counted), wall time, and the load average at the start of the run. Ratios are speed ratios, the peer's time over
`records`' (above 1: `records` is faster).

- `--records LABEL=PATH` names a `records` executable to measure (repeatable: `main=/tmp/main/.venv/bin/records`
  beside `branch=.venv/bin/records` measures before and after in one run); default: the `records` beside this
  Python.
- `--generated N`: N records, a fifth of each game, written as .sgf files to a temporary folder (removed at the
  end; `--keep DIR` writes them there and keeps them, and reuses a folder written before). The games are random
  legal games the engines play (a pool of distinct games per game, each file with its own header).
- `--sgfc SOURCE`: SGFC's source tree (missdeer/sgfc); the script builds it there (`make sgfc`) and runs it once per
  file (it reads one file a process), through `xargs` (`-P` as many as the default workers for the second figure).
  Without it SGFC is skipped, with a message.
- sgfmill must be importable by this Python (`pip install sgfmill`; it is no dependency of the project): it reads
  every .sgf file and replays the main line on its Go board (for the other games it replays what it can read as Go
  moves); it has one process only, so its figure stands for both of ours.
- `--per-game N`: also, in this process, records/s and moves/s of read + verify per game over N generated records.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from boardrecords.common.workers import default_workers
from boardrecords.records.games import Game, MoveKind
from boardrecords.records.model import FormatError, Move
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import new_record, write
from boardrecords.verifier.judging.verdict import verify
from boardrecords.verifier.rules.engine import IllegalMove
from boardrecords.verifier.rules.registry import engine_for

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parents[1] / "shared" / "corpus" / "go"
SIZES = {Game.GO: 19, Game.CONVERSION_GO: 16, Game.CATION: 8, Game.QUENTIN: 8, Game.SQUER: 7}
# Distinct games played per game for the generated set (files beyond these repeat a game with a header of their own).
POOL = {Game.GO: 2000, Game.CONVERSION_GO: 150, Game.CATION: 1000, Game.QUENTIN: 1000, Game.SQUER: 1000}


# -- generated records ---------------------------------------------------------------------------------------------

def random_go(size: int, rng: random.Random, moves_wanted: int) -> tuple[list[Move], str]:
    """A random legal Go game: plays tried at random points until `moves_wanted` moves, then two passes."""
    engine = engine_for(Game.GO)(size)
    moves: list[Move] = []
    tries = 0
    while len(moves) < moves_wanted and tries < moves_wanted * 20:
        tries += 1
        colour = engine.to_move
        move = Move(colour, MoveKind.PLACE, point=(rng.randrange(size), rng.randrange(size)))
        try:
            engine.play(move)
        except IllegalMove:
            continue
        moves.append(move)
    for _ in range(2):
        move = Move(engine.to_move, MoveKind.PASS)
        engine.play(move)
        moves.append(move)
    return moves, engine.outcome().text()


def random_game(game: Game, size: int, rng: random.Random) -> tuple[list[Move], str]:
    """A random legal game of the other games, from the engine's legal moves."""
    engine = engine_for(game)(size)
    moves: list[Move] = []
    while engine.end is None and len(moves) < size * size * 2:
        legal = engine.legal_moves()
        if not legal:
            break
        plays = [m for m in legal if m.kind is not MoveKind.PASS] or legal
        if game is Game.CONVERSION_GO and len(moves) > size * size * 0.8:
            plays = [m for m in legal if m.kind is MoveKind.PASS] or plays
        move = rng.choice(plays)
        engine.play(move)
        moves.append(move)
    return moves, engine.outcome().text() if engine.outcome().finished else "?"


def generated(game: Game, count: int, seed: int = 7) -> list[bytes]:
    """`count` records of `game`: a pool of distinct random games, each file with its own players and round."""
    rng = random.Random(seed)
    size = SIZES[game]
    pool = []
    for _ in range(min(count, POOL[game])):
        if game is Game.GO:
            pool.append(random_go(size, rng, rng.randrange(120, 300)))
        else:
            pool.append(random_game(game, size, rng))
    written = [write(new_record(game, size, moves, result=result, black="Black", white="White"))
               for moves, result in pool]
    return [written[n % len(written)].replace(b"PB[Black]", b"PB[Black %d]" % n, 1)
            .replace(b"PW[White]", b"PW[White %d]" % n, 1) for n in range(count)]


def write_generated(folder: Path, total: int) -> Path:
    """`total` records, a fifth of each game, under folder/GAME/; a folder written before is used again."""
    done = folder / "DONE"
    if done.exists() and done.read_text() == str(total):
        return folder
    for game in Game:
        sub = folder / game.value
        sub.mkdir(parents=True, exist_ok=True)
        for n, blob in enumerate(generated(game, total // len(Game))):
            (sub / f"{n:06}.sgf").write_bytes(blob)
    done.write_text(str(total))
    return folder


# -- whole processes -------------------------------------------------------------------------------------------------

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Orphaned descendants (a worker pool's fork server once its parent is gone) become this process's children, so
    that their CPU time is counted (Linux); False where that cannot be had."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@dataclass
class Run:
    cpu: float
    wall: float
    load: float


def measure(cmd: list[str], stdin: Path | None = None) -> Run:
    """CPU (user + system, of the process and all it started) and wall time of one whole process."""
    load = os.getloadavg()[0]
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as feed:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=feed, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
    proc.returncode = 0  # reaped above
    cpu = usage.ru_utime + usage.ru_stime
    while True:  # orphans left to this subreaper: their time is the run's too
        try:
            _, _, more = os.wait4(-1, 0)
        except ChildProcessError:
            break
        cpu += more.ru_utime + more.ru_stime
    return Run(cpu, elapsed, load)


@dataclass
class Contestant:
    name: str
    command: Callable[[Path], list[str]]
    stdin: Callable[[Path], Path | None] = lambda folder: None
    runs: dict[str, list[Run]] = field(default_factory=dict)


def build_sgfc(source: Path) -> Path | None:
    """SGFC built in its source tree (its Makefile leaves the program in src/), or None with a message."""
    if not (source / "Makefile").exists():
        print(f"SGFC skipped: no SGFC source tree at {source}")
        return None
    built = [source / "src" / "sgfc", source / "sgfc"]
    if not any(b.exists() for b in built):
        print(f"building SGFC in {source} (make sgfc)")
        subprocess.run(["make", "-C", str(source), "sgfc"], stdout=subprocess.DEVNULL, check=False)
    binary = next((b for b in built if b.exists()), None)
    if binary is None:
        print("SGFC skipped: it did not build")
    return binary


def file_list(folder: Path) -> Path:
    """The .sgf files under `folder`, NUL-separated, for xargs (made once per folder)."""
    out = Path(tempfile.gettempdir()) / f"bench-verify-{abs(hash(str(folder)))}.list"
    if not out.exists():
        out.write_bytes(b"".join(bytes(p) + b"\0" for p in sorted(folder.rglob("*.sgf"))))
    return out


def contestants(records: list[tuple[str, str]], sgfc: Path | None, workers: int) -> list[Contestant]:
    out = []
    for label, exe in records:
        out.append(Contestant(f"records {label} -j 1", lambda d, exe=exe: [exe, "verify", "-q", "-j", "1", str(d)]))
        out.append(Contestant(f"records {label} -j default", lambda d, exe=exe: [exe, "verify", "-q", str(d)]))
    out.append(Contestant("sgfmill parse+replay", lambda d: [sys.executable, str(HERE / "peer_sgfmill.py"), str(d)]))
    if sgfc is not None:
        out.append(Contestant("SGFC check, 1 process", lambda d: ["xargs", "-0", "-n", "1", str(sgfc)], file_list))
        out.append(Contestant(f"SGFC check, -P {workers}", lambda d: ["xargs", "-0", "-n", "1", "-P", str(workers),
                                                                     str(sgfc)], file_list))
    return out


def compare(sets: dict[str, Path], people: list[Contestant], rounds: int) -> None:
    for r in range(rounds):
        order = people[r % len(people):] + people[:r % len(people)]
        for name, folder in sets.items():
            for c in order:
                run = measure(c.command(folder), c.stdin(folder))
                c.runs.setdefault(name, []).append(run)
                # each run as it ends, so that a long benchmark shows what it has measured so far
                print(f"    {name[:40]:40} {c.name:28} CPU {run.cpu:7.2f} s, wall {run.wall:7.2f} s, "
                      f"load {run.load:.2f}",
                      flush=True)
        print(f"  round {r + 1} of {rounds} done (load {os.getloadavg()[0]:.2f})", flush=True)
    for name in sets:
        print(f"\n{name}: median of {rounds} rounds")
        print(f"  {'':28} {'CPU s':>8} {'wall s':>8} {'load':>6}")
        med = {}
        for c in people:
            runs = c.runs[name]
            med[c.name] = (statistics.median(x.cpu for x in runs), statistics.median(x.wall for x in runs))
            print(f"  {c.name:28} {med[c.name][0]:8.2f} {med[c.name][1]:8.2f} "
                  f"{statistics.median(x.load for x in runs):6.2f}")
        ours = [c.name for c in people if c.name.startswith("records ")]
        peers = [c.name for c in people if not c.name.startswith("records ")]
        print("  speed ratios, peer's time / records' time (CPU, wall):")
        for o in ours:
            cells = [f"{p.split()[0]} {med[p][0] / med[o][0]:.2f}x, {med[p][1] / med[o][1]:.2f}x" for p in peers
                     if p.startswith("sgfmill") or p.endswith("1 process") == o.endswith("-j 1")]
            print(f"    {o:28} " + "; ".join(cells))


# -- in this process, per game ---------------------------------------------------------------------------------------

def ours(blobs: list[bytes]) -> tuple[int, int]:
    records = moves = 0
    for blob in blobs:
        try:
            parsed = read_bytes(blob)
        except FormatError:
            continue
        for record in parsed:
            verdict = verify(record)
            records += 1
            moves += verdict.moves_replayed
    return records, moves


def per_game(count: int) -> None:
    print(f"In this process, read + verify, {count} generated records per game:")
    for game in Game:
        blobs = generated(game, count)
        start = time.process_time()
        r, m = ours(blobs)
        t = time.process_time() - start
        print(f"  {game.value:14} {SIZES[game]:2}x{SIZES[game]:<2} {r / t:8.0f} records/s {m / t:9.0f} moves/s"
              f"  ({m / max(r, 1):.0f} moves per record)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--generated", type=int, default=100_000, help="generated records (0: none)")
    parser.add_argument("--keep", type=Path, help="write the generated records here and keep them")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sgfc", type=Path, help="SGFC's source tree (built there with make sgfc)")
    parser.add_argument("--records", action="append", default=[], metavar="LABEL=PATH")
    parser.add_argument("--per-game", type=int, default=0)
    args = parser.parse_args()

    mine = shutil.which("records", path=str(Path(sys.executable).parent)) or "records"
    records = [tuple(x.split("=", 1)) for x in args.records] or [("", mine)]
    if any(len(x) != 2 for x in records):
        parser.error("--records takes LABEL=PATH")
    sgfc = build_sgfc(args.sgfc) if args.sgfc else None
    if args.sgfc is None:
        print("SGFC skipped: give its source tree with --sgfc (missdeer/sgfc)")
    if not become_subreaper():
        print("note: not a subreaper here; a worker orphaned before it ends is not counted")
    workers = default_workers()
    print(f"{os.cpu_count()} CPUs, default workers {workers}; load average at start "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))

    sets: dict[str, Path] = {}
    if args.corpus.is_dir():
        sets[f"Go corpus {args.corpus}"] = args.corpus
    else:
        print(f"Go corpus not found at {args.corpus}; skipping it")
    tmp = None
    if args.generated:
        folder = args.keep or Path(tmp := tempfile.mkdtemp(prefix="bench-verify-"))
        start = time.perf_counter()
        write_generated(folder, args.generated)
        print(f"{args.generated} generated records in {folder} ({time.perf_counter() - start:.0f} s to write)")
        sets[f"{args.generated} generated records of the five games"] = folder
    try:
        compare(sets, contestants(records, sgfc, workers), args.rounds)  # type: ignore[arg-type]
        if args.per_game:
            per_game(args.per_game)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        for name in sets.values():
            Path(tempfile.gettempdir(), f"bench-verify-{abs(hash(str(name)))}.list").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
