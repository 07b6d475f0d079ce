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
