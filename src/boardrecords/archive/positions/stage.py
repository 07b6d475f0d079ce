"""Writing the position index: rows go first to a stage (`position_stage`), in the transaction of their game row,
and are merged into `position`, `position_count` and `position_game` in key order when the import run (or
`records reindex`) ends; a game's rows leave the index with it (`unindex`, the trigger on `game`).

Why a stage: `position` is clustered by key, and keys come in random order. Written batch by batch, once the table
is larger than SQLite's page cache, nearly every row dirtied a page of its own, written again at every commit (the
cost per row grew with the archive). The stage is appended in game order (its primary key is the game and the move
number), and one merge writes each page of the index once.

Exactness: a staged row belongs to its game (deleted with it, by the stage's foreign key), and a merge moves rows
from the stage to the index in one transaction. The staged rows of a game stand for all of its rows: a game staged
again (`records reindex`) keeps its indexed rows until the merge replaces them, and the questions read its staged
rows instead meanwhile (archive/positions/explore.py). So every stored game's positions are at every moment counted
once, staged or indexed. An interrupted import or reindex leaves its rows staged: the next command that opens the
archive for writing merges them.

Why no index on `position` by game: it took a third of the index's bytes and a third of the merge's time, for
deletes and the opening table alone. A deleted game's rows are found again by their keys, from its stored record
replayed (`unindex`; `position_game` holds how many rows it has, so that a key computed otherwise since, by a newer
verifier, is noticed and its rows found by reading the index once instead), and the opening table reads the key
after the opening turns from `position_game`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, count, repeat
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, Table, inspect
from sqlalchemy.exc import DBAPIError

from ..core.db import writer
from ..core.models import PositionStageRow
from .counts import (
    count_add,
    count_promote,
    create_count_trigger,
    drop_count_trigger,
    rebuild_counts,
)
from .values import OPENING_PLY

if TYPE_CHECKING:
    from .values import PositionValues

_COLUMNS = "key, game_id, ply, next, outcome, day"
# Below this many index rows per staged row the merge sums the counts afresh from the whole index (read once in key
# order) instead of adding the staged rows to them (a sort of the staged positions, and a look-up per position).
REBUILD_RATIO = 4
# SQLite's page cache during a merge (KiB; taken only as used): the sort of the merge keeps its runs in memory up
# to this size, and the pages of the index it writes stay there until the commit. PostgreSQL: the merge's
# work_mem.
MERGE_CACHE_KIB = 512 * 1024
# A delete replays the stored records of the games it deletes to find their rows by key while those rows are fewer
# than this share of the index (1/REPLAY_SHARE); beyond it, reading the whole index once costs less (a replay
# costs about 10 µs a row, a row of the index read about 0.1 µs).
REPLAY_SHARE = 100
# The old layout's index on (game_id, ply), and the temporary tables of a merge.
_OLD_INDEX = "ix_position_game_ply"
_SORTED = "position_sorted"
_MOVED = "position_moved"
_MOVED_GAMES = "position_moved_games"
_GONE = "position_gone"


def staged_rows(rows: Iterable[tuple[int, PositionValues | None]]) -> Iterator[tuple[Any, ...]]:
    """The stage's rows (key, game id, ply, next, outcome, day) of games (game id, values)."""
    return chain.from_iterable(
        zip(v.keys, repeat(gid), count(), chain(v.nexts, (None,)), v.outcomes, repeat(v.day), strict=False)
        for gid, v in rows if v is not None)


