"""`POST /api/import` and the audit log of `records serve --accounts` over real HTTP (TestClient), SQLite and
PostgreSQL (web/editing.py): files, several at once and a zip stored by the import `records import` runs, with its
summary; every refusal of the route (401, 403 for a viewer, without or with a wrong CSRF token, a foreign Origin,
421 for a foreign Host); the audit rows every writing route writes, for admins and `records audit --json`."""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from boardrecords.archive.front import Archive
from boardrecords.common.settings import DEFAULTS
from boardrecords.web.app import create_app

from ..shared import run, write_folder

PASSWORDS = {"ann": "ann's long password", "vic": "vic's long password", "eve": "eve's long password"}
ROLES = {"ann": "admin", "vic": "viewer", "eve": "editor"}
G1 = "(;GM[1]SZ[9]PB[Eve]PW[Fay]EV[Cup]DT[2022-01-01]RE[B+R];B[bb];W[ef];B[dg];W[resign])"
G2 = "(;GM[1]SZ[9]PB[Gus]PW[Eve]EV[Cup]DT[2022-02-02]RE[W+R];B[bb];W[de];B[cd];W[gg];B[resign])"


@pytest.fixture
def archive_db(db_url: str) -> str:
    with Archive(db_url, create=True) as archive:
        for name, password in PASSWORDS.items():
            archive.add_user(name, password, role=ROLES[name])
    return db_url


@pytest.fixture
def client(archive_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(archive_db, accounts=True), base_url="http://localhost") as c:
        yield c


def _login(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/login", json={"name": name, "password": PASSWORDS[name]})
    assert answer.status_code == 200
    return {"X-CSRF-Token": answer.json()["csrf"]}


def _zip(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as packed:
        for name, text in files.items():
            packed.writestr(name, text)
    return out.getvalue()


def test_an_editor_imports_files_with_the_summary_of_records_import(client, archive_db, tmp_path):
    headers = _login(client, "eve")
    answer = client.post("/api/import", headers=headers,
                         files=[("file", ("g1.rec", G1.encode())), ("file", ("g2.rec", G2.encode()))])
    assert answer.status_code == 200, answer.text
    summary = answer.json()
    assert summary["new"] == 2 and summary["files"] == 2
    folder = write_folder(tmp_path, "same", {"g1.rec": G1, "g2.rec": G2})
    cli = json.loads(run("import", "--json", "--db", str(tmp_path / "cli.db"), folder).stdout)
    assert set(summary) == set(cli)
    assert {k: summary[k] for k in ("records", "new", "verdicts", "results")} == \
           {k: cli[k] for k in ("records", "new", "verdicts", "results")}
    # a file is read whatever its name, as `records import FILE` reads it
    again = client.post("/api/import", headers=headers, files=[("file", ("round one", G1.encode()))]).json()
    assert again["new"] == 0 and again["duplicates"] == 1
    with Archive(archive_db) as archive:
        assert archive.search().total == 2
        rows = archive.audit().to_json()
    assert [r["action"] for r in rows] == ["import", "import", "login"]
    assert rows[1]["who"] == "eve" and len(rows[1]["ids"]) == 2 and rows[1]["after"]["new"] == 2
    assert rows[0]["ids"] == []


def test_a_zip_of_a_folder_is_imported_and_its_paths_stay_inside(client, archive_db):
    headers = _login(client, "eve")
    packed = _zip({"cup/round1/g1.rec": G1, "../../escape/g2.rec": G2, "/abs/g3.txt": "not a record"})
    answer = client.post("/api/import", headers=headers, files=[("file", ("cup.zip", packed))])
    assert answer.status_code == 200, answer.text
    assert answer.json()["new"] == 2
    bad = client.post("/api/import", headers=headers, files=[("file", ("cup.zip", b"PK\x03\x04 not a zip"))])
    assert bad.status_code == 400 and "zip" in bad.json()["error"]


def test_a_file_past_the_cap_is_a_413(archive_db):
    small = dataclasses.replace(DEFAULTS, max_file_size=200)
    with TestClient(create_app(archive_db, accounts=True, settings=small), base_url="http://localhost") as c:
        headers = _login(c, "eve")
        assert c.post("/api/import", headers=headers, files=[("file", ("big.rec", b"x" * 300))]).status_code == 413
        packed = _zip({"big.rec": "(;GM[1]" + " " * 300 + ")"})
        assert c.post("/api/import", headers=headers, files=[("file", ("a.zip", packed))]).status_code == 413


def test_the_import_refuses_what_it_must(client):
    files = [("file", ("g1.rec", G1.encode()))]
    assert client.post("/api/import", files=files).status_code == 401
    viewer = _login(client, "vic")
    assert client.post("/api/import", headers=viewer, files=files).status_code == 403
    editor = _login(client, "eve")
    assert client.post("/api/import", files=files).status_code == 403  # no CSRF token
    assert client.post("/api/import", headers={"X-CSRF-Token": "wrong"}, files=files).status_code == 403
    assert client.post("/api/import", headers={**editor, "Origin": "http://evil.example"},
                       files=files).status_code == 403
    assert client.post("/api/import", headers={**editor, "Host": "evil.example"}, files=files).status_code == 421
    with Archive(client.app.state.archive.db) as archive:
        assert archive.search().total == 0


def test_the_audit_log_is_for_admins_and_records_audit(client, archive_db):
    editor = _login(client, "eve")
    client.post("/api/import", headers=editor, files=[("file", ("g1.rec", G1.encode()))])
    client.post("/api/logout", headers=editor)
    assert client.get("/api/audit").status_code == 401
    _login(client, "eve")
    assert client.get("/api/audit").status_code == 403 and client.get("/audit").status_code == 403
    _login(client, "ann")
    rows = client.get("/api/audit").json()
    assert [r["action"] for r in rows] == ["login", "login", "logout", "import", "login"]
    page = client.get("/audit")
    assert page.status_code == 200 and "import" in page.text and "eve" in page.text
    listed = json.loads(run("audit", "--json", "--db", archive_db).stdout)
    assert [(r["who"], r["action"]) for r in listed] == [("ann", "login"), ("eve", "login"), ("eve", "logout"),
                                                          ("eve", "import"), ("eve", "login")]
    assert {"who", "when", "action", "ids"} <= set(listed[0])
    assert "import" in run("audit", "--db", archive_db).stdout
