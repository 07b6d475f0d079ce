"""`Move.parse`: a move from the text players write (GEN-10), the same Move that reading its value from a file gives."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardrecords.records.games import SPECS, Game, MoveKind
from boardrecords.records.model import Colour, Move
from boardrecords.records.notation import Notation, NotationError, PointNames, point_name
from boardrecords.records.reader import read_bytes

Case = tuple[Game, int, tuple[int, int]]


@st.composite
def board_points(draw: st.DrawFn) -> Case:
    game = draw(st.sampled_from(list(Game)))
    spec = SPECS[game]
    size = draw(st.integers(spec.min_size, spec.max_size))
    point = (draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1)))
    return game, size, point


@given(board_points(), st.sampled_from(list(Notation)), st.sampled_from(list(Colour)))
def test_every_point_name_parses_back_to_its_point(case: Case, notation: Notation, colour: Colour) -> None:
    game, size, point = case
    move = Move.parse(point_name(point, game, size, notation), game, size, colour)
    assert (move.kind, move.point, move.colour) == (MoveKind.PLACE, point, colour)


@given(board_points())
def test_a_parsed_move_is_the_move_its_value_reads_as(case: Case) -> None:
    game, size, point = case
    move = Move.parse(point_name(point, game, size), game.value, size, Colour.WHITE)
    text = f"(;GM[{SPECS[game].gm_value}]SZ[{size}];W[{move.sgf_value()}])".encode()
    (record,) = read_bytes(text)
    assert record.moves() == [move]


@st.composite
def board_moves(draw: st.DrawFn) -> tuple[Game, int, Move]:
    """Any move of a kind its game has, well formed for its board."""
    game, size, point = draw(board_points())
    colour = draw(st.sampled_from(list(Colour)))
    other = (draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1)))
    kind = draw(st.sampled_from(sorted(SPECS[game].kinds)))
    move = {
        MoveKind.PLACE: Move(colour, kind, point),
        MoveKind.RELOCATE: Move(colour, kind, point, other),
        MoveKind.REMOVE: Move(colour, kind, point),
        MoveKind.SWEEP: Move(colour, kind, line=point[0]),
    }.get(kind, Move(colour, kind))
    return game, size, move


@given(board_moves(), st.sampled_from(list(Notation)))
def test_every_move_as_a_display_shows_it_parses_back(case: tuple[Game, int, Move], notation: Notation) -> None:
    game, size, move = case
    shown = PointNames(game, size, notation).move(move)
    parsed = Move.parse(shown, game, size, move.colour)
    assert (parsed.kind, parsed.point, parsed.target, parsed.line) == (move.kind, move.point, move.target, move.line)
    assert parsed.sgf_value() == move.sgf_value()


@pytest.mark.parametrize(("text", "game", "size", "colour", "value"), [
    ("Q16", Game.GO, 19, Colour.BLACK, "pd"),
    ("q16", Game.GO, 19, Colour.BLACK, "pd"),
    ("pd", Game.GO, 19, Colour.BLACK, "pd"),
    ("K10", Game.CONVERSION_GO, 19, Colour.WHITE, "jj"),
    ("pass", Game.GO, 19, Colour.WHITE, ""),
    ("", Game.GO, 19, Colour.WHITE, ""),
    ("swap", Game.CONVERSION_GO, 16, Colour.WHITE, "swap-sides"),
    ("d3", Game.CATION, 5, Colour.BLACK, "dc"),
    ("D3", Game.QUENTIN, 5, Colour.BLACK, "dc"),
    ("d3-e1", Game.CATION, 5, Colour.BLACK, "dc-ee"),
    ("d3-", Game.CATION, 5, Colour.WHITE, "dc-"),
    ("sweep-3", Game.SQUER, 5, Colour.BLACK, "sweep-c"),
    ("sweep-c", Game.SQUER, 5, Colour.WHITE, "sweep-c"),
    ("resign", Game.SQUER, 5, Colour.WHITE, "resign"),
])
def test_moves_as_players_write_them(text: str, game: Game, size: int, colour: Colour, value: str) -> None:
    move = Move.parse(text, game, size, colour)
    assert move.sgf_value() == value and move.colour is colour
    assert str(move) == f"{colour.value}[{value}]"


def test_black_unless_told() -> None:
    assert Move.parse("Q16", "go", 19).colour is Colour.BLACK


def test_a_kind_the_game_lacks_is_the_verifiers_to_refuse() -> None:
    # As when it is read from a file: `swap-sides` is a swap in every game, and the Go engine refuses it.
    assert Move.parse("swap", Game.GO, 19).kind is MoveKind.SWAP


@pytest.mark.parametrize(("text", "game", "size", "words"), [
    ("Z99", Game.GO, 19, "not a point of a 19x19 Go board"),
    ("I5", Game.GO, 19, "no column I"),
    ("f1", Game.CATION, 5, "not a point of a 5x5 Cation board"),
    ("sweep-9", Game.SQUER, 5, "no row of a 5x5 board"),
    ("nonsense", Game.QUENTIN, 7, "cannot read .nonsense. as a point of a 7x7 Quentin board"),
])
def test_text_that_names_no_move_raises_the_notations_error(text: str, game: Game, size: int, words: str) -> None:
    with pytest.raises(NotationError, match=words):
        Move.parse(text, game, size)


def test_a_game_is_named_or_given() -> None:
    assert Move.parse("d3", "Cation", 5) == Move.parse("d3", Game.CATION, 5)
    with pytest.raises(ValueError, match="unknown game"):
        Move.parse("d3", "chess", 8)
