"""`records user add|list|remove|password` (cli/user_cmd.py): the password read from standard input or at a prompt
(never an option), the accounts as a table or JSON, and each failure one line with its exit status."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from boardrecords.archive.front import Archive
from boardrecords.cli import user_cmd
from boardrecords.cli.common import CommandError
from boardrecords.cli.main import app

PASSWORD = "correct horse battery"


def user(*args: str, password: str | None = None):
    return CliRunner().invoke(app, ["user", *args], input=None if password is None else password + "\n")


def test_accounts_are_made_listed_and_removed(tmp_path):
    db = str(tmp_path / "a.db")  # made by the first `user add`
    done = user("add", "ann", "--role", "editor", "--db", db, password=PASSWORD)
    assert done.exit_code == 0, done.output
    assert "added the account ann (editor)" in done.output and PASSWORD not in done.output
    assert user("add", "bob", "--db", db, password="bobs password").exit_code == 0
    listed = json.loads(user("list", "--json", "--db", db).stdout)
    assert [(a["name"], a["role"]) for a in listed] == [("ann", "editor"), ("bob", "viewer")]
    assert set(listed[0]) == {"name", "role", "created", "password_changed"}
    table = user("list", "--db", db).stdout
    assert "ann" in table and "editor" in table and "argon2" not in table
    assert user("remove", "bob", "--db", db).exit_code == 0
    assert [a["name"] for a in json.loads(user("list", "--json", "--db", db).stdout)] == ["ann"]
    with Archive(db) as archive:
        assert archive.check_login("ann", PASSWORD) is not None


def test_a_password_is_changed_from_standard_input(tmp_path):
    db = str(tmp_path / "a.db")
    user("add", "ann", "--db", db, password=PASSWORD)
    done = user("password", "ann", "--db", db, password="the new password")
    assert done.exit_code == 0 and "changed the password of ann" in done.output
    with Archive(db) as archive:
        assert archive.check_login("ann", PASSWORD) is None
        assert archive.check_login("ann", "the new password") is not None


@pytest.mark.parametrize(("args", "password", "code", "said"), [
    (("add", "a b"), PASSWORD, 2, "cannot be an account's name"),
    (("add", "ann", "--role", "owner"), PASSWORD, 2, "no role 'owner'"),
    (("add", "ann"), "Zq7!pw", 2, "the password is too short"),
    (("add", "ann"), None, 2, "no password on standard input"),
    (("add", "ann", "--password", PASSWORD), PASSWORD, 2, "No such option"),
    (("remove", "zed"), None, 1, "no account 'zed'"),
    (("password", "zed"), PASSWORD, 1, "no account 'zed'"),
])
def test_failures_are_one_line_and_an_exit_status(tmp_path, args, password, code, said):
    db = str(tmp_path / "a.db")
    assert user("add", "bob", "--db", db, password="bobs password").exit_code == 0
    done = user(*args, "--db", db, password=password)
    assert done.exit_code == code, done.output
    assert said in done.output and "Traceback" not in done.output
    if password:
        assert password not in done.output


def test_an_account_that_exists_is_not_replaced(tmp_path):
    db = str(tmp_path / "a.db")
    user("add", "ann", "--db", db, password=PASSWORD)
    done = user("add", "ann", "--role", "admin", "--db", db, password="other password")
    assert done.exit_code == 2 and "exists already" in done.output
    assert json.loads(user("list", "--json", "--db", db).stdout)[0]["role"] == "viewer"


def test_listing_an_archive_without_accounts(tmp_path):
    db = str(tmp_path / "a.db")
    Archive(db, create=True).close()
    done = user("list", "--db", db)
    assert done.exit_code == 0 and "no accounts" in done.output
    assert json.loads(user("list", "--json", "--db", db).stdout) == []


class _Terminal:
    def isatty(self) -> bool:
        return True


def test_at_a_terminal_the_password_is_asked_twice_without_echo(monkeypatch):
    answers = iter(["first password", "first password"])
    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert user_cmd.read_password(confirm=True) == "first password"
    answers = iter(["first password", "another one"])
    with pytest.raises(CommandError, match="differ"):
        user_cmd.read_password(confirm=True)


def test_an_api_token_is_printed_once_and_stands_for_the_account(tmp_path):
    db = str(tmp_path / "a.db")
    user("add", "ann", "--role", "editor", "--db", db, password=PASSWORD)
    token = user("token", "ann", "--db", db).stdout.strip()
    made = json.loads(user("token", "ann", "--json", "--db", db).stdout)
    assert made["name"] == "ann" and made["token"] != token and len(token) >= 40
    with Archive(db) as archive:
        assert archive.signed_in(token, token=True) is None  # replaced by the second
        assert archive.signed_in(made["token"], token=True).account.name == "ann"
    assert user("token", "zed", "--db", db).exit_code == 1


def test_the_visibility_is_shown_and_set(tmp_path):
    db = str(tmp_path / "a.db")
    user("add", "ann", "--db", db, password=PASSWORD)
    assert user("visibility", "--db", db).stdout == "public\n"
    assert user("visibility", "private", "--db", db).exit_code == 0
    assert user("visibility", "--db", db).stdout == "private\n"
    done = user("visibility", "hidden", "--db", db)
    assert done.exit_code == 2 and "no visibility 'hidden'" in done.output
