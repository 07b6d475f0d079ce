"""The served pages show federation numbers (/players) and an imported tournament's official results on the
crosstable page, each linked to its record, with a mark where record and official result disagree."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from boardrecords import Archive
from boardrecords.web.app import create_app

SMALL = (Path(__file__).parents[1] / "archive" / "tournament_files" / "small.xml").read_bytes()


def _archive(tmp_path: Path) -> str:
    db = str(tmp_path / "a.db")
    folder = tmp_path / "records"
    folder.mkdir()
    games = [(1, "Björn Berg", "Alice Adams", "B+R", "W[resign]"),  # official: White won; the record says Black
             (2, "Chloé Côté", "Björn Berg", "0", "")]
    for i, (ro, black, white, result, last) in enumerate(games):
        folder.joinpath(f"g{i}.sgf").write_text(
            f"(;FF[4]GM[1]SZ[9]KM[6.5]EV[Small Open 2024]RO[{ro}]PB[{black}]PW[{white}]RE[{result}];B[ee];W[cc]"
            f"{';' + last if last else ''})\n", encoding="utf-8")
    with Archive(db, create=True) as archive:
        archive.import_paths([folder], workers=1)
        archive.import_tournament(SMALL)
    return db


def test_players_page_shows_numbers(tmp_path: Path) -> None:
    with TestClient(create_app(_archive(tmp_path)), base_url="http://localhost") as client:
        page = client.get("/players").text
    assert "EGD 12345678" in page and "AGA 777" in page


def test_crosstable_page_shows_official_results(tmp_path: Path) -> None:
    with TestClient(create_app(_archive(tmp_path)), base_url="http://localhost") as client:
        page = client.get("/crosstable", params={"event": "Small Open 2024"})
        notated = client.get("/crosstable", params={"event": "Small Open 2024", "notation": "opengotha"})
        bad = client.get("/crosstable", params={"event": "Small Open 2024", "notation": "tou"})
        api = client.get("/api/crosstable", params={"event": "Small Open 2024"}).json()
    assert page.status_code == 200
    text = page.text
    assert 'id="official-results"' in text and "Official results: Small Open 2024" in text
    (first,) = [g for s in api["official"]["standings"] for g in s["games"]
                if s["player"] == "Alice Adams" and g["round"] == 1]
    assert first["disagreements"] == ["result"]
    assert f'<a href="/games/{first["record"]}">2+/w0</a>' in text and "result</strong>" in text
    assert 'class="disagrees"' in text and "no-record" in text  # round 2: a board without a record
    assert notated.status_code == 200 and "/w0</a>" in notated.text.split('id="official-results"')[0]
    assert bad.status_code == 400 and "no crosstable notation" in bad.text
