"""Fixtures of the archive's pattern tests."""

from __future__ import annotations

import pytest

from boardrecords.archive.patterns import search as schema_patterns


@pytest.fixture(params=["one pass", "by id"])
def route(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways a search reads the change lists: all in one pass, or the masks first and then by id."""
    monkeypatch.setattr(schema_patterns, "MOST", -1.0 if request.param == "one pass" else 2.0)
    return str(request.param)


@pytest.fixture(params=["compiled", "python"])
def scan(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both scans: the compiled one (where it was built; else the plain path twice) and the plain path."""
    monkeypatch.setenv("RECORDS_SCAN", str(request.param))
    return str(request.param)
