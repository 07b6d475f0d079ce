"""Judging a declared result against what the replay shows (GEN-8, "How a declared result is judged"), and, where a
Go score disagrees, which other ruleset's counting gives the declared score on the same final position (ING-9)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...records.games import SPECS, Game
from ...records.model import Colour, Record, Result, ResultMethod
from ..rules.engine import Outcome, Score
from .replay import Replay, node_marks
from .status import ResultStatus

# ING-9: area-scoring rulesets whose declared scores are checked (case, spaces, -, / and _ ignored).
_AREA_RULESETS = {"", "goe", "ing", "chinese", "nz", "newzealand", "aga", "tromptaylor"}
_RULESET_NOISE = re.compile(r"[\s\-/_]+")
_BY_RULES = (ResultMethod.RESIGN, ResultMethod.TIME, ResultMethod.FORFEIT)
_SCORED_FORMS = (ResultMethod.SCORE, ResultMethod.DRAW, ResultMethod.CHAIN)  # GEN-8: B+/W+ names the winner only
_SCORED_GAMES = (Game.GO, Game.CONVERSION_GO)


@dataclass(frozen=True, slots=True)
class Explanation:
    """A Go score that disagrees (ING-6) but is what another ruleset counts on the same final position: the ruleset
    as `RU` names it, how it counts, its points, and whether naming it in `RU` would make the record agree."""

    ruleset: str  # "Japanese", "AGA", "Chinese"
    counting: str  # TERRITORY, MARKED or COMPENSATION
    score: Score  # that counting's points for Black and White, and the komi
    ru_agrees: bool  # True when ING-9 would not check the score under that RU (a territory ruleset)

    @property
    def gives(self) -> str:
        """The result that counting gives, in the record vocabulary."""
        return Outcome.scored(self.score, "").text()

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "counting": self.counting, "gives": self.gives, "ru_agrees": self.ru_agrees,
                "score": {"black": self.score.black, "white": self.score.white, "komi": self.score.komi}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Explanation:
        score = data["score"]
        return cls(data["ruleset"], data["counting"], Score(score["black"], score["white"], score["komi"]),
                   data["ru_agrees"])


TERRITORY = "territory"  # territory plus prisoners, with komi (Japanese, Korean)
MARKED = "marked territory"  # the same, with the territory the agreement's TB/TW marks state (ING-7)
COMPENSATION = "handicap compensation"  # the area count, and points to White for the handicap stones


@dataclass(frozen=True, slots=True)
class Judgement:
    end: str | None  # how the line ended; None when the replay stopped at an illegal move
    computed: str  # the result the replay shows
    winner: Colour | None  # the replay's winner, or the declared one where the record cannot contradict it
    status: ResultStatus
    checked: bool = True  # False when ING-9 exempts the score
    note: str | None = None
    score: Score | None = None
    explained: Explanation | None = None  # another ruleset's counting that gives the disagreeing declared score

    @property
    def agrees(self) -> bool | None:
        return self.status.agrees

    @classmethod
    def stopped(cls, record: Record, run: Replay) -> Judgement:
        """The replay stopped at an illegal move: nothing after it is guessed, so no declared result agrees."""
        note = f"the replay stopped at the illegal move {run.steps_played + 1}; the result cannot be confirmed"
        return cls(None, "?", None, _refuted_if_declared(record.result), True, _quoting(record.result, note))

    @classmethod
    def not_replayed(cls, record: Record) -> Judgement:
        """Header errors kept the record from being replayed as one of the five games."""
        return cls(None, "?", None, _refuted_if_declared(record.result), True,
                   _quoting(record.result, "the record cannot be replayed"))


def _quoting(declared: Result, note: str) -> str:
    """The note, after the quote of a result outside the vocabulary (GEN-8: its warning quotes it)."""
    return f"{unrecognised_note(declared)}; {note}" if declared.method is ResultMethod.OTHER else note


def _refuted_if_declared(declared: Result) -> ResultStatus:
    if declared.method is ResultMethod.OTHER:
        return ResultStatus.UNRECOGNISED  # GEN-8: text outside the vocabulary is never judged
    return ResultStatus.DISAGREES if declared.declared else ResultStatus.UNDECLARED


def score_checked(record: Record) -> tuple[bool, str | None]:
    """ING-9: whether a Go record's declared score is checked, and why not."""
    if record.game is not Game.GO:
        return True, None
    if _ruleset_key(record.rules) in _AREA_RULESETS:
        return True, None
    return False, f"RU[{record.rules}] is not area scoring: the declared winner and margin are not checked (ING-9)"


