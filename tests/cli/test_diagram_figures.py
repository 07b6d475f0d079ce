"""`records diagram --numbers FIRST-LAST` and `--figures`: numbered figures as Go books print them, read back
strictly as XML (xml.etree): the numbers on the stones, and the notes for stones played where the figure already
has one."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ..shared import run

# Move 3 (A8) captures White's A9 (ING-3); Black plays A9 again at move 7; White passes at move 8.
REPLAYED = b"(;GM[1]SZ[9]PB[Alice]PW[Bob]KM[5.5];B[ba];W[aa];B[ab];W[ee];B[ii];W[gg];B[aa];W[])"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.sgf"
    path.write_bytes(REPLAYED)
    return path


def _svg(path: Path) -> ET.Element:
    text = path.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(text.split("\n", 1)[1])
    assert root.tag == SVG + "svg"
    return root


def _with(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in (el.get("class") or "").split()]


def _numbers(root: ET.Element) -> dict[str, str]:
    return {el.get("data-point") or "": el.text or "" for el in _with(root, "number")}


def _stones(root: ET.Element) -> dict[str, str]:
    return {el.get("data-point") or "": "black" if "black" in (el.get("class") or "") else "white"
            for el in _with(root, "stone")}


def _caption(root: ET.Element) -> list[str]:
    # The notes keep their words together with no-break spaces; read as plain spaces.
    return [(el.text or "").replace("\u00a0", " ") for el in _with(root, "caption")]


def test_a_point_played_again_after_a_capture_is_a_note(game: Path, tmp_path: Path) -> None:
    out = tmp_path / "fig.svg"
    result = run("diagram", game, "--numbers", "1-8", "-o", out)
    assert result.exit_code == 0, result.output
    root = _svg(out)
    assert _numbers(root) == {"ba": "1", "aa": "2", "ab": "3", "ee": "4", "ii": "5", "gg": "6"}
    # The figure shows each stone as it was played: White's 2 on A9 although move 3 captured it.
    assert _stones(root) == {"ba": "black", "aa": "white", "ab": "black", "ee": "white", "ii": "black",
                             "gg": "white"}
    caption = _caption(root)
    assert caption[0] == "Moves 1-8 of 8"
    assert "7 at 2, 8 pass" in caption
    assert "White: Bob, komi 5.5" in caption
    assert (root.get("data-first"), root.get("data-last")) == ("1", "8")
    assert _with(root, "mark") == []  # a figure has numbers, not the last move's marks
    assert {el.get("data-point") for el in _with(root, "star")} == {"cc", "cg", "ee", "gc", "gg"}


def test_a_figure_starts_from_the_position_before_its_first_move(game: Path, tmp_path: Path) -> None:
    out = tmp_path / "fig.svg"
    assert run("diagram", game, "--numbers", "3-100", "-o", out).exit_code == 0  # the range ends at the last move
    root = _svg(out)
    assert _numbers(root) == {"ab": "3", "ee": "4", "ii": "5", "gg": "6"}
    assert _stones(root) == {"ba": "black", "aa": "white", "ab": "black", "ee": "white", "ii": "black",
                             "gg": "white"}  # B9 and A9 from before the figure, without numbers
    caption = _caption(root)
    assert caption[0] == "Moves 3-8 of 8"
    assert "7 at A9, 8 pass" in caption  # A9 holds a stone from before the figure: named by its point


def test_every_figure_of_a_game(tmp_path: Path) -> None:
    # 150 moves on the points of one colour of a checkerboard: no stone ever touches another, nothing is captured.
    letters = "abcdefghijklmnopqrs"
    points = [letters[c] + letters[r] for r in range(19) for c in range(19) if (c + r) % 2 == 0][:150]
    moves = "".join(f";{'BW'[i % 2]}[{p}]" for i, p in enumerate(points))
    src = tmp_path / "long.sgf"
    src.write_text(f"(;GM[1]SZ[19]PB[Alice]PW[Bob]{moves})")
    folder = tmp_path / "figures"
    result = run("diagram", src, "--figures", "-o", folder)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["fig-1.svg", "fig-2.svg"]
    first, second = _svg(folder / "fig-1.svg"), _svg(folder / "fig-2.svg")
    assert sorted(int(n) for n in _numbers(first).values()) == list(range(1, 101))
    assert sorted(int(n) for n in _numbers(second).values()) == list(range(101, 151))
    assert len(_with(second, "stone")) == 150  # the first figure's stones, unnumbered, and the second's
    assert _caption(second)[0] == "Moves 101-150 of 150"
    again = run("diagram", src, "--figures", "-o", folder)
    assert again.exit_code != 0 and "exists" in again.output  # nothing replaced without --force
    assert run("diagram", src, "--figures", "-o", folder, "--force").exit_code == 0


@pytest.mark.parametrize(("args", "message"), [
    (("--numbers", "abc"), "not a range of moves such as 101-200"),
    (("--numbers", "9-3"), "not after the last"),
    (("--numbers", "20-30"), "no move 20 to number: the record has 8 moves"),
    (("--numbers", "1-3", "--move", "2"), "--move and --numbers cannot be combined"),
])
def test_bad_ranges_are_one_line_errors(game: Path, args: tuple[str, ...], message: str) -> None:
    result = run("diagram", game, *args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output
