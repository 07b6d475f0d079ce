"""The position index summed per position and next move (`position_count`): what an unfiltered `explore` reads in
one indexed range however many games reached the position. The statements that fill it from the index, add a
merge's rows to it, and follow deleted rows (a trigger); the stage's merge runs them (archive/positions/stage.py).
"""

from __future__ import annotations

from sqlalchemy import Connection

COUNT_COLUMNS = ("games", "black_wins", "white_wins", "draws", "mover_wins", "swapped", "swapper_wins")
_COUNT_NAMES = ", ".join(("key", "next", *COUNT_COLUMNS, "last_day"))
# A position reached by at least this many rows has its continuations summed in `position_count`; below it an
# unfiltered `explore` sums the rows themselves (fewer than this, in one indexed range: well under a millisecond).
# Most positions of a real archive are reached once: summing them all would make the counts table about as large
# as the index and cost the merge a second sort of every row; the few positions that many games reach are the
# ones whose rows would be slow to sum.
COUNTED_AT = 64
# The rows of `{rows}` that `{where}` keeps, summed per position and next move, in key order.
COUNT_SELECT = (
    "SELECT key, coalesce(next, ''), count(*), "
    "sum(CASE WHEN outcome & 3 = 1 THEN 1 ELSE 0 END), sum(CASE WHEN outcome & 3 = 2 THEN 1 ELSE 0 END), "
    "sum(CASE WHEN outcome & 3 = 3 THEN 1 ELSE 0 END), sum(CASE WHEN outcome & 4 != 0 THEN 1 ELSE 0 END), "
    "sum(CASE WHEN outcome & 8 != 0 THEN 1 ELSE 0 END), sum(CASE WHEN outcome & 16 != 0 THEN 1 ELSE 0 END), "
    "max(day) FROM {rows} WHERE {where} GROUP BY key, coalesce(next, '') ORDER BY 1, 2")
COUNT_INSERT = f"INSERT INTO position_count ({_COUNT_NAMES}) "
# The positions of the index that reach the threshold: the rows are in key order, so this reads them once, unsorted.
_POPULAR = "key IN (SELECT key FROM position GROUP BY key HAVING count(*) >= {at})"


def rebuild_counts() -> str:
    """The statement that fills an empty `position_count` from the whole index."""
    return COUNT_INSERT + COUNT_SELECT.format(rows="position", where=_POPULAR.format(at=COUNTED_AT))


_COUNT_ADD = ", ".join(f"{c} = position_count.{c} + excluded.{c}" for c in COUNT_COLUMNS)
# The later of two days, either of them NULL (SQLite's two-argument max() is NULL then; PostgreSQL's greatest()
# skips NULLs).
_LAST_DAY = {
    "sqlite": "max(coalesce(position_count.last_day, excluded.last_day), "
              "coalesce(excluded.last_day, position_count.last_day))",
    "postgresql": "greatest(position_count.last_day, excluded.last_day)",
}


def count_add(dialect: str, rows: str) -> str:
    """The statement adding the rows of `rows` (a merge's new rows, already in `position`) to the positions
    already counted. Run before `count_promote`, which sums the positions it brings in from all their rows."""
    return (COUNT_INSERT + COUNT_SELECT.format(rows=rows, where="key IN (SELECT key FROM position_count)")
            + f" ON CONFLICT (key, next) DO UPDATE SET {_COUNT_ADD}, last_day = {_LAST_DAY[dialect]}")


def count_promote(rows: str) -> str:
    """The statement summing, from all their rows, the positions not counted yet that the rows of `rows` (a
    merge's new rows, already in `position`) bring to the threshold."""
    at = COUNTED_AT
    reached = (f"key IN (SELECT s.key FROM {rows} s WHERE s.key NOT IN (SELECT key FROM position_count) "
               "GROUP BY s.key HAVING (SELECT count(*) FROM (SELECT 1 FROM position p WHERE p.key = s.key "
               f"LIMIT {at}) few) >= {at})")
    return COUNT_INSERT + COUNT_SELECT.format(rows="position", where=reached)


