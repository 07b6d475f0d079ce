"""Properties of `verify` over random games that the engines themselves generate, for every game.

- A random legal game, written as a record and read back, verifies valid with the engine's winner and result.
- One corruption (occupied point, wrong turn, swap where none is allowed, a move after the end, a wrong result)
  is reported at exactly the corrupted move.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrecords.records.games import SPECS, Game, MoveKind
from boardrecords.records.model import Colour, Move
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import new_record, write
from boardrecords.verifier.judging.status import ResultStatus
from boardrecords.verifier.judging.verdict import verify
from boardrecords.verifier.rules.engine import Engine
from boardrecords.verifier.rules.registry import engine_for

SIZES = {
    Game.GO: (5, 7),
    Game.CONVERSION_GO: (5, 6),
    Game.CATION: (4, 6),
    Game.QUENTIN: (5, 6),
    Game.SQUER: (4, 5),
}
MAX_PLIES = 120
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(game: Game, size: int, seed: int) -> tuple[list[Move], Engine]:
    """Play uniformly random legal moves until the game ends or MAX_PLIES; Go avoids passing early."""
    rng = random.Random(seed)
    engine = engine_for(game)(size)
    moves: list[Move] = []
    stop_at = rng.randrange(size * size // 2, MAX_PLIES - 4)
    while engine.end is None and len(moves) < MAX_PLIES:
        legal = engine.legal_moves()
        if not legal:
            break
        plays = [m for m in legal if m.kind is not MoveKind.PASS]
        passes = [m for m in legal if m.kind is MoveKind.PASS]
        if passes and len(moves) >= stop_at:
            move = passes[0]  # the scored games end with two passes
        else:
            # Passing only now and then keeps Go games from ending at once, and still exercises the stops.
            pool = plays if plays and rng.random() < 0.9 else legal
            move = rng.choice(pool)
        engine.play(move)
        moves.append(move)
    return moves, engine


def build(game: Game, size: int, moves: list[Move], result: str) -> bytes:
    record = new_record(game, size, moves, black="Ann Black", white="Bo White", result=result)
    return write(record)


def verdict_of(data: bytes):
    records = read_bytes(data, "generated.rec")
    assert len(records) == 1
    return verify(records[0])


games = st.sampled_from(list(Game))


@given(game=games, seed=st.integers(0, 2**32 - 1), big=st.booleans())
@SETTINGS
def test_random_legal_games_verify_valid(game, seed, big):
    size = SIZES[game][big]
    moves, engine = random_game(game, size, seed)
    outcome = engine.outcome()
    declared = outcome.text() if outcome.finished else "?"
    verdict = verdict_of(build(game, size, moves, declared))
    assert verdict.valid, verdict.problems
    assert verdict.moves_replayed == len(moves)
    assert verdict.computed == outcome.text()
    assert verdict.winner_colour == outcome.winner
    if outcome.finished:
        assert verdict.agrees is True
        # The winner as a player follows any pie swap.
        if outcome.winner is not None:
            holder_is_first = (outcome.winner is Colour.BLACK) != engine.swapped
            assert verdict.winner_player == ("Ann Black" if holder_is_first else "Bo White")


@given(game=games, seed=st.integers(0, 2**32 - 1), data=st.data())
@SETTINGS
def test_resignation_is_judged(game, seed, data):
    size = SIZES[game][0]
    moves, engine = random_game(game, size, seed)
    if engine.end is not None:
        moves = moves[:-1]  # resign before the game ends
    loser = data.draw(st.sampled_from(list(Colour)))
    moves = [*moves, Move(loser, MoveKind.RESIGN)]
    right = data.draw(st.booleans())
    declared = f"{loser.other.value}+R" if right else f"{loser.value}+R"
    verdict = verdict_of(build(game, size, moves, declared))
    assert verdict.valid
    assert verdict.winner_colour is loser.other
    assert verdict.agrees is right


def _corrupt(game: Game, moves: list[Move], engine_before: Engine, k: int, how: str) -> Move | None:
    """A move to put at index k instead of moves[k] that the rules refuse, or None if `how` does not apply."""
    original = moves[k]
    if how == "occupied":
        rows = engine_before.rows()
        taken = [(c, r) for r, row in enumerate(rows) for c, v in enumerate(row) if v is not None]
        if not taken:
            return None
        return Move(original.colour, MoveKind.PLACE, point=taken[k % len(taken)])
    if how == "wrong-turn":
        if engine_before.to_move is None:  # Conversion Go's opening: either colour may move (CON-5)
            return None
        return Move(engine_before.to_move.other, original.kind, original.point, original.target, original.line)
    if how == "swap":
        allowed_turn = {Game.CATION: 1, Game.QUENTIN: 1, Game.CONVERSION_GO: 3}.get(game)
        if k == allowed_turn:
            return None
        return Move(original.colour, MoveKind.SWAP)
    raise AssertionError(how)


@given(game=games, seed=st.integers(0, 2**32 - 1), data=st.data())
@SETTINGS
def test_a_corrupted_move_is_caught_where_it_stands(game, seed, data):
    size = SIZES[game][0]
    moves, _ = random_game(game, size, seed)
    if len(moves) < 2:
        return
    k = data.draw(st.integers(1, len(moves) - 1), label="index")
    how = data.draw(st.sampled_from(["occupied", "wrong-turn", "swap"]), label="corruption")
    before = engine_for(game)(size)
    for move in moves[:k]:
        before.play(move)
    bad = _corrupt(game, moves, before, k, how)
    if bad is None:
        return
    corrupted = [*moves[:k], bad, *moves[k + 1:]]
    verdict = verdict_of(build(game, size, corrupted, "?"))
    assert not verdict.valid
    first = verdict.first_error
    assert first is not None and first.move == k + 1, (how, first)
    assert first.rule, first


@given(game=games, seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_a_move_after_the_end_is_caught(game, seed):
    size = SIZES[game][0]
    moves, engine = random_game(game, size, seed)
    if engine.end is None or engine.end.reason == "two passes (ING-5)":
        return  # ING-5: after a first stop without marks, a further move resumes play
    extra = moves[-1] if moves[-1].kind is not MoveKind.SWAP else moves[-2]
    verdict = verdict_of(build(game, size, [*moves, extra], "?"))
    first = verdict.first_error
    assert first is not None and first.move == len(moves) + 1
    assert first.code == "after-end"


@given(game=games, seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_a_wrong_result_is_reported_and_the_moves_stay_valid(game, seed):
    size = SIZES[game][0]
    moves, engine = random_game(game, size, seed)
    outcome = engine.outcome()
    if not outcome.finished or outcome.winner is None:
        return
    wrong = f"{outcome.winner.other.value}+" + ("" if SPECS[game].connection else "1")
    verdict = verdict_of(build(game, size, moves, wrong))
    assert verdict.valid
    # GEN-8 (b): generated games end by passes without TB/TW marks; where that end is provisional (Go's first
    # stop, Conversion Go's final passes) a different score is unconfirmed, with the declared winner.
    unmarked = game is Game.CONVERSION_GO or (game is Game.GO and engine.stopped)
    if unmarked:
        assert verdict.status is ResultStatus.UNCONFIRMED and verdict.passes
        assert verdict.winner_colour is outcome.winner.other
    else:
        assert verdict.status is ResultStatus.DISAGREES and verdict.agrees is False
        assert not verdict.passes


@pytest.mark.parametrize("game", list(Game))
def test_generator_reaches_the_end_of_games(game):
    """Guard for the properties above: the generator must finish games, or they would test little."""
    finished = sum(random_game(game, SIZES[game][0], seed)[1].end is not None for seed in range(8))
    assert finished >= 3
