"""The chunks sent to workers: every file once and in order, at most `most` files and CHUNK_BYTES bytes a chunk
(a larger file alone), so that a worker and the main process hold a bounded share of large files' results."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardrecords.common.workers import CHUNK_BYTES, can_fork_here, chunked, in_order

ROOT = Path(__file__).resolve().parents[2]
sizes_of = st.lists(st.integers(min_value=0, max_value=3 * CHUNK_BYTES), max_size=300)


@given(sizes_of, st.integers(min_value=1, max_value=40))
def test_chunks_keep_every_file_in_order_and_bound_their_bytes(sizes: list[int], most: int) -> None:
    items = list(range(len(sizes)))
    chunks = chunked(items, sizes, most)
    assert [i for c in chunks for i in c] == items
    for c in chunks:
        assert 1 <= len(c) <= most
        held = sum(sizes[i] for i in c)
        assert held <= CHUNK_BYTES or len(c) == 1
    # a chunk is closed only when the next file would not fit: no two neighbours could have been one chunk
    for a, b in pairwise(chunks):
        if len(a) < most:
            assert sum(sizes[i] for i in a) + sizes[b[0]] > CHUNK_BYTES


def test_two_hundred_large_files_go_one_at_a_time() -> None:
    sizes = [3 * 1024 * 1024] * 200
    assert [len(c) for c in chunked(list(range(200)), sizes, 25)] == [1] * 200


def test_without_sizes_chunks_are_counted() -> None:
    assert [len(c) for c in chunked(list(range(10)), None, 4)] == [4, 4, 2]


def pids(chunk: list[int]) -> list[tuple[int, int, int]]:
    """Each item, with the process that worked on it and its parent."""
    return [(i, os.getpid(), os.getppid()) for i in chunk]


def forked_pool_check() -> None:
    """Run in a process of its own (the test process may hold other tests' threads, which rule forking out)."""
    items = list(range(300))
    out = list(in_order(pids, items, workers=2, preload=__name__, fork_ok=True))
    assert [i for i, _, _ in out] == items
    assert {parent for _, _, parent in out} == {os.getpid()}  # no fork server between
    assert os.getpid() not in {pid for _, pid, _ in out}


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked from the command only on Linux")
def test_a_fork_ok_pool_is_forked_from_this_process_and_keeps_the_order() -> None:
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from tests.system.test_worker_chunks import " \
           "forked_pool_check; forked_pool_check()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork_here()
    finally:
        stop.set()
        thread.join()


def stamped(chunk: list[int]) -> list[tuple[int, float]]:
    """Each item with the moment its worker finished it (a millisecond of work each)."""
    out = []
    for i in chunk:
        time.sleep(0.001)
        out.append((i, time.monotonic()))
    return out


def ahead_check(size: int) -> tuple[int, int, int]:
    """In a process of its own: how many items the workers finished while the caller spent a second on the first
    result, of 800 items of `size` bytes each, with the bound of chunks and the chunk's size in items."""
    import boardrecords.common.workers as workers

    items = list(range(800))
    got = in_order(stamped, items, workers=2, preload=__name__, size_of=lambda _: size, fork_ok=True)
    first = next(got)
    time.sleep(1.0)
    resumed = time.monotonic()
    rest = list(got)
    assert [i for i, _ in [first, *rest]] == items
    done_meanwhile = sum(1 for _, t in rest if t < resumed)
    return done_meanwhile, 2 * workers.AHEAD_CHUNKS, 2 * workers.AHEAD_BYTES


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked from the command only on Linux")
@pytest.mark.parametrize("size", [1000, CHUNK_BYTES])
def test_the_workers_work_ahead_of_a_busy_caller_within_their_bounds(size: int) -> None:
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from tests.system.test_worker_chunks import " \
           f"ahead_check; print(*ahead_check({size}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    meanwhile, chunks, held = (int(v) for v in done.stdout.split())
    chunk = 1 if size >= CHUNK_BYTES else 32  # as in_order cuts 800 items for two workers
    in_flight = min(chunks, -(-held // (size * chunk)))  # bounded by their count and by their bytes
    assert in_flight == (16 if size < CHUNK_BYTES else 4)  # with small files more than the earlier 2 a worker
    # In the second the caller spent, the workers finished every chunk they were given (and the rest of the chunk
    # whose first item the caller held), never more.
    assert in_flight * chunk <= meanwhile <= (in_flight + 1) * chunk
