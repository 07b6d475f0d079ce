"""A player's page (/players/NAME) and `records player NAME`, one answer (Archive.player_card): every game under
all the player's spellings and aliases, the results against each opponent, by colour and by event, the openings
played most from the position index, the rating, the events; and every page that names a player links there."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from urllib.parse import quote

import pytest

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402

from boardrecords.archive.front import Archive  # noqa: E402
from boardrecords.web.app import create_app  # noqa: E402

from ..shared import run  # noqa: E402

HOSTILE_NAME = '<img src=x onerror="window.pwned=1">'


def record(black: str, white: str, result: str, day: int, event: str = "Cup", moves: str = ";B[ee];W[cc];B[gg]",
           round_: int = 1) -> str:
    return (f"(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[7]PB[{black}]PW[{white}]EV[{event}]RO[{round_}]DT[2024-01-{day:02d}]"
            f"RE[{result}]{moves})\n")


def write_games(folder: Path) -> None:
    """Five games of Lee Sedol under three spellings (one an alias), and one between two others."""
    games = [
        record("Lee Sedol", "Cho Hunhyun", "B+R", 1),  # Lee wins as Black
        record("Cho Hunhyun", "lee se-dol", "B+R", 2),  # Lee (another spelling) loses as White
        record("LSD", "Cho Hunhyun", "W+R", 3, moves=";B[cc];W[ee];B[gc]"),  # an alias: loses as Black
        record("Park Junghwan", "Lee Sedol", "W+R", 4, event="League", moves=";B[gg];W[cc];B[ee]"),
        record(HOSTILE_NAME, "Lee Sedol", "B+R", 5, event="League", moves=";B[ee];W[gg];B[cc]"),
        record("Cho Hunhyun", "Park Junghwan", "B+R", 6),  # not Lee's
    ]
    for i, text in enumerate(games):
        (folder / f"g{i}.sgf").write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def archive_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("players")
    write_games(folder)
    db = folder / "p.db"
    assert run("import", "-q", "--db", db, folder).exit_code == 0
    assert run("alias", "Lee Sedol", "LSD", "--db", db).exit_code == 0
    return db


@pytest.fixture(scope="module")
def client(archive_db: Path):
    with TestClient(create_app(str(archive_db)), raise_server_exceptions=False, base_url="http://localhost") as c:
        yield c


def rows(page: str, table: str) -> list[list[str]]:
    """The cells' texts of a table's body."""
    body = re.search(rf'<table[^>]*id="{table}".*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, table
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)]


def test_the_card_joins_every_spelling_and_alias(archive_db: Path) -> None:
    with Archive(str(archive_db)) as a:
        for asked in ("Lee Sedol", "lee  se-dol", "LSD", "LEE SEDOL"):
            card = a.player_card(asked).to_json()
            assert card["player"] == "Lee Sedol" and card["games"] == 5
            assert set(card["spellings"]) == {"Lee Sedol", "lee se-dol", "LSD"}
        assert {g["date"] for g in card["records"]} == {f"2024-01-0{d}" for d in range(1, 6)}
        assert [g["date"] for g in card["records"]] == sorted((g["date"] for g in card["records"]), reverse=True)


def test_head_to_head_colours_and_events_are_counted_for_the_player(archive_db: Path) -> None:
    with Archive(str(archive_db)) as a:
        card = a.player_card("Lee Sedol").to_json()
    against = {o["opponent"]: (o["games"], o["wins"], o["losses"], o["draws"]) for o in card["opponents"]}
    assert against == {"Cho Hunhyun": (3, 1, 2, 0), "Park Junghwan": (1, 1, 0, 0), HOSTILE_NAME: (1, 0, 1, 0)}
    colours = {c["colour"]: (c["games"], c["wins"], c["losses"]) for c in card["colours"]}
    assert colours == {"B": (2, 1, 1), "W": (3, 1, 2)}
    assert card["results"] == [{"game": "go-ing", "games": 5, "wins": 2, "losses": 3, "draws": 0}]
    events = {e["event"]: (e["games"], e["wins"], e["losses"]) for e in card["events"]}
    assert events == {"Cup": (3, 1, 2), "League": (2, 1, 1)}
    outcomes = {int(g["date"][-1]): (g["colour"], g["outcome"]) for g in card["records"]}
    assert outcomes == {1: ("B", "won"), 2: ("W", "lost"), 3: ("B", "lost"), 4: ("W", "won"), 5: ("W", "lost")}


def test_openings_come_from_the_position_index_in_any_symmetry(archive_db: Path) -> None:
    """Games 1, 2 and 5 reach one position after three moves (E5, C7, G3 and their mirror images), game 3 (C7, E5,
    G7) the same position reflected, game 4 another order of the same stones: one opening of five games."""
    with Archive(str(archive_db)) as a:
        card = a.player_card("Lee Sedol").to_json()
        explored = a.explore(",".join(m.split(" ")[1] for m in card["openings"][0]["moves"]), game="go", size=9)
    first = card["openings"][0]
    assert sum(o["games"] for o in card["openings"]) == 5
    assert len(first["moves"]) == 3 and all(m.startswith(("B ", "W ")) for m in first["moves"])
    assert first["latest"] == card["records"][0]["id"]  # its latest game names it
    assert explored.total >= first["games"]  # the explorer reaches it with at least the player's games


def test_the_rating_is_the_ratings_one(archive_db: Path) -> None:
    with Archive(str(archive_db)) as a:
        card = a.player_card("lee se-dol").to_json()
        rated = a.ratings("go", "Lee Sedol").to_json()
    assert card["ratings"] == rated


def test_a_player_no_game_names_is_not_found(archive_db: Path, client: TestClient) -> None:
    with Archive(str(archive_db)) as a, pytest.raises(Exception, match="no records of player"):
        a.player_card("Nobody At All")
    assert client.get("/players/Nobody%20At%20All").status_code == 404
    done = run("player", "Nobody At All", "--db", archive_db)
    assert done.exit_code == 1 and "no records of player" in done.output


def test_the_page_shows_the_card(client: TestClient) -> None:
    response = client.get("/players/lee%20se-dol")
    assert response.status_code == 200
    page = response.text
    assert "<h1 id=\"player-name\">Lee Sedol</h1>" in page
    opponents = {r[0]: r[2:6] for r in rows(page, "opponents")}
    assert opponents["Cho Hunhyun"] == ["3", "1", "2", "0"]
    assert [r[:3] for r in rows(page, "results")] == [
        ["Go (Simplified Ing Rules)", c, n] for c, n in (("all", "5"), ("Black", "2"), ("White", "3"))]
    assert {r[0] for r in rows(page, "events")} == {"Cup", "League"}
    assert len(rows(page, "player-games")) == 5
    assert 'id="rating-chart"' in page and "<svg" in page
    opening = re.search(r'<table[^>]*id="openings".*?<a href="([^"]+)"', page, re.S)
    assert opening and unescape(opening.group(1)).startswith("/explore?game=go-ing&size=9&player=Lee+Sedol&moves=")
    explored = client.get(unescape(opening.group(1)))
    assert explored.status_code == 200, re.findall(r"error[^<]*<[^>]*>[^<]*", explored.text)  # the explorer answers it
    for game in re.findall(r'<a href="(/games/\d+)">', page):  # each game's page links back to the player's
        assert re.search(r'<a class="player" href="/players/(Lee%20Sedol|lee%20se-dol|LSD)">',
                         client.get(game).text), game


def test_the_cli_prints_the_same_card(archive_db: Path, client: TestClient) -> None:
    done = run("player", "LSD", "--db", archive_db, "--json")
    assert done.exit_code == 0
    with Archive(str(archive_db)) as a:
        assert json.loads(done.output) == json.loads(json.dumps(a.player_card("Lee Sedol").to_json()))
    table = run("player", "Lee Sedol", "--db", archive_db)
    assert table.exit_code == 0
    assert "Lee Sedol (also LSD, lee se-dol): 5 games" in table.output
    assert "Cho Hunhyun" in table.output and "Against each opponent" in table.output


def test_hostile_names_are_escaped_and_linked(client: TestClient) -> None:
    page = client.get("/players/Lee%20Sedol").text
    assert HOSTILE_NAME not in page and "&lt;img src=x onerror=" in page
    href = "/players/" + quote(HOSTILE_NAME, safe="")
    assert f'href="{href.replace("&", "&amp;")}"' in page  # one path segment, escaped
    theirs = client.get(href)
    assert theirs.status_code == 200 and HOSTILE_NAME not in theirs.text
    assert "&lt;img src=x onerror=" in theirs.text
    assert client.get("/players/a%00b").status_code == 400
    assert client.get("/players/" + "x" * 201).status_code in (400, 422)


@pytest.mark.parametrize("path", ["/games", "/players", "/ratings", "/crosstable?event=Cup&game=go",
                                  "/explore?game=go&size=9&moves=E5", "/players/Cho%20Hunhyun",
                                  "/patterns?pattern=X&game=go&size=9&anchor=anywhere"])
def test_every_page_that_names_players_links_their_pages(client: TestClient, path: str) -> None:
    page = client.get(path).text
    links = {unescape(h) for h in re.findall(r'<a class="player" href="([^"]+)"', page)}
    assert "/players/Lee%20Sedol" in links or "/players/lee%20se-dol" in links or "/players/LSD" in links, path
    for href in links:
        assert client.get(href).status_code == 200, href


def test_the_json_route_is_the_commands_json(archive_db: Path, client: TestClient) -> None:
    done = run("player", "Lee Sedol", "--db", archive_db, "--json")
    response = client.get("/api/players/lee%20se-dol")
    assert response.status_code == 200 and response.json() == json.loads(done.output)
    assert client.get("/api/players/a%00b").status_code == 400
    assert client.get("/api/players/Nobody").json() == {"error": "no records of player 'Nobody'"}


def test_the_card_reads_alike_on_sqlite_and_postgresql(db_url: str, tmp_path: Path) -> None:
    write_games(tmp_path)
    assert run("import", "-q", "--db", db_url, tmp_path).exit_code == 0
    assert run("alias", "Lee Sedol", "LSD", "--db", db_url).exit_code == 0
    with Archive(db_url) as a:
        card = a.player_card("lee sedol").to_json()
    assert card["games"] == 5 and len(card["openings"]) >= 1 and card["ratings"]
    assert {o["opponent"]: o["games"] for o in card["opponents"]} == {"Cho Hunhyun": 3, "Park Junghwan": 1,
                                                                      HOSTILE_NAME: 1}


@pytest.mark.parametrize("columns", [40, 60, 100, 200])
def test_the_cli_card_fits_any_width(archive_db: Path, columns: int) -> None:
    from typer.testing import CliRunner

    from boardrecords.cli.main import app

    done = CliRunner().invoke(app, ["player", "Lee Sedol", "--db", str(archive_db)], env={"COLUMNS": str(columns)})
    assert done.exit_code == 0
    lines = done.output.splitlines()
    assert max(len(line) for line in lines) <= columns
    assert any("Cho" in line for line in lines) and any("won" in line for line in lines)