def stage_positions(conn: Connection, rows: Sequence[tuple[int, PositionValues | None]]) -> int:
    """Add the position rows of games (game id, values) to the stage, inside the caller's transaction."""
    total = sum(len(v.keys) for _, v in rows if v is not None)
    if not total:
        return 0
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]  # an open DB-API connection
    try:
        if conn.dialect.name == "postgresql":
            # Binary: no text made here and parsed by the server for every row (about a third less of both).
            with cursor.copy(f"COPY position_stage ({_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(["int8", "int4", "int2", "text", "int2", "int4"])
                for row in staged_rows(rows):
                    copy.write_row(row)
        else:  # the DB-API directly, from an iterator: no list of tuples, no SQLAlchemy processing per row
            marks = ", ".join("?" if conn.dialect.paramstyle == "qmark" else "%s" for _ in range(6))
            cursor.executemany(f"INSERT INTO position_stage ({_COLUMNS}) VALUES ({marks})", staged_rows(rows))
    finally:
        cursor.close()
    return total


def unstage(conn: Connection, ids: Sequence[int | None]) -> None:
    """Drop the staged rows of games (their positions are about to be made again)."""
    stage: Table = PositionStageRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
    conn.execute(stage.delete().where(stage.c.game_id.in_(list(ids))))


# -- a game's rows out of the index -----------------------------------------------------------------------------

def unindex(conn: Connection, ids: Sequence[int], keys_of: Callable[[int], Sequence[int] | None]) -> None:
    """Take the indexed rows of games out of the index (before the games are deleted, or when they no longer have
    positions), inside the caller's transaction; the counts follow (their trigger).

    `keys_of(game id)` gives the keys of a game's positions as its stored record gives them (None when it no
    longer does): its rows are deleted by key, one seek each, and counted against the rows the game holds. When
    the games hold many of the index's rows, or a game's keys do not find all of its rows, the rows are found by
    reading the index once. Staged rows are left to their foreign key."""
    if not ids:
        return
    _id_table(conn, ids)
    held = {int(g): int(n) for g, n in conn.exec_driver_sql(
        f"SELECT g.game_id, g.rows FROM position_game g JOIN {_GONE} d ON d.game_id = g.game_id")}
    if not held:
        return
    total = int(conn.exec_driver_sql("SELECT coalesce(sum(rows), 0) FROM position_game").scalar() or 0)
    left = list(held)
    if sum(held.values()) * REPLAY_SHARE < total:
        left = []
        for gid, rows in held.items():
            keys = keys_of(gid)
            found = 0
            if keys:
                listed = ", ".join(str(int(k)) for k in sorted(set(keys)))
                found = conn.exec_driver_sql(
                    f"DELETE FROM position WHERE game_id = {int(gid)} AND key IN ({listed})").rowcount
            if found != rows:
                left.append(gid)
    if left:
        _id_table(conn, left)
        conn.exec_driver_sql(f"DELETE FROM position WHERE game_id IN (SELECT game_id FROM {_GONE})")
    _id_table(conn, list(held))
    conn.exec_driver_sql(f"DELETE FROM position_game WHERE game_id IN (SELECT game_id FROM {_GONE})")


def _id_table(conn: Connection, ids: Sequence[int]) -> None:
    """A temporary table `{_GONE}` holding the game ids `ids` (a set that a statement reads whatever its size)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"CREATE TEMP TABLE IF NOT EXISTS {_GONE} (game_id integer PRIMARY KEY) "
                             "ON COMMIT DROP")
    else:
        conn.exec_driver_sql(f"CREATE TEMP TABLE IF NOT EXISTS {_GONE} (game_id INTEGER PRIMARY KEY)")
    conn.exec_driver_sql(f"DELETE FROM {_GONE}")
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    conn.exec_driver_sql(f"INSERT INTO {_GONE} (game_id) VALUES ({mark})", [(int(g),) for g in sorted(set(ids))])


# A game deleted by any other means (SQL of its own, a command that does not call `unindex`) takes its indexed
# rows along: read from the whole index, as the foreign key did before it was dropped, but only for games that
# still have rows there (`unindex` removes their `position_game` row first).
_SQLITE_GAME_DELETE = (
    "CREATE TRIGGER IF NOT EXISTS position_game_delete AFTER DELETE ON game "
    "WHEN EXISTS (SELECT 1 FROM position_game WHERE game_id = OLD.id) BEGIN "
    "DELETE FROM position WHERE game_id = OLD.id; DELETE FROM position_game WHERE game_id = OLD.id; END")
_PG_GAME_DELETE = (
    """CREATE OR REPLACE FUNCTION position_game_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM position_game g JOIN gone ON g.game_id = gone.id) THEN
    DELETE FROM position p USING position_game g, gone WHERE g.game_id = gone.id AND p.game_id = g.game_id;
    DELETE FROM position_game g USING gone WHERE g.game_id = gone.id;
  END IF;
  RETURN NULL;
