"""`records serve --accounts` over real HTTP (TestClient), SQLite and PostgreSQL (web/accounts.py): login and its
cookie, logout, the CSRF token, an API token, an expired or signed-out session, a password change, the throttle of
failed logins, a private archive, and no password in clear in the database or the log; without --accounts nothing
of it is served and the archive stays read-only."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from boardrecords.archive.core.db import resolve_url
from boardrecords.archive.core.models import AccountRow
from boardrecords.archive.front import Archive
from boardrecords.web.accounts import FREE_FAILURES, SESSION_COOKIE, Throttle, writer
from boardrecords.web.app import create_app

from ..shared import write_folder

PASSWORDS = {"ann": "ann's long password", "vic": "vic's long password", "eve": "eve's long password"}
ROLES = {"ann": "admin", "vic": "viewer", "eve": "editor"}
GAME = "(;GM[1]SZ[9]PB[Eve]PW[Fay]EV[Cup]DT[2022-01-01]RE[B+R];B[bb];W[ef];B[dg];W[resign])"


@pytest.fixture
def archive_db(db_url: str, tmp_path) -> str:
    folder = write_folder(tmp_path, "games", {"g.rec": GAME})
    with Archive(db_url, create=True) as archive:
        archive.import_paths([folder], workers=1)
        for name, password in PASSWORDS.items():
            archive.add_user(name, password, role=ROLES[name])
    return db_url


def _with_guarded_routes(app: FastAPI) -> FastAPI:
    """The guard of writing routes on two routes of this test: one for editors, one for admins."""

    @app.post("/api/test-edit")
    def edit(who: AccountRow = writer("editor")) -> dict[str, str]:
        return {"by": who.name}

    @app.post("/api/test-admin")
    def admin(who: AccountRow = writer("admin")) -> dict[str, str]:
        return {"by": who.name}

    return app


@pytest.fixture
def client(archive_db: str) -> Iterator[TestClient]:
    with TestClient(_with_guarded_routes(create_app(archive_db, accounts=True)), base_url="http://localhost") as c:
        yield c


def _login(client: TestClient, name: str) -> str:
    answer = client.post("/api/login", json={"name": name, "password": PASSWORDS[name]})
    assert answer.status_code == 200, answer.text
    return answer.json()["csrf"]


def test_without_accounts_nothing_of_them_is_served_and_the_archive_stays_read_only(archive_db):
    application = create_app(archive_db)
    assert not application.state.archive.writable
    with TestClient(application, base_url="http://localhost") as plain:
        assert plain.post("/api/login", json={"name": "ann", "password": PASSWORDS["ann"]}).status_code in (404, 405)
        assert plain.get("/login").status_code == 404
        assert plain.get("/api/search").status_code == 200


def test_a_login_answers_the_csrf_token_and_sets_a_strict_http_only_cookie(client, archive_db):
    answer = client.post("/api/login", json={"name": "eve", "password": PASSWORDS["eve"]})
    assert answer.status_code == 200 and set(answer.json()) == {"csrf", "name", "role"}
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Secure" not in cookie and "Max-Age=" in cookie
    assert client.get("/api/account").json() == {"name": "eve", "role": "editor", "csrf": answer.json()["csrf"]}
    assert client.post("/api/test-edit", headers={"X-CSRF-Token": answer.json()["csrf"]}).json() == {"by": "eve"}


def test_over_https_the_cookie_is_secure(archive_db):
    with TestClient(create_app(archive_db, accounts=True), base_url="https://localhost") as secure:
        answer = secure.post("/api/login", json={"name": "eve", "password": PASSWORDS["eve"]})
        assert "Secure" in answer.headers["set-cookie"]


@pytest.mark.parametrize("name, password", [("eve", "not the password"), ("nobody", "whatever it is"),
                                            ("a b", "whatever it is")])
def test_a_wrong_login_is_a_401_that_says_nothing_of_which_part(client, name, password):
    answer = client.post("/api/login", json={"name": name, "password": password})
    assert answer.status_code == 401 and answer.json() == {"error": "wrong name or password"}
    assert SESSION_COOKIE not in answer.headers.get("set-cookie", "")


@pytest.mark.parametrize("route", ["/api/logout", "/api/test-edit", "/api/test-admin"])
def test_every_writing_route_refuses_what_it_must(client, route):
    assert client.post(route).status_code == 401  # nobody signed in
    csrf = _login(client, "vic")
    if route != "/api/logout":
        assert client.post(route, headers={"X-CSRF-Token": csrf}).status_code == 403  # a viewer
    csrf = _login(client, "ann")
    assert client.post(route).status_code == 403  # no CSRF token
    assert client.post(route, headers={"X-CSRF-Token": csrf[:-2] + "xx"}).status_code == 403  # a wrong one
    assert client.post(route, headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"}).status_code == 403
    assert client.post(route, headers={"X-CSRF-Token": csrf, "Host": "evil.example"}).status_code == 421
    assert client.post(route, headers={"X-CSRF-Token": csrf, "Origin": "http://localhost"}).status_code == 200


def test_a_logout_ends_the_session(client):
    csrf = _login(client, "eve")
    kept = client.cookies.get(SESSION_COOKIE)
    assert client.post("/api/logout", headers={"X-CSRF-Token": csrf}).json() == {"signed_out": True}
    client.cookies.set(SESSION_COOKIE, kept)  # the cookie sent again after the logout: it stands for nobody
    assert client.post("/api/test-edit", headers={"X-CSRF-Token": csrf}).status_code == 401
    assert client.get("/api/account").json()["name"] is None


def test_an_expired_session_stands_for_nobody(client, archive_db):
    csrf = _login(client, "eve")
    engine = create_engine(resolve_url(archive_db))
    with engine.begin() as conn:
        conn.execute(text("UPDATE account_key SET expires_at = :t"),
                     {"t": dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(seconds=1)})
    engine.dispose()
    assert client.post("/api/test-edit", headers={"X-CSRF-Token": csrf}).status_code == 401


def test_a_password_change_ends_the_session(client, archive_db):
    csrf = _login(client, "eve")
    with Archive(archive_db, write=True) as archive:
        archive.set_password("eve", "eve's newer password")
    assert client.post("/api/test-edit", headers={"X-CSRF-Token": csrf}).status_code == 401


def test_an_api_token_needs_no_csrf_token(client, archive_db):
    with Archive(archive_db, write=True) as archive:
        token = archive.new_token("eve")
        viewer = archive.new_token("vic")
    assert client.post("/api/test-edit", headers={"Authorization": f"Bearer {token}"}).json() == {"by": "eve"}
    assert client.post("/api/test-admin", headers={"Authorization": f"Bearer {token}"}).status_code == 403
    assert client.post("/api/test-edit", headers={"Authorization": f"Bearer {viewer}"}).status_code == 403
    assert client.post("/api/test-edit", headers={"Authorization": "Bearer not-a-token"}).status_code == 401
    foreign = client.post("/api/test-edit", headers={"Authorization": f"Bearer {token}", "Origin": "http://evil.org"})
    assert foreign.status_code == 403


def test_failed_logins_are_slowed_per_account_and_per_address(client):
    for _ in range(FREE_FAILURES):
        assert client.post("/api/login", json={"name": "eve", "password": "a wrong password"}).status_code == 401
    late = client.post("/api/login", json={"name": "eve", "password": PASSWORDS["eve"]})
    assert late.status_code == 429 and int(late.headers["Retry-After"]) >= 1
    # the address is slowed too: another account from the same address waits as well
    assert client.post("/api/login", json={"name": "ann", "password": PASSWORDS["ann"]}).status_code == 429


def test_the_throttle_waits_twice_as_long_after_each_failure_and_forgets(archive_db):
    now = [1000.0]
    archive = Archive(archive_db, write=True)
    throttle = Throttle(archive, clock=lambda: now[0])
    for _ in range(FREE_FAILURES - 1):
        throttle.failed("name:eve")
    assert throttle.wait("name:eve") == 0
    throttle.failed("name:eve")
    assert throttle.wait("name:eve") == 2
    throttle.failed("name:eve")
    assert throttle.wait("name:eve", "address:x") == 4
    now[0] += 4
    assert throttle.wait("name:eve") == 0
    now[0] += 2 * 60 * 60
    throttle.failed("name:eve")
    assert throttle.wait("name:eve") == 0  # forgotten after an hour: this is its first failure again
    assert archive.login_failures("name:eve") == 1
    throttle.succeeded("name:eve")
    assert archive.login_failures("name:eve") == 0
    archive.close()


def test_a_private_archive_shows_nothing_without_signing_in(archive_db):
    with Archive(archive_db, write=True) as archive:
        archive.set_visibility("private")
    with TestClient(create_app(archive_db, accounts=True), base_url="http://localhost") as private:
        assert private.get("/api/search").status_code == 401
        page = private.get("/games", follow_redirects=False)
        assert page.status_code == 303 and page.headers["location"] == "/login"
        assert private.get("/login").status_code == 200 and private.get("/static/site.css").status_code == 200
        _login(private, "vic")
        assert private.get("/api/search").status_code == 200 and private.get("/games").status_code == 200


def test_a_public_archive_is_read_by_anyone(client):
    assert client.get("/api/search").status_code == 200 and client.get("/games").status_code == 200


def test_the_login_page_signs_a_browser_in(client):
    page = client.get("/login")
    assert page.status_code == 200 and 'type="password"' in page.text
    wrong = client.post("/login", data={"name": "eve", "password": "a wrong password"}, follow_redirects=False)
    assert wrong.status_code == 401 and "wrong name or password" in wrong.text
    done = client.post("/login", data={"name": "eve", "password": PASSWORDS["eve"]}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/games"
    assert client.get("/api/account").json()["name"] == "eve"


def test_no_password_or_key_in_clear_in_the_database_or_the_log(client, archive_db, caplog):
    caplog.set_level(logging.DEBUG)
    csrf = _login(client, "eve")
    key = client.cookies.get(SESSION_COOKIE)
    client.post("/api/login", json={"name": "ann", "password": "ann's wrong password"})
    engine = create_engine(resolve_url(archive_db))
    with engine.connect() as conn:
        dumped = " ".join(repr(conn.execute(text(f"SELECT * FROM {t}")).fetchall())
                          for t in inspect(engine).get_table_names() if t in ("account", "account_key"))
    engine.dispose()
    said = caplog.text
    for secret in (*PASSWORDS.values(), "ann's wrong password", key, csrf):
        assert secret not in dumped and secret not in said
