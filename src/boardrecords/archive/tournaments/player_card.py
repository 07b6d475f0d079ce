"""One player's card (`records player NAME`, the page `/players/NAME`): every game of the player under any of
their spellings (case, spacing, punctuation and the aliases of `records alias`), and from those games, counted
once here, the results against each opponent, by colour, by game and by event, the openings they play most (from
the position index) and their events.

A player is counted with the colour held at the end of a game (after a pie swap), as the player list counts
(players.py), and a game's winner is the one its verdict names (GEN-8); a game against oneself counts as played,
neither won nor lost.

An opening is the position after the first OPENING_PLY moves of a game (three: a Go game's first three stones,
the opening turns of Conversion Go's refined pie, CON-5), as the position index keeps it for every game: the same
position however it was reached (any move order, any of the board's symmetries) is one opening. Each is named by
the moves of the player's latest game that reached it, so that the explorer can open it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, or_
from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from ...records.games import Game
from ...verifier.judging.status import drawn
from ..core.filters import Filters
from ..core.models import GameRow
from ..core.names import Identities, identity_key, load_identities, player_names, spellings
from ..core.search import search_statement
from ..positions.explore import opening_keys
from ..positions.values import OPENING_PLY

OPENINGS_SHOWN = 10  # the openings a card lists, most played first


@dataclass(slots=True)
class Tally:
    """Games, and of them the player's wins, losses and draws (the rest had no result known)."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, outcome: str) -> None:
        """Count a game the player `won`, `lost`, `drew`, or of no result (`-`)."""
        self.games += 1
        self.wins += outcome == "won"
        self.losses += outcome == "lost"
        self.draws += outcome == "drew"

    def to_json(self) -> dict[str, int]:
        return {"games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws}


@dataclass(slots=True)
class Against:
    """The player's games against one opponent in one game."""

    opponent: str  # the opponent's one name (names.player_names)
    game: str
    tally: Tally = field(default_factory=Tally)
    last: dt.date | None = None

    def to_json(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "game": self.game, **self.tally.to_json(),
                "last": self.last.isoformat() if self.last else None}


@dataclass(slots=True)
class AtEvent:
    """The player's games of one event (EV) in one game."""

    event: str
    game: str
    tally: Tally = field(default_factory=Tally)
    first: dt.date | None = None
    last: dt.date | None = None

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "game": self.game, **self.tally.to_json(),
                "first": self.first.isoformat() if self.first else None,
                "last": self.last.isoformat() if self.last else None}


@dataclass(slots=True)
class Opening:
    """A position after the first OPENING_PLY moves that the player's games reached: how often, with which colour,
    how it went, and the moves of their latest game that reached it (`B Q16`, as the explorer names moves)."""

    key: int
    game: str
    size: int | None
    moves: list[str] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    as_black: int = 0
    as_white: int = 0
    latest: int = 0  # the id of the latest game of the player that reached it

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "size": self.size, "moves": self.moves, **self.tally.to_json(),
                "as_black": self.as_black, "as_white": self.as_white, "latest": self.latest}


@dataclass(slots=True)
class CardGame:
    """One game of the player: its row (light: no bytes, moves or text) and how it went for them."""

    row: GameRow
    colour: str  # the colour the player held at the end: B or W
    opponent: str | None  # the opponent's one name (None: no name, or the player on both sides)
    outcome: str  # won, lost, drew, or - (no result known, or a game against oneself)


@dataclass(slots=True)
class Card:
    """What `player_card` finds; the answer (archive/answers.py: PlayerCard) gives its JSON."""

    key: str
    name: str
    spellings: list[str]
    games: list[CardGame]
    by_game: dict[str, Tally]
    by_colour: dict[tuple[str, str], Tally]
    opponents: list[Against]
    events: list[AtEvent]
    openings: list[Opening]


def outcome_for(colour: str, winner: str | None, tie: bool, self_play: bool) -> str:
    """How a game went for the player who held `colour` at its end: `won`, `lost`, `drew` or `-`."""
    if self_play:
        return "-"  # GEN-8: one game, neither won nor lost by that player
    if winner == colour:
        return "won"
    if winner is not None:
        return "lost"
    return "drew" if tie else "-"


def _rows(session: Session, norms: Iterable[str]) -> list[GameRow]:
    """The games where one of `norms` (stored normalised spellings) held a colour, newest date first."""
    names = sorted(set(norms))
    g = GameRow
    stmt = search_statement(Filters(), sort="-date,-id", limit=None, light=True).where(
        or_(col(g.black_norm).in_(names), col(g.white_norm).in_(names),
            col(g.black_final_norm).in_(names), col(g.white_final_norm).in_(names)))
    return list(session.exec(stmt).all())


