"""Events: the records of one tournament (EV), matched as players' names are (case, spacing, punctuation).

`list_events` gives every event with its games, dates, rounds, players and how many records pass; `event_rows`
the records of one event (for its crosstable).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from ..core.models import GameRow
from ..core.names import display_names, identity_key, load_identities
from .crosstable import round_number


@dataclass(slots=True)
class EventSummary:
    key: str
    name: str
    games: set[str] = field(default_factory=set)
    first: dt.date | None = None
    last: dt.date | None = None
    rounds: set[int] = field(default_factory=set)
    players: set[str] = field(default_factory=set)
    records: int = 0
    passed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"event": self.name, "games": sorted(self.games),
                "first": self.first.isoformat() if self.first else None,
                "last": self.last.isoformat() if self.last else None,
                "rounds": len(self.rounds), "players": len(self.players), "records": self.records,
                "pass": self.passed}


_COLUMNS = (GameRow.event, GameRow.event_norm, GameRow.game, GameRow.date_first, GameRow.date_last, GameRow.round,
            GameRow.black_final, GameRow.white_final, GameRow.verdict)


def list_events(session: Session, game: str | None = None) -> list[EventSummary]:
    """Every event in the archive (records with an EV), in the order of their first date, then name."""
    ids = load_identities(session)
    stmt = sa_select(*(col(c) for c in _COLUMNS)).where(col(GameRow.event_norm).is_not(None))
    if game:
        stmt = stmt.where(col(GameRow.game) == game)
    stmt = stmt.order_by(col(GameRow.id))
    events: dict[str, EventSummary] = {}
    spellings: list[tuple[str | None, str | None]] = []
    for event, _norm, g, first, last, ro, black, white, verdict in session.execute(stmt):
        key = identity_key(event)
        if key is None:
            continue
        spellings.append((key, event))
        e = events.setdefault(key, EventSummary(key, event))
        e.games.add(g)
        e.records += 1
        e.passed += verdict == "pass"
        if first and (e.first is None or first < e.first):
            e.first = first
        end = last or first
        if end and (e.last is None or end > e.last):
            e.last = end
        n = round_number(ro)
        if n is not None:
            e.rounds.add(n)
        for name in (black, white):
            k = ids.key(name)
            if k:
                e.players.add(k)
    names = display_names(spellings)
    for e in events.values():
        e.name = names.get(e.key, e.name)
    return sorted(events.values(), key=lambda e: (e.first or dt.date.max, e.name.casefold()))


def event_rows(session: Session, name: str, game: str | None = None) -> tuple[str | None, list[GameRow]]:
    """The records of the event `name` (and `game`): its most frequent spelling, and its rows."""
    key = identity_key(name)
    if key is None:
        return None, []
    norms = [n for (n,) in session.execute(select(col(GameRow.event_norm)).distinct()
                                           .where(col(GameRow.event_norm).is_not(None)))
             if identity_key(n) == key]
    if not norms:
        return None, []
    stmt = select(GameRow).where(col(GameRow.event_norm).in_(norms))
    if game:
        stmt = stmt.where(col(GameRow.game) == game)
    rows = list(session.exec(stmt.order_by(col(GameRow.id))))
    spelled = display_names((key, r.event) for r in rows)
    return spelled.get(key), rows
