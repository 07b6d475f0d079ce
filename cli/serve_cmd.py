"""`records serve`: the archive in a browser, read-only (the web application is web/; it is loaded only here)."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import CommandError, add_commands, expected_failures, note
from .options import DbOption

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def register(app: typer.Typer) -> None:
    add_commands(app, {"serve": serve_cmd})


def serve_cmd(
    db: DbOption = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on. Anything but 127.0.0.1, ::1 or "
                                      "localhost lets other machines in: the server has no login.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on (0: any free one).", min=0,
                                      max=65535)] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the games page in the browser.")] = False,
) -> None:
    """Serve the archive to a browser, read-only: games, a game's replay, the explorer, players, events; the
    commands' JSON under /api/ (its OpenAPI page: /docs). Ctrl-C stops it."""
    import uvicorn

    from ..web.app import create_app

    with expected_failures():
        application = create_app(db)
    if host not in LOCAL_HOSTS:
        note(f"warning: listening on {host}: anyone who can reach this address can read the whole archive "
             "(there is no login)")
    config = uvicorn.Config(application, host=host, port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host

    def started() -> None:
        bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{bound}/"
        note(f"serving the archive at {url} (read-only; Ctrl-C stops)")
        if open_browser:
            import webbrowser

            webbrowser.open(url + "games")

    import asyncio

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            if task.done():
                break
            await asyncio.sleep(0.05)
        if server.started:
            started()
        await task

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    if not server.started:
        raise CommandError(f"cannot listen on {host}:{port}")
