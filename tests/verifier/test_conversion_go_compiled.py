"""Conversion Go's compiled plain plays (verifier/rules/_conversion_go.c, `ConversionGoEngine.play_run`) against the
plain-Python engine: the same verdicts on every conformance record and on random Conversion Go records (the opening
of CON-5 with its swap, conversions of CON-3, runs of mirrors up to the refusal of CON-6, passes with TB/TW marks,
moves of the wrong colour, stones on stones, setup, comments), and the same engine state afterwards, however the
compiled runs and the engine's own plays alternate."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import MoveKind
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.rules import conversion_go

from .compiled_checks import engine_plays, same, same_conformance_verdicts, verdicts

needs_compiled = pytest.mark.skipif(conversion_go.COMPILED is None,
                                    reason="the compiled plays (_conversion_go) were not built")


def _state(run: Replay) -> object:
    """The board, the turn, the mirror runs (CON-6), the previous play, the swap, the colour to move, the legal
    moves, the outcome and the standing."""
    engine = run.engine
    assert isinstance(engine, conversion_go.ConversionGoEngine)
    return (engine.rows(), engine.turn, engine._runs, engine._last_play, engine.swapped, engine.to_move,
            engine.legal_moves(), engine.outcome(), engine.standing())


def _same(data: bytes) -> None:
    same(conversion_go, data, _state)


@needs_compiled
def test_every_conformance_record_has_the_same_verdict() -> None:
    same_conformance_verdicts(conversion_go, "conversion-go")


def _letters(size: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[:size]


def _images(c: int, r: int, size: int) -> list[tuple[int, int]]:
    """The images of a point under CON-6's symmetries: the half turn, the two middle lines, the two diagonals."""
    n = size - 1
    return [(n - c, n - r), (n - c, r), (c, n - r), (r, c), (n - r, n - c)]


@st.composite
def conversion_records(draw: st.DrawFn) -> bytes:
    """A small Conversion Go record: an opening of two Black moves and one White move in some order, turn 4 White's
    play or the swap, then mostly plays in turn, with passes (TB/TW marks on some), mirror images of the opponent's
    play (CON-6), moves of the wrong colour, stones on stones, empty nodes, comments and setup."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = rng.choice((4, 5, 6, 7))
    letters = _letters(size)
    nodes = [f"(;GM[ConversionGo]FF[4]SZ[{size}]KM[0.5]RE[B+0.5]"]

    taken: set[str] = set()  # stones never leave the board (CON-4): the points played are the occupied ones

    def point() -> str:
        free = [a + b for a in letters for b in letters if a + b not in taken]
        if not free or rng.random() < 0.02:  # now and then a stone on a stone
            return rng.choice(letters) + rng.choice(letters)
        chosen = rng.choice(free)
        taken.add(chosen)
        return chosen

    opening = rng.choice(("BBW", "BWB", "WBB"))
    nodes.extend(f";{c}[{point()}]" for c in opening)
    nodes.append(";W[swap]" if rng.random() < 0.3 else f";W[{point()}]")
    swapped = "swap" in nodes[-1]
    turn = 4
    last: str | None = None
    for _ in range(rng.randrange(1, size * size)):
        roll = rng.random()
        if roll < 0.02:
            nodes.append(";")
            continue
        if roll < 0.025:
            nodes.append(";AB[aa]")
            continue
        mover = "B" if (turn % 2 == 0) != swapped else "W"
        if rng.random() < 0.01:
            mover = "W" if mover == "B" else "B"
        if rng.random() < 0.05:
            value = ""
        elif last and rng.random() < 0.5 and (images := [
                letters[col] + letters[row] for col, row in _images(letters.index(last[0]), letters.index(last[1]),
                                                                     size)
                if letters[col] + letters[row] not in taken]):
            value = rng.choice(images)
            taken.add(value)
        else:
            value = point()
        node = f";{mover}[{value}]"
        if rng.random() < 0.1:
            node += "C[a comment]"
        if not value and rng.random() < 0.4:
            node += f"TB[{point()}]TW[{point()}]"
        nodes.append(node)
        last = value or None
        turn += 1
    return ("".join(nodes) + ")").encode()


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(conversion_records())
def test_random_records_give_the_same_verdicts_and_state(data: bytes) -> None:
    _same(data)


def _mirror_game(size: int, mirrors: int) -> bytes:
    """White answers each Black play from turn 5 on with its half-turn image, `mirrors` times in a row."""
    letters = _letters(size)
    n = size - 1
    moves = [";B[aa]", ";B[ba]", ";W[ca]", f";W[{letters[n // 2]}{letters[n // 2]}]"]
    cells = [(c, r) for r in range(1, n) for c in range(size) if (c, r) != (n - c, n - r) and r < n - r]
    for c, r in cells[:mirrors]:
        moves.append(f";B[{letters[c]}{letters[r]}]")
        moves.append(f";W[{letters[n - c]}{letters[n - r]}]")
    return (f"(;GM[ConversionGo]FF[4]SZ[{size}]" + "".join(moves) + ")").encode()


@needs_compiled
@pytest.mark.parametrize("mirrors", [8, 9, 10, 11])
def test_the_tenth_mirror_is_refused_by_both(mirrors: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # CON-6: nine successive mirrors are legal, the tenth is refused, whichever path plays the nine.
    data = _mirror_game(9, mirrors)
    compiled = verdicts(conversion_go, data, True)
    assert compiled == verdicts(conversion_go, data, False)
    refused = [p for p in compiled[0]["problems"] if p.get("rule") == "CON-6"]  # type: ignore[attr-defined]
    assert bool(refused) == (mirrors >= 10)
    _same(data)


@needs_compiled
def test_long_random_games_on_the_default_board(monkeypatch: pytest.MonkeyPatch) -> None:
    # 16x16 games of hundreds of plays, stones on stones and conversions along the way.
    rng = random.Random(11)
    letters = _letters(16)
    for _ in range(20):
        moves = [";B[aa]", ";B[pp]", ";W[ap]"]
        colour = "W"
        for _ in range(rng.randrange(100, 400)):
            moves.append(f";{colour}[{rng.choice(letters)}{rng.choice(letters)}]")
            colour = "W" if colour == "B" else "B"
        data = ("(;GM[ConversionGo]FF[4]SZ[16]" + "".join(moves) + ";B[];W[])").encode()
        _same(data)


@needs_compiled
def test_the_compiled_runs_play_the_plain_moves_after_the_opening() -> None:
    # From turn 5 a record of plain plays is replayed by the compiled runs: the engine's own play is called for
    # the four moves of the opening (CON-5) and the two passes only.
    record = read_bytes(b"(;GM[ConversionGo]SZ[9];B[ee];B[cc];W[gg];W[cg];B[gc];W[ac];B[ca];W[];B[])")[0]
    run, calls = engine_plays(record)
    assert run.steps_played == 9
    assert calls == [MoveKind.PLACE] * 4 + [MoveKind.PASS] * 2
