"""The verdict vocabulary: the words every command, table, JSON object, filter and page uses for a record.

Two scales, defined here once:
- the result status (GEN-8): how the declared result compares with what the replay shows;
- the verdict: what the record is worth as a whole (does it pass, and if not, why).
"""

from __future__ import annotations

from enum import StrEnum


class ResultStatus(StrEnum):
    """GEN-8: how a declared result is judged."""

    AGREES = "agrees"  # the replay shows the declared result
    DISAGREES = "disagrees"  # the replay contradicts it
    UNCONFIRMED = "unconfirmed"  # the record can neither prove nor refute it
    UNDECLARED = "undeclared"  # no RE, RE[] or RE[?]
    UNRECOGNISED = "unrecognised"  # RE holds text outside the vocabulary: nothing can be judged
    KIND_ONLY = "kind-only"  # ING-9: a ruleset that is not area-scored; only the form of the result is judged

    @property
    def agrees(self) -> bool | None:
        """The yes / no / unknown answer of `--json`'s `result.agrees`."""
        if self is ResultStatus.DISAGREES:
            return False
        if self in (ResultStatus.AGREES, ResultStatus.KIND_ONLY):
            return True
        return None


class VerdictClass(StrEnum):
    """One word for a record: it passes, or the first reason it does not."""

    PASS = "pass"  # every move legal, the marks consistent, the result not contradicted
    INVALID = "invalid"  # an illegal move, inconsistent marks, a header or syntax error, a truncated file
    WRONG_RESULT = "wrong-result"  # every move legal, but the declared result disagrees
    UNCONFIRMED = "unconfirmed"  # only when complete records are required: the result is unconfirmed or unrecognised
    UNREADABLE = "unreadable"  # the file could not be opened or read as a collection at all

    @property
    def passes(self) -> bool:
        return self is VerdictClass.PASS

    @property
    def style(self) -> str:
        """The colour every view gives the word (rich style names; HTML and SVG map them to classes)."""
        return _STYLES[self]

    @property
    def meaning(self) -> str:
        return _MEANINGS[self]


_STYLES = {
    VerdictClass.PASS: "green",
    VerdictClass.INVALID: "red",
    VerdictClass.WRONG_RESULT: "yellow",
    VerdictClass.UNCONFIRMED: "yellow",
    VerdictClass.UNREADABLE: "red",
}

_MEANINGS = {
    VerdictClass.PASS: "every move legal and the result not contradicted",
    VerdictClass.INVALID: "an illegal move, a broken header or a truncated file",
    VerdictClass.WRONG_RESULT: "every move legal, but the declared result disagrees",
    VerdictClass.UNCONFIRMED: ("the result cannot be confirmed from the record, or is not in the vocabulary "
                               "(complete records required)"),
    VerdictClass.UNREADABLE: "the file cannot be read",
}

# The order in which summaries count the classes.
VERDICT_ORDER = (VerdictClass.PASS, VerdictClass.INVALID, VerdictClass.WRONG_RESULT, VerdictClass.UNCONFIRMED,
                 VerdictClass.UNREADABLE)
STATUS_ORDER = (ResultStatus.AGREES, ResultStatus.DISAGREES, ResultStatus.UNCONFIRMED, ResultStatus.UNDECLARED,
                ResultStatus.UNRECOGNISED, ResultStatus.KIND_ONLY)


def classify(valid: bool, status: ResultStatus, *, require_complete: bool = False) -> VerdictClass:
    """The verdict of a record that was read: validity first, then the result (GEN-8's "passes")."""
    if not valid:
        return VerdictClass.INVALID
    if status is ResultStatus.DISAGREES:
        return VerdictClass.WRONG_RESULT
    if require_complete and status in (ResultStatus.UNCONFIRMED, ResultStatus.UNRECOGNISED):
        return VerdictClass.UNCONFIRMED
    return VerdictClass.PASS


def drawn(status: str, method: str, computed: str, checked: bool) -> bool:
    """GEN-8, who won: whether the verdict stands on a tie (it then credits nobody a win, and each player half).

    Where the declared result stands (agrees, unconfirmed, kind-only) that is a declared `0` / `Draw`; where the
    replay's stands (disagrees, undeclared, unrecognised) a computed `0`, unless ING-9 leaves the score unjudged.
    Takes the stored words (the archive's columns) so that every view decides it alike.
    """
    if status in (ResultStatus.AGREES, ResultStatus.UNCONFIRMED, ResultStatus.KIND_ONLY):
        return method == "draw"
    return checked and computed == "0"
