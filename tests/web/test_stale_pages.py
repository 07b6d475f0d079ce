"""`records serve` while the archive changes: a fix, an import, a delete, an alias or a reindex made by another
process is seen at the server's next request (the game pages it keeps are for the archive's version,
Archive.version()), on SQLite and PostgreSQL, through FastAPI's TestClient and through a running `records serve`."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.front import Archive

from ..shared import import_games, write_folder

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402

from boardrecords.web.app import create_app  # noqa: E402

GAMES = {
    "a.sgf": "(;GM[1]SZ[9]PB[Alice Stone]PW[Bob Black]EV[Cup]RE[B+R];B[ee];W[cc];B[gg])",
    "b.sgf": "(;GM[1]SZ[9]PB[Carla Wood]PW[Dan Field]EV[Cup]RE[W+R];B[ee];W[gc];B[cg])",
}
MORE = {"c.sgf": "(;GM[1]SZ[9]PB[Erin Hill]PW[Bob Black]EV[Cup]RE[B+R];B[dd];W[ff])"}


def records(*args: object) -> str:
    """`records ARGS...` in a process of its own, as a user curating beside the server would run it."""
    done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", *map(str, args)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def record_id(client: TestClient, black: str) -> int:
    found = [g for g in client.get("/api/search").json() if g["black"] == black]
    assert len(found) == 1, found
    return int(found[0]["id"])


@pytest.fixture
def archive(db_url: str, tmp_path: Path) -> str:
    import_games(tmp_path, db_url, GAMES)
    return db_url


@pytest.fixture
def client(archive: str):
    with TestClient(create_app(archive), raise_server_exceptions=False, base_url="http://localhost") as c:
        yield c


def test_a_fix_is_seen_by_the_game_page_and_the_json(client: TestClient, archive: str) -> None:
    rid = record_id(client, "Alice Stone")
    first = client.get(f"/games/{rid}").text
    assert "Alice Stone" in first
    assert client.get(f"/games/{rid}").text == first  # kept: the same page again
    records("fix", rid, "--set", "PB=Alma Stone", "--db", archive)
    page = client.get(f"/games/{rid}").text
    assert "Alma Stone" in page and "Alice Stone" not in page
    assert client.get(f"/api/show/{rid}").json()["black"] == "Alma Stone"
    records("fix", rid, "--undo", "--db", archive)
    assert "Alice Stone" in client.get(f"/games/{rid}").text


def test_an_import_and_a_delete_are_seen_by_the_listings(client: TestClient, archive: str, tmp_path: Path) -> None:
    rid = record_id(client, "Alice Stone")
    client.get(f"/games/{rid}")
    assert "Erin Hill" not in client.get("/games").text
    records("import", "-q", "--db", archive, write_folder(tmp_path, "more", MORE))
    assert "Erin Hill" in client.get("/games").text
    assert len(client.get("/api/search").json()) == 3
    records("delete", rid, "--yes", "--db", archive)
    listing = client.get("/games").text
    assert "Alice Stone" not in listing and "Erin Hill" in listing
    assert client.get(f"/games/{rid}").status_code == 404  # its page, kept before, is gone with it
    assert client.get(f"/api/show/{rid}").status_code == 404


def test_an_alias_made_after_a_page_was_kept_is_seen(client: TestClient, archive: str) -> None:
    rid, other = record_id(client, "Carla Wood"), record_id(client, "Alice Stone")
    kept = client.app.state.game_pages  # type: ignore[attr-defined]
    client.get(f"/games/{rid}")
    client.get(f"/games/{other}")
    assert kept.pages.keys() == {rid, other}
    assert len(client.get("/api/search", params={"player": "Alice Stone"}).json()) == 1
    records("alias", "--db", archive, "Alice Stone", "Carla Wood")
    assert client.get(f"/games/{rid}").status_code == 200
    assert kept.pages.keys() == {rid}  # made again: the pages of the version before were let go
    assert {g["black"] for g in client.get("/api/search", params={"player": "Alice Stone"}).json()} == {
        "Alice Stone", "Carla Wood"}


def test_an_unchanged_archive_keeps_its_pages(client: TestClient, archive: str) -> None:
    rid = record_id(client, "Alice Stone")
    kept = client.app.state.game_pages  # type: ignore[attr-defined]
    client.get(f"/games/{rid}")
    version = kept.version
    for path in ("/games", "/players", "/api/search", f"/api/show/{rid}"):
        assert client.get(path).status_code == 200
    client.get(f"/games/{rid}")
    assert kept.version == version is not None and rid in kept.pages


def test_every_writer_moves_the_version(archive: str, tmp_path: Path) -> None:
    with Archive(archive) as reader, Archive(archive, write=True) as writer:
        seen = [reader.version()]
        assert seen[0] is not None

        def moved() -> bool:
            now = reader.version()
            changed = now != seen[-1]
            seen.append(now)
            return changed

        rid = reader.search(black="Alice Stone").to_json()[0]["id"]
        reader.record(rid)
        reader.players()
        assert not moved()  # reads move nothing
        writer.import_paths([tmp_path / "games"], workers=1)
        assert not moved()  # records stored already: nothing changed
        writer.import_paths([write_folder(tmp_path, "more", MORE)], workers=1)
        assert moved()
        writer.fix(rid, {"PB": "Alma Stone"})
        assert moved()
        writer.undo_fix(rid)
        assert moved()
        writer.alias("Alice Stone", "Carla Wood")
        assert moved()
        writer.remove_alias("Carla Wood")
        assert moved()
        writer.reindex()
        assert moved()
        writer.delete(ids=[rid])
        assert moved()


def _drop_marker(db: str) -> None:
    engine = make_engine(db)
    with engine.begin() as conn:  # the layout of the archives made before the marker
        conn.exec_driver_sql("DROP TABLE archive_state")
    engine.dispose()


def test_an_archive_made_before_the_marker(archive: str) -> None:
    """Opened for reading it gains the marker (where it can be written), and a writer moves it."""
    _drop_marker(archive)
    with Archive(archive) as reader:
        before = reader.version()
        assert before is not None
        with Archive(archive, write=True) as writer:
            writer.alias("Alice Stone", "Carla Wood")
        assert reader.version() != before


def test_an_archive_without_the_marker_is_served_without_keeping_pages(archive: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """An archive made before the marker that cannot be written to add it opens read-only all the same: its version
    is None, so no page is kept and a fix is still seen."""
    import boardrecords.archive.store.access as access

    def refused(engine: object) -> None:
        raise OperationalError("CREATE TABLE archive_state", {}, Exception("attempt to write a readonly database"))

    _drop_marker(archive)
    monkeypatch.setattr(access, "ensure_state", refused)
    with TestClient(create_app(archive), raise_server_exceptions=False, base_url="http://localhost") as client:
        assert client.app.state.archive.version() is None  # type: ignore[attr-defined]
        rid = record_id(client, "Alice Stone")
        assert "Alice Stone" in client.get(f"/games/{rid}").text
        assert not client.app.state.game_pages.pages  # type: ignore[attr-defined]
        monkeypatch.undo()
        records("fix", rid, "--set", "PB=Alma Stone", "--db", archive)  # a writer adds the marker
        assert "Alma Stone" in client.get(f"/games/{rid}").text


def test_a_running_server_sees_a_fix(tmp_path: Path) -> None:
    """Through `records serve` itself: the game page after a fix by another process shows the new name."""
    pytest.importorskip("uvicorn", reason="records serve needs uvicorn (pip install -e '.[test]')")
    from .conftest import serve

    db = str(tmp_path / "served.db")
    import_games(tmp_path, db, GAMES)
    with Archive(db) as reader:
        rid = reader.search(black="Alice Stone").to_json()[0]["id"]
    proc, url, _ = serve(Path(db))
    try:
        def page() -> str:
            with urllib.request.urlopen(f"{url}games/{rid}", timeout=30) as answer:
                return str(answer.read().decode("utf-8"))

        assert "Alice Stone" in page()
        records("fix", rid, "--set", "PB=Alma Stone", "--db", db)
        assert "Alma Stone" in page()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
