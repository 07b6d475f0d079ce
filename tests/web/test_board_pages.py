"""The one board of the served pages (render/board.py) in their markup: Go on the intersections with its star points,
the connection games with their owned edges, coordinates in the game's notation on all four sides, every point named
for a screen reader, the last move ringed, and the continuations lettered on the board (Kombilo's A, B, C... by
games), each letter linked to its row of the table."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from html import unescape
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402

from boardrecords.records.games import Game  # noqa: E402
from boardrecords.records.notation import PointNames  # noqa: E402
from boardrecords.render.board import letters, move_point  # noqa: E402
from boardrecords.web.app import create_app  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def client(examples_archive: Path):
    with TestClient(create_app(str(examples_archive)), raise_server_exceptions=False,
                    base_url="http://localhost") as c:
        yield c


def board(page: str, element_id: str) -> ET.Element:
    """The board's <svg> of a page, parsed (it is well-formed XML of its own)."""
    found = re.search(rf'<svg id="{element_id}".*?</svg>', page, re.S)
    assert found, element_id
    return ET.fromstring(found.group(0))


def classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in (el.get("class") or "").split()]


def labels(root: ET.Element) -> Counter[str]:
    return Counter(el.get("aria-label") or "" for el in root.iter()
                   if {"point", "pattern-point"} & set((el.get("class") or "").split()))


def test_the_explorer_draws_go_on_the_intersections_with_star_points_and_coordinates(client: TestClient) -> None:
    page = client.get("/explore", params={"game": "go", "size": "19"}).text
    svg = board(page, "explore-board")
    # Scaled to its column: a viewBox and a relative width, no fixed height.
    assert svg.get("viewBox", "").startswith("0 0 ") and svg.get("width") == "100%" and svg.get("height") is None
    assert len(classed(svg, "grid")) == 2 * 19  # the lines, not squares
    stars = {el.get("data-point") for el in classed(svg, "star")}
    assert stars == {"dd", "jd", "pd", "dj", "jj", "pj", "dp", "jp", "pp"}  # GEN-10 names below, SGF letters here
    coords = Counter(el.text for el in classed(svg, "coord"))
    columns = "ABCDEFGHJKLMNOPQRST"  # Go skips I
    assert set(coords) == set(columns) | {str(n) for n in range(1, 20)}
    assert all(n == 2 for n in coords.values())  # columns above and below, rows left and right
    names = labels(svg)
    assert len(names) == 361 and {"A1", "T19", "Q16", "K10"} <= set(names) and "I5" not in names


def test_the_connection_games_have_their_owned_edges_and_their_notation(client: TestClient) -> None:
    page = client.get("/explore", params={"game": "cation", "size": "6"}).text
    svg = board(page, "explore-board")
    assert len(classed(svg, "edge-black")) == 2 and len(classed(svg, "edge-white")) == 2
    assert not classed(svg, "star")
    names = PointNames(Game.CATION, 6)
    assert set(labels(svg)) == {names((c, r)) for c in range(6) for r in range(6)}
    assert {el.text for el in classed(svg, "coord")} == {names.column(i) for i in range(6)} | {
        names.row(i) for i in range(6)}


def test_the_last_move_is_ringed(client: TestClient) -> None:
    svg = board(client.get("/explore", params={"game": "go", "size": "9", "moves": "E5,C3"}).text, "explore-board")
    assert [el.get("data-point") for el in classed(svg, "last")] == ["cg"]  # C3 on 9x9
    assert not classed(board(client.get("/explore", params={"game": "go", "size": "9"}).text, "explore-board"),
                       "last")


