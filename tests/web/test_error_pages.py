"""The pages never lead to a dead end: an error of a page is a page (the site's navigation, the form as typed, the
message beside the field it concerns) with the API's HTTP status, and every link a page makes answers 200 (a crawl
of the served pages of the examples' archive)."""

from __future__ import annotations

import re
from collections import deque
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402

from boardrecords.web.app import create_app  # noqa: E402

NAV = ["/games", "/explore", "/patterns", "/players", "/ratings", "/events", "/verify", "/docs"]
CRAWL_MAX = 4000  # links fetched at most: the crawl stops by itself


@pytest.fixture(scope="module")
def client(examples_archive: Path):
    with TestClient(create_app(str(examples_archive)), raise_server_exceptions=False,
                    base_url="http://localhost") as c:
        yield c


def links(page: str) -> list[str]:
    """The internal links of a page (href and src), without their fragment."""
    found = []
    for raw in re.findall(r'(?:href|src)="([^"]*)"', page):
        url = unescape(raw).split("#", 1)[0]
        if url.startswith("/") and not url.startswith("//"):
            found.append(url)
    return found


def expanded(url: str) -> bool:
    """Whether the crawl follows the links of this page too: every page but the explorer's positions after a
    move (each of them links every empty point again: the tree has no end), whose own answer is still checked."""
    parts = urlsplit(url)
    if parts.path != "/explore":
        return parts.path.startswith("/") and not parts.path.startswith(("/api/", "/static/", "/replay/",
                                                                          "/swagger/"))
    moves = parse_qs(parts.query).get("moves", [""])[0]
    return not moves


def test_every_link_of_the_pages_answers(client: TestClient) -> None:
    seen = set(NAV)
    queue = deque(NAV)
    dead: list[tuple[str, str, int]] = []
    came_from: dict[str, str] = {}
    fetched = 0
    while queue and fetched < CRAWL_MAX:
        url = queue.popleft()
        got = client.get(url, follow_redirects=False)
        fetched += 1
        if got.status_code != 200:
            dead.append((came_from.get(url, "(navigation)"), url, got.status_code))
            continue
        if not expanded(url) or not got.headers["content-type"].startswith("text/html"):
            continue
        for link in links(got.text):
            if link not in seen:
                seen.add(link)
                came_from[link] = url
                queue.append(link)
    assert not dead, dead[:20]
    assert not queue, f"the crawl stopped after {fetched} links"
    kinds = {urlsplit(u).path.split("/")[1] for u in seen}
    assert {"games", "explore", "patterns", "players", "ratings", "events", "crosstable", "static"} <= kinds
    assert fetched > 100


def test_the_players_page_links_a_rating_only_where_there_is_one(client: TestClient) -> None:
    players = client.get("/api/players").json()
    assert any(p["rated"] for p in players) and any(not p["rated"] for p in players)  # both kinds in the examples
    page = client.get("/players").text
    linked = {(q["player"][0], q["game"][0]) for q in
              (parse_qs(urlsplit(unescape(u)).query) for u in re.findall(r'href="(/ratings\?[^"]*)"', page))}
    assert linked == {(p["player"], p["game"]) for p in players if p["rated"]}
    for p in players:  # the count is the ratings' own: a rated player has a rating, an unrated one none
        got = client.get("/api/ratings", params={"player": p["player"], "game": p["game"]})
        assert got.status_code == (200 if p["rated"] else 404), (p, got.text)


def field_error(page: str, name: str) -> str:
    found = re.search(rf'<span class="field-error" id="error-{re.escape(name)}" role="alert">(.*?)</span>', page)
    assert found is not None, page
    return unescape(found.group(1))


