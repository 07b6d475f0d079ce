"""Cation's compiled plain placements (verifier/rules/_cation.c, `CationEngine.play_run`) against the plain-Python
engine: the same verdicts on every conformance record, on random Cation records (relocations, removals, passes,
swaps, moves of the wrong colour, occupied points, comments and setup among them) and on long random legal games, and
the same engine state afterwards, however the compiled runs and the engine's own plays alternate."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import MoveKind
from boardrecords.records.model import Colour, FormatError, Move, Node
from boardrecords.records.points import format_point
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.rules import cation
from boardrecords.verifier.rules.cation import CationEngine
from boardrecords.verifier.rules.engine import IllegalMove

from .compiled_checks import conformance_files, same, same_conformance_verdicts, states

needs_compiled = pytest.mark.skipif(cation.COMPILED is None, reason="the compiled placements (_cation) were not built")


def _state(engine: CationEngine) -> tuple[object, ...]:
    """Everything the engine knows, the public view and the private lists that later moves are played on."""
    return (engine.rows(), engine.crosscuts(), engine.latest_stone, engine.situation, engine.turn, engine.to_move,
            engine.end, engine.outcome(), engine.legal_moves(), engine.swapped, list(engine._cells),
            list(engine._parent), list(engine._mask), list(engine._gsize), sorted(engine._cc), engine._cc_cache,
            engine._latest, engine._empty)


def _run_state(run: Replay) -> object:
    """After the quiet replay: the node of the last move played and the engine's state."""
    engine = run.engine
    assert isinstance(engine, CationEngine)
    return run.last_node is not None and run.last_node.pos, _state(engine)


def _same(data: bytes) -> None:
    same(cation, data, _run_state)


@needs_compiled
def test_every_conformance_record_has_the_same_verdict() -> None:
    same_conformance_verdicts(cation, "cation")
    cations = 0
    for path in conformance_files():
        data = path.read_bytes()
        if b"GM[Cation]" in data or b"GM[cation]" in data:
            try:
                plain = states(cation, data, False, _run_state)
            except FormatError:  # unreadable (FMT-1): nothing is replayed
                continue
            cations += 1
            assert states(cation, data, True, _run_state) == plain, path
    assert cations > 20


def _value(move: Move) -> str:
    return f";{move.colour.value}[{move.sgf_value()}]"


def _junk(rng: random.Random, engine: CationEngine, letters: str) -> str:
    """A move that is most likely illegal here, or at least not the engine's pick: any kind, either colour, any
    point (occupied or off the board among them)."""
    colour = engine.to_move if rng.random() < 0.7 else engine.to_move.other
    a = rng.choice(letters) + rng.choice(letters)
    b = rng.choice(letters) + rng.choice(letters)
    value = rng.choice([a, a, f"{a}-{b}", f"{a}-", "", "swap-sides", "zz", f"{a}-zz"])
    if rng.random() < 0.3:  # a point already taken
        taken = [(c, r) for r, row in enumerate(engine.rows()) for c, v in enumerate(row) if v is not None]
        if taken:
            value = format_point(rng.choice(taken))
    return f";{colour.value}[{value}]"


def cation_record(rng: random.Random, size: int, length: int) -> bytes:
    """A Cation record of mostly legal moves (the engine's own, so the play reaches crosscuts, relocations,
    removals, passes, swaps and chains), with comments, empty nodes, setup (refused, FMT-10), a variation, and now
    and then a move picked at random, legal or not (the replay stops at the first refusal)."""
    letters = "abcdefghijklmnopqrstuvwxyz"[: size + 1]  # one letter past the board: off-board points
    engine = CationEngine(size)
    nodes = [f"(;GM[Cation]FF[4]SZ[{size}]RE[{rng.choice(['B+', 'W+', '?'])}]"]
    variation = ""
    for _ in range(length):
        roll = rng.random()
        if roll < 0.03:
            nodes.append(";")
            continue
        if roll < 0.04:
            nodes.append(";C[a comment]")
            continue
        if roll < 0.044:
            nodes.append(f";AB[{rng.choice(letters[:size])}{rng.choice(letters[:size])}]")
            continue
        if roll < 0.055 and engine.end is None:
            nodes.append(_junk(rng, engine, letters))
            continue
        legal = engine.legal_moves()
        if not legal:
            nodes.append(_junk(rng, engine, letters))  # after the end of the game (CAT-8)
            continue
        if not variation and rng.random() < 0.05:
            variation = f"({_value(rng.choice(legal))})"  # another move where the last three begin
        move = rng.choice(legal)
        engine.play(move)
        node = _value(move)
        if rng.random() < 0.1:
            node += "C[a comment]"
        nodes.append(node)
    tail = f"({''.join(nodes[-3:])}){variation}" if variation and len(nodes) > 4 else "".join(nodes[-3:])
    return ("".join(nodes[:-3]) + tail + ")").encode()


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([3, 4, 5, 6, 8]), st.integers(1, 120))
def test_random_records_give_the_same_verdicts_and_states(seed: int, size: int, length: int) -> None:
    _same(cation_record(random.Random(seed), size, length))


def random_game(size: int, rng: random.Random) -> list[Move]:
    """A random legal game from the engine's legal moves, passes only when forced (as benchmarks/bench_verify.py)."""
    engine = CationEngine(size)
    moves: list[Move] = []
    while engine.end is None and len(moves) < size * size * 2:
        legal = engine.legal_moves()
        plays = [m for m in legal if m.kind is not MoveKind.PASS] or legal
        move = rng.choice(plays)
        engine.play(move)
        moves.append(move)
    return moves


