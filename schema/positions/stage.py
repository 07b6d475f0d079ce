"""Writing the position index: rows go first to a stage (`position_stage`), in the transaction of their game row,
and are merged into `position` and `position_count` in key order when the import run (or `records reindex`) ends.

Why: `position` is clustered by key, and keys come in random order. Written batch by batch, once the table is
larger than SQLite's page cache, nearly every row dirtied a page of its own, written again at every commit (the
cost per row grew with the archive). The stage is appended in game order (its primary key is the game and the
move number), and one merge writes each page of the index once.

Exactness: a staged row belongs to its game (deleted with it, by the same foreign key), and a merge moves rows from
the stage to the index in one transaction, so every stored game's positions are at every moment either staged or
indexed, never both nor lost. An interrupted import leaves its rows staged: the next command that opens the archive
for writing merges them, and the questions read the stage beside the index meanwhile (schema/positions/explore.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, count, repeat
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, Index, Table
from sqlalchemy.exc import DBAPIError

from ..core.db import writer
from ..core.models import PositionRow, PositionStageRow
from .counts import COUNT_ADD_SQLITE, count_merge_pg, count_promote_sqlite, create_count_trigger, rebuild_counts

if TYPE_CHECKING:
    from .values import PositionValues

_COLUMNS = "key, game_id, ply, next, outcome, day"
# Below this many index rows per staged row the merge drops the (game_id, ply) index and builds it again after:
# rows inserted in key order reach that index in random order, and building it sorts once.
REBUILD_RATIO = 4
# SQLite's page cache during a merge (KiB; taken only as used): the sorts of the merge keep their runs in memory up
# to this size, and the pages of the index it writes stay there until the commit.
MERGE_CACHE_KIB = 512 * 1024


def _index(table: Table, name: str) -> Index:
    return next(i for i in table.indexes if i.name == name)


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
            with cursor.copy(f"COPY position_stage ({_COLUMNS}) FROM STDIN") as copy:
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


def create_position_counts(engine: Engine) -> None:
    """The counts table's trigger, its rows when the position index is older than the table, and the rows an
    interrupted import left in the stage merged."""
    dialect = engine.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        return
    with writer(engine).begin() as conn:
        # The index on game_id alone became (game_id, ply): a game's row at a move number is then one seek.
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_position_game_id")
        create_count_trigger(conn)
        # An index whose every position is reached fewer than COUNTED_AT times is summed again here each time,
        # and found to need no counts: such an archive is small (the start alone is reached by every game).
        if (conn.exec_driver_sql("SELECT 1 FROM position_count LIMIT 1").first() is None
                and conn.exec_driver_sql("SELECT 1 FROM position LIMIT 1").first() is not None):
            conn.exec_driver_sql(rebuild_counts())
    merge_pending(engine)  # the rows an interrupted import left staged


def has_pending(engine: Engine) -> bool:
    """Whether rows wait in the stage (an import is running, or was interrupted). An archive made before the stage
    existed, opened read-only, has none."""
    try:
        with engine.connect() as conn:
            return conn.exec_driver_sql("SELECT 1 FROM position_stage LIMIT 1").first() is not None
    except DBAPIError:
        return False


def merge_pending(engine: Engine) -> int:
    """Move the staged rows into the index and add them to the counts table, in key order, in one transaction;
    the number of rows moved."""
    if not has_pending(engine):
        return 0
    with writer(engine).begin() as conn:
        if conn.dialect.name == "postgresql":
            return _merge_pg(conn)
        return _merge_sqlite(conn)


def _merge_sqlite(conn: Connection) -> int:
    staged = int(conn.exec_driver_sql("SELECT count(*) FROM position_stage").scalar() or 0)
    if not staged:
        return 0  # another writer merged them first
    indexed = conn.exec_driver_sql("SELECT count(*) FROM (SELECT 1 FROM position LIMIT ?)",
                                   (staged * REBUILD_RATIO,)).scalar() or 0
    rebuild = indexed < staged * REBUILD_RATIO
    game_ply = _index(PositionRow.__table__, "ix_position_game_ply")  # type: ignore[attr-defined]
    cache = conn.exec_driver_sql("PRAGMA cache_size").scalar()
    conn.exec_driver_sql(f"PRAGMA cache_size = -{MERGE_CACHE_KIB}")
    try:
        if rebuild:
            game_ply.drop(conn)
        conn.exec_driver_sql(f"INSERT INTO position ({_COLUMNS}) SELECT {_COLUMNS} FROM position_stage "
                             "ORDER BY key, game_id, ply")
        if rebuild:
            # Most rows are new: the counts summed afresh read the index once in key order, where adding the
            # staged rows would sort them.
            conn.exec_driver_sql("DELETE FROM position_count")
            conn.exec_driver_sql(rebuild_counts())
            game_ply.create(conn)
        else:
            conn.exec_driver_sql(COUNT_ADD_SQLITE)
            conn.exec_driver_sql(count_promote_sqlite())
        conn.exec_driver_sql("DELETE FROM position_stage")
    finally:
        conn.exec_driver_sql(f"PRAGMA cache_size = {cache}")
    return staged


def _merge_pg(conn: Connection) -> int:
    # Merges wait for each other: a position that two of them bring to the counting threshold is then summed by the
    # later one, which sees the earlier one's rows.
    conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7206521)")
    # One statement takes the rows out of the stage and puts them in both tables: a row another import stages
    # meanwhile is not deleted unseen.
    moved = conn.exec_driver_sql(
        f"WITH moved AS (DELETE FROM position_stage RETURNING {_COLUMNS}), "
        f"indexed AS (INSERT INTO position ({_COLUMNS}) SELECT {_COLUMNS} FROM moved ORDER BY key, game_id, ply), "
        f"{count_merge_pg('moved')} "
        "SELECT count(*) FROM moved").scalar()
    return int(moved or 0)


__all__ = ["create_position_counts", "has_pending", "merge_pending", "stage_positions", "staged_rows", "unstage"]
