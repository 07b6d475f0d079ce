"""`Archive`: one object over one archive, the front door that the CLI, the web application and Python code use.

    >>> from boardrecords import Archive
    >>> with Archive("records.db") as archive:       # read-only; Archive(url, write=True) to change it
    ...     page = archive.search(game="cation")

It takes its settings as arguments (the environment is read once, by the faces: the CLI's entry and `serve`), and
every question is one method returning a typed answer (archive/answers.py) whose `to_json()` is the object that
the commands' `--json` and the web application's `/api/` routes give. Errors are the family of common/errors.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from types import TracebackType

    from sqlalchemy import Engine


class Archive:
    """An archive on SQLite (a file path) or PostgreSQL (a SQLAlchemy URL), opened read-only unless `write`;
    `create` makes a new one (and implies `write`). Use it as a context manager, or call `close()`."""

    def __init__(self, db: str, *, write: bool = False, create: bool = False) -> None:
        from .store.access import open_archive

        self.db = db
        self.writable = write or create
        self.engine: Engine = open_archive(db, create=create, write=self.writable)

    def close(self) -> None:
        """Let go of the archive's connections."""
        self.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- read questions ------------------------------------------------------------------------------------------

    # -- writers -------------------------------------------------------------------------------------------------
