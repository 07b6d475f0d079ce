"""The game records of an event checked against its official tournament (an imported tournament file): each record
matched to its pairing by round and players, and every disagreement found.

A record's players are matched to the tournament's by their identity key (archive/core/names.py, through the
aliases): "First Name" and "Name First" both name the player the file lists as name Name, first name First. A
record is matched to the pairing of its round (RO's first number) whose two players it names, in either colour
(a record without RO: the one pairing of those two players in the tournament). The disagreements, by `kind`:

- `result`: the record's result is not the official one (both named); official results not yet entered are not
  compared;
- `colours`: the record gives Black the player the pairing gave White (pairings of unknown colour aside);
- `no-record`: a pairing played on the board (not a bye, not a forfeit) without a record;
- `no-pairing`: a record whose round and players match no pairing (or a second record of a matched pairing);
- `verdict`: a record whose verdict is not a pass (invalid, or a declared result the replay contradicts).

Nothing here is Go's own: the check works for the records of every game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from .crosstable import Pairing
from .opengotha import OfficialPairing, OfficialTournament

Key = Callable[[str | None], str | None]

KINDS = ("result", "colours", "no-record", "no-pairing", "verdict")


@dataclass(frozen=True, slots=True)
class Disagreement:
    kind: str  # KINDS
    round: int | None
    board: int | None
    record: int | None  # the record's id in the archive
    official: str  # the official side ("W+ Alice Adams"), or ""
    recorded: str  # the record's side, or ""
    message: str
    pairing: int | None = None  # the index of the pairing concerned in the tournament's pairings


    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round, "board": self.board, "record": self.record,
                "official": self.official or None, "recorded": self.recorded or None, "message": self.message}


@dataclass(slots=True)
class CheckRecord:
    """One record as the check reads it: the crosstable's reading of it and its verdict."""

    pairing: Pairing
    verdict: str


def check_records(rows: Iterable[Any], key: Key) -> list[CheckRecord]:
    """An event's GameRows as the check reads them (a record without both players is left out)."""
    from .crosstable import pairing_from_row

    return [CheckRecord(p, r.verdict) for r in rows if (p := pairing_from_row(r, key)) is not None]


def player_index(tournament: OfficialTournament, key: Key) -> dict[str, str]:
    """Identity key of each spelling a record may give -> the official player's key."""
    index: dict[str, str] = {}
    for p in tournament.players:
        for spelling in (f"{p.first_name} {p.name}", f"{p.name} {p.first_name}", p.name + p.first_name):
            k = key(spelling)
            if k:
                index.setdefault(k, p.key)
    return index


def official_result(pairing: OfficialPairing, names: dict[str, str]) -> str:
    """The official result in words: "W+ Alice Adams", "B+ Dan Do (forfeit)", "jigo", "both lose"..."""
    text = {"W": f"W+ {names[pairing.white]}", "B": f"B+ {names[pairing.black]}", "=": "jigo",
            "0": "both lose", "1": "both win", "?": "not entered"}[pairing.result]
    return f"{text} (forfeit)" if pairing.forfeit else text


def recorded_result(p: Pairing) -> str:
    if p.draw:
        return "jigo"
    if p.winner == "B":
        return f"B+ {p.black_name}"
    if p.winner == "W":
        return f"W+ {p.white_name}"
    return "no result"


def _outcome(winner: str | None, draw: bool, black: str, white: str) -> str:
    """One comparable form of a result: the winner's official key, "draw", or "none"."""
    if draw:
        return "draw"
    return {"B": black, "W": white}.get(winner or "", "none")


@dataclass(slots=True)
class Matching:
    """The records matched to the pairings: each pairing's record (by the pairing's index in the tournament's
    pairings) and every disagreement. The crosstable's official results and `tournament check` both read it."""

    records: dict[int, int]  # pairing index -> record id
    disagreements: list[Disagreement]

    def of_pairing(self, index: int) -> list[Disagreement]:
        return [d for d in self.disagreements if d.pairing == index]