def _side(row: GameRow, key: str, ids: Identities) -> tuple[str, str | None] | None:
    """The colour the player held at the end of `row` and the opponent's identity key (None: on both sides);
    None when the player is on neither side at the end (a spelling only at the start, before a swap renamed)."""
    black = row.black_final if row.black_final is not None else row.black
    white = row.white_final if row.white_final is not None else row.white
    kb, kw = ids.key(black), ids.key(white)
    if kb == key and kw == key:
        return "B", None
    if kb == key:
        return "B", kw
    if kw == key:
        return "W", kb
    return None


def _moves_of(engine: Engine, ids: list[int]) -> dict[int, str]:
    """The stored main lines (`B[pd];W[dp];...`) of the games `ids`."""
    if not ids:
        return {}
    with engine.connect() as conn:
        return {int(i or 0): m for i, m in conn.execute(sa_select(col(GameRow.id), col(GameRow.moves))
                                                   .where(col(GameRow.id).in_(ids)))}


def _openings(engine: Engine, games: list[CardGame]) -> list[Opening]:
    """The openings of the player's games, most played first (OPENINGS_SHOWN of them), from the position index."""
    from ...verifier.keys.targets import stored_name

    keys = opening_keys(engine, [g.row.id for g in games if g.row.id is not None])
    found: dict[int, Opening] = {}
    for g in games:  # newest first: the first game seen of an opening is its latest
        key = keys.get(g.row.id or 0)
        if key is None:
            continue
        o = found.get(key)
        if o is None:
            o = found[key] = Opening(key, g.row.game, g.row.size, latest=g.row.id or 0)
        o.tally.add(g.outcome)
        o.as_black += g.colour == "B"
        o.as_white += g.colour == "W"
    shown = sorted(found.values(), key=lambda o: (-o.tally.games, o.latest))[:OPENINGS_SHOWN]
    lines = _moves_of(engine, [o.latest for o in shown])
    for o in shown:
        stored = [m for m in lines.get(o.latest, "").split(";") if m][:OPENING_PLY]
        o.moves = [stored_name(m, Game(o.game), o.size or 0) for m in stored]
    return shown


def player_card(engine: Engine, session: Session, name: str) -> Card | None:
    """The card of the player `name` (any of their spellings); None when no game names them."""
    ids = load_identities(session)
    key = ids.key(name)
    if key is None:
        return None
    norms = spellings(session, [name]).get(name, [])
    games: list[CardGame] = []
    written: list[tuple[str | None, str | None]] = []
    opponents: dict[tuple[str, str], Against] = {}
    events: dict[tuple[str, str], AtEvent] = {}
    by_game: dict[str, Tally] = {}
    by_colour: dict[tuple[str, str], Tally] = {}
    others: list[str] = []
    for row in _rows(session, norms):
        side = _side(row, key, ids)
        if side is None:
            continue
        colour, other = side
        black = row.black_final if row.black_final is not None else row.black
        white = row.white_final if row.white_final is not None else row.white
        mine, theirs = (black, white) if colour == "B" else (white, black)
        written.append((key, mine))
        tie = row.winner_colour is None and drawn(row.result_status, row.result_method, row.computed_result,
                                                  row.result_checked)
        outcome = outcome_for(colour, row.winner_colour, tie, other is None)
        games.append(CardGame(row, colour, theirs if other is not None else None, outcome))
        by_game.setdefault(row.game, Tally()).add(outcome)
        by_colour.setdefault((row.game, colour), Tally()).add(outcome)
        day = row.date_last or row.date_first
        if other is not None and theirs:
            others.append(theirs)
            a = opponents.setdefault((other, row.game), Against(theirs, row.game))
            a.tally.add(outcome)
            if day and (a.last is None or day > a.last):
                a.last = day
        event_key = identity_key(row.event)
        if event_key is not None and row.event:
            e = events.setdefault((event_key, row.game), AtEvent(row.event, row.game))
            e.tally.add(outcome)
            if row.date_first and (e.first is None or row.date_first < e.first):
                e.first = row.date_first
            if day and (e.last is None or day > e.last):
                e.last = day
    if not games:
        return None
    # Every name as the other pages give it: the player's and each opponent's one name over the whole archive.
    names = player_names(session, ids, [name, *others])
    for (other_key, _), a in opponents.items():
        a.opponent = names.get(other_key, a.opponent)
    for g in games:
        if g.opponent is not None:
            g.opponent = names.get(ids.key(g.opponent) or "", g.opponent)
    against = sorted(opponents.values(), key=lambda a: (-a.tally.games, a.opponent.casefold(), a.game))
    at_events = sorted(events.values(), key=lambda e: (e.first or dt.date.max, e.event.casefold()))
    return Card(key, names.get(key, name), sorted({n for _, n in written if n}), games, by_game, by_colour,
                against, at_events, _openings(engine, games))
