"""`records verify` against the verdicts an independent implementation gives the conformance records."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app

from ..shared import CONFORMANCE

pytestmark = pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")

TRUTHS = sorted(CONFORMANCE.glob("*/*.truth.json")) if CONFORMANCE.is_dir() else []
NUMBERED = re.compile(r"^(CAT|QUE|SQU|ING|CON|GEN|FMT)-\d+$")
SIZE_RULES = {"CAT-1", "QUE-1", "SQU-1", "ING-1", "CON-1"}


@cache
def verdicts() -> dict[str, dict]:
    """One `records verify --json` run over the whole folder, keyed by file name."""
    result = CliRunner().invoke(app, ["verify", "--json", str(CONFORMANCE)])
    assert result.exit_code == 1, result.output  # the folder holds broken records on purpose
    out = {}
    for line in result.stdout.splitlines():
        obj = json.loads(line)
        out[obj["file"].rsplit("/", 1)[-1]] = obj
    return out


@pytest.mark.parametrize("truth_path", TRUTHS, ids=lambda p: p.stem.removesuffix(".truth"))
def test_conformance_record(truth_path):
    truth = json.loads(truth_path.read_text())
    got = verdicts()[truth_path.name.replace(".truth.json", ".rec")]
    assert got["game"] == truth["game"]
    assert got["valid"] == truth["valid"], got["problems"]
    errors = [p for p in got["problems"] if p["severity"] == "error"]
    if truth["first_error_ply"] is None:
        assert not errors
    else:
        first = next(p for p in errors if p["move"] is not None)
        assert first["move"] == truth["first_error_ply"], first
        rule = truth["error_rule"]
        # Labels the rules do not number (turns, format, a size rule for a point off the board): move only.
        if rule and NUMBERED.match(rule) and rule not in SIZE_RULES:
            assert first["rule"] == rule, first
    assert got["winner"]["colour"] == truth["winner_colour"]
    assert got["winner"]["player"] == truth["winner_player"]
    assert got["result"]["agrees"] == truth["result_ok"], got["result"]
    assert got["result"]["status"] == truth["result_status"], got["result"]
    assert got["verdict"] == ("pass" if truth["valid"] and truth["result_status"] != "disagrees" else
                              "invalid" if not truth["valid"] else "wrong-result")
    if truth["valid"]:
        assert got["result"]["computed"] == truth["computed_result"]
        assert got["end"] == truth["end"]
        if truth["score"] is not None:
            assert got["score"]["black"] == truth["score"]["black"]
            assert got["score"]["white"] == truth["score"]["white"]
            assert got["score"]["margin"] == truth["score"]["margin"]
    if "result_checked" in truth:
        assert got["result"]["checked"] == truth["result_checked"]
