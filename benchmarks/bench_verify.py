"""Verify throughput: the Go corpus next to sgfmill's parse + replay, and every game on generated records.

Usage: python benchmarks/bench_verify.py [--corpus PATH] [--games N] [--runs 3]

Prints, for the real Go corpus, records/s and moves/s of `read_bytes` + `verify` and of sgfmill's
`Sgf_game.from_bytes` + main-line replay on `boards.Board` over the same files in the same run, and their ratio;
then, per game, records/s and moves/s of read + verify over random legal games the engines generate.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from boardrecords.records.games import Game, MoveKind
from boardrecords.records.model import FormatError
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import new_record, write
from boardrecords.verifier.judging.verdict import verify
from boardrecords.verifier.rules.registry import engine_for

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "go"
SIZES = {Game.GO: 19, Game.CONVERSION_GO: 16, Game.CATION: 8, Game.QUENTIN: 8, Game.SQUER: 7}


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


def sgfmill_parse_replay(blobs: list[bytes]) -> tuple[int, int]:
    from sgfmill import boards, sgf

    records = moves = 0
    for blob in blobs:
        try:
            game = sgf.Sgf_game.from_bytes(blob)
            board = boards.Board(game.get_size())
            for node in game.get_main_sequence():
                colour, point = node.get_move()
                if colour is None or point is None:
                    continue
                board.play(point[0], point[1], colour)
                moves += 1
        except (ValueError, IndexError):
            continue
        records += 1
    return records, moves


def timed(fn, blobs, runs: int) -> tuple[float, int, int]:
    times = []
    counts = (0, 0)
    for _ in range(runs):
        start = time.perf_counter()
        counts = fn(blobs)
        times.append(time.perf_counter() - start)
    return statistics.median(times), *counts


def generated(game: Game, count: int, seed: int = 7) -> list[bytes]:
    rng = random.Random(seed)
    size = SIZES[game]
    blobs = []
    for _ in range(count):
        engine = engine_for(game)(size)
        moves = []
        while engine.end is None and len(moves) < size * size * 2:
            legal = engine.legal_moves()
            if not legal:
                break
            plays = [m for m in legal if m.kind is not MoveKind.PASS] or legal
            if game in (Game.GO, Game.CONVERSION_GO) and len(moves) > size * size * 0.8:
                plays = [m for m in legal if m.kind is MoveKind.PASS] or plays
            move = rng.choice(plays)
            engine.play(move)
            moves.append(move)
        outcome = engine.outcome()
        blobs.append(write(new_record(game, size, moves, result=outcome.text() if outcome.finished else "?")))
    return blobs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--games", type=int, default=100, help="generated records per game")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    if args.corpus.is_dir():
        blobs = [p.read_bytes() for p in sorted(args.corpus.rglob("*.sgf"))]
        mb = sum(map(len, blobs)) / 1e6
        print(f"Go corpus: {len(blobs)} files, {mb:.2f} MB, median of {args.runs} runs")
        t_ours, r_ours, m_ours = timed(ours, blobs, args.runs)
        t_mill, r_mill, m_mill = timed(sgfmill_parse_replay, blobs, args.runs)
        print(f"  records verify (parse+replay+judge): {r_ours / t_ours:8.0f} records/s {m_ours / t_ours:9.0f} moves/s"
              f"  ({r_ours} records, {m_ours} moves, {t_ours:.2f} s)")
        print(f"  sgfmill parse+replay:                {r_mill / t_mill:8.0f} records/s {m_mill / t_mill:9.0f} moves/s"
              f"  ({r_mill} records, {m_mill} moves, {t_mill:.2f} s)")
        print(f"  ratio (records/s, ours / sgfmill):   {(r_ours / t_ours) / (r_mill / t_mill):.2f}x")
        print(f"  ratio (moves/s, ours / sgfmill):     {(m_ours / t_ours) / (m_mill / t_mill):.2f}x")
    else:
        print(f"Go corpus not found at {args.corpus}; skipping it")

    print(f"Generated games, {args.games} per game:")
    for game in Game:
        blobs = generated(game, args.games)
        t, r, m = timed(ours, blobs, args.runs)
        print(f"  {game.value:14} {SIZES[game]:2}x{SIZES[game]:<2} {r / t:8.0f} records/s {m / t:9.0f} moves/s"
              f"  ({m / max(r, 1):.0f} moves per record)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
