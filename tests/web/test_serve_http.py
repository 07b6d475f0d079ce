"""`records serve` over HTTP (FastAPI's TestClient), on SQLite and PostgreSQL: every route's status and JSON (the
objects of the commands' --json), every record text escaped, every parameter bounded, every bad one a 400 with a
JSON error, the archive read-only."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app as cli

from ..shared import EXAMPLES

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402

from boardrecords.common.settings import Settings  # noqa: E402
from boardrecords.web.app import CSP, create_app  # noqa: E402

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(2)>'
HOSTILE = (f"(;FF[4]CA[UTF-8]GM[1]SZ[9]PB[{SCRIPT}]PW[Eve {IMG}]EV[Club {SCRIPT}]RO[1]DT[2024-05-01]KM[7]"
           f"RE[W+R]C[</script><script>alert(3)</script>];B[ee];W[cc]C[{IMG}];B[resign])\n")


def run(*args: str) -> str:
    done = CliRunner().invoke(cli, [str(a) for a in args])
    assert done.exit_code == 0, done.output
    return done.stdout


@pytest.fixture
def archive(db_url: str, tmp_path: Path) -> str:
    (tmp_path / "hostile.sgf").write_text(HOSTILE, encoding="utf-8")
    run("import", "-q", "--db", db_url, EXAMPLES, tmp_path / "hostile.sgf")
    return db_url


@pytest.fixture
def client(archive: str):
    with TestClient(create_app(archive), raise_server_exceptions=False, base_url="http://localhost") as c:
        yield c


def hostile_id(client: TestClient) -> int:
    found = client.get("/api/search", params={"event": f"Club {SCRIPT}"}).json()
    assert len(found) == 1
    return found[0]["id"]


# -- JSON: the commands' objects --------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "params", "argv"), [
    ("/api/search", {}, ["search", "--json"]),
    ("/api/search", {"player": "alice*", "from": "2024"}, ["search", "--json", "--player", "alice*", "--from", "2024"]),
    ("/api/search", {"game": "go", "sort": "-moves", "limit": "3"},
     ["search", "--json", "--game", "go", "--sort", "-moves", "--limit", "3"]),
    ("/api/search", {"after": "C4", "game": "cation", "size": "4"},
     ["search", "--json", "--after", "C4", "--game", "cation", "--size", "4"]),
    ("/api/explore", {"game": "go", "size": "9"}, ["explore", "--json", "--game", "go", "--size", "9"]),
    ("/api/explore", {"game": "go", "size": "9", "moves": "E5"},
     ["explore", "E5", "--json", "--game", "go", "--size", "9"]),
    ("/api/explore", {"game": "squer", "size": "7"}, ["explore", "--json", "--game", "squer", "--size", "7"]),
    ("/api/explore", {"game": "conversion-go", "size": "6"},
     ["explore", "--json", "--game", "conversion-go", "--size", "6"]),
    ("/api/players", {}, ["players", "--json"]),
    ("/api/players", {"game": "cation"}, ["players", "--json", "--game", "cation"]),
    ("/api/events", {}, ["events", "--json"]),
    ("/api/crosstable", {"event": "Autumn club tournament"}, ["crosstable", "Autumn club tournament", "--json"]),
    ("/api/ratings", {}, ["ratings", "--json"]),
    ("/api/ratings", {"player": "Alice Martin"}, ["ratings", "--json", "--player", "Alice Martin"]),
])
def test_the_json_is_the_commands_json(client, archive, path, params, argv):
    got = client.get(path, params=params)
    assert got.status_code == 200, got.text
    assert got.headers["content-type"].startswith("application/json")
    done = CliRunner().invoke(cli, [*argv, "--db", archive])
    assert done.exit_code in (0, 1), done.output
    assert got.json() == json.loads(done.stdout)


def test_show_is_the_commands_json(client, archive):
    rid = hostile_id(client)
    got = client.get(f"/api/show/{rid}")
    assert got.status_code == 200
    assert got.json() == json.loads(run("show", str(rid), "--json", "--db", archive))
    assert got.json()["black"] == SCRIPT


def test_search_pages_and_counts(client):
    everything = client.get("/api/search", params={"limit": 500}).json()
    first = client.get("/api/search", params={"limit": 2})
    assert first.headers["x-total-count"] == str(len(everything))
    second = client.get("/api/search", params={"limit": 2, "offset": 2}).json()
    assert [g["id"] for g in first.json() + second] == [g["id"] for g in everything[:4]]


# -- errors and bounds ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "params"), [
    ("/api/search", {"limit": "0"}), ("/api/search", {"limit": "501"}), ("/api/search", {"limit": "ten"}),
    ("/api/search", {"offset": "-1"}), ("/api/search", {"offset": str(10**7)}),
    ("/api/search", {"size": "0"}), ("/api/search", {"size": "99"}), ("/api/search", {"moves-min": "-3"}),
    ("/api/search", {"moves-max": str(2**64)}), ("/api/search", {"player": "x" * 201}),
    ("/api/search", {"sort": "bogus"}), ("/api/search", {"from": "yesterday"}), ("/api/search", {"verdict": "meh"}),
    ("/api/search", {"swapped": "perhaps"}),
    ("/api/search", {"after": "Z99"}), ("/api/search", {"after": "Q16," * 2000}),
    ("/api/explore", {"moves": "Q16,Q16"}), ("/api/explore", {"game": "chess"}), ("/api/explore", {"moves": "zz99"}),
    ("/api/players", {"game": "chess"}), ("/api/events", {"game": "x" * 41}), ("/api/crosstable", {}),
    ("/api/crosstable", {"event": ""}), ("/api/ratings", {"limit": "-1"}),
    ("/games", {"limit": "1000"}), ("/games", {"from": "nope"}), ("/explore", {"moves": "A1,A1"}),
    ("/games/0", {}), ("/games/abc", {}), ("/api/show/0", {}), ("/api/show/" + "9" * 30, {}),
])
def test_a_bad_parameter_is_a_400_with_a_json_error_or_an_error_page(client, path, params):
    got = client.get(path, params=params)
    assert got.status_code == 400, (path, params, got.status_code, got.text)
    assert "Traceback" not in got.text
    assert_error_answer(got, path)


def assert_error_answer(got, path: str) -> None:
    """The API's error is `{"error": ...}`; a page's is a page with the site's navigation and the message."""
    if path.startswith(("/api/", "/replay/")):
        assert got.headers["content-type"].startswith("application/json")
        assert set(got.json()) == {"error"} and got.json()["error"]
    else:
        assert got.headers["content-type"].startswith("text/html"), got.text
        assert '<nav class="top">' in got.text and re.search(r'<p class="error" id="error" role="alert">.+</p>',
                                                            got.text)
        assert got.headers["content-security-policy"] == CSP


