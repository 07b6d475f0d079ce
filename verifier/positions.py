"""Keys of positions: the same number for the same position, whatever the move order and the board's symmetry.

A key is a 64-bit Zobrist hash of the stones, the colour to move and the opening phase of a pie game, taken in every
symmetry of the game (`symmetry.py`) and reduced to the smallest of them (the *canonical* key). The symmetry that
gave the smallest value is the position's *frame*: the move played next is stored in that frame, so that the
continuations of mirrored or rotated games add up.

The random numbers depend on the game and the board size, so one key column holds every game and size without
collisions between them (up to the 2^-64 chance of any Zobrist hash).

Keys are kept up to date move by move from each Step's Change (one running key per symmetry): a move costs a few
XORs per point it changed and a minimum over the 8 (or 4) frames. docs/positions.md describes the design.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from ..records.games import Game, MoveKind
from ..records.model import Colour, Move, Record
from ..records.points import Point, format_point
from .engine import Change, Engine
from .replay import Replay, Step
from .symmetry import Symmetry, symmetries

_MASK = (1 << 64) - 1
_SIGN = 1 << 63
_WRAP = 1 << 64
# The turn after which a pie game's swap may be made (the phase before it is part of the key).
SWAP_TURN = {Game.CONVERSION_GO: 3, Game.CATION: 1, Game.QUENTIN: 1}
_GAME_SEED = {Game.GO: 1, Game.CONVERSION_GO: 2, Game.CATION: 3, Game.QUENTIN: 4, Game.SQUER: 5}


def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def signed(key: int) -> int:
    """An unsigned 64-bit key as the signed integer a BIGINT column holds."""
    return key - (1 << 64) if key & _SIGN else key


@dataclass(frozen=True, slots=True)
class Tables:
    """The Zobrist numbers of one game and size. The keys of all frames travel packed in one integer (frame f in
    bits 64f..64f+63), so that a stone costs one XOR whatever the number of frames."""

    game: Game
    size: int
    syms: tuple[Symmetry, ...]
    stone: dict[Colour, tuple[int, ...]]  # colour -> point index -> packed numbers of every frame
    to_move: dict[Colour | None, int]  # packed: the same number in every frame
    phase: tuple[int, ...]  # turn -> packed number (the pie games' opening, before the swap turn has passed)
    shifts: tuple[int, ...]
    texts: tuple[tuple[str, ...], ...]  # frame -> point index -> the point's image, as two letters
    unpack: Callable[[bytes], tuple[int, ...]]  # the packed keys' bytes (little-endian) -> the key of each frame
    nbytes: int


def _packed(numbers: Sequence[int]) -> int:
    value = 0
    for f, n in enumerate(numbers):
        value |= n << (64 * f)
    return value


@cache
def tables(game: Game, size: int) -> Tables:
    seed = (_GAME_SEED[game] << 56) | (size << 48)
    base = {c: [_splitmix(seed | (code << 40) | i) for i in range(size * size)]
            for code, c in ((1, Colour.BLACK), (2, Colour.WHITE))}
    syms = symmetries(game, size)
    frames = len(syms)
    stone = {c: tuple(_packed([base[c][s.index[i]] for s in syms]) for i in range(size * size)) for c in base}

    def everywhere(n: int) -> int:
        return _packed([n] * frames)

    to_move = {Colour.BLACK: everywhere(_splitmix(seed | (3 << 40))),
               Colour.WHITE: everywhere(_splitmix(seed | (4 << 40))),
               None: everywhere(_splitmix(seed | (5 << 40)))}
    phase = tuple(everywhere(_splitmix(seed | (6 << 40) | t)) if t else 0 for t in range(8))
    texts = tuple(tuple(format_point(s.point((i % size, i // size))) for i in range(size * size)) for s in syms)
    return Tables(game, size, syms, stone, to_move, phase, tuple(64 * f for f in range(frames)), texts,
                  struct.Struct(f"<{frames}Q").unpack, 8 * frames)


def extra_term(t: Tables, engine: Engine) -> int:
    """What the key holds beside the stones: the colour to move and, in a pie game, the turn while the swap is
    still ahead (so that a position where the swap may be made differs from the same stones after it)."""
    value = t.to_move[engine.to_move]
    swap_turn = SWAP_TURN.get(t.game)
    if swap_turn is not None and not engine.swapped and engine.turn <= swap_turn:
        value ^= t.phase[engine.turn]
    return value


def _canonical(t: Tables, packed: int) -> tuple[int, tuple[int, ...]]:
    values = t.unpack(packed.to_bytes(t.nbytes, "little"))  # one C call instead of a shift and mask per frame
    best = min(values)
    if values.count(best) == 1:
        return best, (values.index(best),)
    return best, tuple(i for i, v in enumerate(values) if v == best)


def move_text(move: Move, sym: Symmetry | None = None) -> str:
    """A move as stored: `B[pd]`, `W[]`, `W[swap-sides]`, `B[ef-cb]`, `W[fc-]`, `B[sweep-c]`, seen in `sym`."""
    if sym is None or sym.identity:
        if move.kind is MoveKind.PLACE and len(move.raw) == 2:
            return ("B[" if move.colour is Colour.BLACK else "W[") + move.raw + "]"
        return f"{move.colour.value}[{move.sgf_value()}]"
    kind = move.kind
    if kind is MoveKind.SWEEP and move.line is not None:
        line = sym.line(move.colour, move.line)
        return f"{move.colour.value}[sweep-{format_point((line, 0))[0]}]"
    point = sym.point(move.point) if move.point is not None else None
    target = sym.point(move.target) if move.target is not None else None
    return str(Move(move.colour, kind, point, target, move.line, raw=move.raw))


@dataclass(slots=True)
class Position:
    """One position of a line: after `ply` moves (0: the start), its canonical key (signed 64-bit), the frames that
    give it (more than one for a symmetric position), and the move played next, seen in the position's frame (the
    smallest text over `frames`; None at the end and before a refused move) with the player who made it (0: the
    player who started with Black)."""

    ply: int
    key: int
    frames: tuple[int, ...]
    next_text: str | None = None
    mover: int | None = None


class KeyTracker:
    """The running keys of an engine's position in every frame, updated from what each move changed."""

    def __init__(self, engine: Engine, game: Game) -> None:
        self.engine = engine
        self.t = tables(game, engine.size)
        self.size = engine.size
        self.board: dict[Point, Colour] = {}
        self.packed = 0
        for r in range(self.size):
            for c in range(self.size):
                stone = engine.stone((c, r))
                if stone is not None:
                    self.board[(c, r)] = stone
                    self.packed ^= self.t.stone[stone][r * self.size + c]

    def touch(self, points: Iterator[Point] | Sequence[Point]) -> None:
        """Bring the keys up to date on `points` (those a move may have changed)."""
        board = self.board
        stone = self.engine.stone
        numbers = self.t.stone
        size = self.size
        packed = self.packed
        for p in points:
            old = board.get(p)
            new = stone(p)
            if old is new:
                continue
            i = p[1] * size + p[0]
            if old is not None:
                packed ^= numbers[old][i]
                del board[p]
            if new is not None:
                packed ^= numbers[new][i]
                board[p] = new
        self.packed = packed

    def canonical(self) -> tuple[int, tuple[int, ...]]:
        """The canonical key (unsigned) and the frames that give it."""
        return _canonical(self.t, self.packed ^ extra_term(self.t, self.engine))


