"""Where the archive lives: `--db`, else `RECORDS_DB` (the commands read it), else `records.db` in the current folder.

`--db` takes a file path (SQLite) or any SQLAlchemy URL (`postgresql+psycopg://user:pw@host/db`). SQLite runs in WAL
mode with a busy timeout and foreign keys on, so that searches read while an import writes and two imports into one
file take turns instead of failing. Opening an archive and making its tables: archive/store/access.py.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, unquote

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, OperationalError
from sqlmodel import Session

# The archive cannot be opened or used: a one-line reason for the user (the CLI exits with 2, the web answers
# 503). The family's own class, named here too, where the archive raises it.
from ...common.errors import ArchiveError
from ...common.settings import ENV_DB

DEFAULT_DB = "records.db"
BUSY_TIMEOUT_MS = 60_000
T = TypeVar("T")


def resolve_url(db: str | None) -> str:
    """The SQLAlchemy URL of the archive named by `db` (a path or a URL; None: the default, records.db here; the
    commands give RECORDS_DB's value when there is no --db)."""
    target = db or DEFAULT_DB
    if "://" in target:
        return target
    return "sqlite:///" + str(Path(target).expanduser().resolve())


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL, or None for other databases and in-memory SQLite."""
    if not url.startswith("sqlite"):
        return None
    path = url.split(":///", 1)[1] if ":///" in url else ""
    path = path.split("?", 1)[0]
    return Path(path) if path and path != ":memory:" else None


# A reader's pool: 5 connections kept, up to 40 in all, one for each worker thread of `records serve` (Starlette's
# thread pool runs 40 requests at once), so that no quick question waits for a connection; the heavy questions have
# a pool of their own (archive/front.py). A command opens one or two.
READ_POOL = (5, 35)


def make_engine(db: str | None = None, *, must_exist: bool = False, read_only: bool = False,
                pool: tuple[int, int] | None = None) -> Engine:
    """An engine for the archive; `must_exist` refuses a SQLite file that is not there (read-only commands).

    `read_only` opens it for reading only: SQLite with every write refused (`PRAGMA query_only`; `mode=ro` where
    the file or its folder cannot be written, and without switching to WAL, which needs write access), so that a
    read-only file or folder can still be searched and nothing is left beside the file; PostgreSQL with read-only
    transactions. `pool`: the connections kept and the more opened when needed (default: READ_POOL for a reader,
    SQLAlchemy's for a writer).
    """
    url = resolve_url(db)
    path = sqlite_path(url)
    if path is not None:
        check_sqlite_path(path, named(db), must_exist=must_exist)
    pool = pool or (READ_POOL if read_only else None)
    # In-memory SQLite has a pool of one connection per thread, which takes no size.
    sized = {} if pool is None or (url.startswith("sqlite") and path is None) else \
        {"pool_size": pool[0], "max_overflow": pool[1]}
    try:
        if url.startswith("sqlite"):
            if read_only and path is not None:
                url = read_only_sqlite_url(path)
            engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **sized)
            _configure_sqlite(engine, read_only=read_only)
        elif read_only and url.startswith("postgresql"):
            engine = create_engine(url, pool_pre_ping=True,
                                   connect_args={"options": "-c default_transaction_read_only=on"}, **sized)
        else:
            engine = create_engine(url, pool_pre_ping=True, **sized)
    except NoSuchModuleError as exc:
        scheme = url.split("://", 1)[0]
        raise ArchiveError(f"{describe_url(url)}: {scheme!r} is not a database SQLAlchemy knows (use a SQLite file, "
                           "sqlite:///PATH or postgresql+psycopg://USER@HOST/DB)") from exc
    except ImportError as exc:
        raise ArchiveError(f"{describe_url(url)}: its database driver is not installed ({exc.name or exc}); "
                           f"{_driver_hint(url)}") from exc
    except (ArgumentError, ValueError) as exc:
        raise ArchiveError(f"cannot use database {describe_url(url)}: {first_line(exc)}") from exc
    return engine


# What to install for the drivers users name most; any other: the driver SQLAlchemy's documentation names.
_DRIVERS = {
    "postgresql": 'pip install "boardrecords[postgres]" (psycopg), and use postgresql+psycopg://',
    "postgresql+psycopg": 'pip install "boardrecords[postgres]"',
    "postgresql+psycopg2": "pip install psycopg2-binary",
    "mysql": "pip install mysqlclient",
    "mysql+pymysql": "pip install PyMySQL",
    "mariadb": "pip install mariadb",
}


def _driver_hint(url: str) -> str:
    scheme = url.split("://", 1)[0].lower()
    return _DRIVERS.get(scheme, f"install the Python driver for {scheme}")


def named(db: str | None) -> str:
    """The archive as the user named it (`--db`, else RECORDS_DB, as the commands give it; else the default), for
    messages: a path as typed, a URL without its password."""
    target = db or DEFAULT_DB
    if "://" not in target:
        return target
    path = sqlite_path(target)
    return str(path) if path is not None else describe_url(target)


# The first bytes of every SQLite database file (an empty file is a database too: SQLite writes it on first use).
_SQLITE_MAGIC = b"SQLite format 3\x00"


def check_sqlite_path(path: Path, shown: str, *, must_exist: bool) -> None:
    """What is wrong with the path of a SQLite archive, in the user's words, before SQLite says it in its own ("disk
    I/O error", "unable to open database file"): a folder, a missing folder, a file that is not a database, or (when
    the archive must exist) nothing there."""
    if path.is_dir():
        raise ArchiveError(f"{shown} is a folder, not an archive: name a file, e.g. {os.path.join(shown, DEFAULT_DB)}")
    if not path.exists():
        folder, folder_shown = path.parent, os.path.dirname(shown.rstrip("/")) or "."
        if must_exist:
            if not folder.is_dir():
                raise ArchiveError(f"no archive at {shown}: the folder {folder_shown} does not exist")
            raise ArchiveError(f"no archive at {shown} (run `records import` first, or give --db / {ENV_DB})")
        if not folder.exists():
            raise ArchiveError(f"cannot create the archive {shown}: the folder {folder_shown} does not exist")
        if not folder.is_dir():
            raise ArchiveError(f"cannot create the archive {shown}: {folder_shown} is a file, not a folder")
        return
    try:
        with path.open("rb") as file:
            head = file.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        raise ArchiveError(f"cannot read {shown}: {exc.strerror or exc}") from exc
    if head and head != _SQLITE_MAGIC:
        raise ArchiveError(f"{shown} is not an archive: the file is not a SQLite database")


def describe_url(url: str) -> str:
    """The URL without its password, for messages: the user part's password and the value of every query parameter
    named like one (`?password=...`, `sslpassword=`) shown as `***`."""
    if "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    rest, mark, query = rest.partition("?")
    if "@" in rest:
        creds, host = rest.rsplit("@", 1)
        user, _, password = creds.partition(":")
        rest = f"{user}:***@{host}" if password else f"{user}@{host}"
    if mark:
        query = "&".join(_masked_parameter(part) for part in query.split("&"))
    return f"{scheme}://{rest}{mark}{query}"


def _masked_parameter(part: str) -> str:
    name, equals, value = part.partition("=")
    return f"{name}=***" if equals and value and "password" in unquote(name).lower() else part


def read_only_sqlite_url(path: Path) -> str:
    """A SQLite URI that opens `path` for reading (the connections refuse every write: `PRAGMA query_only`, set by
    the engine).

    Where the file and its folder can be written, it is opened `mode=rw` (never created): SQLite keeps the
    write-ahead log's two files (-wal, -shm) beside a WAL archive while it is open, as every reader of one must to
    see what other processes write, and its last connection removes them when it closes; a `mode=ro` connection
    could not, and left them behind. Elsewhere it is opened `mode=ro`, and when nobody can write beside the file (a
    read-only folder) and it has no write-ahead log waiting, as immutable: SQLite then needs no -shm file to read a
    WAL archive.
    """
    folder = path.parent
    wal = path.with_name(path.name + "-wal")
    if os.access(folder, os.W_OK) and os.access(path, os.W_OK):
        query = "mode=rw&uri=true"
    else:
        query = "mode=ro&uri=true"
        if not os.access(folder, os.W_OK) and not wal.exists():
            query += "&immutable=1"
    return f"sqlite:///file:{quote(str(path), safe='/')}?{query}"


def _configure_sqlite(engine: Engine, *, read_only: bool = False) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling is switched off so that we can say BEGIN IMMEDIATE ourselves.
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if read_only:  # no statement may change the archive, however it was opened (read_only_sqlite_url)
            cur.execute("PRAGMA query_only = ON")
        else:  # switching to WAL writes the file; readers take the journal mode the file has
            _switch_to_wal(cur)
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # A writer takes the write lock at BEGIN: a deferred transaction that upgrades later can fail at once with
        # "database is locked" (the busy handler cannot help it), which is what two concurrent imports would hit.
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


def _switch_to_wal(cursor: Any) -> None:
    """WAL mode, waited for: SQLite answers "database is locked" at once, without its busy handler, while another
    connection holds the file that is being switched (two imports creating one new archive)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except Exception as exc:  # the driver's OperationalError
            if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)