@pytest.mark.parametrize("path", ["/api/show/999999", "/games/999999", "/games/999999/original",
                                  "/api/crosstable?event=nothing+here", "/api/ratings?player=Nobody", "/nowhere",
                                  "/replay/main.py", "/crosstable?event=nothing+here", "/ratings?player=Nobody"])
def test_nothing_there_is_a_404_with_a_json_error_or_a_404_page(client, path):
    got = client.get(path)
    assert got.status_code == 404
    assert_error_answer(got, path)


def test_the_archive_is_opened_read_only(client):
    from sqlalchemy import text

    engine = client.app.state.engine
    with pytest.raises(Exception), engine.begin() as conn:  # noqa: B017 - SQLite and PostgreSQL differ
        conn.execute(text("DELETE FROM game"))
    assert client.get("/api/search").json()


def test_methods_that_write_are_refused(client):
    assert client.post("/api/search").status_code == 405
    assert client.delete("/api/show/1").status_code == 405


# -- pages ----------------------------------------------------------------------------------------------------

PAGES = ["/games", "/games?player=alice*&sort=-date", "/games?limit=1&offset=1", "/explore",
         "/explore?game=go&size=9&moves=E5", "/explore?game=cation&size=4",
         "/explore?game=conversion-go&size=6", "/players", "/events",
         "/crosstable?event=Autumn+club+tournament", "/docs", "/ratings", "/ratings?player=Alice+Martin",
         "/patterns", "/patterns?pattern=X./..&anchor=corner&game=cation&size=6", "/verify"]


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_served_with_a_policy_that_forbids_inline_script(client, path):
    got = client.get(path)
    assert got.status_code == 200, got.text
    assert got.headers["content-type"].startswith("text/html")
    assert got.headers["content-security-policy"] == CSP
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP
    # every <script> loads a file of the server, or is a data block the browser never runs
    for tag in re.findall(r"<script[^>]*>", got.text):
        assert 'src="/' in tag or 'type="application/json"' in tag, tag


