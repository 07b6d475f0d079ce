"""Where the read-only shared material (rules, conformance records, Go corpus) sits: beside the repository."""

from __future__ import annotations

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
CONFORMANCE = SHARED / "conformance"
CORPUS = SHARED / "corpus" / "go"
