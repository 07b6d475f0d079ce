"""Judging a declared result against what the replay shows (rules README, "How a declared result is judged")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..records.games import Game
from ..records.model import Colour, Record, Result, ResultMethod
from .engine import Score
from .replay import Replay

# ING-9: area-scoring rulesets whose declared scores are checked (case, spaces, -, / and _ ignored).
_AREA_RULESETS = {"", "goe", "ing", "chinese", "nz", "newzealand", "aga", "tromptaylor"}
_RULESET_NOISE = re.compile(r"[\s\-/_]+")
_BY_RULES = (ResultMethod.RESIGN, ResultMethod.TIME, ResultMethod.FORFEIT)


@dataclass(frozen=True, slots=True)
class Judgement:
    end: str | None  # how the line ended; None when the replay stopped at an illegal move
    computed: str  # the result the replay shows
    winner: Colour | None
    agrees: bool | None
    checked: bool = True
    note: str | None = None
    score: Score | None = None

    @classmethod
    def stopped(cls, record: Record, run: Replay) -> Judgement:
        """The replay stopped at an illegal move: nothing after it is guessed, so no declared result agrees."""
        declared = record.result
        note = f"the replay stopped at the illegal move {run.steps_played + 1}; the result cannot be confirmed"
        return cls(None, "?", None, False if declared.declared else None, True, note)


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
    vocabulary = _vocabulary_problem(declared)

    if run.resigned is not None:
        winner = run.resigned.other
        agrees = None if not declared.declared else (
            declared.method is ResultMethod.RESIGN and declared.winner is winner)
        note = vocabulary or (None if agrees is not False else
                              f"{run.resigned.word} resigned, so the result must be {winner.value}+R")
        return Judgement("resignation", f"{winner.value}+R", winner, agrees, True, note)

    if outcome.finished:
        computed = outcome.text()
        if not declared.declared:
            return Judgement(outcome.reason, computed, outcome.winner, None, True, "no result declared",
                             outcome.score)
        if outcome.method is ResultMethod.VOID:
            # SQU-9: no rule decides; only Void (and the undeclared ?) agree.
            agrees = declared.method is ResultMethod.VOID
            return Judgement(outcome.reason, computed, None, agrees, True,
                             None if agrees else "no rule decides this game (SQU-9): only Void or ? agree",
                             outcome.score)
        if outcome.method is ResultMethod.CHAIN:
            agrees = declared.method is ResultMethod.CHAIN and declared.winner is outcome.winner
            note = vocabulary or (None if agrees else f"the game was won by a chain: the result is {computed}")
            return Judgement(outcome.reason, computed, outcome.winner, agrees, True, note, outcome.score)
        # A scored end (Go, Conversion Go).
        checked, why = score_checked(record)
        kind_ok = declared.method in (ResultMethod.SCORE, ResultMethod.DRAW)
        if not checked:
            return Judgement(outcome.reason, computed, outcome.winner, kind_ok, False,
                             why if kind_ok else f"a game ended by passes is declared as a score; {why}",
                             outcome.score)
        if outcome.method is ResultMethod.DRAW:
            agrees = declared.method is ResultMethod.DRAW or (
                declared.method is ResultMethod.SCORE and declared.margin == 0)
        else:
            agrees = (declared.method is ResultMethod.SCORE and declared.winner is outcome.winner
                      and declared.margin is not None and outcome.margin is not None
                      and abs(declared.margin - abs(outcome.margin)) < 1e-9)
        note = vocabulary or (None if agrees else f"the score gives {computed}")
        return Judgement(outcome.reason, computed, outcome.winner, agrees, True, note, outcome.score)

    # The record stops before the end: only resignation, time, forfeit, Void or ? can be declared.
    if not declared.declared:
        return Judgement("unfinished", "?", None, None, True, "no result declared; the game did not end")
    if declared.method in _BY_RULES and declared.winner is not None:
        return Judgement("unfinished", declared.canonical(), declared.winner, True, True,
                         "the record stops before the end; the declared winner cannot be contradicted")
    if declared.method is ResultMethod.VOID:
        return Judgement("unfinished", "Void", None, True, True, None)
    note = vocabulary or (f"the record stops before the end of the game, so {declared.raw!r} cannot be right; "
                          "only a resignation, time, forfeit, Void or ? can be declared")
    return Judgement("unfinished", "?", None, False, True, note)


def _vocabulary_problem(declared: Result) -> str | None:
    if declared.method is ResultMethod.OTHER:
        return f"RE[{declared.raw}] is not in the result vocabulary (B+, W+3.5, 0, B+R, B+T, B+F, Void, ?)"
    return None
