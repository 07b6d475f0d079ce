"""The web application of `records serve`: the archive, read-only, to a browser (pages) and to programs (`/api/`).

- The archive is opened once, when the application is made, as one `Archive` (archive/front.py) that every route
  asks (deps.py): read-only (SQLite `query_only`, PostgreSQL read-only transactions), so that a request never
  writes, unless accounts are served (web/accounts.py), whose writing routes (web/editing.py, web/curating.py,
  web/recording.py) each need the role, the session and its CSRF token; on the read-only default only a game
  recorded from this machine is written (web/recording.py), through a connection of its own.
- Safety: every page is a Jinja template with autoescape on, so every text from a record is escaped; the
  Content-Security-Policy allows scripts, styles and images from the server itself only (no inline script); every
  query parameter has bounds (params.py); the library's errors (common/errors.py) are answered by their class, the
  same status from every route, page or JSON: a bad parameter or an InputError (a bad filter, move, pattern, an
  unreadable record) 400, NotFound (a missing game or event) 404, ArchiveError 503; anything unexpected is a 500,
  never a traceback. The API (`/api/...`, JSON_PATHS) answers `{"error": ...}`; a page answers a page with the
  site's navigation, its form as typed and the message beside the field it concerns (pages.py: error_page).
- Requests from elsewhere (guards.py): only the server's own host names are answered (421 for another `Host`), a
  POST from another site's page is a 403 (`Origin`), an upload larger than the cap a 413 before it is read or as
  soon as it passes the cap, a query value no database stores a 400; `HEAD` is answered as `GET`.
- Assets (scripts, styles, the OpenAPI page's Swagger UI) are files of the installed packages: nothing is fetched
  from anywhere else at run time; of Swagger UI only the two files the OpenAPI page uses are served.
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..common.errors import ArchiveError, InputError, NotFound, RecordsError
from ..common.settings import DEFAULTS, Settings
from .assets import package_dir, replay_asset
from .guards import LOCAL_HOSTS as LOCAL_HOSTS  # for `records serve`'s warning
from .guards import HeadAsGet, HostCheck, OriginCheck, StorableQuery, UploadCap, checked_host_name

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY"}

log = logging.getLogger("boardrecords.web")
SWITCH_INTERVAL = 0.0005  # seconds


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


# The HTTP status of each error of the library's family (common/errors.py): the web's side of the CLI's
# EXIT_STATUSES. An unreadable record is an InputError: 400.
HTTP_STATUSES: tuple[tuple[type[RecordsError], int], ...] = (
    (InputError, 400),
    (NotFound, 404),
    (ArchiveError, 503),
)


# The paths whose errors are JSON: the API, the assets and the OpenAPI description. Every other path is a page a
# browser shows, whose error is a page (pages.py: error_page) with the same status.
JSON_PATHS = ("/api/", "/static/", "/replay/", "/swagger/", "/openapi.json")


def _answer(request: Request, status: int, message: str, errors: dict[str, str] | None = None) -> Response:
    """An error as JSON to a program (`/api/...`), as a page to a browser."""
    if request.url.path.startswith(JSON_PATHS):
        return _error(status, message)
    from .pages import error_page

    return error_page(request, status, message, errors or {})


def _family_handler(status: int) -> Any:
    async def handler(request: Request, exc: Exception) -> Response:
        field = getattr(exc, "field", None)
        return _answer(request, status, str(exc), {field: str(exc)} if field else None)

    return handler


def _validation_errors(exc: RequestValidationError) -> dict[str, str]:
    """Each bad parameter's message, by its name (`request` when none is named)."""
    parts: dict[str, str] = {}
    for e in exc.errors():
        where = ".".join(str(x) for x in e.get("loc", ())[1:]) or "request"
        parts[where] = "; ".join(filter(None, (parts.get(where), str(e.get("msg", "invalid")))))
    return parts


def _validation_message(errors: dict[str, str]) -> str:
    return "; ".join(f"{where}: {msg}" for where, msg in errors.items()) or "invalid request"


