"""An event's official results beside its crosstable: the imported tournament's standings (mcmahon.py), each round's
result as OpenGotha writes it (`2+/w0`), the record matched to each board (check.py's matching: the same one
`tournament check` reports from) and a mark where record and official result disagree.

Computed here once; the terminal, the JSON and the served page only draw it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .check import Matching
from .crosstable import GO_FAMILY
from .mcmahon import half, round_cell, standings
from .opengotha import OfficialTournament


@dataclass(frozen=True, slots=True)
class OfficialCell:
    round: int
    text: str  # OpenGotha's notation: opponent's place, result, colour, handicap
    record: int | None  # the record matched to the board (its archive id)
    disagreements: tuple[str, ...] = ()  # the kinds (check.py's KINDS) found on this board
    messages: tuple[str, ...] = ()

    @property
    def marked(self) -> str:
        """The cell with its record and mark as text: `2+/w0 #17`, `2+/w0 #17 !result`, `2+/w0 !no-record`."""
        parts = [self.text] + ([f"#{self.record}"] if self.record is not None else [])
        return " ".join(parts + ([f"!{','.join(self.disagreements)}"] if self.disagreements else []))

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "cell": self.text, "record": self.record,
                "disagreements": list(self.disagreements), "messages": list(self.messages)}


@dataclass(slots=True)
class OfficialRow:
    place: int
    player: str
    rank: str
    scores: dict[str, str]  # MMS, SOS, SOSOS as OpenGotha shows them (half points as .5)
    cells: list[OfficialCell] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "player": self.player, "rank": self.rank, "scores": self.scores,
                "games": [c.to_json() for c in self.cells]}


@dataclass(slots=True)
class OfficialTable:
    tournament: str
    rounds: int
    scores: tuple[str, ...]
    rows: list[OfficialRow]
    unmatched: list[str]  # the disagreements of records no board took (no pairing)

    def to_json(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "rounds": self.rounds, "scores": list(self.scores),
                "standings": [r.to_json() for r in self.rows], "unmatched": self.unmatched}


SCORES = ("MMS", "SOS", "SOSOS")
SWISS_SCORES = ("points", "SOS", "SOSOS")  # another game's: every starting score is 0, so MMS is the points


def official_table(t: OfficialTournament, matching: Matching) -> OfficialTable:
    """The tournament's official results with each board's record and disagreements."""
    ordered = standings(t)
    places = {sp.player.key: sp.place for sp in ordered}
    index = {id(p): i for i, p in enumerate(t.pairings)}
    go = t.settings.get("game", "go-ing") in GO_FAMILY
    labels = SCORES if go else SWISS_SCORES
    rows = []
    for sp in ordered:
        cells = []
        for r in range(t.rounds):
            game = sp.games[r]
            text = round_cell(sp, r, places, t.settings)
            if game is None:
                cells.append(OfficialCell(r + 1, text, None))
                continue
            at = index[id(game)]
            found = matching.of_pairing(at)
            cells.append(OfficialCell(r + 1, text, matching.records.get(at), tuple(d.kind for d in found),
                                      tuple(d.message for d in found)))
        rows.append(OfficialRow(sp.place, sp.player.full_name, sp.player.rank if go else "",
                                dict(zip(labels, (half(sp.mms2), half(sp.sosm2), half(sp.sososm2)), strict=True)),
                                cells))
    unmatched = [d.message for d in matching.disagreements if d.pairing is None]
    return OfficialTable(t.name, t.rounds, labels, rows, unmatched)
