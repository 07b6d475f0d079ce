"""`records serve`: the archive in a browser, read-only (the web application is web/; it is loaded only here)."""

from __future__ import annotations

import functools
import socket
from typing import Annotated

import typer

from .common import CommandError, add_commands, archive_db, note, run_settings
from .options import DbOption


def register(app: typer.Typer) -> None:
    add_commands(app, {"serve": serve_cmd})


def serve_cmd(
    db: DbOption = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on. Anything but 127.0.0.1, ::1 or "
                                      "localhost lets other machines in: the server has no login.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on (0: any free one).", min=0,
                                      max=65535)] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the games page in the browser.")] = False,
    public_hosts: Annotated[list[str] | None, typer.Option(
        "--public-host", metavar="NAME", help="Another host name the server answers for (repeatable): the public "
        "name of a proxy in front of it, or this machine's name or address on the network. Requests naming any "
        "host but localhost, 127.0.0.1, [::1], --host and these are refused (421); uploads from the pages of "
        "these names are accepted.")] = None,
    accounts: Annotated[bool, typer.Option("--accounts", help="Serve with accounts (`records user add`): sign-in "
                                           "at /login and POST /api/login, the archive opened for writing, and "
                                           "a private archive (`records user visibility private`) shown to "
                                           "nobody signed out.")] = False,
    workers: Annotated[int, typer.Option("--workers", metavar="N", help="Serve from N processes (one archive, "
                                         "PostgreSQL best: SQLite lets one process write at a time); sessions, "
                                         "the login throttle and the pages kept hold across them.", min=1,
                                         max=64)] = 1,
) -> None:
    """Serve the archive to a browser, read-only: games, a game's replay, the explorer, players, events; the
    commands' JSON under /api/ (its OpenAPI page: /docs). Ctrl-C stops it."""
    import uvicorn

    from ..web.app import LOCAL_HOSTS, create_app

    # An archive that cannot be used: ArchiveError, exit 2; a --public-host that is no host name: InputError.
    made = functools.partial(create_app, archive_db(db), settings=run_settings(), hosts=(host,),
                             public_hosts=tuple(public_hosts or ()), accounts=accounts)
    application = made()
    if host not in LOCAL_HOSTS and not accounts:
        note(f"warning: listening on {host}: anyone who can reach this address can read the whole archive "
             "(there is no login)")
    sock = _listening(host, port)  # before the server starts, so that a port in use is one line, not a traceback
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{bound}/"
    note(f"serving the archive at {url} ({'with accounts' if accounts else 'read-only'}"
         f"{f', {workers} processes' if workers > 1 else ''}; Ctrl-C stops)")
    if open_browser:
        import webbrowser

        webbrowser.open(url + "games")
    # A watcher's event stream (web/recording.py) never ends by itself: on Ctrl-C the requests under way get
    # GRACE_SECONDS to finish, then the streams are closed.
    if workers > 1:  # each process makes its own application (and opens the archive) from `made`
        application.state.archive.close()
        config = uvicorn.Config(made, factory=True, workers=workers, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=GRACE_SECONDS)
    else:
        config = uvicorn.Config(application, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=GRACE_SECONDS)
    server = uvicorn.Server(config)
    try:
        if workers > 1:
            from uvicorn.supervisors import Multiprocess

            Multiprocess(config, sockets=[sock]).run()
        else:
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    except SystemExit as exc:  # uvicorn's own start-up failure (it has logged why)
        raise CommandError(f"the server on {host}:{bound} could not start") from exc
    finally:
        sock.close()


GRACE_SECONDS = 3


def _listening(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` and listening (port 0: a free one)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise CommandError(f"cannot listen on {host}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock
