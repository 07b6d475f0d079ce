"""The accounts of a served archive (the table `account`, archive/core/models.py): who may sign in, with which
role, and the argon2id hash of each password (argon2-cffi, its default parameters: RFC 9106's second
recommendation, 64 MiB and 3 passes). A password is taken, hashed and dropped: it is never stored, logged or put
into an error message. docs/serve.md describes the roles.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import delete, inspect, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from ...common.errors import InputError, NotFound
from ..core.db import session_scope, writer
from ..core.models import AccountKeyRow, AccountRow, ArchiveSettingRow, LoginFailureRow

if TYPE_CHECKING:
    from collections.abc import Sequence

    from argon2 import PasswordHasher
    from sqlalchemy import Engine

# The roles, each allowed what the one before it is: `viewer` reads (what `records serve` shows without accounts),
# `editor` also adds and corrects records, `admin` also manages the accounts.
ROLES = ("viewer", "editor", "admin")
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
PASSWORD_MIN = 8
# A password longer than this is refused before it is hashed: hashing is meant to be slow, and its input unbounded
# would let one request cost the server more than a login should.
PASSWORD_MAX = 1024
ACCOUNT_TABLE = AccountRow.__tablename__


class AccountError(InputError):
    """A name, role or password that cannot be an account's, or a name already taken."""


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise AccountError(f"{name!r} cannot be an account's name: 1 to 64 letters, digits and . _ @ - (ASCII), "
                           "starting with a letter or a digit")
    return name


def check_role(role: str) -> str:
    if role not in ROLES:
        raise AccountError(f"no role {role!r} (the roles: {', '.join(ROLES)})")
    return role


