"""Typed values: moves of every kind in every game, board size, result, date, komi, handicap, the header, setup."""

from __future__ import annotations

from datetime import date

import pytest

from boardrecords.records.games import SPECS, Game, MoveKind
from boardrecords.records.model import Colour, FormatError, ResultMethod, Severity
from boardrecords.records.properties import parse_move, read_date, read_komi, read_result, read_size
from boardrecords.records.reader import read_bytes
from boardrecords.records.setup_stones import collect_setup as setup
from boardrecords.verifier.judging.verdict import verify


def one(data: bytes, **kw):
    (record,) = read_bytes(data, "t.sgf", **kw)
    return record


def errors(record) -> list[str]:
    return [d.code for d in record.diagnostics if d.severity is Severity.ERROR]


# -- moves -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.parametrize(("value", "kind", "point", "target", "line"), [
    ("dc", MoveKind.PLACE, (3, 2), None, None),
    ("", MoveKind.PASS, None, None, None),
    ("swap-sides", MoveKind.SWAP, None, None, None),
    ("swap", MoveKind.SWAP, None, None, None),
    ("dc-fe", MoveKind.RELOCATE, (3, 2), (5, 4), None),
    ("dc-", MoveKind.REMOVE, (3, 2), None, None),
    ("sweep-c", MoveKind.SWEEP, None, None, 2),
    ("resign", MoveKind.RESIGN, None, None, None),
])
def test_fmt_12_every_move_kind_is_recognised_in_every_game(game, value, kind, point, target, line):
    # The engines refuse the kinds their game lacks, with their own rule; the reader only reads.
    move = parse_move(SPECS[game], 7, Colour.WHITE, value)
    assert (move.kind, move.point, move.target, move.line, move.raw) == (kind, point, target, line, value)
    assert move.colour is Colour.WHITE


@pytest.mark.parametrize(("game", "size", "kind"), [
    (Game.GO, 19, MoveKind.PASS), (Game.GO, 9, MoveKind.PASS), (Game.CONVERSION_GO, 16, MoveKind.PASS),
    (Game.GO, 20, MoveKind.PLACE), (Game.CONVERSION_GO, 25, MoveKind.PLACE), (Game.CATION, 25, MoveKind.PLACE),
])
def test_fmt_12_tt_is_a_pass_on_go_boards_up_to_19(game, size, kind):
    move = parse_move(SPECS[game], size, Colour.BLACK, "tt")
    assert move.kind is kind
    assert move.raw == "tt"


@pytest.mark.parametrize(("game", "rule"), [(Game.GO, "ING-1"), (Game.CONVERSION_GO, "CON-1"),
                                            (Game.CATION, "CAT-1"), (Game.QUENTIN, "QUE-1"), (Game.SQUER, "SQU-1")])
@pytest.mark.parametrize("value", ["hd", "ah", "ab-ah", "hh-", "sweep-h", "st"])
def test_a_point_off_the_board_is_an_invalid_move_with_the_size_rule(game, rule, value):
    move = parse_move(SPECS[game], 7, Colour.BLACK, value)
    assert move.kind is MoveKind.INVALID
    assert move.rule == rule
    assert "off the 7x7 board" in move.problem and rule in move.problem


def test_the_message_names_the_point():
    move = parse_move(SPECS[Game.GO], 7, Colour.BLACK, "hd")
    assert move.problem == "point hd is off the 7x7 board (ING-1)"
    assert move.point == (7, 3)


@pytest.mark.parametrize(("game", "rule"), [(Game.GO, "ING-10"), (Game.CONVERSION_GO, "CON-8"),
                                            (Game.CATION, "CAT-10"), (Game.QUENTIN, "QUE-8"), (Game.SQUER, "SQU-11")])
@pytest.mark.parametrize("value", ["d", "dcc", "d-c", "Pass", "swap-side", "sweep-", "sweep-cc", "1a", "dc-f", "é"])
def test_a_value_that_is_no_move_is_invalid_with_the_notation_rule(game, rule, value):
    move = parse_move(SPECS[game], 19, Colour.WHITE, value)
    assert move.kind is MoveKind.INVALID
    assert move.rule == rule
    assert move.raw == value
    assert f"W[{value}] is not a move value ({rule})" == move.problem


