"""The writing routes of a club's archive over real HTTP (TestClient), SQLite and PostgreSQL (web/curating.py,
web/editing.py): a fix on the version it was read at (two editors on one record: the second gets 409 and the
version and header as they are), an undo, aliases, a delete in two steps bound to its selection, the upload
page; every refusal of every writing route (401 without a session, 403 for a viewer, without or with a wrong CSRF
token, from a foreign Origin, 421 for a foreign Host), each leaving the archive as it was; and the audit rows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from boardrecords.archive.front import Archive
from boardrecords.web.app import create_app

from ..shared import run, write_folder

PASSWORDS = {"ann": "ann's long password", "vic": "vic's long password", "eve": "eve's long password",
             "fay": "fay's long password"}
ROLES = {"ann": "admin", "vic": "viewer", "eve": "editor", "fay": "editor"}
G1 = "(;GM[1]SZ[9]PB[Eve]PW[Fay]EV[Cup]DT[2022-01-01]RE[B+R];B[bb];W[ef];B[dg];W[resign])"
G2 = "(;GM[1]SZ[9]PB[Gus]PW[Eve]EV[Cup]DT[2022-02-02]RE[W+R];B[bb];W[de];B[cd];W[gg];B[resign])"
G3 = "(;GM[1]SZ[9]PB[Hal]PW[Ida]EV[Open]DT[2022-03-03]RE[B+R];B[cc];W[resign])"


@pytest.fixture
def archive_db(db_url: str, tmp_path) -> str:
    folder = write_folder(tmp_path, "games", {"g1.sgf": G1, "g2.sgf": G2, "g3.sgf": G3})
    with Archive(db_url, create=True) as archive:
        archive.import_paths([folder], workers=1)
        for name, password in PASSWORDS.items():
            archive.add_user(name, password, role=ROLES[name])
    return db_url


@pytest.fixture
def client(archive_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(archive_db, accounts=True), base_url="http://localhost") as c:
        yield c


def _login(client: TestClient, name: str) -> str:
    answer = client.post("/api/login", json={"name": name, "password": PASSWORDS[name]})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["csrf"])


def _id_of(archive_db: str, black: str) -> int:
    with Archive(archive_db) as archive:
        found = archive.search(black=black).games
    assert found and found[0].id is not None
    return found[0].id


def _state(archive_db: str) -> tuple[Any, ...]:
    """What a refused request must leave as it was: the records with their versions and headers, the aliases, and
    the audit log's rows other than sign-ins."""
    with Archive(archive_db) as archive:
        games = [(g.id, archive.record_version(g.id or 0), g.black, g.white) for g in archive.search(limit=0).games]
        aliases = [(a.name, a.canonical) for a in archive.aliases()]
        changes = [r["action"] for r in archive.audit().to_json() if r["action"] not in ("login", "logout")]
    return games, aliases, changes


def _writes(record_id: int) -> list[tuple[str, str, dict[str, Any]]]:
    """Every writing route of this change, each as a request that would change the archive: (method, path,
    keyword arguments of the client's request; `form` when it is a page's form, whose token is a field)."""
    return [
        ("POST", f"/api/games/{record_id}/fix", {"json": {"version": 1, "set": {"PB": "Mallory"}}}),
        ("POST", f"/api/games/{record_id}/undo-fix", {"json": {"version": 1}}),
        ("POST", "/api/aliases", {"json": {"name": "Eve", "others": ["Gus"]}}),
        ("POST", "/api/aliases/remove", {"json": {"name": "Eve"}}),
        ("DELETE", "/api/aliases/Eve", {}),
        ("POST", "/api/delete?event=Cup", {"json": {}}),
        ("POST", f"/games/{record_id}/fix", {"form": {"version": "1", "PB": "Mallory"}}),
        ("POST", "/players/alias", {"form": {"name": "Eve", "others": "Gus"}}),
        ("POST", "/delete?event=Cup", {"form": {"confirm": "0" * 64}}),
        ("POST", "/import", {"form": {}, "files": [("file", ("g.sgf", b"(;GM[1]SZ[9]PB[New]PW[One];B[aa])"))]}),
        ("POST", "/api/import", {"files": [("file", ("g.sgf", b"(;GM[1]SZ[9]PB[New]PW[One];B[aa])"))]}),
    ]


