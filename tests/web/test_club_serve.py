"""A club's archive served by real `records serve --accounts` processes, SQLite and PostgreSQL: an upload cut off
while its body arrives stores nothing and the same upload again stores it whole; a server killed during an import
leaves whole records, and the same upload again completes it; two server processes over one
archive share the sessions and the login throttle (it is counted in the archive); `--workers 2` serves."""

from __future__ import annotations

import http.client
import io
import json
import socket
import subprocess
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from urllib.parse import urlsplit

import pytest

pytest.importorskip("uvicorn")

from boardrecords.archive.front import Archive
from boardrecords.web.accounts import FREE_FAILURES

from .conftest import serve

PASSWORD = "eve's long password"
GAMES = [f"(;GM[1]SZ[9]PB[P{i}]PW[Q{i}]EV[Club]RE[B+R];B[{chr(97 + i % 9)}c];W[resign])" for i in range(40)]


@pytest.fixture
def club_db(db_url: str) -> str:
    with Archive(db_url, create=True) as archive:
        archive.add_user("eve", PASSWORD, role="editor")
    return db_url


@contextmanager
def served(db: str, *extra: str) -> Iterator[tuple[str, int]]:
    proc, url, _ = serve(db, "--accounts", *extra)  # type: ignore[arg-type]
    parts = urlsplit(url)
    try:
        yield parts.hostname or "127.0.0.1", parts.port or 80
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _request(where: tuple[str, int], method: str, path: str, body: bytes = b"",
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(*where, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def _login(where: tuple[str, int], password: str = PASSWORD) -> tuple[int, dict[str, str]]:
    """The status of a login, and (when it succeeded) the headers that send its session and CSRF token."""
    status, headers, body = _request(where, "POST", "/api/login", json.dumps({"name": "eve", "password": password})
                                     .encode(), {"Content-Type": "application/json"})
    if status != 200:
        return status, {}
    cookie = headers["set-cookie"].split(";", 1)[0]
    return status, {"Cookie": cookie, "X-CSRF-Token": json.loads(body)["csrf"]}


def _multipart(files: dict[str, str]) -> tuple[bytes, str]:
    """A multipart body of `files` (their text as Latin-1: any bytes), and its content type."""
    boundary = "records-test-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
             f"Content-Type: application/octet-stream\r\n\r\n{text}\r\n" for name, text in files.items()]
    return ("".join(parts) + f"--{boundary}--\r\n").encode("latin-1"), f"multipart/form-data; boundary={boundary}"


def _count(db: str) -> int:
    with Archive(db) as archive:
        return archive.search(limit=1).total


def test_an_upload_cut_off_stores_nothing_and_the_same_upload_again_stores_it_whole(club_db):
    files = {f"g{i}.sgf": text for i, text in enumerate(GAMES)}
    body, kind = _multipart(files)
    with served(club_db) as where:
        _, signed = _login(where)
        # The browser is closed half-way through the body: the server has read part of it, never all.
        cut = socket.create_connection(where, timeout=30)
        head = (f"POST /api/import HTTP/1.1\r\nHost: {where[0]}:{where[1]}\r\nContent-Type: {kind}\r\n"
                f"Content-Length: {len(body)}\r\nCookie: {signed['Cookie']}\r\n"
                f"X-CSRF-Token: {signed['X-CSRF-Token']}\r\n\r\n").encode()
        cut.sendall(head + body[:len(body) // 2])
        cut.close()
        # Asked after the cut: the server answers, and nothing of the upload was stored.
        status, _, _ = _request(where, "GET", "/api/search?limit=1")
        assert status == 200
        assert _count(club_db) == 0
        status, _, answer = _request(where, "POST", "/api/import", body, {"Content-Type": kind, **signed})
        assert status == 200, answer
        assert json.loads(answer)["new"] == len(GAMES)
    assert _count(club_db) == len(GAMES)


def test_two_server_processes_share_the_sessions_and_the_login_throttle(club_db):
    with served(club_db) as first, served(club_db) as second:
        status, signed = _login(first)
        assert status == 200
        # The session begun on one process is good on the other; a fix on one is seen by the other.
        body, kind = _multipart({"g.sgf": GAMES[0]})
        status, _, answer = _request(second, "POST", "/api/import", body, {"Content-Type": kind, **signed})
        assert status == 200 and json.loads(answer)["new"] == 1
        _, _, shown = _request(second, "GET", "/api/search?limit=1")
        record_id = json.loads(shown)[0]["id"]
        fix = json.dumps({"version": 1, "set": {"PB": "Anna"}}).encode()
        status, _, _ = _request(first, "POST", f"/api/games/{record_id}/fix", fix,
                                {"Content-Type": "application/json", **signed})
        assert status == 200
        status, _, answer = _request(second, "POST", f"/api/games/{record_id}/fix", fix,
                                     {"Content-Type": "application/json", **signed})
        assert status == 409 and json.loads(answer)["version"] == 2
        # Failed logins counted on one process slow the account on the other.
        for _ in range(FREE_FAILURES):
            assert _login(first, "a wrong password")[0] == 401
        status, _ = _login(second)
        assert status == 429


def test_workers_serve_one_archive(club_db):
    with served(club_db, "--workers", "2") as where:
        statuses = [_login(where)[0] for _ in range(3)]
        assert statuses == [200, 200, 200]
        _, signed = _login(where)
        body, kind = _multipart({"g.sgf": GAMES[1]})
        status, _, answer = _request(where, "POST", "/api/import", body, {"Content-Type": kind, **signed})
        assert status == 200 and json.loads(answer)["new"] == 1


def test_a_server_killed_during_an_import_leaves_whole_records_and_the_same_upload_completes(club_db):
    many = {f"r{i}.sgf": f"(;GM[1]SZ[9]PB[K{i}]PW[L{i}]RE[B+R];B[{chr(97 + i % 9)}{chr(97 + i // 9 % 9)}];W[resign])"
            for i in range(3000)}
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as folder:  # more than a form's 1,000 files: a folder's zip
        for name, text in many.items():
            folder.writestr(f"round/{name}", text)
    body, kind = _multipart({"round.zip": packed.getvalue().decode("latin-1")})
    proc, url, _ = serve(club_db, "--accounts")  # type: ignore[arg-type]
    parts = urlsplit(url)
    where = (parts.hostname or "127.0.0.1", parts.port or 80)
    try:
        _, signed = _login(where)
        sender = threading.Thread(target=lambda: _swallow(where, body, kind, signed), daemon=True)
        sender.start()
        deadline = time.monotonic() + 120
        while _count(club_db) == 0 and time.monotonic() < deadline and sender.is_alive():
            time.sleep(0.05)
        proc.kill()  # in the middle of the import: some batches committed, the rest not
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    stored = _count(club_db)
    assert 0 < stored < len(many), "the import was not stopped half-way (make it longer)"
    with Archive(club_db) as archive:
        rows = archive.search(limit=0).games
        assert all(archive.record(r.id or 0).record.root.properties["PB"].values[0].startswith("K") for r in rows)
    with served(club_db) as again:
        _, signed = _login(again)
        status, _, answer = _request(again, "POST", "/api/import", body, {"Content-Type": kind, **signed})
        assert status == 200
        summary = json.loads(answer)
        assert summary["new"] == len(many) - stored and summary["duplicates"] == stored
    assert _count(club_db) == len(many)


def _swallow(where: tuple[str, int], body: bytes, kind: str, signed: dict[str, str]) -> None:
    """The upload, its answer (or the server going away) ignored."""
    with suppress(OSError, http.client.HTTPException):
        _request(where, "POST", "/api/import", body, {"Content-Type": kind, **signed})
