"""What the replay driver and the verdict decide for every game: resignation, setup placement (ING-8),
other rulesets (ING-9), the swap's effect on who won, and how a declared result is judged (rules README)."""

from __future__ import annotations

import pytest

from boardrecords.records.model import Colour
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.status import ResultStatus, VerdictClass
from boardrecords.verifier.judging.verdict import Verdict, verify


def verdict(text: str) -> Verdict:
    records = read_bytes(text.encode(), "test.rec")
    assert len(records) == 1
    return verify(records[0])


# A 5x5 Go game that ends by two passes: Black owns columns a-b, White columns d-e, column c is dame.
GO_END = (";B[ba];W[da];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[be];W[de];B[];W[]")


def go(header: str, moves: str = GO_END) -> Verdict:
    return verdict(f"(;GM[1]SZ[5]PB[Ann]PW[Bo]{header}{moves})")


def test_ing_6_area_score_with_komi_agrees():
    v = go("KM[0.5]RE[W+0.5]")
    assert v.valid and v.end == "two passes (ING-5)"
    assert (v.score.black, v.score.white) == (10, 10)
    assert v.computed == "W+0.5" and v.agrees is True and v.passes


def test_ing_6_wrong_margin_after_agreed_end_disagrees():
    # TB[] on the second pass is the agreement (nothing removed): the board scores as it stands, W+0.5.
    v = go("KM[0.5]RE[W+1.5]", GO_END + "TB[]")
    assert v.valid and v.status is ResultStatus.DISAGREES and v.agrees is False and not v.passes
    assert v.verdict is VerdictClass.WRONG_RESULT


def test_gen_8_wrong_margin_at_an_unmarked_stop_is_unconfirmed():
    # GEN-8 (b): two passes without TB/TW: the record does not say which stones the players removed.
    v = go("KM[0.5]RE[B+3.5]")
    assert v.valid and v.status is ResultStatus.UNCONFIRMED and v.agrees is None and v.passes
    assert v.winner_colour is Colour.BLACK and v.winner_player == "Ann"  # the declared winner
    assert v.verdict is VerdictClass.PASS
    warning = next(p for p in v.warnings if p.code == "result-unconfirmed")
    assert warning.rule == "GEN-8" and "W+0.5" in warning.message  # what the board as it stands gives
    strict = verify(read_bytes(b"(;GM[1]SZ[5]KM[0.5]RE[B+3.5]" + GO_END.encode() + b")")[0],
                    require_complete=True)
    assert strict.verdict is VerdictClass.UNCONFIRMED and not strict.passes


def test_gen_8_wrong_margin_after_resumed_play_disagrees():
    # ING-5: after resumed play the next two passes score the board as it stands, by rule.
    v = go("KM[0.5]RE[B+3.5]", GO_END + ";B[];W[]")
    assert v.valid and v.end is not None and "ING-5" in v.end
    assert v.status is ResultStatus.DISAGREES


def test_gen_8_server_record_without_final_passes_is_unconfirmed():
    # GEN-8 (a): the record stops before the end and declares a score.
    v = go("KM[0.5]RE[W+12.5]", ";B[ba];W[da]")
    assert v.end == "unfinished" and v.status is ResultStatus.UNCONFIRMED and v.passes
    assert v.winner_colour is Colour.WHITE and v.winner_player == "Bo"
    assert "board as it stands gives" in (v.result_note or "")
    # GEN-8: B+ in Go names the winner of the score only; the record stops before the end, so it stands unconfirmed.
    v = go("RE[B+]", ";B[ba];W[da]")
    assert v.status is ResultStatus.UNCONFIRMED and v.winner_colour is Colour.BLACK and v.passes


def test_gen_8_conversion_go_unmarked_end_is_unconfirmed():
    base = "(;GM[ConversionGo]SZ[4]KM[0.5]RE[{}];B[aa];B[dd];W[ad];W[da];B[];W[]{})"
    v = verdict(base.format("B+9.5", ""))
    assert v.valid and v.status is ResultStatus.UNCONFIRMED
    assert verdict(base.format("B+9.5", "TB[]")).status is ResultStatus.DISAGREES
    computed = verdict(base.format("?", "")).computed
    assert verdict(base.format(computed, "")).status is ResultStatus.AGREES


