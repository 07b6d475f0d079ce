"""Players: the aliases `records alias` makes (further spellings made one player), the federation numbers set by
hand (`records numbers set`; archive/core/numbers.py joins players by them) and the player list.

Names are players through their identity keys (archive/core/names.py: case, spacing and punctuation aside); an alias
maps one more key to the key of the player it belongs to, and never chains.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from ...common.errors import InputError
from ...verifier.judging.status import drawn
from ..core.db import writer
from ..core.models import AliasRow, GameRow
from ..core.names import clean, has_alias_table, identity_key, load_identities, player_names
from ..core.numbers import HAND, KINDS, LABELS, PLAYER_NUMBER, Conflict, Numbers, ensure_table
from ..core.state import mark_changed
from .ratings import unrated


def aliases(session: Session) -> list[AliasRow]:
    if not has_alias_table(session):
        return []
    return list(session.exec(select(AliasRow).order_by(col(AliasRow.canonical), col(AliasRow.key))))


class AliasError(InputError):
    """An alias that cannot be made or removed (an InputError: the CLI reports it and exits with 2)."""


def add_alias(engine: Engine, name: str, others: Sequence[str]) -> list[tuple[str, str]]:
    """Make each of `others` the same player as `name`; returns (other key, canonical key) for each made.

    Aliases never chain: when `name` is itself an alias its player is used, and the spellings that pointed to an
    `other` now point to `name`'s player.
    """
    AliasRow.__table__.create(engine, checkfirst=True)  # type: ignore[attr-defined]  # SQLModel sets __table__
    target = identity_key(name)
    if target is None:
        raise AliasError("a player's name must not be empty")
    made: list[tuple[str, str]] = []
    with Session(writer(engine)) as session:
        current = {r.key: r for r in session.exec(select(AliasRow))}
        canonical = current[target].canonical if target in current else target
        for other in others:
            key = identity_key(other)
            if key is None:
                raise AliasError("a player's name must not be empty")
            if key == canonical:
                continue  # already the same player
            for row in current.values():
                if row.canonical == key:
                    row.canonical, row.player = canonical, name
                    session.add(row)
            existing = current.get(key)
            if existing is None:
                existing = current[key] = AliasRow(key=key, canonical=canonical, name=other, player=name)
            else:
                existing.canonical, existing.name, existing.player = canonical, other, name
            session.add(existing)
            made.append((key, canonical))
        if made:
            mark_changed(session.connection())
        session.commit()
    return made


def remove_alias(engine: Engine, name: str) -> int:
    """Undo `records alias` for `name`: its own alias, or (for a player others were made) all that point to it.
    Returns how many aliases were removed."""
    key = identity_key(name)
    if key is None:
        return 0
    with Session(engine) as session:  # not the writer's: looking takes no write lock
        if not has_alias_table(session):
            return 0
    with Session(writer(engine)) as session:
        rows = list(session.exec(select(AliasRow).where(col(AliasRow.key) == key)))
        if not rows:
            rows = list(session.exec(select(AliasRow).where(col(AliasRow.canonical) == key)))
        for row in rows:
            session.delete(row)
        if rows:
            session.flush()
            mark_changed(session.connection())
        session.commit()
    return len(rows)


class NumberError(InputError):
    """A federation number that cannot be set (an InputError: the CLI reports it and exits with 2)."""


_NUMBER = re.compile(r"^[0-9A-Za-z-]{1,40}$")


def set_numbers(engine: Engine, name: str, given: dict[str, str | None]) -> dict[str, str]:
    """Set by hand the federation numbers of the player `name` (`given`: kind -> value; None leaves it, "" removes
    the one set by hand). Returns the numbers now set by hand for that spelling."""
    from sqlalchemy import delete, insert

    key = identity_key(name)
    if key is None:
        raise NumberError("a player's name must not be empty")
    for kind, value in given.items():
        if kind not in KINDS:
            raise NumberError(f"no federation number {kind!r}")
        if value and not _NUMBER.match(value.strip()):
            raise NumberError(f"{LABELS[kind]} {value!r} is not a number (letters, digits and -, at most 40)")
    with writer(engine).begin() as conn:
        ensure_table(conn)
        row = conn.execute(sa_select(PLAYER_NUMBER).where(PLAYER_NUMBER.c.key == key,
                                                          PLAYER_NUMBER.c.source == HAND)).first()
        values = {k: (getattr(row, k) if row is not None else "") for k in KINDS}
        values.update({k: v.strip() for k, v in given.items() if v is not None})
        conn.execute(delete(PLAYER_NUMBER).where(PLAYER_NUMBER.c.key == key, PLAYER_NUMBER.c.source == HAND))
        if any(values.values()):
            conn.execute(insert(PLAYER_NUMBER).values(key=key, name=clean(name) or name, source=HAND, **values))
        mark_changed(conn)
    return {k: v for k, v in values.items() if v}


@dataclass(slots=True)
class NumberedPlayer:
    """A player with federation numbers: the name the lists give, the numbers, the spellings that carry them."""

    key: str
    name: str
    numbers: Numbers
    spellings: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"player": self.name, **self.numbers.to_json(), "spellings": sorted(self.spellings)}


def numbered_players(session: Session) -> tuple[list[NumberedPlayer], list[Conflict]]:
    """Every player with a federation number, by name, and every conflict between numbers."""
    from ..core.numbers import read_rows

    ids = load_identities(session)
    names = player_names(session, ids)
    found: dict[str, NumberedPlayer] = {}
    for row in read_rows(session.connection()):
        key = ids.key(row.name) or row.key
        p = found.setdefault(key, NumberedPlayer(key, names.get(key, row.name), ids.numbers.get(key, Numbers()),
                                                 []))
        if row.name not in p.spellings:
            p.spellings.append(row.name)
    return sorted(found.values(), key=lambda p: (p.name.casefold(), p.key)), ids.conflicts


@dataclass(slots=True)
class PlayerSummary:
    """One player's records of one game."""

    key: str
    name: str
    game: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    first: dt.date | None = None
    last: dt.date | None = None
    spellings: set[str] = field(default_factory=set)
    rated: int = 0  # the records that count for the ratings (ratings.py: unrated); 0: no rating to show
    numbers: Numbers = field(default_factory=Numbers)  # EGD PIN, AGA id, FFG licence

    def to_json(self) -> dict[str, Any]:
        return {"player": self.name, "game": self.game, "games": self.games, "wins": self.wins,
                "losses": self.losses, "draws": self.draws,
                "first": self.first.isoformat() if self.first else None,
                "last": self.last.isoformat() if self.last else None, "spellings": sorted(self.spellings),
                "rated": self.rated, **self.numbers.to_json()}


