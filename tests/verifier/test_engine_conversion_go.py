"""The Conversion Go engine against the binding clarifications CON-1 .. CON-8 (shared/rules/conversion-go.md).

Positions are written as diagrams (`X` Black, `O` White, `.` empty, row 0 on top) and built by real plays and
passes (`build`), so every position in these tests is one the engine itself reached.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.games import Game, MoveKind
from boardrecords.records.model import Colour, Move, ResultMethod
from boardrecords.records.notation import Notation, point_name
from boardrecords.records.points import Point, format_point, parse_point
from boardrecords.verifier.rules.conversion_go import ConversionGoEngine
from boardrecords.verifier.rules.engine import Change, IllegalMove, Marks

B, W = Colour.BLACK, Colour.WHITE


def pt(text: str) -> Point:
    p = parse_point(text)
    assert p is not None
    return p


def move(text: str) -> Move:
    """`B[dc]`, `W[]`, `W[swap-sides]` as a Move."""
    colour, value = Colour(text[0]), text[2:-1]
    if value == "":
        return Move(colour, MoveKind.PASS)
    if value == "swap-sides":
        return Move(colour, MoveKind.SWAP)
    return Move(colour, MoveKind.PLACE, point=pt(value))


def play(engine: ConversionGoEngine, moves: str) -> None:
    for text in moves.split():
        engine.play(move(text))


def play_one(engine: ConversionGoEngine, *moves: str) -> Change:
    """Play the moves; the Change of the last one."""
    change = Change()
    for text in moves:
        change = engine.play(move(text))
    return change


def board(engine: ConversionGoEngine) -> list[str]:
    return ["".join("." if c is None else ("X" if c is B else "O") for c in row) for row in engine.rows()]


def build(diagram: list[str], *, to_move: Colour = B, komi: float = 0.0) -> ConversionGoEngine:
    """An engine past the opening (turn 4 or later) whose board is `diagram`, with `to_move` next, reached by
    plays that convert nothing and single passes (a depth-first search over their order)."""
    size = len(diagram)
    stones = {(c, r): (B if ch == "X" else W) for r, line in enumerate(diagram) for c, ch in enumerate(line)
              if ch != "."}

    def search(e: ConversionGoEngine, todo: dict[Point, Colour], last_pass: bool) -> ConversionGoEngine | None:
        if not todo and e.turn >= 4 and e.to_move is to_move:
            return e
        colours = (B, W) if e.to_move is None else (e.to_move,)
        options = [Move(colour, MoveKind.PLACE, point=p) for p, colour in todo.items() if colour in colours]
        if not last_pass:
            options += [Move(colour, MoveKind.PASS) for colour in colours]
        for m in options:
            trial = copy.deepcopy(e)
            if trial.play(m).converted:
                continue
            found = search(trial, {p: c for p, c in todo.items() if p != m.point}, m.kind is MoveKind.PASS)
            if found is not None:
                return found
        return None

    engine = search(ConversionGoEngine(size, komi=komi), stones, False)
    assert engine is not None, "no way to build this diagram"
    assert board(engine) == diagram
    return engine


def illegal(engine: ConversionGoEngine, text: str, marks: Marks | None = None) -> IllegalMove:
    """Play a move that must be refused; check that nothing changed, and return the refusal."""
    before = (board(engine), engine.turn, engine.to_move, engine.swapped, engine.end, engine.legal_moves())
    with pytest.raises(IllegalMove) as info:
        engine.play(move(text), marks)
    assert (board(engine), engine.turn, engine.to_move, engine.swapped, engine.end, engine.legal_moves()) == before
    return info.value


# -- CON-1 board -----------------------------------------------------------------------------------------------
def test_con_1_smallest_board_2x2_every_point_is_a_corner_so_nothing_converts():
    e = ConversionGoEngine(2)
    play(e, "B[aa] W[ba] B[ab] W[bb]")  # every group is surrounded, but every point touches two sides (CON-2)
    assert board(e) == ["XO", "XO"]
    assert e.legal_moves() == [Move(B, MoveKind.PASS)]


def test_con_1_largest_board_52x52_uses_upper_case_letters():
    e = ConversionGoEngine(52)
    play(e, "B[ZZ] B[aa] W[Za]")
    assert e.stone((51, 51)) is B and e.stone((51, 0)) is W
    assert len([m for m in e.legal_moves() if m.kind is MoveKind.PLACE]) == 52 * 52 - 3


def test_con_1_point_off_the_board_is_refused_without_a_traceback():
    e = ConversionGoEngine(6)
    err = illegal(e, "B[gb]")
    assert (err.code, err.rule, err.message) == ("off-board", "CON-1", "point gb is off the 6x6 board")


# -- CON-2 dead groups -----------------------------------------------------------------------------------------
def test_con_2_edge_stone_without_liberties_touches_one_side_and_is_dead():
    e = build([".O...",
               ".X...",
               ".....",
               ".....",
               "....."], to_move=B)
    change = e.play(move("B[aa]"))
    assert change.converted == ()  # the white stone still has a liberty (ca): alive
    change = play_one(e, "W[]", "B[ca]")
    assert change.converted == (pt("ba"),)  # no liberty, one side (top): dead, and Black's now (CON-3)
    assert board(e)[:2] == ["XXX..", ".X..."]


def test_con_2_corner_stone_touches_two_sides_and_lives_without_liberties():
    e = build(["O....",
               "X....",
               ".....",
               ".....",
               "....."], to_move=B)
    change = e.play(move("B[ba]"))
    assert change.converted == ()
    assert board(e)[:2] == ["OX...", "X...."]


def test_con_2_group_touching_two_opposite_sides_lives_without_liberties():
    # The white column touches the top and the bottom: two distinct sides, so it is not dead.
    e = build(["XO.",
               "XO.",
               "XOX"], to_move=B)
    play(e, "B[ca] W[] B[cb]")
    assert board(e) == ["XOX", "XOX", "XOX"]


def test_con_2_group_touching_no_side_without_liberties_is_dead():
    e = build([".....",
               ".XXX.",
               "XO.OX",
               ".XXX.",
               "....."], to_move=W)
    change = e.play(move("W[cc]"))
    # The white group bc-cc-dc has no liberty and touches no side: White's own move converts it (CON-3).
    assert set(change.converted) == {pt("bc"), pt("cc"), pt("dc")}
    assert board(e)[2] == "XXXXX"


# -- CON-3 conversion order -----------------------------------------------------------------------------------
def test_con_3_opponent_groups_convert_first_so_the_mover_survives():
    # Black's stone at bb has no liberty, but first both dead white stones (ba: top only, ab: left only) turn
    # black; the black group then touches the top and the left side and lives. Checked the other way round, bb
    # alone would be dead and turn white.
    e = build(["XOX..",
               "O.O..",
               "XO...",
               ".....",
               "....."], to_move=B)
    change = e.play(move("B[bb]"))
    assert set(change.converted) == {pt("ba"), pt("ab")}
    assert change.placed == (pt("bb"),)
    assert board(e)[:3] == ["XXX..", "XXO..", "XO..."]


def test_con_3_every_dead_opponent_group_converts_at_once():
    e = build(["XO.OX",
               ".X.X.",
               ".....",
               ".....",
               "....."], to_move=B)
    change = e.play(move("B[ca]"))  # takes the last liberty of both white stones on the top edge
    assert set(change.converted) == {pt("ba"), pt("da")}
    assert board(e)[0] == "XXXXX"


def test_con_3_suicide_is_legal_and_converts_the_mover_stone():
    e = build([".O...",
               "O.O..",
               ".O...",
               ".....",
               "....."], to_move=B)
    change = e.play(move("B[bb]"))
    assert change.placed == (pt("bb"),) and change.converted == (pt("bb"),)
    assert e.stone(pt("bb")) is W


def test_con_3_second_round_reconverts_in_the_resulting_position():
    # B[cb] kills the white stone ca (round one: it turns black); the black group it then forms has no liberty
    # and touches one side, so round two turns all of it white. No third round: nothing else happens.
    e = build(["OXOXO",
               "OX.XO",
               "OOOOO",
               ".....",
               "....."], to_move=B)
    change = e.play(move("B[cb]"))
    assert board(e)[:3] == ["OOOOO", "OOOOO", "OOOOO"]
    # ca was converted twice and ends white as it began: only the stones whose colour changed are listed.
    assert change.converted == (pt("ba"), pt("da"), pt("bb"), pt("cb"), pt("db"))


# -- CON-4 occupied points, passes, end ------------------------------------------------------------------------
def test_con_4_play_on_an_occupied_point_is_illegal():
    e = ConversionGoEngine(6)
    play(e, "B[ba] W[cc]")
    err = illegal(e, "B[ba]")
    assert (err.code, err.rule, err.message, err.point) == ("occupied", "CON-4", "B6 is occupied", pt("ba"))
    sgf = ConversionGoEngine(6, notation=Notation.SGF)
    play(sgf, "B[ba] W[cc]")
    assert illegal(sgf, "B[ba]").message == "ba is occupied"


def test_con_4_pass_is_always_legal_even_on_a_full_board():
    e = build(["XO", "XO"], to_move=B)
    assert e.legal_moves() == [Move(B, MoveKind.PASS)]
    e.play(move("B[]"))
    assert e.end is None


def test_con_4_two_passes_end_the_game_even_within_the_opening():
    e = ConversionGoEngine(6)
    play(e, "B[] W[]")
    assert e.end is not None and e.end.finished
    assert e.end.reason == "two passes (CON-4)"
    assert e.end.method is ResultMethod.DRAW and e.end.text() == "0"
    assert e.legal_moves() == []


def test_con_4_two_passes_of_the_first_player_in_turns_1_to_3_also_end_the_game():
    # Literal reading of CON-4: two successive passes, whoever makes them.
    e = ConversionGoEngine(6, komi=0.5)
    play(e, "B[] B[]")
    assert e.end is not None and e.end.winner is W and e.end.text() == "W+0.5"


def test_con_4_move_after_the_end_is_illegal():
    e = ConversionGoEngine(6)
    play(e, "B[cc] B[dd] W[] W[]")
    err = illegal(e, "B[ee]")
    assert (err.code, err.rule, err.message) == ("after-end", "CON-4", "move after the end of the game")


def test_con_4_a_swap_between_two_passes_breaks_their_succession():
    e = ConversionGoEngine(6)
    play(e, "B[cc] W[aa] B[] W[swap-sides] W[]")
    assert e.end is None


# -- CON-5 refined pie rule -----------------------------------------------------------------------------------
def test_con_5_turns_1_to_3_are_two_black_and_one_white_in_any_order():
    e = ConversionGoEngine(6)
    assert e.to_move is None and e.player_to_move == 0
    e.play(move("B[aa]"))
    assert e.to_move is None and e.player_to_move == 0
    e.play(move("B[bb]"))
    assert e.to_move is W and e.player_to_move == 0
    e.play(move("W[cc]"))
    assert e.to_move is W and e.player_to_move == 1  # turn 4: the second player, White
    assert {m.colour for m in e.legal_moves()} == {W}
    assert Move(W, MoveKind.SWAP) in e.legal_moves()


def test_con_5_a_third_black_move_in_the_opening_is_illegal():
    e = ConversionGoEngine(6)
    play(e, "B[ca] B[de]")
    err = illegal(e, "B[da]")
    assert (err.code, err.rule, err.message) == ("wrong-turn", "CON-5", "White to move, not Black")


def test_con_5_a_second_white_move_in_the_opening_is_illegal():
    e = ConversionGoEngine(10)
    play(e, "B[cc] W[ee]")
    err = illegal(e, "W[if]")
    assert (err.code, err.rule, err.message) == ("wrong-turn", "CON-5", "Black to move, not White")


def test_con_5_a_pass_counts_as_one_of_the_opening_moves():
    e = ConversionGoEngine(6)
    play(e, "W[] B[ba]")
    assert e.to_move is B
    e.play(move("B[ea]"))
    assert e.to_move is W and e.turn == 3


def test_con_5_turn_4_is_white():
    e = ConversionGoEngine(6)
    play(e, "B[aa] W[bb] B[cc]")
    err = illegal(e, "B[dd]")
    assert (err.code, err.rule) == ("wrong-turn", "CON-5")


def test_con_5_swap_on_turn_4_gives_the_first_player_white_to_move():
    e = ConversionGoEngine(6)
    play(e, "W[] B[ba] B[ea]")
    change = e.play(move("W[swap-sides]"))
    assert change.swapped and e.swapped and e.turn == 4
    assert e.to_move is W and e.player_to_move == 0
    assert e.colour_of_player(0) is W and e.colour_of_player(1) is B
    assert board(e)[0] == ".X..X."  # the stones stay what they are
    err = illegal(e, "B[cb]")
    assert (err.code, err.rule) == ("wrong-turn", "GEN-5")
    play(e, "W[cb] B[ee]")
    assert e.to_move is W and e.player_to_move == 0


def test_con_5_without_swap_turns_alternate_from_the_first_player_with_black():
    e = ConversionGoEngine(6)
    play(e, "B[aa] W[bb] B[cc] W[dd]")
    assert not e.swapped and e.to_move is B and e.player_to_move == 0
    e.play(move("B[ee]"))
    assert e.to_move is W and e.player_to_move == 1


@pytest.mark.parametrize(("moves", "swap", "turn"), [
    ("W[ea]", "B[swap-sides]", 2),
    ("B[aa] W[bb] B[cc] W[dd] B[ee] W[ff]", "B[swap-sides]", 7),
    ("B[aa] W[bb] B[cc] W[dd] B[ee]", "W[swap-sides]", 6),
])
def test_con_5_swap_only_on_turn_4(moves: str, swap: str, turn: int):
    e = ConversionGoEngine(10)
    play(e, moves)
    err = illegal(e, swap)
    assert (err.code, err.rule, err.message) == ("swap-not-allowed", "CON-5", f"swap only on turn 4, not turn {turn}")
    assert Move(e.to_move or B, MoveKind.SWAP) not in e.legal_moves()


def test_con_5_a_swap_with_the_wrong_colour_is_a_turn_error_first():
    e = ConversionGoEngine(6)
    play(e, "B[aa] B[bb]")
    err = illegal(e, "B[swap-sides]")
    assert (err.code, err.rule) == ("wrong-turn", "CON-5")


# -- CON-6 mirroring ------------------------------------------------------------------------------------------
SYMMETRIES = {
    "half turn": lambda c, r, n: (n - c, n - r),
    "vertical middle line": lambda c, r, n: (n - c, r),
    "horizontal middle line": lambda c, r, n: (c, n - r),
    "main diagonal": lambda c, r, n: (r, c),
    "anti-diagonal": lambda c, r, n: (n - r, n - c),
}


def mirror_pairs(sym: str, count: int, size: int = 10, used: set[Point] | None = None) -> list[tuple[str, str]]:
    """`count` (opponent point, its image) pairs, off every line of symmetry so that only `sym` maps one to the
    other, spread over the board; all distinct and outside `used`."""
    n = size - 1
    image = SYMMETRIES[sym]
    taken = set(used or ())
    out: list[tuple[str, str]] = []
    for r in range(size):
        for c in range(0, size, 2):
            q = (c + r % 2, r)
            if q[0] == q[1] or q[0] + q[1] == n or q[0] >= size:
                continue
            m = image(q[0], q[1], n)
            if q in taken or m in taken:
                continue
            taken |= {q, m}
            out.append((format_point(q), format_point(m)))
            if len(out) == count:
                return out
    raise AssertionError("board too small")


OPENING = "B[aa] B[ja] W[aj]"  # turns 1-3 on 10x10, corners: no point of any mirror pair below


@pytest.mark.parametrize("sym", list(SYMMETRIES))
def test_con_6_the_tenth_successive_mirror_is_illegal(sym: str):
    e = ConversionGoEngine(10)
    play(e, OPENING)
    pairs = mirror_pairs(sym, 10, used={pt("aa"), pt("ja"), pt("aj"), pt("jj")})
    # Turn 4: White plays; turn 5 may mirror it (counts 1) ... turn 21 is the 9th mirror, turn 23 the 10th.
    for q, m in pairs[:9]:
        play(e, f"W[{q}] B[{m}]")
    assert e.turn == 21
    q, m = pairs[9]
    e.play(move(f"W[{q}]"))
    assert Move(B, MoveKind.PLACE, point=pt(m)) not in e.legal_moves()
    assert len(e.legal_moves()) == 1 + 100 - 22 - 1  # a pass and every empty point but the mirror
    err = illegal(e, f"B[{m}]")
    assert (err.code, err.rule, err.point) == ("mirror", "CON-6", pt(m))
    name = point_name(pt(m), Game.CONVERSION_GO, 10)
    assert name[0].isupper() and name[1:].isdigit()
    assert err.message == f"{name} would be the 10th successive mirror ({sym}) of the opponent's play"
    e.play(move("B[jj]"))  # any other play is fine


def test_con_6_turns_1_to_4_never_count():
    # White (the second player) mirrors Black's turn-3 play on turn 4: not counted. Its 9th counted mirror is on
    # turn 22 (legal) and the 10th on turn 24. Were turn 4 counted, turn 22 would already be illegal.
    e = ConversionGoEngine(10)
    pairs = mirror_pairs("main diagonal", 11, used={pt("aa"), pt("ja")})
    q0, m0 = pairs[0]
    play(e, f"W[aa] B[ja] B[{q0}] W[{m0}]")
    for q, m in pairs[1:10]:
        play(e, f"B[{q}] W[{m}]")
    assert e.turn == 22
    q, m = pairs[10]
    e.play(move(f"B[{q}]"))
    err = illegal(e, f"W[{m}]")
    assert err.rule == "CON-6" and e.turn == 23


@pytest.mark.parametrize("breaker", ["own pass", "opponent pass", "other play"])
def test_con_6_a_pass_or_a_play_that_does_not_mirror_ends_the_run(breaker: str):
    e = ConversionGoEngine(10)
    play(e, OPENING)
    pairs = mirror_pairs("half turn", 11, used={pt("aa"), pt("ja"), pt("aj"), pt("jj")})
    for q, m in pairs[:8]:
        play(e, f"W[{q}] B[{m}]")
    if breaker == "own pass":
        play(e, f"W[{pairs[8][0]}] B[]")
    elif breaker == "opponent pass":
        play(e, f"W[{pairs[8][0]}] B[{pairs[8][1]}] W[] B[jj]")
    else:
        play(e, f"W[{pairs[8][0]}] B[jj]")
    # Without the break the second of these would be the 10th mirror; now they start a new run.
    for q, m in pairs[9:11]:
        play(e, f"W[{q}] B[{m}]")
        assert e.stone(pt(m)) is B


def test_con_6_the_swap_is_not_a_play_so_turn_5_cannot_mirror_across_it():
    # Turn 5 follows the swap, not a play: the first player's run starts on turn 7, its 9th mirror is turn 23
    # (legal) and its 10th turn 25. Were turn 5 counted (as the image of turn 3), turn 23 would be illegal.
    e = ConversionGoEngine(10)
    pairs = mirror_pairs("anti-diagonal", 11, used={pt("aa"), pt("ja")})
    q0, m0 = pairs[0]
    play(e, f"W[aa] B[ja] B[{q0}] W[swap-sides] W[{m0}]")
    for q, m in pairs[1:10]:
        play(e, f"B[{q}] W[{m}]")
    assert e.turn == 23
    q, m = pairs[10]
    e.play(move(f"B[{q}]"))
    err = illegal(e, f"W[{m}]")
    assert err.rule == "CON-6" and "anti-diagonal" in err.message


# -- CON-7 final conversion and scoring -----------------------------------------------------------------------
SCORING = [
    "..XO.",
    ".OXO.",
    "..XO.",
    "..XO.",
    "..XO.",
]


def test_con_7_marked_stones_are_converted_before_scoring():
    e = build(SCORING, to_move=B, komi=0.5)
    e.play(move("B[]"))
    change = e.play(move("W[]"), Marks(black=frozenset({pt("bb")})))
    assert change.converted == (pt("bb"),)
    assert e.stone(pt("bb")) is B
    assert e.end is not None
    score = e.end.score
    assert score is not None
    # Black: 5 stones, the converted one, and the 9 empty points left of them; White: 5 stones, 5 points.
    assert (score.black, score.white, score.komi) == (15, 10, 0.5)
    assert (e.end.method, e.end.winner, e.end.margin, e.end.text()) == (ResultMethod.SCORE, B, 4.5, "B+4.5")
    assert e.end.reason == "two passes (CON-4)"


def test_con_7_a_region_touching_both_colours_is_nobodys():
    e = build(SCORING, to_move=B, komi=0.5)
    play(e, "B[] W[]")
    assert e.end is not None and e.end.score is not None
    assert (e.end.score.black, e.end.score.white) == (5, 11)
    assert e.end.text() == "W+6.5"


def test_con_7_equal_scores_with_komi_are_a_tie():
    e = build(["X.O", "X.O", "X.O"], to_move=B)
    play(e, "B[] W[]")
    assert e.end is not None and (e.end.method, e.end.winner, e.end.text()) == (ResultMethod.DRAW, None, "0")


def test_con_7_marks_that_split_a_group_are_illegal():
    e = build([".O...",
               ".O...",
               "XXXXX",
               ".....",
               "....."], to_move=W)
    e.play(move("W[]"))
    err = illegal(e, "B[]", Marks(black=frozenset({pt("ba")})))
    assert (err.code, err.rule) == ("marks-split", "CON-7")
    assert err.message == "the marks split the 2-stone group at B5: 1 of its stones are marked"  # ba
    change = e.play(move("B[]"), Marks(black=frozenset({pt("ba"), pt("bb")})))
    assert set(change.converted) == {pt("ba"), pt("bb")}


def test_con_7_marks_on_empty_points_or_own_stones_convert_nothing():
    e = build(SCORING, to_move=B)
    e.play(move("B[]"))
    change = e.play(move("W[]"), Marks(black=frozenset({pt("aa"), pt("ca")}), white=frozenset({pt("da")})))
    assert change.converted == ()
    assert board(e) == SCORING


def test_con_7_marks_before_the_final_pass_are_ignored():
    e = build(SCORING, to_move=B)
    e.play(move("B[]"), Marks(black=frozenset({pt("bb")})))
    assert e.stone(pt("bb")) is W and e.end is None


# -- CON-8 notation: the kinds of move ------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [
    Move(B, MoveKind.RELOCATE, point=(0, 0), target=(1, 1)),
    Move(B, MoveKind.REMOVE, point=(0, 0)),
    Move(B, MoveKind.SWEEP, line=2),
])
def test_con_8_moves_of_other_games_are_not_allowed(bad: Move):
    e = ConversionGoEngine(6)
    with pytest.raises(IllegalMove) as info:
        e.play(bad)
    assert (info.value.code, info.value.rule) == ("kind-not-allowed", "CON-8")
    assert e.turn == 0


def test_con_8_engine_game_identity():
    assert ConversionGoEngine.game is Game.CONVERSION_GO


# -- properties -----------------------------------------------------------------------------------------------
def candidates(e: ConversionGoEngine, rng: random.Random) -> list[Move]:
    """A few moves of every kind, legal or not."""
    n = e.size
    out: list[Move] = []
    for colour in (B, W):
        out += [Move(colour, MoveKind.PASS), Move(colour, MoveKind.SWAP),
                Move(colour, MoveKind.SWEEP, line=0), Move(colour, MoveKind.REMOVE, point=(0, 0))]
        out += [Move(colour, MoveKind.PLACE, point=(rng.randrange(n), rng.randrange(n))) for _ in range(4)]
    return out


def whole_group_marks(e: ConversionGoEngine, rng: random.Random) -> Marks | None:
    """Marks that convert one whole group chosen at random (consistent with CON-7), or None on an empty board."""
    stones = [(c, r) for r in range(e.size) for c in range(e.size) if e.stone((c, r)) is not None]
    if not stones:
        return None
    start = rng.choice(stones)
    colour = e.stone(start)
    group, todo = {start}, [start]
    while todo:
        c, r = todo.pop()
        for q in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if 0 <= q[0] < e.size and 0 <= q[1] < e.size and q not in group and e.stone(q) is colour:
                group.add(q)
                todo.append(q)
    return Marks(black=frozenset(group)) if colour is W else Marks(white=frozenset(group))


def random_game(size: int, seed: int, *, check_illegal: bool) -> ConversionGoEngine:
    rng = random.Random(seed)
    e = ConversionGoEngine(size, komi=rng.choice([0.0, 0.5, 2.0]))
    last_pass = False
    while e.end is None:
        legal = e.legal_moves()
        assert legal and all(m.kind is not MoveKind.RESIGN for m in legal)
        if check_illegal:
            for bad in candidates(e, rng):
                if bad not in legal:
                    refused(e, bad)
        places = [m for m in legal if m.kind is MoveKind.PLACE]
        m = rng.choice(places) if places and rng.random() < 0.9 else rng.choice(legal)
        marks = whole_group_marks(e, rng) if last_pass and m.kind is MoveKind.PASS and rng.random() < 0.5 else None
        before, turn = board(e), e.turn
        try:
            change = e.play(m, marks)
        except IllegalMove as exc:  # pragma: no cover - a legal move must play
            raise AssertionError(f"legal move {m} refused: {exc}") from exc
        assert e.turn == turn + 1
        after = board(e)
        changed = {(c, r) for r in range(size) for c in range(size) if before[r][c] != after[r][c]}
        assert changed == set(change.placed) | set(change.converted)
        assert change.swapped == (m.kind is MoveKind.SWAP)
        last_pass = m.kind is MoveKind.PASS
    return e


def refused(e: ConversionGoEngine, bad: Move) -> None:
    before = (board(e), e.turn, e.to_move, e.swapped, e.end)
    with pytest.raises(IllegalMove) as info:
        e.play(bad)
    assert info.value.code and info.value.rule and "\n" not in info.value.message
    assert (board(e), e.turn, e.to_move, e.swapped, e.end) == before


@settings(max_examples=60, deadline=None)
@given(size=st.sampled_from([2, 3, 4, 5, 7]), seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_stay_atomic_and_end_with_a_score(size: int, seed: int):
    e = random_game(size, seed, check_illegal=True)
    end = e.outcome()
    assert end.finished and end.reason == "two passes (CON-4)"
    assert end.score is not None and end.score.black + end.score.white <= size * size
    margin = end.score.black - end.score.white - end.score.komi
    if margin == 0:
        assert end.method is ResultMethod.DRAW and end.winner is None
    else:
        assert end.method is ResultMethod.SCORE and end.winner is (B if margin > 0 else W)
        assert end.margin == abs(margin)
    assert e.legal_moves() == []


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from([3, 4]), seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 30))
def test_legal_moves_are_exactly_the_moves_play_accepts(size: int, seed: int, stop: int):
    rng = random.Random(seed)
    e = ConversionGoEngine(size)
    for _ in range(stop):
        legal = e.legal_moves()
        if not legal:
            break
        places = [m for m in legal if m.kind is MoveKind.PLACE]
        e.play(rng.choice(places) if places and rng.random() < 0.9 else rng.choice(legal))
    everything = [Move(colour, kind) for colour in (B, W) for kind in (MoveKind.PASS, MoveKind.SWAP)]
    everything += [Move(colour, MoveKind.PLACE, point=(c, r)) for colour in (B, W) for r in range(size)
                   for c in range(size)]
    accepted = []
    for m in everything:
        trial = copy.deepcopy(e)
        try:
            trial.play(m)
        except IllegalMove:
            continue
        accepted.append(m)
    assert sorted(map(str, accepted)) == sorted(map(str, e.legal_moves()))