def writer(engine: Engine) -> Engine:
    """The same engine, taking SQLite's write lock when a transaction begins (a no-op elsewhere)."""
    return engine.execution_options(sqlite_begin="IMMEDIATE")


# `--text` is a substring search. SQLite answers it from an FTS5 table with the trigram tokenizer (rowid = game id,
# contentless: the text itself stays in game.search_text); PostgreSQL from a trigram GIN index (pg_trgm, a trusted
# extension the database owner may create). Without them the search still works, by reading every row.
TEXT_TABLE = "game_text"
_SQLITE_TEXT = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {TEXT_TABLE} USING fts5(search_text, content='', tokenize='trigram')",
    # Triggers keep it in step with `game` in the same transaction, whoever writes the rows.
    f"CREATE TRIGGER IF NOT EXISTS game_text_insert AFTER INSERT ON game BEGIN "
    f"INSERT INTO {TEXT_TABLE}(rowid, search_text) VALUES (new.id, new.search_text); END",
    f"CREATE TRIGGER IF NOT EXISTS game_text_delete AFTER DELETE ON game BEGIN "
    f"INSERT INTO {TEXT_TABLE}({TEXT_TABLE}, rowid, search_text) VALUES ('delete', old.id, old.search_text); END",
    f"CREATE TRIGGER IF NOT EXISTS game_text_update AFTER UPDATE OF search_text ON game BEGIN "
    f"INSERT INTO {TEXT_TABLE}({TEXT_TABLE}, rowid, search_text) VALUES ('delete', old.id, old.search_text); "
    f"INSERT INTO {TEXT_TABLE}(rowid, search_text) VALUES (new.id, new.search_text); END",
)
_PG_TEXT_INDEX = "CREATE INDEX IF NOT EXISTS ix_game_search_text_trgm ON game USING gin (search_text gin_trgm_ops)"


