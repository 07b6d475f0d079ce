"""`verify_files`: every record of the files and folders named, judged in this process or in worker processes, one
verdict per record in the files' order, each holding nothing of its file."""

from __future__ import annotations

import gc
import json
import pickle
import shutil
from pathlib import Path

import pytest

from boardrecords.records.files import FileFailure
from boardrecords.records.model import Record
from boardrecords.verifier.files import RecordVerdict, verify_files

from ..shared import EXAMPLES, run

GO = EXAMPLES / "go"


def _names(outcomes: list[RecordVerdict | FileFailure]) -> list[tuple[str, int | None]]:
    return [(o.file, o.index if isinstance(o, RecordVerdict) else None) for o in outcomes]


def test_every_record_of_a_folder_in_the_order_of_its_files() -> None:
    outcomes = list(verify_files([GO]))
    files = sorted(str(p) for p in GO.rglob("*") if p.suffix in (".rec", ".sgf"))
    assert list(dict.fromkeys(o.file for o in outcomes)) == files
    assert all(isinstance(o, RecordVerdict) for o in outcomes)
    assert any(o.passes for o in outcomes) and not all(o.passes for o in outcomes)  # examples/go/invalid/


def test_one_path_is_one_path_not_its_letters() -> None:
    assert _names(list(verify_files(GO))) == _names(list(verify_files(str(GO)))) == _names(list(verify_files([GO])))


def test_the_verdicts_are_those_of_records_verify_json() -> None:
    done = run("verify", "--json", GO)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o.to_json() for o in verify_files([GO])] == lines


def test_paths_that_cannot_be_read_are_failures_in_their_place(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sgf"
    broken.write_text("a letter, not a record")
    good = GO / "handicap.rec"
    outcomes = list(verify_files([good, tmp_path / "absent.rec", broken, good]))
    assert _names(outcomes) == [(str(good), 0), (str(tmp_path / "absent.rec"), None), (str(broken), None),
                                (str(good), 0)]
    absent, unreadable = outcomes[1], outcomes[2]
    assert isinstance(absent, FileFailure) and absent.unopened and "no such file" in absent.message
    assert isinstance(unreadable, FileFailure) and not unreadable.unopened


def test_options_reach_the_verifier() -> None:
    record = EXAMPLES / "quentin" / "black-chain.rec"
    (plain,) = verify_files([record])
    (complete,) = verify_files([record], require_complete=True, variations=True)
    assert isinstance(plain, RecordVerdict) and isinstance(complete, RecordVerdict)
    assert complete.verdict.require_complete and not plain.verdict.require_complete


def test_it_is_lazy_each_file_is_read_when_its_verdicts_are_asked_for(tmp_path: Path) -> None:
    for name in ("a.rec", "b.rec"):
        shutil.copy(GO / "handicap.rec", tmp_path / name)
    outcomes = verify_files([tmp_path])
    first = next(outcomes)
    shutil.copy(EXAMPLES / "squer" / "sweeps.rec", tmp_path / "b.rec")  # changed before it is read
    second = next(outcomes)
    assert isinstance(first, RecordVerdict) and isinstance(second, RecordVerdict)
    assert (first.verdict.game, second.verdict.game) == ("go-ing", "squer")


def test_a_verdict_holds_nothing_of_its_file(tmp_path: Path) -> None:
    path = tmp_path / "long.sgf"
    letters = "abcdefghijklmnopqrs"
    moves = "".join(f";{'BW'[i % 2]}[{letters[i % 19]}{letters[i // 19 % 19]}]" for i in range(600))
    path.write_text(f"(;GM[1]SZ[19]RE[B+R]{moves})")  # moves onto occupied points: problems with positions
    (outcome,) = verify_files([path])
    assert isinstance(outcome, RecordVerdict) and outcome.verdict.problems
    assert all(p.pos is not None for p in outcome.verdict.problems)
    gc.collect()
    assert not [o for o in gc.get_objects() if isinstance(o, Record) and o.source == str(path)]
    # What a worker sends back is the verdict alone: a few hundred bytes, not the file.
    assert len(pickle.dumps(outcome)) < path.stat().st_size


@pytest.mark.parametrize("workers", [2, None])
def test_worker_processes_give_the_same_verdicts_in_the_same_order(tmp_path: Path, workers: int | None) -> None:
    sources = sorted(p for p in EXAMPLES.rglob("*.rec"))
    for i in range(120):  # the pool starts from 100 files on (common/workers.py)
        shutil.copy(sources[i % len(sources)], tmp_path / f"{i:03}.rec")
    here = [o.to_json() if isinstance(o, RecordVerdict) else o.message for o in verify_files([tmp_path])]
    pool = [o.to_json() if isinstance(o, RecordVerdict) else o.message
            for o in verify_files([tmp_path], workers=workers)]
    assert pool == here and len(here) >= 120
