"""GEN-10: points shown in each game's customary notation (or SGF letters) and read back in either."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardrecords.records.games import SPECS, Game
from boardrecords.records.model import Colour
from boardrecords.records.notation import (
    Notation,
    NotationError,
    PointNames,
    column_name,
    notation_words,
    parse_move_text,
    parse_point_text,
    point_name,
)
from boardrecords.records.points import format_point, parse_point

GO_GAMES = (Game.GO, Game.CONVERSION_GO)
CONNECTION = (Game.CATION, Game.QUENTIN, Game.SQUER)


@st.composite
def board_points(draw: st.DrawFn) -> tuple[Game, int, tuple[int, int]]:
    game = draw(st.sampled_from(list(Game)))
    size = draw(st.integers(SPECS[game].min_size, 52))
    point = (draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1)))
    return game, size, point


@given(board_points())
def test_round_trip_customary(case: tuple[Game, int, tuple[int, int]]) -> None:
    game, size, point = case
    name = point_name(point, game, size)
    assert parse_point_text(name, game, size) == point
    assert parse_point_text(name.lower(), game, size) == point
    assert parse_point_text(name.upper(), game, size) == point


@given(board_points())
def test_round_trip_sgf(case: tuple[Game, int, tuple[int, int]]) -> None:
    game, size, point = case
    name = point_name(point, game, size, Notation.SGF)
    assert name == format_point(point)
    assert parse_point_text(name, game, size) == point


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.parametrize("size", range(2, 53))
def test_names_distinct_on_every_board(game: Game, size: int) -> None:
    names = {point_name((c, r), game, size) for c in range(size) for r in range(size)}
    assert len(names) == size * size
    assert all(any(ch.isdigit() for ch in n) for n in names)  # never mistaken for SGF letters


@pytest.mark.parametrize(("sgf", "size", "name"), [
    ("pd", 19, "Q16"), ("aa", 19, "A19"), ("sa", 19, "T19"), ("as", 19, "A1"), ("ss", 19, "T1"),
    ("dp", 19, "D4"), ("jj", 19, "K10"), ("ij", 19, "J10"), ("hh", 9, "H2"), ("ii", 9, "J1"),
    ("dd", 16, "D13"),
])
@pytest.mark.parametrize("game", GO_GAMES)
def test_go_known_values(game: Game, sgf: str, size: int, name: str) -> None:
    point = parse_point(sgf)
    assert point is not None
    assert point_name(point, game, size) == name
    assert parse_point_text(name, game, size) == point
    assert parse_point_text(name.lower(), game, size) == point


@pytest.mark.parametrize(("sgf", "size", "name"), [
    ("dc", 5, "d3"), ("aa", 5, "a5"), ("ae", 5, "a1"), ("ee", 5, "e1"), ("ea", 5, "e5"), ("cc", 3, "c1"),
    ("aa", 11, "a11"),
])
@pytest.mark.parametrize("game", CONNECTION)
def test_connection_known_values(game: Game, sgf: str, size: int, name: str) -> None:
    point = parse_point(sgf)
    assert point is not None
    assert point_name(point, game, size) == name
    assert parse_point_text(name.upper(), game, size) == point


def test_large_boards_continue_with_two_letters() -> None:
    go = [column_name(i, Game.GO) for i in range(52)]
    assert "I" not in go and all("I" not in c for c in go)
    assert go[7:9] == ["H", "J"] and go[24] == "Z" and go[25] == "AA" and go[32:34] == ["AH", "AJ"]
    assert go[49] == "AZ" and go[50:] == ["BA", "BB"]
    a1 = [column_name(i, Game.CATION) for i in range(52)]
    assert a1[25] == "z" and a1[26] == "aa" and a1[51] == "az"
    assert point_name((51, 0), Game.GO, 52) == "BB52"
    assert point_name((26, 51), Game.SQUER, 52) == "aa1"
    assert parse_point_text("bb52", Game.GO, 52) == (51, 0)
    assert parse_point_text("AA1", Game.SQUER, 52) == (26, 51)
    # SGF letters stay case-sensitive: AA is column 26 and row 26.
    assert parse_point_text("AA", Game.SQUER, 52) == (26, 26)


@pytest.mark.parametrize(("text", "game", "size", "words"), [
    ("I5", Game.GO, 19, "no column I"),
    ("Z99", Game.GO, 19, "Q16"),
    ("U1", Game.GO, 19, "columns A..T without I"),
    ("A20", Game.GO, 19, "rows 1..19"),
    ("f1", Game.CATION, 5, "columns a..e"),
    ("tt", Game.GO, 19, "SGF letters such as pd"),
    ("q-16", Game.GO, 19, "cannot read"),
    ("", Game.QUENTIN, 7, "cannot read"),
])
def test_errors_say_what_was_expected(text: str, game: Game, size: int, words: str) -> None:
    with pytest.raises(NotationError, match=words.replace(".", r"\.")):
        parse_point_text(text, game, size)


def test_moves_typed_in_either_notation() -> None:
    assert parse_move_text("Q16", Game.GO, 19) == "pd"
    assert parse_move_text("pd", Game.GO, 19) == "pd"
    assert parse_move_text("pass", Game.GO, 19) == ""
    assert parse_move_text("Swap", Game.QUENTIN, 5) == "swap-sides"
    assert parse_move_text("swap-sides", Game.CATION, 5) == "swap-sides"
    assert parse_move_text("resign", Game.CATION, 5) == "resign"
    assert parse_move_text("d3-e1", Game.CATION, 5) == "dc-ee"
    assert parse_move_text("dc-ee", Game.CATION, 5) == "dc-ee"
    assert parse_move_text("d3-", Game.CATION, 5) == "dc-"
    # Black sweeps a row (a number, or its SGF letter), White a column (its letter).
    assert parse_move_text("sweep-3", Game.SQUER, 5, Colour.BLACK) == "sweep-c"
    assert parse_move_text("sweep-c", Game.SQUER, 5, Colour.BLACK) == "sweep-c"
    assert parse_move_text("sweep-c", Game.SQUER, 5, Colour.WHITE) == "sweep-c"
    assert parse_move_text("sweep-aa", Game.SQUER, 30, Colour.WHITE) == "sweep-A"
    with pytest.raises(NotationError, match="no row"):
        parse_move_text("sweep-9", Game.SQUER, 5, Colour.BLACK)


def test_point_names_object() -> None:
    names = PointNames(Game.SQUER, 5)
    assert names((3, 2)) == "d3"
    assert names.line("row", 2) == "row 3"
    assert names.line("column", 2) == "column c"
    sgf = PointNames(Game.SQUER, 5, Notation.SGF)
    assert sgf((3, 2)) == "dc" and sgf.line("row", 2) == "row c"
    # Off the board there is no customary name: SGF letters.
    assert names((7, 1)) == "hb"


def test_words_say_the_notation() -> None:
    assert notation_words(Game.GO, 19) == "Points: Go coordinates, A..T (no I) left to right, 1..19 bottom to top"
    assert notation_words(Game.CATION, 5) == "Points: a1-style, a..e left to right, 1..5 bottom to top"
    assert notation_words(Game.GO, 9, Notation.SGF).startswith("Points: SGF letters")


# -- engine messages ---------------------------------------------------------------------------------------------

def _verdict(text: str, notation: Notation = Notation.CUSTOMARY):  # type: ignore[no-untyped-def]
    from boardrecords.records.reader import read_bytes
    from boardrecords.verifier.judging.verdict import verify

    return verify(read_bytes(text.encode())[0], notation=notation)


def test_engine_messages_use_the_customary_notation_by_default() -> None:
    go = _verdict("(;GM[1]SZ[19];B[pd];W[pd])")
    assert go.first_error is not None
    assert go.first_error.message == "Q16 is occupied"
    assert go.first_error.point == "pd"  # machines keep SGF letters
    assert go.to_json()["problems"][0]["point"] == "pd"
    cation = _verdict("(;GM[Cation]SZ[5];B[dc];W[dc])")
    assert cation.first_error is not None and cation.first_error.message == "d3: the point is occupied"


def test_engine_messages_in_sgf_letters_on_request() -> None:
    go = _verdict("(;GM[1]SZ[19];B[pd];W[pd])", Notation.SGF)
    assert go.first_error is not None and go.first_error.message == "pd is occupied"
    squer = _verdict("(;GM[Squer]SZ[3];B[ab];W[bb];B[cb];W[sweep-b])", Notation.SGF)
    assert squer.first_error is not None
    assert squer.first_error.message == "column b is not entirely filled with enemy stones"
    squer_c = _verdict("(;GM[Squer]SZ[3];B[ba];W[ab];B[sweep-b])")
    assert squer_c.first_error is not None
    assert squer_c.first_error.message == "row 2 is not entirely filled with enemy stones"


@pytest.mark.parametrize("game", list(Game))
def test_every_engine_takes_the_notation(game: Game) -> None:
    from boardrecords.verifier.rules.registry import engine_for

    engine = engine_for(game)(5, notation=Notation.SGF)
    assert engine.names((3, 2)) == "dc"
    assert engine_for(game)(5).names((3, 2)) == ("D3" if game in GO_GAMES else "d3")
