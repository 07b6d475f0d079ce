"""Stored rows by id, each read in a session of its own (the commands that show, export or list them)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from ..models import GameRow


def games_by_id(engine: Engine, ids: Sequence[int]) -> dict[int, GameRow]:
    """The rows of `ids` that the archive holds, by id."""
    with Session(engine, expire_on_commit=False) as session:
        return {int(r.id or 0): r for r in session.scalars(select(GameRow).where(col(GameRow.id).in_(list(ids))))}
