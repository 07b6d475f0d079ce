"""Correcting the archive from a browser or a program (`records serve --accounts`, editors): a record's header
fixed and a fix undone (`records fix`), two spellings made one player (`records alias`), records deleted
(`records delete`). Each route is the library call of its command (archive/front.py) under the guard of
web/accounts.py (`writer`), and writes a row of the audit log (who, what, the records, before and after).

- A fix names the version of the record it was made on (`version`, as `/api/show` gives it): when another change
  came first, the answer is a 409 with the version and the header the record has now, and nothing is written
  (Archive.fix compares and writes in one transaction).
- A delete is two calls: the first names what goes (how many, their ids, the first rows) and gives a confirmation
  token bound to exactly that selection and to the credential of the request; the second, with the token, deletes
  those records. When the selection is no longer the one confirmed, the second is a 409 with the selection as it
  is now and its own token.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import asdict, replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from markupsafe import Markup
from pydantic import BaseModel, Field

from ..archive.answers import fix_json, utc_text
from ..archive.core.filters import TEXT_MAX, Filters
from ..archive.core.models import AccountRow
from ..archive.front import Archive
from ..archive.store.curate import StaleVersion, Unchanged
from ..common.errors import InputError
from .accounts import Editing, Seen, Visitor, bearer, member, writer
from .deps import Asked
from .params import DB_INT_MAX, filters

router = APIRouter()
RecordId = Annotated[int, Path(ge=1, le=DB_INT_MAX)]
SHOWN_FIRST = 20  # records a delete's confirmation lists by their rows (all are counted, and their ids given)
IDS_SHOWN = 1000  # ids a delete's confirmation gives
# The header fields the game page's form edits (any other root property but the moves, setup and frame can be
# set through the API, as `records fix --set` sets it).
FORM_FIELDS = (("PB", "Black"), ("BR", "Black's rank"), ("PW", "White"), ("WR", "White's rank"), ("EV", "Event"),
               ("RO", "Round"), ("DT", "Date"), ("PC", "Place"), ("RE", "Result"), ("GN", "Game name"))


def _templates() -> Any:
    from .templating import templates

    return templates


# -- fix and undo ------------------------------------------------------------------------------------------------

class FixAsked(BaseModel):
    version: int = Field(ge=1, le=DB_INT_MAX, description="The version of the record the change was made on "
                         "(`/api/show`: `version`).")
    set: dict[str, Annotated[str, Field(max_length=TEXT_MAX)]] = Field(
        min_length=1, max_length=40, description="Root properties to set: {\"PB\": \"Lee Sedol\", \"RO\": \"3\"}; an "
                                                 "empty value removes one.")


class UndoAsked(BaseModel):
    version: int = Field(ge=1, le=DB_INT_MAX, description="The version of the record the undo was asked on.")


def _stale(exc: StaleVersion) -> JSONResponse:
    return JSONResponse({"error": str(exc), "version": exc.current, "header": exc.header}, status_code=409)


def fix_or_undo(archive: Archive, who: str, record_id: int, version: int,
                settings: dict[str, str] | None) -> dict[str, Any]:
    """A fix (`settings`) or an undo (None) of `record_id` made on `version`, audited: the answer of the API
    (`changed` False when the record holds that already). StaleVersion when the record is at another version."""
    before = archive.record(record_id)
    if before.version != version:  # asked early, and again inside the fix's transaction
        raise StaleVersion(record_id, version, before.version, before.header)
    try:
        row = archive.fix(record_id, settings, version=version) if settings is not None else \
            archive.undo_fix(record_id, version=version)
    except Unchanged:
        return {"id": record_id, "changed": False, "version": version, "header": before.header}
    after = archive.record(record_id)
    action = "fix" if settings is not None else "undo-fix"
    archive.log_change(who, action, [record_id], before={"version": version, "header": before.header},
                       after={"version": version + 1, "header": after.header})
    return {**fix_json(row, version + 1), "header": after.header}


@router.post("/api/games/{record_id}/fix", tags=["editing"], summary="records fix ID --set ... --json")
def fix(archive: Asked, record_id: RecordId, given: FixAsked, who: AccountRow = writer("editor")) -> Response:
    """Set root properties of a record (`set`) on the version it was read at (`version`): its new version, or a
    409 with the version and header it has now when another change came first. Editors."""
    try:
        return JSONResponse(fix_or_undo(archive, who.name, record_id, given.version, given.set))
    except StaleVersion as exc:
        return _stale(exc)


@router.post("/api/games/{record_id}/undo-fix", tags=["editing"], summary="records fix ID --undo --json")
def undo_fix(archive: Asked, record_id: RecordId, given: UndoAsked, who: AccountRow = writer("editor")) -> Response:
    """Bring back the version the last fix replaced, on the version it was read at (409 as for a fix). Editors."""
    try:
        return JSONResponse(fix_or_undo(archive, who.name, record_id, given.version, None))
    except StaleVersion as exc:
        return _stale(exc)


def history_rows(archive: Archive, record_id: int) -> list[dict[str, Any]]:
    """The versions fixes replaced, oldest first, each with who replaced it and when (from the audit log: a fix
    made by `records fix` on the machine itself has no account, `command line`)."""
    done: dict[int, Any] = {}
    for row in archive.audit(ids=[record_id], actions=("fix", "undo-fix")).to_json():
        after = row.get("after") or {}
        if isinstance(after, dict) and isinstance(after.get("version"), int):
            done.setdefault(after["version"], row)
    shown = []
    for v in archive.history(record_id):
        by = done.get(v.version + 1)
        shown.append({"version": v.version, "change": v.change, "when": by["when"] if by else
                      utc_text(v.replaced_at), "who": by["who"] if by else "command line"})
    return shown


def edit_section(archive: Archive, editor: Any, record_id: int, message: str = "",
                 header: dict[str, str] | None = None, version: int | None = None) -> str:
    """The game page's part for editors: the header form (the version hidden in it), the undo and the history."""
    stored = archive.record(record_id)
    return str(_templates().get_template("edit_header.html").render(
        record_id=record_id, csrf=editor.csrf, version=stored.version if version is None else version,
        header=stored.header if header is None else header, fields=FORM_FIELDS, message=message,
        history=history_rows(archive, record_id)))


