"""Every numbered clarification of the rules is cited by at least one test (by name or comment)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .shared import SHARED

RULES = SHARED / "rules"
NUMBER = re.compile(r"^- ((?:CAT|QUE|SQU|ING|CON)-\d+)\b", re.MULTILINE)


def clarifications() -> list[str]:
    found: list[str] = []
    for path in sorted(RULES.glob("*.md")):
        found += NUMBER.findall(path.read_text(encoding="utf-8"))
    return found


@pytest.mark.skipif(not RULES.is_dir(), reason=f"rules absent ({RULES})")
def test_every_clarification_has_a_test():
    numbers = clarifications()
    assert len(numbers) >= 45  # CAT-1..10, QUE-1..8, SQU-1..11, ING-1..10, CON-1..8
    tests = "\n".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py")
                      if p.name != Path(__file__).name)
    # A citation is the number itself (CAT-4) or a test name built from it (test_cat_4_...).
    missing = [n for n in numbers
               if not re.search(rf"\b{n}\b", tests) and f"test_{n.lower().replace('-', '_')}_" not in tests]
    assert not missing, f"clarifications without a test: {missing}"
