"""The one exception family of `records`: every error the library raises on purpose is a `RecordsError`.

- `InputError` (also a `ValueError`): what was given cannot be used as asked: a bad filter, move, pattern,
  position, setting or option, or a path that is not read. The CLI exits 2 for it, the web answers 400.
- `Unreadable` (an `InputError`): a file or a stored record that opens but cannot be read as a record (the
  verdict `unreadable`). The CLI exits 1 for it, as for a record that does not pass; the web answers 400.
- `NotFound` (also a `LookupError`): nothing by that id or name. The CLI exits 1, the web answers 404.
- `ArchiveError`: the archive cannot be opened, read or written as asked (a missing file, a foreign database, a
  server that refuses). The CLI exits 2, the web answers 503.

Each class that narrows these is documented where it is raised; the faces translate only these (cli/common.py to
an exit status, web/app.py to an HTTP status), so the same bad input gives the same answer from every command and
route. Every `RecordsError` is one of `InputError`, `NotFound` and `ArchiveError`: the faces need no other case.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class RecordsError(Exception):
    """The base of every error `records` raises on purpose; `str()` is the one-line message a user reads."""


class InputError(RecordsError, ValueError):
    """What was given cannot be used as asked (a filter, a move, a pattern, a setting, a path not read).

    `field`: the option (query parameter) the error concerns, by its option name (`from`, `moves`), when it is
    known; a form shows the message beside that field."""

    field: str | None = None


@contextmanager
def concerning(field: str) -> Iterator[None]:
    """An InputError raised inside concerns `field` (unless it already names one)."""
    try:
        yield
    except InputError as exc:
        if exc.field is None:
            exc.field = field
        raise


class Unreadable(InputError):
    """A file or a stored record that opens but cannot be read as a record."""


class NotFound(RecordsError, LookupError):
    """Nothing by that id or name."""


class ArchiveError(RecordsError):
    """The archive cannot be opened, read or written as asked."""
