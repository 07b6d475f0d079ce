"""The game page as players read it: the record's variations as a tree one clicks into and out of (Record.variations
and Record.follow, records/model.py), the clocks of a record that gives them (BL / WL), and the printable view
(/games/ID/print: the book figures of `records diagram --figures`)."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402

from boardrecords.records.model import path_text, variation_path  # noqa: E402
from boardrecords.records.reader import read_bytes  # noqa: E402
from boardrecords.web.app import create_app  # noqa: E402

from ..shared import run  # noqa: E402

# Main line E5 C7 G3 C3 G7; at move 3 a variation G7 (with one of its own at move 5: D6 instead of G3), and at
# move 3 a second one, C3.
TREE = ("(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[7]PB[Ann]PW[Bob]DT[2024-02-01]RE[B+R]BL[600]WL[600]"
        ";B[ee]BL[590.5]C[Opening in the centre.];W[cc]WL[3725]OW[5]"
        "(;B[gg];W[cg];B[gc]BL[12])"
        "(;B[gc]C[The book move.];W[cg](;B[gg])(;B[dd]))"
        "(;B[cg]))\n")
PLAIN = "(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[7]PB[Ann]PW[Bob]DT[2024-02-02]RE[B+R];B[ee];W[cc];B[gg])\n"


@pytest.fixture(scope="module")
def ids(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int]:
    folder = tmp_path_factory.mktemp("variations")
    (folder / "tree.sgf").write_text(TREE, encoding="utf-8")
    (folder / "plain.sgf").write_text(PLAIN, encoding="utf-8")
    db = folder / "v.db"
    assert run("import", "-q", "--db", db, folder).exit_code == 0
    found = json.loads(run("search", "--db", db, "--json").output)
    by_date = {g["date"]: g["id"] for g in found}
    return db, by_date["2024-02-01"], by_date["2024-02-02"]


@pytest.fixture(scope="module")
def client(ids: tuple[Path, int, int]):
    with TestClient(create_app(str(ids[0])), raise_server_exceptions=False, base_url="http://localhost") as c:
        yield c


def test_the_tree_of_variations_is_read_from_the_record() -> None:
    record = read_bytes(TREE.encode())[0]
    tree = record.variations()
    assert [(path_text(v.path), v.before, str(v.first), v.moves, v.comment) for v in tree] == [
        ("2.1", 2, "B[gc]", 3, True), ("2.2", 2, "B[cg]", 1, False)]
    inner = tree[0].variations
    assert [(path_text(v.path), v.before, str(v.first)) for v in inner] == [("2.1,4.1", 4, "B[dd]")]
    record.follow(((2, 1), (4, 1)))
    assert [str(m) for m in record.moves()] == ["B[ee]", "W[cc]", "B[gc]", "W[cg]", "B[dd]"]


@pytest.mark.parametrize("text", ["", "1", "a.b", "1.1,", "2.-1", "99999999.1"])
def test_a_path_that_is_none_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        variation_path(text)


def test_a_path_to_no_line_is_refused() -> None:
    record = read_bytes(TREE.encode())[0]
    for path in (((9, 1),), ((2, 3),), ((2, 0),), ((0, 1),)):
        with pytest.raises(ValueError):
            read_bytes(TREE.encode())[0].follow(path)
    assert record.variations()  # reading the tree changes nothing


def tree_text(children: list) -> str:
    return "".join(f"(;B[{chr(97 + i % 9)}{chr(97 + i // 9 % 9)}]{tree_text(sub)})" for i, sub in children)


trees = st.recursive(st.just([]), lambda sub: st.lists(st.tuples(st.integers(0, 80), sub), max_size=3),
                     max_leaves=25)


@settings(max_examples=60, deadline=None)
@given(trees)
def test_every_variation_followed_plays_its_moves_after_those_before_it(children: list) -> None:
    text = f"(;GM[1]SZ[9]{tree_text(children)})".encode()
    record = read_bytes(text)[0]
    for top in record.variations():
        for v in top.walk():
            line = read_bytes(text)[0]
            line.follow(v.path)
            assert len(line.moves()) == v.before + v.moves
            assert line.moves()[v.before] == v.first


def variation_links(page: str) -> list[str]:
    body = re.search(r'<ol class="variations" id="variations">(.*?)</ol>', page, re.S)
    assert body
    return [unescape(h) for h in re.findall(r'<a href="([^"]+)"', body.group(1))]


def test_the_game_page_lists_the_variations_and_each_opens(client: TestClient, ids: tuple[Path, int, int]) -> None:
    _, tree, plain = ids
    page = client.get(f"/games/{tree}").text
    links = variation_links(page)
    assert links == [f"/games/{tree}?line=2.1#move=3", f"/games/{tree}?line=2.1%2C4.1#move=5",
                     f"/games/{tree}?line=2.2#move=3"]
    assert "at move 3: Black G7" in page and "(3 moves, commented)" in page
    inner = client.get(links[1].split("#")[0])
    assert inner.status_code == 200
    moves = re.findall(r'aria-label="move (\d+), (black|white) ([A-Z]\d+)"', inner.text)
    assert [m[2] for m in moves] == ["E5", "C7", "G7", "C3", "D6"]  # the variation's line, replayed from the start
    assert 'id="in-variation"' in inner.text and 'class="level-2 current"' in inner.text
    out = re.search(r'id="out-of-variation" href="([^"]+)"', inner.text)
    assert out and unescape(out.group(1)) == f"/games/{tree}?line=2.1#move=4"  # out: to the line it leaves
    assert f'<a href="/games/{tree}">Main line</a>' in inner.text
    assert 'id="variations"' not in client.get(f"/games/{plain}").text  # no tree without variations


@pytest.mark.parametrize("line", ["9.1", "2.3", "x", "2.1,9.1"])
def test_a_line_the_record_has_not_is_a_400(client: TestClient, ids: tuple[Path, int, int], line: str) -> None:
    response = client.get(f"/games/{ids[1]}", params={"line": line})
    assert response.status_code == 400 and "line" in response.text


def replay_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


def test_the_clocks_of_the_record_are_shown_at_each_move(client: TestClient, ids: tuple[Path, int, int]) -> None:
    _, tree, plain = ids
    page = client.get(f"/games/{tree}").text
    clocks = [p["clock"] for p in replay_data(page)["positions"]]
    assert clocks[0] == "Time left: Black 10:00, White 10:00"
    assert clocks[1] == "Time left: Black 9:50.5, White 10:00"
    assert clocks[2] == "Time left: Black 9:50.5, White 1:02:05 (5 left in the period)"
    assert clocks[3] == clocks[4] == clocks[2]  # carried over the moves that give none
    assert clocks[5] == "Time left: Black 0:12, White 1:02:05 (5 left in the period)"
    assert '<p id="clock" hidden></p>' in page
    assert all("clock" not in p for p in replay_data(client.get(f"/games/{plain}").text)["positions"])


def test_the_print_view_holds_the_book_figures(client: TestClient, ids: tuple[Path, int, int]) -> None:
    _, tree, _ = ids
    response = client.get(f"/games/{tree}/print")
    assert response.status_code == 200
    page = response.text
    figures = re.findall(r'<figure class="book-figure" id="figure-\d+"><svg [^>]*data-first="(\d+)" '
                         r'data-last="(\d+)"', page)
    assert figures == [("1", "5")]
    assert "<?xml" not in page
    assert "Opening in the centre." in page and "<dt>Move 1</dt>" in page
    assert "@media print" in client.get("/static/site.css").text
    assert f'href="/games/{tree}/print"' in client.get(f"/games/{tree}").text
    assert client.get("/games/999999/print").status_code == 404


def test_the_variations_that_leave_the_line_shown_are_marked(client: TestClient, ids: tuple[Path, int, int]) -> None:
    _, tree, _ = ids

    def leaving(page: str) -> dict[str, str]:
        return {unescape(h): at for at, h in re.findall(r'<li class="[^"]*" data-at="(\d+)"><a href="([^"]+)"', page)}

    main = client.get(f"/games/{tree}").text
    assert leaving(main) == {f"/games/{tree}?line=2.1#move=3": "3", f"/games/{tree}?line=2.2#move=3": "3"}
    assert re.search(r'<li class="black branch" data-move="3"', main)
    inner = client.get(f"/games/{tree}", params={"line": "2.1"}).text
    assert leaving(inner) == {f"/games/{tree}?line=2.1%2C4.1#move=5": "5", f"/games/{tree}?line=2.2#move=3": "3"}
    assert re.search(r'<li class="black branch" data-move="5"', inner)


def test_a_variation_page_leaves_the_kept_pages_as_they_are(client: TestClient, ids: tuple[Path, int, int]) -> None:
    _, tree, plain = ids
    kept = client.app.state.game_pages  # type: ignore[attr-defined]
    client.get(f"/games/{plain}")
    assert plain in kept.pages
    before = list(kept.pages)
    client.get(f"/games/{tree}", params={"line": "2.1"})
    assert list(kept.pages) == before  # the main lines' pages stay kept, and no variation's is


def test_a_variation_prints_as_its_page_shows_it(client: TestClient, ids: tuple[Path, int, int]) -> None:
    _, tree, _ = ids
    page = client.get(f"/games/{tree}", params={"line": "2.1,4.1"}).text
    link = re.search(r'id="print-link" href="([^"]+)"', page)
    assert link and unescape(link.group(1)) == f"/games/{tree}/print?line=2.1%2C4.1"
    printed = client.get(unescape(link.group(1))).text
    assert ": a variation</h1>" in printed and 'data-first="1" data-last="5"' in printed
    assert f'href="/games/{tree}?line=2.1%2C4.1">Back to the game' in printed
    assert client.get(f"/games/{tree}/print", params={"line": "7.1"}).status_code == 400
