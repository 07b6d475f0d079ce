"""Opening the archive: where it lives (archive/core/db.py), its tables made when an import creates it (the
position index's triggers and counts with them), an older archive brought up to date when a command that writes
opens it, and a stored record read back by id for `records replay ID`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from sqlalchemy import Engine, inspect
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import SQLModel

from ..core.db import (
    NAME_TEXT,
    TEXT_TABLE,
    ArchiveError,
    create_name_index,
    create_text_index,
    first_line,
    has_schema,
    make_engine,
    named,
    writer,
)
from ..core.models import WINNERS_INDEX, GameRow  # and with it every table, on SQLModel.metadata
from ..core.state import ensure_state, has_state
from ..tournaments.official import TABLES as TOURNAMENT_TABLES  # the official tournaments' tables, on the metadata

# PostgreSQL: the advisory lock that makes the set-up of the tables one process's at a time.
SCHEMA_LOCK = 7206522


def create_schema(engine: Engine) -> None:
    """Create the tables that are missing. Two processes may race here; the loser finds the tables made."""
    from ..positions.stage import prepare_positions

    for attempt in range(5):
        try:
            with _one_at_a_time(engine):
                _give_back_free_pages(engine)
                SQLModel.metadata.create_all(writer(engine))
                ensure_state(engine)
                create_text_index(engine)
                create_name_index(engine)
                prepare_positions(engine)
            return
        except DBAPIError as exc:
            if attempt == 4 or not _is_race(exc):
                raise
            time.sleep(0.2 * (attempt + 1))


@contextmanager
def _one_at_a_time(engine: Engine) -> Iterator[None]:
    """On PostgreSQL, hold the schema's advisory lock: two imports creating one archive at once would otherwise
    replace its trigger functions together ("tuple concurrently updated"). SQLite's write lock does this itself."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with writer(engine).connect() as conn:
        conn.exec_driver_sql(f"SELECT pg_advisory_lock({SCHEMA_LOCK})")
        conn.commit()
        try:
            yield
        finally:
            conn.exec_driver_sql(f"SELECT pg_advisory_unlock({SCHEMA_LOCK})")
            conn.commit()


# Columns added to `game` after archives were made with the layout before them: a writer adds them when it opens
# such an archive (`records reindex` then fills them).
ADDED_COLUMNS = {"signature": "VARCHAR", "source_line": "INTEGER", "source_column": "INTEGER", "line_hash": "BIGINT",
                 "head_hash": "BIGINT"}
INDEXED_COLUMNS = frozenset({"signature", "head_hash"})  # the added columns that have an index


def add_missing_columns(engine: Engine) -> list[str]:
    """Add the ADDED_COLUMNS an older archive lacks (and their indexes); the names added."""
    have = {c["name"] for c in inspect(engine).get_columns("game")}
    added = [name for name in ADDED_COLUMNS if name not in have]
    if added:
        with writer(engine).begin() as conn:
            for name in added:
                conn.exec_driver_sql(f"ALTER TABLE game ADD COLUMN {name} {ADDED_COLUMNS[name]}")
                if name in INDEXED_COLUMNS:
                    conn.exec_driver_sql(f"CREATE INDEX IF NOT EXISTS ix_game_{name} ON game ({name})")
    return added


def _give_back_free_pages(engine: Engine) -> None:
    """A new SQLite archive returns its free pages to the file system at every commit (auto_vacuum = FULL), so that
    the pages an emptied stage or a delete frees leave no hole in the file. It can only be chosen while the file
    holds no table (an older archive is switched once by its migration: archive/positions/stage.py)."""
    if engine.dialect.name != "sqlite":
        return
    raw = engine.raw_connection()  # VACUUM runs outside a transaction: the DB-API connection, in autocommit
    try:
        cursor = raw.cursor()
        if cursor.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is None:
            cursor.execute("PRAGMA auto_vacuum = FULL")
            cursor.execute("VACUUM")  # the file's header already exists (WAL mode): VACUUM writes the setting
        cursor.close()
    finally:
        raw.close()


