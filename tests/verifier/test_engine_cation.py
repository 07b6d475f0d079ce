"""The Cation rules engine against the binding clarifications (shared/rules/cation.md, CAT-1 .. CAT-10).

Positions are built by playing short explicit sequences in the record notation of CAT-10. The properties at the end
compare the engine, move by move, with a deliberately naive reading of the rules (full-board scans, no caching).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import MoveKind
from boardrecords.records.model import Colour, Move, ResultMethod
from boardrecords.records.notation import Notation
from boardrecords.records.points import Point, format_point, parse_point
from boardrecords.verifier.rules.cation import CationEngine
from boardrecords.verifier.rules.chains import has_chain
from boardrecords.verifier.rules.engine import BLACK, WHITE, Change, IllegalMove

B, W = Colour.BLACK, Colour.WHITE


# -- helpers -------------------------------------------------------------------------------------------------
def mv(text: str) -> Move:
    """One move in the notation of CAT-10: `B[dc]`, `B[dc-fe]`, `B[dc-]`, `B[]`, `W[swap-sides]`."""
    colour = Colour(text[0])
    value = text[2:-1]
    if value == "":
        return Move(colour, MoveKind.PASS)
    if value == "swap-sides":
        return Move(colour, MoveKind.SWAP)
    if value.endswith("-"):
        return Move(colour, MoveKind.REMOVE, pt(value[:2]))
    if "-" in value:
        a, b = value.split("-")
        return Move(colour, MoveKind.RELOCATE, pt(a), pt(b))
    return Move(colour, MoveKind.PLACE, pt(value))


def pt(text: str) -> Point:
    p = parse_point(text)
    assert p is not None
    return p


def play(size: int, seq: str, notation: Notation = Notation.CUSTOMARY) -> tuple[CationEngine, list[Change]]:
    engine = CationEngine(size, notation=notation)
    changes = [engine.play(mv(m)) for m in seq.split(";") if m]
    return engine, changes


def snapshot(engine: CationEngine) -> tuple:
    return (engine.rows(), engine.turn, engine.to_move, engine.swapped, engine.end, engine.crosscuts(),
            engine.latest_stone, sorted(map(str, engine.legal_moves())))


def refused(engine: CationEngine, move: str) -> IllegalMove:
    """Play `move`, expect IllegalMove, and check that nothing changed."""
    before = snapshot(engine)
    with pytest.raises(IllegalMove) as info:
        engine.play(mv(move))
    assert snapshot(engine) == before
    return info.value


def legal(engine: CationEngine) -> set[str]:
    return {str(m) for m in engine.legal_moves()}


# The position of CAT-2/CAT-4 below (5x5): a crosscut bb,cb,bc,cc made by White while Black's latest stone is ea.
CROSSCUT_5 = "B[bb];W[cb];B[cc];W[ae];B[ea];W[bc]"
CROSSCUT_5_POINTS = ((1, 1), (2, 1), (1, 2), (2, 2))


# -- CAT-1 ---------------------------------------------------------------------------------------------------
def test_cat_1_smallest_and_largest_boards() -> None:
    small = CationEngine(3)
    assert legal(small) == {f"B[{format_point((c, r))}]" for c in range(3) for r in range(3)}
    big = CationEngine(52)
    assert len(big.legal_moves()) == 52 * 52
    big.play(Move(B, MoveKind.PLACE, (51, 51)))
    assert big.stone((51, 51)) is B


def test_cat_1_point_off_the_board_is_refused() -> None:
    engine = CationEngine(4)
    err = refused(engine, "B[ea]")
    assert (err.code, err.rule) == ("off-board", "CAT-1")
    assert "ea" in err.message and "4x4" in err.message


# -- CAT-2 ---------------------------------------------------------------------------------------------------
def test_cat_2_crosscut_is_two_diagonal_pairs_of_opposite_colours() -> None:
    engine, changes = play(5, CROSSCUT_5)
    assert engine.crosscuts() == (CROSSCUT_5_POINTS,)
    assert changes[-1].crosscuts == (CROSSCUT_5_POINTS,)
    assert all(c.crosscuts == () for c in changes[:-1])


@pytest.mark.parametrize("seq", [
    "B[aa];W[bb];B[ba];W[ee];B[ab]",  # three Black stones and one White in a 2x2: no crosscut
    "B[aa];W[ab];B[ba];W[bb]",  # an orthogonal pair of each colour: no crosscut
    "B[aa];W[ba];B[bb];W[ee]",  # one diagonal pair and one lone stone: no crosscut
])
def test_cat_2_other_2x2_patterns_are_not_crosscuts(seq: str) -> None:
    engine, _ = play(5, seq)
    assert engine.crosscuts() == ()
    assert engine.situation == "a"
    assert any(m.kind is MoveKind.PLACE for m in engine.legal_moves())


# -- CAT-3 ---------------------------------------------------------------------------------------------------
def test_cat_3_no_latest_stone_on_the_first_turn_or_after_a_swap() -> None:
    engine = CationEngine(4)
    assert engine.latest_stone is None
    engine.play(mv("B[bb]"))
    assert engine.latest_stone == (1, 1)
    engine.play(mv("W[swap-sides]"))
    assert engine.latest_stone is None


def test_cat_3_a_relocated_stone_is_the_latest_stone() -> None:
    # B[cb-ab] clears the crosscut ba,ca,bb,cb; ab is then Black's latest stone, and W[aa] would make the crosscut
    # aa,ba,ab,bb containing it.
    engine, _ = play(3, "B[ba];W[bb];B[cb];W[cc];B[ac];W[ca];B[cb-ab]")
    assert engine.situation == "a"
    assert engine.latest_stone == (0, 1)
    err = refused(engine, "W[aa]")
    assert (err.code, err.rule) == ("crosscut-with-latest", "CAT-4")
    assert err.message == "a3: the stone would form a crosscut with Black's latest stone a2"  # aa, ab (GEN-10)


def test_cat_3_no_latest_stone_after_a_pass() -> None:
    # Black passes (forced, CAT-5); White's bb then makes the crosscut ba,ca,bb,cb with ba, Black's stone of the
    # turn before the pass: legal, since a pass leaves no latest stone. bb also completes White's chain ab-bb-bc-cc.
    engine, _ = play(3, "B[aa];W[bc];B[cb];W[cc];B[ac];W[ca];B[ba];W[ab];B[]")
    assert engine.latest_stone is None
    change = engine.play(mv("W[bb]"))
    assert change.crosscuts == (((1, 0), (2, 0), (1, 1), (2, 1)),)
    assert engine.end is not None and engine.end.winner is W


def test_cat_3_no_latest_stone_after_a_removal() -> None:
    # White removes bb (no destination, CAT-7); Black's bb then makes the crosscut ba,ca,bb,cb with White's ba.
    engine, _ = play(3, "B[ca];W[ac];B[aa];W[cb];B[cc];W[bb];B[bc];W[ba];B[ab];W[bb-]")
    assert engine.latest_stone is None
    assert engine.situation == "a"
    change = engine.play(mv("B[bb]"))
    assert ((1, 0), (2, 0), (1, 1), (2, 1)) in change.crosscuts


# -- CAT-4 ---------------------------------------------------------------------------------------------------
def test_cat_4_placement_forming_a_crosscut_with_the_latest_stone_is_refused() -> None:
    engine, _ = play(5, "B[bb];W[cb];B[cc]")
    err = refused(engine, "W[bc]")
    assert (err.code, err.rule, err.point) == ("crosscut-with-latest", "CAT-4", (1, 2))
    assert err.message == "b3: the stone would form a crosscut with Black's latest stone c3"  # bc, cc
    assert "W[bc]" not in legal(engine)


def test_cat_4_placement_forming_a_crosscut_without_the_latest_stone_is_legal() -> None:
    engine, changes = play(5, CROSSCUT_5)
    assert changes[-1].placed == ((1, 2),)
    assert engine.situation == "b"
    # Black now faces situation b: only its crosscut stones bb and cc may move (or be removed).
    assert {m.kind for m in engine.legal_moves()} == {MoveKind.RELOCATE}
    assert {m.point for m in engine.legal_moves()} == {(1, 1), (2, 2)}


def test_cat_4_placement_on_an_occupied_point_is_refused() -> None:
    engine, _ = play(4, "B[bb]")
    err = refused(engine, "W[bb]")
    assert (err.code, err.rule) == ("occupied", "CAT-4")
    assert err.message == "b3: the point is occupied"  # bb on 4x4 (GEN-10)
    sgf, _ = play(4, "B[bb]", notation=Notation.SGF)
    assert refused(sgf, "W[bb]").message == "bb: the point is occupied"


# -- CAT-5 ---------------------------------------------------------------------------------------------------
def test_cat_5_pass_is_refused_while_a_placement_exists() -> None:
    engine = CationEngine(4)
    err = refused(engine, "B[]")
    assert (err.code, err.rule) == ("pass-not-forced", "CAT-5")
    engine, _ = play(4, "B[bb]")
    assert "W[]" not in legal(engine) and "W[swap-sides]" in legal(engine)  # the swap is no placement
    assert refused(engine, "W[]").rule == "CAT-5"


def test_cat_5_pass_is_refused_in_situation_b() -> None:
    engine, _ = play(5, CROSSCUT_5)
    err = refused(engine, "B[]")
    assert (err.code, err.rule) == ("pass-in-situation-b", "CAT-5")


def test_cat_5_forced_pass() -> None:
    # Both empty points, ba and bc, would make a crosscut with Black's latest stone bb.
    engine, _ = play(3, "B[ac];W[ca];B[aa];W[cb];B[cc];W[ab];B[bb]")
    assert engine.legal_moves() == [Move(W, MoveKind.PASS)]
    assert refused(engine, "W[ba]").rule == "CAT-4"
    assert refused(engine, "W[bc]").rule == "CAT-4"
    change = engine.play(mv("W[]"))
    assert change == Change()
    assert (engine.turn, engine.to_move) == (8, B)  # a pass is a turn
    assert legal(engine) == {"B[ba]", "B[bc]"}


# -- CAT-6 ---------------------------------------------------------------------------------------------------
def test_cat_6_relocation_and_removal_are_refused_in_situation_a() -> None:
    engine, _ = play(4, "B[bb];W[cc]")
    err = refused(engine, "B[bb-aa]")
    assert (err.code, err.rule) == ("relocation-in-situation-a", "CAT-6")
    assert refused(engine, "B[bb-]").rule == "CAT-6"


def test_cat_6_placement_is_refused_in_situation_b() -> None:
    engine, _ = play(5, CROSSCUT_5)
    err = refused(engine, "B[aa]")
    assert (err.code, err.rule) == ("placement-in-situation-b", "CAT-6")
    assert refused(engine, "B[bb]").rule == "CAT-6"  # occupied, but situation b decides first


def test_cat_6_only_the_movers_crosscut_stones_may_be_chosen() -> None:
    engine, _ = play(5, CROSSCUT_5)
    err = refused(engine, "B[ea-eb]")  # Black's stone, in no crosscut
    assert (err.code, err.rule) == ("not-in-crosscut", "CAT-6")
    err = refused(engine, "B[cb-ab]")  # White's crosscut stone
    assert (err.code, err.rule) == ("not-own-stone", "CAT-6")
    assert refused(engine, "B[aa-ab]").code == "not-own-stone"  # an empty point


def test_cat_6_destination_must_be_another_empty_point() -> None:
    engine, _ = play(5, CROSSCUT_5)
    assert refused(engine, "B[bb-bb]").code == "same-point"
    err = refused(engine, "B[bb-ae]")
    assert (err.code, err.rule) == ("target-occupied", "CAT-6")


def test_cat_6_destination_where_the_stone_belongs_to_a_crosscut_is_refused() -> None:
    # White's dc makes db a crosscut point for Black (db,cc against cb,dc).
    engine, _ = play(5, "B[bb];W[cb];B[cc];W[dc];B[ea];W[bc]")
    err = refused(engine, "B[bb-db]")
    assert (err.code, err.rule, err.point) == ("relocation-crosscut", "CAT-6", (3, 1))
    assert err.message == "d4: the stone would belong to a crosscut there" and err.rule == "CAT-6"  # db
    change = engine.play(mv("B[bb-aa]"))
    assert change.relocated == (((1, 1), (0, 0)),)
    assert change.crosscuts == ()
    assert engine.latest_stone == (0, 0)


def test_cat_6_destination_is_checked_with_the_stone_lifted() -> None:
    # cc,dd would be a Black diagonal against White's dc,cd, but cc itself is the stone that moves.
    engine, _ = play(4, "B[db];W[dc];B[cc];W[cd];B[ca];W[cb]")
    assert engine.crosscuts() == (((2, 1), (3, 1), (2, 2), (3, 2)),)
    assert "B[cc-dd]" in legal(engine)
    assert "B[db-dd]" not in legal(engine)
    assert refused(engine, "B[db-dd]").code == "relocation-crosscut"
    change = engine.play(mv("B[cc-dd]"))
    assert change.relocated == (((2, 2), (3, 3)),)
    assert engine.crosscuts() == ()


# -- CAT-7 ---------------------------------------------------------------------------------------------------
def test_cat_7_removal_of_a_stone_with_a_destination_is_refused() -> None:
    engine, _ = play(5, CROSSCUT_5)
    err = refused(engine, "B[bb-]")
    assert (err.code, err.rule) == ("removal-with-destination", "CAT-7")
    assert err.message == "b4: the stone has a legal destination, so it may not be removed"  # bb


def test_cat_7_stone_without_destination_is_removed() -> None:
    engine, _ = play(3, "B[ca];W[ac];B[aa];W[cb];B[cc];W[bb];B[bc];W[ba];B[ab]")
    assert legal(engine) == {"W[bb-]", "W[ac-]"}  # the board is full but for the lifted stone's own point
    change = engine.play(mv("W[bb-]"))
    assert change.removed == ((1, 1),)
    assert change.crosscuts == ()
    assert engine.stone((1, 1)) is None


def test_cat_7_removal_may_be_chosen_while_another_stone_could_move() -> None:
    # ac has no destination (aa would be a crosscut); bb could move to aa.
    engine, _ = play(3, "B[ca];W[ba];B[bb];W[ab];B[ac];W[cc];B[cb];W[bc]")
    assert legal(engine) == {"B[ac-]", "B[bb-aa]"}
    change = engine.play(mv("B[ac-]"))
    assert change.removed == ((0, 2),)
    assert refused(CationEngine(3), "B[ac-]").rule == "CAT-6"


# -- CAT-8 ---------------------------------------------------------------------------------------------------
def test_cat_8_black_chain_ends_the_game() -> None:
    engine, _ = play(3, "B[ba];W[ab];B[bb];W[cb]")
    assert engine.end is None
    engine.play(mv("B[bc]"))
    end = engine.outcome()
    assert (end.finished, end.method, end.winner, end.reason) == (True, ResultMethod.CHAIN, B, "chain (CAT-8)")
    assert end.text() == "B+"
    assert engine.legal_moves() == []
    err = refused(engine, "W[aa]")
    assert (err.code, err.rule, err.message) == ("after-end", "CAT-8", "move after the end of the game")
    assert refused(engine, "B[aa]").code == "after-end"  # the end is checked before the turn


def test_cat_8_white_chain_ends_the_game() -> None:
    engine, _ = play(3, "B[ba];W[ab];B[bc];W[bb];B[aa]")
    assert engine.end is None
    engine.play(mv("W[cb]"))
    assert engine.outcome().winner is W and engine.outcome().text() == "W+"


def test_cat_8_relocation_can_complete_a_chain() -> None:
    # Conformance record cation-7401-1: White's last move, a relocation, joins column a to column d.
    seq = "B[bc];W[ba];B[cb];W[bd];B[ab];W[ad];B[dd];W[cc];B[bb];W[db];B[ac];W[aa];B[cd];W[bd-da];B[dc]"
    engine, _ = play(4, seq)
    assert engine.end is None
    engine.play(mv("W[db-ca]"))
    assert engine.end is not None and engine.end.winner is W and engine.end.reason == "chain (CAT-8)"


def test_cat_8_a_chain_that_is_not_connected_does_not_end_the_game() -> None:
    engine, _ = play(4, "B[ba];W[aa];B[bb];W[ab];B[cc];W[ac];B[cd]")  # bb and cc only touch diagonally
    assert engine.end is None and not engine.outcome().finished


# -- CAT-9 ---------------------------------------------------------------------------------------------------
def test_cat_9_swap_on_turn_2() -> None:
    engine, _ = play(4, "B[cc]")
    change = engine.play(mv("W[swap-sides]"))
    assert change.swapped and change.placed == ()
    assert engine.swapped and engine.turn == 2
    # The stones stay; the player who started with Black now holds White and moves next (README: pie swap).
    assert engine.to_move is W and engine.colour_of_player(engine.player_to_move) is W
    assert engine.stone((2, 2)) is B
    assert refused(engine, "B[dd]").code == "wrong-turn"
    engine.play(mv("W[dd]"))
    assert engine.to_move is B


@pytest.mark.parametrize(("seq", "swap", "turn"), [("", "B[swap-sides]", 1), ("B[cc];W[dd]", "B[swap-sides]", 3),
                                                   ("B[cc];W[dd];B[aa];W[bb]", "B[swap-sides]", 5)])
def test_cat_9_swap_is_refused_on_other_turns(seq: str, swap: str, turn: int) -> None:
    engine, _ = play(4, seq)
    assert not any(m.kind is MoveKind.SWAP for m in engine.legal_moves())
    err = refused(engine, swap)
    assert (err.code, err.rule) == ("swap-not-turn-2", "CAT-9")
    assert err.message == f"swap only on turn 2, not turn {turn}"


# -- CAT-10 and turns ----------------------------------------------------------------------------------------
def test_cat_10_a_sweep_is_not_a_cation_move() -> None:
    engine = CationEngine(4)
    with pytest.raises(IllegalMove) as info:
        engine.play(Move(W, MoveKind.SWEEP, line=1))  # wrong colour too: the kind is checked first
    assert (info.value.code, info.value.rule) == ("kind-not-allowed", "CAT-10")
    assert engine.turn == 0


def test_cat_10_legal_moves_use_the_record_notation() -> None:
    engine, _ = play(3, "B[ca];W[ba];B[bb];W[ab];B[ac];W[cc];B[cb];W[bc]")
    assert sorted(m.sgf_value() for m in engine.legal_moves()) == ["ac-", "bb-aa"]


def test_gen_5_wrong_colour_is_refused() -> None:
    engine = CationEngine(4)
    err = refused(engine, "W[aa]")
    assert (err.code, err.rule, err.message) == ("wrong-turn", "GEN-5", "Black to move, not White")
    engine.play(mv("B[aa]"))
    assert refused(engine, "B[bb]").message == "White to move, not Black"


# -- properties: the engine against a naive reading of the rules ---------------------------------------------
Board = dict[Point, Colour]


def naive_crosscuts(board: Board, n: int) -> set[frozenset[Point]]:
    out = set()
    for r in range(n - 1):
        for c in range(n - 1):
            tl, tr, bl, br = board.get((c, r)), board.get((c + 1, r)), board.get((c, r + 1)), board.get((c + 1, r + 1))
            if tl is not None and tl == br and tr is not None and tr == bl and tl != tr:
                out.add(frozenset({(c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)}))
    return out


def naive_legal(board: Board, n: int, colour: Colour, latest: Point | None, turn: int) -> set[str]:
    """The legal moves read straight from CAT-4 .. CAT-9, by trying every candidate on a copy of the board."""
    p = colour.value
    empties = [(c, r) for r in range(n) for c in range(n) if (c, r) not in board]
    out: set[str] = set()
    crosscuts = naive_crosscuts(board, n)
    if not crosscuts:
        for e in empties:
            after = naive_crosscuts({**board, e: colour}, n)
            if latest is None or not any(latest in cc for cc in after):
                out.add(f"{p}[{format_point(e)}]")
        if not out:
            out.add(f"{p}[]")
        if turn == 1:
            out.add(f"{p}[swap-sides]")
        return out
    chosen = {q for cc in crosscuts for q in cc if board[q] == colour}
    for o in chosen:
        lifted = {q: v for q, v in board.items() if q != o}
        dests = [t for t in empties if not any(t in cc for cc in naive_crosscuts({**lifted, t: colour}, n))]
        out.update(f"{p}[{format_point(o)}-{format_point(t)}]" for t in dests)
        if not dests:
            out.add(f"{p}[{format_point(o)}-]")
    return out


def board_of(engine: CationEngine) -> Board:
    return {(c, r): v for r, row in enumerate(engine.rows()) for c, v in enumerate(row) if v is not None}


def random_candidate(rng: random.Random, engine: CationEngine) -> Move:
    """Any move of any kind, mostly of the right colour: legal or not."""
    n = engine.size
    colour = engine.to_move if rng.random() < 0.9 else engine.to_move.other

    def point() -> Point:
        return (rng.randrange(n), rng.randrange(n))

    kind = rng.choice([MoveKind.PLACE, MoveKind.PLACE, MoveKind.RELOCATE, MoveKind.RELOCATE, MoveKind.REMOVE,
                       MoveKind.PASS, MoveKind.SWAP, MoveKind.SWEEP])
    if kind is MoveKind.RELOCATE:
        stones = [q for q, v in board_of(engine).items() if v is colour]
        return Move(colour, kind, rng.choice(stones) if stones and rng.random() < 0.8 else point(), point())
    if kind is MoveKind.SWEEP:
        return Move(colour, kind, line=rng.randrange(n))
    return Move(colour, kind, point() if kind in (MoveKind.PLACE, MoveKind.REMOVE) else None)


def check_change(before: Board, after: Board, change: Change, move: Move, engine: CationEngine) -> None:
    """The Change names exactly the points that changed, in the field of the move's kind (CAT-10)."""
    diff = {q for q in set(before) | set(after) if before.get(q) != after.get(q)}
    named = set(change.placed) | set(change.removed) | {q for pair in change.relocated for q in pair}
    assert diff == named
    if move.kind is MoveKind.PLACE:
        assert change.placed == (move.point,) and after[move.point] is move.colour
    elif move.kind is MoveKind.RELOCATE:
        assert change.relocated == ((move.point, move.target),) and after[move.target] is move.colour
    elif move.kind is MoveKind.REMOVE:
        assert change.removed == (move.point,)
    assert change.swapped == (move.kind is MoveKind.SWAP)
    assert {frozenset(cc) for cc in change.crosscuts} == naive_crosscuts(after, engine.size)
    assert change.crosscuts == engine.crosscuts()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([3, 4, 5, 6]))