def test_gen_8_undeclared_results():
    for header in ("", "RE[]", "RE[?]"):
        v = go(header)
        assert v.status is ResultStatus.UNDECLARED and v.agrees is None and v.passes
        assert v.computed == "0"  # the verdict shows the computed result


def test_ing_6_equal_scores_are_a_draw():
    assert go("RE[0]").agrees is True
    assert go("RE[Draw]").agrees is True
    assert go("RE[Draw]").computed == "0"


@pytest.mark.parametrize("rules", ["Japanese", "Korean", "AGA-Japanese"])
def test_ing_9_other_rulesets_are_not_score_checked(rules):
    v = go(f"RU[{rules}]KM[0.5]RE[B+7]")
    assert v.valid and v.result_checked is False
    assert v.status is ResultStatus.KIND_ONLY and v.passes  # the kind is right: a score for a game ended by passes
    assert "ING-9" in (v.result_note or "")


@pytest.mark.parametrize("rules", ["Chinese", "GOE", "new zealand", "Tromp_Taylor", "aga", ""])
def test_ing_9_area_rulesets_are_checked(rules):
    v = go(f"RU[{rules}]KM[0.5]RE[B+7]", GO_END + "TB[]")
    assert v.result_checked is True and v.agrees is False


def test_ing_9_the_kind_of_result_is_still_checked():
    v = go("RU[Japanese]RE[B+R]")
    assert v.result_checked is False and v.agrees is False and v.status is ResultStatus.DISAGREES


def test_ing_8_setup_after_the_first_move_is_an_error():
    v = verdict("(;GM[1]SZ[5];B[aa];W[bb];AB[cc];B[dd])")
    assert not v.valid
    first = v.first_error
    assert first.rule == "ING-8" and first.move == 3


def test_ing_8_setup_in_a_move_node_is_an_error():
    v = verdict("(;GM[1]SZ[5];B[aa]AW[cc];W[bb])")
    assert not v.valid and v.first_error.rule == "ING-8" and v.first_error.move == 1


def test_ing_8_handicap_in_the_second_node_is_setup():
    v = verdict("(;GM[1]SZ[9]HA[2];AB[cc][gg];W[ee];B[ce])")
    assert v.valid, v.problems


def test_setup_outside_go_is_an_error():
    v = verdict("(;GM[Squer]SZ[4]AB[aa];B[bb])")
    assert not v.valid


def test_resignation_names_the_other_colour():
    v = verdict("(;GM[Cation]SZ[4]PB[Ann]PW[Bo]RE[W+R];B[bb];B[resign])")
    assert v.valid and v.winner_colour is Colour.WHITE and v.winner_player == "Bo" and v.agrees is True
    assert verdict("(;GM[Cation]SZ[4]RE[B+R];B[bb];B[resign])").agrees is False
    assert verdict("(;GM[Cation]SZ[4]RE[W+T];B[bb];B[resign])").agrees is False


def test_a_resignation_must_be_the_last_move():
    v = verdict("(;GM[Cation]SZ[4]RE[W+R];B[bb];B[resign];W[cc])")
    assert not v.valid
    assert (v.first_error.move, v.first_error.rule) == (3, "GEN-9")


def test_winner_player_follows_the_swap():
    # Ann plays Black's first stone, Bo swaps and takes Black; then Ann (now White) resigns.
    v = verdict("(;GM[Quentin]SZ[5]PB[Ann]PW[Bo]RE[B+R];B[cc];W[swap-sides];W[resign])")
    assert v.valid and v.swapped
    assert v.winner_colour is Colour.BLACK and v.winner_player == "Bo"
    assert (v.black_player, v.white_player) == ("Bo", "Ann")


def test_gen_8_an_unfinished_game():
    base = "(;GM[Squer]SZ[5]RE[{}];B[aa];W[bb])"
    for ok in ("B+R", "W+T", "B+F", "Void"):
        assert verdict(base.format(ok)).agrees is True, ok
    # A chain win decided off the record cannot be refuted: unconfirmed, with the declared winner.
    v = verdict(base.format("W+"))
    assert v.status is ResultStatus.UNCONFIRMED and v.winner_colour is Colour.WHITE and v.passes
    assert "no chain on the board" in (v.result_note or "")
    for wrong in ("W+3", "0"):  # a score is not a result a connection game can have
        assert verdict(base.format(wrong)).status is ResultStatus.DISAGREES, wrong
    assert verdict(base.format("?")).agrees is None
    assert verdict("(;GM[Squer]SZ[5];B[aa])").agrees is None


