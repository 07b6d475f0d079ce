"""The verdict vocabulary as every command shows it in a terminal (verifier/judging/status.py): the same words, the
same colours; and counts in words (records per verdict, files per format). How a game ended, in words that need no
terminal, is render/ending.py."""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from ...records.formats import FORMAT_NAMES
from ...verifier.judging.status import STATUS_ORDER, VERDICT_ORDER, ResultStatus, VerdictClass


def verdict_word(verdict: VerdictClass) -> Text:
    """The verdict as every command shows it: the same word, the same colour."""
    return Text(verdict.value, style=f"bold {verdict.style}")


_STATUS_STYLE = {ResultStatus.AGREES: "green", ResultStatus.DISAGREES: "red", ResultStatus.UNCONFIRMED: "yellow",
                 ResultStatus.UNDECLARED: "dim", ResultStatus.UNRECOGNISED: "yellow", ResultStatus.KIND_ONLY: "green"}


def status_word(status: ResultStatus) -> Text:
    return Text(status.value, style=_STATUS_STYLE[status])


def totals_line(classes: Counter[VerdictClass], statuses: Counter[ResultStatus]) -> Text:
    """`N records: 3 pass, 1 invalid, ...; 2 unreadable files; results: 2 agree, ...`: the counts every summary ends
    with. A file that cannot be read holds no record that could be counted: it is counted apart, as a file, so that
    N is the number of records read (import's table says the same)."""
    total = sum(n for c, n in classes.items() if c is not VerdictClass.UNREADABLE)
    parts: list[Text | str] = [Text(f"{plural(total, 'record')}: ", style="bold")]
    shown = [c for c in VERDICT_ORDER if c is not VerdictClass.UNREADABLE and (
        classes[c] or c in (VerdictClass.PASS, VerdictClass.INVALID))]
    for i, c in enumerate(shown):
        parts += [", " if i else "", Text(f"{classes[c]} {c.value}", style=c.style)]
    unreadable = classes[VerdictClass.UNREADABLE]
    if unreadable:
        parts += ["; ", Text(f"{plural(unreadable, 'unreadable file')}", style=VerdictClass.UNREADABLE.style)]
    if statuses:
        parts.append("; results: ")
        shown_status = [s for s in STATUS_ORDER if statuses[s]]
        for i, st in enumerate(shown_status):
            parts += [", " if i else "", Text(f"{statuses[st]} {st.value}", style=_STATUS_STYLE[st])]
    return Text.assemble(*parts)


def formats_line(formats: Counter[str]) -> str:
    """`read 12 files: 9 SGF, 2 GIB, 1 NGF`: how many files were read, and in which formats (FMT-13), the formats
    in the order of FORMAT_NAMES and only those read."""
    counts = ", ".join(f"{formats[key]} {name}" for key, name in FORMAT_NAMES.items() if formats[key])
    return f"read {plural(sum(formats.values()), 'file')}" + (f": {counts}" if counts else "")


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 record`, `3 records` (`many`: the plural when it is not the word and an s)."""
    return f"{count} {word if count == 1 else many or word + 's'}"
