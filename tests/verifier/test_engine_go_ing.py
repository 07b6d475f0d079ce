"""The Go engine under the Simplified Ing Rules (go-ing.md ING-1 .. ING-10), on small explicit positions, plus
properties of random legal games checked against a naive flood-fill implementation of ING-3 and ING-4."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrecords.records.games import MoveKind
from boardrecords.records.model import Colour, Move, ResultMethod, Setup
from boardrecords.records.points import Point, format_point, parse_point
from boardrecords.verifier.rules.engine import Change, IllegalMove, Marks, Pieces, Score, Side
from boardrecords.verifier.rules.go_ing import GoEngine

B, W = Colour.BLACK, Colour.WHITE


def mv(text: str) -> Move:
    """`B[dc]`, `W[]` (pass) or `B[tt]` (pass) as a Move."""
    m = re.fullmatch(r"([BW])\[([a-zA-Z]{2}|)\]", text)
    assert m, text
    colour = Colour(m.group(1))
    if m.group(2) in ("", "tt"):
        return Move(colour, MoveKind.PASS)
    return Move(colour, MoveKind.PLACE, point=parse_point(m.group(2)))


def play_all(engine: GoEngine, moves: str) -> list[Change]:
    return [engine.play(mv(t)) for t in moves.split()]


def _replayed(size: int, moves: str) -> GoEngine:
    e = GoEngine(size)
    play_all(e, moves)
    return e


def board(engine: GoEngine) -> list[str]:
    """The position as text rows: `X` black, `O` white, `.` empty."""
    return ["".join("." if c is None else "X" if c is B else "O" for c in row) for row in engine.rows()]


def pts(*names: str) -> set[Point]:
    return {parse_point(n) for n in names}  # type: ignore[misc]


def illegal(engine: GoEngine, move: str, marks: Marks | None = None) -> IllegalMove:
    """Play a move that must be refused, and check that nothing changed (play is atomic)."""
    before = (board(engine), engine.turn, engine.to_move, engine.position_hash, engine.end, engine.stopped)
    with pytest.raises(IllegalMove) as info:
        engine.play(mv(move), marks)
    assert (board(engine), engine.turn, engine.to_move, engine.position_hash, engine.end, engine.stopped) == before
    return info.value


# -- ING-1: board sizes ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [2, 19, 52])
def test_ING_1_boards_from_2x2_to_52x52(size):
    e = GoEngine(size)
    assert len(e.legal_moves()) == size * size + 1  # every point and the pass
    corner = (size - 1, size - 1)
    e.play(Move(B, MoveKind.PLACE, point=corner))
    assert e.stone(corner) is B
    assert e.rows()[size - 1][size - 1] is B and e.rows()[0][0] is None


# -- ING-2: strings and their liberties -------------------------------------------------------------------------

def test_ING_2_a_string_lives_while_any_of_its_stones_has_a_liberty():
    e = GoEngine(5)
    # White string ab-bb; Black fills aa, ba, bc: bb has no empty neighbour left but lives through ab's liberty ac.
    play_all(e, "B[cb] W[ab] B[ba] W[bb] B[bc] W[] B[aa] W[]")
    assert e.stone((0, 1)) is W and e.stone((1, 1)) is W
    change = e.play(mv("B[ac]"))
    assert set(change.captured) == pts("ab", "bb")  # both stones go together: one string
    assert board(e)[1] == "..X.."


def test_ING_2_diagonal_stones_are_separate_strings():
    e = GoEngine(4)
    play_all(e, "B[bb] W[ab] B[ba] W[bc] B[ac] W[]")
    change = e.play(mv("B[aa]"))
    # White ab is captured alone: the diagonal white stone bc is another string, with liberties of its own.
    assert change.captured == ((0, 1),) and e.stone((1, 2)) is W


# -- ING-3: plays, captures first, then suicide is carried out --------------------------------------------------

def test_ING_3_occupied_point():
    e = GoEngine(5)
    play_all(e, "B[be] W[cc]")
    err = illegal(e, "B[be]")
    assert (err.code, err.rule, err.message, err.point) == ("occupied", "ING-3", "B1 is occupied", (1, 4))


def test_ING_3_capture_of_the_opponent_comes_before_own_removal():
    # Black aa has no empty neighbour, but it takes the last liberty of White's ba and ab, which go first.
    e = GoEngine(3)
    play_all(e, "B[ca] W[ba] B[bb] W[ab] B[ac] W[]")
    change = e.play(mv("B[aa]"))
    assert set(change.captured) == pts("ba", "ab")
    assert board(e) == ["X.X", ".X.", "X.."]


def test_ING_3_multi_stone_suicide_is_carried_out():
    e = GoEngine(3)
    # White surrounds the corner aa-ab-ba.
    play_all(e, "B[aa] W[ca] B[] W[bb] B[] W[ac] B[] W[cb]")
    assert board(e) == ["X.O", ".OO", "O.."]
    # Black ab joins aa: the string aa-ab keeps one liberty, ba.
    change = e.play(mv("B[ab]"))
    assert change.captured == ()
    play_all(e, "W[]")
    # Black ba: string {aa, ab, ba} has no liberty and captures nothing: all three are removed (ING-3).
    change = e.play(mv("B[ba]"))
    assert change.placed == ((1, 0),)
    assert set(change.captured) == pts("aa", "ab", "ba")
    assert board(e) == ["..O", ".OO", "O.."]
    assert e.to_move is W and e.turn == 11


# -- ING-4: positional superko ----------------------------------------------------------------------------------

KO = "B[ba] W[ca] B[ab] W[db] B[bc] W[cc] B[cb]"  # 4x4: a ko at bb/cb


def test_ING_4_ko_retake_recreates_an_earlier_position():
    e = GoEngine(4)
    play_all(e, KO)
    change = e.play(mv("W[bb]"))  # White captures the black stone cb
    assert change.captured == ((2, 1),)
    err = illegal(e, "B[cb]")  # immediate retake: the position after Black's cb would repeat
    assert (err.code, err.rule) == ("superko", "ING-4")
    assert err.message == "play on C3 recreates an earlier position (positional superko)"  # cb


def test_ING_4_a_pass_creates_no_position_and_does_not_clear_history():
    e = GoEngine(4)
    play_all(e, KO + " W[bb] B[] W[]")
    # The passes stopped the game (ING-5) but the retake still repeats the position after move 7.
    assert illegal(e, "B[cb]").code == "superko"
    # The refused attempt left every liberty as it was: White ca still has cb, so Black da captures nothing and,
    # without an empty neighbour, is a lone suicide.
    assert illegal(e, "B[da]").code == "single-stone-suicide"
    assert e.legal_moves() == _replayed(4, KO + " W[bb] B[] W[]").legal_moves()


def test_ING_4_single_stone_suicide_is_illegal():
    e = GoEngine(3)
    play_all(e, "B[ba] W[] B[ab]")
    err = illegal(e, "W[aa]")
    assert (err.code, err.rule, err.point) == ("single-stone-suicide", "ING-4", (0, 0))
    assert err.message == "single-stone suicide on A3 recreates the current position"  # aa
    assert Move(W, MoveKind.PLACE, point=(0, 0)) not in e.legal_moves()


def test_ING_4_a_multi_stone_suicide_that_repeats_is_illegal():
    e = GoEngine(3)
    play_all(e, "B[cc] W[ba] B[] W[bb] B[] W[ac] B[aa] W[]")
    # Black ab: the string aa-ab dies (ING-3), which brings back the position after move 6.
    err = illegal(e, "B[ab]")
    assert (err.code, err.rule, err.point) == ("superko", "ING-4", (0, 1))
    assert err.message == "play on A2 recreates an earlier position (positional superko)"  # ab


def test_ING_4_superko_illegal_point_is_missing_from_legal_moves():
    e = GoEngine(4)
    play_all(e, KO + " W[bb]")
    legal = {m.point for m in e.legal_moves() if m.kind is MoveKind.PLACE}
    assert (2, 1) not in legal and (3, 3) in legal
    assert Move(B, MoveKind.PASS) in e.legal_moves()


# -- ING-5: stop, agreement, resumption ------------------------------------------------------------------------

def test_ING_5_first_stop_without_marks_is_a_provisional_end():
    e = GoEngine(3, komi=0.5)
    play_all(e, "B[bb] W[] B[]")
    assert e.stopped and e.end is not None
    assert e.end.reason == "two passes (ING-5)" and e.end.method is ResultMethod.SCORE
    assert e.end.winner is B
    assert e.outcome().text() == "B+8.5"
    assert e.legal_moves()  # play may resume


def test_ING_5_rule_example_passes_resume_then_end():
    # `B[] W[] B[] W[] B[]`: stop at 1-2 (no marks), resumes with the pass of move 3, ends at 3-4, 5 is after the end.
    e = GoEngine(5)
    play_all(e, "B[] W[]")
    assert e.stopped
    e.play(mv("B[]"))
    assert e.end is None and not e.stopped
    e.play(mv("W[]"))
    assert e.end is not None and e.end.reason == "two passes after resumed play (ING-5)"
    assert e.end.method is ResultMethod.DRAW and e.end.text() == "0"
    err = illegal(e, "B[]")
    assert (err.code, err.rule, err.message) == ("after-end", "ING-5", "move after the end of the game")
    assert e.legal_moves() == []


def test_ING_5_marks_on_the_second_pass_are_the_agreement():
    e = GoEngine(5)
    play_all(e, "B[cc] W[]")
    change = e.play(mv("B[]"), Marks())  # TB/TW present, even empty: agreement, nothing removed
    assert change.removed == ()
    assert e.end is not None and e.end.reason == "two passes and agreement (ING-5)" and not e.stopped
    assert illegal(e, "W[aa]").code == "after-end"


def test_ING_5_marks_after_resumed_play_remove_nothing():
    e = GoEngine(5)
    play_all(e, "B[cc] W[] B[] W[dd]")  # stop without marks, then White resumes
    play_all(e, "B[]")
    change = e.play(mv("W[]"), Marks(white=frozenset({(2, 2)})))
    assert change.removed == () and e.stone((2, 2)) is B
    assert e.end is not None and e.end.reason == "two passes after resumed play (ING-5)"
    assert [w.rule for w in e.warnings] == ["ING-5"]


def test_ING_5_after_end_comes_before_the_other_checks():
    e = GoEngine(3)
    play_all(e, "B[aa] W[]")
    e.play(mv("B[]"), Marks())
    # Wrong colour, an occupied point or a swap after the end: all "after-end" (check 1 comes first).
    assert illegal(e, "B[bb]").code == "after-end"
    assert illegal(e, "W[aa]").code == "after-end"
    with pytest.raises(IllegalMove) as info:
        e.play(Move(B, MoveKind.SWAP))
    assert info.value.code == "after-end"


# -- ING-6: area score -----------------------------------------------------------------------------------------

def test_ING_6_area_score_minus_komi():
    e = GoEngine(5, komi=2.5)
    # Black wall on column b, White wall on column d: Black owns column a, White column e, column c is neutral.
    play_all(e, "B[ba] W[da] B[bb] W[db] B[bc] W[dc] B[bd] W[dd] B[be] W[de] B[ca] W[] B[]")
    assert e.score() == Score(11, 10, 2.5)  # Black: 6 stones + 5 points of column a; White 5 + 5
    assert e.end is not None and e.end.score == Score(11, 10, 2.5)
    assert e.end.winner is W and e.end.margin == 1.5 and e.end.text() == "W+1.5"


def test_ING_6_score_with_removed_stones_and_a_tie():
    e = GoEngine(3)
    play_all(e, "B[aa] W[cc]")
    assert e.score() == Score(1, 1, 0)  # the empty region touches both colours
    assert e.score({(2, 2)}) == Score(9, 0, 0)  # without White's stone everything is Black's
    play_all(e, "B[] W[]")
    assert e.end is not None and e.end.method is ResultMethod.DRAW and e.end.winner is None


# -- ING-7: agreed removals as TB/TW marks ----------------------------------------------------------------------

def _dead_white_string() -> GoEngine:
    """5x5: a black wall ca-cb / ac-bc around the corner holds the white string ab-bb; White also has dd, de."""
    e = GoEngine(5)
    play_all(e, "B[ca] W[bb] B[cb] W[ab] B[ac] W[dd] B[bc] W[de] B[]")
    return e


def test_ING_7_marked_strings_are_removed_before_scoring():
    e = _dead_white_string()
    change = e.play(mv("W[]"), Marks(black=frozenset(pts("ab", "bb", "aa"))))
    assert set(change.removed) == pts("ab", "bb") and change.captured == ()
    assert e.stone((0, 1)) is None and e.stone((1, 1)) is None
    assert e.end is not None and e.end.reason == "two passes and agreement (ING-5)"
    assert e.end.score == e.score() == Score(8, 2, 0)  # 4 stones + 4 points of the corner; dd and de
    assert e.warnings == []  # aa is Black's territory once the white stones are gone


def test_ING_7_a_mark_that_splits_a_string_is_an_error():
    e = _dead_white_string()
    err = illegal(e, "W[]", Marks(black=frozenset(pts("bb"))))
    assert (err.code, err.rule, err.point) == ("marks-split", "ING-7", (0, 1))
    assert err.message == "the marks split the 2-stone string at A4: 1 of its stones are marked"  # ab
    assert e.end is None and not e.stopped  # the second pass was refused: nothing happened


def test_ING_7_marks_that_disagree_with_territory_are_warnings():
    e = _dead_white_string()
    # TB on ee (touches White only) and TW on the black string ac-bc, whose points then touch Black too.
    e.play(mv("W[]"), Marks(black=frozenset(pts("ee")), white=frozenset(pts("ac", "bc"))))
    assert [w.message for w in e.warnings] == [
        "TB marks on points that are not that colour's territory: E1",  # ee
        "TW marks on points that are not that colour's territory: A3 B3",  # ac bc
    ]
    assert all(w.rule == "ING-7" for w in e.warnings)
    assert e.stone((0, 2)) is None and e.stone((1, 2)) is None  # removed all the same: the string was marked whole


def test_pieces_of_the_count_after_an_agreement():
    # The dead string ab-bb removed by the agreement counts as two prisoners of Black; aa, ab, bb are Black's
    # territory once it is gone; the TB marks on empty points (aa and the removed ab, bb) are the marked territory.
    e = _dead_white_string()
    e.play(mv("W[]"), Marks(black=frozenset(pts("ab", "bb", "aa"))))
    assert e.pieces() == Pieces(Side(4, 4, 2, 3), Side(2, 0, 0, 0))
    assert e.pieces().black.stones + e.pieces().black.territory == e.end.score.black  # ING-6 adds these


def test_pieces_count_captures_and_a_suicide_for_the_opponent():
    e = GoEngine(3)
    play_all(e, "B[ca] W[ba] B[bb] W[ab] B[ac] W[] B[aa]")  # Black aa captures ba and ab (ING-3)
    assert (e.pieces().black.prisoners, e.pieces().white.prisoners) == (2, 0)
    assert e.pieces().black.marked is None  # no agreement
    e = GoEngine(3)
    play_all(e, "B[aa] W[ca] B[] W[bb] B[] W[ac] B[] W[cb] B[ab] W[] B[ba]")  # Black's three stones die by suicide
    assert (e.pieces().black.prisoners, e.pieces().white.prisoners) == (0, 3)
    assert e.pieces() == Pieces(Side(0, 0, 0), Side(4, 5, 3))  # the empty points touch White only


# -- ING-8: setup and who moves first ---------------------------------------------------------------------------

def test_ING_8_handicap_means_white_moves_first():
    e = GoEngine(9, setup=Setup(black=pts("cc", "gg")))
    assert e.to_move is W and e.stone((2, 2)) is B and e.player_to_move == 1
    err = illegal(e, "B[ee]")
    assert (err.code, err.rule, err.message) == ("wrong-turn", "GEN-5", "White to move, not Black")
    e.play(mv("W[ee]"))
    assert e.to_move is B and e.player_to_move == 0


def test_ING_8_pl_decides_and_mixed_setup_starts_with_black():
    assert GoEngine(9, setup=Setup(black=pts("cc"), white=pts("gg"))).to_move is B
    assert GoEngine(9, setup=Setup(black=pts("cc"), to_move=B)).to_move is B
    assert GoEngine(9, setup=Setup(white=pts("cc"), to_move=W)).to_move is W
    assert GoEngine(9, setup=Setup()).to_move is B


def test_ING_8_setup_is_the_starting_position_of_the_history():
    # The set-up position is the one before a ko retake: retaking would recreate the starting position (ING-4).
    setup = Setup(black=pts("ba", "ab", "bc", "cb"), white=pts("ca", "db", "cc"), to_move=W)
    e = GoEngine(4, setup=setup)
    assert e.position_hash == GoEngine(4, setup=setup).position_hash != GoEngine(4).position_hash
    assert e.play(mv("W[bb]")).captured == ((2, 1),)
    assert illegal(e, "B[cb]").code == "superko"


def test_ING_8_setup_removes_nothing_until_the_next_play():
    # A black stone set up without liberties stays; White's play then removes it (opposing strings first, ING-3).
    e = GoEngine(3, setup=Setup(black=pts("aa"), white=pts("ba", "ab"), to_move=W))
    assert e.stone((0, 0)) is B
    change = e.play(mv("W[cc]"))
    assert change.captured == ((0, 0),) and e.stone((0, 0)) is None
    # Own strings without liberties go too, after the opponent's: White's play removes its own dead setup string.
    e = GoEngine(3, setup=Setup(white=pts("aa"), black=pts("ba", "ab"), to_move=W))
    change = e.play(mv("W[cc]"))
    assert set(change.captured) == pts("aa") and e.stone((0, 0)) is None


# -- ING-9: other rulesets are replayed under these rules -------------------------------------------------------

def test_ING_9_no_other_ruleset_is_applied():
    # A record under Japanese rules (where suicide is forbidden) is still replayed under ING: the suicide stands.
    e = GoEngine(3, komi=6.5)
    play_all(e, "B[aa] W[ca] B[] W[bb] B[] W[ac] B[] W[cb] B[ab] W[]")
    assert len(e.play(mv("B[ba]")).captured) == 3


# -- ING-10: notation: plays and passes only -------------------------------------------------------------------

@pytest.mark.parametrize(("move", "value"), [
    (Move(B, MoveKind.SWAP), "swap-sides"),
    (Move(B, MoveKind.SWEEP, line=2), "sweep-c"),
    (Move(B, MoveKind.RELOCATE, point=(0, 0), target=(1, 1)), "aa-bb"),
    (Move(B, MoveKind.REMOVE, point=(0, 0)), "aa-"),
])
def test_ING_10_only_plays_and_passes_are_go_moves(move, value):
    e = GoEngine(5)
    with pytest.raises(IllegalMove) as info:
        e.play(move)
    assert (info.value.code, info.value.rule) == ("kind-not-allowed", "ING-10")
    assert info.value.message == f'"{value}" is not a move of go-ing'
    assert e.turn == 0 and board(e) == ["....."] * 5


def test_ING_10_kind_is_checked_before_the_turn():
    e = GoEngine(5)
    with pytest.raises(IllegalMove) as info:
        e.play(Move(W, MoveKind.SWAP))  # wrong colour AND not a Go move: the kind is reported
    assert info.value.code == "kind-not-allowed"


def test_README_turns_players_alternate_and_passes_count():
    e = GoEngine(5)
    err = illegal(e, "W[aa]")
    assert (err.code, err.rule, err.message) == ("wrong-turn", "GEN-5", "Black to move, not White")
    play_all(e, "B[] W[aa]")
    assert e.turn == 2 and e.to_move is B
    assert illegal(e, "W[bb]").code == "wrong-turn"


# -- properties of random legal games ---------------------------------------------------------------------------

def _ref_after(cells: tuple[int, ...], size: int, i: int, c: int) -> tuple[int, ...]:
    """ING-3 by flood fill: play, remove opposing strings without liberties, then own ones."""
    board_ = list(cells)
    board_[i] = c
    for colour in (3 - c, c):
        seen: set[int] = set()
        for start in range(size * size):
            if board_[start] != colour or start in seen:
                continue
            group, libs, stack = {start}, False, [start]
            while stack:
                p = stack.pop()
                r, q = divmod(p, size)
                for nr, nq in ((r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)):
                    if 0 <= nr < size and 0 <= nq < size:
                        n = nr * size + nq
                        if board_[n] == 0:
                            libs = True
                        elif board_[n] == colour and n not in group:
                            group.add(n)
                            stack.append(n)
            seen |= group
            if not libs:
                for p in group:
                    board_[p] = 0
    return tuple(board_)


def _cells(e: GoEngine) -> tuple[int, ...]:
    return tuple(0 if c is None else 1 if c is B else 2 for row in e.rows() for c in row)


def _strings(cells: tuple[int, ...], size: int) -> list[set[int]]:
    """Every string (ING-2) by flood fill."""
    seen: set[int] = set()
    out = []
    for start in range(size * size):
        if not cells[start] or start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            p = stack.pop()
            r, q = divmod(p, size)
            for nr, nq in ((r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)):
                n = nr * size + nq
                if 0 <= nr < size and 0 <= nq < size and cells[n] == cells[start] and n not in group:
                    group.add(n)
                    stack.append(n)
        seen |= group
        out.append(group)
    return out


def _random_marks(cells: tuple[int, ...], size: int, rng: random.Random) -> tuple[Marks, set[int]]:
    """Marks that remove a random choice of whole strings and mark some empty points; and the points removed."""
    black: set[Point] = set()
    white: set[Point] = set()
    removed: set[int] = set()
    for i, v in enumerate(cells):
        if not v and rng.random() < 0.2:
            (black if rng.random() < 0.5 else white).add((i % size, i // size))
    for group in _strings(cells, size):
        if rng.random() < 0.2:
            colour = cells[next(iter(group))]
            (black if colour == 2 else white).update((i % size, i // size) for i in group)
            removed |= group
    return Marks(frozenset(black), frozenset(white)), removed


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([2, 3, 4, 5, 6]), handicap=st.booleans())
def test_random_legal_games_match_the_flood_fill_rules(seed, size, handicap):
    rng = random.Random(seed)
    setup = None
    if handicap:
        setup = Setup(black={(rng.randrange(size), rng.randrange(size)) for _ in range(2)})
    e = GoEngine(size, komi=rng.choice([0.0, 0.5, 6.5]), setup=setup)
    cells = _cells(e)
    history = {cells}
    kept = [(e.rows(), cells)]  # rows() gives a row no move has changed again: the boards given stay right
    phase, passes = "play", 0
    placed = [0, len(setup.black) if setup else 0, 0]  # stones put on the board, per cell code
    agreement: tuple[Marks, set[int]] | None = None
    for _ in range(4 * size * size):
        if phase == "over":
            break
        legal = e.legal_moves()
        colour = e.to_move
        code = 1 if colour is B else 2
        # legal_moves is exact: the reference's legal points (ING-3 + ING-4) are the same.
        expected = {(i % size, i // size) for i in range(size * size)
                    if cells[i] == 0 and _ref_after(cells, size, i, code) not in history}
        assert {m.point for m in legal if m.kind is MoveKind.PLACE} == expected
        assert Move(colour, MoveKind.PASS) in legal
        # An illegal move is refused and changes nothing.
        bad = [(i % size, i // size) for i in range(size * size) if (i % size, i // size) not in expected]
        if bad:
            p = rng.choice(bad)
            illegal(e, f"{colour.value}[{format_point(p)}]")
        illegal(e, f"{colour.other.value}[]")
        # Play a legal move: passes now and then, so that games stop, resume and end.
        move = legal[0] if rng.random() < 0.08 or len(legal) == 1 else rng.choice(legal[1:])
        marks, removed = _random_marks(cells, size, rng) if move.kind is MoveKind.PASS and rng.random() < 0.3 \
            else (None, set())
        change = e.play(move, marks)
        if move.kind is MoveKind.PLACE:
            i = move.point[1] * size + move.point[0]
            cells = _ref_after(cells, size, i, code)
            history.add(cells)
            assert change.placed == (move.point,)
            placed[code] += 1
        else:
            assert change.placed == change.captured == ()
        # ING-5, followed independently: stop, agreement or resumption.
        if phase == "stopped":
            phase, passes = "resumed", 0
        passes = passes + 1 if move.kind is MoveKind.PASS else 0
        if passes == 2 and phase == "play" and marks is not None:
            # ING-7: the marked strings are taken off at the agreement, and the score counts without them.
            assert {p[1] * size + p[0] for p in change.removed} == removed
            cells = tuple(0 if i in removed else v for i, v in enumerate(cells))
            phase, reason, agreement = "over", "two passes and agreement (ING-5)", (marks, removed)
        elif passes == 2 and phase == "play":
            phase, reason = "stopped", "two passes (ING-5)"
        elif passes == 2:
            phase, reason = "over", "two passes after resumed play (ING-5)"
        else:
            reason = None
        assert (e.end.reason if e.end else None) == reason
        assert e.stopped == (phase == "stopped")
        if reason is None or "agreement" not in reason:
            assert change.removed == ()
        assert _cells(e) == cells
        kept.append((e.rows(), cells))
    assert all(tuple(0 if c is None else 1 if c is B else 2 for row in rows for c in row) == then
               for rows, then in kept)
    while e.end is None or e.stopped:
        e.play(Move(e.to_move, MoveKind.PASS))
    out = e.outcome()
    assert out.finished and out.score is not None
    assert out.reason in ("two passes and agreement (ING-5)", "two passes after resumed play (ING-5)")
    margin = out.score.margin
    if margin == 0:
        assert out.method is ResultMethod.DRAW and out.winner is None
    else:
        assert out.method is ResultMethod.SCORE and out.margin == abs(margin)
        assert out.winner is (B if margin > 0 else W)
    assert out.score.black + out.score.white <= size * size
    assert e.legal_moves() == []
    # The pieces of the count: ING-6's area is stones plus territory; every stone put on the board and no longer
    # there is a prisoner of the other colour (captured, lost by suicide, or removed by the agreement).
    pieces = e.pieces()
    for side, code, area in ((pieces.black, 1, out.score.black), (pieces.white, 2, out.score.white)):
        assert side.stones == cells.count(code) and side.stones + side.territory == area
        assert pieces.side(B if code == 2 else W).prisoners == placed[code] - cells.count(code)
    # ING-7: the marks on empty points state the territory, unless they name only the stones they remove.
    marked = (None, None)
    if agreement is not None:
        on_empty = [{r * size + c for c, r in points if not cells[r * size + c]}
                    for points in (agreement[0].black, agreement[0].white)]
        if (on_empty[0] | on_empty[1]) - agreement[1]:
            marked = (len(on_empty[0]), len(on_empty[1]))
    assert (pieces.black.marked, pieces.white.marked) == marked
