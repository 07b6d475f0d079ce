"""Points as players write them (GEN-10), read and shown: Go and Conversion Go `Q16` (columns A..T without I, rows
from 1 at the bottom), the connection games `a1` (columns a.. from the left, rows from 1 at the bottom); SGF letters
(`pd`) are read too. One function each way, so that a shared notation module can take their place.
"""

from __future__ import annotations

import re

from .games import SPECS, Game
from .points import Point, parse_point

_GO_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
_CUSTOMARY = re.compile(r"^([A-Za-z])(\d{1,2})$")


def read_point(text: str, game: Game, size: int) -> Point | None:
    """A point typed by a user: `Q16`, `a1` or SGF letters `pd`; None when it is none of them or off the board."""
    t = text.strip()
    m = _CUSTOMARY.match(t)
    if m:
        letter, row = m[1], int(m[2])
        connection = SPECS[game].connection
        column = ord(letter.lower()) - ord("a") if connection else _GO_COLUMNS.find(letter.upper())
        point = (column, size - row)
    else:
        p = parse_point(t)
        if p is None:
            return None
        point = p
    return point if 0 <= point[0] < size and 0 <= point[1] < size else None


def show_point(point: Point, game: Game, size: int) -> str:
    c, r = point
    if SPECS[game].connection:
        return f"{chr(ord('a') + c)}{size - r}"
    return f"{_GO_COLUMNS[c]}{size - r}"