def test_the_games_page_counts_and_pages(client):
    total = int(client.get("/api/search").headers["x-total-count"])
    page = client.get("/games", params={"limit": 2}).text
    assert f"2 of {total} records" in page
    assert 'id="next-page"' in page
    assert f"{total - 2 if total - 2 < 2 else 2} of {total}" in client.get("/games?limit=2&offset=2").text


def test_every_text_of_a_hostile_record_is_escaped(client):
    rid = hostile_id(client)
    pages = [client.get(p).text for p in (f"/games/{rid}", "/games", "/players", "/events", "/ratings",
                                          f"/ratings?player={SCRIPT}",
                                          f"/games?event=Club+{SCRIPT}", "/explore?game=go&size=9",
                                          "/crosstable?" + "event=Club+%3Cscript%3Ealert(1)%3C%2Fscript%3E")]
    for page in pages:
        assert SCRIPT not in page and "<img" not in page and "alert(3)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[1]
    # the replay's data block: no `<` at all, so no `</script>` can end it
    block = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', pages[0], re.S)
    assert block is not None and "<" not in block.group(1)


def _between(page: str, start: str, end: str) -> str:
    found = re.search(re.escape(start) + ".*?" + re.escape(end), page, re.S)
    assert found is not None, start
    return found.group(0)


def test_the_game_page_replays_with_the_markup_of_the_html_page(client, tmp_path: Path):
    """One markup for the replay: the board, its buttons, slider and legends, the move status and the verdict of
    `records html` are the game page's, byte for byte (a Go game, so the marks legend and star points are there)."""
    rid = client.get("/api/search", params={"game": "go", "sort": "-moves", "limit": 1}).json()[0]["id"]
    page = client.get(f"/games/{rid}").text
    (tmp_path / "game.sgf").write_bytes(client.get(f"/games/{rid}/original").content)
    run("html", tmp_path / "game.sgf", "-o", tmp_path / "game.html")
    alone = (tmp_path / "game.html").read_text(encoding="utf-8")
    for start, end in (('<section id="board-wrap">', "</section>\n<aside>"),
                       ('<p id="move-label">', '<section id="verdict"'), ('<section id="verdict"', "</section>")):
        assert _between(page, start, end) == _between(alone, start, end)
    assert 'id="marks"' in page
    header = _between(page, '<dl id="header">', "</dl>")
    assert header.startswith(f'<dl id="header"><dt>record</dt><dd>#{rid}, ')
    assert header.endswith(_between(alone, '<dl id="header">', "</dl>").removeprefix('<dl id="header">'))


def test_the_game_page_replays_and_downloads_the_original(client):
    rid = hostile_id(client)
    page = client.get(f"/games/{rid}").text
    for part in ('id="board"', 'id="slider"', 'src="/replay/replay.js"', 'id="verdict"', 'id="moves"',
                 f'href="/games/{rid}/original"'):
        assert part in page
    original = client.get(f"/games/{rid}/original")
    assert original.status_code == 200
    assert original.content == HOSTILE.strip().encode("utf-8")
    assert "attachment" in original.headers["content-disposition"]
    assert client.get("/replay/replay.js").text.startswith("// The replayer")