def _send(client: TestClient, method: str, path: str, given: dict[str, Any], *, csrf: str | None = None,
          headers: dict[str, str] | None = None) -> Any:
    """The request, its CSRF token (when given) where the route's own page puts it: a form's field, else the
    header."""
    sent = dict(headers or {})
    asked = {k: v for k, v in given.items() if k != "form"}
    if "form" in given:
        asked["data"] = {**given["form"], **({"csrf": csrf} if csrf is not None else {})}
    elif csrf is not None:
        sent["X-CSRF-Token"] = csrf
    return client.request(method, path, headers=sent, **asked)


def test_every_writing_route_refuses_what_it_must_and_leaves_the_archive_as_it_was(client, archive_db):
    record_id = _id_of(archive_db, "Eve")
    routes = _writes(record_id)
    before = _state(archive_db)
    for method, path, given in routes:
        assert _send(client, method, path, given).status_code == 401, path  # no session
    _login(client, "vic")
    viewer = client.cookies.get("records_session")
    for method, path, given in routes:
        client.cookies.set("records_session", viewer)
        assert _send(client, method, path, given, csrf=_login(client, "vic")).status_code == 403, path  # a viewer
    csrf = _login(client, "eve")
    for method, path, given in routes:
        assert _send(client, method, path, given).status_code == 403, path  # no CSRF token
        assert _send(client, method, path, given, csrf="not the token").status_code == 403, path
        assert _send(client, method, path, given, csrf=csrf[:-1]).status_code == 403, path
        assert _send(client, method, path, given, csrf=csrf,
                     headers={"Origin": "http://evil.example"}).status_code == 403, path
        assert _send(client, method, path, given, csrf=csrf,
                     headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403, path
        assert _send(client, method, path, given, csrf=csrf,
                     headers={"Host": "evil.example"}).status_code == 421, path
    # A token in the query (a link could carry it) is not taken for the form's.
    assert client.post(f"/games/{record_id}/fix?csrf={csrf}", data={"version": "1", "PB": "M"}).status_code == 403
    assert _state(archive_db) == before


def test_two_editors_fixing_one_record_the_second_is_told_and_sees_the_new_version(client, archive_db):
    record_id = _id_of(archive_db, "Eve")
    shown = client.get(f"/api/show/{record_id}").json()
    assert shown["version"] == 1
    eve = _login(client, "eve")
    eve_cookie = client.cookies.get("records_session")
    fay = _login(client, "fay")
    first = client.post(f"/api/games/{record_id}/fix", headers={"X-CSRF-Token": fay},
                        json={"version": 1, "set": {"PW": "Fay Wray"}})
    assert first.status_code == 200 and first.json()["version"] == 2 and first.json()["white"] == "Fay Wray"
    client.cookies.set("records_session", eve_cookie)
    second = client.post(f"/api/games/{record_id}/fix", headers={"X-CSRF-Token": eve},
                         json={"version": 1, "set": {"PB": "Eve Arden"}})
    assert second.status_code == 409
    assert second.json()["version"] == 2 and second.json()["header"]["PW"] == "Fay Wray"
    assert second.json()["header"]["PB"] == "Eve"  # nothing of the second was written
    again = client.post(f"/api/games/{record_id}/fix", headers={"X-CSRF-Token": eve},
                        json={"version": 2, "set": {"PB": "Eve Arden"}})
    assert again.status_code == 200 and again.json()["version"] == 3
    stored = client.get(f"/api/show/{record_id}").json()
    assert (stored["black"], stored["white"], stored["version"]) == ("Eve Arden", "Fay Wray", 3)  # nothing lost
    undone = client.post(f"/api/games/{record_id}/undo-fix", headers={"X-CSRF-Token": eve}, json={"version": 3})
    assert undone.status_code == 200 and undone.json()["version"] == 4 and undone.json()["black"] == "Eve"
    assert client.post(f"/api/games/{record_id}/undo-fix", headers={"X-CSRF-Token": eve},
                       json={"version": 3}).status_code == 409
    with Archive(archive_db) as archive:
        rows = [r for r in archive.audit().to_json() if r["action"] in ("fix", "undo-fix")]
    assert [(r["who"], r["action"], r["ids"]) for r in rows] == [
        ("eve", "undo-fix", [record_id]), ("eve", "fix", [record_id]), ("fay", "fix", [record_id])]
    assert rows[2]["before"]["version"] == 1 and rows[2]["before"]["header"]["PW"] == "Fay"
    after = rows[2]["after"]
    assert after["version"] == 2 and (after["header"]["PB"], after["header"]["PW"]) == ("Eve", "Fay Wray")
    # `records show --json` gives the version, and `records fix --on-version` refuses a stale one (nothing written)
    shown_cli = run("show", str(record_id), "--json", "--db", archive_db)
    assert '"version": 4' in shown_cli.stdout
    stale = run("fix", str(record_id), "--set", "RO=1", "--on-version", "2", "--db", archive_db)
    assert stale.exit_code == 2 and "version 4" in stale.output


def test_a_fix_answers_what_cannot_be_fixed(client, archive_db):
    record_id = _id_of(archive_db, "Eve")
    headers = {"X-CSRF-Token": _login(client, "eve")}
    assert client.post(f"/api/games/{record_id}/fix", headers=headers,
                       json={"version": 1, "set": {"B": "aa"}}).status_code == 400  # the moves are not fixed so
    assert client.post(f"/api/games/{record_id}/fix", headers=headers,
                       json={"version": 1, "set": {}}).status_code == 400
    assert client.post("/api/games/999/fix", headers=headers,
                       json={"version": 1, "set": {"PB": "x"}}).status_code == 404
    same = client.post(f"/api/games/{record_id}/fix", headers=headers, json={"version": 1, "set": {"PB": "Eve"}})
    assert same.status_code == 200 and same.json()["changed"] is False and same.json()["version"] == 1


def test_an_api_token_fixes_without_a_csrf_token(client, archive_db):
    record_id = _id_of(archive_db, "Eve")
    with Archive(archive_db, write=True) as archive:
        token = archive.new_token("eve")
    answer = client.post(f"/api/games/{record_id}/fix", headers={"Authorization": f"Bearer {token}"},
                         json={"version": 1, "set": {"RO": "2"}})
    assert answer.status_code == 200 and answer.json()["round"] == "2"


def test_the_game_page_edits_the_header_for_editors_only(client, archive_db):
    record_id = _id_of(archive_db, "Eve")
    assert "edit-header" not in client.get(f"/games/{record_id}").text  # anonymous
    _login(client, "vic")
    assert "edit-header" not in client.get(f"/games/{record_id}").text
    csrf = _login(client, "eve")
    page = client.get(f"/games/{record_id}").text
    assert 'id="edit-header-form"' in page and 'name="version" value="1"' in page and csrf in page
    done = client.post(f"/games/{record_id}/fix", data={"csrf": csrf, "version": "1", "PB": "Eve Arden", "PW": "Fay",
                                                        "RO": ""}, follow_redirects=False)
    assert done.status_code == 303
    page = client.get(f"/games/{record_id}").text
    assert 'name="version" value="2"' in page and "PB=Eve Arden" in page and "<td>eve</td>" in page
    stale = client.post(f"/games/{record_id}/fix", data={"csrf": csrf, "version": "1", "PB": "Someone"})
    assert stale.status_code == 409 and "version 2" in stale.text and 'value="Eve Arden"' in stale.text
    undone = client.post(f"/games/{record_id}/fix", data={"csrf": csrf, "version": "2", "undo": "1"},
                         follow_redirects=False)
    assert undone.status_code == 303
    assert client.get(f"/api/show/{record_id}").json()["black"] == "Eve"
    _login(client, "vic")
    assert "edit-header" not in client.get(f"/games/{record_id}").text  # the page kept has no editor's form


def test_aliases_from_the_api_and_the_players_page(client, archive_db):
    csrf = _login(client, "eve")
    made = client.post("/api/aliases", headers={"X-CSRF-Token": csrf}, json={"name": "Eve", "others": ["Gus"]})
    assert made.status_code == 200 and made.json() == [{"key": "gus", "player": "eve"}]
    with Archive(archive_db) as archive:
        assert [(a.name, a.canonical) for a in archive.aliases()] == [("Gus", "eve")]
    removed = client.delete("/api/aliases/Eve", headers={"X-CSRF-Token": csrf})
    assert removed.json() == {"removed": 1}
    assert client.post("/api/aliases/remove", headers={"X-CSRF-Token": csrf}, json={"name": "Eve"}).json() == \
           {"removed": 0}
    assert 'id="alias-form"' in client.get("/players").text
    page = client.post("/players/alias", data={"csrf": csrf, "name": "Hal", "others": "Ida\nGus"},
                       follow_redirects=False)
    assert page.status_code == 303
    with Archive(archive_db) as archive:
        assert sorted(a.name for a in archive.aliases()) == ["Gus", "Ida"]
        rows = [(r["action"], r["before"]) for r in archive.audit().to_json() if "alias" in r["action"]]
    assert rows[0] == ("alias", {"name": "Hal", "others": ["Ida", "Gus"]})
    assert [a for a, _ in rows] == ["alias", "remove-alias", "remove-alias", "alias"]


def test_a_delete_names_what_goes_and_deletes_exactly_that(client, archive_db, tmp_path):
    csrf = {"X-CSRF-Token": _login(client, "eve")}
    first = client.post("/api/delete?event=Cup", headers=csrf).json()
    assert first["count"] == 2 and len(first["ids"]) == 2 and {g["black"] for g in first["first"]} == {"Eve", "Gus"}
    assert client.post("/api/delete", headers=csrf).status_code == 400  # no filter: never every record
    # Another Cup game comes in: the confirmation no longer holds, and the answer names the new selection.
    folder = write_folder(tmp_path, "more", {"g4.sgf": G1.replace("PB[Eve]", "PB[Jo]")})
    with Archive(archive_db, write=True) as archive:
        archive.import_paths([folder], workers=1)
    changed = client.post("/api/delete?event=Cup", headers=csrf, json={"confirm": first["confirm"]})
    assert changed.status_code == 409 and changed.json()["count"] == 3
    # Another account's token for the same selection is not this one's.
    other = _login(client, "fay")
    assert client.post("/api/delete?event=Cup", headers={"X-CSRF-Token": other},
                       json={"confirm": changed.json()["confirm"]}).status_code == 409
    done = client.post("/api/delete?event=Cup", headers={"X-CSRF-Token": other},
                       json={"confirm": client.post("/api/delete?event=Cup",
                                                    headers={"X-CSRF-Token": other}).json()["confirm"]})
    assert done.status_code == 200 and sorted(done.json()["deleted"]) == sorted(changed.json()["ids"])
    with Archive(archive_db) as archive:
        assert [g.black for g in archive.search(limit=0).games] == ["Hal"]
        row = next(r for r in archive.audit().to_json() if r["action"] == "delete")
    assert row["who"] == "fay" and sorted(row["ids"]) == sorted(changed.json()["ids"])
    assert row["before"] == {"filters": {"event": "Cup"}, "count": 3} and row["after"] == {"deleted": 3}


def test_the_delete_page_confirms_by_its_rows(client, archive_db):
    csrf = _login(client, "eve")
    hal = _id_of(archive_db, "Hal")
    assert "delete-selected" in client.get("/games?event=Open").text
    page = client.get(f"/delete?id={hal}")
    assert page.status_code == 200 and "1 record would be deleted" in page.text and "Hal" in page.text
    token = page.text.split('name="confirm" value="', 1)[1].split('"', 1)[0]
    gone = client.post(f"/delete?id={hal}", data={"csrf": csrf, "confirm": token})
    assert gone.status_code == 200 and f"Deleted 1 record: {hal}." in gone.text
    again = client.post(f"/delete?id={hal}", data={"csrf": csrf, "confirm": token})
    assert again.status_code == 409 and "0 records would be deleted" in again.text


def test_the_upload_page_imports_and_shows_the_summary(client, archive_db):
    assert client.get("/import").status_code == 401
    _login(client, "vic")
    assert client.get("/import").status_code == 403
    csrf = _login(client, "eve")
    page = client.get("/import")
    assert page.status_code == 200 and 'id="import-form"' in page.text and csrf in page.text
    new = "(;GM[1]SZ[9]PB[Kay]PW[Lou]RE[B+R];B[cc];W[resign])"
    answer = client.post("/import", data={"csrf": csrf}, files=[("file", ("k.sgf", new.encode())),
                                                                 ("file", ("g1.sgf", G1.encode()))])
    assert answer.status_code == 200
    assert "<th>new</th>" in answer.text and "<td>1</td>" in answer.text
    assert "2 records: 2 pass, 0 invalid; results: 2 agrees" in answer.text
    with Archive(archive_db) as archive:
        assert archive.search(black="Kay").total == 1
