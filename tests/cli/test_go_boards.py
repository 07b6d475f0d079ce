"""Go boards as players know them, in every view: star points (render/stars.py), the stones each colour has
taken (counted once by the replay's trace), komi, handicap and rules with the players, and legends that draw a
mark as the board does."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console, RenderableType

from boardrecords.cli.views.boards import board_renderable
from boardrecords.records.games import Game
from boardrecords.records.notation import PointNames
from boardrecords.records.reader import read_bytes
from boardrecords.render.game_lines import header_lines, taken_line
from boardrecords.render.html_replay import html_page, marks_used
from boardrecords.render.stars import star_points
from boardrecords.verifier.judging.analysis import Analysis, analyse

# ING-3: move 6 (W B9) leaves White's A9-B9 without liberties and captures nothing: the string dies by suicide,
# and its two stones count as taken by Black; moves 7 and 8 take nothing.
SUICIDE = b"(;GM[1]SZ[9]PB[Alice]PW[Bob]HA[2]KM[0.5]RU[Ing];B[ab];W[aa];B[bb];W[ii];B[ca];W[ba];B[ee];W[dd])"
# ING-3: move 5 (B B8) captures White's A9 and B9.
CAPTURE = b"(;GM[1]SZ[9]PB[Alice]PW[Bob];B[ca];W[aa];B[ab];W[ba];B[bb])"


def _names(size: int, points: frozenset[tuple[int, int]]) -> set[str]:
    names = PointNames(Game.GO, size)
    return {names(p) for p in points}


def _data(record: bytes) -> Analysis:
    return analyse(read_bytes(record)[0])


def _text(renderable: RenderableType) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None, markup=False).print(renderable)
    return out.getvalue()


def test_star_points_of_the_usual_boards() -> None:
    assert _names(19, star_points(Game.GO, 19)) == {"D4", "D10", "D16", "K4", "K10", "K16", "Q4", "Q10", "Q16"}
    assert _names(13, star_points(Game.GO, 13)) == {"D4", "D10", "K4", "K10", "G7"}
    assert _names(9, star_points(Game.GO, 9)) == {"C3", "C7", "G3", "G7", "E5"}
    assert _names(16, star_points(Game.GO, 16)) == {"D4", "D13", "N4", "N13"}  # even: the corners only
    assert star_points(Game.GO, 6) == frozenset()
    assert star_points(Game.CONVERSION_GO, 19) == star_points(Game.GO, 19)  # the same board
    for game in (Game.CATION, Game.QUENTIN, Game.SQUER):
        assert star_points(game, 19) == frozenset()


@given(st.integers(min_value=2, max_value=52))
def test_star_points_are_symmetric_and_on_the_board(size: int) -> None:
    stars = star_points(Game.GO, size)
    assert len(stars) in ((0,) if size < 7 else (4,) if size % 2 == 0 else (5,) if size < 15 else (9,))
    for c, r in stars:
        assert 0 <= c < size and 0 <= r < size
        # The 8 symmetries of the square keep the set.
        for p in ((r, c), (size - 1 - c, r), (c, size - 1 - r)):
            assert p in stars


def test_the_terminal_board_shows_star_points_on_empty_points_only() -> None:
    data = _data(b"(;GM[1]SZ[19]PB[Alice]PW[Bob];B[pd])")  # Q16, a star point
    text = _text(board_renderable(data.record, data.step_at(1), data.rows_at(1), ascii=True))
    row16 = re.search(r"^16 \|(.*)\| 16$", text, re.M)
    row10 = re.search(r"^10 \|(.*)\| 10$", text, re.M)
    assert row16 and row10
    # Three characters a point: D16 and K16 are star points, Q16 holds the last move.
    assert row16.group(1)[9:12] == " + " and row16.group(1)[27:30] == " + " and row16.group(1)[45:48] == "(X)"
    assert row10.group(1).count("+") == 3
    assert text.count("+") - 4 == 8  # the frame's four corners are `+` too


def test_the_legend_draws_the_last_move_as_the_board_does() -> None:
    data = _data(CAPTURE)
    text = _text(board_renderable(data.record, data.step_at(5), data.rows_at(5)))
    assert "(●) last move" in text and "(x)" not in text
    white = _text(board_renderable(data.record, data.step_at(4), data.rows_at(4), ascii=True))
    assert "(O) last move" in white


def test_stones_taken_count_captures_and_suicides_once() -> None:
    data = _data(SUICIDE)
    assert [(t.black, t.white) for t in data.trace.taken] == [(0, 0)] * 5 + [(2, 0)] * 3
    assert taken_line(data, 0) == "Stones taken: Black 0, White 0"
    assert taken_line(data, 6) == "Stones taken: Black 2, White 0"
    conversion = _data(b"(;GM[ConversionGo]SZ[6]PB[Alice]PW[Bob];B[bc])")
    assert taken_line(conversion, 1) is None  # CON-3: stones convert, none is taken


def test_komi_handicap_and_rules_go_with_the_players() -> None:
    lines = header_lines(_data(SUICIDE).record)
    assert "Black: Alice, handicap 2" in lines
    assert "White: Bob, komi 0.5" in lines
    assert "Rules: Ing" in lines
    plain = header_lines(_data(CAPTURE).record)
    assert "Black: Alice" in plain and "White: Bob" in plain and not any(x.startswith("Rules") for x in plain)


@pytest.mark.parametrize(("record", "listed", "absent"), [
    (CAPTURE, "small ring: last move; red cross: captured", "crosscut"),
    (b"(;GM[Cation]SZ[6]PB[Alice]PW[Bob];B[bb];W[cb];B[cc];W[ee];B[aa];W[bc];B[bb-dd])", "amber frame: crosscut",
     "red cross"),
])
def test_the_html_legend_lists_the_marks_of_its_game_only(record: bytes, listed: str, absent: str) -> None:
    data = _data(record)
    page = html_page(data)
    legend = re.search(r'<p class="keys" id="marks">Marks: (.*?)</p>', page)
    assert legend and listed in legend.group(1) and absent not in legend.group(1)
    assert marks_used(data)[0].value == "last"


def test_the_explorer_board_shows_the_empty_star_points(tmp_path) -> None:
    """`records explore` draws its position with `+` on the empty star points, and a stone where one stands."""
    from ..shared import import_games, run

    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, {"g.sgf": "(;GM[1]SZ[19]PB[A]PW[B];B[pd];W[dp];B[pp])"})
    out = run("explore", "Q16", "D4", "--db", db).output
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:20]}
    columns = "ABCDEFGHJKLMNOPQRST"
    shown = {f"{columns[c]}{r}" for r, cells in rows.items() for c, cell in enumerate(cells) if cell == "+"}
    assert shown == _names(19, star_points(Game.GO, 19)) - {"Q16", "D4"}
    assert rows["16"][columns.index("Q")] == "X" and rows["4"][columns.index("D")] == "O"
