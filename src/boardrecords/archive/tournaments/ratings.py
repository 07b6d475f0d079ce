"""`records ratings`: Whole-History Rating (Rémi Coulom) of the archive's players, per game, with the PyPI
package `whr` (a C++ implementation with a Python interface; MIT).

Which records count: those with a date, two players, and a winner the verdict names or a draw; records whose verdict
fails (invalid, wrong-result) are left out, since their result is not the one the moves give or the moves break a
rule; records whose result is unconfirmed (a resignation or a time win the replay cannot contradict) count, as they
are most of a tournament's results. The time step of WHR is the day (days since the archive's first date); players
are identities (archive/core/names.py). Ratings are on WHR's Elo scale, 0 for the average player, with the 95%
interval (1.96 standard deviations) WHR gives.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from ...verifier.judging.status import drawn
from ..core.models import GameRow
from ..core.names import load_identities, player_names

W2 = 14.0  # Elo^2 per day of rating drift: goratings.org's choice for Go players
ITERATIONS = 50
Z95 = 1.96


@dataclass(slots=True)
class Rating:
    key: str
    name: str
    game: str
    rating: float
    sd: float
    games: int
    last: dt.date | None
    history: list[tuple[dt.date, float, float]] = field(default_factory=list)  # (day, rating, sd)

    @property
    def low(self) -> float:
        return self.rating - Z95 * self.sd

    @property
    def high(self) -> float:
        return self.rating + Z95 * self.sd

    def to_json(self, *, history: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.name, "game": self.game, "rating": round(self.rating, 1),
                               "interval95": [round(self.low, 1), round(self.high, 1)], "sd": round(self.sd, 1),
                               "games": self.games, "last": self.last.isoformat() if self.last else None}
        if history:
            out["history"] = [{"date": d.isoformat(), "rating": round(r, 1), "sd": round(s, 1)}
                              for d, r, s in self.history]
        return out


@dataclass(slots=True)
class RatingRun:
    ratings: list[Rating]
    counted: int  # records rated
    skipped: Counter[str]  # records left out, by reason

    def best(self, limit: int = 0) -> list[Rating]:
        """The ratings, at most `limit` players per game (0: all); they are best first within a game."""
        if not limit:
            return self.ratings
        kept: Counter[str] = Counter()
        out = []
        for r in self.ratings:
            kept[r.game] += 1
            if kept[r.game] <= limit:
                out.append(r)
        return out


def unrated(verdict: str, day: dt.date | None, black: str | None, white: str | None, decided: bool) -> str | None:
    """Why a record does not count for the ratings (None: it counts), from its verdict, date, the identity keys of
    its players and whether it names a winner or is a draw; the player list counts its players' rated records
    with the same words (players.py), so that a page links a rating only where one exists."""
    if verdict in ("invalid", "wrong-result"):
        return "record fails"
    if day is None:
        return "no date"
    if black is None or white is None:
        return "a player is missing"
    if black == white:
        return "one player on both sides"
    if not decided:
        return "no result"
    return None


def ratings(session: Session, game: str | None = None, *, w2: float = W2) -> RatingRun:
    """Ratings per game (only `game` when given), best first within a game."""
    import whr  # a compiled package without type hints (pyproject: mypy ignores its missing stubs)

    ids = load_identities(session)
    g = GameRow
    stmt = sa_select(col(g.game), col(g.black_final), col(g.white_final), col(g.black), col(g.white),
                     col(g.winner_colour), col(g.result_status), col(g.result_method), col(g.computed_result),
                     col(g.result_checked), col(g.date_first), col(g.verdict))
    if game:
        stmt = stmt.where(col(g.game) == game)
    skipped: Counter[str] = Counter()
    per_game: dict[str, list[tuple[str, str, str, dt.date]]] = {}
    for kind, bf, wf, b, w, winner, status, method, computed, checked, day, verdict in session.execute(
            stmt.order_by(col(g.id))):
        black, white = (bf if bf is not None else b), (wf if wf is not None else w)
        kb, kw = ids.key(black), ids.key(white)
        reason = unrated(verdict, day, kb, kw, winner is not None or drawn(status, method, computed, checked))
        if reason is not None:
            skipped[reason] += 1
        else:
            assert day is not None and kb is not None and kw is not None
            per_game.setdefault(kind, []).append((kb, kw, winner or "D", day))
    names = player_names(session, ids)
    out: list[Rating] = []
    counted = 0
    for kind in sorted(per_game):
        games = sorted(per_game[kind], key=lambda x: x[3])
        origin = games[0][3]
        base = whr.Base(config={"w2": w2, "virtual_games": 2})
        base.create_games([[b, w, r, (d - origin).days] for b, w, r, d in games])
        base.iterate(ITERATIONS)
        counted += len(games)
        played: Counter[str] = Counter()
        last: dict[str, dt.date] = {}
        for b, w, _r, d in games:
            played[b] += 1
            played[w] += 1
            last[b] = last[w] = d
        for key, days in base.get_ordered_ratings():
            history = [(origin + dt.timedelta(days=int(t)), float(r), float(s)) for t, r, s in days]
            _, r, s = history[-1]
            out.append(Rating(key, names.get(key, key), kind, r, s, played[key], last.get(key), history))
    out.sort(key=lambda x: (x.game, -x.rating, x.name.casefold()))
    return RatingRun(out, counted, skipped)
