"""What the routes are given as FastAPI dependencies: the archive, made once by `create_app` (app.py), read-only
(`Asked`), and the budget of a heavy question (`Budgeted`, archive/core/budget.py), stopped when the client goes
away."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request

from ..archive.core.budget import Budget
from ..archive.front import Archive

# How often a heavy question's request is checked for a client that went away.
DISCONNECT_POLL = 0.25


def archive(request: Request) -> Archive:
    """The application's archive."""
    opened: Archive = request.app.state.archive
    return opened


Asked = Annotated[Archive, Depends(archive)]


async def budget(request: Request) -> AsyncIterator[Budget]:
    """A budget from the archive's settings for the request's heavy question, stopped (its database work
    cancelled) as soon as the client disconnects. The routes that take it read no body: watching for the
    disconnect takes none from them."""
    opened: Archive = request.app.state.archive
    given = opened.budget()

    async def watch() -> None:
        while not await request.is_disconnected():
            await asyncio.sleep(DISCONNECT_POLL)
        given.stop()

    watcher = asyncio.ensure_future(watch())
    try:
        yield given
    finally:
        watcher.cancel()


Budgeted = Annotated[Budget, Depends(budget)]