def player_list(session: Session, game: str | None = None) -> list[PlayerSummary]:
    """Every player (identity) with games, wins, losses and draws per game and the first and last date; a player
    is counted with the colour held at the end (after a swap), the winner as the verdict names it."""
    ids = load_identities(session)
    g = GameRow
    stmt = sa_select(col(g.game), col(g.black_final), col(g.white_final), col(g.black), col(g.white),
                     col(g.winner_colour), col(g.result_status), col(g.result_method), col(g.computed_result),
                     col(g.result_checked), col(g.date_first), col(g.date_last), col(g.verdict))
    if game:
        stmt = stmt.where(col(g.game) == game)
    stmt = stmt.order_by(col(g.id))
    out: dict[tuple[str, str], PlayerSummary] = {}
    for kind, bf, wf, b, w, winner, status, method, computed, checked, first, last, verdict in session.execute(stmt):
        sides = [(bf if bf is not None else b, "B"), (wf if wf is not None else w, "W")]
        kb, kw = ids.key(sides[0][0]), ids.key(sides[1][0])
        self_play = kb is not None and kb == kw
        if self_play:
            sides = sides[:1]  # GEN-8: one game, neither won nor lost by that player
        tie = winner is None and drawn(status, method, computed, checked)
        rated = unrated(verdict, first, kb, kw, winner is not None or tie) is None
        for name, colour in sides:
            key = ids.key(name)
            if key is None or name is None:
                continue
            p = out.setdefault((key, kind), PlayerSummary(key, name, kind))
            p.games += 1
            p.rated += rated
            p.spellings.add(name)
            if self_play:
                pass
            elif winner == colour:
                p.wins += 1
            elif winner is not None:
                p.losses += 1
            elif tie:
                p.draws += 1
            if first and (p.first is None or first < p.first):
                p.first = first
            end = last or first
            if end and (p.last is None or end > p.last):
                p.last = end
    names = player_names(session, ids)
    for p in out.values():
        p.name = names.get(p.key, p.name)
        p.numbers = ids.numbers.get(p.key, p.numbers)
    return sorted(out.values(), key=lambda p: (p.name.casefold(), p.game))