class PositionWatcher:
    """Collects the positions of a replay while it runs: `watch(run)` gives the function to call with each Step.

    The verifier calls it from its own replay (`verify(record, watch=...)`), so the positions cost no second
    replay; `positions(record)` runs one of its own.
    """

    def __init__(self) -> None:
        self.positions: list[Position] = []
        self.swap_ply: int | None = None  # the move number of the pie swap
        self.stopped = False

    def __call__(self, run: Replay) -> Callable[[Step], None]:
        engine = run.engine
        tracker = KeyTracker(engine, run.record.game)
        t = tracker.t
        syms = t.syms
        texts = t.texts
        size = tracker.size
        out = self.positions
        place = MoveKind.PLACE
        resign = MoveKind.RESIGN
        swap = MoveKind.SWAP
        black = Colour.BLACK
        board = tracker.board
        numbers = t.stone
        to_move = t.to_move
        swap_turn = SWAP_TURN.get(t.game)
        key, frames = tracker.canonical()
        state: list = [0, key, frames, engine.player_to_move]

        def step(s: Step) -> None:
            if self.stopped:
                return
            move = s.move
            kind = move.kind
            if s.illegal is not None or kind is resign:
                self.stopped = True
                return
            ply, key, frames, mover = state
            if kind is place and move.point is not None:
                i = move.point[1] * size + move.point[0]
                prefix = "B[" if move.colour is black else "W["
                text = prefix + (texts[frames[0]][i] if len(frames) == 1 else min(texts[f][i] for f in frames)) + "]"
            elif len(frames) == 1:
                text = move_text(move, syms[frames[0]])
            else:
                text = min(move_text(move, syms[f]) for f in frames)
            if kind is swap:
                self.swap_ply = ply
            out.append(Position(ply, key - _WRAP if key & _SIGN else key, frames, text, mover))
            change = s.change
            if (kind is place and not change.captured and not change.converted and not change.flipped
                    and not change.filled):
                point = move.point
                assert point is not None
                new = engine.stone(point)
                if new is not board.get(point):  # a stone on an empty point: the usual move
                    tracker.packed ^= numbers[new][point[1] * size + point[0]]  # type: ignore[index]
                    board[point] = new  # type: ignore[assignment]
            else:
                tracker.touch(_touched(move, change))
            extra = to_move[engine.to_move]
            if swap_turn is not None and not engine.swapped and engine.turn <= swap_turn:
                extra ^= t.phase[engine.turn]
            key, frames = _canonical(t, tracker.packed ^ extra)
            state[:] = (s.number, key, frames, engine.player_to_move)

        self._state = state
        return step

    def finish(self) -> list[Position]:
        """The positions, the last one (where the line ended or stopped) included."""
        state = getattr(self, "_state", None)
        if state is None:  # the record was never replayed (header errors)
            return self.positions
        ply, key, frames, _ = state
        self.positions.append(Position(ply, signed(key), frames))
        return self.positions


