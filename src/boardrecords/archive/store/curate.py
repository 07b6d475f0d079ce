"""Curating the archive: deleting records, and fixing one (a misspelt name, a missing round, a corrected result).

A deleted record goes with its problems, its history and its positions in one transaction; the text index follows
by its triggers (SQLite) or by being an index of the table itself (PostgreSQL); names and events are columns of the
row, so nothing else holds a deleted record. Its indexed positions are found again by their keys, from the stored
record replayed (archive/positions/stage.py `unindex`). Aliases belong to players, not records, and stay.

A fix sets root properties, writes the record in the writer's canonical form, verifies it again and stores it as
the record's new version in the same row (same id): every column (names and their search forms, event, round,
result, verdict, moves and opening, text) is computed again as an import computes it, and the problems are replaced.
The bytes it replaces are kept in `game_version`, with the change, so that `records show --history` lists every
version and `records fix --undo` can bring the previous one back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from sqlalchemy import Connection, Engine, Table, delete, insert, inspect, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import Session, col, select

from ...common.errors import InputError, NotFound
from ..core.db import retrying, writer
from ..core.filters import Filters
from ..core.models import GameRow, GameVersionRow, PatternLineRow, ProblemRow
from ..core.search import conditions, name_plan
from ..core.state import mark_changed
from ..core.stored import header_of, parse_row
from ..positions.stage import merge_pending, unindex, unstage
from .record_rows import archive_rows, game_columns, write_index

# Properties a fix may not set: the moves and setup (the record would be another game) and the file's own frame.
FIXED = frozenset({"B", "W", "AB", "AW", "AE", "GM", "SZ", "FF", "CA"})
_IDENT = re.compile(r"^[A-Z]{1,8}$")
_NAMING = "write PROP=VALUE with PROP in capitals, e.g. PB='Lee Sedol' or RO=3"
_NOT_FIXED = (f"the moves, setup and the record's frame ({', '.join(sorted(FIXED))}) are not fixed this way; import a "
              "corrected file instead")


class FixError(InputError):
    """A fix that cannot be made (an InputError: the CLI exits with 2; a missing record is NotFound, 1)."""


class StaleVersion(FixError):
    """A fix or an undo asked of a version of the record that is no longer the current one: another change came
    in between. Nothing was written; `current` is the record's version now and `header` its root properties, so
    that whoever asked can see what changed and ask again (the web answers 409 with both)."""

    def __init__(self, record_id: int, asked: int, current: int, header: dict[str, str]) -> None:
        super().__init__(f"record {record_id} changed since version {asked} was read: it is at version {current} "
                         "now; read it again and make the change on that version")
        self.record_id = record_id
        self.current = current
        self.header = header


def current_version(conn: Connection, record_id: int) -> int:
    """The version the record is at: 1 as imported, one more for every fix and undo since (the history holds the
    versions they replaced, numbered from 1)."""
    if not inspect(conn).has_table(GameVersionRow.__tablename__):
        return 1
    last = conn.execute(sa_select(_versions().c.version).where(_versions().c.game_id == record_id)
                        .order_by(_versions().c.version.desc()).limit(1)).scalar()
    return int(last or 0) + 1


def has_versions(engine: Engine) -> bool:
    return inspect(engine).has_table(GameVersionRow.__tablename__)


def delete_records(engine: Engine, filters: Filters) -> list[int]:
    """Delete every record `filters` select (all of them, whatever their limit); returns their ids."""
    versions = has_versions(engine)

    def run() -> list[int]:
        with Session(writer(engine)) as session:
            where = conditions(filters, dialect=engine.dialect.name, **name_plan(session, filters))
            # Locked (PostgreSQL) until the commit: a fix of one of them waits, then finds it deleted.
            ids = [i for i in session.exec(select(col(GameRow.id)).where(*where).with_for_update())
                   if i is not None]
            unindex(session.connection(), ids, lambda gid: _stored_keys(session, gid))
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                session.execute(delete(ProblemRow).where(col(ProblemRow.game_id).in_(chunk)))
                if versions:
                    session.execute(delete(GameVersionRow).where(col(GameVersionRow.game_id).in_(chunk)))
                session.execute(delete(GameRow).where(col(GameRow.id).in_(chunk)))
            if ids:
                mark_changed(session.connection())
            session.commit()
            return ids

    return retrying(run)


def row_keys(row: GameRow) -> Sequence[int] | None:
    """The position keys of a stored record, replayed from its bytes; None when they no longer read (its rows are
    then found by reading the index)."""
    from .record_rows import index_keys  # looked up when called (a test follows the replays)

    try:
        return index_keys(parse_row(row))
    except Exception:
        return None


def _stored_keys(session: Session, game_id: int) -> Sequence[int] | None:
    """`row_keys` of the record stored as `game_id`."""
    t = GameRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
    found = session.connection().execute(sa_select(t.c.raw, t.c.source_file, t.c.source_index)
                                         .where(t.c.id == game_id)).first()
    if found is None:
        return None
    return row_keys(GameRow(id=game_id, sha256="", game="", raw=found.raw, source_file=found.source_file,
                            source_index=found.source_index))  # what parse_row reads of a row


def parse_settings(settings: Sequence[str]) -> list[tuple[str, str]]:
    """`PROP=VALUE` pairs (an empty VALUE removes the property)."""
    out: list[tuple[str, str]] = []
    for item in settings:
        ident, sep, value = item.partition("=")
        ident = ident.strip()
        if not sep or not _IDENT.match(ident):
            raise FixError(f"--set {item!r}: {_NAMING}")
        if ident in FIXED:
            raise FixError(f"--set {ident}: {_NOT_FIXED}")
        out.append((ident, value))
    return out


def checked_settings(settings: Mapping[str, str] | Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Settings given as a mapping or as (property, value) pairs, as a list of pairs, each checked as
    `parse_settings` checks a `PROP=VALUE` (an empty value removes the property)."""
    pairs = list(settings.items()) if isinstance(settings, Mapping) else list(settings)
    if not pairs:
        raise FixError("give one or more settings: a property and its value, e.g. {'RO': '3'}")
    for ident, value in pairs:
        if not isinstance(ident, str) or not _IDENT.match(ident):
            raise FixError(f"{ident!r} is not a property to set: name one in capitals, e.g. PB, RO or RE")
        if ident in FIXED:
            raise FixError(f"{ident}: {_NOT_FIXED}")
        if not isinstance(value, str):
            raise FixError(f"{ident}: the value must be text, not {type(value).__name__}")
    return pairs


