"""Recording over HTTP (web/recording.py): the whole flow, who may write (the local read-only default, accounts
with CSRF and tokens, foreign Origins), the 409s, two clients racing on one game, the live stream, and a real
`records serve` killed with SIGKILL between moves that loses none."""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from boardrecords.archive.front import Archive
from boardrecords.web.app import create_app

from .conftest import serve

LOCAL = ("127.0.0.1", 50000)
PASSWORDS = {"vic": "vic's long password", "eve": "eve's long password"}


@pytest.fixture
def archive_db(db_url: str) -> str:
    """An archive with a viewer (vic) and an editor (eve)."""
    with Archive(db_url, create=True) as archive:
        archive.add_user("vic", PASSWORDS["vic"], role="viewer")
        archive.add_user("eve", PASSWORDS["eve"], role="editor")
    return db_url


@pytest.fixture
def local(archive_db: str) -> Iterator[TestClient]:
    """The read-only default, asked from this machine."""
    with TestClient(create_app(archive_db), base_url="http://localhost", client=LOCAL) as c:
        yield c


def test_a_game_recorded_over_http_from_start_to_archive(local: TestClient) -> None:
    started = local.post("/api/recordings", json={"game": "go", "size": 9, "black": "Ann", "white": "Bob",
                                                  "komi": 7.5, "event": "Club night", "round": "2"})
    assert started.status_code == 200, started.text
    rec = started.json()["id"]
    assert started.json()["to_move"] == "B" and started.json()["offered"]["pass"]
    first = local.post(f"/api/recordings/{rec}/moves", json={"move": "E5", "after": 0, "black_time": 1790})
    assert first.status_code == 200 and first.json()["moves"][0]["value"] == "ee"
    assert first.json()["moves"][0]["name"] == "E5" and first.json()["to_move"] == "W"
    occupied = local.post(f"/api/recordings/{rec}/moves", json={"move": "ee", "after": 1})
    assert occupied.status_code == 409 and occupied.json()["rule"] == "ING-3"
    assert occupied.json()["position"]["count"] == 1
    stale = local.post(f"/api/recordings/{rec}/moves", json={"move": "C3", "after": 0})
    assert stale.status_code == 409 and stale.json()["moves"] == 1 and "moved on" in stale.json()["error"]
    local.post(f"/api/recordings/{rec}/moves", json={"move": "C3", "after": 1})
    assert local.post(f"/api/recordings/{rec}/undo", json={"after": 2}).json()["count"] == 1
    local.post(f"/api/recordings/{rec}/moves", json={"move": "G7", "after": 1})
    noted = local.post(f"/api/recordings/{rec}/comment", json={"text": "a fine move"})
    assert noted.json()["moves"][-1]["comment"] == "a fine move" and noted.json()["variations"] == 1
    assert [r["id"] for r in local.get("/api/recordings").json()] == [rec]
    for value in ("", "pass"):
        shown = local.post(f"/api/recordings/{rec}/moves", json={"move": value})
    assert shown.json()["stopped"] and shown.json()["result"] == "W+7.5"
    finished = local.post(f"/api/recordings/{rec}/finish", json={})
    assert finished.status_code == 200, finished.text
    answer = finished.json()
    assert answer["verdict"] == "pass" and answer["winner"] == "W" and answer["winner_player"] == "Bob"
    shown_record = local.get(f"/api/show/{answer['record']}").json()
    assert shown_record["event"] == "Club night" and shown_record["round"] == "2"
    assert local.get("/api/recordings").json() == []
    late = local.post(f"/api/recordings/{rec}/moves", json={"move": "A1"})
    assert late.status_code == 409
    assert local.get("/api/recordings/999").status_code == 404
    bad = local.post("/api/recordings", json={"game": "chess"})
    assert bad.status_code == 400 and "no game" in bad.json()["error"]
    odd = local.post(f"/api/recordings/{rec}/moves", json={"move": "Z99"})
    assert odd.status_code in (400, 409)


