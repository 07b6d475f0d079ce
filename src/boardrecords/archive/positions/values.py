"""The position index's rows as the import's workers make them: one record's canonical keys, the move played next
from each, and what the explorer counts, packed in one `outcome` per row, so that an unfiltered question reads the
index alone:

    bits 0-1  the result: 1 Black won, 2 White won, 3 a draw, 0 none known
    bit 2     the player who made the next move won
    bit 3     the next move was made before the pie swap, and the opponent then swapped
    bit 4     ... and the swapper won

They reach the index through the stage (archive/positions/stage.py).
"""

from __future__ import annotations

import datetime as dt
from array import array
from typing import TYPE_CHECKING, Any, NamedTuple

from ...verifier.judging.status import drawn

if TYPE_CHECKING:
    from ...verifier.keys.position_keys import PositionWatcher

POSITIONS = "_positions"  # the key of a game dict under which the worker sends the position rows
WON_B, WON_W, DRAW = 1, 2, 3
MOVER_WON, SWAPPED, SWAPPER_WON = 4, 8, 16
# The move number of the position the opening table of Conversion Go lists: after the first player's three turns
# of its refined pie (CON-5), before the swap turn. The index keeps each game's key there (`position_game`).
OPENING_PLY = 3


def _received(keys: array[int], nexts: str, outcomes: bytes, day: int | None) -> PositionValues:
    return PositionValues(keys, nexts.split("\n") if nexts else [], outcomes, day)


class PositionValues(NamedTuple):
    """The index rows of one record, as columns (the ply is the index): what a worker sends the main process."""

    keys: array[int]  # the canonical keys (signed 64-bit)
    nexts: list[str]  # the move played next, in the key's frame (one fewer: the last position has none)
    outcomes: bytes  # the outcome bits
    day: int | None  # the record's first date (YYYYMMDD)

    def __reduce__(self) -> tuple[Any, ...]:
        # Sent from a worker as one text, not a list of short texts: the main process, which writes every row and
        # is the import's one serial part, unpickles one object instead of one a position (no move text holds a
        # line break).
        return _received, (self.keys, "\n".join(self.nexts), self.outcomes, self.day)


def day_number(value: dt.date | None) -> int | None:
    """A date as the index keeps it: YYYYMMDD."""
    return value.year * 10000 + value.month * 100 + value.day if value is not None else None


def position_values(watcher: PositionWatcher, game: dict[str, Any]) -> PositionValues | None:
    """The index rows of one record, from its positions and its game row's values (winner, swap, date)."""
    found = watcher.columns()
    if not len(found.keys):
        return None
    winner = game.get("winner_colour")
    tie = winner is None and drawn(game["result_status"], game["result_method"], game["computed_result"],
                                   game["result_checked"])
    result = WON_B if winner == "B" else WON_W if winner == "W" else DRAW if tie else 0
    swapped = bool(game.get("swapped"))
    outcomes = [result] * len(found.keys)  # the last position (no next move) keeps the result alone
    if winner is not None:
        winner_player = 0 if (winner == "B") != swapped else 1
        won = result | MOVER_WON
        outcomes[:-1] = [won if mover == winner_player else result for mover in found.movers]
    swap_ply = watcher.swap_ply
    if swap_ply is not None:
        swap_bits = SWAPPED | (SWAPPER_WON if swapped and winner is not None and winner == game.get(
            "swapper_colour") else 0)
        for ply in range(min(swap_ply, len(found.nexts))):
            outcomes[ply] |= swap_bits
    return PositionValues(found.keys, found.nexts, bytes(outcomes), day_number(game.get("date_first")))
