"""Verifying an uploaded file (`POST /api/verify`, the page `/verify`): its bytes read within the file cap of
`records verify`, each record verified, nothing stored."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request, UploadFile
from typing_extensions import TypedDict

from ..common.errors import InputError
from ..common.settings import DEFAULT_MAX_RECORDS, Settings


class VerifiedJson(TypedDict):
    """One record of the upload: where it is in the file, and its verdict (`records verify --json`'s object)."""

    file: str
    index: int
    game: str
    size: int | None
    verdict: str
    valid: bool
    passes: bool
    winner: dict[str, Any]
    result: dict[str, Any]
    score: dict[str, Any] | None
    end: str | None
    replayed: bool
    swapped: bool
    players: dict[str, str | None]
    moves: dict[str, int]
    problems: list[dict[str, Any]]


VERIFY_RECORDS_MAX = 1000  # records of one upload that are verified (a server should not spend minutes on one)


def settings_of(request: Request) -> Settings:
    """The settings the application was made with (`records serve` reads them from the environment)."""
    settings: Settings = request.app.state.settings
    return settings


async def read_upload(request: Request, file: UploadFile) -> tuple[bytes, str]:
    """The upload's bytes, refused past the file cap of `records verify` (the application's settings:
    RECORDS_MAX_FILE_SIZE, default 3 MiB) with a 413. A body much larger than the cap never gets here: it is
    refused before it is read, or as soon as it passes the cap (guards.UploadCap)."""
    from ..records.limits import describe_size

    cap = settings_of(request).max_file_size
    data = await file.read(cap + 1 if cap is not None else -1)
    if cap is not None and len(data) > cap:
        raise HTTPException(413, f"the file is larger than {describe_size(cap)} (RECORDS_MAX_FILE_SIZE)")
    name = (file.filename or "upload")[:200]
    return data, name


def verify_upload(data: bytes, name: str, max_records: int | None = DEFAULT_MAX_RECORDS) -> list[VerifiedJson]:
    """`records verify --json` of an uploaded file's bytes, storing nothing: one object per record (at most
    VERIFY_RECORDS_MAX), or the one reason the file cannot be read (`max_records`: the reader's limit). The
    reader stops at the first record past VERIFY_RECORDS_MAX: a file of many records is not read whole."""
    from ..records.model import FormatError
    from ..records.reader import TOO_MANY_RECORDS, read_bytes
    from ..verifier.judging.verdict import verify

    most = VERIFY_RECORDS_MAX if max_records is None else min(max_records, VERIFY_RECORDS_MAX)
    try:
        records = read_bytes(data, name, max_records=most)
    except FormatError as exc:
        if exc.code == TOO_MANY_RECORDS and most == VERIFY_RECORDS_MAX:
            raise InputError(f"{name}: more than {VERIFY_RECORDS_MAX:,} records; at most {VERIFY_RECORDS_MAX:,} "
                             "are verified here (use `records verify`)") from None
        raise InputError(exc.describe()) from None
    if not records:
        raise InputError(f"{name}: holds no game record")
    return [{"file": name, "index": r.index, **verify(r).to_json()} for r in records]  # type: ignore[typeddict-item]