END $$""",
    "DROP TRIGGER IF EXISTS position_game_delete ON game",
    "CREATE TRIGGER position_game_delete AFTER DELETE ON game REFERENCING OLD TABLE AS gone "
    "FOR EACH STATEMENT EXECUTE FUNCTION position_game_delete()",
)


def _create_game_trigger(conn: Connection) -> None:
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(_SQLITE_GAME_DELETE)
    elif conn.exec_driver_sql("SELECT 1 FROM pg_trigger WHERE tgname = 'position_game_delete'").first() is None:
        for statement in _PG_GAME_DELETE:
            conn.exec_driver_sql(statement)


# -- opening the archive ----------------------------------------------------------------------------------------

def prepare_positions(engine: Engine) -> None:
    """Bring the position index of an archive opened by an import or a reindex up to date (`upgrade_positions`),
    and merge the rows an interrupted import or reindex left in the stage."""
    upgrade_positions(engine)
    merge_pending(engine)


def upgrade_positions(engine: Engine) -> None:
    """The position index of an archive opened for writing made current: an archive of the layout before
    `position_game` migrated (below), the triggers made, the counts filled when the index is older than their
    table."""
    dialect = engine.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        return
    with writer(engine).begin() as conn:
        # The index on game_id alone became (game_id, ply), then went (see the module's docstring).
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_position_game_id")
        migrated = _migrate(conn)
        create_count_trigger(conn)
        _create_game_trigger(conn)
        # An index whose every position is reached fewer than COUNTED_AT times is summed again here each time,
        # and found to need no counts: such an archive is small (the start alone is reached by every game).
        if (conn.exec_driver_sql("SELECT 1 FROM position_count LIMIT 1").first() is None
                and conn.exec_driver_sql("SELECT 1 FROM position LIMIT 1").first() is not None):
            conn.exec_driver_sql(rebuild_counts())
    if migrated:
        give_back_space(engine)


def _migrate(conn: Connection) -> bool:
    """An archive whose `position` has a foreign key to `game` and an index on (game_id, ply): its games' rows
    counted into `position_game` (through that index, before it goes), rows of games deleted without their
    foreign key followed taken out, the index dropped, and on SQLite the table made again without the foreign key
    (SQLite cannot drop one; copied in key order into an empty table, its pages come out full). Whether it ran."""
    insp = inspect(conn)
    old_index = any(i["name"] == _OLD_INDEX for i in insp.get_indexes("position"))
    keyed = insp.get_foreign_keys("position")
    if not old_index and not keyed:
        return False
    if old_index:
        conn.exec_driver_sql("DELETE FROM position WHERE game_id NOT IN (SELECT id FROM game)")
        conn.exec_driver_sql("DELETE FROM position_game")
        conn.exec_driver_sql(
            "INSERT INTO position_game (game_id, rows, opening) SELECT game_id, count(*), "
            f"max(CASE WHEN ply = {OPENING_PLY} THEN key END) FROM position GROUP BY game_id")
        conn.exec_driver_sql(f"DROP INDEX {_OLD_INDEX}")
    if conn.dialect.name == "postgresql":
        for fk in keyed:
            conn.exec_driver_sql(f'ALTER TABLE position DROP CONSTRAINT "{fk["name"]}"')
        return True
    if keyed:
        # ALTER TABLE checks every trigger: none may name a table missing between the DROP and the RENAME.
        conn.exec_driver_sql("DROP TRIGGER IF EXISTS position_game_delete")
        ddl = _sqlite_position_ddl()
        conn.exec_driver_sql(ddl.replace("CREATE TABLE position ", "CREATE TABLE position_new ", 1))
        conn.exec_driver_sql("INSERT INTO position_new SELECT * FROM position")
        conn.exec_driver_sql("DROP TABLE position")
        conn.exec_driver_sql("ALTER TABLE position_new RENAME TO position")
    return True


def _sqlite_position_ddl() -> str:
    from sqlalchemy.dialects import sqlite
    from sqlalchemy.schema import CreateTable

    from ..core.models import PositionRow

    ddl = str(CreateTable(PositionRow.__table__).compile(dialect=sqlite.dialect()))  # type: ignore[attr-defined]
    return " ".join(ddl.split())


def give_back_space(engine: Engine) -> None:
    """Return the free pages of an archive to the file system. New SQLite archives do it at every commit
    (auto_vacuum = FULL, set when the archive is made); an older one is switched to it here, once, by a VACUUM
    that copies the whole file. PostgreSQL: the stage, emptied by a merge, is truncated."""
    if engine.dialect.name == "sqlite":
        raw = engine.raw_connection()  # VACUUM runs outside a transaction: the DB-API connection, in autocommit
        try:
            cursor = raw.cursor()
            if cursor.execute("PRAGMA auto_vacuum").fetchone()[0] == 0:
                cursor.execute("PRAGMA auto_vacuum = FULL")
                cursor.execute("VACUUM")
            cursor.close()
        finally:
            raw.close()
    elif engine.dialect.name == "postgresql":
        _truncate_empty_stage(engine)


def _truncate_empty_stage(engine: Engine) -> None:
    """PostgreSQL keeps the pages of emptied tables and of their indexes (VACUUM gives back a table's trailing
    pages only, never an index's): the stage, once empty, is truncated. Only while nobody else uses it: under an
    exclusive lock (taken without waiting, else left for the next import to fill again) no import has rows in it
    that are not committed, so an empty stage is truly empty."""
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("LOCK TABLE position_stage IN ACCESS EXCLUSIVE MODE NOWAIT")
            if conn.exec_driver_sql("SELECT 1 FROM position_stage LIMIT 1").first() is None:
                conn.exec_driver_sql("TRUNCATE position_stage")
    except DBAPIError:
        pass  # in use: its pages stay for the rows being staged


def has_pending(engine: Engine) -> bool:
    """Whether rows wait in the stage (an import is running, or was interrupted). An archive made before the stage
    existed, opened read-only, has none."""
    try:
        with engine.connect() as conn:
            return conn.exec_driver_sql("SELECT 1 FROM position_stage LIMIT 1").first() is not None
    except DBAPIError:
        return False


def has_game_index(engine: Engine) -> bool:
    """Whether the archive still has the layout before `position_game` (opened read-only, not migrated): its
    rows are then found by game through the index on (game_id, ply)."""
    try:
        return any(i["name"] == _OLD_INDEX for i in inspect(engine).get_indexes("position"))
    except DBAPIError:
        return False


# -- the merge ------------------------------------------------------------------------------------------------

def merge_pending(engine: Engine) -> int:
    """Move the staged rows into the index and add them to the counts table, in key order, in one transaction;
    the number of rows moved."""
    if not has_pending(engine):
        return 0
    with writer(engine).begin() as conn:
        moved = _merge_pg(conn) if conn.dialect.name == "postgresql" else _merge_sqlite(conn)
    if moved and engine.dialect.name == "postgresql":
        give_back_space(engine)
    return moved


def _whole(conn: Connection, staged: str) -> bool:
    """Whether the staged games are all the games that have indexed rows, and more (`records reindex`, or an
    empty index): the index is then made again whole."""
    return conn.exec_driver_sql(
        "SELECT 1 FROM position_game g WHERE NOT EXISTS "
        f"(SELECT 1 FROM {staged} s WHERE s.game_id = g.game_id) LIMIT 1").first() is None


def _replace_staged_games(conn: Connection, staged: str) -> None:
    """The indexed rows of games staged again (a reindex stopped before its merge) taken out: the index is read
    once for them (their keys may have changed; the staged rows give the new ones), the counts follow."""
    replaced = f"SELECT g.game_id FROM position_game g WHERE g.game_id IN (SELECT game_id FROM {staged})"
    if conn.exec_driver_sql(replaced + " LIMIT 1").first() is None:
        return
    conn.exec_driver_sql(f"DELETE FROM position WHERE game_id IN ({replaced})")
    conn.exec_driver_sql(f"DELETE FROM position_game WHERE game_id IN (SELECT game_id FROM {staged})")


def _empty_index(conn: Connection) -> None:
    """The index, its counts and its games emptied, for an index made again whole (the counts' trigger dropped
    meanwhile: SQLite then frees the table's pages at once instead of deleting row by row)."""
    if conn.exec_driver_sql("SELECT 1 FROM position LIMIT 1").first() is None:
        conn.exec_driver_sql("DELETE FROM position_game")
        return
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("TRUNCATE position, position_count, position_game")
        return
    drop_count_trigger(conn)
    for table in ("position", "position_count", "position_game"):
        conn.exec_driver_sql(f"DELETE FROM {table}")
    create_count_trigger(conn)


def _fill(conn: Connection, rows: str, staged: int) -> None:
    """`rows` (the staged rows, a temporary table) into the index, and the counts kept, afresh or added to."""
    limit = staged * REBUILD_RATIO
    indexed = 0
    if limit:
        indexed = int(conn.exec_driver_sql(
            f"SELECT count(*) FROM (SELECT 1 FROM position LIMIT {limit}) few").scalar() or 0)
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"INSERT INTO position SELECT * FROM {rows} ORDER BY key, game_id, ply")
    else:  # the temporary table is in key order already; copied page by page when the index is empty
        conn.exec_driver_sql(f"INSERT INTO position SELECT * FROM {rows}")
    if indexed < limit:
        # Most rows are new: the counts summed afresh read the index once in key order, where adding the
        # staged rows would sort them.
        conn.exec_driver_sql("DELETE FROM position_count")
        conn.exec_driver_sql(rebuild_counts())
    else:
        conn.exec_driver_sql(count_add(conn.dialect.name, rows))
        conn.exec_driver_sql(count_promote(rows))


def _merge_sqlite(conn: Connection) -> int:
    staged = int(conn.exec_driver_sql("SELECT count(*) FROM position_stage").scalar() or 0)
    if not staged:
        return 0  # another writer merged them first
    cache = conn.exec_driver_sql("PRAGMA cache_size").scalar()
    temp_cache = conn.exec_driver_sql("PRAGMA temp.cache_size").scalar()
    conn.exec_driver_sql(f"PRAGMA cache_size = -{MERGE_CACHE_KIB}")
    # The sorted rows wait in a temporary table, whose schema has a page cache of its own (2 MB by default): with
    # it, a merge of a million rows wrote its 40 MB to a temporary file and read them back.
    conn.exec_driver_sql(f"PRAGMA temp.cache_size = -{MERGE_CACHE_KIB}")
    try:
        if _whole(conn, "position_stage"):
            _empty_index(conn)
        else:
            _replace_staged_games(conn, "position_stage")
        # Sorted into a temporary table of the index's own layout, then the stage emptied and the rows copied in:
        # the index takes the pages the stage gave back (no free pages left for the commit to move), and into an
        # empty index SQLite copies the sorted table page by page, every page full (an INSERT ... ORDER BY fills
        # them to about 88%: 4 bytes a row).
        ddl = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'position'").scalar()
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS temp.{_SORTED}")
        conn.exec_driver_sql(re.sub(r"^CREATE TABLE\s+\"?position\"?", f"CREATE TEMP TABLE {_SORTED}", str(ddl)))
        conn.exec_driver_sql(f"INSERT INTO temp.{_SORTED} SELECT {_COLUMNS} FROM position_stage "
                             "ORDER BY key, game_id, ply")
        conn.exec_driver_sql(
            "INSERT INTO position_game (game_id, rows, opening) SELECT game_id, count(*), "
            f"max(CASE WHEN ply = {OPENING_PLY} THEN key END) FROM position_stage GROUP BY game_id")
        conn.exec_driver_sql("DELETE FROM position_stage")
        _fill(conn, f"temp.{_SORTED}", staged)
        conn.exec_driver_sql(f"DROP TABLE temp.{_SORTED}")
    finally:
        # A connection invalidated by an interruption (Ctrl-C inside a statement) is thrown away with its cache;
        # a statement on it would raise in place of the interruption.
        if not conn.invalidated:
            conn.exec_driver_sql(f"PRAGMA cache_size = {cache}")
            conn.exec_driver_sql(f"PRAGMA temp.cache_size = {temp_cache}")
    return staged


def _merge_pg(conn: Connection) -> int:
    # Merges wait for each other: a position that two of them bring to the counting threshold is then summed by the
    # later one, which sees the earlier one's rows.
    conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7206521)")
    # The memory of the merge's sorts, as SQLite's cache during its merge (PostgreSQL's default is 4 MB: the sort
    # of every staged row would go to disk).
    conn.exec_driver_sql(f"SET LOCAL work_mem = '{MERGE_CACHE_KIB}kB'")
    # One statement takes the rows out of the stage: a row another import stages meanwhile is not deleted unseen
    # (it waits for the next merge).
    conn.exec_driver_sql(f"CREATE TEMP TABLE {_MOVED} (LIKE position) ON COMMIT DROP")
    staged = conn.exec_driver_sql(
        f"WITH moved AS (DELETE FROM position_stage RETURNING {_COLUMNS}) "
        f"INSERT INTO {_MOVED} ({_COLUMNS}) SELECT {_COLUMNS} FROM moved").rowcount
    if not staged:
        return 0
    # The games moved, with their rows counted and their openings, as a table with a key: what the statements
    # below look each game up in, and what `position_game` takes.
    conn.exec_driver_sql(f"CREATE TEMP TABLE {_MOVED_GAMES} (game_id integer PRIMARY KEY, rows integer NOT NULL, "
                         "opening bigint) ON COMMIT DROP")
    conn.exec_driver_sql(f"INSERT INTO {_MOVED_GAMES} SELECT game_id, count(*), "
                         f"max(CASE WHEN ply = {OPENING_PLY} THEN key END) FROM {_MOVED} GROUP BY game_id")
    conn.exec_driver_sql(f"ANALYZE {_MOVED}, {_MOVED_GAMES}")
    if _whole(conn, _MOVED_GAMES):
        _empty_index(conn)
    else:
        _replace_staged_games(conn, _MOVED_GAMES)
    conn.exec_driver_sql(f"INSERT INTO position_game (game_id, rows, opening) SELECT * FROM {_MOVED_GAMES}")
    _fill(conn, _MOVED, staged)
    return int(staged)


__all__ = ["REPLAY_SHARE", "give_back_space", "has_game_index", "has_pending", "merge_pending", "prepare_positions",
           "stage_positions", "staged_rows", "unindex", "unstage", "upgrade_positions"]
