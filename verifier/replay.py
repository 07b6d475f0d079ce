"""The replay driver: plays a line of a record through its game's engine and yields every step."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..records.model import Colour, Move, Node, Record
from .engine import Change, Engine, IllegalMove


@dataclass(slots=True)
class Step:
    """One move of the replay: its number, the move, the node it came from, who played it, and what it changed.

    `board` is the position after the move (rows of Colour | None, row 0 at the top) when the replay was asked
    for snapshots; `illegal` is set on the last step when the move was refused (the position is then the one
    before it, and the replay stops there).
    """

    number: int  # 1-based move number
    move: Move
    node: Node
    colour: Colour
    player: str | None  # the player who made the move (after any swap)
    change: Change
    board: list[list[Colour | None]] | None = None
    to_move: Colour | None = None  # colour to move after this step
    player_to_move: str | None = None
    illegal: IllegalMove | None = None


def replay(record: Record, *, line: list[Node] | None = None, snapshots: bool = False) -> Iterator[Step]:
    """Yield every step of the main line (or `line`), stopping after the first illegal move."""
    raise NotImplementedError


def new_engine(record: Record) -> Engine:
    """An engine for the record's game, size, komi and setup, before the first move."""
    raise NotImplementedError