def test_the_explorer_letters_each_continuation_on_the_board_linked_to_its_row(client: TestClient) -> None:
    page = client.get("/explore", params={"game": "go", "size": "9"}).text
    rows = re.findall(r'<tr id="continuation-([A-Z]+)" data-letter="\1"><td class="letter">\1</td><td>'
                      r'<a class="continuation" href="([^"]*)">([^<]*)</a></td><td>(\d+)</td>', page)
    assert len(rows) >= 3, "the examples hold 9x9 Go games"
    by_games = sorted(rows, key=lambda r: -int(r[3]))
    assert [r[0] for r in by_games] == letters(len(rows))  # A has the most games
    marks = {m.get("data-letter"): m for m in classed(board(page, "explore-board"), "continuation-mark")}
    for letter, href, move, games in rows:
        mark = marks[letter]
        assert mark.get("href") == unescape(href)  # the letter leads where the row does
        assert mark.get("data-point") == move.split()[-1]
        assert [t.text for t in mark.iter(f"{SVG}text")] == [letter, games]
        assert mark.get("aria-label", "").startswith(f"{letter}: {move}, {games} game")


def test_the_pattern_editor_is_the_real_board_and_its_continuations_are_lettered(client: TestClient) -> None:
    empty = client.get("/patterns", params={"game": "go", "size": "9"}).text
    svg = board(empty, "pattern-svg")
    points = classed(svg, "pattern-point")
    assert len(points) == 81 and [p.get("data-index") for p in points] == [str(i) for i in range(81)]
    assert len(classed(svg, "star")) == 5 and len(classed(svg, "grid")) == 18
    assert points[0].get("aria-label") == "A9" and points[80].get("aria-label") == "J1"
    assert [p.get("tabindex") for p in points].count("0") == 1
    page = client.get("/patterns", params={"pattern": "X./..", "anchor": "corner", "game": "cation", "size": "6",
                                           "either-colour": "true"}).text
    marks = classed(board(page, "pattern-svg"), "continuation-mark")
    assert marks, "the examples hold a Cation game with that corner"
    for mark in marks:
        letter = mark.get("data-letter")
        assert mark.get("href") == f"#pattern-continuation-{letter}"
        assert f'<tr id="pattern-continuation-{letter}" data-letter="{letter}"><td class="letter">{letter}</td>' in page


def test_the_game_page_board_names_its_points_and_scales(client: TestClient) -> None:
    page = client.get("/games/3").text  # an 11x11 Go game of the examples
    svg = board(page, "board")
    assert svg.get("width") == "100%" and svg.get("data-size") == "11"
    assert len(labels(svg)) == 121 and {"A1", "L11", "F6"} <= set(labels(svg))


@given(st.integers(min_value=0, max_value=400))
def test_letters_are_distinct_and_start_with_the_alphabet(count: int) -> None:
    got = letters(count)
    assert len(got) == count == len(set(got)) and got[:3] == ["A", "B", "C"][:count]


@pytest.mark.parametrize(("move", "point"), [("B Q16", (15, 3)), ("Q16", (15, 3)), ("pass", None),
                                             ("ended", None), ("swap-sides", None)])
def test_a_move_shown_names_its_point(move: str, point: tuple[int, int] | None) -> None:
    assert move_point(move, PointNames(Game.GO, 19)) == point


def test_the_game_page_lists_its_moves_compactly_with_their_comments(client: TestClient) -> None:
    """Numbers and points in the notation, several to a line; a comment inline with its move, escaped."""
    page = client.get("/games/3").text
    items = re.findall(r'<li class="(black|white)[^"]*" data-move="(\d+)"><a href="#move=\2"[^>]*>'
                       r'<span class="number">(\d+)</span> <span class="stone-dot"></span>([^<]*)</a>', page)
    assert items and items[0][:3] == ("black", "1", "1")
    names = PointNames(Game.GO, 11)
    assert all(move == "pass" or names.parse(move) for *_, move in items)
    assert "Move 1 of" not in page.split('id="moves"', 1)[1].split("</ol>", 1)[0]  # no sentence per move
    hostile = client.get("/api/search", params={"game": "cation", "size": "5"}).json()[0]["id"]
    page = client.get(f"/games/{hostile}").text
    moves = page.split('id="moves"', 1)[1]
    assert '<li class="black has-comment" data-move="1">' in moves
    assert '<span class="comment">&lt;img src=x onerror=window.pwned=4&gt;' in moves
