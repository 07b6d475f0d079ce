"""The official tournaments in the archive: the tables that hold an imported tournament file (archive/tournaments/
opengotha.py reads it), storing one, and reading one back.

Three tables: `tournament` (one row a tournament, keyed by its short name's identity key, with its settings as
JSON), `tournament_player` and `tournament_pairing` (its players and its rounds' boards and byes); the players'
federation numbers also go to `player_number` (archive/core/numbers.py) under the tournament's key, where they join
spellings across events. They are on
SQLModel's metadata, so that a new archive is made with them; a writer adds them to an older archive
(`ensure_tables`). Storing a tournament whose key is already there replaces it whole, in one transaction: a later
save of the same tournament updates it.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Date,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    insert,
    select,
)
from sqlmodel import SQLModel

from ..core.db import writer
from ..core.names import clean, identity_key
from ..core.numbers import PLAYER_NUMBER, NumberRow, replace_source
from ..core.state import mark_changed
from .opengotha import OfficialPairing, OfficialPlayer, OfficialTournament

TOURNAMENT = Table(
    "tournament", SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(400), nullable=False, unique=True),  # identity key of the short name
    Column("name", String, nullable=False),
    Column("name_key", String(400), nullable=False, index=True),  # identity key of the name (what EV is matched to)
    Column("short_name", String, nullable=False),
    Column("location", String, nullable=False, default=""),
    Column("begin_date", Date, nullable=True),
    Column("end_date", Date, nullable=True),
    Column("komi", Float, nullable=True),
    Column("size", Integer, nullable=True),
    Column("rounds", Integer, nullable=False),
    Column("data_version", Integer, nullable=False),
    Column("settings", Text, nullable=False),  # JSON
    Column("source", String, nullable=False, default=""),  # the file's name as given
    Column("imported_at", DateTime(timezone=True), nullable=False),
)

TOURNAMENT_PLAYER = Table(
    "tournament_player", SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournament.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("key", String(400), nullable=False),
    Column("name", String, nullable=False),
    Column("first_name", String, nullable=False),
    Column("rank", String(8), nullable=False),
    Column("rank_value", Integer, nullable=False),
    Column("club", String, nullable=False),
    Column("country", String, nullable=False),
    Column("egd_pin", String, nullable=False),
    Column("aga_id", String, nullable=False),
    Column("ffg_licence", String, nullable=False),
    Column("rating", Integer, nullable=True),
    Column("participating", String, nullable=False),
    Column("smms_correction", Integer, nullable=False, default=0),
    UniqueConstraint("tournament_id", "key", name="uq_tournament_player_key"),
)

TOURNAMENT_PAIRING = Table(
    "tournament_pairing", SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournament.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("round", Integer, nullable=False),
    Column("board", Integer, nullable=True),
    Column("white", String(400), nullable=False),
    Column("black", String(400), nullable=False),
    Column("handicap", Integer, nullable=False),
    Column("known_colour", Boolean, nullable=False),
    Column("result", String(1), nullable=False),
    Column("forfeit", Boolean, nullable=False),
    Column("bye", Boolean, nullable=False),
)

TABLES = (TOURNAMENT, TOURNAMENT_PLAYER, TOURNAMENT_PAIRING, PLAYER_NUMBER)


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """What storing a tournament did: its row's id and whether it replaced an earlier import."""

    id: int
    updated: bool


def ensure_tables(engine: Engine) -> None:
    """Make the tournament tables an older archive lacks (under the write lock; a no-op when they are there)."""
    SQLModel.metadata.create_all(writer(engine), tables=list(TABLES), checkfirst=True)


def tournament_key(name: str) -> str:
    """The key that makes two spellings of a tournament's name one (case, spacing and punctuation)."""
    return identity_key(name) or name


