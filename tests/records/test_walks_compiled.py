"""The compiled walks of a tree (records/_runs.c: `main_line`, `let_go`) against the plain loops of records/model.py:
the same main line, node for node, and the same tree once its cycles are broken (no node knows its parent or its
position, no property its node, and exactly the moves that hold their own position dropped), on every conformance
record, the bundled examples, a sample of the corpus, trees made in code and generated collections with variations,
other properties and moves that do not fit."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records import model
from boardrecords.records.model import FormatError, Node, Record
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import new_record

from ..shared import CONFORMANCE

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "go"
needs_compiled = pytest.mark.skipif(model.COMPILED_WALKS is None, reason="the compiled walks (_runs) were not built")


def _nodes(record: Record) -> list[Node]:
    out, todo = [], [record.root]
    while todo:
        node = todo.pop()
        out.append(node)
        todo.extend(reversed(node.children))
    return out


def _after_let_go(record: Record) -> list[tuple[object, ...]]:
    """Every node, depth first, once the record is let go: what it still holds."""
    record.let_go()
    facts = []
    for node in _nodes(record):
        props = node.extra_properties or {}
        facts.append((node.parent, node._pos, None if node.move is None else node.move.raw, len(node.children),
                      [(p.ident, p.values, p._node, p._pos) for p in props.values()]))
    return facts


def _walks(data: bytes, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        if not compiled:
            m.setattr(model, "COMPILED_WALKS", None)
        try:
            records = read_bytes(data, "game.sgf")
        except FormatError as err:
            return ("error", err.describe())
        out = []
        for record in records:
            every = {id(n): k for k, n in enumerate(_nodes(record))}
            line = [every[id(n)] for n in record.main_line()]
            out.append((line, _after_let_go(record)))
        return out


def _same(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _walks(data, True, monkeypatch) == _walks(data, False, monkeypatch)


@needs_compiled
@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")
def test_every_conformance_record_and_example_walks_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(p for folder in (CONFORMANCE, ROOT / "examples") if folder.is_dir() for p in folder.rglob("*")
                   if p.suffix in (".rec", ".sgf"))
    assert len(files) > 100, "the conformance records are missing"
    for path in files:
        _same(path.read_bytes(), monkeypatch)


@needs_compiled
@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the corpus is absent ({CORPUS})")
def test_a_sample_of_the_corpus_walks_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(CORPUS.rglob("*.sgf"))[::10]
    assert len(files) > 300
    for path in files:
        _same(path.read_bytes(), monkeypatch)


@needs_compiled
def test_the_walks_of_a_record_made_in_code(monkeypatch: pytest.MonkeyPatch) -> None:
    def made(compiled: bool) -> object:
        with monkeypatch.context() as m:
            if not compiled:
                m.setattr(model, "COMPILED_WALKS", None)
            record = new_record("go-ing", 9, ["B[ee]", "W[cc]", "B[gg]"], black="Black")
            line = [n.move.raw if n.move else None for n in record.main_line()]
            return line, _after_let_go(record)
    assert made(True) == made(False)
    assert made(True)[0] == ["ee", "cc", "gg"]  # type: ignore[index]


@pytest.mark.parametrize("compiled", [True, False])
def test_let_go_leaves_no_cycle_a_collector_would_free(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # On either path: once let go, no node knows its parent, and the move off the board (which holds its own
    # position, and through it the node) is dropped while the others stay.
    if not compiled:
        monkeypatch.setattr(model, "COMPILED_WALKS", None)
    elif model.COMPILED_WALKS is None:
        pytest.skip("the compiled walks (_runs) were not built")
    record = read_bytes(b"(;GM[1]SZ[9];B[ee](;W[cc]C[x];B[zz])(;W[dd];B[ff]))")[0]
    nodes = _nodes(record)
    record.let_go()
    assert all(n.parent is None for n in nodes) and len(nodes) == 6
    assert [n.move.raw if n.move else None for n in nodes] == [None, "ee", "cc", None, "dd", "ff"]


_PIECES = [";B[dd]", ";W[pp]", ";W[]", ";B[zz]", ";B[dd]C[a;b]", ";W[ee]LB[ee:A]", "(", ")", ";", "C[note]",
           ";B[AB]", ";W[a-]", ";AB[aa][bb]", "(;B[cc]", ";W[cd])"]


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40), st.sampled_from(["GM[1]SZ[19]", "GM[1]SZ[9]",
                                                                          "GM[Squer]SZ[5]", "GM[Cation]SZ[6]"]))
def test_generated_collections_walk_the_same(pieces: list[str], header: str) -> None:
    data = f"(;{header}{''.join(pieces)})".encode()
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same(data, monkeypatch)