def fixed_bytes(row: GameRow, settings: Sequence[tuple[str, str]]) -> bytes:
    """The record of `row` with `settings` applied to its root, in the writer's canonical form."""
    from ...records.model import Property
    from ...records.writer import write

    record = parse_row(row)
    props = record.root.properties
    for ident, value in settings:
        if value == "":
            props.pop(ident, None)
        else:
            props[ident] = Property(ident, [value])
    return write(record)


class Unchanged(Exception):
    """The fix would store the bytes the record already holds: no new version. Outside the exception family on
    purpose: it is an answer (nothing to change), not an error, and the CLI ends with status 0 after it."""


def fix_record(engine: Engine, record_id: int, settings: Sequence[tuple[str, str]], *,
               patterns: bool = True, expected: int | None = None) -> GameRow:
    """Store the record with `settings` applied as its new version; returns the updated row. Raises Unchanged when
    the record already holds them, StaleVersion when `expected` (the version the change was made on) is not the
    record's version any more. `patterns`: its change list is made (`Settings.patterns`)."""
    change = "; ".join(f"{k}={v}" for k, v in settings)

    def fixed(conn: Connection, row: GameRow) -> tuple[bytes, str]:
        props = parse_row(row).root.properties
        if all((ident not in props) if value == "" else (ident in props and props[ident].values == [value])
               for ident, value in settings):
            raise Unchanged
        return fixed_bytes(row, settings), change

    _row(engine, record_id)
    return _replace(engine, record_id, fixed, patterns=patterns, expected=expected)


def undo_fix(engine: Engine, record_id: int, *, patterns: bool = True, expected: int | None = None) -> GameRow:
    """Bring back the version the last fix replaced (the undo itself is kept in the history too); StaleVersion
    as for `fix_record`."""
    _row(engine, record_id)
    if not has_versions(engine):
        raise FixError(f"record {record_id} was never fixed")

    def previous(conn: Connection, row: GameRow) -> tuple[bytes, str]:
        last = conn.execute(sa_select(_versions().c.raw, _versions().c.version)
                            .where(_versions().c.game_id == record_id)
                            .order_by(_versions().c.version.desc()).limit(1)).first()
        if last is None:
            raise FixError(f"record {record_id} was never fixed")
        return last.raw, f"undo: back to version {last.version}"

    return _replace(engine, record_id, previous, patterns=patterns, expected=expected)


