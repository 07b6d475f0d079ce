"""Heavy questions answered in helper processes of their own, so that they never hold the interpreter of the
process that answers the quick ones (`records serve`).

Why: a pattern search spends much of its time in Python (its appearances, its counts), and so do the listings of
players and events, a player's page and the ratings (worked out over the whole archive). In a thread of the server
such a question held the interpreter lock that every quick question needs at each of its turns: with four clients
asking pattern searches the explorer's p99 was 4.1 times its idle one (2.1 times with the searches in a helper,
benchmarks/bench_attack.py). In a process of its own a heavy question shares only the CPUs, which the system
divides fairly. The heavy questions that mostly wait on the database (wildcards, filtered explorations) stay in
the server's threads: the database driver lets the other threads run meanwhile.

- `Helpers`: one helper process per turn of the archive's gate (Archive.gate: its `heavy_workers`), each with its
  own read-only Archive on the same database, started when a question first needs it. Each answers one question at
  a time; what it keeps between questions (the change lists of repeated pattern searches, KeptLines) lives there.
- A question travels to the helper as the Archive method's name and its arguments, and its answer, or the
  library's error it ended with, comes back pickled: between this process and the helpers it started, never
  anything read from the data.
- Its budget: the helper runs the question under a budget of the same seconds and appearances, so it ends with the
  same OverBudget. When the asker goes away (`Budget.stop()`), an event tells the helper, which stops the question
  and cancels its database work there. A helper that gives no answer GRACE_SECONDS after its budget ran out (or
  after the stop) is ended and replaced; so is one that dies. The question then ends with an ArchiveError (the web
  answers 503).
"""

from __future__ import annotations

import logging
import math
import os
import pickle
import signal
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from queue import SimpleQueue
from typing import TYPE_CHECKING, Any

from ..common.errors import ArchiveError, InputError, NotFound, RecordsError
from .core.budget import Budget

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess
    from multiprocessing.synchronize import Event

log = logging.getLogger(__name__)

# How long a helper may take to start (a new interpreter importing the archive's modules and opening it).
START_SECONDS = 60.0
# How long past its budget a helper may take to answer before it is ended: the budget is checked between rows and
# statements, so a question ends a little after its time.
GRACE_SECONDS = 5.0
# How often the waiting thread looks whether the asker went away.
POLL_SECONDS = 0.05

# The thread that starts every helper (`_started`), made by the first start.
_starts: SimpleQueue[tuple[BaseProcess, threading.Event, list[BaseException]]] | None = None
_starter_made = threading.Lock()


class Helpers:
    """`count` helper processes, each answering the questions of an Archive that `opener()` opens in it."""

    def __init__(self, opener: Callable[[], Any], count: int) -> None:
        self.all = [Helper(opener) for _ in range(max(1, count))]
        self.free: SimpleQueue[Helper] = SimpleQueue()
        for helper in self.all:
            self.free.put(helper)

    def ask(self, name: str, args: Sequence[Any], kwargs: Mapping[str, Any], budget: Budget) -> Any:
        """The answer of `Archive.<name>(*args, **kwargs, budget=...)` from a free helper. The caller holds a turn
        of the gate, so that one is free (or about to be)."""
        helper = self.free.get()
        try:
            return helper.ask(name, args, kwargs, budget)
        finally:
            self.free.put(helper)

    def pids(self) -> list[int]:
        """The process ids of the helpers running now."""
        return [h.process.pid for h in self.all if h.process is not None and h.process.pid is not None
                and h.process.is_alive()]

    def close(self) -> None:
        for helper in self.all:
            helper.end(gently=True)


class Helper:
    """One helper process, started on demand and started again after it died or was ended."""

    def __init__(self, opener: Callable[[], Any]) -> None:
        self.opener = opener
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.stop: Event | None = None
        self.ready = False

    def start(self) -> None:
        if self.process is not None and self.process.is_alive():
            return
        self.end()
        import multiprocessing

        # A new interpreter, not a fork: the server runs threads whose locks a fork would copy held.
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        stop = ctx.Event()
        process = ctx.Process(target=answer, args=(theirs, stop, self.opener), name="records-heavy", daemon=True)
        _started(process)
        theirs.close()
        self.process, self.conn, self.stop, self.ready = process, ours, stop, False

    def end(self, gently: bool = False) -> None:
        """End the process (`gently`: asked to end first), if there is one."""
        process, conn = self.process, self.conn
        self.process = self.conn = self.stop = None
        self.ready = False
        if conn is not None:
            if gently:
                with suppress(OSError, ValueError):  # it is gone already
                    conn.send(None)
            conn.close()
        if process is not None:
            process.join(timeout=2 if gently else 0)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)

    def _reply(self, until: float, budget: Budget, *, starting: bool = False) -> tuple[str, Any]:
        """The helper's next message, waited for until `until`. The asker's `stop()` is passed on meanwhile, and the
        wait is then GRACE_SECONDS at most; while the helper is `starting`, the asker leaves it to start."""
        assert self.conn is not None and self.stop is not None and self.process is not None
        what = budget.what
        told = False
        while True:
            try:
                if self.conn.poll(POLL_SECONDS):
                    kind, value = self.conn.recv()
                    return kind, value
            except (EOFError, OSError):
                self.end()
                raise ArchiveError(f"{what}: the helper process answering heavy questions ended; ask again") from None
            if budget.stopped.is_set() and not told:
                if starting:  # its "ready" waits in the pipe for the next question
                    raise budget.error()
                self.stop.set()
                told = True
                until = min(until, time.monotonic() + GRACE_SECONDS)
            if time.monotonic() >= until:
                self.end()
                raise budget.error() if budget.over() else ArchiveError(f"{what}: the helper process answering "
                                                                       "heavy questions did not answer in time")

    def ask(self, name: str, args: Sequence[Any], kwargs: Mapping[str, Any], budget: Budget) -> Any:
        self.start()
        assert self.conn is not None and self.stop is not None
        if not self.ready:
            kind, value = self._reply(time.monotonic() + START_SECONDS, budget, starting=True)
            if kind != "ready":
                self.end()
                raise _raised(kind, value)
            self.ready = True
        self.stop.clear()
        self.conn.send((name, tuple(args), dict(kwargs), budget.seconds, budget.appearances))
        # No time budget: as long as it takes (the asker's stop still ends it).
        until = math.inf if budget.seconds is None else time.monotonic() + budget.seconds + GRACE_SECONDS
        kind, value = self._reply(until, budget)
        if kind == "answer":
            return value
        raise _raised(kind, value)


