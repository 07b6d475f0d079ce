"""Crosstables: an event's players ranked by score, round by round, with the tie-breaks of their game's family.

Pure computation on plain values (`Pairing`, made from archive rows by `pairing_from_row`); docs/tournaments.md
states every reading:

- Players are identities (archive/core/names.py); a player's colour is the one held at the end, after any pie swap
  (GEN-6, GEN-7), and the cell says when a swap changed it.
- The result is the verdict's winner (GEN-8, "who won, everywhere"): the declared one where the record cannot
  contradict it, the replay's where it does, nobody where a result outside the vocabulary (`B+J`) meets a game the
  record does not finish. A win scores 1, a draw 1/2, a loss 0. A forfeit (`B+F` / `W+F`) scores as a win or a
  loss. A record with no result (no winner and no draw) scores 0 for both. A cell marks an unconfirmed result
  (GEN-8) and a record whose verdict fails.
- Rounds are the numbers in RO ("3", "Round 3", "R3", "3 (final)"). When a record of the event has none, every
  record of the event is put in a round by date order: records in the order of their first date (then id), each in
  the round after the last round either of its players has played.
- A player with no record in a round has a bye there. A bye scores 1 when that player is the only one missing
  from the round (the odd player out of a pairing), else 0 (absent).
- Two records of one pair in one round both count, each with its own result.
- Tie-breaks count the games played on the board: byes, forfeits and records with no result are left out.
  SOS / Buchholz: the sum of the opponents' scores, once per game. SOSOS: the sum of the opponents' SOS.
  SODOS / Sonneborn-Berger: the sum of the scores of the opponents beaten, plus half those drawn.
  Go and Conversion Go rank by score, SOS, SOSOS, SODOS; Cation, Quentin and Squer by score, Buchholz,
  Sonneborn-Berger. Players equal on everything keep the order of their names.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...verifier.judging.status import drawn

GO_FAMILY = ("go-ing", "conversion-go")
TIE_BREAKS = {"go": ("SOS", "SOSOS", "SODOS"), "swiss": ("Buchholz", "SB")}

_ROUND = re.compile(r"\d+")


def round_number(text: str | None) -> int | None:
    """The round a `RO` value names: its first number ("3", "Round 3", "R3", "3 (final)"); None without one."""
    if not text:
        return None
    m = _ROUND.search(text)
    return int(m.group()) if m else None


def family(game: str) -> str:
    return "go" if game in GO_FAMILY else "swiss"


@dataclass(slots=True)
class Pairing:
    """One record as a crosstable reads it (keys are player identities, names their spelling in the record)."""

    id: int
    game: str
    black: str  # key of the player holding Black at the end
    white: str
    black_name: str
    white_name: str
    winner: str | None  # "B", "W" or None
    draw: bool = False
    forfeit: bool = False
    swapped: bool = False
    round: int | None = None
    date: dt.date | None = None
    unconfirmed: bool = False  # result_status unconfirmed
    fails: bool = False  # verdict invalid or wrong-result
    handicap: int = 0  # HA: the handicap stones (Go)
    order: tuple[Any, ...] = ()  # where the record came from (file, index), for date order within one day


@dataclass(slots=True)
class Cell:
    """One game of a player in a round (or a bye: `opponent` None)."""

    round: int
    record: int | None
    opponent: str | None
    colour: str | None  # "B" / "W", held at the end
    swapped: bool
    outcome: str  # win, loss, draw, forfeit-win, forfeit-loss, no-result, bye
    points: float
    unconfirmed: bool = False
    fails: bool = False
    handicap: int = 0

    @property
    def counts_for_tie_breaks(self) -> bool:
        return self.outcome in ("win", "loss", "draw")


@dataclass(slots=True)
class Standing:
    key: str
    name: str
    rank: int = 0
    points: float = 0.0
    tie_breaks: dict[str, float] = field(default_factory=dict)
    cells: list[Cell] = field(default_factory=list)


@dataclass(slots=True)
class Crosstable:
    event: str
    game: str
    family: str
    rounds: list[int]
    rounds_from: str  # "RO" or "date order"
    tie_break_names: tuple[str, ...]
    standings: list[Standing]
    notation: str = "records"  # NOTATIONS: how a cell is written

    def rank_of(self, key: str | None) -> int | None:
        for s in self.standings:
            if s.key == key:
                return s.rank
        return None

    def cell_text(self, cell: Cell) -> str:
        """A cell as the table shows it: opponent's rank, colour (`s` when a swap gave it), result and marks; in
        OpenGotha's notation, opponent's rank, result, `/` (`!` a forfeit), colour and handicap."""
        if self.notation == "opengotha":
            return opengotha_cell(cell, self.rank_of(cell.opponent))
        if cell.opponent is None:
            return f"bye{cell.points:g}"
        sign = {"win": "+", "loss": "-", "draw": "=", "forfeit-win": "+f", "forfeit-loss": "-f",
                "no-result": "?"}[cell.outcome]
        marks = ("*" if cell.unconfirmed else "") + ("!" if cell.fails else "")
        return f"{self.rank_of(cell.opponent)}{cell.colour or ''}{'s' if cell.swapped else ''}{sign}{marks}"

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event, "game": self.game, "family": self.family, "rounds": self.rounds,
            "rounds_from": self.rounds_from, "tie_breaks": list(self.tie_break_names), "notation": self.notation,
            "standings": [{
                "rank": s.rank, "player": s.name, "points": s.points, "tie_breaks": s.tie_breaks,
                "games": [{"round": c.round, "record": c.record, "opponent": self.rank_of(c.opponent),
                           "colour": c.colour, "swapped": c.swapped, "outcome": c.outcome, "points": c.points,
                           "unconfirmed": c.unconfirmed, "fails": c.fails, "cell": self.cell_text(c)}
                          for c in s.cells],
            } for s in self.standings],
        }


NOTATIONS = ("records", "opengotha")


def opengotha_cell(cell: Cell, opponent_rank: int | None) -> str:
    """A cell as OpenGotha writes a round's result: `23+/w0`, `5-/b2`, `7=/w0`, `3+!b0` (a forfeit), `4?/w0` (no
    result); a bye as `0` and its points (`0+` a whole point, `0-` none)."""
    if cell.opponent is None:
        return "0" + {1.0: "+", 0.5: "="}.get(cell.points, "-")
    sign = {"win": "+", "loss": "-", "draw": "=", "forfeit-win": "+", "forfeit-loss": "-", "no-result": "?"}
    kind = "!" if cell.outcome.startswith("forfeit") else "/"
    return f"{opponent_rank}{sign[cell.outcome]}{kind}{(cell.colour or '?').lower()}{cell.handicap}"


def assign_rounds(pairings: Sequence[Pairing]) -> str:
    """Fill in `round` by date order unless every pairing has one; returns where the rounds came from."""
    if pairings and all(p.round is not None for p in pairings):
        return "RO"
    last: dict[str, int] = defaultdict(int)
    for p in sorted(pairings, key=lambda p: (p.date or dt.date.max, p.order, p.id)):
        p.round = max(last[p.black], last[p.white]) + 1
        last[p.black] = last[p.white] = p.round
    return "date order"


def crosstable(event: str, pairings: Sequence[Pairing], names: dict[str, str] | None = None) -> Crosstable:
    """The crosstable of one event's records (all of one game); `names` gives players' names by key (else the
    spelling of their first record)."""
    games = {p.game for p in pairings}
    if len(games) > 1:
        raise ValueError(f"the event holds records of several games ({', '.join(sorted(games))})")
    game = games.pop() if games else "go-ing"
    fam = family(game)
    source = assign_rounds(pairings)
    rounds = sorted({p.round for p in pairings if p.round is not None})
    names = dict(names or {})
    for p in pairings:
        names.setdefault(p.black, p.black_name)
        names.setdefault(p.white, p.white_name)
    table = {k: Standing(k, names[k]) for k in names}
    for p in sorted(pairings, key=lambda p: (p.round or 0, p.id)):
        for key, colour, other in ((p.black, "B", p.white), (p.white, "W", p.black)):
            if p.draw:
                outcome, points = "draw", 0.5
            elif p.winner is None:
                outcome, points = "no-result", 0.0
            else:
                won = p.winner == colour
                outcome = ("forfeit-" if p.forfeit else "") + ("win" if won else "loss")
                points = 1.0 if won else 0.0
            table[key].cells.append(Cell(p.round or 0, p.id, other, colour, p.swapped, outcome, points,
                                         p.unconfirmed, p.fails, p.handicap))
    for r in rounds:
        missing = [s for s in table.values() if not any(c.round == r for c in s.cells)]
        for s in missing:
            s.cells.append(Cell(r, None, None, None, False, "bye", 1.0 if len(missing) == 1 else 0.0))
    for s in table.values():
        s.cells.sort(key=lambda c: (c.round, c.record or 0))
        s.points = sum(c.points for c in s.cells)
    _tie_breaks(table, fam)
    order = sorted(table.values(), key=lambda s: (-s.points, *(-v for v in s.tie_breaks.values()),
                                                  s.name.casefold(), s.key))
    for i, s in enumerate(order, 1):
        s.rank = i
    return Crosstable(event, game, fam, rounds, source, TIE_BREAKS[fam], order)


def _tie_breaks(table: dict[str, Standing], fam: str) -> None:
    points = {k: s.points for k, s in table.items()}

    def played(s: Standing) -> list[Cell]:
        return [c for c in s.cells if c.counts_for_tie_breaks and c.opponent is not None]

    sos = {k: sum(points[c.opponent] for c in played(s) if c.opponent) for k, s in table.items()}
    sodos = {k: sum(points[c.opponent] * (1.0 if c.outcome == "win" else 0.5) for c in played(s)
                    if c.opponent and c.outcome in ("win", "draw")) for k, s in table.items()}
    if fam == "go":
        sosos = {k: sum(sos[c.opponent] for c in played(s) if c.opponent) for k, s in table.items()}
        for k, s in table.items():
            s.tie_breaks = {"SOS": sos[k], "SOSOS": sosos[k], "SODOS": sodos[k]}
    else:
        for k, s in table.items():
            s.tie_breaks = {"Buchholz": sos[k], "SB": sodos[k]}


def players_of(rows: Sequence[Any]) -> list[str]:
    """The players' names in these GameRows, with the colour held at the end (as `pairing_from_row` reads them)."""
    return [name for row in rows for name in (row.black_final if row.black_final is not None else row.black,
                                              row.white_final if row.white_final is not None else row.white) if name]