def upgrade_schema(engine: Engine) -> None:
    """What a command that writes needs of an archive made by an older version: the position index's newer tables
    and its migration (archive/positions/stage.py), the player names' index (filled once, archive/core/db.py), and
    the change marker (archive/core/state.py), without the merge or the tables only an import makes; and the
    accounts' tables (archive/store/accounts.py) and the recordings' (archive/store/recordings.py)."""
    from ..core.models import (
        AccountKeyRow,
        AccountRow,
        ArchiveSettingRow,
        AuditRow,
        LoginFailureRow,
        PlayerNameRow,
        PositionCountRow,
        PositionGameRow,
        PositionRow,
        PositionStageRow,
        RecordingMoveRow,
        RecordingRow,
    )
    from ..positions.stage import upgrade_positions

    tables = [SQLModel.metadata.tables[m.__tablename__]
              for m in (PositionRow, PositionGameRow, PositionStageRow, PositionCountRow, PlayerNameRow, AccountRow,
                        AccountKeyRow, ArchiveSettingRow, AuditRow, LoginFailureRow, RecordingRow,
                        RecordingMoveRow)]
    tables += TOURNAMENT_TABLES  # an archive made before the official tournaments
    with _one_at_a_time(engine):
        SQLModel.metadata.create_all(writer(engine), tables=tables)
        WINNERS_INDEX.create(writer(engine), checkfirst=True)  # an archive made before it
        ensure_state(engine)
        create_name_index(engine)
        upgrade_positions(engine)


def _is_race(exc: DBAPIError) -> bool:
    text = str(exc.orig).lower()
    return any(s in text for s in ("already exists", "locked", "busy", "duplicate key", "deadlock",
                                   "concurrently updated"))


def open_archive(db: str | None, *, create: bool = False, write: bool = False) -> Engine:
    """The engine of an existing archive, or of a new one with `create`, checked to be reachable. Read-only unless
    the command changes the archive (`write`, `create`).

    Raises ArchiveError with a one-line reason when the database cannot be reached or holds no archive.
    """
    engine = make_engine(db, must_exist=not create, read_only=not (create or write))
    where = named(db)
    try:
        if create:
            _refuse_foreign(engine, where)
            create_schema(engine)
            add_missing_columns(engine)
        elif not has_schema(engine):
            raise ArchiveError(f"{where} holds no archive (run `records import` first)")
        elif write:
            upgrade_schema(engine)
            add_missing_columns(engine)
        else:
            lacking = bool(set(ADDED_COLUMNS) - {c["name"] for c in inspect(engine).get_columns("game")})
            if lacking or not has_state(engine):
                _upgrade_for_reading(db, where, columns=lacking)
    except OperationalError as exc:
        engine.dispose()
        raise ArchiveError(f"cannot reach database {where}: {first_line(exc.orig)}") from exc
    except DBAPIError as exc:
        engine.dispose()
        raise ArchiveError(f"database error on {where}: {first_line(exc.orig)}") from exc
    return engine


def _upgrade_for_reading(db: str | None, where: str, *, columns: bool) -> None:
    """An archive made before ADDED_COLUMNS (`columns`) or before the change marker, opened for reading: what it
    lacks is added (the columns empty until `records reindex`) through a short writing connection. The columns
    must be there, since every read of a game row names them; the marker need not: an archive that cannot be
    written to add it is read without it (Archive.version() is None, and the web application keeps no page)."""
    engine = make_engine(db, must_exist=True)
    try:
        if columns:
            try:
                add_missing_columns(engine)
            except DBAPIError as exc:
                raise ArchiveError(f"{where} was made before the columns {', '.join(ADDED_COLUMNS)} and cannot be "
                                   f"written to add it ({first_line(exc.orig)}): open it once where it can be "
                                   "written") from exc
        with suppress(DBAPIError):  # read as it is, without the marker
            ensure_state(engine)
    finally:
        engine.dispose()


def _refuse_foreign(engine: Engine, where: str) -> None:
    """An SQLite file that holds another program's tables, or an archive of another layout, is left alone."""
    if engine.dialect.name != "sqlite":
        return  # a server database is named for the archive on purpose; its other schemas are not ours to judge
    insp = inspect(engine)
    names = set(insp.get_table_names())
    ours = {t.name for t in SQLModel.metadata.sorted_tables}
    foreign = sorted(n for n in names - ours if not n.startswith((TEXT_TABLE, NAME_TEXT, "sqlite_")))
    if foreign:
        listed = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
        raise ArchiveError(f"{where} holds tables of another program ({listed}); records adds none of its own "
                           "there: name another file with --db")
    if "game" in names:
        have = {c["name"] for c in insp.get_columns("game")}
        missing = sorted(set(GameRow.model_fields) - have - set(ADDED_COLUMNS))
        if missing:
            raise ArchiveError(f"{where} holds an archive of an older layout (no {', '.join(missing[:3])}); import "
                               "the records into a new archive")
