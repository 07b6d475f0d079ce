"""The files an import reads (`collect_files`), found without loading anything heavy, and the module its workers
run (`WORKER_MODULE`).
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
    # Each folder resolved once, and a file fully only when it is a link itself: resolving every path (a system call
    # per part of it) took 0.68 s for 34,768 files of one folder, and an import collects them twice.
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
