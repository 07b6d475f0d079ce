"""Writing output files (export, diagram, html) safely.

- An existing file is not replaced unless the command was given `--force`.
- A symbolic link at the output path is never followed (nor replaced), with or without `--force`.
- The data goes to a temporary file in the same folder, which is then renamed into place: a failure (a full disk,
  an encoding error, Ctrl-C) leaves the old file, or none, but never an empty or half-written one.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path


class OutputError(Exception):
    """An output file that is not written: a one-line reason for the user."""


def check_target(path: Path, *, force: bool) -> None:
    """Refuse a symlink at `path`, and an existing file unless `force`; OutputError says why."""
    try:
        path.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc
    if path.is_symlink():
        raise OutputError(f"{path} is a symbolic link: not written through (remove it, or choose another name)")
    if os.path.isdir(path):
        raise OutputError(f"{path} is a folder")
    if not force:
        raise OutputError(f"{path} exists: not overwritten (use --force to replace it)")


def write_files(items: Sequence[tuple[Path, bytes]], *, force: bool) -> list[Path]:
    """Write every (path, data); every target is checked before the first is written."""
    for path, _ in items:
        check_target(path, force=force)
    return [write_file(path, data, force=force) for path, data in items]


def write_file(path: Path, data: bytes, *, force: bool) -> Path:
    """Write `data` to `path` through a temporary file renamed into place (see the module's description)."""
    check_target(path, force=force)
    folder = path.parent if str(path.parent) else Path(".")
    try:  # a missing folder is made, the same way for every command that writes files (export, diagram, html)
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot make the folder {folder}: {exc.strerror or exc}") from exc
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        check_target(path, force=force)  # a link or file made meanwhile is not replaced either
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc
        raise
    return path


def write_output(output: Path | None, text: str, *, force: bool) -> Path | None:
    """A page or picture to `output` (None or `-`: standard output) as UTF-8; the path written, or None.

    Record text in it is already made safe (render/safe_text.py); "replace" only guards the encoding.
    """
    data = text.encode("utf-8", "replace")
    if output is None or str(output) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return None
    return write_file(output, data, force=force)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
