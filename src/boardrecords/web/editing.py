"""What editors and admins add through `records serve --accounts` (web/accounts.py guards each route): `POST
/api/import` and the upload page /import (files, or a zip of a folder, stored by the import `records import`
runs), and the audit log every writing route writes (`GET /api/audit` and the page /audit, for admins). Fixes,
aliases and deletes are web/curating.py's."""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.params import File
from fastapi.responses import HTMLResponse, JSONResponse

from ..archive.answers import AuditJson
from ..archive.core.models import AccountRow
from ..archive.front import Archive
from ..common.errors import InputError
from .accounts import Editing, Editor, member, writer
from .deps import Asked
from .upload import read_upload, settings_of

ZIP_MEMBERS_MAX = 10_000  # files of one zip that are read
ZIP_TOTAL_MAX = 256 * 1024 * 1024  # bytes of one zip's files, all told, when unpacked
COUNTS = ("files", "records", "new", "duplicates", "not_stored", "failed", "unreadable")

router = APIRouter()


def _unpacked(data: bytes, name: str, folder: Path, cap: int | None) -> int:
    """The files of a zip written under `folder` (each within the file cap; their paths kept, never outside
    `folder`); how many."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise InputError(f"{name}: not a zip file that can be read") from None
    members = [m for m in archive.infolist() if not m.is_dir()]
    if len(members) > ZIP_MEMBERS_MAX:
        raise InputError(f"{name}: more than {ZIP_MEMBERS_MAX:,} files (use `records import`)")
    if sum(m.file_size for m in members) > ZIP_TOTAL_MAX:
        raise InputError(f"{name}: its files unpacked are larger than {ZIP_TOTAL_MAX // 2**20} MiB")
    for index, entry in enumerate(members):
        if cap is not None and entry.file_size > cap:
            raise HTTPException(413, f"{name}: {entry.filename[:100]!r} is larger than the file cap "
                                     "(RECORDS_MAX_FILE_SIZE)")
        parts = [p for p in PurePosixPath(entry.filename.replace("\\", "/")).parts if p not in ("", ".", "..", "/")]
        target = folder.joinpath(f"z{index}", *parts[-8:]) if parts else folder / f"z{index}"
        target.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(entry) as source:
            content = source.read(entry.file_size + 1)
        if len(content) > entry.file_size:  # a member larger than it says
            raise InputError(f"{name}: {entry.filename[:100]!r} is not what the zip says it is")
        target.write_bytes(content)
    return len(members)


async def stored_upload(request: Request, archive: Archive, file: list[UploadFile], who: str) -> dict[str, Any]:
    """The uploaded files stored through the import `records import` runs (a zip's files read as a folder's), and
    audited: the import's `--json` summary. The import commits whole batches of whole records: a request cut off
    while its body arrives stores nothing (the body is read whole first), and a server stopped during the import
    leaves the batches it committed, which the same upload again completes (the rest are duplicates)."""
    cap = settings_of(request).max_file_size
    with tempfile.TemporaryDirectory(prefix="records-upload-") as tmp:
        # A file uploaded is read whatever its name, as `records import FILE` reads it; a zip's files as a folder's.
        paths: list[Path] = []
        for index, upload in enumerate(file):
            data, name = await read_upload(request, upload)
            place = Path(tmp) / f"u{index}"
            place.mkdir()
            if name.lower().endswith(".zip") or data.startswith(b"PK\x03\x04"):
                _unpacked(data, name, place, cap)
                paths.append(place)
            else:
                paths.append(place / (PurePosixPath(name.replace("\\", "/")).name or "upload"))
                paths[-1].write_bytes(data)
        first = await run_in_threadpool(archive.last_id)
        summary = await run_in_threadpool(archive.import_paths, paths, workers=1)
        last = await run_in_threadpool(archive.last_id)
    answer = summary.to_json()
    # The records this import stored: those whose ids it made (ids only grow).
    await run_in_threadpool(lambda: archive.log_change(who, "import", range(first + 1, last + 1),
                                                       after={k: answer[k] for k in COUNTS}))
    return answer


@router.post("/api/import", tags=["editing"], summary="records import --json (uploaded files)")
async def import_upload(request: Request, archive: Asked, file: Annotated[list[UploadFile], File()],
                        who: AccountRow = writer("editor")) -> JSONResponse:
    """Store uploaded record files (the multipart field `file`, once or several times; a `.zip` is unpacked and
    its files read as a folder's) through the import `records import` runs: its `--json` summary. Editors."""
    return JSONResponse(await stored_upload(request, archive, file, who.name))


def _import_page(editor: Editor | None, summary: dict[str, Any] | None = None) -> HTMLResponse:
    from .templating import templates

    return HTMLResponse(templates.get_template("import.html").render(
        csrf=editor.csrf if editor else "", summary=summary, counts=summary and shown_counts(summary)))


def shown_counts(summary: dict[str, Any]) -> list[tuple[str, int]]:
    """The counts of the import's table as `records import` shows them: files, records, new and duplicates always,
    the others when there are any."""
    counts = [("files", summary["files"]), ("unreadable files", summary["unreadable"]),
              ("records", summary["records"]), ("new", summary["new"]), ("duplicates", summary["duplicates"]),
              ("not stored", summary["not_stored"]), ("failed", summary["failed"])]
    return [(k, n) for k, n in counts if n or k in ("files", "records", "new", "duplicates")]


@router.get("/import", include_in_schema=False)
def import_form(editor: Editing, _: AccountRow = member("editor")) -> HTMLResponse:
    """The upload page: files or a folder's zip chosen or dropped, sent with the upload's progress shown
    (static/import.js), then the import's summary."""
    return _import_page(editor)


@router.post("/import", include_in_schema=False)
async def import_page(request: Request, archive: Asked, editor: Editing,
                      file: Annotated[list[UploadFile], File()], who: AccountRow = writer("editor")) -> HTMLResponse:
    return _import_page(editor, await stored_upload(request, archive, file, who.name))


@router.get("/api/audit", tags=["editing"], summary="records audit --json")
def audit(archive: Asked, _: AccountRow = member("admin"), limit: int = 1000) -> list[AuditJson]:
    """The audit log, newest first. Admins."""
    return archive.audit(limit=max(1, min(limit, 100_000))).to_json()


@router.get("/audit", include_in_schema=False)
def audit_page(archive: Asked, _: AccountRow = member("admin")) -> HTMLResponse:
    from .templating import templates

    rows = archive.audit(limit=1000).to_json()
    return HTMLResponse(templates.get_template("audit.html").render(rows=rows))