def test_random_games_agree_with_a_naive_reading_of_the_rules(seed: int, size: int) -> None:
    rng = random.Random(seed)
    engine = CationEngine(size)
    latest: Point | None = None  # CAT-3, tracked here from the moves alone
    while engine.end is None:
        board = board_of(engine)
        moves = engine.legal_moves()
        names = {str(m) for m in moves}
        assert len(names) == len(moves)
        assert names == naive_legal(board, size, engine.to_move, latest, engine.turn)
        # Illegal candidates raise IllegalMove and change nothing; legal ones are in legal_moves().
        for _ in range(4):
            candidate = random_candidate(rng, engine)
            if str(candidate) in names and candidate.kind is not MoveKind.SWEEP:
                continue
            before = snapshot(engine)
            with pytest.raises(IllegalMove) as info:
                engine.play(candidate)
            assert info.value.rule and info.value.code
            assert snapshot(engine) == before
        move = rng.choice(moves)
        colour = engine.to_move
        change = engine.play(move)
        check_change(board, board_of(engine), change, move, engine)
        latest = move.target if move.kind is MoveKind.RELOCATE else move.point if move.kind is MoveKind.PLACE else None
        cells = [{B: BLACK, W: WHITE}.get(v, 0) for row in engine.rows() for v in row]
        # CAT-8: the game ends exactly when a chain exists, and only the mover can have one.
        assert (engine.end is not None) == has_chain(cells, size, {B: BLACK, W: WHITE}[colour])
        assert not has_chain(cells, size, {B: BLACK, W: WHITE}[colour.other])
        assert engine.turn <= 20 * size * size, "a random game that does not end"
    end = engine.outcome()
    assert end.finished and end.method is ResultMethod.CHAIN and end.reason == "chain (CAT-8)"
    assert end.winner is not None and end.text() == f"{end.winner.value}+"
    assert engine.legal_moves() == []
    err = refused(engine, str(Move(engine.to_move, MoveKind.PASS)))
    assert (err.code, err.rule) == ("after-end", "CAT-8")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([7, 9, 13]))
def test_random_games_on_larger_boards_end_properly(seed: int, size: int) -> None:
    rng = random.Random(seed)
    engine = CationEngine(size)
    while engine.end is None:
        moves = engine.legal_moves()
        assert moves
        turn = engine.turn
        engine.play(rng.choice(moves))  # a legal move never raises
        assert engine.turn == turn + 1
        assert {frozenset(cc) for cc in engine.crosscuts()} == naive_crosscuts(board_of(engine), size)
    assert engine.outcome().reason == "chain (CAT-8)"
