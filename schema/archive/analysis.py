"""The one replay of a record that the archive needs: the verdict and, followed from the same replay, the
positions of the position index and the change list of the pattern index (the import's workers and `records
reindex` both analyse a record so).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

from ...records.model import Record
from ...verifier.patterns import ChangeWatcher
from ...verifier.positions import PositionWatcher
from ...verifier.replay import Replay, Step
from ...verifier.signature import SignatureWatcher
from ...verifier.verdict import Verdict, verify
from ..patterns.lines import enabled


def verify_for_archive(record: Record, *, positions: bool = True
                       ) -> tuple[Verdict, PositionWatcher | None, ChangeWatcher | None, str | None]:
    """The verdict and, from the same replay, the positions (unless `positions` is off), the change list of the
    main line (unless RECORDS_PATTERNS=off) and the Dyer signature (Go and Conversion Go; verifier/signature.py)."""
    position_watcher = PositionWatcher() if positions else None
    change_watcher = ChangeWatcher() if enabled() else None
    signature = SignatureWatcher()
    watchers: list[PositionWatcher | ChangeWatcher | SignatureWatcher] = [
        w for w in (position_watcher, change_watcher) if w is not None]
    watchers.append(signature)

    def every(run: Replay) -> Callable[[Step], None]:
        steps = [w(run) for w in watchers]

        def step(s: Step) -> None:
            for follow in steps:
                follow(s)

        return step

    verdict = verify(record, watch=every)
    return verdict, position_watcher, change_watcher, signature.signature()


def index_keys(record: Record) -> array[int]:
    """The keys of the record's positions, as its import gave them to the position index (the same replay, the
    change list left out): how a deleted record's rows are found again."""
    watcher = PositionWatcher()
    verify(record, watch=watcher)
    return watcher.columns().keys
