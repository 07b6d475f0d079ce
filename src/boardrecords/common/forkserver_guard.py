"""Imported only by the worker pool's fork server (as a preloaded module): it ends when the process that started it
ends.

See worker_guard.py. Its workers guard themselves in their initializer (a fork does not keep the watch thread).
"""

from __future__ import annotations

from .worker_guard import die_with_parent

die_with_parent()
