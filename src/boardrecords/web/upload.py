"""Verifying an uploaded file (`POST /api/verify`, the page `/verify`): its bytes read within the file cap of
`records verify`, each record verified, nothing stored."""

from __future__ import annotations

from typing import Any

from fastapi import UploadFile
from typing_extensions import TypedDict

from ..common.errors import InputError


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


async def read_upload(file: UploadFile) -> tuple[bytes, str]:
    """The upload's bytes, refused past the file cap of `records verify` (RECORDS_MAX_FILE_SIZE, default 3 MiB)."""
    from ..records.limits import describe_size, max_file_size

    cap = max_file_size()
    data = await file.read(cap + 1 if cap is not None else -1)
    if cap is not None and len(data) > cap:
        raise InputError(f"the file is larger than {describe_size(cap)} (RECORDS_MAX_FILE_SIZE)")
    name = (file.filename or "upload")[:200]
    return data, name


def verify_upload(data: bytes, name: str) -> list[VerifiedJson]:
    """`records verify --json` of an uploaded file's bytes, storing nothing: one object per record (at most
    VERIFY_RECORDS_MAX), or the one reason the file cannot be read."""
    from ..records.model import FormatError
    from ..records.reader import read_bytes
    from ..verifier.judging.verdict import verify

    try:
        records = read_bytes(data, name)
    except FormatError as exc:
        raise InputError(exc.describe()) from None
    if not records:
        raise InputError(f"{name}: holds no game record")
    if len(records) > VERIFY_RECORDS_MAX:
        raise InputError(f"{name}: {len(records)} records; at most {VERIFY_RECORDS_MAX} are verified here (use "
                         "`records verify`)")
    return [{"file": name, "index": r.index, **verify(r).to_json()} for r in records]  # type: ignore[typeddict-item]