def test_upper_case_letters_are_points_26_to_51():
    assert parse_move(SPECS[Game.CATION], 52, Colour.BLACK, "aZ").point == (0, 51)
    assert parse_move(SPECS[Game.CATION], 30, Colour.BLACK, "aZ").kind is MoveKind.INVALID


def test_moves_in_a_record_carry_the_invalid_ones_with_their_position():
    r = one(b"(;GM[Cation]SZ[4]\n;B[bb];W[ee];B[x1];W[bb-ca];B[cc-])")
    kinds = [m.kind for m in r.moves()]
    assert kinds == [MoveKind.PLACE, MoveKind.INVALID, MoveKind.INVALID, MoveKind.RELOCATE, MoveKind.REMOVE]
    off, bad = r.moves()[1], r.moves()[2]
    # An invalid move's position is its value's `[`.
    assert off.rule == "CAT-1" and (off.pos.line, off.pos.column) == (2, 9)
    assert bad.rule == "CAT-10" and (bad.pos.line, bad.pos.column) == (2, 15)
    assert r.moves()[0].pos is None  # well-formed moves are shared: their position is their node's
    assert (r.main_line()[0].pos.line, r.main_line()[0].pos.column) == (2, 1)


def test_moves_in_variations_are_typed_too():
    r = one(b"(;GM[Squer]SZ[4];B[aa](;W[sweep-a])(;W[bb]C[x]))")
    (first, second) = r.main_line()[0].children
    assert first.move.kind is MoveKind.SWEEP and first.move.line == 0
    assert second.move.kind is MoveKind.PLACE


def test_fmt_4_a_node_with_two_moves_is_an_error_and_the_first_is_read():
    r = one(b"(;GM[1];W[bb]B[aa])")
    assert r.moves()[0].raw == "bb" and r.moves()[0].colour is Colour.WHITE
    (d,) = r.diagnostics
    assert d.code == "two-moves" and d.severity is Severity.ERROR
    assert "W[bb]" in d.message and "the first" in d.message
    assert (d.pos.line, d.pos.column) == (1, 8)


def test_fmt_4_a_move_in_the_root_is_an_error():
    r = one(b"(;GM[1]B[aa];W[bb])")
    assert r.root.move is not None
    assert errors(r) == ["move-in-root"]
    assert [m.raw for m in r.moves()] == ["bb"]


# -- board size ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "value", "size", "code"), [
    (Game.GO, None, 19, None), (Game.CONVERSION_GO, None, 16, None), (Game.GO, "9", 9, None),
    (Game.GO, "19:19", 19, None), (Game.GO, " 13 ", 13, None),
    (Game.CATION, None, 0, "missing-size"), (Game.QUENTIN, None, 0, "missing-size"),
    (Game.SQUER, None, 0, "missing-size"),
    (Game.GO, "7:9", 0, "bad-size"), (Game.GO, "x", 0, "bad-size"), (Game.GO, "1", 1, "bad-size"),
    (Game.GO, "53", 53, "bad-size"), (Game.CATION, "2", 2, "bad-size"), (Game.SQUER, "2", 2, None),
    (Game.QUENTIN, "-5", 0, "bad-size"),
])
def test_fmt_7_board_size(game, value, size, code):
    got, problem = read_size(game, value)
    assert got == size
    assert (problem.code if problem else None) == code
    if problem is not None:
        assert problem.severity is Severity.ERROR
        assert problem.rule == SPECS[game].size_rule and SPECS[game].size_rule in problem.message


def test_fmt_7_size_errors_are_record_errors_at_the_sz_property():
    r = one(b"(;GM[Cation]\nSZ[7:9];B[aa])")
    (d,) = r.diagnostics
    assert d.code == "bad-size" and d.rule == "CAT-1" and "square" in d.message
    assert (d.pos.line, d.pos.column) == (2, 1)
    missing = one(b"(;GM[Quentin];B[aa])")
    assert missing.diagnostics[0].code == "missing-size" and missing.diagnostics[0].rule == "QUE-1"