def test_the_game_page_names_problems_with_their_rules(client):
    bad = client.get("/api/search", params={"verdict": "invalid", "limit": 1}).json()
    assert bad, "the examples hold an invalid record"
    page = client.get(f"/games/{bad[0]['id']}").text
    rules = [p["rule"] for p in client.get(f"/api/show/{bad[0]['id']}").json()["problems"] if p["rule"]]
    assert 'id="problems"' in page and rules and all(r in page for r in rules)


def test_the_explorer_steps_by_links_that_carry_the_moves(client):
    page = client.get("/explore", params={"game": "go", "size": "9"}).text
    steps = re.findall(r'href="(/explore\?[^"]*)"', page)
    assert any("moves=E5" in s for s in steps)  # a point of the board
    deeper = client.get("/explore", params={"game": "go", "size": "9", "moves": "E5"}).text
    assert 'id="back"' in deeper and "Moves: E5" in deeper


def test_the_openapi_page_is_served_from_the_package(client):
    page = client.get("/docs").text
    assert "/swagger/swagger-ui-bundle.js" in page and "http" not in page.replace("http-equiv", "")
    assert client.get("/swagger/swagger-ui-bundle.js").status_code == 200
    schema = client.get("/openapi.json").json()
    for route in ("/api/search", "/api/show/{record_id}", "/api/explore", "/api/players", "/api/events",
                  "/api/crosstable", "/api/ratings"):
        assert route in schema["paths"]
    names = {p["name"] for p in schema["paths"]["/api/search"]["get"]["parameters"]}
    assert {"player", "from", "to", "moves-min", "after", "limit"} <= names


# -- patterns -------------------------------------------------------------------------------------------------

PATTERN = {"pattern": "X./..", "anchor": "corner", "game": "cation", "size": "6", "either-colour": "true"}


def test_the_pattern_search_gives_what_search_pattern_gives(client, archive):
    got = client.get("/api/search", params=PATTERN)
    assert got.status_code == 200, got.text
    done = CliRunner().invoke(cli, ["search", "--pattern", "X./..", "--anchor", "corner", "--game", "cation",
                                    "--size", "6", "--either-colour", "--json", "--db", archive])
    want = json.loads(done.stdout)
    mine = got.json()
    assert mine["games"] == want["games"] > 0 and mine["appearances"] == want["appearances"]
    assert mine["records"] == want["records"]
    assert {k: v for k, v in mine.items() if k not in ("records", "continuations")} == \
        {k: v for k, v in want.items() if k not in ("records", "continuations")}
    # every field the command gives, and whatever else the library's continuations carry
    assert [{k: c[k] for k in w} for c, w in zip(mine["continuations"], want["continuations"], strict=True)] == \
        want["continuations"]


def test_the_pattern_page_shows_the_continuations_and_games(client):
    page = client.get("/patterns", params=PATTERN)
    assert page.status_code == 200
    assert 'id="pattern-continuations"' in page.text and 'id="pattern-games"' in page.text
    assert 'src="/static/patterns.js"' in page.text
    assert client.get("/patterns").status_code == 200


@pytest.mark.parametrize("params", [{"pattern": "XQ"}, {"pattern": "X./."}, {"pattern": "**"},
                                    {"pattern": "X" * 2001}, {"pattern": "X.", "anchor": "middle"},
                                    {"pattern": "XXXXXXX", "game": "cation", "size": "4"}])
def test_a_bad_pattern_is_a_400(client, params):
    for path in ("/api/search", "/patterns"):
        got = client.get(path, params=params)
        assert got.status_code == 400, (path, params, got.text)
        assert_error_answer(got, path)


def _record_id(client: TestClient, name: str) -> int:
    found = [g for g in client.get("/api/search", params={"limit": 500}).json()
             if (g["source_file"] or "").endswith(name)]
    assert len(found) == 1
    return found[0]["id"]


SOURCE = "go/capture-and-resignation.rec"


@pytest.mark.parametrize("options", [{"move": "8", "region": "A9:D6"}, {"region": "D4:A9"},
                                     {"move": "5", "region": "B9:E6", "anchor": "top", "either-colour": "true"}])
