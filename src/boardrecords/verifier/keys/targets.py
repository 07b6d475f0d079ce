"""Positions a user asks for: after moves typed in, in a record after a move, or given by their stones.

Each becomes a Target: the key and frames the position index knows it by (positions.py), the board to show, and
the colour to move. Who makes a typed move is decided by the game's own engine, as in every replay: the colours
are the rules' (a pie swap, Conversion Go's opening), not a table of this module's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...common.errors import InputError
from ...records.games import SPECS, Game, MoveKind
from ...records.model import Colour, Move, Record
from ...records.notation import NotationError, parse_move_text, point_name
from ...records.points import Point, parse_point
from ...records.properties import parse_move
from ...records.reader import read_bytes
from ..judging.replay import Replay, Step
from ..rules.engine import Engine, IllegalMove
from ..rules.registry import engine_for
from .position_keys import (
    SWAP_TURN,
    PositionWatcher,
    key_of_board,
    move_text,
    parse_stored,
    transform_stored,
)
from .symmetry import all_symmetries, inverse, symmetries

Rows = list[list[Colour | None]]

# Conversion Go's refined pie (CON-5): the first player makes turns 1-3 (two Black moves and a White one, in any
# order), the second player may swap on turn 4. The opening is the position after turn 3.
OPENING_TURNS = SWAP_TURN[Game.CONVERSION_GO]


class PositionError(InputError):
    """A position that cannot be had (an InputError): a move that does not read, or is not legal, or a line too
    short."""


@dataclass(slots=True)
class Target:
    """A position asked for: its game, size, key, frames, board (rows) and the colour to move."""

    game: Game
    size: int
    key: int
    frames: tuple[int, ...]
    rows: Rows
    to_move: Colour | None
    ply: int
    # The empty points the side to move may play on (GEN rules of the game's engine: a suicide or a ko point is
    # not one); None where it is not known (a position of stones, or a record's position before its end).
    playable: frozenset[Point] | None = None

    def shown(self, stored: str) -> str:
        """A stored next move in the asker's orientation and notation (`B Q16`, `W swap`, `B e5-c3`)."""
        sym = inverse(all_symmetries(self.size)[self.frames[0]])
        return stored_name(transform_stored(stored, sym), self.game, self.size)


def stored_name(stored: str, game: Game, size: int) -> str:
    """A move as the archive stores it (`B[pd]`) as players write it (`B Q16`, `W swap`, `B e5-c3`, `B pass`)."""
    colour, value = parse_stored(stored)
    if not value:
        return f"{colour.value} pass"
    if value.startswith(("swap", "sweep")):
        return f"{colour.value} {value}"
    parts = [point_name(p, game, size) if (p := parse_point(x)) else x for x in value.split("-")]
    return f"{colour.value} {'-'.join(parts)}"


def moves_record_bytes(moves: str, game: Game, size: int) -> bytes:
    """A record of `moves` (`Q16,D4`, `pd dp`, `B[pd];W[dp]`, `swap`, `pass`, `B:ba`). A colour written before a
    move (`B:`, `W:`, `B[..]`) is taken as written; any other move is made by the colour whose turn it is by the
    game's rules (after a swap too), and where they let either colour move (Conversion Go's opening), by the colour
    the player to move holds."""
    tokens = [t for t in re.split(r"[\s,;]+", moves.strip()) if t]
    spec = SPECS[game]
    # The engine follows the moves only to say whose turn it is. Once it refuses one, the replay stops there
    # (target_of_record says why), so the colours after it only alternate.
    engine: Engine | None = engine_for(game)(size)
    colour = Colour.BLACK
    out = []
    for token in tokens:
        if engine is not None:
            colour = engine.to_move or engine.colour_of_player(engine.player_to_move)
        m = re.fullmatch(r"([BW])\[(.*)\]", token) or re.fullmatch(r"([BWbw]):(.*)", token)
        value = token
        if m:
            colour, value = Colour(m[1].upper()), m[2]
        try:
            text = "" if value.lower() == "tt" else parse_move_text(value, game, size, colour)
        except NotationError as exc:
            raise PositionError(f"{token!r}: {exc}") from None
        out.append(f";{colour.value}[{text}]")
        if engine is not None:
            engine = _played(engine, parse_move(spec, size, colour, text))
        if engine is None and text != "swap-sides":
            colour = colour.other
    head = f"(;GM[{spec.gm_value}]SZ[{size}]"
    return (head + "".join(out) + ")").encode()