def check(tournament: OfficialTournament, records: Iterable[CheckRecord], key: Key) -> list[Disagreement]:
    """Every disagreement between the records and the tournament, in round and board order."""
    return match(tournament, records, key).disagreements


def match(tournament: OfficialTournament, records: Iterable[CheckRecord], key: Key) -> Matching:
    """The records matched to the tournament's pairings, and every disagreement in round and board order."""
    index = player_index(tournament, key)
    names = {p.key: p.full_name for p in tournament.players}
    position = {id(p): i for i, p in enumerate(tournament.pairings)}
    boards = [p for p in tournament.pairings if not p.bye]
    by_players: dict[frozenset[str], list[OfficialPairing]] = {}
    for b in boards:
        by_players.setdefault(frozenset((b.white, b.black)), []).append(b)
    used: dict[int, int] = {}  # id() of matched pairings -> record id
    found: list[Disagreement] = []
    for rec in records:
        p = rec.pairing
        black, white = index.get(p.black), index.get(p.white)
        where = f"record {p.id}" + (f" (round {p.round})" if p.round is not None else "")
        verdict = (Disagreement("verdict", p.round, None, p.id, "", rec.verdict, f"{where}: its verdict is "
                                f"{rec.verdict}") if rec.verdict != "pass" else None)
        candidates = by_players.get(frozenset((black, white)), []) if black and white and black != white else []
        if p.round is not None:
            candidates = [c for c in candidates if c.round == p.round]
        free = [c for c in candidates if id(c) not in used]
        if len(free) != 1 or (p.round is None and len(candidates) != 1):
            unknown = [n for n, k in ((p.black_name, black), (p.white_name, white)) if k is None]
            why = (f"{' and '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not a player of the tournament"
                   if unknown else
                   "a second record of its pairing" if candidates and not free else
                   "its players are paired in several rounds and it names none" if len(candidates) > 1 else
                   f"{p.black_name} and {p.white_name} are not paired" + (f" in round {p.round}" if p.round else ""))
            found.extend(d for d in (verdict,) if d is not None)
            found.append(Disagreement("no-pairing", p.round, None, p.id, "",
                                      f"{p.black_name} (B) - {p.white_name} (W)", f"{where}: no pairing ({why})"))
            continue
        board = free[0]
        used[id(board)] = p.id
        at_pairing = position[id(board)]
        if verdict is not None:
            found.append(replace(verdict, board=board.board, pairing=at_pairing))
        at = f"round {board.round}" + (f" board {board.board}" if board.board is not None else "")
        if board.known_colour and board.white == black:
            found.append(Disagreement("colours", board.round, board.board, p.id,
                                      f"{names[board.black]} (B) - {names[board.white]} (W)",
                                      f"{p.black_name} (B) - {p.white_name} (W)",
                                      f"{at}: record {p.id} has the colours swapped", at_pairing))
        if board.result != "?":
            official = _official_outcome(board)
            mine = _outcome(p.winner, p.draw, black or "", white or "")
            if official != mine:
                o, r = official_result(board, names), recorded_result(p)
                found.append(Disagreement("result", board.round, board.board, p.id, o, r,
                                          f"{at}: the official result is {o}, record {p.id} says {r}", at_pairing))
    for b in boards:
        if id(b) not in used and not b.forfeit:
            at = f"round {b.round}" + (f" board {b.board}" if b.board is not None else "")
            found.append(Disagreement("no-record", b.round, b.board, None,
                                      f"{names[b.black]} (B) - {names[b.white]} (W)", "",
                                      f"{at}: {names[b.black]} - {names[b.white]} has no record", position[id(b)]))
    found.sort(key=lambda d: (d.round if d.round is not None else 10**6, d.board if d.board is not None else 10**6,
                              KINDS.index(d.kind), d.record or 0))
    return Matching({position[i]: r for i, r in used.items()}, found)


def _official_outcome(board: OfficialPairing) -> str:
    """The official result in `_outcome`'s form; both lose and both win are no winner of the game."""
    return {"W": board.white, "B": board.black, "=": "draw"}.get(board.result, "none")
