"""What input is read: regular files (and `-`, standard input) up to a size cap; anything else is refused at once.

Reading a record takes memory in proportion to its size: about 80 bytes per byte of a file of bare moves, more
for a collection of many tiny records (measured at the 3 MiB default: 285 MB to verify 786K passes, 316 MB to
import them, 404 MB to import 87K small games). The cap keeps one file's cost bounded; callers pass it
(`Settings.max_file_size`, common/settings.py: the commands take it from RECORDS_MAX_FILE_SIZE, bytes or with a
suffix: `64K`, `16M`, `1G`; `0` for no cap).

Memory also grows with the number of records (about 4 KB each while they are imported, however small), so one
file may hold at most 100,000 game records (records/reader.py; `Settings.max_records`, RECORDS_MAX_RECORDS).

FIFOs, devices, sockets and folders named as files are refused without being opened (a FIFO would block, a device
such as /dev/zero would never end).
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path

from ..common.errors import InputError
from ..common.settings import DEFAULT_MAX_FILE_SIZE, ENV_MAX_FILE_SIZE

STDIN = "-"


class InputRefused(InputError, OSError):
    """A path that is not read: it cannot be opened, or is not a regular file, or is larger than the cap. An
    InputError (a path that cannot be opened: `records` exits 2) and an OSError, with its errno, filename and
    `strerror`, which says why in words (callers that read many files catch OSError to report the file and go on).
    """

    def __init__(self, path: str, reason: str, code: int = errno.EINVAL) -> None:
        # OSError's own __init__ sets errno, strerror and filename (InputError's would set only the arguments).
        OSError.__init__(self, code, reason, path)

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def describe_size(n: int) -> str:
    if n >= 1024**2 and n % 1024**2 == 0:
        return f"{n // 1024**2} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n:,} bytes"


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _too_big(path: str, cap: int) -> InputRefused:
    return InputRefused(path, f"larger than the {describe_size(cap)} a file may have (set {ENV_MAX_FILE_SIZE} "
                              "to read bigger files)", errno.EFBIG)


def check_path(path: str | Path, max_file_size: int | None = DEFAULT_MAX_FILE_SIZE) -> None:
    """Refuse, without opening it, a path that is not a regular file or is over the cap `max_file_size` (None: no
    cap) (OSError as os.stat)."""
    name = str(path)
    if name == STDIN:
        return
    st = os.stat(name)
    kind = _kind(st.st_mode)
    if kind is not None:
        raise InputRefused(name, f"{kind}, not a regular file: only regular files and - (standard input) are read")
    if max_file_size is not None and st.st_size > max_file_size:
        raise _too_big(name, max_file_size)


def read_input(path: str | Path, max_file_size: int | None = DEFAULT_MAX_FILE_SIZE) -> bytes:
    """The bytes of a regular file (or of standard input for `-`), at most the cap `max_file_size` (None: no cap);
    InputRefused otherwise (also for a path that cannot be opened or read: its errno and strerror kept)."""
    name = str(path)
    try:
        return _read_input(name, max_file_size)
    except InputRefused:
        raise
    except OSError as exc:
        raise InputRefused(name, exc.strerror or str(exc), exc.errno or errno.EIO) from exc


def _read_input(name: str, cap: int | None) -> bytes:
    if name == STDIN:
        return _read_capped(sys.stdin.buffer.fileno(), name, cap)
    check_path(name, cap)
    # O_NONBLOCK: should the path have become a FIFO since it was checked, opening it must not wait for a writer.
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if _kind(os.fstat(fd).st_mode) is not None:
            raise InputRefused(name, "not a regular file: only regular files and - (standard input) are read")
        return _read_capped(fd, name, cap)
    finally:
        os.close(fd)


def _read_capped(fd: int, name: str, cap: int | None) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if cap is not None and total > cap:
            raise _too_big(name, cap)
        chunks.append(chunk)
