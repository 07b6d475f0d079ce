"""Position keys: transpositions, symmetries, the colour to move, the connection games' edges, and (hypothesis)
the key kept move by move equals the key of the same position set up directly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import Game, MoveKind
from boardrecords.records.model import Colour
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.keys.position_keys import SWAP_TURN, key_of_board, positions
from boardrecords.verifier.keys.symmetry import all_symmetries
from boardrecords.verifier.rules.registry import engine_for

GM = {Game.GO: "1", Game.CONVERSION_GO: "ConversionGo", Game.CATION: "Cation", Game.QUENTIN: "Quentin",
      Game.SQUER: "Squer"}


def record(moves: str, game: Game = Game.GO, size: int = 9):
    return read_bytes(f"(;GM[{GM[game]}]SZ[{size}]{moves})".encode())[0]


def last_key(moves: str, game: Game = Game.GO, size: int = 9) -> int:
    return positions(record(moves, game, size))[-1].key


def transformed(moves: str, number: int, size: int) -> str:
    sym = all_symmetries(size)[number]
    out = []
    for part in moves.split(";"):
        if not part:
            continue
        colour, value = part[0], part[2:-1]
        if len(value) == 2:
            c, r = sym.point((ord(value[0]) - 97, ord(value[1]) - 97))
            value = chr(97 + c) + chr(97 + r)
        out.append(f";{colour}[{value}]")
    return "".join(out)


def test_transpositions_give_one_key() -> None:
    assert last_key(";B[cc];W[gg];B[cg];W[gc]") == last_key(";B[cg];W[gc];B[cc];W[gg]")


def test_every_symmetry_of_the_square_in_go() -> None:
    moves = ";B[cd];W[ef];B[dg];W[bb]"
    key = last_key(moves)
    for number in range(8):
        assert last_key(transformed(moves, number, 9)) == key, number


def test_colour_to_move_is_in_the_key() -> None:
    # The same stones, Black to move after a White pass, White to move otherwise.
    assert last_key(";B[cc];W[gg];B[cg]") != last_key(";B[cc];W[gg];B[cg];W[]")
    assert last_key(";B[cc];W[gg];B[cg]") == last_key(";B[cc];W[gg];B[cg];W[];B[]")
    assert last_key(";B[cc];W[gg]") != last_key(";B[cc];W[gg];B[]")


def test_connection_games_merge_only_edge_keeping_symmetries() -> None:
    moves = ";B[bc];W[dd]"
    key = last_key(moves, Game.QUENTIN, 7)
    for number in range(4):
        assert last_key(transformed(moves, number, 7), Game.QUENTIN, 7) == key, number
    for number in range(4, 8):  # a quarter turn or a diagonal mirror hands Black's rows to White
        assert last_key(transformed(moves, number, 7), Game.QUENTIN, 7) != key, number


def test_games_and_sizes_never_share_keys() -> None:
    assert last_key(";B[cc]", Game.GO, 9) != last_key(";B[cc]", Game.GO, 11)
    assert last_key(";B[cc]", Game.QUENTIN, 9) != last_key(";B[cc]", Game.CATION, 9)


def test_the_swap_keeps_the_stones_but_not_the_phase() -> None:
    # After B[cc] White may swap; after the swap the same stones with White to move are another position.
    before = positions(record(";B[cc]", Game.CATION, 6))[-1].key
    after = positions(record(";B[cc];W[swap]", Game.CATION, 6))[-1].key
    assert before != after
    # Once the swap turn has passed, swapped and unswapped games with the same stones and mover merge.
    a = last_key(";B[cc];W[swap];W[dd];B[ee]", Game.CATION, 6)
    b = last_key(";B[cc];W[dd];B[ee]", Game.CATION, 6)
    assert a == b


def test_a_refused_move_adds_nothing() -> None:
    found = positions(record(";B[cc];W[cc];B[dd]"))
    assert [p.ply for p in found] == [0, 1]
    assert found[0].next_text is not None and found[1].next_text is None


def test_next_move_is_stored_in_the_key_frame() -> None:
    a = positions(record(";B[cd];W[ef];B[dg]"))
    b = positions(record(transformed(";B[cd];W[ef];B[dg]", 5, 9)))
    assert [p.key for p in a] == [p.key for p in b]
    assert [p.next_text for p in a] == [p.next_text for p in b]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(Game.GO, 7), (Game.CONVERSION_GO, 6), (Game.CATION, 5), (Game.QUENTIN, 5),
                        (Game.SQUER, 5)]), st.lists(st.integers(0, 10_000), max_size=30))
def test_incremental_key_equals_the_key_set_up_directly(case, choices) -> None:
    game, size = case
    engine = engine_for(game)(size)
    moves = []
    for choice in choices:
        legal = [m for m in engine.legal_moves() if m.kind is not MoveKind.RESIGN]
        if not legal:
            break
        move = legal[choice % len(legal)]
        engine.play(move)
        moves.append(move)
    rec = record("".join(f";{m}" for m in moves), game, size)
    run = Replay(rec)
    for step in run:
        assert step.illegal is None
    found = positions(rec)
    assert len(found) == len(moves) + 1
    e = run.engine
    stones = {(c, r): s for r, row in enumerate(e.rows()) for c, s in enumerate(row) if s is not None}
    swap_turn = SWAP_TURN.get(game)
    phase = e.turn if swap_turn is not None and not e.swapped and e.turn <= swap_turn else None
    key, frames = key_of_board(game, size, stones, e.to_move, phase)
    assert found[-1].key == key
    assert found[-1].frames == frames
    assert Colour  # the colours of the stones come from the engine
