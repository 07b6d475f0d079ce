"""Go's compiled plain plays (verifier/rules/_go.c, `GoEngine.play_run`) against the plain-Python engine: the same
verdicts on every conformance record and on random Go games (illegal moves, passes, comments, setup and marks
among them), and the same position afterwards, however the compiled runs and the engine's own plays alternate."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import MoveKind
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.rules import go_ing

from .compiled_checks import engine_plays, same, same_conformance_verdicts

needs_compiled = pytest.mark.skipif(go_ing.COMPILED is None, reason="the compiled plays (_go) were not built")


def _state(run: Replay) -> object:
    """The board, its hash, every earlier position, the legal moves and the pieces of a count (the stones each
    colour took off among them)."""
    engine = run.engine
    assert isinstance(engine, go_ing.GoEngine)
    return (engine.rows(), engine.position_hash, sorted(engine._history), engine.turn, engine.to_move,
            engine.legal_moves(), engine.outcome(), engine.pieces())


@needs_compiled
def test_every_conformance_record_has_the_same_verdict() -> None:
    same_conformance_verdicts(go_ing, "go-ing")


_POINTS = "abcdefg"


@st.composite
def go_records(draw: st.DrawFn) -> bytes:
    """A 7x7 Go record of random moves: mostly plays in turn, with passes, moves of the wrong colour, stones on
    stones, comments, setup after the start (refused, ING-8), an ignored PL, and TB/TW marks on passes."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    head = "(;GM[1]FF[4]SZ[7]KM[0.5]RE[B+0.5]"
    if rng.random() < 0.2:
        head += "AB[dd][cc]" + ("AW[ee]" if rng.random() < 0.5 else "")
    nodes = [head]
    colour = "W" if "AB" in head and "AW" not in head else "B"
    for _ in range(rng.randrange(1, 90)):
        roll = rng.random()
        if roll < 0.03:
            nodes.append(";")  # an empty node
            continue
        if roll < 0.05:
            nodes.append(f";PL[{colour}]")  # the colour that moves anyway: ignored with a warning (ING-8)
            continue
        if roll < 0.06:
            nodes.append(";AB[aa]")
            continue
        mover = colour if rng.random() > 0.03 else ("W" if colour == "B" else "B")
        value = "" if rng.random() < 0.06 else rng.choice(_POINTS) + rng.choice(_POINTS)
        node = f";{mover}[{value}]"
        if rng.random() < 0.15:
            node += "C[a comment]"
        if not value and rng.random() < 0.3:
            node += f"TB[{rng.choice(_POINTS)}{rng.choice(_POINTS)}]TW[{rng.choice(_POINTS)}{rng.choice(_POINTS)}]"
        nodes.append(node)
        colour = "W" if colour == "B" else "B"
    return ("".join(nodes) + ")").encode()


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(go_records())
def test_random_games_give_the_same_verdicts_and_positions(data: bytes) -> None:
    same(go_ing, data, _state)


@needs_compiled
def test_long_random_games_on_a_full_board() -> None:
    # 19x19 games of hundreds of plays with captures, suicides and superko refusals along the way.
    rng = random.Random(5)
    letters = "abcdefghijklmnopqrs"
    for _ in range(30):
        moves = []
        colour = "B"
        for _ in range(rng.randrange(100, 500)):
            moves.append(f";{colour}[{rng.choice(letters)}{rng.choice(letters)}]")
            colour = "W" if colour == "B" else "B"
        data = ("(;GM[1]FF[4]SZ[19]" + "".join(moves) + ")").encode()
        same(go_ing, data, _state)


@needs_compiled
def test_the_compiled_runs_play_most_moves_of_a_plain_record() -> None:
    # A record of plain plays is replayed by the compiled runs (the engine's own play is not called for them).
    record = read_bytes(b"(;GM[1]SZ[9];B[ee];W[cc];B[gg];W[cg];B[gc];W[])")[0]
    run, calls = engine_plays(record)
    assert run.steps_played == 6 and calls == [MoveKind.PASS]
