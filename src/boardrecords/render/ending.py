"""How a game ended, in one sentence: the words of the verdict that every view shows (the terminal, the SVG
captions, the HTML replay page), made from the verdict alone (verifier/judging/verdict.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..records.games import SPECS, Game
from ..records.model import Colour, Result, ResultMethod, format_margin
from ..records.properties import read_result
from ..verifier.judging.status import ResultStatus
from .shorten import brief

if TYPE_CHECKING:
    from ..verifier.judging.verdict import Verdict

_BY = {ResultMethod.RESIGN: "by resignation", ResultMethod.TIME: "on time", ResultMethod.FORFEIT: "by forfeit",
       ResultMethod.CHAIN: "by a chain"}
_UNFINISHED = "unfinished"  # the verdict's `end` of a record that stops before the end (verifier/judging/results.py)
_RESIGNATION = "resignation"


def ending(verdict: Verdict) -> str:
    """How the game ended, in one sentence: the words `show`, `verify`, the replay and the web page all use.

    "White (AlphaGo) won by resignation", "Black won by 3.5 points; the game ended by two passes (ING-5)",
    "Black won by a chain (CAT-8)", "The record stops at move 186 before the end", "Drawn; ...". The winner is the
    verdict's (GEN-8, who won): where the record cannot contradict the declared result (ING-9, an unfinished or an
    unmarked end), the declared one, said to be so.
    """
    moves = verdict.moves_total
    if not verdict.replayed:
        return "The record cannot be replayed: its header has errors"
    if verdict.end is None:
        number = verdict.moves_replayed + 1
        return f"The replay stops at the illegal move {number} of {max(moves, number)}"
    declared = verdict.declared or Result("", ResultMethod.UNKNOWN)
    # GEN-8: B+ / W+ is a chain in the connection games; in Go and Conversion Go it names the winner only.
    chain = verdict.game is not None and SPECS[Game(verdict.game)].connection
    as_declared = verdict.status in (ResultStatus.UNCONFIRMED, ResultStatus.KIND_ONLY)
    if verdict.end == _UNFINISHED:
        stops = f"the record stops at move {moves} before the end" if moves else "the record has no moves"
        if verdict.winner_colour is None and declared.method is not ResultMethod.VOID:
            return _capital(stops)
        # What is known of the end is what the record declares (GEN-8 (a)).
        return f"{_won(declared, verdict.winner_colour, verdict.winner_player, chain)} as declared; {stops}"
    if verdict.end == _RESIGNATION:
        return _won(Result("", ResultMethod.RESIGN), verdict.winner_colour, verdict.winner_player, chain)
    shown = declared if as_declared else read_result(verdict.computed)[0]
    if verdict.winner_colour is None and not verdict.drawn and shown.method is not ResultMethod.VOID:
        unjudged = "" if verdict.result_checked else "; the score is not checked (ING-9)"
        return f"The game ended by {verdict.end}{unjudged}"
    told = _won(shown, verdict.winner_colour, verdict.winner_player, chain) + (" as declared" if as_declared else "")
    if shown.method is ResultMethod.CHAIN and verdict.end.startswith("chain") and not as_declared:
        return f"{told.removesuffix('chain')}{verdict.end}"  # "won by a chain (CAT-8)": the rule that decided it
    if shown.method is ResultMethod.VOID:
        return f"{told}: {verdict.end}"
    return f"{told}; the game ended by {verdict.end}"


def _won(result: Result, colour: Colour | None, player: str | None, chain: bool) -> str:
    """`White (AlphaGo) won by resignation`, `Black won by 3.5 points`, `Drawn`, `Void`: a result in words."""
    method = result.method
    if method is ResultMethod.DRAW or (method is ResultMethod.SCORE and result.margin == 0):
        return "Drawn"
    if method is ResultMethod.VOID:
        return "Void"
    if colour is None:
        return "Nobody won"
    who = colour.word + (f" ({brief(player)})" if player else "")
    if method is ResultMethod.SCORE and result.margin is not None:
        points = format_margin(result.margin)
        return f"{who} won by {points} point{'' if points == '1' else 's'}"
    how = _BY.get(method) if method is not ResultMethod.CHAIN or chain else None
    return f"{who} won {how}" if how else f"{who} won"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