def test_the_read_only_default_records_for_this_machine_only(archive_db: str) -> None:
    app = create_app(archive_db)
    with TestClient(app, base_url="http://localhost") as elsewhere:  # the client "testclient": not local
        refused = elsewhere.post("/api/recordings", json={"game": "cation", "size": 6})
        assert refused.status_code == 403 and "127.0.0.1" in refused.json()["error"]
    with TestClient(app, base_url="http://localhost", client=LOCAL) as here:
        foreign = here.post("/api/recordings", json={"game": "cation", "size": 6},
                            headers={"Origin": "http://evil.example"})
        assert foreign.status_code == 403
        proxied = here.post("/api/recordings", json={"game": "cation", "size": 6},
                            headers={"X-Forwarded-For": "203.0.113.9"})
        assert proxied.status_code == 403
        own = here.post("/api/recordings", json={"game": "cation", "size": 6},
                        headers={"Origin": "http://localhost"})
        assert own.status_code == 200
        assert here.get(f"/api/recordings/{own.json()['id']}").json()["game"] == "cation"


def test_with_accounts_editors_record_with_their_csrf_token_or_an_api_token(archive_db: str) -> None:
    with Archive(archive_db, write=True) as archive:
        token = archive.new_token("eve")
    body = {"game": "quentin", "size": 6}
    with TestClient(create_app(archive_db, accounts=True), base_url="http://localhost") as c:
        assert c.post("/api/recordings", json=body).status_code == 401
        viewer = c.post("/api/login", json={"name": "vic", "password": PASSWORDS["vic"]}).json()["csrf"]
        assert c.post("/api/recordings", json=body, headers={"X-CSRF-Token": viewer}).status_code == 403
        csrf = c.post("/api/login", json={"name": "eve", "password": PASSWORDS["eve"]}).json()["csrf"]
        assert c.post("/api/recordings", json=body).status_code == 403  # no CSRF token
        assert c.post("/api/recordings", json=body, headers={"X-CSRF-Token": "wrong"}).status_code == 403
        made = c.post("/api/recordings", json=body, headers={"X-CSRF-Token": csrf})
        assert made.status_code == 200
        rec = made.json()["id"]
        assert c.post(f"/api/recordings/{rec}/moves", json={"move": "c3"}).status_code == 403
        assert c.post(f"/api/recordings/{rec}/moves", json={"move": "c3"},
                      headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"}).status_code == 403
    with TestClient(create_app(archive_db, accounts=True), base_url="http://localhost") as program:
        played = program.post(f"/api/recordings/{rec}/moves", json={"move": "c3"},
                              headers={"Authorization": f"Bearer {token}"})
        assert played.status_code == 200 and played.json()["count"] == 1
        done = program.post(f"/api/recordings/{rec}/finish", json={"result": "W+T"},
                            headers={"Authorization": f"Bearer {token}"})
        assert done.status_code == 200 and done.json()["verdict"] == "pass"
    with Archive(archive_db) as archive:
        assert [(row.who, row.action) for row in archive.audit().rows][:1] == [("eve", "record")]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Any, str, Path]]:
    pytest.importorskip("uvicorn")
    db = tmp_path / "live.db"
    Archive(str(db), create=True).close()
    proc, url, _ = serve(db)
    try:
        yield proc, url, db
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=20)


