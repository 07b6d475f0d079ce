"""Imported only by the worker pool's fork server (as its first preloaded module): it ignores Ctrl-C from here on,
and it ends when the process that started it ends.

Ctrl-C in a terminal reaches every process of the command, and the fork server would otherwise take it while it
imports the other preloaded modules (a second or two), printing a traceback of some 40 lines; the workers it forks
start with its handlers, so they ignore it from their first instruction too (their initializer says so again).
Ctrl-C is the command's main process's business: it says `interrupted` and exits with 130.

See worker_guard.py. Its workers guard themselves in their initializer (a fork does not keep the watch thread).
"""

from __future__ import annotations

import signal
import sys

signal.signal(signal.SIGINT, signal.SIG_IGN)

from .worker_guard import die_with_parent, quiet_when_abandoned  # noqa: E402  (after the signal: it takes a moment)

# It reports a worker's failure to start through sys.excepthook, in the worker (multiprocessing.forkserver.main).
sys.excepthook = quiet_when_abandoned

die_with_parent()
