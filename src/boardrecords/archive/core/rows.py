"""Stored rows by id and by search, each read in a session of its own (the commands that show, export or list
them)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from .db import session_scope
from .filters import DEFAULT_LIMIT, Filters
from .models import GameRow, ProblemRow
from .search import search


def problems_of(engine: Engine, record_id: int) -> list[ProblemRow]:
    with session_scope(engine) as session:
        stmt = select(ProblemRow).where(col(ProblemRow.game_id) == record_id).order_by(col(ProblemRow.id))
        return list(session.exec(stmt).all())


def rows_by_ids(engine: Engine, ids: Sequence[int]) -> tuple[list[GameRow], list[int]]:
    """The rows of `ids` in the order asked, and the ids that are not in the archive."""
    with Session(engine, expire_on_commit=False) as session:
        found = {r.id: r for r in session.exec(select(GameRow).where(col(GameRow.id).in_(list(ids))))}
    return [found[i] for i in ids if i in found], [i for i in ids if i not in found]


def games_by_id(engine: Engine, ids: Sequence[int]) -> dict[int, GameRow]:
    """The rows of `ids` that the archive holds, by id."""
    return {int(r.id or 0): r for r in rows_by_ids(engine, ids)[0]}


def rows(engine: Engine, filters: Filters, *, sort: str = "id", limit: int | None = DEFAULT_LIMIT,
         light: bool = False) -> list[GameRow]:
    """Search results; `light` rows lack raw, moves and search_text (they cannot load once returned)."""
    with session_scope(engine) as session:
        return search(session, filters, sort=sort, limit=limit, light=light)