def test_two_clients_racing_on_one_game_win_one_move_each_number(server: tuple[Any, str, Path]) -> None:
    _, url, _ = server
    rec = httpx.post(url + "api/recordings", json={"game": "go", "size": 9}).json()["id"]
    rounds = 6
    outcomes: dict[str, list[int]] = {"A": [], "J": []}
    barrier = threading.Barrier(2)

    def client(column: str) -> None:
        with httpx.Client(base_url=url, timeout=30) as c:
            for number in range(rounds):
                barrier.wait()  # both send the move of this number at once, having seen `number` moves
                answer = c.post(f"api/recordings/{rec}/moves", json={"move": f"{column}{number + 1}",
                                                                      "after": number})
                outcomes[column].append(answer.status_code)
                if answer.status_code == 409:
                    assert answer.json()["moves"] == number + 1  # the other's move of this number stands

    threads = [threading.Thread(target=client, args=(c,)) for c in "AJ"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(sorted(pair) == [200, 409] for pair in zip(outcomes["A"], outcomes["J"], strict=True)), outcomes
    assert httpx.get(url + f"api/recordings/{rec}").json()["count"] == rounds


def test_a_watcher_sees_each_move_as_it_is_played(server: tuple[Any, str, Path]) -> None:
    _, url, _ = server
    rec = httpx.post(url + "api/recordings", json={"game": "cation", "size": 6}).json()["id"]
    seen: list[dict[str, Any]] = []
    ready = threading.Event()

    def watch() -> None:
        with httpx.stream("GET", url + f"api/recordings/{rec}/events", timeout=30) as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    seen.append(json.loads(line[6:]))
                    ready.set()
                    if len(seen) == 3:
                        return

    watcher = threading.Thread(target=watch)
    watcher.start()
    assert ready.wait(20)
    httpx.post(url + f"api/recordings/{rec}/moves", json={"move": "c3"})
    httpx.post(url + f"api/recordings/{rec}/moves", json={"move": "d4"})
    watcher.join(20)
    assert [s["count"] for s in seen] == [0, 1, 2]
    assert seen[2]["moves"][1]["name"] == "d4"


def test_a_server_killed_between_moves_loses_no_move_it_answered(server: tuple[Any, str, Path]) -> None:
    proc, url, db = server
    rec = httpx.post(url + "api/recordings", json={"game": "squer", "size": 4}).json()["id"]
    played = [httpx.post(url + f"api/recordings/{rec}/moves", json={"move": m}).json()["count"]
              for m in ("a1", "b2", "c3")]
    assert played == [1, 2, 3]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=20)
    again, url2, _ = serve(db)
    try:
        position = httpx.get(url2 + f"api/recordings/{rec}").json()
        assert [m["name"] for m in position["moves"]] == ["a1", "b2", "c3"]
        assert httpx.post(url2 + f"api/recordings/{rec}/moves", json={"move": "d4", "after": 3}).status_code == 200
    finally:
        again.terminate()
        again.wait(timeout=20)


def test_the_example_client_of_the_docs_runs_as_shown(server: tuple[Any, str, Path]) -> None:
    import re
    import subprocess
    import sys

    from ..shared import ROOT

    _, url, _ = server
    page = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    section = page[page.index("## Recording games"):page.index("## Running a club's archive")]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    script = code.group(1).replace('SERVER = "http://127.0.0.1:8000"', f'SERVER = "{url.rstrip("/")}"')
    assert url.rstrip("/") in script
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["refused: move 3: E5 is occupied (ING-3)", "stored as record 1 pass W+6"]


def test_a_watcher_of_another_server_over_the_same_archive_sees_the_moves(server: tuple[Any, str, Path]) -> None:
    from .conftest import serving

    _, url, db = server
    rec = httpx.post(url + "api/recordings", json={"game": "quentin", "size": 6}).json()["id"]
    seen: list[int] = []
    ready = threading.Event()
    with serving(db) as other:

        def watch() -> None:
            with httpx.stream("GET", other + f"api/recordings/{rec}/events", timeout=30) as stream:
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        seen.append(json.loads(line[6:])["count"])
                        ready.set()
                        if seen[-1] == 2:
                            return

        watcher = threading.Thread(target=watch)
        watcher.start()
        assert ready.wait(20)
        for move in ("c3", "d4"):  # entered through the first server: the second finds them by its poll
            assert httpx.post(url + f"api/recordings/{rec}/moves", json={"move": move}).status_code == 200
        watcher.join(20)
    assert seen[0] == 0 and seen[-1] == 2
