"""The reader over real files: the Go corpus (4,939 files from three public repositories) and the conformance
records. Every corpus file either reads or fails with a FormatError naming line and column; the files listed in
PROBLEMS.tsv for a syntax or charset problem are reported; every other file reads without an error."""

from __future__ import annotations

import csv
from collections import Counter
from functools import cache

import pytest

from boardrecords.records.games import Game
from boardrecords.records.model import FormatError, Severity
from boardrecords.records.reader import read_bytes, read_file
from boardrecords.records.writer import write

from ..shared import CONFORMANCE, CORPUS

pytestmark = pytest.mark.corpus

# What a feature of the corpus's MANIFEST must be reported as (any of these diagnostic codes, or a FormatError).
REPORTED_AS = {
    "unclosed": {"truncated"},
    "no-sgf": set(),  # only a FormatError will do
    "junk-before": {"junk-before"},
    "junk-after": {"junk-after", "extra-paren"},
    "lc-propident": {"lc-propident"},
    "not-utf8": {"charset-invalid", "charset-fallback"},
    "no-CA-non-utf8": {"charset-fallback"},
    "bom": {"bom"},
    "sz-rect": {"bad-size"},
    "ha-odd": {"bad-handicap"},
    "km-odd": {"fox-komi", "komi-odd", "komi-empty", "bad-komi"},  # FMT-14 (and FMT-8 for no number)
}
MULTI = {"repeated-property", "conflicting-property", "two-moves"}  # `multi-XX`: a property given twice


def expected_codes(feature: str) -> set[str] | None:
    if feature.startswith("multi-") and feature != "multi-tree":
        return MULTI
    return REPORTED_AS.get(feature)


@cache
def corpus_outcomes() -> dict[str, tuple[list | None, FormatError | None, dict]]:
    rows = list(csv.DictReader((CORPUS / "MANIFEST.tsv").open(encoding="utf-8"), delimiter="\t"))
    out = {}
    for row in rows:
        name = row["file"]
        try:
            out[name] = (read_bytes((CORPUS / name).read_bytes(), name), None, row)
        except FormatError as err:
            out[name] = (None, err, row)
    return out


@cache
def problem_files() -> set[str]:
    return {r["file"] for r in csv.DictReader((CORPUS / "PROBLEMS.tsv").open(encoding="utf-8"), delimiter="\t")}


needs_corpus = pytest.mark.skipif(not (CORPUS / "MANIFEST.tsv").is_file(), reason=f"Go corpus absent ({CORPUS})")


@needs_corpus
def test_every_corpus_file_reads_or_fails_with_a_format_error_naming_line_and_column():
    outcomes = corpus_outcomes()
    assert len(outcomes) == 4939
    failed = {name: err for name, (_, err, _) in outcomes.items() if err is not None}
    for name, err in failed.items():
        assert err.pos is not None and err.pos.line >= 1 and err.pos.column >= 1, name
        assert str(err).startswith(f"{name}:{err.pos.line}:{err.pos.column}: ")
    # The empty file, the text file, and SGFC's deliberately broken test file.
    assert sorted(failed) == ["gnugo-regression/games/pending/nightmare.sgf",
                              "littlego/illegal-games/not-an-sgf-file.sgf", "littlego/sgfc/test.sgf"]
    records = [r for recs, _, _ in outcomes.values() if recs for r in recs]
    # 4,951 game trees, and `(CA[UTF-8])` of littlego's encoding-detection-fails.sgf: a tree whose first node lacks
    # its `;` (FMT-3), read as a record without moves.
    assert len(records) == 4952
    assert sum(len(r.moves()) for r in records) == 813_410


@needs_corpus
def test_problem_files_with_syntax_or_charset_problems_are_reported():
    outcomes = corpus_outcomes()
    checked = Counter()
    for name in problem_files():
        records, err, row = outcomes[name]
        if err is not None:
            checked["format-error"] += 1
            continue
        found = {d.code for r in records for d in r.diagnostics}
        for feature in filter(None, row["features"].split(",")):
            wanted = expected_codes(feature)
            if wanted is None:
                continue
            assert found & wanted, f"{name}: {feature} is not reported ({sorted(found)})"
            checked[feature] += 1
    assert checked["format-error"] == 3
    assert checked["multi-CA"] == 204 and checked["not-utf8"] == 21 and checked["lc-propident"] == 13


@needs_corpus
def test_files_without_problems_read_without_errors():
    outcomes = corpus_outcomes()
    clean = [name for name in outcomes if name not in problem_files()]
    assert len(clean) == 4939 - 579
    for name in clean:
        records, err, _ = outcomes[name]
        assert err is None, err
        errors = [d for r in records for d in r.diagnostics if d.severity is Severity.ERROR]
        assert not errors, (name, errors)
        assert all(r.game is Game.GO for r in records)


@needs_corpus
def test_manifest_figures_agree_with_what_is_read():
    outcomes = corpus_outcomes()
    for name, (records, err, row) in outcomes.items():
        if err is not None or row["ntrees"] == "0" or row["sgfmill_parse"] != "ok":
            continue
        first = records[0]
        if row["size"]:
            assert first.size == int(row["size"]), name
        if row["moves"] and int(row["ntrees"]) == len(records):
            assert len(first.moves()) == int(row["moves"]), name
        if row["passes"] and int(row["ntrees"]) == len(records):
            from boardrecords.records.games import MoveKind

            assert sum(m.kind is MoveKind.PASS for m in first.moves()) == int(row["passes"]), name


@needs_corpus
def test_corpus_records_survive_writing():
    outcomes = corpus_outcomes()
    names = sorted(n for n, (recs, err, _) in outcomes.items() if recs)[::25]
    for name in names:
        records = outcomes[name][0]
        again = read_bytes(write(records), name)
        typed = [[(m.colour, m.kind, m.point, m.target, m.raw) for m in r.moves()] for r in records]
        assert [[(m.colour, m.kind, m.point, m.target, m.raw) for m in r.moves()] for r in again] == typed, name


@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")
def test_conformance_records_read_with_their_game_size_and_moves():
    import json

    count = 0
    for rec in sorted(CONFORMANCE.glob("*/*.rec")):
        truth = json.loads(rec.with_name(rec.name.replace(".rec", ".truth.json")).read_text())
        (record,) = read_file(rec)
        assert record.game.value == truth["game"] and record.size == truth["size"]
        # Only readings of the result (`RE[W]`, as Little Golem writes it) are noted, never an error.
        assert {d.code for d in record.diagnostics} <= {"result-bare"}, (rec.name, record.diagnostics)
        assert record.result.raw == (truth["declared_result"] or "")
        if truth["valid"]:
            assert len(record.moves()) == truth["moves_replayed"]
        count += 1
    assert count == len(list(CONFORMANCE.glob("*/*.truth.json"))) > 0
