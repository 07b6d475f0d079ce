"""Helper processes (a command's fork server and its workers) end when the command ends, however it ends.

On Linux the kernel sends SIGKILL to a process whose parent dies (prctl PR_SET_PDEATHSIG); elsewhere, and as a
second line, a daemon thread checks twice a second whether the parent changed (the process was re-parented) or the
command's main process (its pid travels in RECORDS_MAIN_PID) is gone, and ends the process then. The chain main
process -> fork server -> workers therefore comes down within a second or two of a `kill -9` of the command, instead
of living on and holding its pipes open.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from types import TracebackType

PR_SET_PDEATHSIG = 1
POLL_SECONDS = 0.5
ENV_MAIN_PID = "RECORDS_MAIN_PID"


def mark_main_process() -> None:
    """Called by the command before it starts helpers: they watch this process."""
    # Plumbing between this process and the helpers it starts (they inherit the variable), not a setting of the
    # library (common/settings.py).
    os.environ[ENV_MAIN_PID] = str(os.getpid())


def _main_pid() -> int | None:
    # In a helper: the variable its main process set for it (mark_main_process).
    raw = os.environ.get(ENV_MAIN_PID, "")
    return int(raw) if raw.isdigit() else None


def _gone(pid: int) -> bool:
    """Whether process `pid` has ended (a zombie that nobody has reaped yet counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def die_with_parent() -> None:
    """Arrange for this process to end when its parent process, or the command's main process, ends."""
    parent = os.getppid()
    main = _main_pid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the thread below still watches
            pass
    if os.getppid() != parent or (main is not None and _gone(main)):  # it died before the guard was set
        os._exit(1)
    threading.Thread(target=_watch, args=(parent, main), name="parent-watch", daemon=True).start()


def _watch(parent: int, main: int | None) -> None:
    while True:
        time.sleep(POLL_SECONDS)
        if os.getppid() != parent or (main is not None and _gone(main)):
            os._exit(1)


def abandoned(kind: type[BaseException], tb: TracebackType | None) -> bool:
    """Whether an error is that of a worker whose command let go of it before it started: reading its start-up
    data (multiprocessing's spawn._main), the pool's locks were already unlinked (FileNotFoundError) or the data
    never came (EOFError). It happens when Ctrl-C reaches the command as a worker is being born; the command says
    `interrupted`, and the worker's dozen lines of traceback would only bury that."""
    if not issubclass(kind, (FileNotFoundError, EOFError)):
        return False
    import multiprocessing.spawn as spawn  # here: a command that starts no helper does without it

    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "_main" and code.co_filename == spawn.__file__:
            return True
        tb = tb.tb_next
    return False


def quiet_when_abandoned(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """The fork server's sys.excepthook (forkserver_guard.py): it reports a worker's failure to start through it."""
    if not abandoned(kind, tb):
        sys.__excepthook__(kind, value, tb)
