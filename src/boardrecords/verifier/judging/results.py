"""Judging a declared result against what the replay shows (GEN-8, "How a declared result is judged")."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
class Judgement:
    end: str | None  # how the line ended; None when the replay stopped at an illegal move
    computed: str  # the result the replay shows
    winner: Colour | None  # the replay's winner, or the declared one where the record cannot contradict it
    status: ResultStatus
    checked: bool = True  # False when ING-9 exempts the score
    note: str | None = None
    score: Score | None = None

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
    rules = _RULESET_NOISE.sub("", (record.rules or "").lower())
    if rules in _AREA_RULESETS:
        return True, None
    return False, f"RU[{record.rules}] is not area scoring: the declared winner and margin are not checked (ING-9)"


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

    def judged(status: ResultStatus, note: str | None = None, *, winner: Colour | None = computed_winner) -> Judgement:
        return Judgement(outcome.reason, computed, winner, status, checked, note, outcome.score)

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
    if outcome.method is ResultMethod.DRAW:
        agrees = declared.method is ResultMethod.DRAW or (
            declared.method is ResultMethod.SCORE and declared.margin == 0)
    elif declared.method is ResultMethod.CHAIN:
        agrees = declared.winner is outcome.winner  # GEN-8: B+/W+ in Go names the winner of the score only
    else:
        agrees = (declared.method is ResultMethod.SCORE and declared.winner is outcome.winner
                  and declared.margin is not None and outcome.margin is not None
                  and abs(declared.margin - abs(outcome.margin)) < 1e-9)
    if agrees:
        return judged(ResultStatus.AGREES)
    if kind_ok and _unmarked_end(record, run):
        # GEN-8 (b): without TB/TW the record does not say what the players removed or converted.
        what, rule = ("removed", "ING-7") if record.game is Game.GO else ("converted", "CON-7")
        note = (f"the game ends by passes without TB/TW marks, so the record does not say which stones were {what} "
                f"({rule}); declared {declared.canonical()}, the board as it stands gives {computed}")
        return judged(ResultStatus.UNCONFIRMED, note, winner=declared.winner)
    return judged(ResultStatus.DISAGREES, f"the score gives {computed}")


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