@router.post("/games/{record_id}/fix", include_in_schema=False)
async def fix_page(request: Request, archive: Asked, editor: Editing, record_id: RecordId,
                   version: Annotated[int, Form(ge=1, le=DB_INT_MAX)], undo: Annotated[str, Form()] = "",
                   who: AccountRow = writer("editor")) -> Response:
    """The game page's form: the fields that differ from the record as it was read are set (an emptied field
    removes its property); back to the game page, or (409) the form over the record as it is now."""
    form = await request.form()
    try:
        if undo:
            await run_in_threadpool(fix_or_undo, archive, who.name, record_id, version, None)
        else:
            stored = await run_in_threadpool(archive.record, record_id)
            read = stored.header if stored.version == version else {}
            changed = {ident: value.strip() for ident, _ in FORM_FIELDS if ident in form
                       and isinstance(value := form[ident], str) and value.strip() != read.get(ident, "")}
            if changed:
                await run_in_threadpool(fix_or_undo, archive, who.name, record_id, version, changed)
    except StaleVersion as exc:
        if editor is None:  # the form sent by a program (an API token): the answer of the API
            return _stale(exc)
        section = await run_in_threadpool(edit_section, archive, editor, record_id, str(exc), exc.header,
                                          exc.current)
        page = _templates().get_template("edited.html").render(record_id=record_id, section=Markup(section))
        return HTMLResponse(page, status_code=409)
    return RedirectResponse(f"/games/{record_id}#edit-header", status_code=303)


# -- aliases -----------------------------------------------------------------------------------------------------

class AliasAsked(BaseModel):
    name: str = Field(min_length=1, max_length=TEXT_MAX, description="The player.")
    others: list[Annotated[str, Field(min_length=1, max_length=TEXT_MAX)]] = Field(
        min_length=1, max_length=100, description="The other spellings that are the same player.")