def create_text_index(engine: Engine) -> None:
    dialect = engine.dialect.name
    if dialect == "sqlite":
        with writer(engine).begin() as conn:
            for statement in _SQLITE_TEXT:
                conn.exec_driver_sql(statement)
    elif dialect == "postgresql" and has_trigrams(engine):  # else `--text` reads every row instead
        with engine.begin() as conn:
            conn.exec_driver_sql(_PG_TEXT_INDEX)


def has_trigrams(engine: Engine) -> bool:
    """Whether PostgreSQL's pg_trgm is there, created now if it may be (a trusted extension the database owner may
    create); False where it is not allowed."""
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DBAPIError:
        return False
    return True


# A player-name wildcard (`--player 'lee*'`) is matched first against the distinct names of `player_name`
# (models.PlayerNameRow) through a trigram index, then the games are read through the name columns' own indexes.
# Triggers on `game` keep the names in step with the records in the same transaction, whoever writes them.
NAME_TABLE = "player_name"
NAME_TEXT = "player_name_text"  # SQLite: the FTS5 trigram table over player_name
NAME_COLUMNS = ("black_norm", "white_norm", "black_final_norm", "white_final_norm", "winner_norm")


def _names_of(row: str) -> str:
    return " UNION ".join(f"SELECT {row}.{c} AS n" for c in NAME_COLUMNS)


