"""`records user ...`: the accounts of a served archive (add, list, remove, password). A password is asked for at
a prompt, twice, when standard input is a terminal, else read as the first line of standard input; never taken
from an option, so that it stays out of the shell's history and the process list. docs/serve.md describes the
roles and running a club's archive.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from .common import CommandError, add_commands, archive, make_console, note, print_json
from .options import DbOption

NameArgument = Annotated[str, typer.Argument(metavar="NAME", help="The account's name.", show_default=False)]


def register(app: typer.Typer) -> None:
    users = typer.Typer(name="user", help="The accounts of a served archive (`records serve --accounts`).",
                        no_args_is_help=True, rich_markup_mode="rich")
    add_commands(users, {"add": add_cmd, "list": list_cmd, "remove": remove_cmd, "password": password_cmd,
                         "token": token_cmd, "visibility": visibility_cmd})
    app.add_typer(users, name="user")
    add_commands(app, {"audit": audit_cmd})


def read_password(*, confirm: bool) -> str:
    """The password: at a prompt that does not echo it (asked twice with `confirm`), or the first line of
    standard input when that is not a terminal (its line ending dropped)."""
    if not sys.stdin.isatty():
        line = sys.stdin.readline()
        if not line:
            raise CommandError("no password on standard input (give it as its first line, or run at a terminal)")
        return line.removesuffix("\n").removesuffix("\r")
    import getpass

    password = getpass.getpass("password: ")
    if confirm and getpass.getpass("the same password again: ") != password:
        raise CommandError("the two passwords differ: nothing was changed")
    return password


def add_cmd(
    name: NameArgument,
    role: Annotated[str, typer.Option("--role", help="viewer (reads), editor (also adds and corrects records) or "
                                      "admin (also manages accounts).")] = "viewer",
    db: DbOption = None,
) -> None:
    """Add an account (the archive is made when it is not there yet, so that its first admin can come first)."""
    from ..archive.store.accounts import check_name, check_role

    check_name(name)  # a wrong name or role is said before the password is asked for
    check_role(role)
    password = read_password(confirm=True)
    with archive(db, create=True) as opened:
        opened.add_user(name, password, role=role)
    note(f"added the account {name} ({role})")


def list_cmd(
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the accounts as JSON (`name`, `role`, `created`, "
                                          "`password_changed`).")] = False,
) -> None:
    """List the accounts and their roles."""
    with archive(db) as opened:
        found = opened.users().to_json()
    _listed(found, as_json, "no accounts", ("name", "role", "created", "password changed"),
            [(Text(r["name"]), r["role"], r["created"], r["password_changed"]) for r in found])


def _listed(rows: Sequence[Mapping[str, Any]], as_json: bool, empty: str, columns: Sequence[str],
            cells: Iterable[Sequence[str | Text]]) -> None:
    """A listing as JSON, as a table of `columns`, or the note `empty` when it has no rows."""
    if as_json:
        print_json(list(rows))
    elif not rows:
        note(empty)
    else:
        table = Table(*columns, box=None)
        for row in cells:
            table.add_row(*row)
        make_console().print(table)


def remove_cmd(name: NameArgument, db: DbOption = None) -> None:
    """Remove an account (its sessions and tokens stop working)."""
    with archive(db, write=True) as opened:
        opened.remove_user(name)
    note(f"removed the account {name}")


def password_cmd(name: NameArgument, db: DbOption = None) -> None:
    """Give an account a new password (what was signed in with the old one stops working)."""
    with archive(db, write=True) as opened:
        opened.user(name)  # no such account: said before the password is asked for
        opened.set_password(name, read_password(confirm=True))
    note(f"changed the password of {name}")


def token_cmd(
    name: NameArgument,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print `name` and `token` as JSON.")] = False,
) -> None:
    """Make the account an API token for programs (`Authorization: Bearer TOKEN`), replacing its last one. It is
    printed once: the archive keeps only its hash."""
    with archive(db, write=True) as opened:
        token = opened.new_token(name)
    if as_json:
        print_json({"name": name, "token": token})
    else:
        sys.stdout.write(token + "\n")


def visibility_cmd(
    value: Annotated[str | None, typer.Argument(metavar="[public|private]", help="public: anonymous visitors of "
                                                "`records serve --accounts` read what a viewer reads; private: "
                                                "nothing without signing in. Without it: the setting is shown.",
                                                show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Show or set whether a served archive with accounts can be read without signing in."""
    if value is None:
        with archive(db) as opened:
            sys.stdout.write(opened.visibility() + "\n")
        return
    with archive(db, write=True) as opened:
        opened.set_visibility(value)
    note(f"the archive is {value}")


def audit_cmd(
    db: DbOption = None,
    limit: Annotated[int, typer.Option("--limit", help="At most this many rows, newest first (0: all).",
                                       min=0)] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON (`who`, `when`, `action`, `ids`, "
                                          "`before`, `after`).")] = False,
) -> None:
    """The audit log: every change made through `records serve --accounts`, newest first."""
    with archive(db) as opened:
        found = opened.audit(limit=limit or None).to_json()
    _listed(found, as_json, "no changes logged", ("when", "who", "action", "records"),
            [(r["when"], Text(r["who"]), r["action"],
              ", ".join(map(str, r["ids"][:10])) + (", ..." if len(r["ids"]) > 10 else "")) for r in found])