def store_tournament(engine: Engine, found: OfficialTournament, source: str = "") -> StoredTournament:
    """Store `found`, replacing the tournament of the same short name whole; one transaction."""
    ensure_tables(engine)
    key = tournament_key(found.short_name)
    values = {"key": key, "name": clean(found.name), "name_key": tournament_key(found.name),
              "short_name": clean(found.short_name), "location": clean(found.location) or "",
              "begin_date": found.begin, "end_date": found.end, "komi": found.komi, "size": found.size,
              "rounds": found.rounds, "data_version": found.data_version,
              "settings": json.dumps(found.settings, sort_keys=True), "source": clean(source) or "",
              "imported_at": dt.datetime.now(dt.UTC)}
    with writer(engine).begin() as conn:
        old = conn.execute(select(TOURNAMENT.c.id).where(TOURNAMENT.c.key == key)).scalar()
        if old is not None:
            # Children first: SQLite enforces no foreign key unless asked, so the cascade is not relied on.
            conn.execute(delete(TOURNAMENT_PAIRING).where(TOURNAMENT_PAIRING.c.tournament_id == old))
            conn.execute(delete(TOURNAMENT_PLAYER).where(TOURNAMENT_PLAYER.c.tournament_id == old))
            conn.execute(TOURNAMENT.update().where(TOURNAMENT.c.id == old).values(**values))
            tid = int(old)
        else:
            made = conn.execute(insert(TOURNAMENT).values(**values)).inserted_primary_key
            assert made is not None  # an insert of one row
            tid = int(made[0])
        if found.players:
            conn.execute(insert(TOURNAMENT_PLAYER), [_player_values(tid, p) for p in found.players])
        if found.pairings:
            conn.execute(insert(TOURNAMENT_PAIRING), [{"tournament_id": tid, "round": p.round, "board": p.board,
                                                       "white": p.white, "black": p.black, "handicap": p.handicap,
                                                       "known_colour": p.known_colour, "result": p.result,
                                                       "forfeit": p.forfeit, "bye": p.bye} for p in found.pairings])
        replace_source(conn, key, file_numbers(found))
        mark_changed(conn)
    return StoredTournament(id=tid, updated=old is not None)


def file_numbers(found: OfficialTournament) -> list[NumberRow]:
    """The federation numbers the file gives its players, under each name a record may give them."""
    rows = []
    for p in found.players:
        numbers = {"egd_pin": clean(p.egd_pin) or "", "aga_id": clean(p.aga_id) or "",
                   "ffg_licence": clean(p.ffg_licence) or ""}
        # Both orders a record may give ("Alice Adams", "Adams Alice"): the number makes them one player.
        for spelling in dict.fromkeys((p.full_name, f"{p.name} {p.first_name}".strip())):
            key = identity_key(spelling)
            if key:
                rows.append(NumberRow(key, clean(spelling) or "", "", numbers))
    return rows


def _player_values(tid: int, p: OfficialPlayer) -> dict[str, Any]:
    return {"tournament_id": tid, "key": clean(p.key), "name": clean(p.name), "first_name": clean(p.first_name),
            "rank": p.rank, "rank_value": p.rank_value, "club": clean(p.club) or "", "country": clean(p.country) or "",
            "egd_pin": clean(p.egd_pin) or "", "aga_id": clean(p.aga_id) or "",
            "ffg_licence": clean(p.ffg_licence) or "", "rating": p.rating, "participating": p.participating,
            "smms_correction": p.smms_correction}


def load_tournament(engine: Engine, name: str) -> OfficialTournament | None:
    """The stored tournament whose name or short name is `name` (case, spacing and punctuation aside); None when
    there is none (or the archive has no tournament tables yet)."""
    from sqlalchemy import inspect, or_

    if not inspect(engine).has_table(TOURNAMENT.name):
        return None
    key = tournament_key(name)
    with engine.connect() as conn:
        row = conn.execute(select(TOURNAMENT).where(or_(TOURNAMENT.c.key == key, TOURNAMENT.c.name_key == key))
                           .order_by(TOURNAMENT.c.id)).first()
        if row is None:
            return None
        players = conn.execute(select(TOURNAMENT_PLAYER).where(TOURNAMENT_PLAYER.c.tournament_id == row.id)
                               .order_by(TOURNAMENT_PLAYER.c.id)).all()
        pairings = conn.execute(select(TOURNAMENT_PAIRING).where(TOURNAMENT_PAIRING.c.tournament_id == row.id)
                                .order_by(TOURNAMENT_PAIRING.c.id)).all()
    return OfficialTournament(
        name=row.name, short_name=row.short_name, location=row.location, begin=row.begin_date, end=row.end_date,
        komi=row.komi, size=row.size, rounds=row.rounds, data_version=row.data_version,
        settings=json.loads(row.settings),
        players=[OfficialPlayer(key=p.key, name=p.name, first_name=p.first_name, rank=p.rank,
                                rank_value=p.rank_value, club=p.club, country=p.country, egd_pin=p.egd_pin,
                                aga_id=p.aga_id, ffg_licence=p.ffg_licence, rating=p.rating,
                                participating=p.participating, smms_correction=p.smms_correction)
                 for p in players],
        pairings=[OfficialPairing(round=p.round, board=p.board, white=p.white, black=p.black, handicap=p.handicap,
                                  known_colour=p.known_colour, result=p.result, forfeit=p.forfeit, bye=p.bye)
                  for p in pairings])
