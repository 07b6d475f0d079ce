"""The example records (examples/) and the records quoted in docs/format.md: they read as documented, the legal
ones verify, and each invalid one fails at the move its comment names, for the rule it names."""

from __future__ import annotations

import re

import pytest

from boardrecords.records.games import Game
from boardrecords.records.model import Severity
from boardrecords.records.reader import read_bytes, read_file
from boardrecords.verifier.judging.verdict import verify

from ..shared import ROOT

EXAMPLES = ROOT / "examples"
OWN = sorted(p for p in EXAMPLES.rglob("*.rec"))
LEGAL = [p for p in OWN if "invalid" not in p.parts]
INVALID = [p for p in OWN if "invalid" in p.parts]
GAME_DIRS = {"go": Game.GO, "conversion-go": Game.CONVERSION_GO, "cation": Game.CATION, "quentin": Game.QUENTIN,
             "squer": Game.SQUER}


def test_every_game_has_two_or_three_legal_examples_and_one_invalid():
    for folder, game in GAME_DIRS.items():
        legal = [p for p in LEGAL if p.parent.name == folder]
        invalid = [p for p in INVALID if p.parent.parent.name == folder]
        assert 2 <= len(legal) <= 3, folder
        assert len(invalid) == 1, folder
        for path in legal + invalid:
            assert read_file(path)[0].game is game


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_legal_examples_are_complete_and_pass_verification(path):
    (record,) = read_file(path)
    assert not record.diagnostics
    assert record.black and record.white and record.event and record.date.iso and record.result.declared
    assert any(n.comment for n in [record.root, *record.main_line()])
    verdict = verify(record)
    assert verdict.valid and verdict.passes, verdict.problems
    assert (verdict.end is not None and verdict.end != "unfinished") or record.moves()[-1].kind.value == "resign"


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.parent.parent.name)
def test_invalid_examples_fail_where_their_comment_says(path):
    (record,) = read_file(path)
    comment = record.root.comment or ""
    m = re.match(r"Move (\d+) is illegal: .*\((?:[^()]*, )?([A-Z]+-\d+)\)\.$", comment, re.S)
    assert m is not None, comment
    verdict = verify(record)
    first = verdict.first_error
    assert not verdict.valid and first is not None
    assert (first.move, first.rule) == (int(m.group(1)), m.group(2))


def test_the_records_quoted_in_the_documentation_read_cleanly_and_verify():
    doc = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n(\(;.*?)\n```", doc, re.S)
    assert len(blocks) >= 6
    games = set()
    for block in blocks:
        (record,) = read_bytes(block.encode(), "format.md")
        assert not [d for d in record.diagnostics if d.severity is Severity.ERROR]
        assert verify(record).passes, block
        games.add(record.game)
    assert games == set(Game)


def test_the_littlego_files_keep_their_licence():
    folder = EXAMPLES / "go" / "littlego"
    assert (folder / "LICENSES" / "Apache-2.0.txt").is_file()
    for path in folder.glob("*.sgf"):
        assert read_file(path)[0].game is Game.GO