class BlankFieldsAreAbsent:
    """ASGI middleware: a query parameter with an empty value (`size=`, as a form sends every field left blank) is
    left out, so that it means no filter rather than a bad number."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        query: bytes = scope.get("query_string") or b"" if scope["type"] == "http" else b""
        if query:
            parts = query.split(b"&")
            kept = [p for p in parts if p and not (p.endswith(b"=") and p.count(b"=") == 1)]
            if len(kept) != len(parts):  # the bytes of the others are passed on untouched
                scope = dict(scope, query_string=b"&".join(kept))
        await self.app(scope, receive, send)


# The multipart framing around an upload's file (boundaries, the part's headers): a body may be this much larger
# than the file cap before it is refused unread.
UPLOAD_FRAMING = 64 * 1024
SWAGGER_FILES = {"swagger-ui.css": "text/css", "swagger-ui-bundle.js": "text/javascript"}  # what docs.html uses


def create_app(db: str | None, *, settings: Settings = DEFAULTS, hosts: Sequence[str] = (),
               public_hosts: Sequence[str] = (), accounts: bool = False) -> FastAPI:
    """The application over the archive `db` (a SQLite path or an SQLAlchemy URL; None: records.db here; `records
    serve` gives RECORDS_DB when there is no --db), with the limits and the scan of `settings`. It answers for the
    host names localhost, 127.0.0.1, [::1], `hosts` (the address it listens on) and `public_hosts` (a proxy's
    public names, whose pages may also send uploads). Raises InputError for a name that is not a host name, the
    archive's ArchiveError when it cannot be opened."""
    from ..archive.front import Archive
    from ..records.limits import describe_size

    hosts = [checked_host_name(name, "--host") for name in hosts]
    public_hosts = [checked_host_name(name, "--public-host") for name in public_hosts]

    archive = Archive(db, settings=settings, write=accounts)  # read-only unless accounts are served

    @asynccontextmanager
    async def lifespan(served: FastAPI) -> AsyncIterator[None]:
        # What start-up made (modules, the archive's metadata) lives as long as the server: frozen, it is no longer
        # walked by every full collection of the garbage collector, which a long game's page (thousands of small
        # lists) sets off; that walk made the slowest first views of a game page.
        gc.freeze()
        # A thread that wants the interpreter gets it within half a millisecond (Python's default: 5 ms), so that a
        # quick question is not held at each of its turns by a heavy one in another thread (archive/core/budget.py):
        # with the default the explorer's p99 under four pattern searches was 4 times its idle one, with this 2.
        sys.setswitchinterval(SWITCH_INTERVAL)
        yield
        archive.close()
        writing = getattr(served.state, "recorder", None)  # the recordings' connection (web/recording.py)
        if writing is not None:
            writing.close()

    app = FastAPI(lifespan=lifespan, title="records", version="1", docs_url=None, redoc_url=None,
                  description="The archive of `records`, read-only: the JSON of the commands' --json, by the "
                              "commands' option names.")
    app.state.archive = archive
    app.state.settings = settings
    app.state.engine = archive.engine
    app.state.accounts = accounts
    app.state.public_hosts = tuple(public_hosts)  # behind a proxy every client looks local (web/recording.py)
    from .pages import GamePages

    app.state.game_pages = GamePages()  # the game pages made last, for the archive's version

    # Added innermost first: the host is checked before anything else is looked at.
    if accounts:
        from starlette.middleware.base import BaseHTTPMiddleware

        from .accounts import Throttle, private_gate

        app.state.throttle = Throttle(archive)
        app.add_middleware(BaseHTTPMiddleware, dispatch=private_gate)
    app.add_middleware(StorableQuery)
    app.add_middleware(HeadAsGet)
    cap = settings.max_file_size
    app.add_middleware(UploadCap, limit=None if cap is None else cap + UPLOAD_FRAMING,
                       describe=lambda: describe_size(cap or 0))
    app.add_middleware(OriginCheck, public=public_hosts)
    app.add_middleware(HostCheck, names=(*hosts, *public_hosts))

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        for k, v in HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    app.add_middleware(BlankFieldsAreAbsent)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> Response:
        errors = _validation_errors(exc)
        return _answer(request, 400, _validation_message(errors), errors)

    # The library's errors, each as its HTTP status (the handler of the nearest class in the error's MRO answers);
    # they are answers, not faults: nothing is logged for them, and no traceback.
    for kind, status in HTTP_STATUSES:
        app.add_exception_handler(kind, _family_handler(status))

    from ..archive.core.budget import Busy

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> Response:
        # Too many heavy questions at once (archive/core/budget.py): answered as its family is, with when to ask again.
        answer = _answer(request, 503, str(exc))
        answer.headers["Retry-After"] = str(exc.retry_after)
        return answer

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return _answer(request, exc.status_code, str(exc.detail))

    from sqlalchemy.exc import SQLAlchemyError

    @app.exception_handler(SQLAlchemyError)
    async def database_error(request: Request, exc: SQLAlchemyError) -> Response:
        # Its own handler, not the one of Exception below: after that one answers, Starlette raises the error again
        # for the server to log with its traceback (and the database's error carries the whole SQL). A database
        # that fails is one line in the log.
        from ..archive.core.db import first_line

        log.error("database: %s", first_line(getattr(exc, "orig", None) or exc))
        return _answer(request, 503, "database error")

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s", request.url.path)
        return _answer(request, 500, "internal error")

    from .api import router as api_router
    from .pages import router as page_router
    from .record_pages import router as record_pages_router
    from .recording import router as recording_router

    app.include_router(api_router)
    app.include_router(recording_router)
    app.include_router(record_pages_router)
    app.include_router(page_router)
    if accounts:
        from .accounts import router as accounts_router
        from .curating import router as curating_router
        from .editing import router as editing_router

        app.include_router(accounts_router)
        app.include_router(editing_router)
        app.include_router(curating_router)
    app.mount("/static", StaticFiles(directory=package_dir("static")), name="static")

    @app.get("/replay/{name}", include_in_schema=False)
    def replayer(name: str) -> Response:
        """The replayer of `records html` (render/), for the game page."""
        kinds = {"replay.js": "text/javascript", "replay.css": "text/css"}
        if name not in kinds:
            raise NotFound(f"no asset {name!r}")
        return Response(replay_asset(name), media_type=kinds[name], headers={"Cache-Control": "max-age=3600"})

    from swagger_ui_bundle import swagger_ui_path

    @app.get("/swagger/{name}", include_in_schema=False)
    def swagger(name: str) -> Response:
        """The two files of Swagger UI the OpenAPI page uses; the package's own demonstration page and the rest of
        its folder are not served."""
        if name not in SWAGGER_FILES:
            raise NotFound(f"no asset {name!r}")
        return FileResponse(Path(swagger_ui_path) / name, media_type=SWAGGER_FILES[name],
                            headers={"Cache-Control": "max-age=3600"})

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """The OpenAPI page: Swagger UI from the package swagger-ui-bundle, started by static/docs.js."""
        return HTMLResponse((package_dir("templates") / "docs.html").read_text(encoding="utf-8"))

    return app
