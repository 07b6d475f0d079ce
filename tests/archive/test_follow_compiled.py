"""The import's watchers following Go's compiled runs from the engine's log (verifier/keys/_follow.c, the log of
verifier/rules/_go.c) against the plain steps: the same game row, position index rows, change list and signature
for every conformance record, the Go corpus (a sample), and random Go games with captures, suicides, passes, marks,
setup and refused moves. Within one move the points a capture took off may come in another order in the change
list (matching reads the board after each move), so each move's events are compared as a set."""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest
from hypothesis import given, settings

from boardrecords.archive.store import record_rows
from boardrecords.records.model import FormatError
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.keys import follow
from boardrecords.verifier.rules import go_ing

from ..shared import CONFORMANCE, CORPUS
from ..verifier.test_go_compiled import go_records

needs_compiled = pytest.mark.skipif(follow.COMPILED is None or go_ing.COMPILED is None,
                                    reason="the compiled runs (_go, _follow) were not built")


def _rows(data: bytes, compiled: bool) -> list[Any]:
    out = []
    with pytest.MonkeyPatch.context() as m:
        if not compiled:
            m.setattr(follow, "COMPILED", None)
        for record in read_bytes(data):
            values, problems = record_rows.archive_rows(record, source_file="x.sgf")
            values = dict(values)
            lines = values.get("_patterns")
            if lines is not None:
                events = array("I")
                events.frombytes(lines[3])
                moves: dict[int, set[int]] = {}
                for e in events:
                    moves.setdefault(e >> 15, set()).add(e)
                values["_patterns"] = (*lines[:3], sorted((ply, sorted(e)) for ply, e in moves.items()))
            out.append((repr(values), problems))
    return out


def _same(data: bytes) -> None:
    assert _rows(data, True) == _rows(data, False)


@needs_compiled
@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")
def test_every_conformance_record_gives_the_same_rows() -> None:
    files = sorted(p for p in CONFORMANCE.rglob("*") if p.suffix in (".rec", ".sgf"))
    assert len(files) > 100
    for path in files:
        try:
            _same(path.read_bytes())
        except FormatError:  # unreadable (FMT-1): nothing is replayed
            continue


@needs_compiled
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the Go corpus is absent ({CORPUS})")
def test_a_sample_of_the_corpus_gives_the_same_rows() -> None:
    files = sorted(CORPUS.rglob("*.sgf"))
    for path in random.Random(7).sample(files, min(300, len(files))):
        try:
            _same(path.read_bytes())
        except FormatError:
            continue


@needs_compiled
@settings(max_examples=200, deadline=None)
@given(go_records())
def test_random_games_give_the_same_rows(data: bytes) -> None:
    _same(data)


@needs_compiled
def test_long_games_with_captures_and_suicides_give_the_same_rows() -> None:
    # 19x19 games of random plays: many captures and suicides (ING-3) and superko refusals (ING-4); a pass and a
    # PL (ignored, ING-8) in the middle end a compiled run, and the plain steps go on from where the run left.
    rng = random.Random(11)
    letters = "abcdefghijklmnopqrs"
    for _ in range(20):
        moves = []
        colour = "B"
        for n in range(rng.randrange(100, 400)):
            node = f";{colour}[{rng.choice(letters)}{rng.choice(letters)}]"
            if n % 37 == 36:
                node = f";{colour}[]"
            elif n % 53 == 52:
                node += f"PL[{'W' if colour == 'B' else 'B'}]"
            moves.append(node)
            colour = "W" if colour == "B" else "B"
        _same(("(;GM[1]FF[4]SZ[19]AB[dd]AW[pp]" + "".join(moves) + ")").encode())


@needs_compiled
def test_the_watchers_follow_runs_not_steps() -> None:
    # With the compiled follower the watchers see the plain plays as runs: no Step for them.
    record = read_bytes(b"(;GM[1]SZ[9];B[ee];W[cc];B[gg];W[cg];B[gc];W[];B[])")[0]
    seen: list[object] = []

    def watch(run: Replay) -> Any:
        def on_run(log: Any) -> None:
            seen.append(("run", log.before, log.played))

        run.on_run = on_run
        return lambda step: seen.append(("step", step.number))

    from boardrecords.verifier.judging.verdict import verify

    verify(record, watch=watch)
    assert seen == [("run", 0, 5), ("step", 6), ("step", 7)]
