"""Whether two SQLite archives hold the same rows, table by table: what an import made by two versions of the
sources is checked with (benchmarks/bench_kombilo.py --before-src leaves both archives in its work folder).

    .venv/bin/python benchmarks/compare_archives.py A.db B.db

Each table's rows are read in the order of all their columns and hashed; the import's timestamps are left out.
Prints `same` or `DIFF` per table with its row count; exits 1 when any table differs or the tables are not the same.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys

TIMESTAMPS = frozenset({"imported_at", "changed_at", "updated_at"})


def tables(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]


def digest(conn: sqlite3.Connection, table: str) -> tuple[int, str]:
    """The table's rows (timestamps left out): how many, and a hash of them in a fixed order."""
    cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")') if r[1] not in TIMESTAMPS]
    names = ", ".join(f'"{c}"' for c in cols)
    h = hashlib.sha256()
    n = 0
    for row in conn.execute(f'SELECT {names} FROM "{table}" ORDER BY {names}'):
        h.update(repr(row).encode())
        n += 1
    return n, h.hexdigest()


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: compare_archives.py A.db B.db", file=sys.stderr)
        return 2
    a, b = (sqlite3.connect(f"file:{path}?mode=ro", uri=True) for path in sys.argv[1:])
    names = tables(a)
    if names != tables(b):
        print(f"DIFF the tables: {names} against {tables(b)}")
        return 1
    differ = 0
    for table in names:
        da, db = digest(a, table), digest(b, table)
        print(f"{'same' if da == db else 'DIFF'} {table}: {da[0]} rows" + ("" if da == db else f" against {db[0]}"))
        differ += da != db
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
