"""Text shortened to a bounded width, the one way every output shortens (the terminal's tables, the pages' cells
and header values): whole, or up to its last whole word that fits, then `…`.

- A word ends at a space outside brackets: a bracketed part (`(swap; was Ann Lee)`) is kept whole, or cut only
  before one of its `;` or `,` and closed again (`(swap…)`), never left open.
- A first word wider than the width is cut after its last character that fits (a name of CJK characters, which
  has no spaces); a column that must not cut its tokens (results) is made wide enough for them instead.
- `distinct`: values that would shorten to the same text (two events named alike up to their year) keep their
  last words after the ellipsis (`Autumn club… 2024`), so that different values never look the same.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

ELLIPSIS = "…"
NAME_SHOWN = 60  # a player's name in a line about a move or the end: a longer one shortened (the header has it whole)
VALUE_SHOWN = 120  # a header value or a cell of a page: a longer one shortened, the whole one click away
_OPEN, _CLOSE = "([{", ")]}"

Measure = Callable[[str], int]  # how wide a text is shown: len, or terminal cells (rich.cells.cell_len)


def word_ends(text: str) -> list[int]:
    """Where `text` may be cut: before each space that is outside brackets and ends a word."""
    return [i for i, closers in _cuts(text) if not closers]


def _cuts(text: str) -> list[tuple[int, str]]:
    """Where `text` may be cut, each with the brackets the cut leaves open (closed after the ellipsis): before each
    space outside brackets that ends a word, and inside brackets before a `;` or `,` (`(swap…)`)."""
    cuts: list[tuple[int, str]] = []
    opened: list[str] = []
    for i, ch in enumerate(text):
        if ch in _OPEN:
            opened.append(_CLOSE[_OPEN.index(ch)])
        elif ch in _CLOSE:
            if opened:
                opened.pop()
        elif ch == " " and not opened and i > 0 and text[i - 1] != " ":
            cuts.append((i, ""))
        elif ch in ";," and opened:
            cuts.append((i, "".join(reversed(opened))))
    return cuts


def first_word(text: str) -> str:
    """The text up to its first cut (the whole text when it has none)."""
    ends = word_ends(text)
    return text[:ends[0]] if ends else text


def cut_at(text: str, width: int, measure: Measure = len) -> tuple[int, str]:
    """How many characters of `text` are kept when it is shortened to `width`, and what follows the ellipsis (the
    closing brackets of a bracket cut inside)."""
    room = max(width - measure(ELLIPSIS), 0)
    end, after = 0, ""
    for i, closers in _cuts(text):
        if measure(text[:i] + closers) <= room:
            end, after = i, closers
        elif not closers:
            break
    if end == 0:  # one word wider than the width: cut it where it stops fitting
        while end < len(text) and measure(text[:end + 1]) <= room:
            end += 1
    return end, after


def shorten_text(text: str, width: int, measure: Measure = len) -> str:
    """`text` in at most `width`: whole, or up to its last whole word that fits, then `…`."""
    if measure(text) <= width:
        return text
    end, after = cut_at(text, width, measure)
    return text[:end] + ELLIPSIS + after


def _with_tail(text: str, others: list[str], width: int, measure: Measure) -> str | None:
    """`text` shortened to `width` keeping the last words that tell it from `others` (`Autumn club… 2024`)."""
    ends = word_ends(text)
    for start in reversed([e + 1 for e in ends]):
        tail = text[start:]
        if any(o.endswith(tail) and o != text for o in others):
            continue
        room = width - measure(ELLIPSIS + " " + tail)
        if room < 0:
            return None
        keep = [e for e in ends if e < start - 1 and measure(text[:e]) <= room]
        head = text[:keep[-1]] if keep else ""
        return f"{head}{ELLIPSIS} {tail}" if head else f"{ELLIPSIS}{tail}"
    return None


def distinct(values: Iterable[str], width: int, measure: Measure = len) -> dict[str, str]:
    """Each value's shortened text (`shorten_text`), values that would look the same told apart by their last
    words where the width allows."""
    short = {v: shorten_text(v, width, measure) for v in set(values)}
    alike: defaultdict[str, list[str]] = defaultdict(list)
    for value, shown in short.items():
        alike[shown].append(value)
    for group in alike.values():
        if len(group) > 1:
            for value in group:
                if short[value] != value:
                    short[value] = _with_tail(value, group, width, measure) or short[value]
    return short


def brief(name: str, width: int = NAME_SHOWN) -> str:
    """A name as a line about a move or the end shows it: shortened past `width` characters (`shorten_text`)."""
    return name if len(name) <= width else shorten_text(name, width)
