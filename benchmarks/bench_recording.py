"""Recording benchmark: real HTTP against a running `records serve` (SQLite, a fresh archive).

    .venv/bin/python benchmarks/bench_recording.py [--moves 100] [--watchers 200] [--watched-moves 20]
                                                   [--pace 0.25] [--seed 1]

1. Latency: one watcher follows a 9x9 Go game's event stream (`GET /api/recordings/ID/events`) while `--moves`
   random legal moves are posted one after the other; for each, the time from sending the POST to the watcher
   reading the event of that move (what a watching browser waits for), p50 and p99; and the POST's own answer.
2. Watchers: `--watchers` event streams open on one game while `--watched-moves` moves are played, `--pace`
   seconds apart (0: back to back);
   each must end with the position of the last move (an event carries the whole position, so moves that come
   faster than the events go out arrive together in the next one): the errors (a stream that failed, or never
   showed the last move) must be 0.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_serve import quantiles, start


class Watcher(threading.Thread):
    """One event stream: the time each revision's event was read."""

    def __init__(self, host: str, port: int, recording: int) -> None:
        super().__init__(daemon=True)
        self.host, self.port, self.recording = host, port, recording
        self.seen: dict[int, float] = {}
        self.error: str | None = None
        self.open = threading.Event()

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            conn.request("GET", f"/api/recordings/{self.recording}/events")
            response = conn.getresponse()
            if response.status != 200:
                self.error = f"status {response.status}"
                self.open.set()
                return
            while True:
                line = response.fp.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    self.seen[int(line[4:])] = time.perf_counter()
                    self.open.set()
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            self.open.set()


def post(conn: http.client.HTTPConnection, path: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = conn.getresponse()
    return response.status, json.loads(response.read())


def game(conn: http.client.HTTPConnection) -> dict[str, object]:
    status, answer = post(conn, "/api/recordings", {"game": "go", "size": 9, "black": "Ann", "white": "Bob"})
    assert status == 200, answer
    return answer


def play(conn: http.client.HTTPConnection, position: dict[str, object], rng: random.Random) -> dict[str, object]:
    """A random legal placement (a pass when none is left)."""
    offered = position["offered"]
    assert isinstance(offered, dict)
    places = offered["places"]
    move = rng.choice(places) if places else ""
    status, answer = post(conn, f"/api/recordings/{position['id']}/moves", {"move": move, "after": position["count"]})
    assert status == 200, answer
    return answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--watched-moves", type=int, default=20)
    parser.add_argument("--pace", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        from boardrecords.archive.front import Archive

        db = Path(tmp) / "recording.db"
        Archive(str(db), create=True).close()
        proc, host, port, _ = start(db)
        try:
            conn = http.client.HTTPConnection(host, port, timeout=60)
            # 1. latency from a POST to the watcher's event
            position = game(conn)
            watcher = Watcher(host, port, int(position["id"]))  # type: ignore[call-overload]
            watcher.start()
            watcher.open.wait(30)
            sent: dict[int, float] = {}
            answers: list[float] = []
            for _ in range(args.moves):
                began = time.perf_counter()
                position = play(conn, position, rng)
                answers.append(time.perf_counter() - began)
                sent[int(position["revision"])] = began  # type: ignore[call-overload]
                deadline = time.monotonic() + 10
                while int(position["revision"]) not in watcher.seen and time.monotonic() < deadline:  # type: ignore[call-overload]
                    time.sleep(0.0005)
            delays = [watcher.seen[r] - t for r, t in sent.items() if r in watcher.seen]
            missed = len(sent) - len(delays)
            p50, p99 = quantiles(delays)
            a50, a99 = quantiles(answers)
            print(f"move POSTed -> event at a watcher, {len(delays)} moves: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
                  f"(missed {missed}); the POST's answer: p50 {a50:.1f} ms, p99 {a99:.1f} ms")
            # 2. many watchers of one game
            position = game(conn)
            crowd = [Watcher(host, port, int(position["id"])) for _ in range(args.watchers)]  # type: ignore[call-overload]
            for w in crowd:
                w.start()
            for w in crowd:
                w.open.wait(60)
            first = int(position["revision"])  # type: ignore[call-overload]
            began = time.perf_counter()
            for _ in range(args.watched_moves):
                position = play(conn, position, rng)
                time.sleep(args.pace)
            last = int(position["revision"])  # type: ignore[call-overload]
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and any(last not in w.seen and w.error is None for w in crowd):
                time.sleep(0.05)
            spent = time.perf_counter() - began
            errors = [w for w in crowd if w.error is not None or last not in w.seen]
            events = sum(len([r for r in w.seen if r > first]) for w in crowd) / max(1, len(crowd))
            slowest = max((w.seen.get(last, 0.0) for w in crowd), default=0.0) - began
            print(f"{args.watchers} watchers of one game, {args.watched_moves} moves: errors {len(errors)}"
                  f"{' (' + str(errors[0].error) + ')' if errors and errors[0].error else ''}; the last move at "
                  f"every watcher {slowest * 1000:.0f} ms after the first was sent ({spent:.1f} s in all), "
                  f"{events:.1f} move events a watcher")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