def test_pattern_from_gives_what_search_pattern_from_gives(client, archive, options):
    params = {"pattern-from": _record_id(client, SOURCE), **options}
    got = client.get("/api/search", params=params)
    assert got.status_code == 200, got.text
    argv = ["search", "--pattern-from", str(EXAMPLES / SOURCE), "--json", "--db", archive]
    for k, v in options.items():
        argv += [f"--{k}"] if v == "true" else [f"--{k}", v]
    assert got.json() == json.loads(run(*argv))
    assert got.json()["games"] >= 1  # at least the record it was taken from


def test_a_pattern_from_a_game_page_opens_the_patterns_page_over_its_position(client):
    record_id = _record_id(client, SOURCE)
    game = client.get(f"/games/{record_id}").text
    assert f'href="/patterns?pattern-from={record_id}&amp;move=0"' in game and 'src="/static/game.js"' in game
    page = client.get("/patterns", params={"pattern-from": record_id, "move": "8"})
    assert page.status_code == 200, page.text
    position = re.search(r'data-position="([.BW]*)"', page.text)
    assert position is not None and len(position.group(1)) == 81
    board = position.group(1)  # its top-left 4x4 is the pattern `search --pattern-from --region A9:D6` takes
    assert [board[r * 9:r * 9 + 4] for r in range(4)] == ["B...", ".B..", "B.W.", "...."]
    assert f'name="pattern-from" id="pattern-from" value="{record_id}"' in page.text
    assert 'id="pattern-count"' not in page.text  # no region yet: nothing searched
    searched = client.get("/patterns", params={"pattern-from": record_id, "move": "8", "region": "A9:D6"})
    assert searched.status_code == 200 and 'id="pattern-count"' in searched.text
    assert 'value="X.../.X../X.O./...."' in searched.text


def test_a_drawn_pattern_with_a_region_is_named_there(client):
    params = {"pattern": "X.", "game": "go", "size": "9", "region": "C3:D3"}
    got = client.get("/api/search", params=params).json()
    assert got["continuations"] and all(c["point"] in ("C3", "D3", None) for c in got["continuations"])
    assert client.get("/patterns", params=params).status_code == 200


@pytest.mark.parametrize(("params", "status"), [
    ({"region": "A9:D6", "pattern": "X."}, 400),  # both a pattern and a record
    ({"region": "A9-D6"}, 400),
    ({"region": "A9:Z99"}, 400),
    ({"region": "A9:D6", "move": "999"}, 400),
    ({"region": "A9:D6", "move": "-1"}, 400),
])
def test_a_bad_pattern_from_is_an_error(client, params, status):
    record_id = _record_id(client, SOURCE)
    for path in ("/api/search", "/patterns"):
        got = client.get(path, params={"pattern-from": record_id, **params})
        assert got.status_code == status, (path, params, got.text)
        assert_error_answer(got, path)
    assert client.get("/api/search", params={"pattern-from": record_id}).status_code == 400  # no region
    assert client.get("/api/search", params={"pattern-from": 10**9, "region": "A9:D6"}).status_code == 404
    assert client.get("/api/search", params={"pattern": "X.", "region": "A1:C1"}).status_code == 400  # not 2x1


# -- verifying an upload --------------------------------------------------------------------------------------

def test_an_uploaded_file_is_verified_and_nothing_is_stored(client, tmp_path):
    before = client.get("/api/search").headers["x-total-count"]
    src = EXAMPLES / "go" / "capture-and-resignation.rec"
    got = client.post("/api/verify", files={"file": ("game.rec", src.read_bytes())})
    assert got.status_code == 200, got.text
    done = CliRunner().invoke(cli, ["verify", "--json", str(src)])
    want = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert want and [{k: v for k, v in r.items() if k != "file"} for r in got.json()] == \
        [{k: v for k, v in r.items() if k != "file"} for r in want]
    page = client.post("/verify", files={"file": ("<b>x</b>.sgf", HOSTILE.encode())})
    assert page.status_code == 200
    assert "<b>x</b>" not in page.text and SCRIPT not in page.text and "&lt;b&gt;x&lt;/b&gt;.sgf" in page.text
    assert client.get("/api/search").headers["x-total-count"] == before
    assert client.get("/verify").status_code == 200


