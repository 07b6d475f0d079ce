"""Quentin's compiled plain placements (verifier/rules/_quentin.c, `QuentinEngine.play_run`) against the
plain-Python engine: the same verdicts on every conformance record and on random Quentin games (territories filled by
QUE-3, placements the diagonal rule refuses (QUE-4), forced and refused passes (QUE-5), chains of either colour
(QUE-6), the swap (QUE-7), moves of the wrong colour, stones on stones, setup and comments), and the same engine state
afterwards, however the compiled runs and the engine's own moves alternate."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import Game
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.rules import quentin

from .compiled_checks import engine_plays, same, same_conformance_verdicts, states, verdicts
from .engine_games import engine_game

needs_compiled = pytest.mark.skipif(quentin.COMPILED is None,
                                    reason="the compiled placements (_quentin) were not built")


def _state(run: Replay) -> object:
    """The board, the stones next to each point, the turn, the swap, the legal moves, the outcome and the winning
    chain."""
    engine = run.engine
    assert isinstance(engine, quentin.QuentinEngine)
    return (engine.rows(), engine._adj, engine.turn, engine.swapped, engine.legal_moves(), engine.outcome(),
            engine.chain_points())


def _same(data: bytes) -> None:
    same(quentin, data, _state)


@needs_compiled
def test_every_conformance_record_has_the_same_verdict() -> None:
    same_conformance_verdicts(quentin, "quentin")


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(st.integers(2, 8), st.integers(0, 2**32), st.sampled_from((0.0, 0.01, 0.05)))
def test_random_games_give_the_same_verdicts_and_state(size: int, seed: int, faults: float) -> None:
    _same(engine_game(Game.QUENTIN, size, seed, faults=faults))


@needs_compiled
def test_the_rare_rules_are_reached_by_both() -> None:
    # Across these games: territories filled (QUE-3), placements refused by the diagonal rule (QUE-4) inside a
    # compiled run (undone there), passes, chains of both colours; each compared in full.
    fills = refusals = 0
    winners = set()
    for seed in range(300):
        data = engine_game(Game.QUENTIN, 4 + seed % 5, seed, faults=0.05)
        _same(data)
        record = read_bytes(data)[0]
        run = Replay(record)
        for step in run:
            fills += bool(step.change.filled)
            refusals += step.illegal is not None and step.illegal.rule == "QUE-4"
        winners.add(run.engine.outcome().winner)
    assert fills > 50 and refusals > 2 and len(winners - {None}) == 2, (fills, refusals, winners)


@needs_compiled
def test_the_compiled_runs_play_the_plain_placements() -> None:
    # A record of placements is replayed by the compiled runs alone: the engine's own play is not called.
    record = read_bytes(b"(;GM[Quentin]SZ[5];B[aa];W[ee];B[ca];W[ae];B[bc];W[dc])")[0]
    run, calls = engine_plays(record)
    assert run.steps_played == 6 and not calls


@needs_compiled
@pytest.mark.parametrize("record", [
    b"(;GM[Quentin]SZ[5];B[ee];W[dc];B[ba];W[bc];B[be];W[ab])",
    b"(;GM[Quentin]SZ[4];B[ca];W[bb];B[ba];W[bd];B[cc];W[ad];B[bc];W[cb];B[db])",
])
def test_a_placement_that_fills_and_then_breaks_the_diagonal_rule_is_undone_whole(record: bytes) -> None:
    # QUE-4 is judged after the filling of QUE-3: the last placement here fills a territory and then leaves a
    # diagonal pair without a common like-coloured neighbour, so it is refused, and the board is as it was before
    # it, the filled points empty again, on both paths.
    verdict = verdicts(quentin, record, True)[0]
    problems: Any = verdict["problems"]
    assert [p["rule"] for p in problems] == ["QUE-4"]
    compiled, plain = states(quentin, record, True, _state), states(quentin, record, False, _state)
    assert compiled == plain
    rows = compiled[0][2][0]  # type: ignore[index]  # (steps, moves played, state): the state's board
    assert sum(v is not None for row in rows for v in row) == record.count(b";") - 2
