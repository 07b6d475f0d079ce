"""Players' federation numbers (EGD PIN, AGA id, FFG licence) and the join they make: two spellings that carry the
same number are one player, as an alias would make them.

The `player_number` table holds one row a spelling and a source: the numbers an imported tournament file gave the
player (`source` the tournament's key; a re-import replaces its rows) or the ones set by hand
(`records numbers set`, `source` empty). A row is keyed by the identity key of the spelling (archive/core/names.py)
and read through the aliases, so that it belongs to the player the spelling belongs to.

What a player's number is, per kind: the one set by hand when there is one, else the one the tournament files
agree on. A player with two different numbers of one kind (two files disagree, or two spellings made one player
by an alias carry two) has a conflict: it is reported (`conflicts`) and that number joins nobody. Players that
share a number are joined unless the join would give one player two different numbers of some kind: then none of
them is joined and the conflict is reported. Nothing is merged silently.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Column, Integer, String, Table, UniqueConstraint
from sqlmodel import SQLModel

KINDS = ("egd_pin", "aga_id", "ffg_licence")
LABELS = {"egd_pin": "EGD PIN", "aga_id": "AGA id", "ffg_licence": "FFG licence"}
HAND = ""  # the source of the numbers set by hand

PLAYER_NUMBER = Table(
    "player_number", SQLModel.metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(400), nullable=False, index=True),  # the spelling's identity key
    Column("name", String, nullable=False),  # the spelling, as given
    Column("source", String(400), nullable=False),  # HAND, or the tournament's key
    Column("egd_pin", String(40), nullable=False, default=""),
    Column("aga_id", String(40), nullable=False, default=""),
    Column("ffg_licence", String(40), nullable=False, default=""),
    UniqueConstraint("key", "source", name="uq_player_number_key_source"),
)


@dataclass(frozen=True, slots=True)
class NumberRow:
    key: str
    name: str
    source: str
    numbers: Mapping[str, str]  # kind -> value ("" for none)


@dataclass(slots=True)
class Numbers:
    """One player's federation numbers (a kind in conflict is left empty)."""

    egd_pin: str = ""
    aga_id: str = ""
    ffg_licence: str = ""

    def get(self, kind: str) -> str:
        return str(getattr(self, kind))

    def to_json(self) -> dict[str, str | None]:
        return {kind: self.get(kind) or None for kind in KINDS}


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two different numbers of one kind for one player, or a join refused."""

    kind: str
    values: tuple[str, ...]
    players: tuple[str, ...]  # the spellings concerned
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "values": list(self.values), "players": list(self.players),
                "message": self.message}


@dataclass(slots=True)
class Joined:
    """The aliases with the number joins added, each player's numbers, and the conflicts."""

    aliases: dict[str, str]
    numbers: dict[str, Numbers] = field(default_factory=dict)  # canonical key -> numbers
    conflicts: list[Conflict] = field(default_factory=list)
    spellings: dict[str, list[str]] = field(default_factory=dict)  # canonical key -> spellings with numbers


def read_rows(conn: Any) -> list[NumberRow]:
    """Every row of the table (an empty list when the archive has none yet)."""
    from sqlalchemy import inspect, select

    if not inspect(conn).has_table(PLAYER_NUMBER.name):
        return []
    return [NumberRow(r.key, r.name, r.source, {k: getattr(r, k) or "" for k in KINDS})
            for r in conn.execute(select(PLAYER_NUMBER).order_by(PLAYER_NUMBER.c.id))]


def join(aliases: Mapping[str, str], rows: Iterable[NumberRow]) -> Joined:
    """`aliases` (identity key -> canonical key) with the players sharing a number joined (module docstring)."""
    hand: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    filed: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    spellings: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        c = aliases.get(row.key, row.key)
        if row.name not in spellings[c]:
            spellings[c].append(row.name)
        for kind in KINDS:
            if row.numbers.get(kind):
                (hand if row.source == HAND else filed)[c][kind].add(row.numbers[kind])
    found = Joined(dict(aliases), spellings=dict(spellings))
    own: dict[str, Numbers] = {}
    for c in spellings:
        numbers = Numbers()
        for kind in KINDS:
            values = hand[c][kind] or filed[c][kind]
            if len(values) == 1:
                setattr(numbers, kind, next(iter(values)))
            elif values:
                found.conflicts.append(Conflict(kind, tuple(sorted(values)), tuple(spellings[c]),
                                                f"{' / '.join(spellings[c])} has {len(values)} {LABELS[kind]}s: "
                                                f"{', '.join(sorted(values))} (not joined by it)"))
        own[c] = numbers
    parent = {c: c for c in own}

    def root(c: str) -> str:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for kind in KINDS:
        holders: dict[str, list[str]] = defaultdict(list)
        for c, numbers in own.items():
            if numbers.get(kind):
                holders[numbers.get(kind)].append(c)
        for same in holders.values():
            for other in same[1:]:
                parent[root(other)] = root(same[0])
    groups: dict[str, list[str]] = defaultdict(list)
    for c in own:
        groups[root(c)].append(c)
    for members in groups.values():
        if len(members) == 1:
            found.numbers[members[0]] = own[members[0]]
            continue
        names = tuple(n for c in members for n in spellings[c])
        seen = [(kind, sorted({own[c].get(kind) for c in members} - {""})) for kind in KINDS]
        clash = [(kind, distinct) for kind, distinct in seen if len(distinct) > 1]
        if clash:
            for kind, distinct in clash:
                found.conflicts.append(Conflict(kind, tuple(distinct), names,
                                                f"{', '.join(names)} share a federation number but have "
                                                f"{LABELS[kind]}s {', '.join(distinct)}: not joined"))
            for c in members:
                found.numbers[c] = own[c]
            continue
        rep = min(members, key=lambda c: (c not in aliases.values(), c))
        merged = Numbers(**{kind: next((own[c].get(kind) for c in members if own[c].get(kind)), "")
                            for kind in KINDS})
        found.numbers[rep] = merged
        for k, c in list(found.aliases.items()):
            if c in members:
                found.aliases[k] = rep
        for c in members:
            if c != rep:
                found.aliases[c] = rep
        found.spellings[rep] = list(names)
    return found


def any_numbers(conn: Any) -> bool:
    """Whether any spelling carries a number (a join may then make spellings one player)."""
    from sqlalchemy import func, inspect, select

    return inspect(conn).has_table(PLAYER_NUMBER.name) and bool(
        conn.execute(select(func.count()).select_from(PLAYER_NUMBER)).scalar())


def ensure_table(conn: Any) -> None:
    """Make the table an older archive lacks (a no-op when it is there)."""
    PLAYER_NUMBER.create(conn, checkfirst=True)


def replace_source(conn: Any, source: str, rows: Iterable[NumberRow]) -> None:
    """Replace every row of `source` (a tournament's key) by `rows`, in the caller's transaction."""
    from sqlalchemy import delete, insert

    ensure_table(conn)
    conn.execute(delete(PLAYER_NUMBER).where(PLAYER_NUMBER.c.source == source))
    values = [{"key": r.key, "name": r.name, "source": source, **{k: r.numbers.get(k, "") for k in KINDS}}
              for r in rows if any(r.numbers.get(k) for k in KINDS)]
    unique: dict[str, dict[str, str]] = {}
    for v in values:
        unique.setdefault(v["key"], v)  # one row a spelling: the first given
    if unique:
        conn.execute(insert(PLAYER_NUMBER), list(unique.values()))
