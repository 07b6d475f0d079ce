"""The conventions shared by the five games (rules/README.md GEN-1..7), each checked where it decides something:
points, adjacency, the connection games' edges and chains, players and colours, the pie swap. GEN-5 and GEN-8..10
have their own tests (engine, verdict and notation tests cite them)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardrecords.records.games import Game
from boardrecords.records.model import Colour
from boardrecords.records.notation import point_name
from boardrecords.records.points import format_point, parse_point
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.judging.verdict import Verdict, verify
from boardrecords.verifier.rules.chains import has_chain
from boardrecords.verifier.rules.engine import BLACK, EMPTY, WHITE


def verdict(text: str) -> Verdict:
    (record,) = read_bytes(text.encode(), "test.rec")
    return verify(record)


def board(size: int, black: tuple[str, ...] = (), white: tuple[str, ...] = ()) -> list[int]:
    cells = [EMPTY] * (size * size)
    for names, code in ((black, BLACK), (white, WHITE)):
        for name in names:
            point = parse_point(name)
            assert point is not None
            cells[point[1] * size + point[0]] = code
    return cells


def test_gen_1_a_point_is_column_then_row_from_the_top_left() -> None:
    assert parse_point("aa") == (0, 0)  # the top-left corner
    assert parse_point("ca") == (2, 0)  # column 2 of the top row
    assert parse_point("ac") == (0, 2)
    assert parse_point("Aa") == (26, 0) and parse_point("aZ") == (0, 51)
    assert all(format_point(parse_point(p) or (0, 0)) == p for p in ("aa", "ca", "sS", "Zz"))
    # Read from a record: B[ca] on a 5x5 Go board stands on column 2 of the top row, shown as C5 (GEN-10).
    v = verdict("(;GM[1]SZ[5];B[ca])")
    assert v.valid
    assert point_name((2, 0), Game.GO, 5) == "C5"
    assert point_name((2, 0), Game.QUENTIN, 5) == "c5"


def test_gen_2_adjacent_means_orthogonal_in_captures() -> None:
    # A white stone on bb with black stones on its four orthogonal neighbours is captured by the fourth.
    (record,) = read_bytes(b"(;GM[1]SZ[5];B[ba];W[bb];B[ab];W[dd];B[cb];W[de];B[bc])", "t.rec")
    steps = list(Replay(record))
    assert steps[-1].illegal is None and steps[-1].change.captured == ((1, 1),)
    # Surrounded on its four diagonals only, it keeps its liberties: nothing is captured.
    (record,) = read_bytes(b"(;GM[1]SZ[5];B[aa];W[bb];B[ca];W[dd];B[ac];W[de];B[cc])", "t.rec")
    assert not any(s.change.captured for s in Replay(record))


def test_gen_2_a_diagonal_step_does_not_join_a_chain() -> None:
    # Black's stones on a diagonal touch the top and the bottom row, but no two are orthogonal neighbours.
    assert not has_chain(board(3, black=("aa", "bb", "cc")), 3, BLACK)
    assert has_chain(board(3, black=("aa", "ab", "bb", "bc")), 3, BLACK)


def test_gen_3_top_and_bottom_are_blacks_edges_left_and_right_whites() -> None:
    column = board(5, black=("ca", "cb", "cc", "cd", "ce"))  # joins row 0 to row 4
    row = board(5, black=("ac", "bc", "cc", "dc", "ec"))  # joins column 0 to column 4
    assert has_chain(column, 5, BLACK) and not has_chain(row, 5, BLACK)
    white_row = board(5, white=("ac", "bc", "cc", "dc", "ec"))
    white_column = board(5, white=("ca", "cb", "cc", "cd", "ce"))
    assert has_chain(white_row, 5, WHITE) and not has_chain(white_column, 5, WHITE)


@given(st.integers(min_value=2, max_value=8).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.sampled_from((EMPTY, BLACK, WHITE)), min_size=n * n,
                                             max_size=n * n))))
def test_gen_4_black_and_white_never_both_have_a_chain(case: tuple[int, list[int]]) -> None:
    size, cells = case
    assert not (has_chain(cells, size, BLACK) and has_chain(cells, size, WHITE))


@pytest.mark.parametrize("game", ["Cation", "Quentin", "Squer"])
def test_gen_4_a_completed_chain_ends_the_game_for_its_colour(game: str) -> None:
    # Black builds column c from the top row to the bottom row of a 3x3 board; White plays along column a. (Squer:
    # the chain wins at the start of Black's next turn, SQU-6, so White moves once more.)
    v = verdict(f"(;GM[{game}]SZ[3]RE[B+];B[ca];W[ab];B[cb];W[aa];B[cc])" if game != "Squer" else
                f"(;GM[{game}]SZ[3]RE[B+];B[ca];W[ab];B[cb];W[aa];B[cc];W[ba])")
    assert v.valid, v.first_error
    assert v.winner_colour is Colour.BLACK and v.agrees is True


def test_gen_6_pb_and_pw_hold_black_and_white_from_the_start() -> None:
    v = verdict("(;GM[Quentin]SZ[5]PB[Ann]PW[Bo]RE[W+R];B[cc];W[dd];B[resign])")
    assert v.valid and not v.swapped
    assert (v.black_player, v.white_player) == ("Ann", "Bo")
    assert v.winner_colour is Colour.WHITE and v.winner_player == "Bo"


@pytest.mark.parametrize("game, size, first", [("Cation", 5, "B[cc]"), ("Quentin", 5, "B[cc]"),
                                                ("Conversion Go", 9, "B[cc];W[gg];B[gc]")])
def test_gen_7_the_swap_exchanges_the_players_and_keeps_the_stones(game: str, size: int, first: str) -> None:
    gm = "ConversionGo" if game == "Conversion Go" else game
    v = verdict(f"(;GM[{gm}]SZ[{size}]PB[Ann]PW[Bo]RE[B+R];{first};W[swap-sides];W[dd];W[resign])")
    assert v.valid, v.first_error
    assert v.swapped
    # Bo took Black with the swap; Ann, now White, resigned: Bo won with Black.
    assert (v.black_player, v.white_player) == ("Bo", "Ann")
    assert v.winner_player == "Bo"
    # After the swap the turn passes to the other player, who now holds White: a Black move there is refused.
    wrong = verdict(f"(;GM[{gm}]SZ[{size}];{first};W[swap-sides];B[dd])")
    assert not wrong.valid and wrong.first_error is not None
    assert (wrong.first_error.move, wrong.first_error.rule) == (first.count(";") + 3, "GEN-5")


@pytest.mark.parametrize("gm", ["1", "Squer"])
def test_gen_7_there_is_no_swap_in_go_or_squer(gm: str) -> None:
    v = verdict(f"(;GM[{gm}]SZ[5];B[cc];W[swap-sides])")
    assert not v.valid and v.first_error is not None and v.first_error.move == 2
