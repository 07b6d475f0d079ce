"""The one replay of a record that the archive needs: the verdict and, followed from the same replay, the
positions of the position index and the change list of the pattern index (the import's workers, `records reindex`
and `records fix` all analyse a record so: `archive_rows`), and the one way those index rows are written beside
their game rows (`write_index`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sqlalchemy import Connection

from ...records.model import Record
from ...verifier.judging.replay import Replay, RunLog, Step
from ...verifier.judging.verdict import Verdict, verify
from ...verifier.keys import follow
from ...verifier.keys.patterns import ChangeWatcher
from ...verifier.keys.position_keys import PositionWatcher
from ...verifier.keys.signature import SignatureWatcher
from ..core.ingest import game_values_and_line, problem_values
from ..patterns.lines import PATTERNS, pattern_values, write_patterns
from ..patterns.same_game import CANONICAL_LINE
from ..positions.stage import stage_positions
from ..positions.values import POSITIONS, position_values


def verify_for_archive(record: Record, *, positions: bool = True, patterns: bool = True
                       ) -> tuple[Verdict, PositionWatcher | None, ChangeWatcher | None, str | None]:
    """The verdict and, from the same replay, the positions (unless `positions` is off), the change list of the
    main line (unless `patterns` is off: `Settings.patterns`, RECORDS_PATTERNS=off) and the Dyer signature (Go and
    Conversion Go; verifier/keys/signature.py)."""
    position_watcher = PositionWatcher() if positions else None
    change_watcher = ChangeWatcher() if patterns else None
    signature = SignatureWatcher()
    watchers: list[PositionWatcher | ChangeWatcher | SignatureWatcher] = [
        w for w in (position_watcher, change_watcher) if w is not None]
    watchers.append(signature)

    def every(run: Replay) -> Callable[[Step], None]:
        steps = together([w(run) for w in watchers])
        if follow.COMPILED is not None and run.engine.logs_runs:
            # The runs of plain plays are followed from the engine's log, not move by move (keys/follow.py).
            run.on_run = together([w.follow_run for w in watchers])
        return steps

    verdict = verify(record, watch=every)
    return verdict, position_watcher, change_watcher, signature.signature()


_Seen = TypeVar("_Seen", Step, RunLog)


def together(steps: Sequence[Callable[[_Seen], None]]) -> Callable[[_Seen], None]:
    """One function that gives each step (or run) to every one of `steps`, in order. The import's replay sees three
    of them (positions, change list, signature) at every move: called one after the other, not from a loop over a
    list, whose own cost was about 1% of an import's CPU time."""
    if len(steps) == 1:
        return steps[0]
    if len(steps) == 2:
        first, second = steps

        def two(s: _Seen) -> None:
            first(s)
            second(s)

        return two
    if len(steps) == 3:
        first, second, third = steps

        def three(s: _Seen) -> None:
            first(s)
            second(s)
            third(s)

        return three

    def many(s: _Seen) -> None:
        for each in steps:
            each(s)

    return many


def index_keys(record: Record) -> array[int]:
    """The keys of the record's positions, as its import gave them to the position index (the same replay, the
    change list left out): how a deleted record's rows are found again."""
    watcher = PositionWatcher()
    verify(record, watch=watcher)
    return watcher.columns().keys


def archive_rows(record: Record, *, source_file: str | None, source_index: int | None = None,
                 positions: bool = True, patterns: bool = True) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The record's `game` row (with its signature, and under POSITIONS and PATTERNS its index rows: see
    `write_index`) and its `problem` rows, from one replay."""
    verdict, watcher, changes, signature = verify_for_archive(record, positions=positions, patterns=patterns)
    values, line = game_values_and_line(record, verdict, source_file=source_file, source_index=source_index)
    # The canonical line the keys were taken from, for the near-duplicate check of the import's writer (which
    # would otherwise compute it again): not a column.
    values[CANONICAL_LINE] = ";".join(line)
    values["signature"] = signature  # the Dyer signature (verifier/keys/signature.py)
    if watcher is not None:  # RECORDS_POSITION_INDEX=0: no index rows (`records reindex` makes them later)
        values[POSITIONS] = position_values(watcher, values)  # the position index (archive/positions/)
    values[PATTERNS] = pattern_values(changes)  # the change list for pattern search (archive/patterns/)
    return values, problem_values(verdict)


def game_columns(values: dict[str, Any]) -> dict[str, Any]:
    """The columns of the `game` row among `archive_rows`' values (its index rows and canonical line left out)."""
    return {k: v for k, v in values.items() if k not in (POSITIONS, PATTERNS, CANONICAL_LINE)}


def write_index(conn: Connection, games: Sequence[tuple[int, dict[str, Any]]]) -> tuple[int, int]:
    """The index rows of games (id, `archive_rows` values) written inside the caller's transaction: their positions
    to the stage, their change lists to the pattern index; (positions, change lists) written."""
    staged = stage_positions(conn, [(gid, values.get(POSITIONS)) for gid, values in games])
    lines = write_patterns(conn, [(gid, values["game"], values["size"], values.get(PATTERNS))
                                  for gid, values in games])
    return staged, lines