def _unused(row: str) -> str:
    """The condition that a name of `row` (old) is held by no game any more (each test one index lookup)."""
    held = " AND ".join(f"NOT EXISTS (SELECT 1 FROM game WHERE game.{c} = {NAME_TABLE}.name)" for c in NAME_COLUMNS)
    return f"name IN ({', '.join(f'{row}.{c}' for c in NAME_COLUMNS)}) AND {held}"


_SQLITE_NAMES = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {NAME_TEXT} USING fts5(name, content='{NAME_TABLE}', content_rowid='id', "
    "tokenize='trigram')",
    f"CREATE TRIGGER IF NOT EXISTS player_name_text_insert AFTER INSERT ON {NAME_TABLE} BEGIN "
    f"INSERT INTO {NAME_TEXT}(rowid, name) VALUES (new.id, new.name); END",
    f"CREATE TRIGGER IF NOT EXISTS player_name_text_delete AFTER DELETE ON {NAME_TABLE} BEGIN "
    f"INSERT INTO {NAME_TEXT}({NAME_TEXT}, rowid, name) VALUES ('delete', old.id, old.name); END",
    f"CREATE TRIGGER IF NOT EXISTS game_names_insert AFTER INSERT ON game BEGIN "
    f"INSERT OR IGNORE INTO {NAME_TABLE}(name) SELECT n FROM ({_names_of('new')}) WHERE n IS NOT NULL; END",
    f"CREATE TRIGGER IF NOT EXISTS game_names_update AFTER UPDATE OF {', '.join(NAME_COLUMNS)} ON game BEGIN "
    f"INSERT OR IGNORE INTO {NAME_TABLE}(name) SELECT n FROM ({_names_of('new')}) WHERE n IS NOT NULL; "
    f"DELETE FROM {NAME_TABLE} WHERE {_unused('old')}; END",
    f"CREATE TRIGGER IF NOT EXISTS game_names_delete AFTER DELETE ON game BEGIN "
    f"DELETE FROM {NAME_TABLE} WHERE {_unused('old')}; END",
)
_PG_NAMES = (
    f"""CREATE OR REPLACE FUNCTION game_names() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO {NAME_TABLE}(name) SELECT DISTINCT n FROM ({_names_of('NEW')}) AS given
        WHERE n IS NOT NULL ON CONFLICT (md5(name)) DO NOTHING;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM {NAME_TABLE} WHERE {_unused('OLD')};
    END IF;
    RETURN NULL;
END $$""",
    f"CREATE OR REPLACE TRIGGER game_names AFTER INSERT OR DELETE OR UPDATE OF {', '.join(NAME_COLUMNS)} ON game "
    "FOR EACH ROW EXECUTE FUNCTION game_names()",
)
_PG_NAME_INDEX = f"CREATE INDEX IF NOT EXISTS ix_player_name_trgm ON {NAME_TABLE} USING gin (name gin_trgm_ops)"
_FILL_NAMES = (f"INSERT INTO {NAME_TABLE}(name) SELECT n FROM ("
               + " UNION ".join(f"SELECT {c} AS n FROM game WHERE {c} IS NOT NULL" for c in NAME_COLUMNS)
               + ") AS held")


# The layout of PostgreSQL archives made before the indexes of long text (models.LONG_TEXT_COLUMNS): B-trees that
# refuse a name past about 2,700 bytes, changed once by the first writer that opens the archive.
_PG_LONG_TEXT = (
    "ALTER TABLE player_name DROP CONSTRAINT IF EXISTS player_name_name_key",
    "CREATE UNIQUE INDEX IF NOT EXISTS uq_player_name_md5 ON player_name (md5(name))",
    "CREATE INDEX IF NOT EXISTS ix_player_name_name ON player_name USING hash (name)",
)