class AliasRemoved(BaseModel):
    name: str = Field(min_length=1, max_length=TEXT_MAX)


def make_alias(archive: Archive, who: str, name: str, others: list[str]) -> list[dict[str, str]]:
    made = [{"key": k, "player": c} for k, c in archive.alias(name, *others)]
    archive.log_change(who, "alias", before={"name": name, "others": others}, after=made)
    return made


def unmake_alias(archive: Archive, who: str, name: str) -> int:
    removed = archive.remove_alias(name)
    archive.log_change(who, "remove-alias", before={"name": name}, after={"removed": removed})
    return removed


@router.post("/api/aliases", tags=["editing"], summary="records alias NAME OTHER... --json")
def alias(archive: Asked, given: AliasAsked, who: AccountRow = writer("editor")) -> JSONResponse:
    """Make each of `others` the same player as `name`: each spelling's key and its player's. Editors."""
    return JSONResponse(make_alias(archive, who.name, given.name, given.others))


@router.post("/api/aliases/remove", tags=["editing"], summary="records alias --remove NAME --json")
def remove_alias(archive: Asked, given: AliasRemoved, who: AccountRow = writer("editor")) -> JSONResponse:
    """Undo the aliases of `name`: how many were removed (0: it had none). Editors."""
    return JSONResponse({"removed": unmake_alias(archive, who.name, given.name)})


@router.delete("/api/aliases/{name}", tags=["editing"], summary="records alias --remove NAME --json")
def delete_alias(archive: Asked, name: Annotated[str, Path(min_length=1, max_length=TEXT_MAX)],
                 who: AccountRow = writer("editor")) -> JSONResponse:
    """As `POST /api/aliases/remove`. Editors."""
    return JSONResponse({"removed": unmake_alias(archive, who.name, name)})


def _spellings(text: str) -> list[str]:
    return [line.strip() for line in text.replace(",", "\n").splitlines() if line.strip()]


@router.post("/players/alias", include_in_schema=False)
def alias_page(archive: Asked, name: Annotated[str, Form(max_length=TEXT_MAX)],
               others: Annotated[str, Form(max_length=100 * TEXT_MAX)] = "",
               remove: Annotated[str, Form()] = "", who: AccountRow = writer("editor")) -> Response:
    """The players page's form: the spellings (one a line, or separated by commas) made one player with `name`,
    or (`remove`) the aliases of `name` undone; back to the players page."""
    if remove:
        unmake_alias(archive, who.name, name.strip())
    else:
        spelt = _spellings(others)
        if not spelt:
            raise InputError("give the other spellings of the player, one a line")
        make_alias(archive, who.name, name.strip(), spelt)
    return RedirectResponse("/players#alias", status_code=303)


# -- delete ------------------------------------------------------------------------------------------------------

def chosen_records(found: Annotated[Filters, Depends(filters)],
                   id: Annotated[list[int] | None, Query(max_length=IDS_SHOWN, description="Records by id "
                                                         "(repeated: id=3&id=4), as `records delete 3 4`.")] = None
                   ) -> Filters:
    """The records a delete names: the search filters, and the ids given."""
    if id and any(not 1 <= i <= DB_INT_MAX for i in id):
        raise InputError("a record id is a whole number from 1")
    return replace(found, ids=tuple(id)) if id else found


Chosen = Annotated[Filters, Depends(chosen_records)]

class DeleteAsked(BaseModel):
    confirm: str | None = Field(default=None, max_length=200, description="The token the first call gave.")


def credential(request: Request, seen: Visitor) -> str:
    """What the request signed in with (its session key or API token): the key of its confirmation tokens, so
    that a token holds for that sign-in alone and any process of the server can check it."""
    key = seen.session_key or bearer(request)
    if key is None:
        raise AssertionError("a writing route's visitor signed in")
    return key


def selection_token(key: str, chosen: Filters, ids: list[int]) -> str:
    """The confirmation of deleting exactly `ids` (what `chosen` selects), under the sign-in `key`."""
    given = json.dumps({"filters": asdict(chosen), "ids": ids}, sort_keys=True, default=str)
    return hmac.new(key.encode("utf-8", "surrogatepass"), b"records delete\0" + given.encode(),
                    hashlib.sha256).hexdigest()


