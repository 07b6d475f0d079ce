"""`Record.let_go`: once a record is judged, verify and import break its tree's cycles, so that the tree is freed by
reference counting at once rather than left to the cyclic collector (which spent a seventh of verifying the corpus
rescanning trees already judged). No node of a judged record may be left for the collector."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardrecords.records.model import FormatError, Node
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.files import verify_files
from boardrecords.verifier.judging.verdict import verify

from ..shared import CONFORMANCE, EXAMPLES


def _files() -> list[Path]:
    return sorted(p for folder in (EXAMPLES, CONFORMANCE) if folder.is_dir() for p in folder.rglob("*")
                  if p.suffix in (".rec", ".sgf"))


@pytest.fixture
def collector_saves_all() -> Iterator[list[object]]:
    """The objects the collector finds unreachable, kept for inspection (and the collector off meanwhile, so that
    what a test makes stays in the young generation, which `gc.collect(0)` looks at quickly however large the
    heap of the whole test session is)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")
def test_no_node_of_a_judged_record_is_left_for_the_collector(collector_saves_all: list[object]) -> None:
    files = _files()
    assert len(files) > 100
    for path in files:
        try:
            records = read_bytes(path.read_bytes(), str(path))
        except FormatError:
            continue
        for record in records:
            verify(record, variations=True)
            record.let_go()
        del records, record
        gc.collect(0)  # the young generation: all this file made (the collector is off), not the suite's heap
        left = [o for o in collector_saves_all if isinstance(o, Node)]
        assert not left, f"{path}: {len(left)} nodes left for the collector"
        collector_saves_all.clear()


def test_without_let_go_the_tree_is_cyclic(collector_saves_all: list[object]) -> None:
    """The reason for let_go (a check that the test above can fail): a judged tree left alone is garbage only the
    collector finds."""
    record = read_bytes((EXAMPLES / "go" / "handicap.rec").read_bytes())[0]
    verify(record)
    del record
    gc.collect(0)
    assert any(isinstance(o, Node) for o in collector_saves_all)


def test_verify_files_lets_every_record_go(collector_saves_all: list[object]) -> None:
    verdicts = list(verify_files([EXAMPLES]))
    assert len(verdicts) > 20 and all(v.verdict.to_json() for v in verdicts)  # type: ignore[union-attr]
    gc.collect(0)
    assert not [o for o in collector_saves_all if isinstance(o, Node)]
