"""Work on many files in worker processes, results in file order: shared by `records import` and `records verify`.

On Linux a fork server loads the modules once and forks the workers from it (forking the main process itself could
copy a lock held by the progress bar's thread); a caller whose work holds nothing a fork must not copy (verify: files
in, verdicts out; not an import, which holds the archive's connections) may have the workers forked from the main
process itself while it runs no other thread, which spares the fork server's interpreter, its imports and the
resource tracker (about 0.15 s of CPU a command, measured on 200 files). The guard (forkserver_guard, worker_guard)
comes first, so that the fork server and every worker end when the command ends, however it ends. Ctrl-C is the
main process's business: the helpers start with it held back (ctrl_c_held) and ignore it.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

from .worker_guard import die_with_parent, mark_main_process

if TYPE_CHECKING:
    from concurrent.futures import Future
    from multiprocessing.context import BaseContext

T = TypeVar("T")
R = TypeVar("R")

# Below this many files the pool's start-up (a fork server importing the modules) costs more than it saves; each
# worker gets at least FILES_PER_WORKER files.
POOL_THRESHOLD = 100
FILES_PER_WORKER = 50
# A chunk's results (every record's rows) wait in its worker until the chunk is done, then in the main process: a
# chunk holds files of at most this many bytes in all (a larger file goes alone), so that large files do not come
# 25 at a time (200 files of 3 MiB with two workers peaked at 1.5 GB that way).
CHUNK_BYTES = 2 * 1024 * 1024
# How far the workers may work ahead of the caller, per worker: this many chunks, and chunks of at most this many
# input bytes (a chunk is always allowed). Two chunks a worker (the earlier bound) left the workers idle while an
# import's writer committed a batch, and the writer then waited for them: of a 3,000-file import's 10 s, 1.8 s.
AHEAD_CHUNKS = 8
AHEAD_BYTES = 2 * CHUNK_BYTES


def file_size(path: str | os.PathLike[str]) -> int:
    """The size of a file to be read, 0 when it cannot be found (its reader then says why)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def chunked(items: Sequence[T], sizes: Sequence[int] | None, most: int) -> list[Sequence[T]]:
    """`items` in order, in chunks of at most `most` items and (with `sizes`) CHUNK_BYTES bytes, or one item."""
    if sizes is None:
        return [items[i:i + most] for i in range(0, len(items), most)]
    out: list[Sequence[T]] = []
    start, held = 0, 0
    for i, size in enumerate(sizes):
        if i > start and (i - start >= most or held + size > CHUNK_BYTES):
            out.append(items[start:i])
            start, held = i, 0
        held += size
    if start < len(items):
        out.append(items[start:])
    return out


