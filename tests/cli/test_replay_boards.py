"""The board drawing other commands use: `board_renderable` (whole board) and `board_excerpt` (around a point)."""

from __future__ import annotations

import io
import re

from rich.console import Console, RenderableType

from boardrecords.cli.views.boards import board_excerpt, board_renderable, console_needs_ascii
from boardrecords.records.games import Game
from boardrecords.records.notation import Notation, PointNames
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.analysis import analyse

GO = b"(;GM[1]SZ[9]PB[Alice]PW[Bob];B[ca];W[aa];B[ab];W[ba];B[bb])"


def _text(renderable: RenderableType, width: int = 200) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, markup=False).print(renderable)
    return out.getvalue()


def test_whole_board_without_a_step_has_no_marks() -> None:
    data = analyse(read_bytes(GO)[0])
    text = _text(board_renderable(data.record, None, data.rows_at(5), ascii=True))
    # Go coordinates (GEN-10): columns A..J without I, rows numbered from 1 at the bottom.
    assert re.search(r"^9 \| \.  \.  X  \.", text, re.M)
    assert re.search(r"^8 \| X  X  \.", text, re.M)
    assert not re.search(r"[()\[\]{}!x]", "\n".join(line[2:-2] for line in text.splitlines()[2:11]))
    assert text.splitlines()[0].split() == list("ABCDEFGHJ")
    assert [line[0] for line in text.splitlines()[2:11]] == list("987654321")
    assert "Points: Go coordinates, A..J (no I) left to right, 1..9 bottom to top" in text
    assert "last move" not in text


def test_whole_board_in_sgf_letters_on_request() -> None:
    data = analyse(read_bytes(GO)[0])
    names = PointNames(Game.GO, 9, Notation.SGF)
    text = _text(board_renderable(data.record, None, data.rows_at(5), ascii=True, names=names))
    assert re.search(r"^a \| \.  \.  X  \.", text, re.M)
    assert re.search(r"^b \| X  X  \.", text, re.M)
    assert text.splitlines()[0].split() == list("abcdefghi")
    assert "Points: SGF letters, column a..i left to right, then row a..i top to bottom" in text


def test_excerpt_around_a_point_in_the_middle() -> None:
    record = read_bytes(b"(;GM[1]SZ[19];B[jj];W[jk])")[0]
    data = analyse(record)
    text = _text(board_excerpt(record, data.rows_at(2), "jj", radius=2, ascii=True))
    lines = text.splitlines()
    assert lines[0].split() == list("HJKLM")  # columns h..l: Go coordinates skip I
    assert [line[:2].strip() for line in lines[1:6]] == ["12", "11", "10", "9", "8"]  # rows h..l
    assert "|" not in text and "+-" not in text  # no board edge is reached: none is drawn
    assert re.search(r"^10   \.  \. >X< \.  \.", text, re.M)  # the point (jj = K10), marked
    assert re.search(r"^ 9   \.  \.  O  \.  \.", text, re.M)
    assert "Points: Go coordinates" in text


def test_excerpt_at_a_corner_draws_the_edges_it_reaches_and_takes_a_tuple() -> None:
    data = analyse(read_bytes(GO)[0])
    text = _text(board_excerpt(data.record, data.rows_at(5), (0, 0), radius=1, ascii=True))
    lines = text.splitlines()
    assert lines[0].split() == ["A", "B"]
    assert lines[1].startswith("  +------")  # the top edge
    assert re.search(r"^9 \|>\.< \.  ", text, re.M)  # left edge drawn, right side open
    assert len(lines) == 6  # labels, top edge, rows 9 and 8, labels, the notation: no bottom edge


def test_excerpt_of_a_point_off_the_board_shows_the_whole_board() -> None:
    data = analyse(read_bytes(GO)[0])
    text = _text(board_excerpt(data.record, data.rows_at(5), "zz", ascii=True))
    assert text.splitlines()[0].split() == list("ABCDEFGHJ")
    assert ">" not in text


def test_a_52x52_board_labels_every_line() -> None:
    record = read_bytes(b"(;GM[Squer]SZ[52];B[ZZ])")[0]
    data = analyse(record)
    text = _text(board_renderable(record, data.step_at(1), data.rows_at(1), ascii=True), width=300)
    labels = text.splitlines()[0].split()
    # a1-style columns go on with two letters past z (GEN-10); rows are numbered from 1 at the bottom.
    assert labels[0] == "a" and labels[25] == "z" and labels[26] == "aa" and labels[-1] == "az"
    assert len(labels) == 52
    assert re.search(r"^52 \|", text, re.M)
    assert re.search(r"^ 1 \|.*\(X\)\| 1", text, re.M)
    sgf = PointNames(Game.SQUER, 52, Notation.SGF)
    text = _text(board_renderable(record, data.step_at(1), data.rows_at(1), ascii=True, names=sgf), width=300)
    labels = text.splitlines()[0].split()
    assert labels[0] == "a" and labels[26] == "A" and labels[-1] == "Z" and len(labels) == 52
    assert re.search(r"^Z \|.*\(X\)\| Z", text, re.M)


def test_ascii_is_needed_only_when_the_encoding_lacks_the_glyphs() -> None:
    assert console_needs_ascii(Console(file=io.TextIOWrapper(io.BytesIO(), encoding="ascii")))
    assert console_needs_ascii(Console(file=io.TextIOWrapper(io.BytesIO(), encoding="latin-1")))
    assert not console_needs_ascii(Console(file=io.TextIOWrapper(io.BytesIO(), encoding="utf-8")))
