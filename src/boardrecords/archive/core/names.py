"""Names as the archive keeps them: text made storable, a name as a search compares it, and one identity per
player.

A name is stored as written (`clean`: storable in any database) and, beside it, normalised for search
(`normalise_name`: NFKC, casefolded, spacing collapsed). A name's identity key is its normalised form with every
character that is not a letter or a digit dropped: "Lee Sedol", "Lee Se-dol" and "LEE  Sedol" all give `leesedol`.
The `alias` table (`records alias`, archive/tournaments/players.py) maps a key to the key of the player it belongs
to; every search filter on a player, the player list, crosstables and ratings look names up through it
(`Identities`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import func, inspect, union
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from .models import AliasRow, GameRow
from .numbers import Conflict, Numbers, join, read_rows

_SPACES = re.compile(r"\s+")


def clean(text: str | None) -> str | None:
    """`text` made storable in any database: lone surrogates and NUL become U+FFFD."""
    if text is None:
        return None
    if text.isascii() and "\x00" not in text:
        return text
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text.replace("\x00", "\ufffd")


def normalise_name(name: str | None) -> str | None:
    """A name as search compares it: NFKC, casefolded, spacing collapsed; None for a missing or blank name."""
    if name is None:
        return None
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", clean(name) or "").casefold()).strip()
    return text or None


def identity_key(name: str | None) -> str | None:
    """The key that makes spellings one player: the normalised name without punctuation and spaces."""
    norm = normalise_name(name)
    if norm is None:
        return None
    key = "".join(ch for ch in norm if ch.isalnum())
    return key or norm  # a name of punctuation alone keeps its punctuation


@dataclass(slots=True)
class Identities:
    """The alias table in memory, with the joins federation numbers make (archive/core/numbers.py): `key(name)`
    gives the key of the player a name belongs to."""

    aliases: dict[str, str] = field(default_factory=dict)  # identity key -> canonical key
    names: dict[str, str] = field(default_factory=dict)  # canonical key -> the player's name given to `alias`
    numbers: dict[str, Numbers] = field(default_factory=dict)  # canonical key -> federation numbers
    conflicts: list[Conflict] = field(default_factory=list)  # numbers that disagree (reported, never joined)

    def key(self, name: str | None) -> str | None:
        k = identity_key(name)
        return None if k is None else self.aliases.get(k, k)



def has_alias_table(session: Session) -> bool:
    """Whether the archive has an alias table yet (`records alias` makes it)."""
    return inspect(session.get_bind()).has_table(AliasRow.__tablename__)


def load_identities(session: Session) -> Identities:
    """The archive's aliases (none when the archive has no alias table yet), joined by federation numbers."""
    rows = list(session.exec(select(AliasRow))) if has_alias_table(session) else []
    aliases = {r.key: r.canonical for r in rows}
    names = {r.canonical: r.player for r in rows if r.player}
    joined = join(aliases, read_rows(session.connection()))
    for key, canonical in joined.aliases.items():  # a player joined to another keeps the name given to `alias`
        if canonical not in names and aliases.get(key, key) in names:
            names[canonical] = names[aliases.get(key, key)]
    return Identities(joined.aliases, names, joined.numbers, joined.conflicts)


def stored_names(session: Session) -> list[str]:
    """Every distinct normalised name the archive holds (players at the start and at the finish)."""
    g = GameRow
    stmt = union(*(select(c).where(c.is_not(None)) for c in
                   (col(g.black_norm), col(g.white_norm), col(g.black_final_norm), col(g.white_final_norm))))
    return [n for (n,) in session.execute(stmt)]


def spellings(session: Session, names: Iterable[str]) -> dict[str, list[str]]:
    """For each name asked, the normalised names stored in the archive that are the same player (its aliases
    followed); a name no record holds maps to its own normalised form, so that it still matches nothing wrongly."""
    asked = [n for n in names if n]
    if not asked:
        return {}
    try:
        ids = load_identities(session)
        stored = stored_names(session)
    except DBAPIError:
        return {}
    by_key: dict[str, list[str]] = {}
    for stored_norm in stored:
        stored_key = ids.key(stored_norm)
        if stored_key is not None:
            by_key.setdefault(stored_key, []).append(stored_norm)
    out: dict[str, list[str]] = {}
    for name in asked:
        k = ids.key(name)
        norm = normalise_name(name)
        found = sorted(set(by_key.get(k, [])) | ({norm} if norm else set())) if k else []
        out[name] = found
    return out


def player_names(session: Session, ids: Identities, among: Iterable[str] | None = None) -> dict[str, str]:
    """Each player's one name, by identity key, the same in every command and page (players, ratings,
    crosstables): the name given to `records alias`, else the spelling the archive's records use most for the
    player (with the colour held at the end; ties: the first stored). It is chosen over the whole archive, not over
    the records one command counts, so that a player the ratings leave some games out of keeps the name `players`
    gives. `among`: only the players of these names (a crosstable's), read through their stored spellings."""
    g = GameRow
    norms: list[str] | None = None
    if among is not None:
        norms = sorted({n for found in spellings(session, among).values() for n in found})
        if not norms:
            return {}
    counts: dict[str, Counter[str]] = {}
    first: dict[str, int] = {}
    for final, start, final_norm, start_norm in ((g.black_final, g.black, g.black_final_norm, g.black_norm),
                                                 (g.white_final, g.white, g.white_final_norm, g.white_norm)):
        name = func.coalesce(col(final), col(start))
        stmt = select(name, func.count(), func.min(col(g.id))).where(name.is_not(None)).group_by(name)
        if norms is not None:
            stmt = stmt.where(func.coalesce(col(final_norm), col(start_norm)).in_(norms))
        for spelling, n, lowest in session.execute(stmt):
            key = ids.key(spelling)
            if key is not None and spelling:
                counts.setdefault(key, Counter())[spelling] += n
                first[spelling] = min(first.get(spelling, lowest), lowest)
    chosen = {k: max(c, key=lambda name: (c[name], -first[name])) for k, c in counts.items()}
    return {**chosen, **ids.names}


def display_names(pairs: Iterable[tuple[str | None, str | None]]) -> dict[str, str]:
    """For (key, name as written) pairs, each key's most frequent spelling (ties: the one seen first)."""
    counts: dict[str, Counter[str]] = {}
    for key, name in pairs:
        if key is not None and name:
            counts.setdefault(key, Counter())[name] += 1
    return {k: c.most_common(1)[0][0] for k, c in counts.items()}
