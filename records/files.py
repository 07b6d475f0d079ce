"""Finding record files: the paths a user names, folders searched recursively for `.rec` and `.sgf`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

SUFFIXES = (".rec", ".sgf")


def record_files(paths: Iterable[str | Path]) -> Iterator[tuple[Path, bool]]:
    """(path, exists) for every file named or found below a named folder, in a stable order.

    A file named directly is taken whatever its suffix; inside folders only `.rec` and `.sgf` files count.
    A path that does not exist is yielded with exists=False so the caller can report it.
    """
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = (p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())
            for p in sorted(found):
                yield p, True
        elif path.exists():  # a named file, or a device such as /dev/stdin
            yield path, True
        else:
            yield path, False
