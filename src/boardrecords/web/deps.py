"""The archive the routes ask: made once by `create_app` (app.py), read-only, and given to each route as a FastAPI
dependency (`Asked`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..archive.front import Archive


def archive(request: Request) -> Archive:
    """The application's archive."""
    opened: Archive = request.app.state.archive
    return opened


Asked = Annotated[Archive, Depends(archive)]
