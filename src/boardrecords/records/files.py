"""Finding record files (the paths a user names, folders searched recursively for `.rec` and `.sgf`, and the other
formats of Go records FMT-13 reads: `.gib`, `.ngf`, `.ugf`, `.ugi`, whatever the case of the suffix) and reading
one of them, with the reason it cannot be read as data: `verify` and `import` read through the same function, so
they agree on every file."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..common.settings import DEFAULTS, Settings
from .formats import SUFFIXES as OTHER_FORMATS
from .limits import STDIN, read_input
from .model import FormatError, Record
from .reader import read_bytes


@dataclass(frozen=True, slots=True)
class FileFailure:
    """A file that could not be opened or read: it still gets a line in every report."""

    file: str
    message: str
    error: FormatError | None
    unopened: bool = False  # the path could not be opened at all (exit status 2)


def read_records(path: str, *, strict: bool = False, settings: Settings = DEFAULTS) -> list[Record] | FileFailure:
    """The records of one file, or why it cannot be read (within the limits of `settings`)."""
    try:
        data = read_input(Path(path), settings.max_file_size)
    except OSError as err:
        return FileFailure(path, f"{path}: cannot be opened: {err.strerror or err}", None, unopened=True)
    try:
        records = read_bytes(data, path, strict=strict, max_records=settings.max_records)
    except FormatError as err:
        return FileFailure(path, err.describe(), err)
    except (RecursionError, MemoryError, ValueError, LookupError, TypeError, ArithmeticError) as err:
        # The reader promises FormatError only; a failure it did not foresee costs this file, not the run.
        return FileFailure(path, f"{path}: cannot be read: {type(err).__name__}: {err}", None)
    return records or FileFailure(path, f"{path}: holds no game record", None)

SUFFIXES = (".rec", ".sgf", *OTHER_FORMATS)


def record_files(paths: Iterable[str | Path]) -> Iterator[tuple[Path, bool]]:
    """(path, exists) for every file named or found below a named folder, in a stable order.

    A file named directly is taken whatever its suffix (`-` is standard input); inside folders only record files
    count. A path that does not exist, and a folder (or subfolder) that cannot be read, is yielded with
    exists=False so the caller can report it (`why_unopened` says why). Inside folders the suffixes of SUFFIXES
    count, in any case (`.SGF`, `.Gib`).
    """
    for raw in paths:
        path = Path(raw)
        if str(raw) == STDIN:
            yield path, True
        elif path.is_dir():
            yield from _found_below(path)
        elif path.exists():  # a named file, or a device such as /dev/stdin (refused when it is read)
            yield path, True
        else:
            yield path, False


def _found_below(top: Path) -> list[tuple[Path, bool]]:
    """The record files below a folder, sorted as paths sort (part by part), and the subfolders that cannot be
    read (exists=False). Walked with scandir: a directory entry says whether it is a file without a stat of its
    own for each (a stat only for a symbolic link, which is followed as os.walk and is_file follow it)."""
    found: list[tuple[list[str], str, bool]] = []
    folders = [str(top)]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    try:
                        if entry.is_dir():
                            if not entry.is_symlink():  # os.walk does not follow links to folders either
                                folders.append(entry.path)
                        elif os.path.splitext(entry.name)[1].lower() in SUFFIXES and entry.is_file():
                            found.append((entry.path.split(os.sep), entry.path, True))
                    except OSError:
                        continue
        except OSError as err:
            name = err.filename if isinstance(err.filename, str) else folder
            found.append((name.split(os.sep), name, False))
    found.sort(key=lambda item: item[0])
    return [(Path(path), exists) for _, path, exists in found]


def why_unopened(path: Path) -> str:
    """The message for a path `record_files` yielded with exists=False."""
    try:
        if path.is_dir():
            os.listdir(path)
        elif not path.exists():
            return f"{path}: no such file or folder"
    except OSError as err:
        return f"{path}: cannot be opened: {err.strerror or err}"
    return f"{path}: cannot be opened"
