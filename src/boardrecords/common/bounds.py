"""The numbers input is bounded by in every layer, kept apart so that a command checks them without loading the
layers that use them."""

from __future__ import annotations

DB_INT_MAX = 2**63 - 1  # the largest integer SQLite and PostgreSQL (bigint) compare with: ids, sizes, limits


def unstorable(text: str) -> str | None:
    """What in `text` no database stores, in words (None: nothing): NUL (U+0000; PostgreSQL refuses it in text,
    SQLite cuts text at it) or a lone surrogate (U+D800-U+DFFF, what undecodable bytes of a command line become;
    it has no UTF-8 form)."""
    for ch in text:
        code = ord(ch)
        if code == 0:
            return "a NUL character (U+0000)"
        if 0xD800 <= code <= 0xDFFF:
            return f"a character that is no Unicode text (U+{code:04X}, a lone surrogate)"
    return None
