"""Quentin's compiled plain placements (verifier/rules/_quentin.c, `QuentinEngine.play_run`) against the
plain-Python engine: the same verdicts on every conformance record and on random Quentin games (territories filled by
QUE-3, placements the diagonal rule refuses (QUE-4), forced and refused passes (QUE-5), chains of either colour
(QUE-6), the swap (QUE-7), moves of the wrong colour, stones on stones, setup and comments), and the same engine state
afterwards, however the compiled runs and the engine's own moves alternate."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import Game
from boardrecords.records.model import FormatError
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.judging.verdict import verify
from boardrecords.verifier.rules import quentin

from ..shared import CONFORMANCE
from .engine_games import engine_game

needs_compiled = pytest.mark.skipif(quentin.COMPILED is None,
                                    reason="the compiled placements (_quentin) were not built")


def _verdicts(data: bytes, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    with monkeypatch.context() as m:
        if not compiled:
            m.setattr(quentin, "COMPILED", None)
        return [verify(record, variations=True).to_json() for record in read_bytes(data)]


def _state(data: bytes, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """After the quiet replay of each record: the steps it yielded, the board, the stones next to each point, the
    turn, the swap, the legal moves, the outcome and the winning chain."""
    out: list[object] = []
    with monkeypatch.context() as m:
        if not compiled:
            m.setattr(quentin, "COMPILED", None)
        for record in read_bytes(data):
            run = Replay(record, quiet=True)
            steps = [(s.number, s.illegal.code if s.illegal else None, s.illegal.rule if s.illegal else None)
                     for s in run]
            engine = run.engine
            assert isinstance(engine, quentin.QuentinEngine)
            out.append((steps, run.steps_played, engine.rows(), engine._adj, engine.turn, engine.swapped,
                        engine.legal_moves(), engine.outcome(), engine.chain_points()))
    return out


def _same(data: bytes) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _verdicts(data, True, monkeypatch) == _verdicts(data, False, monkeypatch)
        assert _state(data, True, monkeypatch) == _state(data, False, monkeypatch)


@needs_compiled
@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")
def test_every_conformance_record_has_the_same_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(p for p in CONFORMANCE.rglob("*") if p.suffix in (".rec", ".sgf"))
    assert sum(p.name.startswith("quentin") for p in files) > 10
    for path in files:
        data = path.read_bytes()
        try:
            plain = _verdicts(data, False, monkeypatch)
        except FormatError:  # unreadable (FMT-1): nothing is replayed
            continue
        assert _verdicts(data, True, monkeypatch) == plain, path


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
    run = Replay(record, quiet=True)
    engine = run.engine
    calls = []
    original = engine.play
    engine.play = lambda move, marks=None: calls.append(move) or original(move, marks)  # type: ignore[method-assign]
    assert list(run) == []
    assert run.steps_played == 6 and calls == []


@needs_compiled
@pytest.mark.parametrize("record", [
    b"(;GM[Quentin]SZ[5];B[ee];W[dc];B[ba];W[bc];B[be];W[ab])",
    b"(;GM[Quentin]SZ[4];B[ca];W[bb];B[ba];W[bd];B[cc];W[ad];B[bc];W[cb];B[db])",
])
def test_a_placement_that_fills_and_then_breaks_the_diagonal_rule_is_undone_whole(record: bytes) -> None:
    # QUE-4 is judged after the filling of QUE-3: the last placement here fills a territory and then leaves a
    # diagonal pair without a common like-coloured neighbour, so it is refused, and the board is as it was before
    # it, the filled points empty again, on both paths.
    with pytest.MonkeyPatch.context() as monkeypatch:
        verdict = _verdicts(record, True, monkeypatch)[0]
        assert [p["rule"] for p in verdict["problems"]] == ["QUE-4"]  # type: ignore[index, union-attr]
        compiled, plain = _state(record, True, monkeypatch), _state(record, False, monkeypatch)
    assert compiled == plain
    rows = compiled[0][2]  # type: ignore[index]
    assert sum(v is not None for row in rows for v in row) == record.count(b";") - 2
