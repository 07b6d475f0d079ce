"""The position a command is asked for, from its options: moves typed in (`explore MOVES`, `search --after`), a
record (`--like`, `--move`) or stones (`--stones`, `--to-move`). The positions themselves are
verifier/keys/targets.py's.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..common.errors import InputError
from ..records.model import Colour
from ..records.notation import NotationError, parse_point_text
from .common import CommandError, run_settings

if TYPE_CHECKING:
    from ..archive.core.filters import Filters
    from ..archive.front import Archive
    from ..records.games import Game
    from ..records.model import Record
    from ..records.points import Point
    from ..verifier.keys.targets import Target


def first_record(path: Path) -> Record:
    """The first record of the file `path`: a file that does not read ends the command (FormatError: 1), a path
    that cannot be opened too (InputRefused: 2), as every command that reads a file."""
    from ..records.reader import read_file

    records = read_file(path, settings=run_settings())
    if not records:
        raise CommandError(f"{path}: no record")
    return records[0]


def resolve(archive: Archive, filters: Filters, *, moves: str | None = None, like: Path | None = None,
            move: int | None = None, stones: str | None = None, to_move: str | None = None) -> Target | str:
    """The position asked for: that of the record `like` after `move`, else of `stones` (on the board of --game
    and --size, as the archive checks it), else the moves typed (none: the start), which the archive reads."""
    from ..verifier.keys.targets import target_of_board, target_of_record

    if like is not None:
        return target_of_record(first_record(like), move)
    if stones is not None:
        game, size = archive.board(filters)
        board = _stones(stones, game, size)
        return target_of_board(game, size, board, _colour(to_move))
    return moves or ""


def _colour(to_move: str | None) -> Colour | None:
    """--to-move: B or W (Black or White, in any case); None: not given."""
    if to_move is None:
        return None
    named = to_move.strip().upper()
    if named not in ("B", "W", "BLACK", "WHITE"):
        raise CommandError(f"--to-move: write B or W, not {to_move!r}")
    return Colour(named[0])


def _stones(text: str, game: Game, size: int) -> dict[Point, Colour]:
    """`B:Q16,D4 W:C3` as the colour on each point."""
    board: dict[Point, Colour] = {}
    for part in text.split():
        colour_text, _, points = part.partition(":")
        colour = Colour(colour_text.upper()[:1]) if colour_text[:1].upper() in "BW" else None
        if colour is None or not points:
            raise CommandError(f"--stones: write B:Q16,D4 W:C3, not {part!r}")
        for name in points.split(","):
            try:
                board[parse_point_text(name, game, size)] = colour
            except NotationError as exc:
                raise InputError(f"--stones: {exc}") from None
    return board
