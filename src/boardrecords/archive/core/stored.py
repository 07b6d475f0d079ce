"""Stored rows read back: the record from its original bytes (`parse_row`, for `show`, `export --canonical`,
`replay ID`, `fix`, `reindex`), and the stored verdict as the verifier's own Verdict, so that `show` renders what
`verify` renders.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...records.model import Colour, FormatError, Problem, Record
from ...records.properties import read_result
from ...records.reader import read_bytes
from ...verifier.judging.status import ResultStatus
from .models import GameRow, ProblemRow

if TYPE_CHECKING:
    from ...verifier.judging.verdict import Verdict


def parse_row(row: GameRow) -> Record:
    """The stored record read back from its original bytes, named after its source for messages."""
    records = read_bytes(row.raw, row.source_file or f"archive #{row.id}")
    if not records:
        raise FormatError("the stored bytes hold no record", None, f"archive #{row.id}", "no-game")
    record = records[0]
    record.index = row.source_index
    return record


# The root properties that are the record's moves and setup: not part of its header.
SETUP = frozenset({"B", "W", "AB", "AW", "AE"})


def header_of(record: Record) -> dict[str, str]:
    """The header of a record: its root properties but the setup, each as its values joined (a property written
    twice or with several values reads `a, b`)."""
    props = record.root.properties
    return {ident: ", ".join(p.values) for ident, p in props.items() if ident not in SETUP}


def stored_verdict(row: GameRow, problems: Sequence[ProblemRow]) -> Verdict:
    """The Verdict that `verify` gave the record when it was imported, from its row and its problem rows."""
    # The verifier, only when a verdict is read back: the callers of parse_row need the reader alone.
    from ...verifier.judging.verdict import Verdict
    from ...verifier.rules.engine import Score

    declared, _ = read_result(row.result)
    score = None
    if row.score_black is not None and row.score_white is not None:
        score = Score(row.score_black, row.score_white, row.komi or 0.0)
    return Verdict(
        game=row.game,
        size=row.size,
        valid=row.valid,
        problems=[Problem.from_json(p.model_dump()) for p in problems],
        moves_replayed=row.moves_replayed,
        moves_total=row.move_count,
        end=row.end,
        winner_colour=Colour(row.winner_colour) if row.winner_colour else None,
        winner_player=row.winner_player,
        swapped=row.swapped,
        black_player=row.black_final,
        white_player=row.white_final,
        declared=declared,
        computed=row.computed_result,
        score=score,
        status=ResultStatus(row.result_status),
        result_checked=row.result_checked,
        result_note=row.result_note,
        replayed=row.replayed,
    )
