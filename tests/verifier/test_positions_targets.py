"""Positions asked for by moves typed in (verifier/keys/targets.py): each move is made by the colour the game's rules
give the turn, in every game; a colour written before a move is kept."""

from __future__ import annotations

import pytest

from boardrecords.records.games import Game
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.verdict import verify
from boardrecords.verifier.keys.targets import PositionError, moves_record_bytes, target_of_moves


@pytest.mark.parametrize(("game", "size", "moves", "record"), [
    (Game.GO, 9, "ee,cc,pass,gg", "(;GM[1]SZ[9];B[ee];W[cc];B[];W[gg])"),
    (Game.CATION, 5, "cc swap dd ee", "(;GM[Cation]SZ[5];B[cc];W[swap-sides];W[dd];B[ee])"),
    (Game.QUENTIN, 5, "cc,swap,dd", "(;GM[Quentin]SZ[5];B[cc];W[swap-sides];W[dd])"),
    (Game.SQUER, 5, "cc,dd,ee", "(;GM[Squer]SZ[5];B[cc];W[dd];B[ee])"),
    # CON-5: turns 1-3 are two Black moves and a White one in any order, turn 4 is White's (a move or the swap).
    (Game.CONVERSION_GO, 6, "cc dd ee ff bb", "(;GM[ConversionGo]SZ[6];B[cc];B[dd];W[ee];W[ff];B[bb])"),
    (Game.CONVERSION_GO, 6, "W:cc dd ee ff", "(;GM[ConversionGo]SZ[6];W[cc];B[dd];B[ee];W[ff])"),
    (Game.CONVERSION_GO, 6, "cc W:dd ee swap", "(;GM[ConversionGo]SZ[6];B[cc];W[dd];B[ee];W[swap-sides])"),
])
def test_each_move_is_made_by_the_colour_whose_turn_it_is(game: Game, size: int, moves: str, record: str) -> None:
    data = moves_record_bytes(moves, game, size)
    assert data.decode() == record
    assert verify(read_bytes(data, "moves")[0]).valid


def test_after_a_refused_move_the_colours_alternate_and_the_position_is_refused() -> None:
    data = moves_record_bytes("cc,cc,dd", Game.GO, 9)
    assert data.decode() == "(;GM[1]SZ[9];B[cc];W[cc];B[dd])"
    with pytest.raises(PositionError, match="move 2 is not legal"):
        target_of_moves("cc,cc,dd", Game.GO, 9)


def test_a_move_that_does_not_read_names_its_token() -> None:
    with pytest.raises(PositionError, match="'zz9'"):
        moves_record_bytes("cc zz9", Game.GO, 9)
