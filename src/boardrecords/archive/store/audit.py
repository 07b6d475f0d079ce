"""The audit log of a served archive (the table `audit`): every change made through `records serve --accounts`,
who made it and when, the records it concerned, and what was there before and after, as JSON. Read by `records
audit` and by admins on the page /audit."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import inspect, select
from sqlmodel import Session

from ..core.db import session_scope, writer
from ..core.models import AuditRow

if TYPE_CHECKING:
    from sqlalchemy import Engine


def record_change(engine: Engine, who: str, action: str, ids: Iterable[int] = (), *, before: Any = None,
                  after: Any = None) -> AuditRow:
    """Write one row of the log (`before`, `after`: JSON-able)."""
    row = AuditRow(who=who, action=action, ids=json.dumps(sorted(set(ids))), before=json.dumps(before),
                   after=json.dumps(after))
    with Session(writer(engine), expire_on_commit=False) as session:
        session.add(row)
        session.commit()
    return row


def audit_rows(engine: Engine, *, limit: int | None = None, ids: Iterable[int] | None = None,
               actions: Iterable[str] | None = None) -> list[AuditRow]:
    """The log, newest first (at most `limit`; none on an archive made before it and opened read-only); with
    `ids`, the rows of changes to exactly those records; with `actions`, of those actions."""
    if not inspect(engine).has_table(AuditRow.__tablename__):
        return []
    query = select(AuditRow).order_by(AuditRow.id.desc())  # type: ignore[union-attr]
    if ids is not None:
        query = query.where(AuditRow.ids == json.dumps(sorted(set(ids))))  # type: ignore[arg-type]
    if actions is not None:
        query = query.where(AuditRow.action.in_(list(actions)))  # type: ignore[attr-defined]
    if limit:
        query = query.limit(limit)
    with session_scope(engine) as session:
        return list(session.scalars(query))
