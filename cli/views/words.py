"""The verdict vocabulary as every command shows it (verifier/status.py): the same words, the same colours."""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from ...verifier.status import STATUS_ORDER, VERDICT_ORDER, ResultStatus, VerdictClass


def verdict_word(verdict: VerdictClass) -> Text:
    """The verdict as every command shows it: the same word, the same colour."""
    return Text(verdict.value, style=f"bold {verdict.style}")


_STATUS_STYLE = {ResultStatus.AGREES: "green", ResultStatus.DISAGREES: "red", ResultStatus.UNCONFIRMED: "yellow",
                 ResultStatus.UNDECLARED: "dim", ResultStatus.UNRECOGNISED: "yellow", ResultStatus.KIND_ONLY: "green"}


def status_word(status: ResultStatus) -> Text:
    return Text(status.value, style=_STATUS_STYLE[status])


def totals_line(classes: Counter[VerdictClass], statuses: Counter[ResultStatus]) -> Text:
    """`N records: 3 pass, 1 invalid, ...; results: 2 agree, ...`: the counts every summary ends with."""
    total = sum(classes.values())
    parts: list[Text | str] = [Text(f"{total} record{'s' if total != 1 else ''}: ", style="bold")]
    shown = [c for c in VERDICT_ORDER if classes[c] or c in (VerdictClass.PASS, VerdictClass.INVALID)]
    for i, c in enumerate(shown):
        parts += [", " if i else "", Text(f"{classes[c]} {c.value}", style=c.style)]
    if statuses:
        parts.append("; results: ")
        shown_status = [s for s in STATUS_ORDER if statuses[s]]
        for i, st in enumerate(shown_status):
            parts += [", " if i else "", Text(f"{statuses[st]} {st.value}", style=_STATUS_STYLE[st])]
    return Text.assemble(*parts)




def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 record`, `3 records` (`many`: the plural when it is not the word and an s)."""
    return f"{count} {word if count == 1 else many or word + 's'}"