def default_workers() -> int:
    """One worker per usable CPU (at most 8). On an idle two-CPU machine two workers imported the Go corpus 1.7x
    faster than one process (benchmarks/bench_archive.py); on a single CPU the work stays in this process."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(8, cpus))


_YOUNG = 10_000
# The middle generation, collected once per this many young collections (and the oldest once per this many of the
# middle's): what survives a young collection is mostly the tree of the file being judged, soon garbage, so walking
# it again every 20 young collections is work done twice. At 100, verifying the Go corpus and 20,000
# generated records took 5-6% less CPU, with the same peak memory (54-56 MB on the generated set).
_MIDDLE = 100


def collect_less() -> None:
    """Tune the garbage collector for a batch of records.

    A replay allocates hundreds of thousands of short-lived objects (strings of stones, changes, steps), and a
    record's tree (nodes link to their parents) is cyclic garbage once it is judged. At the default threshold (700
    allocations) the collector runs thousands of times per file, and its older generations walk every live object,
    the loaded modules included. Freezing what is loaded and collecting the young generation less often leaves the
    same garbage to collect, later. Once per process: a later freeze would keep whatever cyclic garbage then lives
    for good (tests run many commands in one process).
    """
    if gc.get_threshold()[0] >= _YOUNG:
        return
    gc.freeze()
    gc.set_threshold(_YOUNG, _MIDDLE, _MIDDLE)


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    collect_less()


@contextmanager
def safe_import_path() -> Iterator[None]:
    """Helper processes started inside import nothing from the current folder or the data's folders.

    multiprocessing starts its fork server and resource tracker as `python -c ...`, which puts the current folder
    first on `sys.path`; a folder of downloaded records holding `multiprocessing/` or `boardrecords/` would run
    there. PYTHONSAFEPATH (Python 3.11) keeps the folder off; the fork server then takes this process's `sys.path`,
    so the current folder is left out of it too for as long as the helpers start.
    """
    # Plumbing for the helper processes' own interpreter, not a setting of the library (common/settings.py).
    saved_env = os.environ.get("PYTHONSAFEPATH")
    saved_path = sys.path[:]
    here = os.getcwd()
    os.environ["PYTHONSAFEPATH"] = "1"
    sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != here]
    try:
        yield
    finally:
        sys.path[:] = saved_path
        if saved_env is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = saved_env


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) held back in this thread while it starts helper processes, acted on when the block ends.

    A Ctrl-C in a terminal reaches every process of the command. A helper started meanwhile inherits the held
    signal (a fork and an exec keep the signal mask), and the workers the fork server forks inherit it from the
    fork server: no helper is interrupted while it starts and imports the modules, before the fork server and
    the workers' initializer ignore it (a KeyboardInterrupt there printed a traceback of 20-40 lines per process).
    This process gets the signal when the block ends, and the command says `interrupted` (exit status 130).
    """
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def can_fork_here() -> bool:
    """Whether workers may be forked from this process: on Linux, while no other thread runs (a thread's lock held
    at the fork would stay held in the worker for good)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def in_order(work: Callable[[Sequence[T]], list[R]], items: Sequence[T], *, workers: int,
             preload: str, size_of: Callable[[T], int] | None = None, also: Sequence[str] = (),
             fork_ok: bool = False) -> Iterator[R]:
    """`work` applied to chunks of `items`, in worker processes when it pays, every result in the items' order.

    `work` must be a module-level function of the module `preload` (the fork server imports it once). `size_of`, the
    bytes of an item's file, bounds what a chunk holds (CHUNK_BYTES); asked only when a pool is made. `also` names
    modules the work loads on demand, loaded once before the workers are made rather than in each of them.
    `fork_ok`: the work and this process hold nothing a fork must not copy, so the workers may be forked from here
    (can_fork_here).
    """
    collect_less()
    if workers <= 1 or len(items) < POOL_THRESHOLD:
        for item in items:
            yield from work([item])
        return
    # Loaded only for a pool: about 25 ms of start-up that verifying a few files in this process does without.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    workers = max(2, min(workers, len(items) // FILES_PER_WORKER))
    chunk = max(1, min(32, len(items) // (workers * 4)))
    sizes = None if size_of is None else [size_of(item) for item in items]
    chunks = chunked(items, sizes, chunk)
    # The input bytes of each chunk, in order (0 when not known): what may be in flight is bounded by them too.
    weights = deque([0] * len(chunks) if sizes is None else _chunk_bytes(chunks, sizes))
    from multiprocessing import resource_tracker

    forkserver: ModuleType | None = None
    forked = fork_ok and can_fork_here()
    if forked:
        import importlib

        for name in also:  # each worker would load them again after the fork
            importlib.import_module(name)
        ctx: BaseContext = multiprocessing.get_context("fork")
    elif sys.platform.startswith("linux"):
        import multiprocessing.forkserver as forkserver

        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([f"{__package__}.forkserver_guard", preload, *also])
    else:
        ctx = multiprocessing.get_context("spawn")
    mark_main_process()
    in_flight: deque[tuple[Future[list[R]], int]] = deque()
    todo = iter(chunks)
    executor: ProcessPoolExecutor | None = None
    held = 0  # input bytes of the chunks in flight

    def room() -> bool:
        return len(in_flight) < workers * AHEAD_CHUNKS and held < workers * AHEAD_BYTES

    def submit(c: Sequence[T]) -> None:
        nonlocal held
        assert executor is not None
        weight = weights.popleft()
        held += weight
        in_flight.append((executor.submit(work, c), weight))
    try:
        with safe_import_path():
            # The helpers start here with Ctrl-C held back (ctrl_c_held). The resource tracker first: it holds
            # the signal back itself while it starts, and lets it go after, which would end the hold early.
            if not forked:  # a forked pool's locks are unlinked at once: it needs no tracker
                resource_tracker.ensure_running()
            if forkserver is not None:  # the workers are forked by the fork server, at the first submits
                with ctrl_c_held():
                    forkserver.ensure_running()
            # A submit may start a worker (with a fork server, at the first submits): Ctrl-C held back through
            # each, so that no worker is asked for and then left without its start-up data.
            with ctrl_c_held():
                executor = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker)
                for c in todo:
                    submit(c)
                    if not room():
                        break
        while in_flight:
            future, weight = in_flight.popleft()
            done = future.result()
            held -= weight
            # Refilled before the results are handed on: the workers go on while the caller works on them (an
            # import's writer commits a batch meanwhile).
            with ctrl_c_held():
                while room():
                    nxt = next(todo, None)
                    if nxt is None:
                        break
                    submit(nxt)
            yield from done
    finally:
        if executor is not None:
            executor.shutdown(wait=not in_flight, cancel_futures=True)


def _chunk_bytes(chunks: Sequence[Sequence[T]], sizes: Sequence[int]) -> list[int]:
    out, start = [], 0
    for c in chunks:
        out.append(sum(sizes[start:start + len(c)]))
        start += len(c)
    return out
