"""Curating the archive: deleting records.

A record goes with its problems in one transaction; the text index follows by its triggers (SQLite) or by being an
index of the table itself (PostgreSQL); positions, names and events are columns of the row, so nothing else holds
a deleted record. Aliases belong to players, not records, and stay.
"""

from __future__ import annotations

from sqlalchemy import Engine, delete
from sqlmodel import Session, col, select

from .db import retrying, writer
from .filters import Filters
from .models import GameRow, ProblemRow
from .search import conditions, name_plan


def delete_records(engine: Engine, filters: Filters) -> list[int]:
    """Delete every record `filters` select (all of them, whatever their limit); returns their ids."""

    def run() -> list[int]:
        with Session(writer(engine)) as session:
            where = conditions(filters, dialect=engine.dialect.name, **name_plan(session, filters))
            ids = [i for i in session.exec(select(col(GameRow.id)).where(*where)) if i is not None]
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                session.execute(delete(ProblemRow).where(col(ProblemRow.game_id).in_(chunk)))
                session.execute(delete(GameRow).where(col(GameRow.id).in_(chunk)))
            session.commit()
            return ids

    return retrying(run)
