"""Every numbered clarification of the rules, shared convention (GEN-) and format rule (FMT-) is cited by at least one
test (by name or comment)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ..shared import SHARED

RULES = SHARED / "rules"
NUMBER = re.compile(r"^- ((?:CAT|QUE|SQU|ING|CON)-\d+)\b", re.MULTILINE)


def clarifications() -> list[str]:
    found: list[str] = []
    for path in sorted(RULES.glob("*.md")):
        found += NUMBER.findall(path.read_text(encoding="utf-8"))
    return found


def uncited(numbers: list[str]) -> list[str]:
    """The numbers no other test cites: a citation is the number itself (CAT-4) or a test name built from it
    (test_cat_4_...)."""
    tests = "\n".join(p.read_text(encoding="utf-8") for p in Path(__file__).parents[1].rglob("test_*.py")
                      if p.name != Path(__file__).name)
    return [n for n in numbers
            if not re.search(rf"\b{n}\b", tests) and f"test_{n.lower().replace('-', '_')}_" not in tests]


@pytest.mark.skipif(not RULES.is_dir(), reason=f"rules absent ({RULES})")
def test_every_clarification_has_a_test():
    numbers = clarifications()
    assert len(numbers) >= 45  # CAT-1..10, QUE-1..8, SQU-1..11, ING-1..10, CON-1..8
    missing = uncited(numbers)
    assert not missing, f"clarifications without a test: {missing}"


SPEC = SHARED / "spec" / "record-format.md"
CONVENTION = re.compile(r"^(?:- |## )((?:GEN|FMT)-\d+)\b", re.MULTILINE)


@pytest.mark.skipif(not SPEC.is_file(), reason=f"record format absent ({SPEC})")
def test_every_shared_convention_and_format_rule_has_a_test():
    numbers = CONVENTION.findall((RULES / "README.md").read_text(encoding="utf-8") + SPEC.read_text(encoding="utf-8"))
    assert len(numbers) >= 22  # GEN-1..10, FMT-1..12
    missing = uncited(numbers)
    assert not missing, f"numbered conventions without a test: {missing}"
