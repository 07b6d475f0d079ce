"""SGF point letters: `a`..`z` = 0..25, `A`..`Z` = 26..51; a point is (column, row)."""

from __future__ import annotations

Point = tuple[int, int]

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_INDEX = {c: i for i, c in enumerate(_LETTERS)}
LETTER_COUNT = len(_LETTERS)  # columns and rows a point letter names: 0..51


def letter_index(ch: str) -> int | None:
    return _INDEX.get(ch)


def index_letter(i: int) -> str:
    return _LETTERS[i]


def parse_point(text: str) -> Point | None:
    """`dc` -> (3, 2); None when the text is not two point letters."""
    if len(text) != 2:
        return None
    col = _INDEX.get(text[0])
    row = _INDEX.get(text[1])
    if col is None or row is None:
        return None
    return (col, row)


def format_point(point: Point) -> str:
    return _LETTERS[point[0]] + _LETTERS[point[1]]