def history(engine: Engine, record_id: int) -> list[GameVersionRow]:
    """The versions a fix replaced, oldest first (empty for a record never fixed)."""
    if not has_versions(engine):
        return []
    with Session(engine, expire_on_commit=False) as session:
        return list(session.exec(select(GameVersionRow).where(col(GameVersionRow.game_id) == record_id)
                                 .order_by(col(GameVersionRow.version))))


def _row(engine: Engine, record_id: int) -> GameRow:
    with Session(engine, expire_on_commit=False) as session:
        row = session.get(GameRow, record_id)
    if row is None:
        raise NotFound(f"no record {record_id} in the archive")
    return row


def _versions() -> Table:
    return GameVersionRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it


def _make_versions(engine: Engine) -> None:
    """The history's table, made by the first fix (under the write lock: two first fixes at once take turns, and
    on PostgreSQL the one that loses the race finds it made)."""
    try:
        _versions().create(writer(engine), checkfirst=True)
    except DBAPIError:
        if not has_versions(engine):
            raise


# How long a fix waits for another command holding the record (PostgreSQL; SQLite waits its busy timeout).
LOCK_WAIT = "60s"


def _replace(engine: Engine, record_id: int, make: Callable[[Connection, GameRow], tuple[bytes, str]], *,
             patterns: bool = True, expected: int | None = None) -> GameRow:
    """Store the bytes `make` gives (from the record as it stands, with the change to note) as the record's new
    version: the row, its problems, its history and its index rows (positions, change list) in one transaction,
    which holds the record from the read to the write (SQLite's write lock, PostgreSQL's row lock), so that two
    commands changing one record take turns and neither loses the other's change. `expected`: the version the
    change was made on, compared with the record's under that hold (compare-and-set): StaleVersion, nothing
    written, when another change came first."""
    from ...records.reader import read_bytes

    _make_versions(engine)
    game_table = GameRow.__table__  # type: ignore[attr-defined]
    patterns_table = PatternLineRow.__table__  # type: ignore[attr-defined]

    def run() -> None:
        with writer(engine).begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SET LOCAL lock_timeout = '{LOCK_WAIT}'")
            found = conn.execute(sa_select(game_table).where(game_table.c.id == record_id)
                                 .with_for_update()).mappings().first()
            if found is None:
                raise NotFound(f"record {record_id} was deleted before the fix could be stored")
            current = GameRow(**found)
            version = current_version(conn, record_id)
            if expected is not None and expected != version:
                raise StaleVersion(record_id, expected, version, header_of(parse_row(current)))
            raw, change = make(conn, current)
            if raw == current.raw:
                raise Unchanged
            records = read_bytes(raw, current.source_file or f"archive #{record_id}")
            if not records:
                raise FixError("the fixed record no longer reads")
            values, problems = archive_rows(records[0], source_file=current.source_file,
                                            source_index=current.source_index, patterns=patterns)
            taken = conn.execute(select(col(GameRow.id)).where(col(GameRow.sha256) == values["sha256"],
                                                                col(GameRow.id) != record_id)).first()
            if taken is not None:
                raise FixError(f"the fixed record is the same as record {taken[0]} already in the archive")
            conn.execute(insert(_versions()), {
                "game_id": record_id, "version": version, "sha256": current.sha256, "raw": current.raw,
                "encoding": current.encoding, "verdict": current.verdict, "result_status": current.result_status,
                "change": change})
            conn.execute(update(game_table).where(game_table.c.id == record_id).values(**game_columns(values)))
            conn.execute(delete(ProblemRow).where(col(ProblemRow.game_id) == record_id))
            if problems:
                conn.execute(insert(ProblemRow.__table__),  # type: ignore[attr-defined]  # as above
                             [{**p, "game_id": record_id} for p in problems])
            # The index rows of the old bytes out (found by their keys, as a delete finds them), the new ones in
            # as an import writes them: the questions give at once what `records reindex` would.
            unindex(conn, [record_id], lambda _gid: row_keys(current))
            unstage(conn, [record_id])
            conn.execute(patterns_table.delete().where(patterns_table.c.game_id == record_id))
            write_index(conn, [(record_id, values)])
            mark_changed(conn)

    try:
        retrying(run)
    except OperationalError as exc:
        if "lock" not in str(exc.orig).lower():
            raise
        raise FixError(f"record {record_id} is held by another command that changes the archive; try again") from None
    retrying(lambda: merge_pending(engine))
    return _row(engine, record_id)