def _ruleset_key(rules: str | None) -> str:
    """ING-9: a ruleset's name as the rule compares it (case, spaces, `-`, `/` and `_` ignored)."""
    return _RULESET_NOISE.sub("", (rules or "").lower())


def judge_result(record: Record, run: Replay) -> Judgement:
    """Compare the declared result with the end of a legal replay."""
    declared = record.result
    outcome = run.engine.outcome()
    if run.resigned is not None:
        return _resigned(declared, run.resigned)
    if outcome.finished:
        return _finished(record, run, outcome)
    return _unfinished(record, run)


def _resigned(declared: Result, resigned: Colour) -> Judgement:
    # GEN-9: the declared result must name the other colour as winner by resignation.
    winner = resigned.other
    computed = f"{winner.value}+R"
    if not declared.declared:
        return Judgement("resignation", computed, winner, ResultStatus.UNDECLARED, True, "no result declared")
    if declared.method is ResultMethod.OTHER:
        return Judgement("resignation", computed, named_winner(declared, winner), ResultStatus.UNRECOGNISED, True,
                         unrecognised_note(declared))
    if declared.method is ResultMethod.RESIGN and declared.winner is winner:
        return Judgement("resignation", computed, winner, ResultStatus.AGREES)
    note = f"{resigned.word} resigned, so the result must be {computed} (GEN-9)"
    return Judgement("resignation", computed, winner, ResultStatus.DISAGREES, True, note)


def _finished(record: Record, run: Replay, outcome: Outcome) -> Judgement:
    declared = record.result
    computed = outcome.text()

    checked, why = score_checked(record) if outcome.method not in (ResultMethod.VOID, ResultMethod.CHAIN) \
        else (True, None)
    # GEN-8, who won: the computed winner, except where ING-9 leaves the score unjudged.
    computed_winner = outcome.winner if checked else None

    def judged(status: ResultStatus, note: str | None = None, *, winner: Colour | None = computed_winner,
               explained: Explanation | None = None) -> Judgement:
        return Judgement(outcome.reason, computed, winner, status, checked, note, outcome.score, explained)

    if not declared.declared:
        return judged(ResultStatus.UNDECLARED, "no result declared" if checked else f"no result declared; {why}")
    if declared.method is ResultMethod.OTHER:
        note = unrecognised_note(declared) if checked else f"{unrecognised_note(declared)}; {why}"
        return judged(ResultStatus.UNRECOGNISED, note, winner=named_winner(declared, computed_winner))
    if outcome.method is ResultMethod.VOID:
        # SQU-9: no rule decides; only Void (and the undeclared ?) agree.
        if declared.method is ResultMethod.VOID:
            return judged(ResultStatus.AGREES)
        return judged(ResultStatus.DISAGREES, "no rule decides this game (SQU-9): only Void or ? agree")
    if outcome.method is ResultMethod.CHAIN:
        if declared.method is ResultMethod.CHAIN and declared.winner is outcome.winner:
            return judged(ResultStatus.AGREES)
        return judged(ResultStatus.DISAGREES, f"the game was won by a chain: the result is {computed} (GEN-8)")
    # A scored end (Go, Conversion Go).
    kind_ok = declared.method in _SCORED_FORMS
    if not checked:
        # ING-9: the declared winner stands (a tie: nobody); of the wrong kind, nobody.
        if kind_ok:
            return judged(ResultStatus.KIND_ONLY, why, winner=declared.winner)
        return judged(ResultStatus.DISAGREES, f"a game ended by passes is declared as a score, B+/W+ or 0; {why}")
    if _declares(declared, outcome):
        return judged(ResultStatus.AGREES)
    if kind_ok and _unmarked_end(record, run):
        # GEN-8 (b): without TB/TW the record does not say what the players removed or converted.
        what, rule = ("removed", "ING-7") if record.game is Game.GO else ("converted", "CON-7")
        note = (f"the game ends by passes without TB/TW marks, so the record does not say which stones were {what} "
                f"({rule}); declared {declared.canonical()}, the board as it stands gives {computed}")
        return judged(ResultStatus.UNCONFIRMED, note, winner=declared.winner)
    note = f"the score gives {computed}"
    found = _explain(record, run, outcome) if kind_ok and record.game is Game.GO else None
    if found is None:
        return judged(ResultStatus.DISAGREES, note)
    explained, why = found
    return judged(ResultStatus.DISAGREES, f"{note}; {why}", explained=explained)


