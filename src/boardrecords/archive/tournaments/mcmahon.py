"""The official standings of an imported tournament, computed from its settings as OpenGotha computes them, and
the EGD's h9 results file written from them.

Scores are kept doubled (whole numbers for half points), as OpenGotha keeps them:

- a player's starting McMahon score: rank - zero, held between floor - zero and bar - zero, plus the player's own
  correction (`smmsCorrection`);
- each round adds the game's points (win 2, jigo 1, loss, both lose or a result not entered 0, both win 2; a
  result given without playing counts as played); a bye adds `genMMS2ValueBye` (the number of wins
  `genNBW2ValueBye`), a round the player does not take part in `genMMS2ValueAbsent` (`genNBW2ValueAbsent`); with
  `genRoundDownNBWMMS` the points of byes and absences added up are rounded down to a whole point;
- SOS (SOSM): over the rounds, the opponent's final McMahon score, plus twice the handicap when the player held
  White and minus it when Black; a round without a game counts the player's own starting score;
- SOSOS (SOSOSM): over the rounds, the opponent's SOS; a round without a game counts the player's starting score
  times the number of rounds.

`genCountNotPlayedGamesAsHalfPoint` (OpenGotha's "virtual" scores) is not applied. Players are placed by the
tournament's placement criteria in order (MMS, SOSM, SOSOSM, NBW, SOSW, SOSOSW, RANK, RATING; others are not
computed and left out), then by rank, then by name: a place is a line of the h9, so every place is one player's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...common.errors import InputError
from .opengotha import OfficialPairing, OfficialPlayer, OfficialTournament

ABSENT, NOT_ASSIGNED, BYE, PAIRED = "absent", "not assigned", "bye", "paired"


@dataclass(slots=True)
class Scored:
    player: OfficialPlayer
    smms: int  # starting McMahon score (not doubled)
    participation: list[str] = field(default_factory=list)
    games: list[OfficialPairing | None] = field(default_factory=list)
    nbw2: int = 0
    mms2: int = 0
    sosw2: int = 0
    sosm2: int = 0
    sososw2: int = 0
    sososm2: int = 0
    place: int = 0

    def value(self, criterion: str) -> int | None:
        return {"MMS": self.mms2, "SOSM": self.sosm2, "SOSOSM": self.sososm2, "NBW": self.nbw2,
                "SOSW": self.sosw2, "SOSOSW": self.sososw2, "RANK": self.player.rank_value,
                "RATING": self.player.rating or 0}.get(criterion)


def _points2(game: OfficialPairing, key: str) -> int:
    """The doubled points of `key` in `game`."""
    white = game.white == key
    return {"W": 2 if white else 0, "B": 0 if white else 2, "=": 1, "1": 2}.get(game.result, 0)


def standings(t: OfficialTournament) -> list[Scored]:
    """Every player scored after the last round and placed (1 first)."""
    s = t.settings
    zero, floor, bar = s.get("mm_zero", -30), s.get("mm_floor", -30), s.get("mm_bar", 8)
    rounds = t.rounds
    scored = {p.key: Scored(p, min(max(p.rank_value - zero, floor - zero), bar - zero) + p.smms_correction)
              for p in t.players}
    for sp in scored.values():
        part = sp.player.participating
        sp.participation = [ABSENT if r < len(part) and part[r] == "0" else NOT_ASSIGNED for r in range(rounds)]
        sp.games = [None] * rounds
    for g in t.pairings:
        if g.bye:
            scored[g.white].participation[g.round - 1] = BYE
            continue
        for key in (g.white, g.black):
            scored[key].participation[g.round - 1] = PAIRED
            scored[key].games[g.round - 1] = g
    for sp in scored.values():
        games2 = sum(_points2(g, sp.player.key) for g in sp.games if g is not None)
        nbw_extra = mms_extra = 0
        for how in sp.participation:
            if how == ABSENT:
                nbw_extra, mms_extra = nbw_extra + s.get("nbw2_absent", 0), mms_extra + s.get("mms2_absent", 1)
            elif how == BYE:
                nbw_extra, mms_extra = nbw_extra + s.get("nbw2_bye", 2), mms_extra + s.get("mms2_bye", 2)
        if s.get("round_down", True):
            nbw_extra, mms_extra = nbw_extra // 2 * 2, mms_extra // 2 * 2
        sp.nbw2 = games2 + nbw_extra
        sp.mms2 = 2 * sp.smms + games2 + mms_extra

    def opponent(sp: Scored, g: OfficialPairing) -> Scored:
        return scored[g.black if g.white == sp.player.key else g.white]

    for sp in scored.values():
        for game in sp.games:
            if game is None:
                sp.sosm2 += 2 * sp.smms
                continue
            handicap = 2 * game.handicap if game.white == sp.player.key else -2 * game.handicap
            sp.sosm2 += opponent(sp, game).mms2 + handicap
            sp.sosw2 += opponent(sp, game).nbw2
    for sp in scored.values():
        for game in sp.games:
            if game is None:
                sp.sososm2 += 2 * sp.smms * rounds
            else:
                sp.sososm2 += opponent(sp, game).sosm2
                sp.sososw2 += opponent(sp, game).sosw2
    criteria = [c for c in s.get("criteria", ["MMS", "SOSM", "SOSOSM"]) if c in _CRITERIA]
    ordered = sorted(scored.values(), key=lambda sp: (*(-(sp.value(c) or 0) for c in criteria),
                                                      -sp.player.rank_value, sp.player.name.casefold(),
                                                      sp.player.first_name.casefold()))
    for place, sp in enumerate(ordered, 1):
        sp.place = place
    return ordered


_CRITERIA = frozenset({"MMS", "SOSM", "SOSOSM", "NBW", "SOSW", "SOSOSW", "RANK", "RATING"})


def half(value2: int) -> str:
    """A doubled score as h9 writes it: 12, 12.5, -3.5."""
    whole, rest = divmod(value2, 2)
    return f"{whole}.5" if rest else str(whole)


def h9_rank(value: int) -> str:
    return f"{value + 1}d" if value >= 0 else f"{-value}k"


def round_cell(sp: Scored, r: int, places: dict[str, int], settings: dict[str, Any]) -> str:
    """One round of a player as h9 writes it (as OpenGotha does): `2+/w0`, `5-/b3`, `7=/w0`, `3+!w0` (a result
    given without playing), `4+/?0` (colours unknown); `0+`, `0=`, `0-` for a round without a game (its points
    as the bye or absence gives them)."""
    g = sp.games[r]
    how = sp.participation[r]
    if g is None:
        given = {BYE: settings.get("mms2_bye", 2), ABSENT: settings.get("mms2_absent", 1)}.get(how, 0)
        return "0" + {2: "+", 1: "="}.get(given, "-")
    key = sp.player.key
    white = g.white == key
    points = _points2(g, key)
    symbol = "?" if g.result == "?" else {2: "+", 1: "="}.get(points, "-")
    opponent = places[g.black if white else g.white]
    colour = ("w" if white else "b") if g.known_colour else "?"
    return f"{opponent}{symbol}{'!' if g.forfeit else '/'}{colour}{g.handicap}"


def _token(text: str) -> str:
    """A name, club or country as one h9 column: no spaces inside, nothing the format reads as a comment."""
    return "_".join(text.replace(";", ",").replace("|", "/").split()) or "-"


def h9(t: OfficialTournament) -> str:
    """The tournament as the EGD's h9 results file: the players who took part (a game or a bye; OpenGotha leaves
    the others out too), placed among themselves."""
    ordered = [sp for sp in standings(t) if any(g is not None for g in sp.games) or BYE in sp.participation]
    if not ordered:
        raise InputError(f"{t.name} has no game and no bye yet: no h9 to write")
    places = {sp.player.key: place for place, sp in enumerate(ordered, 1)}
    header = [f"; EV[{_header_text(t.name)}]"]
    if t.location:
        header.append(f"; PC[{_header_text(t.location)}]")
    if t.begin:
        header.append(f"; DT[{t.begin.isoformat()}" + (f",{t.end.isoformat()}" if t.end else "") + "]")
    if t.settings.get("hd_correction"):  # the handicap rule: the rank difference less this many stones
        header.append(f"; HA[h{t.settings['hd_correction']}]")
    if t.komi is not None:
        header.append(f"; KM[{t.komi:g}]")
    header.append("; Pl Name Rk Co Club MMS SOS SOSOS " + " ".join(str(r + 1) for r in range(t.rounds)))
    width = max(len(_token(sp.player.name)) + len(_token(sp.player.first_name)) + 1 for sp in ordered)
    club = max(len(_token(sp.player.club)) for sp in ordered)
    lines = []
    for sp in ordered:
        p = sp.player
        name = f"{_token(p.name)} {_token(p.first_name)}"
        cells = " ".join(f"{round_cell(sp, r, places, t.settings):<8}" for r in range(t.rounds)).rstrip()
        line = (f"{places[p.key]:>4} {name:<{width}} {h9_rank(p.rank_value):>3} {_token(p.country):<2} "
                f"{_token(p.club):<{club}} {half(sp.mms2):>4} {half(sp.sosm2):>5} {half(sp.sososm2):>6}  {cells}")
        if p.egd_pin:
            line += f"  |{_token(p.egd_pin)}"
        lines.append(line)
    return "\n".join(header + lines) + "\n"


def _header_text(text: str) -> str:
    return " ".join(text.replace("]", ")").replace("[", "(").split())
