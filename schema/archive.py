"""The archive as the rest of the program sees it: open it, fetch a record by id, its problems, and search.

`record_by_id` is what `records replay ID` (and `diagram`, `html`) use to show a stored record.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from ..records.model import Record
from .db import ArchiveError, open_archive, session_scope
from .models import GameRow, ProblemRow
from .search import DEFAULT_LIMIT, Filters, search

__all__ = ["ArchiveError", "get_row", "open_archive", "problems_of", "record_by_id", "rows", "rows_by_ids"]


def get_row(engine: Engine, record_id: int) -> GameRow | None:
    with session_scope(engine) as session:
        return session.get(GameRow, record_id)


def problems_of(engine: Engine, record_id: int) -> list[ProblemRow]:
    with session_scope(engine) as session:
        stmt = select(ProblemRow).where(col(ProblemRow.game_id) == record_id).order_by(col(ProblemRow.id))
        return list(session.exec(stmt).all())


def rows_by_ids(engine: Engine, ids: Sequence[int]) -> tuple[list[GameRow], list[int]]:
    """The rows of `ids` in the order asked, and the ids that are not in the archive."""
    with Session(engine, expire_on_commit=False) as session:
        found = {r.id: r for r in session.exec(select(GameRow).where(col(GameRow.id).in_(list(ids))))}
    return [found[i] for i in ids if i in found], [i for i in ids if i not in found]


def rows(engine: Engine, filters: Filters, *, sort: str = "id", limit: int | None = DEFAULT_LIMIT,
         light: bool = False) -> list[GameRow]:
    """Search results; `light` rows lack raw, moves and search_text (they cannot load once returned)."""
    with session_scope(engine) as session:
        return search(session, filters, sort=sort, limit=limit, light=light)


def record_by_id(db: str | None, record_id: int) -> tuple[Record, GameRow] | None:
    """The stored record `record_id` (read back from its original bytes) and its row; None when there is none.

    `db` is a path or URL as `--db` takes it (None: env RECORDS_DB, else records.db). Raises ArchiveError when the
    archive cannot be opened, and FormatError if the stored bytes no longer read (a reader change).
    """
    from .export import parse_row  # the reader, only when a record is read back

    engine = open_archive(db)
    try:
        row = get_row(engine, record_id)
        if row is None:
            return None
        return parse_row(row), row
    finally:
        engine.dispose()
