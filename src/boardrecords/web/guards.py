"""The checks every request passes before a route sees it (ASGI middleware, added by app.py), each answering with
the application's `{"error": ...}` JSON:

- `HostCheck`: the server answers only for its own host names (`Host`): localhost, 127.0.0.1 and [::1] on any
  port, and the names `records serve` was given (`--host`, `--public-host`); any other name is a 421, so that a
  page whose name was made to point at this machine (DNS rebinding) cannot read the archive from a visitor's
  browser.
- `OriginCheck`: a POST that says it comes from another site's page (`Origin`, or the browser's `Sec-Fetch-Site:
  cross-site`) is a 403; one without `Origin` (a program) or from the server's own pages (the same origin, or a
  `--public-host` name; `Origin: null` with `Sec-Fetch-Site: same-origin`, what the server's own form sends under
  its no-referrer policy) passes.
- `UploadCap`: a POST body larger than the upload cap is a 413: at once when its `Content-Length` says so, else as
  soon as the bytes read pass the cap; the body is kept in memory up to the cap, so nothing of it reaches the disk.
- `HeadAsGet`: `HEAD` is answered as `GET` without the body.
- `StorableQuery`: a query value holding what no database stores (NUL, a lone surrogate) is a 400 naming the
  parameter, for every route, before any query is made.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ..archive.core.filters import FilterError, check_storable
from ..common.errors import InputError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


async def refuse(send: Send, status: int, message: str) -> None:
    """The answer `{"error": message}` with `status`, sent without the application."""
    body = json.dumps({"error": message}).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def header(scope: Scope, name: bytes) -> str | None:
    """The value of the request header `name` (lower case), or None."""
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def host_name(netloc: str) -> str:
    """The host name of a `Host` header or a URL's authority, in lower case, without its port, brackets or
    final dot: `[::1]:8000` -> `::1`, `Example.ORG.:80` -> `example.org`."""
    text = netloc.strip().lower()
    if text.startswith("["):
        return text[1:].split("]", 1)[0]
    if text.count(":") == 1:
        text = text.split(":", 1)[0]
    return text.rstrip(".")


def checked_host_name(name: str, option: str) -> str:
    """`name` as a host name the server answers for: InputError unless it is a bare name or address (no scheme,
    port, path or user)."""
    text = name.strip()
    if not text or any(ch in text for ch in "/@ ?#") or host_name(text) != text.lower().strip("[]").rstrip("."):
        raise InputError(f"{option} {name!r}: give a host name or address without a scheme or port "
                         "(records.example.org, 192.168.1.5)")
    return host_name(text)


def shown_host(name: str) -> str:
    return f"[{name}]" if ":" in name else name


class HostCheck:
    """Answers only for the host names `names` (with the local ones, on any port): any other `Host` is a 421."""

    def __init__(self, app: App, names: Iterable[str] = ()) -> None:
        self.app = app
        self.names = tuple(dict.fromkeys((*LOCAL_HOSTS, *(host_name(n) for n in names))))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = header(scope, b"host")
        if given is None or not given.strip():
            await refuse(send, 400, "the request names no host (a Host header is needed)")
            return
        if host_name(given) not in self.names:
            answered = ", ".join(shown_host(n) for n in self.names)
            await refuse(send, 421, f"this server does not answer for the host name {given[:100]!r}: it answers for "
                                    f"{answered} (`records serve --host` or `--public-host` add a name)")
            return
        await self.app(scope, receive, send)


class OriginCheck:
    """A request other than GET or HEAD whose `Origin` is neither this server's own (the `Host` it was sent to) nor
    one of the public names `public` (a proxy's, any scheme and port), or that the browser says comes from another
    site (`Sec-Fetch-Site: cross-site`), is a 403."""

    def __init__(self, app: App, public: Iterable[str] = ()) -> None:
        self.app = app
        self.public = frozenset(host_name(n) for n in public)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            origin = header(scope, b"origin")
            fetched_from = header(scope, b"sec-fetch-site")  # what the browser says of the page that sent it
            if fetched_from == "cross-site" or (origin is not None and not self.allowed(
                    origin, header(scope, b"host") or "", fetched_from)):
                said = f"Origin {origin[:100]!r}" if origin is not None else "Sec-Fetch-Site: cross-site"
                await refuse(send, 403, f"a page of another site ({said}) may not send requests here: use this "
                                        "server's own pages, or a program without an Origin header")
                return
        await self.app(scope, receive, send)

    def allowed(self, origin: str, host: str, fetched_from: str | None) -> bool:
        if origin.strip() == "null":
            # The server's own form sends `null`: its pages' Referrer-Policy is no-referrer. A sandboxed frame or a
            # page of a file sends it too; the browser's Sec-Fetch-Site tells them apart.
            return fetched_from == "same-origin"
        parts = urlsplit(origin.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False
        return parts.netloc.lower() == host.strip().lower() or host_name(parts.netloc) in self.public


class UploadCap:
    """A request body of more than `limit` bytes (None: no limit) is a 413: refused before it is read when its
    `Content-Length` is larger, else as soon as what has arrived passes `limit`. What is read is kept in memory
    and handed to the application whole."""

    def __init__(self, app: App, limit: int | None, describe: Callable[[], str]) -> None:
        self.app = app
        self.limit = limit
        self.describe = describe  # the cap in words, for the message

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.limit
        if scope["type"] != "http" or limit is None or scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None:
            try:
                length = int(declared)
            except ValueError:
                await refuse(send, 400, f"Content-Length {declared[:40]!r} is not a number of bytes")
                return
            if length > limit:
                await refuse(send, 413, self.too_large())
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await refuse(send, 413, self.too_large())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def too_large(self) -> str:
        return f"the upload is larger than {self.describe()} (RECORDS_MAX_FILE_SIZE): it was not read"


class HeadAsGet:
    """`HEAD` answered as `GET` is, with the same status and headers and no body."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app(dict(scope, method="GET"), receive, headers_only)


class StorableQuery:
    """A query parameter whose value holds what no database stores is a 400 naming the parameter
    (filters.check_storable, the check the command line's filters make too)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query: bytes = scope.get("query_string") or b"" if scope["type"] == "http" else b""
        if query:
            # Decoded as Starlette decodes it for the routes (undecodable bytes become U+FFFD).
            for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
                try:
                    check_storable(name[:40], value)
                except FilterError as exc:
                    await refuse(send, 400, str(exc))
                    return
        await self.app(scope, receive, send)