def _declares(declared: Result, outcome: Outcome) -> bool:
    """GEN-8: whether a declared result names a scored end: a tie as `0`, a win with its exact margin or as `B+`/`W+`
    (which names the winner of the score only)."""
    if outcome.method is ResultMethod.DRAW:
        return declared.method is ResultMethod.DRAW or (
            declared.method is ResultMethod.SCORE and declared.margin == 0)
    if declared.method is ResultMethod.CHAIN:
        return declared.winner is outcome.winner
    return (declared.method is ResultMethod.SCORE and declared.winner is outcome.winner
            and declared.margin is not None and outcome.margin is not None
            and abs(declared.margin - abs(outcome.margin)) < 1e-9)


def _explain(record: Record, run: Replay, outcome: Outcome) -> tuple[Explanation, str] | None:
    """The first other counting of the same final position that gives the declared score, with the sentence that
    says so; the ruleset the record's `RU` names is tried first.

    Territory counting adds territory and prisoners (the stones captured in play and the dead stones the agreement
    removed, ING-7; no pass stones: ING-4 gives a pass no effect), with the territory the engine computes (ING-6),
    then with the territory the agreement's marks state where they differ (ING-7). The area count has no handicap
    compensation; the AGA rules give White one point for each handicap stone after the first, the Chinese rules one
    for each handicap stone. The handicap is the record's `HA`, when it is two stones or more.
    """
    pieces = run.engine.pieces()
    area = outcome.score
    if pieces is None or area is None:
        return None
    black, white = pieces.black, pieces.white
    komi = f"komi {area.komi:g}"
    territory = Score(black.territory + black.prisoners, white.territory + white.prisoners, area.komi)
    # Each try: the explanation, what counts so, and the points it counts (for the sentence).
    tries = [(Explanation("Japanese", TERRITORY, territory, True), "territory counting",
              f"Black {_count(black.territory, 'point')} of territory and {_count(black.prisoners, 'prisoner')}, "
              f"White {white.territory} and {white.prisoners}, {komi}")]
    if black.marked is not None and white.marked is not None and (black.marked, white.marked) != (
            black.territory, white.territory):
        marked = Score(black.marked + black.prisoners, white.marked + white.prisoners, area.komi)
        tries.append((Explanation("Japanese", MARKED, marked, True), "territory counting",
                      f"the TB/TW marks give Black {_count(black.marked, 'point')} of territory and White "
                      f"{white.marked}; prisoners {black.prisoners} and {white.prisoners}, {komi}"))
    handicap = record.handicap if record.handicap is not None and record.handicap >= 2 else 0
    for name, points, which in (("AGA", handicap - 1, "each handicap stone after the first"),
                                ("Chinese", handicap, "each handicap stone")) if handicap else ():
        compensated = Score(area.black, area.white + points, area.komi)
        tries.append((Explanation(name, COMPENSATION, compensated, False), f"the {name} rules' handicap compensation",
                      f"the area count, Black {area.black:g} and White {area.white:g}, and White {points} more, "
                      f"one point for {which}; {komi}"))
    named = _ruleset_key(record.rules)
    tries.sort(key=lambda t: _ruleset_key(t[0].ruleset) != named)
    for explained, what, how in tries:
        if not _declares(record.result, Outcome.scored(explained.score, "")):
            continue
        if explained.ru_agrees:
            then = f"with RU[{explained.ruleset}] the record would agree (ING-9)"
        else:
            then = (f"RU[{explained.ruleset}] counts so, but ING-9 checks its scores by the area count with komi "
                    "alone (ING-6)")
        return explained, f"{explained.gives} is what {what} gives on this final position ({how}): {then}"
    return None


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _unmarked_end(record: Record, run: Replay) -> bool:
    """Whether the game ended at passes that carry no TB/TW marks and whose score stands only provisionally."""
    engine = run.engine
    if record.game is Game.GO:
        return engine.stopped  # ING-5: the first stop without marks; after resumed play the board scores as is
    if record.game is Game.CONVERSION_GO:
        last = run.last_node
        return last is not None and node_marks(last, record.size) is None
    return False


def _unfinished(record: Record, run: Replay) -> Judgement:
    """The record stops before the end of the game."""
    declared = record.result
    if not declared.declared:
        return Judgement("unfinished", "?", None, ResultStatus.UNDECLARED, True,
                         "no result declared; the game did not end")
    if declared.method is ResultMethod.OTHER:
        return Judgement("unfinished", "?", named_winner(declared, None), ResultStatus.UNRECOGNISED, True,
                         unrecognised_note(declared))
    if declared.method in _BY_RULES and declared.winner is not None:
        return Judgement("unfinished", declared.canonical(), declared.winner, ResultStatus.AGREES, True,
                         "the record stops before the end; the declared winner cannot be contradicted")
    if declared.method is ResultMethod.VOID:
        return Judgement("unfinished", "Void", None, ResultStatus.AGREES)
    scored = record.game in _SCORED_GAMES
    ends_as_declared = (declared.method in _SCORED_FORMS) if scored else (
        declared.method is ResultMethod.CHAIN and declared.winner is not None)
    if ends_as_declared:
        # GEN-8 (a): decided off the record, as servers that omit the final passes do.
        standing = run.engine.standing()
        board = f"the board as it stands gives {standing.text()}" if standing is not None else \
            "there is no chain on the board yet"
        note = (f"the record stops before the end of the game, so {declared.canonical()} cannot be confirmed "
                f"(GEN-8); {board}")
        return Judgement("unfinished", "?", declared.winner, ResultStatus.UNCONFIRMED, True, note)
    forms = "a score, B+/W+ or 0" if scored else "B+ or W+ (a chain)"
    note = (f"RE[{declared.raw}] is not a result {SPECS[record.game].title} can have; an unfinished game may declare "
            f"{forms}, a resignation, time, forfeit, Void or ? (GEN-8)")
    return Judgement("unfinished", "?", None, ResultStatus.DISAGREES, True, note)


def named_winner(declared: Result, otherwise: Colour | None) -> Colour | None:
    """GEN-8, who won, for a result outside the vocabulary: the colour it names as the winner by a method outside
    the vocabulary (`B+J`, `W+AW`: as the event published it), else `otherwise` (the computed winner of a finished
    game, or nobody)."""
    return declared.winner if declared.winner is not None else otherwise


def unrecognised_note(declared: Result) -> str:
    """GEN-8: the warning that quotes a result outside the vocabulary."""
    raw = declared.raw if len(declared.raw) <= _QUOTED else declared.raw[:_QUOTED] + "..."
    return f"RE[{raw}] is not in the result vocabulary (B+, W+3.5, 0, B+R, B+T, B+F, Void, ?); it is not judged (GEN-8)"


_QUOTED = 60  # a result is quoted up to this many characters (a record may hold a sentence, or 400 digits)
