"""Memory between files: a judged file's game trees freed when it was large (verify and import alike)."""

from __future__ import annotations

import gc
import os

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