def _started(process: BaseProcess) -> None:
    """Start `process` from the one thread of this process that starts helpers, and wait until it has.

    The system ends a helper when the thread that started it ends (the guard's PR_SET_PDEATHSIG follows the
    thread, not the process), and a server's request threads come and go: that thread lives as long as the process.
    It starts one helper at a time, since a start changes the environment and the import path for a moment
    (common/workers.py safe_import_path), and it holds Ctrl-C back for good: a helper inherits the held signal, so a
    Ctrl-C that reaches the server's process group while a helper imports its modules does not interrupt it (a
    traceback); the server's main thread takes it, and the helper ignores it from its first instruction on."""
    global _starts
    with _starter_made:
        if _starts is None:
            _starts = SimpleQueue()
            threading.Thread(target=_starter, args=(_starts,), name="records-helper-starter", daemon=True).start()
    done = threading.Event()
    failed: list[BaseException] = []
    _starts.put((process, done, failed))
    done.wait()
    if failed:
        raise failed[0]


def _starter(starts: SimpleQueue[tuple[BaseProcess, threading.Event, list[BaseException]]]) -> None:
    from ..common.worker_guard import mark_main_process
    from ..common.workers import safe_import_path

    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    while True:
        process, done, failed = starts.get()
        try:
            with safe_import_path():
                mark_main_process()
                process.start()
        except BaseException as exc:  # handed to the thread that asked for the start
            failed.append(exc)
        finally:
            done.set()


def _raised(kind: str, value: Any) -> Exception:
    """The error a helper's message stands for: the library's error as it was raised there; a fault (a bug), logged
    with the helper's traceback, as a RuntimeError."""
    if kind == "error" and isinstance(value, Exception):
        return value
    log.error("a heavy question failed in its helper process:\n%s", value)
    return RuntimeError("a heavy question failed in its helper process")


def _portable(exc: RecordsError) -> RecordsError:
    """The library's error as it can travel: itself when it survives pickling, else its nearest public kind."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        kind = next(k for k in (NotFound, InputError, ArchiveError, RecordsError) if isinstance(exc, k))
        return kind(str(exc))


def answer(conn: Connection, stop: Event, opener: Callable[[], Any]) -> None:
    """The helper process: open the archive, say so, then answer questions until told to end (None) or the
    server ends (the guard ends a helper whose parent is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's business: it ends its helpers
    from ..common.worker_guard import die_with_parent

    die_with_parent()
    try:
        archive = opener()
    except RecordsError as exc:
        conn.send(("error", _portable(exc)))
        return
    conn.send(("ready", os.getpid()))
    while True:
        try:
            asked = conn.recv()
        except (EOFError, OSError):
            return
        if asked is None:
            archive.close()
            return
        name, args, kwargs, seconds, appearances = asked
        budget = Budget(seconds, appearances)
        budget.start("the question")  # its clock from here (the Archive's method starts it again, naming it)
        done = threading.Event()
        watch = threading.Thread(target=_pass_on_stop, args=(stop, done, budget), daemon=True)
        watch.start()
        try:
            reply: tuple[str, Any] = ("answer", getattr(archive, name)(*args, **kwargs, budget=budget))
        except RecordsError as exc:
            reply = ("error", _portable(exc))
        except Exception:
            reply = ("fault", traceback.format_exc())
        finally:
            done.set()
            watch.join()
        try:
            conn.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError):
            conn.send(("fault", traceback.format_exc()))


def _pass_on_stop(stop: Event, done: threading.Event, budget: Budget) -> None:
    """In the helper: stop the running question when the asker's side says so."""
    while not done.is_set():
        if stop.wait(POLL_SECONDS):
            budget.stop()
            return
