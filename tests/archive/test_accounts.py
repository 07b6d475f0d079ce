"""The accounts of an archive (archive/store/accounts.py through `Archive`), SQLite and PostgreSQL: added, listed,
removed, their passwords changed and checked; only argon2id hashes stored, never a password; the table added to an
archive made before it when a writer opens it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from boardrecords.archive.core.db import resolve_url
from boardrecords.archive.front import Archive
from boardrecords.archive.store.accounts import AccountError, has_role, key_hash
from boardrecords.common.errors import ArchiveError, NotFound

PASSWORD = "correct horse battery"


def _dump(db: str) -> str:
    """Every value of the account table, as text."""
    engine = create_engine(resolve_url(db))
    try:
        with engine.connect() as conn:
            return repr(conn.execute(text("SELECT * FROM account")).fetchall())
    finally:
        engine.dispose()


def test_an_account_is_added_listed_checked_and_removed(db_url):
    with Archive(db_url, create=True) as archive:
        archive.add_user("ann", PASSWORD, role="editor")
        archive.add_user("bob", "another password")
        assert [(a["name"], a["role"]) for a in archive.users().to_json()] == [("ann", "editor"), ("bob", "viewer")]
        assert archive.check_login("ann", PASSWORD).role == "editor"
        assert archive.check_login("ann", PASSWORD + "x") is None
        assert archive.check_login("nobody", PASSWORD) is None
        archive.remove_user("bob")
        assert [a.name for a in archive.users().rows] == ["ann"]
        with pytest.raises(NotFound):
            archive.remove_user("bob")
        assert archive.users().to_json()[0]["created"].endswith("+00:00")


def test_only_a_salted_argon2id_hash_is_stored(db_url):
    with Archive(db_url, create=True) as archive:
        archive.add_user("ann", PASSWORD)
        archive.add_user("bob", PASSWORD)
        hashes = [archive.user(n).password_hash for n in ("ann", "bob")]
    dumped = _dump(db_url)
    assert PASSWORD not in dumped and "horse" not in dumped
    assert all(h.startswith("$argon2id$") for h in hashes) and hashes[0] != hashes[1]  # salted: never equal


def test_a_new_password_replaces_the_old_and_moves_the_change_time(db_url):
    with Archive(db_url, create=True) as archive:
        archive.add_user("ann", PASSWORD)
        before = archive.user("ann").password_changed_at
        archive.set_password("ann", "a new password")
        assert archive.check_login("ann", PASSWORD) is None
        assert archive.check_login("ann", "a new password") is not None
        assert archive.user("ann").password_changed_at > before
        archive.set_role("ann", "admin")
        assert archive.user("ann").role == "admin"
        with pytest.raises(NotFound):
            archive.set_password("nobody", "a new password")


@pytest.mark.parametrize(("name", "role", "password", "said"), [
    ("a b", "viewer", PASSWORD, "cannot be an account's name"),
    ("", "viewer", PASSWORD, "cannot be an account's name"),
    ("x" * 65, "viewer", PASSWORD, "cannot be an account's name"),
    ("ann", "owner", PASSWORD, "no role 'owner'"),
    ("ann", "viewer", "Zq7!pw", "too short"),
    ("ann", "viewer", "x" * 1025, "too long"),
])
def test_what_cannot_be_an_account_is_refused_without_naming_the_password(tmp_path, name, role, password, said):
    with Archive(str(tmp_path / "a.db"), create=True) as archive:
        with pytest.raises(AccountError, match=said) as caught:
            archive.add_user(name, password, role=role)
        assert password not in str(caught.value)
        assert archive.users().rows == []


def test_a_name_is_one_account(db_url):
    with Archive(db_url, create=True) as archive:
        archive.add_user("ann", PASSWORD)
        with pytest.raises(AccountError, match="exists already"):
            archive.add_user("ann", "other password", role="admin")
        assert archive.user("ann").role == "viewer"


def test_a_read_only_archive_lists_but_does_not_change_accounts(tmp_path):
    db = str(tmp_path / "a.db")
    with Archive(db, create=True) as archive:
        archive.add_user("ann", PASSWORD)
    with Archive(db) as archive:
        assert [a.name for a in archive.users().rows] == ["ann"]
        assert archive.check_login("ann", PASSWORD) is not None
        for change in (lambda: archive.add_user("bob", PASSWORD), lambda: archive.remove_user("ann"),
                       lambda: archive.set_password("ann", PASSWORD)):
            with pytest.raises(ArchiveError, match="read-only"):
                change()


def test_an_older_archive_gets_the_table_when_a_writer_opens_it(tmp_path):
    db = str(tmp_path / "a.db")
    Archive(db, create=True).close()
    engine = create_engine(resolve_url(db))
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE account"))
    engine.dispose()
    with Archive(db) as archive:  # read-only: no accounts, and nothing added
        assert archive.users().rows == []
        assert archive.check_login("ann", PASSWORD) is None
    with Archive(db, write=True) as archive:
        archive.add_user("ann", PASSWORD)
        assert archive.check_login("ann", PASSWORD) is not None


def test_roles_are_ordered():
    assert has_role("admin", "editor") and has_role("editor", "viewer") and has_role("viewer", "viewer")
    assert not has_role("viewer", "editor") and not has_role("editor", "admin")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(password=st.text(min_size=8, max_size=40), other=st.text(min_size=1, max_size=40))
def test_only_the_password_itself_signs_in(tmp_path: Path, password: str, other: str):
    db = str(tmp_path / "p.db")
    with Archive(db, create=True) as archive:
        if not archive.users().rows:
            archive.add_user("ann", password)
        else:
            archive.set_password("ann", password)
        assert archive.check_login("ann", password) is not None
        if other != password:
            assert archive.check_login("ann", other) is None
        assert password not in archive.user("ann").password_hash


def _stored_keys(db: str) -> str:
    engine = create_engine(resolve_url(db))
    try:
        with engine.connect() as conn:
            return repr(conn.execute(text("SELECT * FROM account_key")).fetchall())
    finally:
        engine.dispose()


def test_a_session_stands_for_its_account_until_it_ends(db_url):
    with Archive(db_url, create=True) as archive:
        archive.add_user("ann", PASSWORD, role="editor")
        assert archive.login("ann", "wrong password") is None and archive.login("zed", PASSWORD) is None
        found, key, csrf = archive.login("ann", PASSWORD)
        signed = archive.signed_in(key)
        assert found.name == signed.account.name == "ann" and signed.csrf_hash == key_hash(csrf)
        assert archive.signed_in(key, token=True) is None  # a session key is no API token
        assert archive.signed_in(csrf) is None and archive.signed_in("") is None
        stored = _stored_keys(db_url)
        assert key not in stored and csrf not in stored
        archive.logout(key)
        assert archive.signed_in(key) is None


def test_a_password_change_ends_the_sessions(db_url):
    with Archive(db_url, create=True) as archive:
        archive.add_user("ann", PASSWORD)
        _, key, _ = archive.login("ann", PASSWORD)
        token = archive.new_token("ann")
        archive.set_password("ann", "a new password")
        assert archive.signed_in(key) is None
        assert archive.signed_in(token, token=True) is None  # made before the change: it ends too


def test_an_expired_session_is_none(db_url):
    with Archive(db_url, create=True) as archive:
        archive.add_user("ann", PASSWORD)
        _, key, _ = archive.login("ann", PASSWORD)
        with archive.engine.begin() as conn:
            conn.execute(text("UPDATE account_key SET expires_at = :t"),
                         {"t": dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(seconds=1)})
        assert archive.signed_in(key) is None


def test_an_api_token_replaces_the_last_and_goes_with_its_account(db_url):
    with Archive(db_url, create=True) as archive:
        archive.add_user("ann", PASSWORD, role="editor")
        first = archive.new_token("ann")
        second = archive.new_token("ann")
        assert archive.signed_in(first, token=True) is None
        signed = archive.signed_in(second, token=True)
        assert signed.account.role == "editor" and signed.csrf_hash is None
        assert second not in _stored_keys(db_url)
        archive.remove_user("ann")
        assert archive.signed_in(second, token=True) is None
        with pytest.raises(NotFound):
            archive.new_token("ann")


def test_the_visibility_is_kept_in_the_archive(db_url):
    with Archive(db_url, create=True) as archive:
        assert archive.visibility() == "public"
        archive.set_visibility("private")
    with Archive(db_url) as archive:
        assert archive.visibility() == "private"
        with pytest.raises(ArchiveError):
            archive.set_visibility("public")
    with Archive(db_url, write=True) as archive, pytest.raises(AccountError, match="no visibility"):
        archive.set_visibility("secret")