def hash_long_text(engine: Engine) -> None:
    """On PostgreSQL, the indexes of the columns of long text as hash indexes (models.LONG_TEXT_COLUMNS) where an
    older archive has B-trees; nothing elsewhere, or when they are hash indexes already."""
    from .models import LONG_TEXT_COLUMNS

    if engine.dialect.name != "postgresql":
        return
    names = [f"ix_game_{c}" for c in LONG_TEXT_COLUMNS]
    with writer(engine).begin() as conn:
        btrees = {row[0] for row in conn.execute(text(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'game' AND indexdef LIKE '%USING btree%' "
            "AND indexname = ANY(:names)"), {"names": names})}
        for column in LONG_TEXT_COLUMNS:
            if f"ix_game_{column}" in btrees:
                conn.exec_driver_sql(f"DROP INDEX ix_game_{column}")
                conn.exec_driver_sql(f"CREATE INDEX ix_game_{column} ON game USING hash ({column})")
        if conn.exec_driver_sql("SELECT 1 FROM pg_constraint WHERE conname = 'player_name_name_key'").first():
            for statement in _PG_LONG_TEXT:
                conn.exec_driver_sql(statement)


def create_name_index(engine: Engine) -> None:
    """The player names' trigram index and the triggers that keep `player_name` in step with `game`; on an archive
    made before it, `player_name` filled from the records once. PostgreSQL without pg_trgm (the extension may not
    be created here): the names are still kept, and a wildcard reads the list of names instead of the games."""
    dialect = engine.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        return
    hash_long_text(engine)  # before the trigger, whose insert names the unique index by the names' MD5
    with writer(engine).begin() as conn:
        if dialect == "sqlite":
            made = conn.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND "
                                        "name = 'game_names_insert'").first() is not None
            for statement in _SQLITE_NAMES:
                conn.exec_driver_sql(statement)
        else:
            made = conn.exec_driver_sql("SELECT 1 FROM pg_trigger WHERE tgname = 'game_names'").first() is not None
            for statement in _PG_NAMES:
                conn.exec_driver_sql(statement)
        if not made:
            conn.exec_driver_sql(f"DELETE FROM {NAME_TABLE}")
            conn.exec_driver_sql(_FILL_NAMES)
    # Without pg_trgm a wildcard reads the list of names (still far fewer rows than the games).
    if dialect == "postgresql" and has_trigrams(engine):
        with engine.begin() as conn:
            conn.exec_driver_sql(_PG_NAME_INDEX)


def drop_text_index(engine: Engine) -> None:
    """Drop PostgreSQL's trigram index (bulk loads rebuild it once at the end with create_text_index)."""
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.exec_driver_sql("DROP INDEX IF EXISTS ix_game_search_text_trgm")


def has_schema(engine: Engine) -> bool:
    return inspect(engine).has_table("game")


def is_transient(exc: BaseException) -> bool:
    """Whether a database error is worth retrying: SQLite busy/locked, PostgreSQL deadlock or serialisation."""
    if not isinstance(exc, DBAPIError):
        return False
    text = str(exc.orig).lower()
    if isinstance(exc, OperationalError) and any(s in text for s in ("locked", "busy", "deadlock")):
        return True
    return any(s in text for s in ("deadlock detected", "could not serialize"))


def retrying(action: Callable[[], T], *, attempts: int = 20) -> T:
    """Run `action` (one whole transaction) again after a transient failure, with a growing pause."""
    for attempt in range(attempts):
        try:
            return action()
        except DBAPIError as exc:
            if attempt == attempts - 1 or not is_transient(exc):
                raise
            time.sleep(min(0.05 * 2**attempt, 2.0))
    raise AssertionError("unreachable")


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """A read session whose objects stay usable after it closes."""
    with Session(engine, expire_on_commit=False) as session:
        yield session


def first_line(exc: BaseException | None) -> str:
    text = str(exc) if exc is not None else ""
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__