def test_unknown_game_is_an_error_and_reads_as_go():
    r = one(b"(;GM[Chess];B[aa])")
    assert r.game is Game.GO and r.size == 19
    assert errors(r) == ["unknown-game"]


@pytest.mark.parametrize(("gm", "game"), [("1", Game.GO), ("ConversionGo", Game.CONVERSION_GO),
                                          ("conversion-go", Game.CONVERSION_GO), ("CATION", Game.CATION),
                                          ("quentin", Game.QUENTIN), ("Squer", Game.SQUER)])
def test_gm_selects_the_game(gm, game):
    r = one(f"(;GM[{gm}]SZ[5])".encode())
    assert r.game is game


# -- result --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "method", "winner", "margin", "canonical"), [
    ("B+", ResultMethod.CHAIN, "B", None, "B+"),
    ("W+", ResultMethod.CHAIN, "W", None, "W+"),
    ("B+3.5", ResultMethod.SCORE, "B", 3.5, "B+3.5"),
    ("W+0.5", ResultMethod.SCORE, "W", 0.5, "W+0.5"),
    ("W+12", ResultMethod.SCORE, "W", 12.0, "W+12"),
    ("0", ResultMethod.DRAW, None, None, "0"),
    ("Draw", ResultMethod.DRAW, None, None, "0"),
    ("B+R", ResultMethod.RESIGN, "B", None, "B+R"),
    ("B+Resign", ResultMethod.RESIGN, "B", None, "B+R"),
    ("W+T", ResultMethod.TIME, "W", None, "W+T"),
    ("W+Time", ResultMethod.TIME, "W", None, "W+T"),
    ("B+F", ResultMethod.FORFEIT, "B", None, "B+F"),
    ("B+Forfeit", ResultMethod.FORFEIT, "B", None, "B+F"),
    ("Void", ResultMethod.VOID, None, None, "Void"),
    ("?", ResultMethod.UNKNOWN, None, None, "?"),
    ("", ResultMethod.UNKNOWN, None, None, "?"),
    ("W+Time Over", ResultMethod.OTHER, "W", None, "W+Time Over"),  # GEN-8: one colour named, by another method
    ("B+J", ResultMethod.OTHER, "B", None, "B+J"),
    ("W+AW", ResultMethod.OTHER, "W", None, "W+AW"),
    ("B+W", ResultMethod.OTHER, None, None, "B+W"),  # two colours: no one winner named
    ("Black resigns.", ResultMethod.OTHER, None, None, "Black resigns."),
    ("B+1.5 ? W+timeout", ResultMethod.OTHER, None, None, "B+1.5 ? W+timeout"),
])
def test_fmt_9_results(raw, method, winner, margin, canonical):
    result, problem = read_result(raw)
    assert problem is None
    assert (result.method, result.winner.value if result.winner else None, result.margin) == (method, winner, margin)
    assert result.raw == raw
    assert result.canonical() == canonical


@pytest.mark.parametrize("raw", ["B", "W"])
def test_fmt_9_a_bare_colour_reads_as_a_win_with_a_warning(raw):
    result, problem = read_result(raw)
    assert result.method is ResultMethod.CHAIN and result.winner is Colour(raw)
    assert problem is not None and problem.code == "result-bare" and problem.severity is Severity.WARNING


def test_no_result_is_undeclared():
    r = one(b"(;GM[1])")
    assert not r.result.declared