FORMATS = Path(__file__).parent.parent / "records" / "formats"


@pytest.mark.parametrize(("sample", "name"), [("gib-utf8.gib", "game.gib"), ("ngf-euc-kr.ngf", "game.ngf"),
                                              ("gib-euc-kr.gib", "renamed.txt"), ("ugi-shift-jis.ugi", "game.txt")])
def test_fmt13_an_upload_in_a_servers_format_is_verified(client, sample, name):
    """FMT-13: a Tygem GIB, WBaduk NGF or Pandanet file posted to `/api/verify` and to the page `/verify` is read and
    verified as `records verify` reads it, by its content even when it is named `.txt`."""
    src = FORMATS / sample
    got = client.post("/api/verify", files={"file": (name, src.read_bytes())})
    assert got.status_code == 200, got.text
    done = CliRunner().invoke(cli, ["verify", "--json", str(src)])
    want = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(got.json()) == 1 and [{k: v for k, v in r.items() if k != "file"} for r in got.json()] == \
        [{k: v for k, v in r.items() if k != "file"} for r in want]
    record = got.json()[0]
    assert record["verdict"] == "pass" and record["game"] == "go-ing" and record["moves"] == {"replayed": 6, "total": 6}
    assert record["players"]["black"] and record["players"]["white"]
    page = client.post("/verify", files={"file": (name, src.read_bytes())})
    assert page.status_code == 200 and "pass" in page.text and name in page.text


@pytest.mark.parametrize("data", [b"", b"not a record at all"])
def test_an_upload_that_does_not_read_is_a_400(client, data):
    got = client.post("/api/verify", files={"file": ("bad.sgf", data)})
    assert got.status_code == 400 and got.json()["error"]


def test_an_upload_past_the_file_cap_is_refused(archive: str):
    # `records serve` gives the application the settings it read from the environment (RECORDS_MAX_FILE_SIZE=1k).
    capped = create_app(archive, settings=Settings.from_environment({"RECORDS_MAX_FILE_SIZE": "1k"}))
    with TestClient(capped, raise_server_exceptions=False, base_url="http://localhost") as client:
        got = client.post("/api/verify", files={"file": ("big.sgf", b"(;GM[1]SZ[9]C[" + b"x" * 2000 + b"])")})
        assert got.status_code == 413 and "larger than" in got.json()["error"]
        assert client.post("/api/verify").status_code == 400


def test_a_form_with_blank_fields_filters_by_the_others(client):
    blank = {name: "" for name in ("player", "black", "size", "moves-min", "moves-max", "swapped", "from", "to",
                                   "verdict", "status", "game", "text", "opening")}
    everything = client.get("/api/search", params={"limit": 500}).json()
    assert client.get("/api/search", params={**blank, "limit": 500}).json() == everything
    assert client.get("/games", params=blank).status_code == 200
    assert client.get("/explore", params={**blank, "game": "go", "size": "9", "moves": ""}).status_code == 200
    alice = client.get("/api/search", params={**blank, "player": "Alice Martin"}).json()
    assert alice and all("Alice Martin" in (g["black"], g["white"]) for g in alice)


def test_the_game_page_draws_the_star_points_of_its_board(client):
    """Every stored game's page draws exactly its board's star points (render/stars.py): a Go board its hoshi,
    a connection game's board none."""
    from boardrecords.records.games import Game
    from boardrecords.records.points import format_point
    from boardrecords.render.stars import star_points

    seen = set()
    for row in client.get("/api/search", params={"limit": 500}).json():
        game, size = Game(row["game"]), row["size"]
        if (game, size) in seen:
            continue
        seen.add((game, size))
        page = client.get(f"/games/{row['id']}").text
        drawn = set(re.findall(r'<circle class="star" data-point="([a-z]+)"', page))
        assert drawn == {format_point(p) for p in star_points(game, size)}, (game, size)
    assert any(star_points(g, s) for g, s in seen) and any(not star_points(g, s) for g, s in seen)
