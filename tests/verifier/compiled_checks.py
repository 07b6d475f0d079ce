"""What the tests of every engine's compiled runs share: a record's verdicts and its quiet replay with the compiled
path on and off (the engine module's COMPILED set to None), the comparison of both, and the plays the engine itself
made during a replay."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from boardrecords.records.games import MoveKind
from boardrecords.records.model import FormatError, Record
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.judging.verdict import verify

from ..shared import CONFORMANCE

# The engine's state after a quiet replay, as a test compares it (the steps the replay yielded are added).
State = Callable[[Replay], object]


def verdicts(module: ModuleType, data: bytes, compiled: bool) -> list[dict[str, object]]:
    """The verdict of every record of `data` (variations replayed too), with `module`'s compiled path or without."""
    with pytest.MonkeyPatch.context() as m:
        if not compiled:
            m.setattr(module, "COMPILED", None)
        return [verify(record, variations=True).to_json() for record in read_bytes(data)]


def states(module: ModuleType, data: bytes, compiled: bool, state: State) -> list[object]:
    """After the quiet replay of each record of `data`: the steps it yielded (number, refusal's code, rule and
    message), the moves played, and `state(run)`."""
    out: list[object] = []
    with pytest.MonkeyPatch.context() as m:
        if not compiled:
            m.setattr(module, "COMPILED", None)
        for record in read_bytes(data):
            run = Replay(record, quiet=True)
            steps = [(s.number, *((s.illegal.code, s.illegal.rule, s.illegal.message) if s.illegal else ()))
                     for s in run]
            out.append((steps, run.steps_played, state(run)))
    return out


def same(module: ModuleType, data: bytes, state: State) -> None:
    """The compiled path and the plain one give the same verdicts and leave the engine in the same state."""
    assert verdicts(module, data, True) == verdicts(module, data, False)
    assert states(module, data, True, state) == states(module, data, False, state)


def conformance_files() -> list[Path]:
    if not CONFORMANCE.is_dir():
        pytest.skip(f"conformance records absent ({CONFORMANCE})")
    files = sorted(p for p in CONFORMANCE.rglob("*") if p.suffix in (".rec", ".sgf"))
    assert len(files) > 100
    return files


def same_conformance_verdicts(module: ModuleType, game_prefix: str) -> None:
    """Every conformance record has the same verdict both ways; more than ten of them are of the game."""
    files = conformance_files()
    assert sum(p.name.startswith(game_prefix) for p in files) > 10
    for path in files:
        data = path.read_bytes()
        try:
            plain = verdicts(module, data, False)
        except FormatError:  # unreadable (FMT-1): nothing is replayed
            continue
        assert verdicts(module, data, True) == plain, path


def engine_plays(record: Record) -> tuple[Replay, list[MoveKind]]:
    """`record` replayed quietly: the replay, and the kinds of the moves the engine's own `play` made (those the
    compiled runs did not)."""
    run = Replay(record, quiet=True)
    engine = run.engine
    calls: list[Any] = []
    original = engine.play

    def play(move: Any, marks: Any = None) -> Any:
        calls.append(move)
        return original(move, marks)

    engine.play = play  # type: ignore[method-assign]
    assert list(run) == []
    return run, [m.kind for m in calls]
