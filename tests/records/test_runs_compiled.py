"""The parser's compiled runs of plain moves (records/_runs.c, `grammar.COMPILED_CHAIN`) against the plain loop:
the same trees (every node's class, move, properties, position, children and parent), the same diagnostics and the
same errors, on every conformance record, the bundled examples, a sample of the real corpus, and generated
collections that mix runs with variations, other properties, whitespace, moves off the board and broken syntax."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records import grammar
from boardrecords.records.model import FormatError, Node, Record
from boardrecords.records.reader import read_bytes

from ..shared import CONFORMANCE

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "go"
needs_compiled = pytest.mark.skipif(grammar.COMPILED_CHAIN is None, reason="the compiled runs (_runs) were not built")


def _node_facts(node: Node, index: dict[int, int]) -> tuple[object, ...]:
    move = node.move
    pos = node.pos
    return (type(node).__name__, None if move is None else (move.colour, move.kind, move.point, move.target,
                                                           move.line, move.raw, move.rule),
            {k: (p.ident, p.values, p.raw_ident) for k, p in node.properties.items()},
            None if pos is None else (pos.line, pos.column, pos.offset), type(node.children).__name__,
            len(node.children), None if node.parent is None else index[id(node.parent)])


def _tree(record: Record) -> list[tuple[object, ...]]:
    """Every node of the tree, depth first, with its parent as an index into the list (so links are compared)."""
    out: list[tuple[object, ...]] = []
    index: dict[int, int] = {}
    todo = [record.root]
    while todo:
        node = todo.pop()
        index[id(node)] = len(out)
        out.append(_node_facts(node, index))
        todo.extend(reversed(node.children))
    return out


def _read(data: bytes, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        if not compiled:
            m.setattr(grammar, "COMPILED_CHAIN", None)
        try:
            records = read_bytes(data, "game.sgf")
        except FormatError as err:
            return ("error", err.describe())
        return [(_tree(r), [(p.code, p.message, p.rule, p.move, None if p.pos is None else p.pos.offset)
                            for p in r.diagnostics], r.size, r.game) for r in records]


def _same(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _read(data, True, monkeypatch) == _read(data, False, monkeypatch)


@needs_compiled
@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")
def test_every_conformance_record_and_example_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(p for folder in (CONFORMANCE, ROOT / "examples") if folder.is_dir() for p in folder.rglob("*")
                   if p.suffix in (".rec", ".sgf"))
    assert len(files) > 100, "the conformance records are missing"
    for path in files:
        _same(path.read_bytes(), monkeypatch)


@needs_compiled
@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the corpus is absent ({CORPUS})")
def test_a_sample_of_the_corpus_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(CORPUS.rglob("*.sgf"))[::10]
    assert len(files) > 300
    for path in files:
        _same(path.read_bytes(), monkeypatch)


@needs_compiled
def test_moves_the_cache_lacks_and_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    moves = "".join(f";{'BW'[i % 2]}[{chr(97 + i % 19)}{chr(97 + i // 19 % 19)}]" for i in range(9000))
    _same(f"(;GM[1]SZ[19]{moves})".encode(), monkeypatch)  # runs of 4,096 nodes at most, one after the other
    _same(b"(;GM[1]SZ[9];B[zz];W[];B[tt];W[A-];B[ee]\n ;W[ff](;B[gg];W[hh])(;B[hh]C[x];W[gg]))", monkeypatch)
    _same(b"(;B[aa];W[bb];B[cc])", monkeypatch)  # the first node of the tree in a run: the root
    _same(b"(;GM[Cation]SZ[6];B[aa];W[swap-sides];B[bb-cc];W[sweep-c])", monkeypatch)


_PIECES = [";B[dd]", ";W[pp]", "; B[qd]\n", ";W[]", ";B[zz]", ";W[tt]", ";B[dd]C[a;b]", ";W[ee]LB[ee:A]", "(", ")",
           ";", "C[note]", " ", "\r\n", ";B[AB]", ";W[a-]", "[", "]", ";B[dd", "B[cc]", ";AB[aa][bb]"]


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40), st.sampled_from(["", "GM[1]SZ[19]", "GM[1]SZ[9]",
                                                                          "GM[Squer]SZ[5]"]))
def test_generated_collections_read_the_same(pieces: list[str], header: str) -> None:
    data = f"(;{header}{''.join(pieces)})".encode()
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same(data, monkeypatch)