# -- dates ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "first", "last", "dates"), [
    ("2024-05-03", date(2024, 5, 3), date(2024, 5, 3), ("2024-05-03",)),
    ("2024", date(2024, 1, 1), date(2024, 12, 31), ("2024",)),
    ("2024-02", date(2024, 2, 1), date(2024, 2, 29), ("2024-02",)),
    ("1996-05-06,07,08", date(1996, 5, 6), date(1996, 5, 8), ("1996-05-06", "1996-05-07", "1996-05-08")),
    ("1996-05,06", date(1996, 5, 1), date(1996, 6, 30), ("1996-05", "1996-06")),
    ("1996-12-27,1997-01-03", date(1996, 12, 27), date(1997, 1, 3), ("1996-12-27", "1997-01-03")),
    ("1996-12-27,28,1997-01-03,04", date(1996, 12, 27), date(1997, 1, 4),
     ("1996-12-27", "1996-12-28", "1997-01-03", "1997-01-04")),
    ("1996-05-06,06-01", date(1996, 5, 6), date(1996, 6, 1), ("1996-05-06", "1996-06-01")),
    ("1996,1997", date(1996, 1, 1), date(1997, 12, 31), ("1996", "1997")),
])
def test_iso_dates_partial_and_multiple(raw, first, last, dates):
    value, problem = read_date(raw)
    assert problem is None
    assert (value.first, value.last, value.dates, value.raw, value.iso) == (first, last, dates, raw, True)


@pytest.mark.parametrize("raw", ["01.08.2001", "9-09-2000", "August 1, 2001", "2024-13-01", "2023-02-29",
                                 "12th and 13th march 94", "07,08"])
def test_a_date_that_is_not_iso_keeps_its_text_with_a_warning(raw):
    value, problem = read_date(raw)
    assert value.raw == raw and not value.iso and value.first is None
    assert problem is not None and problem.code == "date-not-iso"


# -- komi, handicap, header ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "game", "komi", "code"), [
    ("6.5", Game.GO, 6.5, None), ("0", Game.GO, 0.0, None), ("-3", Game.GO, -3.0, None),
    # FMT-14: Fox's hundredths are read as written unless the file shows it is Fox's (records/dialects.py).
    ("750", Game.GO, 750.0, "komi-odd"), ("375", Game.GO, 375.0, "komi-odd"), ("650", Game.GO, 650.0, "komi-odd"),
    ("110", Game.GO, 110.0, None), ("750", Game.CONVERSION_GO, 750.0, None),
    ("5 1/2", Game.GO, None, "bad-komi"), ("nan", Game.GO, None, "bad-komi"), ("", Game.GO, None, "komi-empty"),
])
def test_komi(raw, game, komi, code):
    value, problem = read_komi(raw, game)
    assert value == komi
    assert (problem.code if problem else None) == code


def test_the_raw_komi_stays_in_the_root_property():
    r = one(b"(;GM[1]AP[foxwq]KM[750])")
    assert r.komi == 7.5 and r.root.get("KM") == "750"
    assert [d.code for d in r.diagnostics] == ["fox-komi"]


def test_a_handicap_that_is_not_a_whole_number_is_a_warning():
    r = one(b"(;GM[1]HA[7.5])")
    assert r.handicap is None
    assert [d.code for d in r.diagnostics] == ["bad-handicap"]
    assert one(b"(;GM[1]HA[9])").handicap == 9


def test_fmt_8_the_header_is_typed_and_the_raw_values_stay():
    r = one(b"(;GM[1]SZ[9]PB[Ann]BR[3d]PW[Bo]WR[1k]EV[Cup]RO[2]DT[2024-05-03]PC[Paris]GN[Final]KM[6.5]HA[0]"
            b"RU[Ing]RE[W+2.5]SO[x]ZZ[kept])")
    assert (r.black, r.black_rank, r.white, r.white_rank) == ("Ann", "3d", "Bo", "1k")
    assert (r.event, r.round, r.place, r.name, r.rules) == ("Cup", "2", "Paris", "Final", "Ing")
    assert r.date.first == date(2024, 5, 3)
    assert (r.komi, r.handicap, r.size) == (6.5, 0, 9)
    assert r.result.margin == 2.5 and r.result.winner is Colour.WHITE
    assert r.root.get("ZZ") == "kept" and r.root.get("SO") == "x"
    assert r.player(Colour.WHITE) == "Bo"


