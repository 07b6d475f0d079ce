"""The Quentin engine against rules/quentin.md: one test (at least) per clarification QUE-1..QUE-8, built from short
explicit sequences, and hypothesis properties checked against a naive reference written from the rule text."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrecords.records.games import Game, MoveKind
from boardrecords.records.model import Colour, Move, ResultMethod
from boardrecords.records.notation import point_name
from boardrecords.records.points import parse_point
from boardrecords.verifier.rules.chains import has_chain
from boardrecords.verifier.rules.engine import BLACK, EMPTY, WHITE, Change, IllegalMove
from boardrecords.verifier.rules.quentin import QuentinEngine

B, W = Colour.BLACK, Colour.WHITE


# -- helpers ---------------------------------------------------------------------------------------------------
def mv(token: str) -> Move:
    """`B[dc]`, `W[]`, `W[swap-sides]` -> Move."""
    colour, value = Colour(token[0]), token[2:-1]
    if value == "":
        return Move(colour, MoveKind.PASS)
    if value in ("swap", "swap-sides"):
        return Move(colour, MoveKind.SWAP)
    point = parse_point(value)
    assert point is not None, token
    return Move(colour, MoveKind.PLACE, point=point)


def play(size: int, tokens: str) -> tuple[QuentinEngine, list[Change]]:
    engine = QuentinEngine(size)
    changes = [engine.play(mv(t)) for t in tokens.split()]
    return engine, changes


def picture(engine: QuentinEngine) -> list[str]:
    return ["".join("." if s is None else s.value for s in row) for row in engine.rows()]


def state(engine: QuentinEngine) -> tuple:
    return (engine.rows(), engine.turn, engine.swapped, engine.end, engine.to_move)


def assert_illegal(engine: QuentinEngine, token: str, code: str, rule: str) -> IllegalMove:
    before = state(engine)
    with pytest.raises(IllegalMove) as info:
        engine.play(mv(token))
    assert (info.value.code, info.value.rule) == (code, rule), info.value
    assert state(engine) == before  # play is atomic
    return info.value


def pts(*names: str) -> set:
    return {parse_point(n) for n in names}


# -- QUE-1 board ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [3, 52])
def test_QUE_1_smallest_and_largest_boards(size: int) -> None:
    engine = QuentinEngine(size)
    corner = (size - 1, size - 1)
    change = engine.play(Move(B, MoveKind.PLACE, point=corner))
    assert change.placed == (corner,)
    assert engine.stone(corner) is B
    assert len(engine.rows()) == size and all(len(r) == size for r in engine.rows())
    assert len(engine.legal_moves()) == size * size - 1 + 1  # every other point, and the swap (QUE-7)


def test_QUE_1_point_off_the_board_is_refused_without_damage() -> None:
    engine, _ = play(6, "B[aa]")
    before = state(engine)
    with pytest.raises(IllegalMove) as info:
        engine.play(Move(W, MoveKind.PLACE, point=(6, 0)))
    assert (info.value.code, info.value.rule) == ("off-board", "QUE-1")
    assert "ga" in info.value.message and "6x6" in info.value.message
    assert state(engine) == before


# -- QUE-2 placement --------------------------------------------------------------------------------------------
def test_QUE_2_places_one_stone_of_the_movers_colour() -> None:
    engine, changes = play(5, "B[cc] W[bd]")
    assert changes[1] == Change(placed=(parse_point("bd"),))
    assert engine.stone(parse_point("cc")) is B and engine.stone(parse_point("bd")) is W
    assert engine.turn == 2 and engine.to_move is B


def test_QUE_2_occupied_point_is_illegal() -> None:
    engine, _ = play(5, "B[cc]")
    err = assert_illegal(engine, "W[cc]", "occupied", "QUE-2")
    assert err.point == (2, 2) and err.message.startswith("c3:") and str(err).endswith("(QUE-2)")


def test_QUE_2_a_filled_point_is_occupied_too() -> None:
    engine, changes = play(4, "B[db] W[ca]")  # fills da (QUE-3)
    assert changes[1].filled == ((3, 0),)
    assert_illegal(engine, "B[da]", "occupied", "QUE-2")


# -- QUE-3 filling ----------------------------------------------------------------------------------------------
def test_QUE_3_tie_fills_with_the_colour_opposite_to_the_mover() -> None:
    # da (corner) touches ca (White, just played) and db (Black): one each, so it takes the mover's opponent's colour.
    engine, changes = play(4, "B[db] W[ca]")
    assert changes[1].placed == ((2, 0),) and changes[1].filled == ((3, 0),)
    assert engine.stone((3, 0)) is B
    # The same shape with Black moving last: the tie goes to White.
    engine, changes = play(4, "B[aa] W[ca] B[db]")
    assert changes[2].filled == ((3, 0),) and engine.stone((3, 0)) is W


def test_QUE_3_counts_distinct_stones_not_adjacencies() -> None:
    # After B[ba] the region ca, cb, db is a territory. Distinct stones around it: Black ba, cc, dc (3) against
    # White bb, da (2), so Black fills. Counting adjacencies would give 3 to 3 (da touches ca and db) and a tie,
    # which would fill White (the mover is Black).
    engine, changes = play(4, "B[dc] W[bb] B[cc] W[da] B[ba]")
    assert set(changes[-1].filled) == pts("ca", "cb", "db")
    assert all(engine.stone(p) is B for p in pts("ca", "cb", "db"))
    assert picture(engine) == [".BBW", ".WBB", "..BB", "...."]


def test_QUE_3_fills_every_territory_at_once() -> None:
    # W[bb] encloses both ba and ab (each between aa, bb and a Black stone): two territories, both White (2 to 1).
    engine, changes = play(4, "B[ca] W[aa] B[ac] W[bb]")
    assert set(changes[-1].filled) == pts("ba", "ab")
    assert picture(engine) == ["WWB.", "WW..", "B...", "...."]


def test_QUE_3_the_edge_is_not_a_stone_and_every_point_needs_two_stones() -> None:
    # aa has one stone beside it (ba) and the edge: not a territory, not filled.
    engine, changes = play(4, "B[ba] W[dd]")
    assert changes[0].filled == () and engine.stone((0, 0)) is None
    # ab and aa form a region; aa touches only ba, so even with ab between two stones nothing is filled.
    engine, changes = play(4, "B[ba] W[bb] B[ac]")
    assert changes[-1].filled == () and engine.stone((0, 1)) is None and engine.stone((0, 0)) is None


# -- QUE-4 diagonal rule -----------------------------------------------------------------------------------------
def test_QUE_4_diagonal_pair_without_common_like_neighbour_is_illegal() -> None:
    engine, _ = play(5, "B[bb] W[dd]")
    err = assert_illegal(engine, "B[cc]", "diagonal", "QUE-4")
    assert err.point == (2, 2) and "b4 and c3" in err.message and str(err).endswith("(QUE-4)")  # bb, cc
    engine.play(mv("B[cb]"))  # cb then joins them: bb-cb-cc is fine afterwards
    engine.play(mv("W[ae]"))
    engine.play(mv("B[cc]"))
    assert engine.stone((2, 2)) is B


def test_QUE_4_filling_can_repair_a_bad_pair() -> None:
    # B[ca] is diagonal to db with both common points (da, cb) empty; but da is then a territory between ca and db,
    # filled Black, which gives the pair its common neighbour. The rule is checked after filling: legal.
    engine, changes = play(4, "B[db] W[cc] B[ca]")
    assert changes[-1].filled == ((3, 0),)
    assert engine.stone((3, 0)) is B


def test_QUE_4_filling_that_does_not_repair_leaves_the_move_illegal() -> None:
    # W[cc] is diagonal to bb. Their common point bc becomes a territory (ac, bd Black; bb, cc White); on the 2-2 tie
    # it is filled Black (the mover is White), so bb-cc still has no White common neighbour (bc Black, cb empty)
    # where a White fill would have repaired it. Illegal, and the filled stone does not stay.
    # (A filling can only break a pair the placed stone already breaks: the two pairs of a crosscut share their
    # common points, and the board obeys QUE-4 at the start of every turn.)
    engine, _ = play(4, "B[ac] W[bb] B[bd]")
    err = assert_illegal(engine, "W[cc]", "diagonal", "QUE-4")
    assert "b3 and c2" in err.message  # bb, cc on 4x4
    assert engine.stone((1, 2)) is None


def test_QUE_4_conformance_shape_fill_then_still_broken() -> None:
    # quentin-7602-5 move 19: B[cb] fills a territory and still breaks the rule with dc.
    seq = ("B[de] W[bf] B[ff] W[cd] B[dc] W[ae] B[bd] W[ce] B[fa] W[bb] B[ba] W[ed] B[ea] W[df] B[fe] W[db] B[ad] "
           "W[fd]")
    engine, _ = play(6, seq)
    err = assert_illegal(engine, "B[cb]", "diagonal", "QUE-4")
    assert "c5 and d4" in err.message  # cb, dc on 6x6


# -- QUE-5 pass -------------------------------------------------------------------------------------------------
FORCED_PASS = ("B[da] W[ed] B[ee] W[ea] B[cd] W[cc] B[aa] W[bf] B[af] W[fb] B[ca] W[ba] B[ac] W[eb] B[ae] W[ad] "
               "B[ce] W[ec] B[fe] W[ef] B[de] W[dc] B[db]")


def test_QUE_5_pass_is_illegal_while_a_placement_is_legal() -> None:
    engine = QuentinEngine(5)
    err = assert_illegal(engine, "B[]", "pass-not-allowed", "QUE-5")
    assert str(err).endswith("(QUE-5)") and "e.g. a5" in err.message  # names a legal placement (aa)
    engine, _ = play(6, "B[cc]")
    assert_illegal(engine, "W[]", "pass-not-allowed", "QUE-5")  # the swap would not count either


def test_QUE_5_forced_pass_is_legal_and_is_a_turn() -> None:
    # 6x6 after 23 moves: White's every placement breaks the diagonal rule after filling.
    engine, _ = play(6, FORCED_PASS)
    assert engine.to_move is W and engine.end is None
    assert engine.legal_moves() == [Move(W, MoveKind.PASS)]
    for name in ("ab", "bb", "cb", "bc", "bd", "be"):
        assert_illegal(engine, f"W[{name}]", "diagonal", "QUE-4")
    change = engine.play(mv("W[]"))
    assert change == Change()
    assert engine.turn == 24 and engine.to_move is B
    assert any(m.kind is MoveKind.PLACE for m in engine.legal_moves())
    assert_illegal(engine, "B[]", "pass-not-allowed", "QUE-5")


# -- QUE-6 end --------------------------------------------------------------------------------------------------
def test_QUE_6_chain_ends_the_game_for_the_mover() -> None:
    # W[da] fills ca, completing White's row from column a to column d.
    engine, changes = play(4, "B[cb] W[ba] B[ab] W[da]")
    assert changes[-1].filled == ((2, 0),)
    assert engine.end is not None and engine.end.finished
    assert (engine.end.method, engine.end.winner, engine.end.reason) == (ResultMethod.CHAIN, W, "chain (QUE-6)")
    assert engine.outcome().text() == "W+"
    assert engine.legal_moves() == []


def test_QUE_6_chain_completed_by_a_fill_on_the_opponents_turn() -> None:
    # W[ba] makes aa a 1-1 territory, filled Black (opposite to the mover): Black's column a is complete. Black wins
    # on White's move.
    engine, changes = play(4, "B[ab] W[bc] B[ad] W[ba]")
    assert changes[-1].filled == ((0, 0),)
    assert engine.end is not None and engine.end.winner is B and engine.end.reason == "chain (QUE-6)"
    assert engine.outcome().text() == "B+"


def test_QUE_6_moves_after_the_end_are_errors() -> None:
    engine, _ = play(4, "B[ab] W[bc] B[ad] W[ba]")
    for token in ("B[dd]", "W[dd]", "B[]", "W[swap-sides]", "B[ab]"):
        err = assert_illegal(engine, token, "after-end", "QUE-6")
        assert err.message == "move after the end of the game"


def test_QUE_6_no_end_without_a_chain() -> None:
    engine, _ = play(4, "B[aa] W[ba] B[ab] W[bb] B[ac]")  # Black has rows 0..2 of column a, not row 3
    assert engine.end is None and engine.outcome().text() == "?"


# -- QUE-7 pie swap ---------------------------------------------------------------------------------------------
def test_QUE_7_swap_on_turn_two_exchanges_players_not_stones() -> None:
    engine, changes = play(5, "B[cc] W[swap-sides]")
    assert changes[-1] == Change(swapped=True)
    assert engine.swapped and engine.turn == 2
    assert engine.stone((2, 2)) is B  # the stones stay
    assert engine.to_move is W  # the other player, now holding White, moves next
    assert engine.colour_of_player(0) is W and engine.colour_of_player(1) is B
    assert engine.player_to_move == 0
    engine.play(mv("W[bb]"))
    assert engine.to_move is B
    assert_illegal(engine, "W[dd]", "wrong-turn", "GEN-5")


def test_QUE_7_swap_is_listed_only_on_turn_two() -> None:
    engine = QuentinEngine(4)
    assert Move(B, MoveKind.SWAP) not in engine.legal_moves()
    engine.play(mv("B[bb]"))
    assert Move(W, MoveKind.SWAP) in engine.legal_moves()
    engine.play(mv("W[cc]"))
    assert all(m.kind is MoveKind.PLACE for m in engine.legal_moves())


def test_QUE_7_swap_on_any_other_turn_is_illegal() -> None:
    err = assert_illegal(QuentinEngine(5), "B[swap-sides]", "swap-not-allowed", "QUE-7")
    assert str(err) == "swap only on turn 2, not turn 1 (QUE-7)"
    engine, _ = play(8, "B[cg] W[ca] B[ff] W[ha] B[ab] W[fd] B[gh] W[hd]")
    err = assert_illegal(engine, "B[swap]", "swap-not-allowed", "QUE-7")
    assert str(err) == "swap only on turn 2, not turn 9 (QUE-7)"
    engine, _ = play(5, "B[cc] W[swap] W[aa]")
    assert_illegal(engine, "B[swap]", "swap-not-allowed", "QUE-7")  # no second swap


# -- QUE-8 notation: the move kinds ------------------------------------------------------------------------------
@pytest.mark.parametrize("move", [
    Move(B, MoveKind.SWEEP, line=2),
    Move(B, MoveKind.RELOCATE, point=(0, 0), target=(1, 1)),
    Move(B, MoveKind.REMOVE, point=(0, 0)),
])
def test_QUE_8_moves_quentin_does_not_have(move: Move) -> None:
    engine = QuentinEngine(5)
    with pytest.raises(IllegalMove) as info:
        engine.play(move)
    assert (info.value.code, info.value.rule) == ("kind-not-allowed", "QUE-8")
    assert engine.turn == 0 and picture(engine) == ["....."] * 5


def test_QUE_8_kind_is_checked_before_the_turn() -> None:
    engine = QuentinEngine(5)
    with pytest.raises(IllegalMove) as info:
        engine.play(Move(W, MoveKind.SWEEP, line=1))
    assert info.value.code == "kind-not-allowed"


# -- turns ------------------------------------------------------------------------------------------------------
def test_wrong_colour_is_refused_with_README_turns() -> None:
    engine, _ = play(5, "B[cc]")
    err = assert_illegal(engine, "B[dd]", "wrong-turn", "GEN-5")
    assert err.message == "White to move, not Black"
    err = assert_illegal(QuentinEngine(5), "W[dd]", "wrong-turn", "GEN-5")
    assert err.message == "Black to move, not White"


def test_order_of_checks_end_before_kind_before_turn() -> None:
    engine, _ = play(4, "B[ab] W[bc] B[ad] W[ba]")  # ended
    with pytest.raises(IllegalMove) as info:
        engine.play(Move(W, MoveKind.SWEEP, line=0))
    assert info.value.code == "after-end"
    engine = QuentinEngine(4)
    with pytest.raises(IllegalMove) as info:
        engine.play(mv("W[swap]"))  # wrong colour and wrong turn for a swap: the colour is checked first
    assert info.value.code == "wrong-turn"


def test_engine_identity() -> None:
    assert QuentinEngine.game is Game.QUENTIN


# -- a naive reference, written from the rule text, for the properties -------------------------------------------
def _nbrs(i: int, n: int) -> list[int]:
    r, c = divmod(i, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def reference_place(cells: list[int], n: int, i: int, code: int) -> tuple[list[int], bool]:
    """QUE-2..QUE-4 from scratch on the whole board: the position after placing `code` on i, and whether it is legal."""
    cells = list(cells)
    cells[i] = code
    seen: set[int] = set()
    fills: list[tuple[list[int], int]] = []
    for start in range(n * n):
        if cells[start] != EMPTY or start in seen:
            continue
        region, stack = [], [start]
        seen.add(start)
        while stack:
            p = stack.pop()
            region.append(p)
            for q in _nbrs(p, n):
                if cells[q] == EMPTY and q not in seen:
                    seen.add(q)
                    stack.append(q)
        if all(sum(cells[q] != EMPTY for q in _nbrs(p, n)) >= 2 for p in region):
            around = {q for p in region for q in _nbrs(p, n) if cells[q] != EMPTY}
            black = sum(cells[q] == BLACK for q in around)
            white = sum(cells[q] == WHITE for q in around)
            fills.append((region, BLACK if black > white else WHITE if white > black else 3 - code))
    for region, colour in fills:
        for p in region:
            cells[p] = colour
    for p in range(n * n):
        r, c = divmod(p, n)
        for dr, dc in ((1, -1), (1, 1)):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < n and 0 <= cc < n) or cells[p] == EMPTY or cells[rr * n + cc] != cells[p]:
                continue
            if cells[r * n + cc] != cells[p] and cells[rr * n + c] != cells[p]:
                return cells, False
    return cells, True


def flat(engine: QuentinEngine) -> list[int]:
    code = {None: EMPTY, B: BLACK, W: WHITE}
    return [code[s] for row in engine.rows() for s in row]


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(size=st.sampled_from([3, 4, 5, 6, 7]), seed=st.integers(0, 2**32 - 1))
def test_random_games_agree_with_the_reference_and_end_properly(size: int, seed: int) -> None:
    rng = random.Random(seed)
    engine = QuentinEngine(size)
    passes = 0
    while engine.end is None:
        cells = flat(engine)
        colour = engine.to_move
        code = BLACK if colour is B else WHITE
        expected = {i: reference_place(cells, size, i, code) for i in range(size * size) if cells[i] == EMPTY}
        legal = engine.legal_moves()
        placements = {m.point for m in legal if m.kind is MoveKind.PLACE}
        assert placements == {(i % size, i // size) for i, (_, ok) in expected.items() if ok}
        assert (Move(colour, MoveKind.SWAP) in legal) == (engine.turn == 1)  # QUE-7
        assert (Move(colour, MoveKind.PASS) in legal) == (not placements)  # QUE-5
        assert passes < 2, "both players without a placement and no chain"
        move = rng.choice(legal)
        turn = engine.turn
        change = engine.play(move)  # never raises on a listed move
        assert engine.turn == turn + 1
        if move.kind is MoveKind.PLACE:
            assert move.point is not None
            after, _ = expected[move.point[1] * size + move.point[0]]
            assert flat(engine) == after
            newly = {(i % size, i // size) for i in range(size * size) if cells[i] == EMPTY and after[i] != EMPTY}
            assert set(change.placed) == {move.point} and set(change.filled) == newly - {move.point}
            assert len(change.filled) == len(set(change.filled))
            passes = 0
        else:
            assert flat(engine) == cells
            passes += move.kind is MoveKind.PASS
        board = flat(engine)
        chains = [c for c in (B, W) if has_chain(board, size, BLACK if c is B else WHITE)]
        assert chains == ([engine.end.winner] if engine.end else [])  # QUE-6, after every turn
    assert engine.end.finished and engine.end.method is ResultMethod.CHAIN
    assert engine.end.reason == "chain (QUE-6)" and engine.outcome().text() == f"{engine.end.winner.value}+"
    assert engine.legal_moves() == []


@SETTINGS
@given(size=st.sampled_from([4, 5, 6, 8]), seed=st.integers(0, 2**32 - 1), stop=st.floats(0, 1))
def test_illegal_moves_raise_and_change_nothing(size: int, seed: int, stop: float) -> None:
    rng = random.Random(seed)
    engine = QuentinEngine(size)
    target = int(stop * size * size)
    while engine.end is None and engine.turn < target:
        engine.play(rng.choice(engine.legal_moves()))
    colour = engine.to_move
    legal = set(engine.legal_moves())
    candidates = [Move(colour, MoveKind.PLACE, point=(c, r)) for r in range(size) for c in range(size)]
    candidates += [Move(colour.other, MoveKind.PLACE, point=(c, r)) for r in range(size) for c in range(size)]
    candidates += [Move(colour, MoveKind.PASS), Move(colour, MoveKind.SWAP), Move(colour.other, MoveKind.PASS),
                   Move(colour, MoveKind.SWEEP, line=0)]
    illegal = [m for m in candidates if m not in legal]
    assert illegal
    for move in rng.sample(illegal, min(12, len(illegal))):
        before = state(engine)
        with pytest.raises(IllegalMove) as info:
            engine.play(move)
        err = info.value
        assert err.code and err.rule and "\n" not in err.message
        if move.point is not None and err.code not in ("after-end", "wrong-turn", "kind-not-allowed"):
            assert point_name(move.point, Game.QUENTIN, size) in err.message
        assert state(engine) == before
    # and the engine still plays on after all those refusals
    if engine.end is None:
        engine.play(rng.choice(engine.legal_moves()))
