"""For each game, the moves that change more than one point: the replay's Step says what changed, and the terminal
board, the SVG diagram and the HTML page's data all show it (captured, converted, flipped, swept, filled,
relocated, removed, crosscuts)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from boardrecords.cli.views.boards import board_renderable
from boardrecords.records.games import SPECS
from boardrecords.records.model import Colour
from boardrecords.records.notation import Notation
from boardrecords.records.points import parse_point
from boardrecords.records.reader import read_bytes
from boardrecords.render.game_lines import change_lines, to_move_line
from boardrecords.render.html_replay import page_data
from boardrecords.render.svg import Geometry, diagram_svg
from boardrecords.verifier.judging.analysis import Analysis, analyse

SVG = "{http://www.w3.org/2000/svg}"

# ING-3: B[bb] takes the two white stones aa and ba.
GO_CAPTURE = b"(;GM[1]SZ[9]PB[Alice]PW[Bob];B[ca];W[aa];B[ab];W[ba];B[bb]C[two stones captured])"
# CON-3: B[dd] leaves the white pair cc-dc without liberties, touching no side: it turns black.
# CON-5: turns 1-3 are the first player's (two Black moves and a White one), turn 4 White keeps White.
CONVERSION = (b"(;GM[ConversionGo]SZ[6]PB[Alice]PW[Bob];B[bc];B[ec];W[cc];W[dc];B[cb];W[aa];B[db];W[fa];B[cd]"
              b";W[af];B[dd])")
# SQU-3: Black flips along rows; B[cb] flips the white run bb, ab to its left.
SQUER_FLIP = b"(;GM[Squer]SZ[4]PB[Alice]PW[Bob];B[dd];W[ab];B[da];W[bb];B[cb])"
# SQU-4: White fills row b (a White chain, SQU-6 gives Black one turn); Black sweeps it.
SQUER_SWEEP = b"(;GM[Squer]SZ[4]PB[Alice]PW[Bob];B[ad];W[ab];B[bd];W[bb];B[dd];W[cb];B[ca];W[db];B[sweep-b])"
# QUE-3: B[ab] closes the corner aa between two black stones: a territory, filled black.
QUENTIN_FILL = b"(;GM[Quentin]SZ[5]PB[Alice]PW[Bob];B[ba];W[ee];B[ab])"
# CAT-2/CAT-4: W[bc] makes the crosscut bb-cc / cb-bc (Black's latest stone aa is not in it);
# CAT-6: Black must then lift a crosscut stone, bb, and put it on dd.
CATION_RELOCATE = b"(;GM[Cation]SZ[6]PB[Alice]PW[Bob];B[bb];W[cb];B[cc];W[ee];B[aa];W[bc];B[bb-dd])"
# CAT-7: a removal (move 39, B[cb-]) in a complete legal game (conformance record cation-7601-4, chain CAT-8).
CATION_REMOVE = (b"(;FF[4]CA[UTF-8]GM[Cation]SZ[6]PB[Ada]PW[Jun]RE[W+]"
                 b";B[de];W[cb];B[da];W[bc];B[dd];W[bd];B[ed];W[ba];B[ac];W[ce]"
                 b";B[bf];W[fd];B[cf];W[eb];B[fa];W[fc];B[cd];W[ad];B[fb];W[db]"
                 b";B[ca];W[aa];B[af];W[ff];B[ef];W[ec];B[fe];W[be];B[dc];W[df]"
                 b";B[cf-ee];W[ae];B[bb];W[cb-cf];B[cb];W[ea];B[ab];W[cc];B[cb-];W[cb])")


def _data(rec: bytes) -> Analysis:
    records = read_bytes(rec, "test.rec")
    assert len(records) == 1
    # SGF letters on screen (`--sgf-points`), so that every view's points compare with the record's own text;
    # the customary notation of each game is tested in test_notation.py.
    return analyse(records[0], notation=Notation.SGF)


def _pts(*names: str) -> set[tuple[int, int]]:
    return {parse_point(n) for n in names}  # type: ignore[misc]


def ascii_board(data: Analysis, index: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, markup=False)
    console.print(board_renderable(data.record, data.step_at(index), data.rows_at(index), ascii=True,
                                     names=data.points))
    return out.getvalue()


def cell(text: str, size: int, name: str) -> str:
    """The three characters the ASCII board shows for point `name` (bracket, glyph, bracket)."""
    col, _row = parse_point(name)  # type: ignore[misc]
    letter = name[1]
    for line in text.splitlines():
        if re.match(rf"^{letter} \|.{{{3 * size}}}\| {letter}", line):
            return line[3 + 3 * col: 6 + 3 * col]
    raise AssertionError(f"row {letter} not found in\n{text}")


def svg_marks(svg: str, cls: str) -> set[str]:
    """The points (data-point) of SVG elements carrying class `cls`."""
    root = ET.fromstring(svg.split("\n", 1)[1])
    return {el.get("data-point", "") for el in root.iter() if cls in (el.get("class") or "").split()}


def page_marks(data: Analysis, index: int, cls: str) -> set[str]:
    geo = Geometry(data.record.size, SPECS[data.record.game].connection, caption=False)
    pos = page_data(data, geo)["positions"][index]
    return {attrs.get("data-point", "") for _tag, attrs, _ in pos["under"] + pos["over"]
            if cls in str(attrs.get("class", "")).split()}


def test_go_capture_of_two_stones_ing3() -> None:
    data = _data(GO_CAPTURE)
    step = data.steps[4]
    assert set(step.change.captured) == _pts("aa", "ba")
    board = ascii_board(data, 5)
    assert cell(board, 9, "bb") == "(X)"  # the last move
    assert cell(board, 9, "aa") == " x " and cell(board, 9, "ba") == " x "  # captured, now empty
    assert cell(board, 9, "ab") == " X "
    assert "captured" in board  # legend
    assert "captured 2: aa ba" in change_lines(step, data.points)
    svg = diagram_svg(data, 5)
    assert svg_marks(svg, "captured") == {"aa", "ba"}
    assert svg_marks(svg, "last") == {"bb"}
    assert svg_marks(svg, "white") == set()
    assert page_marks(data, 5, "captured") == {"aa", "ba"}
    # One move earlier the white stones are on the board and nothing is marked captured.
    assert cell(ascii_board(data, 4), 9, "aa") == " O "
    assert svg_marks(diagram_svg(data, 4), "white") == {"aa", "ba"}


def test_conversion_go_conversion_con3() -> None:
    data = _data(CONVERSION)
    step = data.steps[10]
    assert set(step.change.converted) == _pts("cc", "dc")
    assert data.rows_at(11)[2][2] is Colour.BLACK and data.rows_at(11)[2][3] is Colour.BLACK
    board = ascii_board(data, 11)
    assert cell(board, 6, "dd") == "(X)"
    assert cell(board, 6, "cc") == "[X]" and cell(board, 6, "dc") == "[X]"
    assert "converted 2: cc dc" in change_lines(step, data.points)
    svg = diagram_svg(data, 11)
    assert svg_marks(svg, "converted") == {"cc", "dc"}
    assert {"cc", "dc"} <= svg_marks(svg, "black")
    assert page_marks(data, 11, "converted") == {"cc", "dc"}


def test_squer_maneuver_flips_a_run_squ3() -> None:
    data = _data(SQUER_FLIP)
    step = data.steps[4]
    assert set(step.change.flipped) == _pts("ab", "bb")
    board = ascii_board(data, 5)
    assert cell(board, 4, "cb") == "(X)"
    assert cell(board, 4, "ab") == "[X]" and cell(board, 4, "bb") == "[X]"
    assert svg_marks(diagram_svg(data, 5), "flipped") == {"ab", "bb"}
    assert page_marks(data, 5, "flipped") == {"ab", "bb"}


def test_squer_sweep_flips_the_whole_row_squ4() -> None:
    data = _data(SQUER_SWEEP)
    step = data.steps[8]
    assert step.change.swept == ("row", 1)
    assert set(step.change.flipped) == _pts("ab", "bb", "cb", "db")
    board = ascii_board(data, 9)
    for name in ("ab", "bb", "cb", "db"):
        assert cell(board, 4, name) == "[X]"
    row_b = next(line for line in board.splitlines() if line.startswith("b |"))
    assert row_b.rstrip().endswith("<")  # the swept row is pointed at
    assert "swept row b" in board
    assert "swept row b" in change_lines(step, data.points)
    svg = diagram_svg(data, 9)
    root = ET.fromstring(svg.split("\n", 1)[1])
    swept = [el for el in root.iter() if "swept" in (el.get("class") or "")]
    assert [el.get("data-line") for el in swept] == ["row-b"]
    assert svg_marks(svg, "flipped") == {"ab", "bb", "cb", "db"}


def test_quentin_territory_filled_que3() -> None:
    data = _data(QUENTIN_FILL)
    step = data.steps[2]
    assert set(step.change.filled) == _pts("aa")
    assert data.rows_at(3)[0][0] is Colour.BLACK
    board = ascii_board(data, 3)
    assert cell(board, 5, "ab") == "(X)"
    assert cell(board, 5, "aa") == "[X]"
    assert "filled 1: aa" in change_lines(step, data.points)
    assert svg_marks(diagram_svg(data, 3), "filled") == {"aa"}
    assert page_marks(data, 3, "filled") == {"aa"}


def test_cation_crosscut_then_relocation_cat2_cat6() -> None:
    data = _data(CATION_RELOCATE)
    cut = data.steps[5].change.crosscuts
    assert [set(c) for c in cut] == [_pts("bb", "cb", "bc", "cc")]
    board = ascii_board(data, 6)
    assert cell(board, 6, "bc") == "(O)"  # the move that made the crosscut
    for name in ("bb", "cb", "cc"):
        assert cell(board, 6, name)[0] == "{"
    svg = diagram_svg(data, 6)
    root = ET.fromstring(svg.split("\n", 1)[1])
    cuts = [el.get("data-points") for el in root.iter() if "crosscut" in (el.get("class") or "")]
    assert cuts == ["bb cb bc cc"]

    step = data.steps[6]
    assert step.change.relocated == ((parse_point("bb"), parse_point("dd")),)
    board = ascii_board(data, 7)
    assert cell(board, 6, "dd") == "(X)"
    assert cell(board, 6, "bb") == " - "  # where the stone was lifted
    assert "moved bb→dd" in change_lines(step, data.points)
    svg = diagram_svg(data, 7)
    assert svg_marks(svg, "from") == {"bb"}
    assert svg_marks(svg, "last") == {"dd"}
    root = ET.fromstring(svg.split("\n", 1)[1])
    arrows = [(el.get("data-from"), el.get("data-to")) for el in root.iter() if "move-arrow" in (el.get("class") or "")]
    assert arrows == [("bb", "dd")]


def test_cation_removal_cat7() -> None:
    data = _data(CATION_REMOVE)
    step = data.steps[38]
    assert step.move.raw in ("cb-", "") or step.move.point == parse_point("cb")
    assert set(step.change.removed) == _pts("cb")
    board = ascii_board(data, 39)
    assert cell(board, 6, "cb") == " x "
    assert "removed 1: cb" in change_lines(step, data.points)
    assert svg_marks(diagram_svg(data, 39), "removed") == {"cb"}
    assert data.verdict is not None and data.verdict.valid
    # CAT-8: W[cb] completes White's chain; the view says the game is over, and who won.
    assert to_move_line(data, 40) == "Game over: White (Jun) wins, chain (CAT-8)"
    assert to_move_line(data, 39) == "To move: White (Jun)"


@pytest.mark.parametrize("rec", [GO_CAPTURE, CONVERSION, SQUER_FLIP, SQUER_SWEEP, QUENTIN_FILL, CATION_RELOCATE,
                                 CATION_REMOVE])
def test_every_sample_game_is_legal(rec: bytes) -> None:
    data = _data(rec)
    assert data.illegal_step is None
    assert data.verdict is not None and data.verdict.valid, data.verdict
