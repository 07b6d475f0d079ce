"""Memory of an import: a large file's records are all let go before its trees are collected (common/memory.py),
and the rows waiting for a commit are bounded in bytes (PENDING_BYTES)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from boardrecords.archive.store import importer
from boardrecords.archive.store.access import open_archive
from boardrecords.common import memory
from boardrecords.common.memory import LARGE_FILE
from boardrecords.records.model import Record


def _long_record(moves: int) -> str:
    letters = "abcdefghijklmnopqrs"
    return "(;GM[1]SZ[19]" + "".join(f";{'BW'[i % 2]}[{letters[i % 19]}{letters[i // 19 % 19]}]"
                                     for i in range(moves)) + ")"


def test_no_record_of_a_file_is_alive_when_its_trees_are_collected(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "long.sgf"
    path.write_text(_long_record(2000))
    raw = path.read_bytes()
    alive: list[int] = []

    def release(p: str) -> None:
        gc.collect()
        alive.append(sum(1 for o in gc.get_objects() if isinstance(o, Record) and o.raw == raw))

    monkeypatch.setattr(importer, "release_file", release)
    result = importer.process_file(str(path))
    assert len(result.rows) == 1 and not result.failures
    assert alive == [0]


def test_large_records_are_committed_in_batches_bounded_in_bytes(tmp_path: Path, monkeypatch) -> None:
    for i in range(6):
        (tmp_path / f"g{i}.sgf").write_text(_long_record(3000 + i))
    batches: list[int] = []
    write = importer.write_rows

    def counted(engine, rows, *args):
        batches.append(len(rows))
        return write(engine, rows, *args)

    monkeypatch.setattr(importer, "write_rows", counted)
    one_row = importer.row_bytes(importer.process_file(str(tmp_path / "g0.sgf")).rows[0][0])
    monkeypatch.setattr(importer, "PENDING_BYTES", 2 * one_row)
    engine = open_archive(str(tmp_path / "a.db"), create=True)
    try:
        summary = importer.Importer(engine, workers=1).run(sorted(tmp_path.glob("*.sgf")))
    finally:
        engine.dispose()
    assert summary.new == 6
    assert batches == [2, 2, 2]


@pytest.mark.parametrize(("size", "trimmed"), [(10, False), (LARGE_FILE - 1, False), (LARGE_FILE, True)])
def test_only_a_large_file_is_collected_and_trimmed_after(tmp_path: Path, monkeypatch, size: int,
                                                          trimmed: bool) -> None:
    # A full collection and a trim after each of thousands of small files would cost more than they free.
    calls: list[str] = []
    monkeypatch.setattr(memory, "give_back", lambda: calls.append("trim"))
    path = tmp_path / "file.sgf"
    path.write_bytes(b"x" * size)
    memory.release_file(str(path))
    assert calls == (["trim"] if trimmed else [])