# The counts follow deleted position rows (a deleted game takes its rows along): the sums go down, and the last
# date is looked up again when the row that held it goes.
_GONE = ", ".join(f"{c} = {c} - {e}" for c, e in zip(COUNT_COLUMNS, (
    "1", "(OLD.outcome & 3 = 1)", "(OLD.outcome & 3 = 2)", "(OLD.outcome & 3 = 3)", "(OLD.outcome & 4 != 0)",
    "(OLD.outcome & 8 != 0)", "(OLD.outcome & 16 != 0)"), strict=True))
_SQLITE_COUNTS = (
    "CREATE TRIGGER IF NOT EXISTS position_count_delete AFTER DELETE ON position BEGIN "
    f"UPDATE position_count SET {_GONE}, last_day = CASE WHEN OLD.day >= last_day THEN (SELECT max(day) FROM "
    "position WHERE key = OLD.key AND coalesce(next, '') = coalesce(OLD.next, '')) ELSE last_day END "
    "WHERE key = OLD.key AND next = coalesce(OLD.next, ''); "
    "DELETE FROM position_count WHERE key = OLD.key AND next = coalesce(OLD.next, '') AND games <= 0; END",
)
_PG_COUNTS = (
    """CREATE OR REPLACE FUNCTION position_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE position_count c SET games = c.games - d.games, black_wins = c.black_wins - d.bw,
      white_wins = c.white_wins - d.ww, draws = c.draws - d.dr, mover_wins = c.mover_wins - d.mw,
      swapped = c.swapped - d.sw, swapper_wins = c.swapper_wins - d.sww,
      last_day = CASE WHEN d.day >= c.last_day THEN (SELECT max(p.day) FROM position p
                      WHERE p.key = c.key AND coalesce(p.next, '') = c.next) ELSE c.last_day END
  FROM (SELECT key, coalesce(next, '') AS next, count(*) AS games,
               count(*) FILTER (WHERE outcome & 3 = 1) AS bw, count(*) FILTER (WHERE outcome & 3 = 2) AS ww,
               count(*) FILTER (WHERE outcome & 3 = 3) AS dr, count(*) FILTER (WHERE outcome & 4 != 0) AS mw,
               count(*) FILTER (WHERE outcome & 8 != 0) AS sw, count(*) FILTER (WHERE outcome & 16 != 0) AS sww,
               max(day) AS day
        FROM gone GROUP BY 1, 2) d
  WHERE c.key = d.key AND c.next = d.next;
  DELETE FROM position_count c USING gone d WHERE c.key = d.key AND c.next = coalesce(d.next, '') AND c.games <= 0;
  RETURN NULL;
END $$""",
    "DROP TRIGGER IF EXISTS position_count_delete ON position",
    "CREATE TRIGGER position_count_delete AFTER DELETE ON position REFERENCING OLD TABLE AS gone "
    "FOR EACH STATEMENT EXECUTE FUNCTION position_count_delete()",
)


def drop_count_trigger(conn: Connection) -> None:
    """The trigger dropped (SQLite), inside the caller's transaction: a table emptied without it frees its pages at
    once instead of deleting, and following, row by row."""
    conn.exec_driver_sql("DROP TRIGGER IF EXISTS position_count_delete")


def create_count_trigger(conn: Connection) -> None:
    """The trigger that keeps the counts in step with deleted position rows, made inside the caller's transaction
    (PostgreSQL's only when it is missing)."""
    if conn.dialect.name == "sqlite":
        for statement in _SQLITE_COUNTS:
            conn.exec_driver_sql(statement)
    else:
        installed = conn.exec_driver_sql("SELECT 1 FROM pg_trigger WHERE tgname = 'position_count_delete'").first()
        if installed is None:
            for statement in _PG_COUNTS:
                conn.exec_driver_sql(statement)
