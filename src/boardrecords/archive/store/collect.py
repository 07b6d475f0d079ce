"""The files an import reads (`collect_files`), and the start of its worker processes' fork server before the
import's own modules load (`prepare_import`): both before anything heavy is imported, so a command can look at its
paths first and the fork server can load its modules while the command loads its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ...records.files import record_files, why_unopened

# The module whose functions the import's workers run (importer.py): the fork server loads it once.
WORKER_MODULE = "boardrecords.archive.store.importer"


def collect_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[str]]:
    """The record files named by `paths` (records.files: files as given, folders searched for .rec and .sgf),
    each once, and one error line per path that does not exist."""
    files: list[Path] = []
    errors: list[str] = []
    seen: set[Path] = set()
    # Each folder resolved once, and a file fully only when it is a link itself: resolving every path took 90 us a
    # file (a system call per part of it), a quarter of a second for 3,000 files of one folder.
    folders: dict[Path, Path] = {}
    for path, exists in record_files(paths):
        if not exists:
            errors.append(why_unopened(path))
            continue
        folder = folders.get(path.parent)
        if folder is None:
            folder = folders[path.parent] = path.parent.resolve()
        key = path.resolve() if path.is_symlink() else folder / path.name
        if key not in seen:
            seen.add(key)
            files.append(path)
    return files, errors


def prepare_import(files: int, workers: int | None = None) -> None:
    """Start the fork server of an import of `files` files with `workers` (None: the default) now, when the import
    will make a pool: it loads the import's modules (about 0.8 s of CPU) while this process loads its own and opens
    the archive, instead of after. 200 files took 1.8 s with the pool started late, 1.4 s in one process."""
    from ...common.workers import default_workers, pool_pays, start_early

    if pool_pays(files, default_workers() if workers is None else workers):
        start_early(WORKER_MODULE)