def test_gen_8_a_result_outside_the_vocabulary_is_unrecognised_with_a_warning_that_quotes_it():
    v = go("KM[0.5]RE[has adjourned.]")
    assert v.status is ResultStatus.UNRECOGNISED and v.agrees is None and v.passes
    warning = next(p for p in v.warnings if p.code == "result-unrecognised")
    assert "RE[has adjourned.]" in warning.message and warning.rule == "GEN-8"
    assert v.winner_colour is Colour.WHITE  # who won: the computed winner of a finished game
    unfinished = read_bytes(b"(;GM[1]SZ[5]PB[Al]PW[Bo]RE[has adjourned.];B[aa])", "test.rec")[0]
    assert verify(unfinished).winner_colour is None  # ... and nobody otherwise
    strict = verify(unfinished, require_complete=True)
    assert strict.verdict is VerdictClass.UNCONFIRMED and not strict.passes


@pytest.mark.parametrize("declared", ["B+J", "B+Illegal", "B+AW", "B+Time Over"])
def test_gen_8_a_win_by_a_method_outside_the_vocabulary_credits_the_colour_it_names(declared):
    # The finished game is White's on the board (KM[0.5]: White wins by 0.5); the event published a win for Black.
    v = go(f"KM[0.5]RE[{declared}]")
    assert v.computed == "W+0.5"
    assert v.status is ResultStatus.UNRECOGNISED and v.agrees is None and v.passes
    assert (v.winner_colour, v.winner_player) == (Colour.BLACK, "Ann")
    warning = next(p for p in v.warnings if p.code == "result-unrecognised")
    assert f"RE[{declared}]" in warning.message and warning.rule == "GEN-8"
    # A record that stops before the end, and one that ends by a resignation, credit the named colour alike.
    unfinished = verify(read_bytes(f"(;GM[1]SZ[5]PB[Al]PW[Bo]RE[W+{declared[2:]}];B[aa])".encode())[0])
    assert (unfinished.status, unfinished.winner_colour, unfinished.winner_player) == (
        ResultStatus.UNRECOGNISED, Colour.WHITE, "Bo")
    resigned = verify(read_bytes(f"(;GM[1]SZ[5]PB[Al]PW[Bo]RE[{declared}];B[aa];W[resign])".encode())[0])
    assert (resigned.status, resigned.winner_colour, resigned.computed) == (
        ResultStatus.UNRECOGNISED, Colour.BLACK, "B+R")
    strict = verify(read_bytes(f"(;GM[1]SZ[5]RE[{declared}];B[aa])".encode())[0], require_complete=True)
    assert strict.verdict is VerdictClass.UNCONFIRMED and strict.winner_colour is Colour.BLACK


@pytest.mark.parametrize("declared", ["B+W", "W+ Black", "B+1.5 ? W+timeout", "Black wins"])
def test_gen_8_text_that_names_no_one_colour_credits_the_computed_winner_only(declared):
    v = go(f"KM[0.5]RE[{declared}]")
    assert v.status is ResultStatus.UNRECOGNISED and v.winner_colour is Colour.WHITE  # the board's winner
    unfinished = verify(read_bytes(f"(;GM[1]SZ[5]RE[{declared}];B[aa])".encode())[0])
    assert unfinished.winner_colour is None


def test_gen_8_the_named_winner_follows_a_swap():
    # Quentin, a swap on turn 2: the player who held White (Bo) holds Black at the end; B+J credits Black's player.
    v = verdict("(;GM[Quentin]SZ[6]PB[Ann]PW[Bo]RE[B+J];B[cc];W[swap-sides];W[dd])")
    assert v.swapped and v.status is ResultStatus.UNRECOGNISED
    assert (v.winner_colour, v.winner_player) == (Colour.BLACK, "Bo")


def test_a_missing_size_for_a_connection_game_is_an_error():
    v = verdict("(;GM[Cation];B[aa])")
    assert not v.valid
    assert any(p.rule == "CAT-1" for p in v.errors)


