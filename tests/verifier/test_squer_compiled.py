"""Squer's compiled plain maneuvers (verifier/rules/_squer.c, `SquerEngine.play_run`) against the plain-Python
engine: the same verdicts on every conformance record and on random Squer games (sweeps, chains, full boards and
their ends by SQU-6, SQU-7 and SQU-9, moves of the wrong colour, stones on stones, passes, setup and comments), and
the same engine state afterwards, however the compiled runs and the engine's own moves alternate."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import Game, MoveKind
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.rules import squer

from .compiled_checks import engine_plays, same, same_conformance_verdicts
from .engine_games import engine_game

needs_compiled = pytest.mark.skipif(squer.COMPILED is None, reason="the compiled maneuvers (_squer) were not built")


def _state(run: Replay) -> object:
    """The board, the turn, the empty points, the chains each colour held, the swept lines, the legal moves and the
    outcome."""
    engine = run.engine
    assert isinstance(engine, squer.SquerEngine)
    return (engine.rows(), engine.turn, engine._empties, engine._chain, engine._swept, engine.legal_moves(),
            engine.outcome())


def _same(data: bytes) -> None:
    same(squer, data, _state)


@needs_compiled
def test_every_conformance_record_has_the_same_verdict() -> None:
    same_conformance_verdicts(squer, "squer")


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(st.integers(2, 7), st.integers(0, 2**32), st.sampled_from((0.0, 0.01, 0.05)))
def test_random_games_give_the_same_verdicts_and_state(size: int, seed: int, faults: float) -> None:
    _same(engine_game(Game.SQUER, size, seed, faults=faults))


@needs_compiled
def test_every_end_is_reached_by_both() -> None:
    # The random games reach both ways a game from the empty board ends (SQU-6, SQU-7; SQU-9 needs a full board
    # without a chain, which play from the empty board never leaves: test_engine_squer.py) and sweeps, so the
    # compiled runs hand each of them to the engine's judgement.
    reasons = set()
    sweeps = 0
    for seed in range(300):
        data = engine_game(Game.SQUER, 3 + seed % 4, seed, faults=0.0)
        _same(data)
        record = read_bytes(data)[0]
        run = Replay(record, quiet=True)
        list(run)
        reasons.add(run.engine.outcome().reason)
        sweeps += sum(m.kind is MoveKind.SWEEP for m in record.moves())
    assert {squer.REASON_START, squer.REASON_END} <= reasons, reasons
    assert sweeps > 0


@needs_compiled
def test_the_compiled_runs_play_the_plain_maneuvers() -> None:
    # A record of maneuvers that makes no chain is replayed by the compiled runs alone: the engine's own play is
    # not called.
    record = read_bytes(b"(;GM[Squer]SZ[4];B[aa];W[dd];B[da];W[ad];B[bb];W[cc];B[cb];W[bc];B[ba])")[0]
    run, calls = engine_plays(record)
    assert run.steps_played == 9 and not calls
