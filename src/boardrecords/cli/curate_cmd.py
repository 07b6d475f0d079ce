"""Curating the archive: `records fix` (correct a stored record, keeping the versions it replaces) and `records
delete`. docs/tournaments.md describes both.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Annotated

import typer
from rich.text import Text

from ..archive.core.filters import Filters
from .common import (
    EXIT_FAILED,
    CommandError,
    add_commands,
    archive,
    make_console,
    note,
    print_json,
)
from .filter_options import with_filters
from .options import DbOption, whole_number
from .views.words import plural


def register(app: typer.Typer) -> None:
    add_commands(app, {"delete": delete_cmd, "fix": fix_cmd})


@with_filters
def delete_cmd(
    filters: Filters,
    ids: Annotated[list[int] | None, typer.Argument(metavar="ID", help="Record ids; or use the filters.",
                                                    show_default=False, parser=whole_number(1))] = None,
    db: DbOption = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Delete without asking.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ids deleted as JSON, `deleted`: [1, 2], instead "
                                          "of the count.")] = False,
) -> None:
    """Delete records (and their problems) from the archive: by id, or every record the filters select (after
    a count and a confirmation unless --yes)."""
    ids = ids or []
    if not ids and filters.empty:
        raise CommandError("name record ids or give search filters")
    chosen = dataclasses.replace(filters, ids=ids) if ids else filters

    def confirmed(n: int) -> bool:
        if not yes:
            if not sys.stdin.isatty():
                raise CommandError(f"{plural(n, 'record')} match: confirm with --yes")
            if not typer.confirm(f"delete {plural(n, 'record')}?", err=True):
                raise typer.Exit(EXIT_FAILED)
        return True

    with archive(db, write=True) as opened:
        deleted = opened.delete(chosen, confirm=confirmed)  # nothing matching: NotFound, exit 1
    if as_json:
        print_json({"deleted": deleted})
    else:
        note(f"deleted {plural(len(deleted), 'record')}")


def fix_cmd(
    record_id: Annotated[int, typer.Argument(metavar="ID", help="The record's id in the archive.",
                                             parser=whole_number(1))],
    settings: Annotated[list[str] | None, typer.Option("--set", metavar="PROP=VALUE", help="A root property to set "
                                                       "(PB='Lee Sedol', RO=3, RE=B+R; empty VALUE removes it); "
                                                       "repeat for several.", show_default=False)] = None,
    undo: Annotated[bool, typer.Option("--undo", help="Bring back the version the last fix replaced.")] = False,
    on_version: Annotated[int | None, typer.Option("--on-version", metavar="V", help="Only while the record is at "
                                                   "version V (`records show ID --json`: `version`); else nothing "
                                                   "changes and the command says the version it is at.",
                                                   parser=whole_number(1), show_default=False)] = None,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the record as stored now as JSON (`id`, `version`, "
                                          "`sha256`, `verdict`, `result_status`, `black`, `white`, `event`, "
                                          "`round`, `result`) instead of the one line.")] = False,
) -> None:
    """Correct a stored record: stores it as a new version (same id), verifies it again and keeps the bytes it
    replaces (`records show ID --history`)."""
    from ..archive.answers import fix_json
    from ..archive.store.curate import Unchanged, parse_settings

    if bool(settings) == undo:
        raise CommandError("give --set PROP=VALUE (one or more) or --undo")
    pairs = parse_settings(settings or [])  # FixError: 2; a missing record below is NotFound: 1
    with archive(db, write=True) as opened:
        try:
            row = opened.undo_fix(record_id, version=on_version) if undo else \
                opened.fix(record_id, pairs, version=on_version)
        except Unchanged:
            if as_json:
                print_json({"id": record_id, "changed": False})
            else:
                note(f"record {record_id}: nothing to change (it already holds "
                     f"{'that version' if undo else 'these settings'}); no new version stored")
            return
        version = opened.record_version(record_id)
    if as_json:
        print_json(fix_json(row, version))
    else:
        make_console().print(Text(f"record {row.id} {'restored' if undo else 'fixed'}: verdict {row.verdict}, result "
                          f"{row.result_status}"))