def test_a_typo_in_a_date_is_shown_beside_the_field_with_the_form_as_typed(client: TestClient) -> None:
    got = client.get("/games", params={"from": "2017-13", "player": "Alice*", "game": "go"})
    assert got.status_code == 400 and got.headers["content-type"].startswith("text/html")
    page = got.text
    assert '<nav class="top">' in page and 'id="filters"' in page
    assert field_error(page, "from") == client.get("/api/search", params={"from": "2017-13"}).json()["error"]
    assert 'name="from" value="2017-13"' in page and 'name="player" value="Alice*"' in page
    assert '<option value="go-ing" selected>' in page  # the game kept, by any of its names
    assert 'aria-invalid="true" aria-describedby="error-from"' in page


@pytest.mark.parametrize(("params", "field"), [({"moves-min": "-3"}, "moves-min"), ({"size": "99"}, "size"),
                                               ({"game": "chess"}, "game"), ({"opening": "zz99"}, "opening")])
def test_each_bad_filter_is_shown_beside_its_own_field(client: TestClient, params: dict[str, str],
                                                        field: str) -> None:
    got = client.get("/games", params=params)
    assert got.status_code == 400
    assert field_error(got.text, field)


def test_an_illegal_move_in_the_explorer_is_shown_beside_the_moves(client: TestClient) -> None:
    got = client.get("/explore", params={"game": "go", "size": "9", "moves": "E5,E5"})
    assert got.status_code == 400 and 'id="explore-form"' in got.text
    assert field_error(got.text, "moves") == client.get("/api/explore", params={"game": "go", "size": "9",
                                                                                "moves": "E5,E5"}).json()["error"]
    assert 'name="moves" value="E5,E5"' in got.text


@pytest.mark.parametrize(("path", "field"), [("/crosstable?event=nothing+here", "event"),
                                             ("/ratings?player=Nobody", "player"),
                                             ("/patterns?pattern=XQ", "pattern")])
def test_a_page_names_the_field_of_what_is_missing_or_wrong(client: TestClient, path: str, field: str) -> None:
    got = client.get(path)
    assert got.status_code in (400, 404)
    assert field_error(got.text, field)


def test_a_missing_record_is_a_404_page_with_the_navigation(client: TestClient) -> None:
    for path in ("/games/999999", "/games/999999/original", "/nowhere"):
        got = client.get(path)
        assert got.status_code == 404 and got.headers["content-type"].startswith("text/html"), path
        assert '<nav class="top">' in got.text and 'href="/games"' in got.text
    assert "no record 999999 in the archive" in client.get("/games/999999").text
    assert client.get("/api/show/999999").json() == {"error": "no record 999999 in the archive"}


def test_a_bad_upload_on_the_verify_page_is_the_form_again(client: TestClient) -> None:
    got = client.post("/verify", files={"file": ("bad.sgf", b"not a record at all")})
    assert got.status_code == 400 and 'id="verify-form"' in got.text
    assert field_error(got.text, "file")


def test_the_pages_name_games_as_players_do(client: TestClient) -> None:
    for path in ("/games", "/players", "/events", "/ratings"):
        shown = re.sub(r"<[^>]*>", " ", client.get(path).text)  # the text, not the links' values
        assert "go-ing" not in shown and "conversion-go" not in shown, path
        assert "Go (Simplified Ing Rules)" in shown, path


def test_the_explorer_links_only_the_points_that_can_be_played(client: TestClient) -> None:
    """ING-3: after E5, B9, E6, A8, Black's A9 would be a suicide: the board does not link it (it would be an error
    page), and asked for anyway it is a 400 page with the message beside the moves."""
    moves = "E5,B9,E6,A8"
    page = client.get("/explore", params={"game": "go", "size": "9", "moves": moves}).text
    linked = set(re.findall(r'<a href="[^"]*" class="point" data-point="([A-Z]\d+)"', page))
    assert "A9" not in linked and {"A1", "J9", "D4"} <= linked and len(linked) == 81 - 4 - 1
    got = client.get("/explore", params={"game": "go", "size": "9", "moves": moves + ",A9"})
    assert got.status_code == 400 and field_error(got.text, "moves")