def pairing_from_row(row: Any, key: Callable[[str | None], str | None]) -> Pairing | None:
    """A GameRow as a Pairing (None when a player is missing); `key` gives a name's player identity."""
    black = row.black_final if row.black_final is not None else row.black
    white = row.white_final if row.white_final is not None else row.white
    kb, kw = key(black), key(white)
    if kb is None or kw is None or black is None or white is None:
        return None
    method = row.result_method
    # GEN-8, who won: the verdict's winner, the same as every other view gives.
    winner = row.winner_colour
    draw = winner is None and drawn(row.result_status, method, row.computed_result, row.result_checked)
    forfeit = method == "forfeit"
    return Pairing(
        id=row.id, game=row.game, black=kb, white=kw, black_name=black, white_name=white,
        winner=winner, draw=draw, forfeit=forfeit, swapped=bool(row.swapped),
        round=round_number(row.round), date=row.date_first,
        unconfirmed=row.result_status == "unconfirmed", fails=row.verdict in ("invalid", "wrong-result"),
        handicap=_handicap(getattr(row, "handicap", None)),
        order=(natural_key(row.source_file or ""), row.source_index or 0),
    )


def natural_key(text: str) -> tuple[Any, ...]:
    """`r-2-...` before `r-10-...`: digits compared as numbers."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text))


def _handicap(value: Any) -> int:
    """HA as a count of stones (0 for none, or a value no game has)."""
    return value if isinstance(value, int) and 0 <= value <= 99 else 0