def test_empty_text_fields_read_as_absent():
    r = one(b"(;GM[1]PB[]GN[])")
    assert r.black is None and r.name is None


# -- setup (Go only, before the first move: ING-8) -----------------------------------------------------------------


def test_fmt_10_setup_is_collected_from_the_root_and_the_nodes_before_the_first_move():
    r = one(b"(;GM[1]SZ[9]AB[aa][cc:dd]AW[bb]PL[W];AB[ee]AE[aa];B[ff];W[gg])")
    got, notes = setup(r)
    assert got.black == {(2, 2), (3, 2), (2, 3), (3, 3), (4, 4)}
    assert got.white == {(1, 1)}
    assert got.to_move is Colour.WHITE
    assert notes == []
    assert r.setup == got  # collected once, when the record is read
    assert not [p for p in verify(r).problems if p.code == "setup-after-move"]


def test_a_pl_that_is_not_b_or_w_is_ignored_with_a_warning():
    r = one(b"(;GM[1]SZ[9]AB[aa]PL[1])")
    got, notes = setup(r)
    assert got.to_move is None
    assert [n.code for n in notes] == ["setup-pl"] and notes[0].rule == "ING-8"
    assert [d.code for d in r.diagnostics] == ["setup-pl"]  # the reader reports it too


def test_setup_points_off_the_board_are_errors():
    r = one(b"(;GM[1]SZ[9]AB[aa][jj])")
    got, notes = setup(r)
    assert got.black == {(0, 0)}
    assert [n.code for n in notes] == ["setup-off-board"] and notes[0].rule == "ING-1"


def test_ing_8_setup_after_the_first_move_or_beside_a_move_is_found():
    beside = verify(one(b"(;GM[1]SZ[9];B[aa]AW[bb];W[cc])")).first_error
    assert (beside.code, beside.rule, beside.move) == ("setup-after-move", "ING-8", 1)
    later = verify(one(b"(;GM[1]SZ[9];B[aa];W[cc];B[dd];AE[aa];W[ee])")).first_error
    assert (later.code, later.rule, later.move) == ("setup-after-move", "ING-8", 4)
    assert (later.pos.line, later.pos.column) == (1, 31)  # the node's `;`


def test_fmt_10_setup_outside_go_is_an_error():
    r = one(b"(;GM[Cation]SZ[5];B[aa];W[bb];AB[cc])")
    (d,) = r.diagnostics
    assert d.code == "setup-not-go" and d.severity is Severity.ERROR
    assert d.pos.column == 31


def test_fmt_10_names_the_first_setup_in_the_order_the_tree_is_written():
    # Variations: the first line of play with all its own variations comes before the second (preorder).
    data = b"(;GM[Cation]SZ[5];B[aa](;W[bb](;B[cc];W[dd]AW[ee])(;B[cd]AE[aa]))(;W[cc]AB[bb]))"
    (d,) = one(data).diagnostics
    assert d.code == "setup-not-go" and "(AW)" in d.message and d.pos.offset == data.index(b"AW")
    later = b"(;GM[Cation]SZ[5];B[aa](;W[bb](;B[cc];W[dd])(;B[cd]AE[aa]))(;W[cc]AB[bb]))"
    (d,) = one(later).diagnostics
    assert "(AE)" in d.message


def test_strict_reading_does_not_change_what_is_an_error():
    r = one(b"(;GM[Cation]SZ[2];B[aa])", strict=True)
    assert errors(r) == ["bad-size"]
    with pytest.raises(FormatError):
        one(b"(;GM[1]KM[750])", strict=True)


def test_fmt_9_a_margin_no_board_can_give_is_text_outside_the_vocabulary():
    from boardrecords.records.properties import MAX_MARGIN, read_result

    huge = "B+" + "9" * 400
    result, problem = read_result(huge)
    assert result.method is ResultMethod.OTHER and result.raw == huge
    assert problem is not None and problem.rule == "FMT-9" and len(problem.message) < 200
    assert read_result(f"W+{MAX_MARGIN}")[0].margin == MAX_MARGIN