def test_ing_5_a_resignation_after_a_first_stop_without_marks_stands():
    # Two passes without marks only stop the game; a further move (here a resignation) means play went on.
    v = verdict("(;GM[1]SZ[5]RE[W+R];B[aa];W[];B[];B[resign])")
    assert v.valid and v.computed == "W+R" and v.agrees is True


def test_ing_5_a_resignation_after_the_agreed_end_is_a_move_after_the_end():
    v = verdict("(;GM[1]SZ[5]RE[W+R];B[aa];W[];B[]TB[aa];B[resign])")
    assert not v.valid and (v.first_error.move, v.first_error.rule) == (4, "ING-5")


def test_ing_8_a_pl_naming_the_colour_that_moves_next_anyway_is_ignored_with_a_warning():
    # Sabaki writes the colour to move into every move node after a player change: `;W[mo]PL[B]`.
    v = verdict("(;GM[1]SZ[5]RE[B+R];B[aa];W[ee]PL[B];B[ab];PL[W];W[ed];B[ac];W[resign])")
    assert v.valid and v.status is ResultStatus.AGREES
    ignored = [(p.move, p.rule) for p in v.warnings if p.code == "pl-ignored"]
    assert ignored == [(2, "ING-8"), (4, "ING-8")]  # a PL in its own node is reported at the move after it


def test_ing_8_a_pl_naming_no_colour_is_ignored_in_a_move_node_too():
    v = verdict("(;GM[1]SZ[5];B[aa]PL[1];W[bb];B[cc])")
    assert v.valid and [p.move for p in v.warnings if p.code == "pl-ignored"] == [1]


def test_ing_8_a_pl_after_the_first_move_that_names_the_other_colour_is_an_error():
    v = verdict("(;GM[1]SZ[5];B[aa];W[ee]PL[W];W[bb])")
    assert not v.valid
    assert (v.first_error.move, v.first_error.rule) == (2, "ING-8")
    # ... and so is other setup beside an ignored PL.
    v = verdict("(;GM[1]SZ[5];B[aa];W[ee]PL[B]AB[cc];B[bb])")
    assert (v.first_error.move, v.first_error.rule) == (2, "ING-8")


def test_fmt_4_and_fmt_5_two_moves_in_one_node_name_their_move_number():
    v = verdict("(;GM[1]SZ[5];B[aa];W[bb];B[cc]W[dd];W[ee])")
    problem = next(p for p in v.errors if p.code == "two-moves")
    assert (problem.move, problem.rule) == (3, "FMT-4")


def test_gen_8_b_plus_in_go_and_conversion_go_names_the_winner_of_the_score():
    # GO_END: 10 points each; komi 0.5 gives White the game.
    assert go("KM[0.5]RE[W+]TB[]").status is ResultStatus.AGREES
    marked = verdict(f"(;GM[1]SZ[5]KM[0.5]RE[B+]{GO_END}TB[])")
    assert marked.status is ResultStatus.DISAGREES and marked.winner_colour is Colour.WHITE
    unmarked = go("KM[0.5]RE[B+]")  # no TB/TW: the players' removals are unknown (GEN-8 b)
    assert unmarked.status is ResultStatus.UNCONFIRMED and unmarked.winner_colour is Colour.BLACK
    conversion = "(;GM[ConversionGo]SZ[4]KM[0.5]RE[{}];B[aa];B[dd];W[ad];W[da];B[];W[]TB[])"
    assert verdict(conversion.format("W+")).computed == "W+0.5"
    assert verdict(conversion.format("W+")).status is ResultStatus.AGREES
    assert verdict(conversion.format("B+")).status is ResultStatus.DISAGREES


def test_ing_9_who_won_under_a_territory_ruleset():
    # The declared winner stands; of the wrong kind, nobody; undeclared, nobody (GEN-8, who won).
    kind_only = go("KM[0.5]RU[Japanese]RE[B+3]")
    assert kind_only.status is ResultStatus.KIND_ONLY and kind_only.winner_colour is Colour.BLACK
    wrong_kind = go("KM[0.5]RU[Japanese]RE[B+R]")
    assert wrong_kind.status is ResultStatus.DISAGREES and wrong_kind.winner_colour is None
    undeclared = go("KM[0.5]RU[Japanese]")
    assert undeclared.status is ResultStatus.UNDECLARED and undeclared.winner_colour is None
    assert go("KM[0.5]").winner_colour is Colour.WHITE  # area scoring: the computed winner
