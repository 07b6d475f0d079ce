"""Accounts on a served archive (`records serve --accounts`, docs/serve.md "Running a club's archive"): who a
request comes from, sign-in and sign-out, and the guard of every writing route.

- Who: the session cookie (SESSION_COOKIE: a random key, `HttpOnly`, `SameSite=Strict`, `Secure` when the request
  came over https, ending with the session) or an API token (`Authorization: Bearer TOKEN`); `Visitor` reads it
  for every request and, on a private archive, answers an anonymous one 401 (a page: the login page) except for
  the login page and the assets.
- `POST /api/login` (JSON `{"name", "password"}`) answers `{"csrf": TOKEN, ...}` and sets the cookie; `/login` is
  the same for a browser's form. Failed logins are slowed per account and per address (`Throttle`: after
  FREE_FAILURES, each further try waits twice as long, 429 with Retry-After until then).
- `writer(role)`: a route's dependency that lets through only an account of that role (none: 401; a lesser role:
  403), and for a session only with its CSRF token in `X-CSRF-Token` (or the form field `csrf` of the server's
  own forms; missing or wrong: 403). An API token needs no CSRF token: a browser never sends it by itself.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from ..archive.core.models import AccountRow
from ..archive.front import Archive
from ..archive.store.accounts import FREE_FAILURES as FREE_FAILURES  # for the tests and the docs
from ..archive.store.accounts import PASSWORD_MAX, csrf_of, has_role, key_hash
from .deps import Asked

SESSION_COOKIE = "records_session"
OPEN_PATHS = ("/login", "/api/login", "/static/", "/replay/", "/swagger/")  # answered on a private archive too


@dataclass
class Throttle:
    """The failed logins of each account name and each address, counted in the archive (so that every process of
    a server counts them together): after FREE_FAILURES, each further try waits 2, 4, 8... seconds (at most
    WAIT_MAX) from the last failure; a name or address without a failure for an hour starts afresh."""

    archive: Archive
    clock: Callable[[], float] = time.time  # the wall clock: the processes of a server share it

    def wait(self, *keys: str) -> float:
        """Seconds until any of `keys` may try again (0: now)."""
        return self.archive.login_wait(keys, self.clock())

    def failed(self, *keys: str) -> None:
        self.archive.login_failed(keys, self.clock())

    def succeeded(self, key: str) -> None:
        self.archive.login_succeeded(key)


@dataclass(frozen=True)
class Visitor:
    """Who sent the request: an account (None: anonymous), and whether by session (whose CSRF token is checked)
    or by API token."""

    account: AccountRow | None
    csrf_hash: str | None = None
    session_key: str | None = None


def bearer(request: Request) -> str | None:
    given = request.headers.get("authorization", "")
    scheme, _, token = given.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def visitor(request: Request, archive: Asked) -> Visitor:
    """Who the request comes from (read once per request, kept on `request.state`)."""
    known: Visitor | None = getattr(request.state, "visitor", None)
    if known is not None:
        return known
    found = Visitor(None)
    token = bearer(request)
    if token is not None:
        signed = archive.signed_in(token, token=True)
        if signed is None:
            raise HTTPException(401, "the API token is not valid (`records user token NAME` makes one)")
        found = Visitor(signed.account)
    else:
        key = request.cookies.get(SESSION_COOKIE)
        signed = archive.signed_in(key) if key else None
        if signed is not None and key:
            found = Visitor(signed.account, signed.csrf_hash, key)
    request.state.visitor = found
    return found


Seen = Annotated[Visitor, Depends(visitor)]


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


async def sent_csrf(request: Request) -> str:
    """The CSRF token a request carries: the header X-CSRF-Token, or the field `csrf` of a form of the server's own
    pages (a form's body only; never the query, which a link could carry)."""
    given = request.headers.get("x-csrf-token")
    if given:
        return given
    if request.headers.get("content-type", "").split(";", 1)[0].strip().lower() in FORM_TYPES:
        field = (await request.form()).get("csrf")  # parsed once: the route's own form fields read the same
        return field if isinstance(field, str) else ""
    return ""


def writer(role: str, *, csrf: bool = True) -> Any:
    """The dependency of a route that changes the archive: the account, when it has `role` and (by session) sent
    its CSRF token. `csrf=False` (`member`): a route that only reads what the role may read."""

    async def check(request: Request, seen: Seen) -> AccountRow:
        if seen.account is None:
            raise HTTPException(401, "sign in first (POST /api/login, or the page /login)")
        if csrf and seen.csrf_hash is not None:
            given = await sent_csrf(request)
            if not given or not hmac.compare_digest(key_hash(given), seen.csrf_hash):
                raise HTTPException(403, "the CSRF token is missing or wrong: send the one the login gave in the "
                                         "header X-CSRF-Token")
        if not has_role(seen.account.role, role):
            raise HTTPException(403, f"the account {seen.account.name} ({seen.account.role}) may not do this: it "
                                     f"needs the role {role}")
        return seen.account

    return Depends(check)


@dataclass(frozen=True)
class Editor:
    """An editor (or admin) signed in by session, as a page shows its forms to it: its name and the CSRF token
    the forms carry."""

    name: str
    csrf: str


def editing(request: Request) -> Editor | None:
    """The editor a page is made for, or None: anonymous, a viewer, an API token, or a server without accounts
    (whose pages never show a form that writes)."""
    if not getattr(request.app.state, "accounts", False):
        return None
    seen = visitor(request, request.app.state.archive)
    if seen.account is None or seen.session_key is None or not has_role(seen.account.role, "editor"):
        return None
    return Editor(seen.account.name, csrf_of(seen.session_key))


Editing = Annotated[Editor | None, Depends(editing)]


def member(role: str) -> Any:
    """The dependency of a route that reads what only `role` may (no CSRF token: it changes nothing)."""
    return writer(role, csrf=False)


async def private_gate(request: Request, call_next: Any) -> Response:
    """On a private archive, an anonymous request is answered 401 (a page: sent to the login page), except for
    OPEN_PATHS. Any other request goes on."""
    archive = request.app.state.archive
    path = request.url.path
    if path.startswith(OPEN_PATHS) or archive.visibility() != "private":
        return await call_next(request)
    try:
        seen = visitor(request, archive)
    except HTTPException as exc:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
    if seen.account is not None:
        return await call_next(request)
    if path.startswith("/api/") or path.startswith("/openapi.json"):
        return JSONResponse({"error": "this archive is private: sign in first (POST /api/login)"}, status_code=401)
    return RedirectResponse("/login", status_code=303)


router = APIRouter()


class Login(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=PASSWORD_MAX)


def _signed_in(request: Request, archive: Asked, name: str, password: str) -> tuple[AccountRow, str, str] | float:
    """The session of a good login, or the seconds to wait (0.0: a wrong name or password, counted)."""
    throttle: Throttle = request.app.state.throttle
    address = request.client.host if request.client else "unknown"
    keys = (f"name:{name}", f"address:{address}")
    wait = throttle.wait(*keys)
    if wait > 0:
        return wait
    made = archive.login(name, password)
    if made is None:
        throttle.failed(*keys)
        return 0.0
    throttle.succeeded(keys[0])
    return made


def _set_cookie(request: Request, response: Response, key: str) -> None:
    from ..archive.store.accounts import SESSION_LIFETIME

    response.set_cookie(SESSION_COOKIE, key, max_age=int(SESSION_LIFETIME.total_seconds()), path="/",
                        httponly=True, samesite="strict", secure=request.url.scheme == "https")


def _refusal(wait: float) -> tuple[int, str, dict[str, str]]:
    """Why a login is refused: its status, message and headers (the same words whichever was wrong)."""
    if wait > 0:
        return 429, f"too many failed logins: try again in {int(wait) + 1} s", {"Retry-After": str(int(wait) + 1)}
    return 401, "wrong name or password", {}


def _refused(wait: float) -> JSONResponse:
    status, message, headers = _refusal(wait)
    return JSONResponse({"error": message}, status_code=status, headers=headers)


@router.post("/api/login", tags=["accounts"])
def login(request: Request, archive: Asked, given: Login) -> Response:
    """Sign in: `{"csrf": TOKEN, "name", "role"}` and the session cookie; 401 for a wrong name or password, 429
    while failed logins of the name or the address must wait."""
    made = _signed_in(request, archive, given.name, given.password)
    if not isinstance(made, tuple):
        return _refused(made)
    found, key, csrf = made
    archive.log_change(found.name, "login")
    response = JSONResponse({"csrf": csrf, "name": found.name, "role": found.role})
    _set_cookie(request, response, key)
    return response


@router.post("/api/logout", tags=["accounts"])
def logout(request: Request, archive: Asked, seen: Seen, who: AccountRow = writer("viewer")) -> Response:
    """Sign out: the session ends (needs its CSRF token, as every writing request)."""
    if seen.session_key is not None:
        archive.logout(seen.session_key)
        archive.log_change(who.name, "logout")
    response = JSONResponse({"signed_out": True})
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return response


@router.get("/api/account", tags=["accounts"])
def whoami(seen: Seen) -> dict[str, str | None]:
    """Who the request is signed in as (`name`, `role`; both None when anonymous) and, by session, its CSRF token
    (`csrf`) again, for a page of this server that needs it."""
    if seen.account is None:
        return {"name": None, "role": None, "csrf": None}
    return {"name": seen.account.name, "role": seen.account.role,
            "csrf": csrf_of(seen.session_key) if seen.session_key else None}


def _login_page(message: str = "", status: int = 200) -> HTMLResponse:
    from .templating import templates

    return HTMLResponse(templates.get_template("login.html").render(message=message), status_code=status)


@router.get("/login", include_in_schema=False)
def login_form() -> HTMLResponse:
    return _login_page()


@router.post("/login", include_in_schema=False)
def login_page(request: Request, archive: Asked, name: Annotated[str, Form(max_length=64)],
               password: Annotated[str, Form(max_length=PASSWORD_MAX)]) -> Response:
    """The login page's form: the session cookie and the games page, or the form again with why not."""
    made = _signed_in(request, archive, name, password)
    if not isinstance(made, tuple):
        status, message, headers = _refusal(made)
        page = _login_page(message, status)
        page.headers.update(headers)
        return page
    archive.log_change(made[0].name, "login")
    response = RedirectResponse("/games", status_code=303)
    _set_cookie(request, response, made[1])
    return response