def check_password(password: str) -> str:
    # The message says what is wrong with the password, never what it is.
    if len(password) < PASSWORD_MIN:
        raise AccountError(f"the password is too short: at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise AccountError(f"the password is too long: at most {PASSWORD_MAX} characters")
    return password


def has_role(role: str, needed: str) -> bool:
    """Whether an account of `role` may do what `needed` may (an admin does what an editor does...)."""
    return ROLES.index(check_role(role)) >= ROLES.index(check_role(needed))


_HASHER: list[PasswordHasher] = []  # made once, when the first password is hashed


def hasher() -> PasswordHasher:
    if not _HASHER:
        from argon2 import PasswordHasher

        _HASHER.append(PasswordHasher())
    return _HASHER[0]


def hash_password(password: str) -> str:
    """The argon2id hash of a checked password, in the PHC string form (`$argon2id$v=19$m=...`), salted anew."""
    return hasher().hash(check_password(password))


def password_matches(stored: str, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return hasher().verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


# Checked against when no account has the name, so that a login answers as slowly for a name that does not exist
# as for a wrong password (the time tells nothing about which names exist).
_ABSENT: list[str] = []


def _absent_hash() -> str:
    if not _ABSENT:
        _ABSENT.append(hasher().hash("no account has this password"))
    return _ABSENT[0]


def has_accounts_table(engine: Engine) -> bool:
    return inspect(engine).has_table(ACCOUNT_TABLE)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def accounts(engine: Engine) -> list[AccountRow]:
    """Every account, by name (none on an archive made before accounts and opened read-only)."""
    if not has_accounts_table(engine):
        return []
    with session_scope(engine) as session:
        return list(session.scalars(select(AccountRow).order_by(AccountRow.name)))


def account(engine: Engine, name: str) -> AccountRow:
    found = _find(engine, name)
    if found is None:
        raise NotFound(f"no account {name!r}")
    return found


def _find(engine: Engine, name: str) -> AccountRow | None:
    if not has_accounts_table(engine):
        return None
    with session_scope(engine) as session:
        return session.scalars(select(AccountRow).where(AccountRow.name == name)).first()  # type: ignore[arg-type]


def add_account(engine: Engine, name: str, role: str, password: str) -> AccountRow:
    """A new account (AccountError when the name is taken, or the name, role or password cannot be one)."""
    row = AccountRow(name=check_name(name), role=check_role(role), password_hash=hash_password(password))
    try:
        with Session(writer(engine), expire_on_commit=False) as session:
            session.add(row)
            session.commit()
    except IntegrityError:
        raise AccountError(f"an account {name!r} exists already (`records user password {name}` changes its "
                           "password)") from None
    return row


def remove_account(engine: Engine, name: str) -> None:
    with writer(engine).begin() as conn:
        gone = conn.execute(delete(AccountRow).where(AccountRow.name == name))  # type: ignore[arg-type]
    if gone.rowcount == 0:
        raise NotFound(f"no account {name!r}")


def set_password(engine: Engine, name: str, password: str) -> None:
    """Store the hash of a new password, and move the account's `password_changed_at`: what was signed in with
    the old one no longer holds."""
    _change(engine, name, password_hash=hash_password(password), password_changed_at=_now())
    found = account(engine, name)
    with writer(engine).begin() as conn:  # the sessions would no longer hold: removed with it
        conn.execute(delete(AccountKeyRow).where(
            AccountKeyRow.account_id == found.id, AccountKeyRow.kind == SESSION))  # type: ignore[arg-type]


def set_role(engine: Engine, name: str, role: str) -> None:
    _change(engine, name, role=check_role(role))


def _change(engine: Engine, name: str, **values: object) -> None:
    with writer(engine).begin() as conn:
        done = conn.execute(update(AccountRow).where(AccountRow.name == name).values(**values))  # type: ignore[arg-type]
    if done.rowcount == 0:
        raise NotFound(f"no account {name!r}")


def check_login(engine: Engine, name: str, password: str, *, rehash: bool = False) -> AccountRow | None:
    """The account when `password` is its password, else None (an unknown name, a wrong password and a password
    no account could have all answer None, in about the same time). With `rehash`, a hash made with parameters
    older than the hasher's is replaced by one made with them."""
    found = _find(engine, name) if NAME_PATTERN.fullmatch(name) else None
    if len(password) > PASSWORD_MAX:
        return None
    if found is None:
        password_matches(_absent_hash(), password)
        return None
    if not password_matches(found.password_hash, password):
        return None
    if rehash and hasher().check_needs_rehash(found.password_hash):
        _change(engine, name, password_hash=hasher().hash(password))
    return found


# -- sessions and API tokens ------------------------------------------------------------------------------------

SESSION = "session"
TOKEN = "token"
SESSION_LIFETIME = dt.timedelta(hours=12)
KEY_BYTES = 32  # of randomness in a session key, a CSRF token and an API token (secrets.token_urlsafe)


def key_hash(key: str) -> str:
    """What is stored of a key: its SHA-256 (a key is 256 random bits, so a fast hash is enough: nobody can guess
    a key from it, and a key is checked at every request)."""
    import hashlib

    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Signed:
    """Who a key stands for: the account, and for a session the hash of its CSRF token (None: an API token,
    which needs none)."""

    account: AccountRow
    csrf_hash: str | None


def csrf_of(key: str) -> str:
    """The CSRF token of the session `key`: an HMAC of a fixed word under the key, so that the server can give it
    again to the session's own pages (only who holds the key can compute it) while the archive keeps its hash."""
    import base64
    import hashlib
    import hmac

    digest = hmac.new(key.encode("utf-8", "surrogatepass"), b"records csrf", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def start_session(engine: Engine, found: AccountRow, *, lifetime: dt.timedelta = SESSION_LIFETIME) -> tuple[str, str]:
    """A new session of the account: (session key, CSRF token), each given once; the stored row keeps their
    hashes and the session's end."""
    import secrets

    key = secrets.token_urlsafe(KEY_BYTES)
    csrf = csrf_of(key)
    row = AccountKeyRow(account_id=_id(found), kind=SESSION, key_hash=key_hash(key), csrf_hash=key_hash(csrf),
                        expires_at=_now() + lifetime)
    with Session(writer(engine)) as session:
        session.execute(delete(AccountKeyRow).where(
            AccountKeyRow.kind == SESSION, AccountKeyRow.expires_at < _now()))  # type: ignore[arg-type,operator]
        session.add(row)
        session.commit()
    return key, csrf


def new_token(engine: Engine, name: str) -> str:
    """A new API token of the account `name`, replacing the one it had; given once."""
    import secrets

    found = account(engine, name)
    token = secrets.token_urlsafe(KEY_BYTES)
    with Session(writer(engine)) as session:
        session.execute(delete(AccountKeyRow).where(
            AccountKeyRow.account_id == found.id, AccountKeyRow.kind == TOKEN))  # type: ignore[arg-type]
        session.add(AccountKeyRow(account_id=_id(found), kind=TOKEN, key_hash=key_hash(token)))
        session.commit()
    return token


def signed_in(engine: Engine, key: str, kind: str) -> Signed | None:
    """Whom the session key or API token `key` (of `kind`) stands for, or None: no such key, or a session that
    ended (its time passed, its account signed out, or the password changed since it began)."""
    if not key or len(key) > 200 or not has_accounts_table(engine):
        return None
    with session_scope(engine) as session:
        found = session.execute(
            select(AccountKeyRow, AccountRow).join(AccountRow, AccountRow.id == AccountKeyRow.account_id)  # type: ignore[arg-type]
            .where(AccountKeyRow.key_hash == key_hash(key), AccountKeyRow.kind == kind)).first()  # type: ignore[arg-type]
    if found is None:
        return None
    row, owner = found
    if row.expires_at is not None and _aware(row.expires_at) <= _now():
        return None
    if _aware(row.created_at) < _aware(owner.password_changed_at):
        return None
    return Signed(owner, row.csrf_hash if kind == SESSION else None)


def end_session(engine: Engine, key: str) -> None:
    """Sign out: the session of `key` is removed (nothing happens for a key that is none)."""
    with writer(engine).begin() as conn:
        conn.execute(delete(AccountKeyRow).where(
            AccountKeyRow.key_hash == key_hash(key), AccountKeyRow.kind == SESSION))  # type: ignore[arg-type]


def _aware(moment: dt.datetime) -> dt.datetime:
    """A stored time as UTC (some databases give it back without its zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


# -- failed logins, counted across the processes of a server ------------------------------------------------------

FREE_FAILURES = 5  # failed logins of one account or one address before each further try must wait
WAIT_MAX = 15 * 60.0  # seconds: the longest wait
FORGET_AFTER = 60 * 60.0  # seconds without a failure after which a name or address starts afresh
_FAILED = text(
    f"INSERT INTO {LoginFailureRow.__tablename__} (key_hash, failures, last_at) VALUES (:key, 1, :now) "
    f"ON CONFLICT (key_hash) DO UPDATE SET failures = CASE WHEN :now - {LoginFailureRow.__tablename__}.last_at "
    f"> :forget THEN 1 ELSE {LoginFailureRow.__tablename__}.failures + 1 END, last_at = :now")


def login_wait(engine: Engine, keys: Sequence[str], now: float) -> float:
    """Seconds until any of `keys` (`name:NAME`, `address:ADDRESS`) may try to sign in again (0: now): after
    FREE_FAILURES failures, each further one doubles the wait from the last failure (2, 4, 8... s, at most
    WAIT_MAX); a key without a failure for FORGET_AFTER starts afresh."""
    table = LoginFailureRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it
    with session_scope(engine) as session:
        found = session.execute(select(table.c.failures, table.c.last_at)
                                .where(table.c.key_hash.in_([key_hash(k) for k in keys]))).all()
    waits = [0.0]
    for count, last in found:
        if count >= FREE_FAILURES and now - last <= FORGET_AFTER:
            waits.append(last + min(2.0 ** (count - FREE_FAILURES + 1), WAIT_MAX) - now)
    return max(waits)


def login_failed(engine: Engine, keys: Sequence[str], now: float) -> None:
    """Count a failed login against each of `keys` (one statement each, atomic whichever process runs it), and
    let go of the keys forgotten."""
    table = LoginFailureRow.__table__  # type: ignore[attr-defined]
    with writer(engine).begin() as conn:
        conn.execute(delete(table).where(table.c.last_at < now - FORGET_AFTER))
        for key in keys:
            conn.execute(_FAILED, {"key": key_hash(key), "now": now, "forget": FORGET_AFTER})


def login_failures(engine: Engine, key: str) -> int:
    """How many failed logins are counted against `key` now."""
    table = LoginFailureRow.__table__  # type: ignore[attr-defined]
    with session_scope(engine) as session:
        return int(session.execute(select(table.c.failures).where(table.c.key_hash == key_hash(key))).scalar() or 0)


def login_succeeded(engine: Engine, key: str) -> None:
    table = LoginFailureRow.__table__  # type: ignore[attr-defined]
    with writer(engine).begin() as conn:
        conn.execute(delete(table).where(table.c.key_hash == key_hash(key)))


# -- the archive's settings for serving --------------------------------------------------------------------------

VISIBILITIES = ("public", "private")


def visibility(engine: Engine) -> str:
    """"public" (the default) or "private": whether an anonymous visitor of `records serve --accounts` reads."""
    if not inspect(engine).has_table(ArchiveSettingRow.__tablename__):
        return "public"
    with session_scope(engine) as session:
        row = session.get(ArchiveSettingRow, "visibility")
    return row.value if row is not None and row.value in VISIBILITIES else "public"


def set_visibility(engine: Engine, value: str) -> None:
    if value not in VISIBILITIES:
        raise AccountError(f"no visibility {value!r} (public or private)")
    with Session(writer(engine)) as session:
        session.merge(ArchiveSettingRow(name="visibility", value=value))
        session.commit()


def _id(row: AccountRow) -> int:
    if row.id is None:
        raise AssertionError("an account read from the archive has its id")
    return row.id
