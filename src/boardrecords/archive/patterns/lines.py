"""The pattern index's rows: one change list per record (made in the import's workers, from the verifier's own
replay, and written beside its game row in the same transaction). docs/patterns.md describes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, Table, insert

from ...verifier.keys.patterns import ChangeWatcher, mask_bytes
from ..core.models import PatternLineRow

PATTERNS = "_patterns"  # the key of a game dict under which the worker sends the change list
PatternValues = tuple[int, bytes, bytes, bytes]  # plies, black mask, white mask, changes


def pattern_values(watcher: ChangeWatcher | None) -> PatternValues | None:
    line = watcher.finish() if watcher is not None else None
    if line is None:
        return None
    return (line.plies, mask_bytes(line.ever_black), mask_bytes(line.ever_white), line.blob())


def _table() -> Table:
    return PatternLineRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it


def write_patterns(conn: Connection, rows: Sequence[tuple[int, str, int, PatternValues | None]]) -> int:
    """Insert the change lists of games (game id, game, size, values) inside the caller's transaction."""
    values = [(gid, game, size, *v) for gid, game, size, v in rows if v is not None]
    if not values:
        return 0
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("INSERT INTO pattern_line (game_id, game, size, plies, black, white, changes) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", values)
    else:
        names = ("game_id", "game", "size", "plies", "black", "white", "changes")
        conn.execute(insert(_table()), [dict(zip(names, v, strict=True)) for v in values])
    return len(values)