def selection(archive: Archive, chosen: Filters, key: str) -> dict[str, Any]:
    """What a delete by `chosen` would remove: how many, their ids (the first IDS_SHOWN), the rows of the first
    SHOWN_FIRST, and the token that confirms exactly these."""
    if chosen.empty:
        raise InputError("name record ids or give search filters: nothing deletes every record")
    page = archive.search(chosen, sort="id", limit=None)
    rows = page.to_json()
    ids = [int(r["id"]) for r in rows if r["id"] is not None]
    return {"count": len(ids), "ids": ids[:IDS_SHOWN], "first": rows[:SHOWN_FIRST],
            "confirm": selection_token(key, chosen, ids), "all_ids": ids}


def delete_confirmed(archive: Archive, who: str, chosen: Filters, key: str, token: str) -> dict[str, Any] | None:
    """Delete what `chosen` selects when `token` confirms exactly that selection (its records, audited); None
    when it does not (the selection changed, or the token is another's)."""
    now = selection(archive, chosen, key)
    if not hmac.compare_digest(now["confirm"], token):
        return None
    deleted = archive.delete(replace(chosen, ids=now["all_ids"])) if now["all_ids"] else []
    archive.log_change(who, "delete", deleted, before={"filters": _filters_json(chosen), "count": now["count"]},
                       after={"deleted": len(deleted)})
    return {"deleted": deleted}


def _filters_json(chosen: Filters) -> dict[str, Any]:
    return {k: v for k, v in asdict(chosen).items() if v not in (None, [], (), False)}


def _listed(now: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in now.items() if k != "all_ids"}


@router.post("/api/delete", tags=["editing"], summary="records delete --json (two steps)")
def delete(request: Request, archive: Asked, seen: Seen, chosen: Chosen,
           given: DeleteAsked | None = None, who: AccountRow = writer("editor")) -> JSONResponse:
    """Delete the records the filters select (the query parameters of `/api/search`; `ids` names records). Without
    `confirm`: what would go (`count`, `ids`, `first` rows) and the `confirm` token; with it: `{"deleted": [ids]}`,
    or a 409 with the selection as it is now when it is not the one confirmed. Editors."""
    key = credential(request, seen)
    if given is None or not given.confirm:
        return JSONResponse(_listed(selection(archive, chosen, key)))
    done = delete_confirmed(archive, who.name, chosen, key, given.confirm)
    if done is None:
        return JSONResponse({"error": "the records these filters select are not the ones confirmed: confirm these",
                             **_listed(selection(archive, chosen, key))}, status_code=409)
    return JSONResponse(done)


@router.get("/delete", include_in_schema=False)
def delete_form(request: Request, archive: Asked, seen: Seen, editor: Editing,
                chosen: Chosen, _: AccountRow = member("editor")) -> Response:
    """The confirmation page of a delete: how many records the games page's filters select, the first of them, and
    a button that deletes exactly these."""
    now = selection(archive, chosen, credential(request, seen))
    return HTMLResponse(_templates().get_template("delete.html").render(
        now=now, query=request.url.query, csrf=editor.csrf if editor else "", done=None, changed=False))


@router.post("/delete", include_in_schema=False)
def delete_page(request: Request, archive: Asked, seen: Seen, editor: Editing,
                chosen: Chosen, confirm: Annotated[str, Form(max_length=200)],
                who: AccountRow = writer("editor")) -> Response:
    """The confirmation page's button: the records deleted, or (409) the page again over the selection as it is
    now."""
    key = credential(request, seen)
    done = delete_confirmed(archive, who.name, chosen, key, confirm)
    now = selection(archive, chosen, key) if done is None else None
    page = _templates().get_template("delete.html").render(now=now, query=request.url.query, done=done,
                                                           csrf=editor.csrf if editor else "", changed=done is None)
    return HTMLResponse(page, status_code=409 if done is None else 200)