def _touched(move: Move, change: Change) -> list[Point]:
    points: list[Point] = []
    if move.point is not None:
        points.append(move.point)
    if move.target is not None:
        points.append(move.target)
    points.extend(change.placed)
    points.extend(change.captured)
    points.extend(change.converted)
    points.extend(change.flipped)
    points.extend(change.filled)
    points.extend(change.removed)
    for a, b in change.relocated:
        points.append(a)
        points.append(b)
    return points


def positions(record: Record) -> list[Position]:
    """Every position of the main line up to its first refused move: the start, then after each legal move.

    Each position carries the move played next when that move was legal: nothing of a refused move is kept.
    """
    run = Replay(record)
    watcher = PositionWatcher()
    step = watcher(run)
    for s in run:
        step(s)
    return watcher.finish()


def key_of_board(game: Game, size: int, stones: dict[Point, Colour], to_move: Colour | None,
                 phase_turn: int | None = None) -> tuple[int, tuple[int, ...]]:
    """The canonical key (signed) and frames of a position given by its stones, computed from scratch.

    `phase_turn`: in a pie game, the turn number while the swap is still ahead (None once it has passed).
    """
    t = tables(game, size)
    packed = 0
    for (c, r), colour in stones.items():
        packed ^= t.stone[colour][r * size + c]
    extra = t.to_move[to_move]
    if phase_turn is not None and game in SWAP_TURN and phase_turn <= SWAP_TURN[game]:
        extra ^= t.phase[phase_turn]
    key, frames = _canonical(t, packed ^ extra)
    return signed(key), frames


def parse_stored(text: str) -> tuple[Colour, str]:
    """`B[pd]` -> (Black, "pd")."""
    return Colour(text[0]), text[2:-1]


def transform_stored(text: str, sym: Symmetry) -> str:
    """A stored move text seen through `sym` (points, relocations, removals and sweep lines move; the rest stays)."""
    colour, value = parse_stored(text)
    if sym.identity or not value or value.startswith("swap") or value == "resign":
        return text
    if value.startswith("sweep-"):
        from ..records.points import letter_index

        index = letter_index(value[6:7])
        if index is None:
            return text
        return f"{colour.value}[sweep-{format_point((sym.line(colour, index), 0))[0]}]"
    from ..records.points import parse_point

    parts = value.split("-")
    moved = []
    for part in parts:
        p = parse_point(part) if part else None
        moved.append(format_point(sym.point(p)) if p is not None else part)
    return f"{colour.value}[{'-'.join(moved)}]"
