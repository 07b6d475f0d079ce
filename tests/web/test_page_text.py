"""Text from records on the served pages: escaped the same way on every page (controls, bidi and zero-width marks
as visible escapes, on the listings as on the game page: render/safe_text.py through the templates' one
`finalize`), each header value and cell bounded with the whole value one click away, and the game page cache
bounded in bytes; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path
from urllib.parse import urlencode

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app as cli

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402

from boardrecords.render.shorten import NAME_SHOWN, VALUE_SHOWN  # noqa: E402
from boardrecords.web.app import create_app  # noqa: E402
from boardrecords.web.pages import GamePages  # noqa: E402

# U+202E (right-to-left override), U+2066 (left-to-right isolate), ESC and the C1 control CSI (U+009B).
BIDI = "Ann\u202eoG"
ISOLATE = "Bob\u2066x\u2069"
EVENT = "Club\x1b[31m red\u009bnight"
RAW = ("\u202e", "\u2066", "\u2069", "\x1b", "\u009b")
CONTROLS = (f"(;FF[4]CA[UTF-8]GM[1]SZ[9]PB[{BIDI}]PW[{ISOLATE}]EV[{EVENT}]RO[1]DT[2024-05-01]KM[7]RE[W+R]"
            ";B[ee];W[cc];B[gg];W[gc])\n")


def junk(n: int, seed: int) -> str:
    """A long value without a space, as a hostile record writes it."""
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_letters) for _ in range(n))


MOVES = "".join(f";B[{a}{b}];W[{b}{a}]" for a, b in zip("abcdefghij", "klmnopqrsr", strict=True))
# Four long values: a record of about 350 KB on SQLite; on PostgreSQL of 8 KB (its indexes of names and events
# take at most about 2,700 bytes a value).
LONG: list[str] = []


def big_record(length: int) -> str:
    LONG[:] = [junk(length, seed) for seed in range(4)]
    return (f"(;FF[4]CA[UTF-8]GM[1]SZ[19]PB[{LONG[0]}]PW[{LONG[1]}]EV[{LONG[2]}]PC[{LONG[3]}]DT[2024-05-02]"
            f"RE[B+R]{MOVES})\n")


@pytest.fixture
def client(db_url: str, tmp_path: Path):
    (tmp_path / "controls.sgf").write_text(CONTROLS, encoding="utf-8")
    (tmp_path / "big.sgf").write_text(big_record(2_000 if db_url.startswith("postgresql") else 85_000),
                                      encoding="utf-8")
    done = CliRunner().invoke(cli, ["import", "-q", "--db", db_url, str(tmp_path / "controls.sgf"),
                                    str(tmp_path / "big.sgf")])
    assert done.exit_code == 0, done.output
    with TestClient(create_app(db_url), raise_server_exceptions=False, base_url="http://localhost") as c:
        yield c


def record_of(client: TestClient, **params: str) -> int:
    (found,) = client.get("/api/search", params=params).json()
    return int(found["id"])


CROSSTABLE = "/crosstable?" + urlencode({"event": EVENT})


def test_controls_and_bidi_marks_are_visible_escapes_on_every_page(client: TestClient) -> None:
    rid = record_of(client, game="go", size="9")
    pages = {path: client.get(path) for path in (
        f"/games/{rid}", "/games", "/players", "/events", "/ratings", "/ratings?" + urlencode({"player": BIDI}),
        CROSSTABLE, "/explore?game=go&size=9&moves=E5")}
    for path, got in pages.items():
        assert got.status_code == 200, (path, got.text[:300])
        assert not [ch for ch in RAW if ch in got.text], path  # nothing reaches the page raw
    for path in (f"/games/{rid}", "/games", "/players", "/ratings", CROSSTABLE):
        assert "Ann\\u202eoG" in pages[path].text, path  # the game page's way, on the listings
    assert "Bob\\u2066x\\u2069" in pages["/games"].text and "Bob\\u2066x\\u2069" in pages[f"/games/{rid}"].text
    for path in (f"/games/{rid}", "/games", "/events", CROSSTABLE):
        assert "Club\\x1b[31m red\\x9bnight" in pages[path].text, path
    # the links still carry the record's own value, so that they answer
    link = re.search(r'href="(/crosstable\?[^"]*)"', pages["/games"].text)
    assert link is not None and client.get(link.group(1).replace("&amp;", "&")).status_code == 200


def test_each_header_value_is_bounded_with_the_whole_one_click_away(client: TestClient) -> None:
    rid = record_of(client, game="go", size="19")
    page = client.get(f"/games/{rid}").text
    header = re.search(r'<dl id="header">(.*?)</dl>', page, re.S)
    assert header is not None
    details = re.findall(r'<details class="long"><summary>(.*?)</summary><span class="whole">(.*?)</span>',
                         header.group(1))
    assert len(details) == 4  # Black, White, Event, Place
    for summary, whole in details:
        assert len(summary) <= VALUE_SHOWN + 40 and whole in LONG  # the first words, and the whole value
    # a name is whole once, in the header: the lines about the moves show it shortened
    for value in LONG:
        assert page.count(value) == 1
    assert len(page) < 1.2 * sum(map(len, LONG)) + 200_000
    listing = client.get("/games").text + client.get("/players").text + client.get("/events").text
    assert not any(value[:VALUE_SHOWN + 1] in listing for value in LONG)  # the cells are bounded too
    assert f"/games/{rid}" in client.get("/games").text  # the whole values one click away
    # no link is made with a value no page takes (a name longer than a parameter: it could not answer)
    assert not [u for u in re.findall(r'href="([^"]*)"', listing) if len(u) > 2000]


def test_a_long_name_is_shortened_in_the_lines_about_the_moves(client: TestClient) -> None:
    rid = record_of(client, game="go", size="19")
    page = client.get(f"/games/{rid}").text
    # The move list names no player (number, stone, point); the replay's line about each move names its player,
    # shortened.
    items = re.findall(r'<li class="(?:black|white)[^"]*" data-move="\d+"><a [^>]*>(.*?)</a>', page)
    assert len(items) == 20 and all(len(re.sub(r"<[^>]*>", "", item)) < 12 for item in items)
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)[1])
    labels = [p["label"] for p in data["positions"][1:]]
    assert len(labels) == 20 and all(len(label) < NAME_SHOWN + 40 for label in labels)


def test_the_page_cache_is_bounded_in_bytes() -> None:
    kept = GamePages(kept=256, budget=10_000)
    assert kept.get(1, 7) is None  # the version is set
    for rid in range(1, 40):
        kept.put(rid, 7, b"x" * 900)
        assert kept.size == sum(len(p) for p in kept.pages.values()) <= 10_000
    assert len(kept.pages) == 11 and list(kept.pages) == list(range(29, 40))  # the last ones made
    kept.put(99, 7, b"x" * 1001)  # more than a tenth of the budget: never kept
    assert 99 not in kept.pages
    assert kept.get(39, 8) is None and kept.size == 0 and not kept.pages  # another version: all let go


def test_the_served_cache_counts_its_pages_bytes(client: TestClient) -> None:
    kept = client.app.state.game_pages  # type: ignore[attr-defined]
    for rid in (record_of(client, game="go", size="9"), record_of(client, game="go", size="19")):
        assert client.get(f"/games/{rid}").status_code == 200
        assert client.get(f"/games/{rid}").content == kept.pages[rid]
    assert kept.size == sum(len(p) for p in kept.pages.values()) > 0
