"""The Squer rules engine against the binding clarifications SQU-1 .. SQU-11 (/work/shared/rules/squer.md)."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrecords.records.games import MoveKind
from boardrecords.records.model import Colour, Move, ResultMethod
from boardrecords.records.points import letter_index, parse_point
from boardrecords.verifier.rules.chains import has_chain
from boardrecords.verifier.rules.engine import BLACK, WHITE, IllegalMove
from boardrecords.verifier.rules.squer import SquerEngine

B, W = Colour.BLACK, Colour.WHITE
START = "chain at the start of the turn (SQU-6)"
END = "chain at the end of the turn, opponent has no move (SQU-7)"


def moves(text: str) -> list[Move]:
    """`B[cb] W[sweep-a] B[]` -> Moves, in the record notation (SQU-11)."""
    out = []
    for colour, value in re.findall(r"([BW])\[([^\]]*)\]", text):
        c = Colour(colour)
        if value == "":
            out.append(Move(c, MoveKind.PASS))
        elif value == "swap-sides":
            out.append(Move(c, MoveKind.SWAP))
        elif value.startswith("sweep-"):
            out.append(Move(c, MoveKind.SWEEP, line=letter_index(value[6:])))
        else:
            out.append(Move(c, MoveKind.PLACE, parse_point(value)))
    return out


def move(text: str) -> Move:
    (m,) = moves(text)
    return m


def game(size: int, text: str = "") -> SquerEngine:
    engine = SquerEngine(size)
    for m in moves(text):
        engine.play(m)
    return engine


def position(*rows: str, to_move: Colour = B, swept_black: tuple[int, ...] = (),
             swept_white: tuple[int, ...] = ()) -> SquerEngine:
    """A position from rows of `B`, `W` and `.` (row 0 first)."""
    cells = [[{"B": B, "W": W, ".": None}[ch] for ch in row] for row in rows]
    return SquerEngine.from_position(cells, to_move, swept_black=swept_black, swept_white=swept_white)


def picture(engine: SquerEngine) -> list[str]:
    return ["".join({B: "B", W: "W", None: "."}[v] for v in row) for row in engine.rows()]


def refused(engine: SquerEngine, m: Move) -> IllegalMove:
    """Play an illegal move: it must raise and leave the position exactly as it was."""
    before = (engine.rows(), engine.turn, engine.end, engine.swept_lines(B), engine.swept_lines(W))
    with pytest.raises(IllegalMove) as info:
        engine.play(m)
    assert (engine.rows(), engine.turn, engine.end, engine.swept_lines(B), engine.swept_lines(W)) == before
    return info.value


# -- SQU-1 board sizes -----------------------------------------------------------------------------------------
def test_squ_1_smallest_and_largest_boards() -> None:
    small = SquerEngine(2)
    assert sorted(m.point for m in small.legal_moves()) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    large = SquerEngine(52)
    assert len(large.legal_moves()) == 52 * 52
    large.play(move("B[ZZ]"))
    assert large.stone((51, 51)) is B and large.to_move is W


def test_squ_1_sweep_of_a_line_off_the_board_is_refused() -> None:
    engine = game(4)
    err = refused(engine, Move(B, MoveKind.SWEEP, line=4))
    assert (err.code, err.rule) == ("off-board", "SQU-1")


# -- SQU-2 flipping direction ----------------------------------------------------------------------------------
def test_squ_2_black_flips_along_rows_only() -> None:
    engine = position(".W.", "W.W", ".W.")
    change = engine.play(move("B[bb]"))
    assert picture(engine) == [".W.", "BBB", ".W."]
    assert change.placed == ((1, 1),)
    assert sorted(change.flipped) == [(0, 1), (2, 1)]


def test_squ_2_white_flips_along_columns_only() -> None:
    engine = position(".B.", "B.B", ".B.", to_move=W)
    change = engine.play(move("W[bb]"))
    assert picture(engine) == [".W.", "BWB", ".W."]
    assert sorted(change.flipped) == [(1, 0), (1, 2)]


# -- SQU-3 maneuver ----------------------------------------------------------------------------------------------
def test_squ_3_runs_flip_in_both_directions_without_bracketing() -> None:
    # Left run reaches the edge (no bracketing stone), right run stops at a friendly stone.
    engine = position("WW.WWBW", *["......."] * 6)
    change = engine.play(move("B[ca]"))
    assert picture(engine)[0] == "BBBBBBW"
    assert sorted(change.flipped) == [(0, 0), (1, 0), (3, 0), (4, 0)]


def test_squ_3_runs_stop_at_an_empty_point() -> None:
    engine = position(".WW.W.W", *["......."] * 6)
    change = engine.play(move("B[da]"))
    assert picture(engine)[0] == ".BBBB.W"
    assert sorted(change.flipped) == [(1, 0), (2, 0), (4, 0)]


def test_squ_3_maneuver_on_an_occupied_point_is_refused() -> None:
    engine = game(4, "B[bc]")
    err = refused(engine, move("W[bc]"))
    assert (err.code, err.rule, err.point) == ("occupied", "SQU-3", (1, 2))
    assert str(err) == "b2 is occupied (SQU-3)"  # bc (GEN-10)


# -- SQU-4 sweep -------------------------------------------------------------------------------------------------
def test_squ_4_black_sweeps_a_row_full_of_white_stones() -> None:
    engine = position("...", "WWW", "...")
    change = engine.play(move("B[sweep-b]"))
    assert picture(engine) == ["...", "BBB", "..."]
    assert change.swept == ("row", 1)
    assert change.placed == ()
    assert sorted(change.flipped) == [(0, 1), (1, 1), (2, 1)]
    assert engine.swept_lines(B) == {1} and engine.swept_lines(W) == set()


def test_squ_4_white_sweeps_a_column_full_of_black_stones() -> None:
    engine = position("..B", "..B", "..B", to_move=W)
    change = engine.play(move("W[sweep-c]"))
    assert picture(engine) == ["..W", "..W", "..W"]
    assert change.swept == ("column", 2)
    assert engine.swept_lines(W) == {2}


def test_squ_4_line_not_entirely_enemy_stones_is_refused() -> None:
    for rows in (("...", "WW.", "..."), ("...", "WWB", "...")):
        err = refused(position(*rows), move("B[sweep-b]"))
        assert (err.code, err.rule) == ("sweep-not-full", "SQU-4")
        assert str(err) == "row 2 is not entirely filled with enemy stones (SQU-4)"  # row b
    # Black sweeps rows: a column full of white stones is not Black's to sweep.
    err = refused(position("W..", "W..", "W.."), move("B[sweep-a]"))
    assert err.code == "sweep-not-full"


def test_squ_4_each_player_sweeps_a_line_at_most_once() -> None:
    err = refused(position("...", "WWW", "...", swept_black=(1,)), move("B[sweep-b]"))
    assert (err.code, err.rule) == ("already-swept", "SQU-4")
    assert str(err) == "row 2 was already swept by this player (SQU-4)"  # row b
    # Each player keeps their own list: White having swept column b does not bar Black's row b.
    engine = position("...", "WWW", "...", swept_white=(1,))
    engine.play(move("B[sweep-b]"))
    assert engine.swept_lines(B) == {1}


def test_squ_4_the_list_of_swept_lines_is_kept_through_play() -> None:
    # White sweeps column a, later it is full of black stones again: White may not sweep it a second time.
    engine = game(2, "B[aa] W[ba] B[ab] W[sweep-a] B[sweep-a] W[bb] B[sweep-b]")
    assert engine.swept_lines(W) == {0} and engine.swept_lines(B) == {0, 1}
    assert picture(engine) == ["BW", "BB"]


# -- SQU-5 one maneuver or one sweep; no pass, no swap -----------------------------------------------------------
def test_squ_5_there_is_no_pass() -> None:
    err = refused(game(4, "B[aa]"), Move(W, MoveKind.PASS))
    assert (err.code, err.rule, str(err)) == ("kind-not-allowed", "SQU-5", "there is no pass in Squer (SQU-5)")


def test_squ_5_there_is_no_swap() -> None:
    err = refused(game(4, "B[aa]"), Move(W, MoveKind.SWAP))
    assert (err.code, err.rule, str(err)) == ("kind-not-allowed", "SQU-5", "there is no swap in Squer (SQU-5)")


def test_squ_5_other_kinds_are_refused_and_never_offered() -> None:
    engine = game(3, "B[aa]")
    err = refused(engine, Move(W, MoveKind.RELOCATE, (0, 0), target=(1, 1)))
    assert (err.code, err.rule) == ("kind-not-allowed", "SQU-5")
    assert {m.kind for m in position("...", "BBB", "...", to_move=W).legal_moves()} == {MoveKind.PLACE}
    kinds = {m.kind for m in position("..B", "..B", "..B", to_move=W).legal_moves()}
    assert kinds == {MoveKind.PLACE, MoveKind.SWEEP}


# -- SQU-6 win at the start of a turn ----------------------------------------------------------------------------
def test_squ_6_a_chain_does_not_win_at_once_but_at_the_start_of_the_next_turn() -> None:
    engine = game(2, "B[aa] W[ba] B[ab]")
    assert has_chain([1 if v is B else 0 for row in engine.rows() for v in row], 2, BLACK)
    assert engine.end is None  # White gets one turn to break it
    engine.play(move("W[bb]"))  # does not break it
    end = engine.outcome()
    assert (end.finished, end.method, end.winner, end.reason) == (True, ResultMethod.CHAIN, B, START)
    assert end.text() == "B+"


def test_squ_6_the_opponent_may_break_the_chain() -> None:
    engine = game(3, "B[aa] W[cc] B[ab] W[cb] B[ac]")
    assert engine.end is None
    engine.play(move("W[sweep-a]"))
    assert picture(engine) == ["W..", "W.W", "W.W"]
    assert engine.end is None and engine.to_move is B


def test_squ_6_white_wins_at_the_start_of_its_turn() -> None:
    engine = game(3, "B[cc] W[aa] B[ac] W[ba] B[bc]")
    assert engine.end is None
    engine.play(move("W[ca]"))  # White joins column a to column c along row a
    engine.play(move("B[bb]"))  # does not touch row a
    assert (engine.end.winner, engine.end.reason) == (W, START)


def test_squ_6_a_position_with_a_chain_for_the_player_to_move_is_over() -> None:
    engine = position("B..", "B..", "B..", to_move=B)
    assert (engine.end.winner, engine.end.reason) == (B, START)


# -- SQU-7 win at the end of a turn ------------------------------------------------------------------------------
def test_squ_7_chain_and_opponent_without_a_move() -> None:
    engine = game(2, "B[aa] W[ba] B[ab] W[sweep-a] B[sweep-a] W[bb]")
    assert engine.end is None
    engine.play(move("B[sweep-b]"))  # Black joins row a to row b; White already swept column a (SQU-4)
    end = engine.outcome()
    assert (end.method, end.winner, end.reason) == (ResultMethod.CHAIN, B, END)


def test_squ_7_needs_the_opponent_to_have_no_move() -> None:
    open_sweep = position("BW", "BB", to_move=W)
    assert open_sweep.end is None
    assert [(m.kind, m.line) for m in open_sweep.legal_moves()] == [(MoveKind.SWEEP, 0)]
    closed = position("BW", "BB", to_move=W, swept_white=(0,))
    assert (closed.end.winner, closed.end.reason) == (B, END)


# -- SQU-8 a move adds only the mover's stones -------------------------------------------------------------------
def test_squ_8_the_mover_never_completes_the_opponents_chain() -> None:
    # White's row b has a gap; Black filling it flips White's stones instead of joining them.
    engine = position("...", "W.W", "...", to_move=B)
    engine.play(move("B[bb]"))
    assert picture(engine) == ["...", "BBB", "..."]
    assert engine.end is None


# -- SQU-9 deadlock ----------------------------------------------------------------------------------------------
def test_squ_9_no_legal_action_and_no_chain_is_void() -> None:
    engine = position("BW", "WB", to_move=B)
    end = engine.outcome()
    assert (end.finished, end.method, end.winner) == (True, ResultMethod.VOID, None)
    assert "SQU-9" in end.reason and end.text() == "Void"
    assert engine.legal_moves() == []


def test_squ_9_a_maneuver_that_leaves_the_opponent_deadlocked() -> None:
    engine = position("BWB", "WBW", "BW.", to_move=B)
    assert engine.end is None
    engine.play(move("B[cc]"))
    assert picture(engine) == ["BWB", "WBW", "BBB"]
    assert engine.outcome().method is ResultMethod.VOID and "SQU-9" in engine.outcome().reason


# -- SQU-10 moves after the end ----------------------------------------------------------------------------------
def test_squ_10_moves_after_the_end_are_refused() -> None:
    engine = game(2, "B[aa] W[ba] B[ab] W[bb]")
    assert engine.end is not None and engine.legal_moves() == []
    for m in (move("B[sweep-a]"), Move(B, MoveKind.PASS), move("W[aa]")):
        err = refused(engine, m)
        assert (err.code, err.rule, err.message) == ("after-end", "SQU-10", "move after the end of the game")


# -- SQU-11 notation: the sweep's letter is the row (Black) or the column (White) --------------------------------
def test_squ_11_sweep_letter_names_the_line() -> None:
    m = move("B[sweep-c]")
    assert (m.line, m.sgf_value()) == (2, "sweep-c")
    engine = position("...", "...", "WWW")
    assert engine.play(m).swept == ("row", 2)
    err = refused(position("...", "...", "...", to_move=W), move("W[sweep-c]"))
    assert str(err) == "column c is not entirely filled with enemy stones (SQU-4)"


# -- README: turns and the order of the checks -------------------------------------------------------------------
def test_gen_5_wrong_colour_is_refused() -> None:
    err = refused(SquerEngine(4), move("W[aa]"))
    assert (err.code, err.rule, err.message) == ("wrong-turn", "GEN-5", "Black to move, not White")
    err = refused(game(4, "B[aa]"), move("B[bb]"))
    assert err.message == "White to move, not Black"


def test_checks_come_in_order_end_kind_turn() -> None:
    assert refused(game(2, "B[aa] W[ba] B[ab] W[bb]"), Move(W, MoveKind.PASS)).code == "after-end"
    assert refused(SquerEngine(4), Move(W, MoveKind.SWAP)).code == "kind-not-allowed"
    assert refused(game(4, "B[aa]"), move("B[aa]")).code == "wrong-turn"


# -- properties of random legal games ----------------------------------------------------------------------------
def _codes(engine: SquerEngine) -> list[int]:
    return [0 if v is None else (BLACK if v is B else WHITE) for row in engine.rows() for v in row]


def _illegal_moves(engine: SquerEngine, rng: random.Random) -> list[Move]:
    me = engine.to_move
    n = engine.size
    cells = [(c, r) for r in range(n) for c in range(n)]
    occupied = [p for p in cells if engine.stone(p) is not None]
    empty = [p for p in cells if engine.stone(p) is None]
    sweeps = {m.line for m in engine.legal_moves() if m.kind is MoveKind.SWEEP}
    out = [Move(me, MoveKind.PASS), Move(me, MoveKind.SWAP),
           Move(me, MoveKind.SWEEP, line=rng.choice([k for k in range(n + 1) if k not in sweeps]))]
    if occupied:
        out.append(Move(me, MoveKind.PLACE, rng.choice(occupied)))
    if empty:
        out.append(Move(me.other, MoveKind.PLACE, rng.choice(empty)))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.sampled_from([2, 3, 4, 5, 7]), seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_are_atomic_and_end_properly(size: int, seed: int) -> None:
    rng = random.Random(seed)
    engine = SquerEngine(size)
    for turn in range(size * size + 2 * size + 1):  # a maneuver fills a point, each sweep is once per line
        legal = engine.legal_moves()
        if engine.end is not None:
            break
        assert legal, "a player without a legal action means the game has ended (SQU-7, SQU-9)"
        assert engine.turn == turn
        if rng.random() < 0.3:
            for bad in _illegal_moves(engine, rng):
                refused(engine, bad)
        m = rng.choice(legal)
        me = engine.to_move
        before = engine.rows()
        change = engine.play(m)
        after = engine.rows()
        assert engine.turn == turn + 1
        changed = {(c, r) for r in range(size) for c in range(size) if before[r][c] != after[r][c]}
        assert changed == set(change.placed) | set(change.flipped)
        for c, r in change.flipped:  # SQU-8: only enemy stones flip, and only to the mover's colour
            assert (before[r][c], after[r][c]) == (me.other, me)
        if m.kind is MoveKind.PLACE:
            assert change.placed == (m.point,) and before[m.point[1]][m.point[0]] is None and change.swept is None
        else:
            assert change.swept == ("row" if me is B else "column", m.line) and m.line in engine.swept_lines(me)
        # SQU-6: the engine's shortcuts agree with a full search of the player to move's chain.
        nxt = engine.to_move
        if has_chain(_codes(engine), size, BLACK if nxt is B else WHITE):
            assert engine.end is not None and (engine.end.winner, engine.end.reason) == (nxt, START)
        # Why SQU-9 is never reached from the empty board: play never leaves a 2x2 chequer, so a full board holds
        # a chain (README: a top-bottom or left-right path must exist on a full board up to diagonal steps).
        for r in range(size - 1):
            for c in range(size - 1):
                a, b, d, e = after[r][c], after[r][c + 1], after[r + 1][c], after[r + 1][c + 1]
                assert not (a is not None and a == e and b == d and b == a.other)
    end = engine.outcome()
    assert end.finished and engine.legal_moves() == []
    assert end.method is ResultMethod.CHAIN and end.reason in (START, END)
    assert has_chain(_codes(engine), size, BLACK if end.winner is B else WHITE)
    for bad in _illegal_moves(engine, rng):
        assert refused(engine, bad).code == "after-end"