@needs_compiled
@pytest.mark.parametrize(("size", "games"), [(8, 40), (13, 6), (26, 2)])
def test_long_random_legal_games(size: int, games: int) -> None:
    rng = random.Random(size)
    kinds: set[MoveKind] = set()
    for _ in range(games):
        moves = random_game(size, rng)
        kinds.update(m.kind for m in moves)
        data = (f"(;GM[Cation]FF[4]SZ[{size}]" + "".join(_value(m) for m in moves) + ")").encode()
        _same(data)
    assert {MoveKind.PLACE, MoveKind.RELOCATE} <= kinds


def _replay_counting(data: bytes) -> tuple[Replay, list[Move]]:
    record = read_bytes(data)[0]
    run = Replay(record, quiet=True)
    engine = run.engine
    calls: list[Move] = []
    original = engine.play
    engine.play = lambda move, marks=None: calls.append(move) or original(move, marks)  # type: ignore[method-assign]
    return run, calls


@needs_compiled
def test_the_compiled_runs_play_the_plain_placements() -> None:
    # The engine's own play sees only what the runs leave to it: the relocation out of the crosscut that W[bc]
    # forms (situation b, CAT-6) and the pass that a legal placement makes illegal (CAT-5).
    run, calls = _replay_counting(b"(;GM[Cation]SZ[5];B[bb];W[cb];B[cc]C[a comment];W[aa];;B[dd];W[bc];B[cc-ea]"
                                  b";W[ee];B[])")
    steps = list(run)
    assert [(s.number, s.illegal.code if s.illegal else None) for s in steps] == [(9, "pass-not-forced")]
    assert [str(m) for m in calls] == ["B[cc-ea]", "B[]"]
    assert run.steps_played == 8
    engine = run.engine
    assert engine.situation == "a" and engine.to_move is Colour.BLACK and engine.latest_stone == (4, 4)


def _line(moves: bytes, size: int = 4) -> list[Node]:
    return read_bytes(b"(;GM[Cation]SZ[%d]" % size + moves + b")")[0].main_line()


@needs_compiled
@pytest.mark.parametrize(("moves", "code"), [
    (b";B[bb];W[cb];B[cc];W[bc-aa]", "relocation-in-situation-a"),
    (b";B[bb];W[cc];B[dd];B[aa]", "wrong-turn"),
    (b";B[bb];W[cc];B[dd];W[bb]", "occupied"),
    (b";B[bb];W[cc];B[dd];W[ee]", "kind-not-allowed"),  # off the board: the reader made it an invalid move
    (b";B[bb];W[cb];B[cc];W[bc]", "crosscut-with-latest"),  # CAT-4: the crosscut holds Black's latest stone cc
    (b";B[bb];W[cc];B[dd];W[]", "pass-not-forced"),
    (b";B[bb];W[cc];B[dd];W[swap-sides]", "swap-not-turn-2"),
])
def test_a_run_stops_before_what_it_cannot_play(moves: bytes, code: str) -> None:
    # The run plays the three placements and leaves the fourth move to the engine, which says why it is refused.
    line = _line(moves)
    engine = CationEngine(4)
    assert engine.play_run(line, 0) == (3, 3, 2)
    assert engine.turn == 3 and engine.to_move is Colour.WHITE
    with pytest.raises(IllegalMove) as refused:
        engine.play(line[3].move)  # type: ignore[arg-type]
    assert refused.value.code == code


@needs_compiled
def test_a_run_stops_before_a_placement_off_the_board() -> None:
    # A line made in code, whose placement the reader never saw (CAT-1: the engine says it is off the board).
    line = [*_line(b";B[bb]"), Node(move=Move(Colour.WHITE, MoveKind.PLACE, (4, 1))), *_line(b";W[cc]")]
    engine = CationEngine(4)
    assert engine.play_run(line, 0) == (1, 1, 0)
    with pytest.raises(IllegalMove) as refused:
        engine.play(line[1].move)  # type: ignore[arg-type]
    assert refused.value.code == "off-board"


@needs_compiled
def test_a_run_stops_before_setup_and_skips_empty_nodes() -> None:
    line = _line(b";B[bb];;C[nothing];W[cc];B[dd]AB[aa];W[aa]")
    assert CationEngine(4).play_run(line, 0) == (4, 2, 3)


@needs_compiled
def test_a_run_stops_after_a_crosscut_and_after_a_chain() -> None:
    # W[bc] forms a crosscut without Black's latest stone dd (CAT-4): the run stops after it, in situation b.
    line = _line(b";B[bb];W[cb];B[cc];W[aa];B[dd];W[bc];B[ad]")
    engine = CationEngine(4)
    assert engine.play_run(line, 0) == (6, 6, 5)
    assert engine.crosscuts() == (((1, 1), (2, 1), (1, 2), (2, 2)),) and engine.situation == "b"
    assert engine.latest_stone == (1, 2)
    assert engine.play_run(line, 6) == (6, 0, -1)  # situation b: nothing is played
    # Black joins row 0 to row 2 on a 3x3 board: the game ends (CAT-8) and the run stops after that stone.
    line = _line(b";B[aa];W[ca];B[ab];W[cb];B[ac];W[bb]", 3)
    engine = CationEngine(3)
    assert engine.play_run(line, 0) == (5, 5, 4)
    outcome = engine.outcome()
    assert outcome.finished and outcome.winner is Colour.BLACK and outcome.text() == "B+"
    assert engine.play_run(line, 5) == (5, 0, -1)  # after the end: nothing is played


def test_without_the_compiled_module_nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cation, "COMPILED", None)
    engine = CationEngine(4)
    assert not engine.compiled_runs
    assert engine.play_run(_line(b";B[bb];W[cc]"), 0) == (0, 0, -1)
