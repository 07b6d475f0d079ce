"""Budgets of the heavy questions (a pattern search, a player-name wildcard, a filtered exploration, the big
listings): how long one may run, how many appearances a pattern search may hold, and how many run at once.

- `Budget`: one question's allowance. Its time starts when the question gets its turn; past it, or when the asker
  goes away (`stop()`), the question ends with `OverBudget` or `Cancelled`, and its database work is cancelled
  with it: SQLite through a progress handler on the connection (and `interrupt()` from `stop()`), PostgreSQL
  through `statement_timeout` (and the driver's cancel from `stop()`). Python loops over rows call `check()`.
- `Gate`: at most `workers` budgeted questions at once; the next `queue` wait their turn (for at most the wait
  given), the rest are refused at once with `Busy`, which says when to ask again.
- `guard_engine`: the statement hook that applies the budget of the running question (a context variable) to each
  statement of an engine kept for heavy questions (archive/front.py), so that they never hold the connections of
  the engine that quick questions use.

The errors are ArchiveErrors (the web answers 503; `Busy` with `Retry-After`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ...common.errors import ArchiveError

if TYPE_CHECKING:
    from sqlalchemy import Engine

T = TypeVar("T")


class OverBudget(ArchiveError):
    """A question ran past its budget (its time, or the appearances a pattern search may hold)."""


class Cancelled(ArchiveError):
    """The asker went away: the question was stopped."""


class Busy(ArchiveError):
    """Every turn for heavy questions is taken and the queue is full (or the wait ran out): ask again later."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class Budget:
    """One question's allowance: `seconds` of work (None: no limit) and at most `appearances` pattern appearances
    held (None: no cap). `start()` starts the clock; `stop()` ends the question from another thread."""

    seconds: float | None = None
    appearances: int | None = None
    what: str = "the question"
    hint: str = "narrow it with more filters"
    deadline: float | None = None
    stopped: threading.Event = field(default_factory=threading.Event)
    _held: int = 0
    _hooks: list[Callable[[], object]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ended: bool = False

    def start(self, what: str, hint: str | None = None) -> None:
        self.what = what
        self.hint = hint or self.hint
        self.deadline = None if self.seconds is None else time.monotonic() + self.seconds

    def remaining(self) -> float | None:
        """Seconds left (None: no limit)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def over(self) -> bool:
        return self.stopped.is_set() or (self.deadline is not None and time.monotonic() >= self.deadline)

    def error(self) -> ArchiveError:
        """What ends the question now that it is over."""
        if self.stopped.is_set():
            return Cancelled(f"{self.what} was stopped: the request went away")
        return OverBudget(f"{self.what} took longer than its budget of {self.seconds:g} s and was stopped: "
                          f"{self.hint}")

    def check(self) -> None:
        if self.over():
            raise self.error()

    def rows(self, rows: Iterable[T], every: int = 16) -> Iterator[T]:
        """The rows, checking the budget every `every` of them."""
        for n, row in enumerate(rows):
            if n % every == 0:
                self.check()
            yield row

    def hold(self, appearances: int) -> None:
        """Count `appearances` more held in memory; OverBudget past the cap."""
        self._held += appearances
        if self.appearances is not None and self._held > self.appearances:
            raise OverBudget(f"{self.what} matches more than {self.appearances:,} appearances, more than a server "
                             f"answer may hold: {self.hint}")

    def stop(self) -> None:
        """End the question from another thread (the asker went away): its running statement is cancelled."""
        self.stopped.set()
        with self._lock:  # held while cancelling, so that `end()` cannot hand the connection on meanwhile
            for hook in self._hooks:
                with suppress(Exception):  # the connection may be gone already: nothing to cancel
                    hook()

    def on_stop(self, hook: Callable[[], object]) -> None:
        """Have `stop()` call `hook` (a running statement's cancel) until the question ends."""
        with self._lock:
            if not self._ended:
                self._hooks.append(hook)

    def end(self) -> None:
        """The question is over: a later `stop()` cancels nothing (its connections serve other questions)."""
        with self._lock:
            self._ended = True
            self._hooks.clear()


ACTIVE: ContextVar[Budget | None] = ContextVar("records_budget", default=None)


@contextmanager
def running(budget: Budget, what: str, hint: str | None = None) -> Iterator[Budget]:
    """Run the block as `budget`'s question (`what` names it in messages, `hint` says how to ask a smaller one):
    its clock started, its budget applied to the statements of a guarded engine (`guard_engine`) in this thread."""
    budget.start(what, hint)
    token = ACTIVE.set(budget)
    try:
        budget.check()
        yield budget
    finally:
        ACTIVE.reset(token)
        budget.end()


# SQLite calls the progress handler every this many virtual-machine steps (well under a millisecond apart).
PROGRESS_STEPS = 20_000


def guard_engine(engine: Engine) -> None:
    """Apply the running question's budget (ACTIVE) to the statements of `engine`: on SQLite a progress handler
    that interrupts a statement once the budget is over; on PostgreSQL `statement_timeout` set to the time left.
    It is set when a connection is checked out (so that statements run on the driver's own cursor are under it
    too), brought up to date before each statement through SQLAlchemy, and taken off when the connection is checked
    in. `stop()` cancels the running statement at once (SQLite `interrupt()`, PostgreSQL the driver's `cancel()`)."""
    from sqlalchemy import event  # here: reading records and verifying them load no database layer

    dialect = engine.dialect.name

    def apply(raw: Any, info: dict[str, Any], budget: Budget | None) -> None:
        if dialect == "sqlite":
            if budget is None:
                raw.set_progress_handler(None, 0)
            else:
                raw.set_progress_handler(lambda: 1 if budget.over() else 0, PROGRESS_STEPS)
                _cancel_with(info, budget, raw.interrupt)
        elif dialect == "postgresql":
            left = None if budget is None else budget.remaining()
            if budget is not None:
                _cancel_with(info, budget, raw.cancel)
            # 0: no limit. Set on the connection itself, outside SQLAlchemy's events (one round trip).
            cursor = raw.cursor()
            try:
                cursor.execute(f"SET statement_timeout = {0 if left is None else max(1, math.ceil(left * 1000))}")
            finally:
                cursor.close()

    @event.listens_for(engine, "checkout")
    def _taken(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        apply(dbapi_connection, record.info, ACTIVE.get())

    @event.listens_for(engine, "checkin")
    def _released(dbapi_connection: Any, record: Any) -> None:
        if record.info.pop("budget", None) is not None and dbapi_connection is not None:
            with suppress(Exception):  # a connection that broke is thrown away by the pool anyway
                apply(dbapi_connection, record.info, None)
                if dialect == "postgresql":
                    dbapi_connection.commit()  # the SET began a transaction: end it before the pool's reset

    @event.listens_for(engine, "before_cursor_execute")
    def _budgeted(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        budget = ACTIVE.get()
        if budget is not None:
            budget.check()
            apply(conn.connection.dbapi_connection, conn.connection.info, budget)


def _cancel_with(info: dict[str, Any], budget: Budget, cancel: Callable[[], object]) -> None:
    """Have `stop()` cancel this connection's statements while the connection serves `budget`'s question (it may be
    checked in and serve another by the time the asker goes away: then nothing is cancelled)."""
    if info.get("budget") is budget:
        return
    info["budget"] = budget

    def hook() -> None:
        if info.get("budget") is budget:
            cancel()

    budget.on_stop(hook)


class Gate:
    """At most `workers` heavy questions at once, `queue` more waiting (each at most `wait` seconds)."""

    def __init__(self, workers: int, queue: int, wait: float) -> None:
        self.workers = max(1, workers)
        self.queue = max(0, queue)
        self.wait = wait
        self._slots = threading.BoundedSemaphore(self.workers)
        self._lock = threading.Lock()
        self._waiting = 0
        self.running = 0

    def busy(self, why: str) -> Busy:
        return Busy(f"the server is busy with other heavy questions ({self.workers} at once, {self.queue} "
                    f"waiting){why}: ask again in a few seconds", retry_after=max(1, math.ceil(self.wait / 2)))

    @contextmanager
    def slot(self, budget: Budget) -> Iterator[None]:
        """A turn, waited for in the queue; Busy when the queue is full or the wait runs out, Cancelled when the
        asker goes away while it waits."""
        if not self._slots.acquire(blocking=False):
            with self._lock:
                if self._waiting >= self.queue:
                    raise self.busy("")
                self._waiting += 1
            try:
                until = time.monotonic() + self.wait
                while not self._slots.acquire(timeout=0.1):
                    if budget.stopped.is_set():
                        raise budget.error()
                    if time.monotonic() >= until:
                        raise self.busy(f" and the wait of {self.wait:g} s ran out")
            finally:
                with self._lock:
                    self._waiting -= 1
        with self._lock:
            self.running += 1
        try:
            yield
        finally:
            with self._lock:
                self.running -= 1
            self._slots.release()
            # What the question held (its rows, its appearances) goes back to the system, not kept at its peak.
            from ...common.memory import give_back

            give_back()
