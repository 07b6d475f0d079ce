"""The archive's change marker (the table `archive_state`, one row): made with the other tables, moved by every
writer (import, fix, undo, delete, alias, reindex) in the transaction of its change, whichever process writes, and
read in one small query by `Archive.version()`, so that a reader that keeps answers (the web application's game
pages) sees any change at its next request. An archive made before the marker has none until it is opened where it
can be written; until then its version is None, and a reader keeps nothing."""

from __future__ import annotations

from sqlalchemy import Connection, Engine, Table, inspect, text
from sqlalchemy.exc import OperationalError, ProgrammingError

from .db import writer
from .models import ArchiveStateRow

STATE_TABLE = ArchiveStateRow.__tablename__
_READ = text(f"SELECT version FROM {STATE_TABLE} WHERE id = 1")
_MOVE = text(f"UPDATE {STATE_TABLE} SET version = version + 1 WHERE id = 1")
_FIRST = text(f"INSERT INTO {STATE_TABLE} (id, version) SELECT 1, 0 WHERE NOT EXISTS "
              f"(SELECT 1 FROM {STATE_TABLE} WHERE id = 1)")


def _table() -> Table:
    return ArchiveStateRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it


def has_state(engine: Engine) -> bool:
    return inspect(engine).has_table(STATE_TABLE)


def ensure_state(engine: Engine) -> None:
    """Make the marker's table and its row when they are missing (under the write lock)."""
    _table().create(writer(engine), checkfirst=True)
    with writer(engine).begin() as conn:
        conn.execute(_FIRST)


def mark_changed(conn: Connection) -> None:
    """Move the marker, in the transaction of `conn` that changes the archive: the change and the new version are
    seen together. An archive without the marker (made before it, written by an engine that did not open it as a
    writer does) is left as it is: its readers keep no answers."""
    if not inspect(conn).has_table(STATE_TABLE):  # asked first: a failed statement would end PostgreSQL's transaction
        return
    if conn.execute(_MOVE).rowcount == 0:  # the table without its row
        conn.execute(_FIRST)
        conn.execute(_MOVE)


def read_version(engine: Engine) -> int | None:
    """The marker's version: a number that every committed change moves; None for an archive without it."""
    try:
        with engine.connect() as conn:
            found = conn.execute(_READ).scalar()
    except (OperationalError, ProgrammingError):  # no such table: an archive made before the marker
        return None
    return None if found is None else int(found)
