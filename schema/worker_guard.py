"""Helper processes (the import's fork server and its workers) end when their parent ends, however it ends.

On Linux the kernel sends SIGKILL to a process whose parent dies (prctl PR_SET_PDEATHSIG); elsewhere, and as a
second line, a daemon thread checks once a second whether the parent changed (the process was re-parented) and
ends the process then. The chain main process -> fork server -> workers therefore comes down within a second or
two of a `kill -9` of the main process, instead of living on and holding its pipes open.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
POLL_SECONDS = 1.0


def die_with_parent() -> None:
    """Arrange for this process to end when its parent process ends."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the thread below still watches
            pass
    if os.getppid() != parent:  # the parent died before the guard was set
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)