def _played(engine: Engine, move: Move) -> Engine | None:
    """`engine` after `move`, or None when the replay refuses the move."""
    if move.kind in (MoveKind.RESIGN, MoveKind.INVALID):  # the replay's to refuse: never an engine's
        return None
    try:
        engine.play(move)
    except IllegalMove:
        return None
    return engine


def _play_to(run: Replay, ply: int | None, each: Callable[[Step], None]) -> int:
    """Play `run` up to move `ply` (the whole line when None), `each` called after every move; the number of the
    last move played. The replay has made the move after `ply` by the time it is seen to be one too many, so what
    the position after `ply` looks like is for `each` to keep."""
    last = 0
    for s in run:
        if ply is not None and s.number > ply:
            break
        if s.illegal is not None:
            raise PositionError(f"move {s.number} is not legal: {s.illegal.message} ({s.illegal.rule})")
        each(s)
        last = s.number
    return last


def target_of_record(record: Record, ply: int | None) -> Target:
    """The position of `record` after move `ply` (None: where its main line ends)."""
    run = Replay(record)
    watcher = PositionWatcher()
    step = watcher(run)
    engine = run.engine
    rows, to_move = engine.rows(), engine.to_move

    def each(s: Step) -> None:
        nonlocal rows, to_move
        step(s)
        rows, to_move = engine.rows(), engine.to_move

    _play_to(run, ply, each)
    last = watcher.finish()[-1]
    if ply is not None and last.ply != ply:
        raise PositionError(f"the record has no position after move {ply} (its line stops at move {last.ply})")
    # At the end of the line the engine is at the position (before it, the replay has made one move more).
    playable = frozenset(m.point for m in engine.legal_moves() if m.kind is MoveKind.PLACE and m.point is not None) \
        if ply is None else None
    return Target(record.game, record.size, last.key, last.frames, rows, to_move, last.ply, playable)


def target_of_moves(moves: str, game: Game, size: int) -> Target:
    """The position after `moves` (moves_record_bytes) from the start of `game` on a `size` board."""
    return target_of_record(read_bytes(moves_record_bytes(moves, game, size), "moves")[0], None)


def target_of_board(game: Game, size: int, board: dict[Point, Colour], to_move: Colour | None) -> Target:
    """The position of these stones, `to_move` to move (None: the colour with fewer stones, Black on a tie)."""
    blacks = sum(1 for c in board.values() if c is Colour.BLACK)
    mover = to_move or (Colour.BLACK if blacks <= len(board) - blacks else Colour.WHITE)
    key, frames = key_of_board(game, size, board, mover)
    rows = [[board.get((c, r)) for c in range(size)] for r in range(size)]
    return Target(game, size, key, frames, rows, mover, -1)


def board_after(record: Record, ply: int | None) -> Rows:
    """The board of `record` after move `ply` (None: where its main line ends)."""
    run = Replay(record)
    rows = run.engine.rows()

    def each(s: Step) -> None:
        nonlocal rows
        rows = run.engine.rows()

    last = _play_to(run, ply, each)
    if ply is not None and last != ply:
        raise PositionError(f"the record has no position after move {ply} (its line stops at move {last})")
    return rows


def opening_stones(record: Record) -> tuple[list[str], list[str]]:
    """The moves of a Conversion Go record's opening turns (OPENING_TURNS) in the frame of the position they make
    (that of its key): Black's and White's, each as point names (`pass` for a pass), sorted."""
    run = Replay(record)
    watcher = PositionWatcher()
    step = watcher(run)
    moves = []
    for s in run:
        if s.number > OPENING_TURNS or s.illegal is not None:
            break
        step(s)
        moves.append(s.move)
    frame = watcher.finish()[-1].frames[0]
    sym = symmetries(record.game, record.size)[frame]
    black: list[str] = []
    white: list[str] = []
    for m in moves:
        colour, value = parse_stored(move_text(m, sym))
        point = parse_point(value) if value else None
        name = point_name(point, record.game, record.size) if point is not None else (value or "pass")
        (black if colour is Colour.BLACK else white).append(name)
    return sorted(black), sorted(white)
