"""Memory between files: a judged file's game trees freed when it was large (verify and import alike), and the
freed memory given back to the system."""

from __future__ import annotations

import ctypes
import gc
import os
import sys
from collections.abc import Callable
from functools import cache

# A file at least this large has its game trees collected as soon as it is done (see release_file).
LARGE_FILE = 512 * 1024


def release_file(path: str) -> None:
    """Free a judged file's game trees now when the file was large.

    A record's tree is cyclic (nodes link to their parents), so only the collector frees it; tuned by
    `collect_less`, it would reach those trees late, and twenty 3 MiB files would hold gigabytes. A full collection
    costs a few milliseconds, nothing beside a large file's replay, too much to pay after each of thousands of
    small ones (whose trees the young generation frees in time).
    """
    try:
        size = os.stat(path).st_size
    except OSError:
        return
    if size >= LARGE_FILE:
        gc.collect()
        give_back()


def give_back() -> None:
    """Return the memory freed since to the system, where the C library can (glibc: `malloc_trim`).

    glibc keeps freed small blocks in its arenas for reuse: after a large file's tree (hundreds of thousands of
    small objects) each process would go on holding its peak, and the processes of an import add up. Trimming
    walks the arenas (about a millisecond), so it is for after large work only.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)  # the symbols already loaded: the C library among them
        trim: Callable[[int], int] = libc.malloc_trim  # absent from musl and other C libraries
    except (OSError, AttributeError):
        return None
    return trim
