"""Keys of positions: the same number for the same position, whatever the move order and the board's symmetry.

A key is a 64-bit Zobrist hash of the stones, the colour to move and the opening phase of a pie game, taken in every
symmetry of the game (`symmetry.py`) and reduced to the smallest of them (the *canonical* key). The symmetry that
gave the smallest value is the position's *frame*: the move played next is stored in that frame, so that the
continuations of mirrored or rotated games add up.

The random numbers depend on the game and the board size, so one key column holds every game and size without
collisions between them (up to the 2^-64 chance of any Zobrist hash).

Keys are kept up to date move by move from each Step's Change (one running key per symmetry): a move costs a few
XORs per point it changed; the minimum over the 8 (or 4) frames is taken for the whole line once it is over.
docs/positions.md describes the design.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress, cycle, islice, repeat

from ...records.games import Game, MoveKind
from ...records.model import Colour, Move, Record
from ...records.points import Point, format_point
from ..judging.replay import Replay, RunLog, Step, ends_positions, usual_start
from ..rules.engine import Engine, touched
from . import follow
from .symmetry import Symmetry, symmetries

_MASK = (1 << 64) - 1
_SIGN = 1 << 63
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
    # frame -> colour * points + point index (Black 0, White 1) -> the stone placed there as stored, `B[pd]`
    move_texts: tuple[tuple[str, ...], ...]
    # For the compiled follower of a run (follow.py): each colour's numbers, point by point and frame by frame in
    # native uint64, and the single number of each colour to move.
    stone_bytes: tuple[bytes, bytes]
    to_move_numbers: tuple[int, int]


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
    move_texts = tuple(tuple(f"{colour}[{text}]" for colour in "BW" for text in frame) for frame in texts)
    nbytes = 8 * frames
    stone_bytes = (b"".join(n.to_bytes(nbytes, "little") for n in stone[Colour.BLACK]),
                   b"".join(n.to_bytes(nbytes, "little") for n in stone[Colour.WHITE]))
    return Tables(game, size, syms, stone, to_move, phase, tuple(64 * f for f in range(frames)), texts,
                  struct.Struct(f"<{frames}Q").unpack, nbytes, move_texts, stone_bytes,
                  (to_move[Colour.BLACK] & _MASK, to_move[Colour.WHITE] & _MASK))


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

    def __init__(self, engine: Engine, game: Game, *, standard_start: bool = False) -> None:
        """`standard_start`: the engine stands at its game's usual start (no setup stones), which is then read
        from the board once per game and size instead of once per record (a look at every point)."""
        self.engine = engine
        self.t = tables(game, engine.size)
        self.size = engine.size
        board, self.packed = _start(engine, self.t) if standard_start else _read_board(engine, self.t)
        self.board = dict(board)
        # The board as a compiled run left it, when `board` (not `packed`) is behind it: read into `board` when
        # next needed (a run ending the line needs none).
        self.after_run: list[list[Colour | None]] | None = None

    def refresh(self) -> None:
        """`board` brought to the position the last compiled run left, in place (the watcher's step holds it)."""
        rows = self.after_run
        if rows is None:
            return
        board = self.board
        board.clear()
        board.update(((c, r), v) for r, row in enumerate(rows) for c, v in enumerate(row) if v is not None)
        self.after_run = None

    def touch(self, points: Iterator[Point] | Sequence[Point]) -> None:
        """Bring the keys up to date on `points` (those a move may have changed)."""
        if self.after_run is not None and points:  # (a pass changes nothing: no need to read the board)
            self.refresh()
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


def _read_board(engine: Engine, t: Tables) -> tuple[dict[Point, Colour], int]:
    board: dict[Point, Colour] = {}
    packed = 0
    size = t.size
    for r, row in enumerate(engine.rows()):  # one call for the board (a look at each point costs a call each)
        for c, stone in enumerate(row):
            if stone is not None:
                board[(c, r)] = stone
                packed ^= t.stone[stone][r * size + c]
    return board, packed


_STARTS: dict[tuple[Game, int], tuple[dict[Point, Colour], int]] = {}


def _start(engine: Engine, t: Tables) -> tuple[dict[Point, Colour], int]:
    start = _STARTS.get((t.game, t.size))
    if start is None:
        start = _STARTS[(t.game, t.size)] = _read_board(engine, t)
    return start


class PositionWatcher:
    """Collects the positions of a replay while it runs: `watch(run)` gives the function to call with each Step.

    The verifier calls it from its own replay (`verify(record, watch=...)`), so the positions cost no second
    replay; `positions(record)` runs one of its own.

    A step only brings the packed keys of every frame up to date and keeps them; the canonical keys, the frames and
    the texts of the moves are worked out once the line is over (`columns`), for all positions together, where
    one C call handles every position instead of a few Python operations each (about half of the keys' cost).
    """

    def __init__(self) -> None:
        self.swap_ply: int | None = None  # the move number of the pie swap
        self.stopped = False
        self._t: Tables | None = None
        self._tracker: KeyTracker | None = None
        # position -> the packed keys of every frame (to move and phase included), as little-endian bytes
        self._packed = bytearray()
        # position -> the move played next (one fewer than positions); None for a stone placed in a compiled run
        self._moves: list[Move | None] = []
        self._codes: list[int] = []  # ... as colour * points + point index for a stone placed, -1 for other moves
        self._others: list[int] = []  # the positions whose next move is not a stone placed
        self._movers: list[int] = []  # position -> the player to move there (0: who started with Black)
        self._columns: Columns | None = None

    def __call__(self, run: Replay) -> Callable[[Step], None]:
        engine = run.engine
        record = run.record
        tracker = self._tracker = KeyTracker(engine, record.game, standard_start=usual_start(record))
        t = self._t = tracker.t
        nbytes = t.nbytes
        size = tracker.size
        points = size * size
        place = MoveKind.PLACE
        swap = MoveKind.SWAP
        black = Colour.BLACK
        board = tracker.board
        numbers = t.stone
        packed_keys = self._packed
        moves = self._moves
        codes = self._codes
        others = self._others
        movers = self._movers
        packed_keys += (tracker.packed ^ extra_term(t, engine)).to_bytes(nbytes, "little")
        movers.append(engine.player_to_move)
        # Without a pie swap (Go, Squer) the key's extra term is the colour to move alone: a look-up, not a call.
        to_move = t.to_move if t.game not in SWAP_TURN else None

        def step(s: Step) -> None:
            if self.stopped:
                return
            if ends_positions(s):
                self.stopped = True
                return
            move = s.move
            kind = move.kind
            change = s.change
            point = move.point
            if kind is place and point is not None:
                i = point[1] * size + point[0]
                codes.append(i if move.colour is black else points + i)
                if not (change.captured or change.converted or change.flipped or change.filled):
                    if tracker.after_run is not None:
                        tracker.refresh()
                    new = engine.stone(point)
                    if new is not board.get(point):  # a stone on an empty point: the usual move
                        tracker.packed ^= numbers[new][i]  # type: ignore[index]
                        board[point] = new  # type: ignore[assignment]
                else:
                    tracker.touch(touched(move, change))
            else:
                others.append(len(moves))
                codes.append(-1)
                if kind is swap:
                    self.swap_ply = len(moves)
                tracker.touch(touched(move, change))
            moves.append(move)
            packed_keys.extend((tracker.packed ^ (to_move[engine.to_move] if to_move is not None
                                                  else extra_term(t, engine))).to_bytes(nbytes, "little"))
            movers.append(engine.player_to_move)

        return step

    def follow_run(self, log: RunLog) -> None:
        """Follow a compiled run of plain plays from its log (follow.py), as the steps of its moves would: Go's,
        where the key's extra term is the colour to move alone and a player holds one colour."""
        module = follow.COMPILED
        t, tracker = self._t, self._tracker
        if self.stopped or module is None or t is None or tracker is None:
            return
        keys, after, codes = module.keys_run(log.placed, log.taken, log.black_first, len(t.syms),
                                             t.stone_bytes[0], t.stone_bytes[1], *t.to_move_numbers,
                                             tracker.packed.to_bytes(t.nbytes, "little"))
        self._packed += keys
        tracker.packed = int.from_bytes(after, "little")
        tracker.after_run = tracker.engine.rows()
        self._codes.extend(array("i", codes))
        played = log.played
        self._moves.extend(repeat(None, played))
        # After Black's play White is to move: the player who started with White (1), and so on alternately.
        self._movers.extend(islice(cycle((1, 0) if log.black_first else (0, 1)), played))

    def columns(self) -> Columns:
        """The positions as columns (the index's rows are made from these): the start, then one after each legal
        move, the last one where the line ended or stopped."""
        if self._columns is None:
            self._columns = _columns(self._t, self._packed, self._moves, self._codes, self._others, self._movers)
        return self._columns

    def finish(self) -> list[Position]:
        """The positions, the last one (where the line ended or stopped) included."""
        c = self.columns()
        last = len(c.keys) - 1
        return [Position(ply, c.keys[ply], c.tied.get(ply) or (c.first[ply],),
                         c.nexts[ply] if ply < last else None, c.movers[ply] if ply < last else None)
                for ply in range(last + 1)]


@dataclass(frozen=True, slots=True)
class Columns:
    """The positions of a line, position by position (the index is the ply): the canonical keys (signed 64-bit, as
    a native array), the frame that gives each key (`tied`: all of them, where more than one does), the move played
    next in the key's frame and the player who made it (one fewer: the last position has no next move)."""

    keys: array[int]
    first: list[int]
    tied: dict[int, tuple[int, ...]]
    nexts: list[str]
    movers: list[int]


_NATIVE_LITTLE = sys.byteorder == "little"


def _columns(t: Tables | None, packed: bytearray, moves: list[Move | None], codes: list[int], others: list[int],
             movers: list[int]) -> Columns:
    if t is None:  # the record was never replayed (header errors)
        return Columns(array("q"), [], {}, [], [])
    keys = array("q")
    module = follow.COMPILED
    if module is not None:  # the compiled helper's loop (follow.py), beside the plain one below
        canonical, where, tied = module.canonical(packed, len(t.syms))
        keys.frombytes(canonical)
        first = list(where)
    else:
        values = array("Q")
        values.frombytes(packed)
        if not _NATIVE_LITTLE:
            values.byteswap()
        # Every position's keys as a tuple (zip over one iterator), then the smallest of each, where it stands and
        # how often: C loops over the positions.
        groups = list(zip(*[iter(values)] * len(t.syms), strict=False))
        best = list(map(min, groups))
        first = list(map(tuple.index, groups, best))
        ties = list(map(tuple.count, groups, best))
        keys.frombytes(array("Q", best).tobytes())  # the same 64 bits read as signed: the BIGINT column's value
        tied = {ply: tuple(f for f, v in enumerate(groups[ply]) if v == best[ply])
                for ply in compress(range(len(ties)), map((1).__ne__, ties))}  # symmetric positions: a few at most
    texts = t.move_texts
    # A stone placed, in the one frame of the key: one look-up. The rest (other moves, symmetric positions) after.
    nexts = [texts[f][code] for f, code in zip(first, codes, strict=False)]
    n = len(moves)
    for ply in sorted({*others, *(ply for ply in tied if ply < n)}):
        move, code = moves[ply], codes[ply]
        frames = tied.get(ply) or (first[ply],)
        # a symmetric position: the smallest text over the frames that give the key
        # (a move is None only for a stone placed in a compiled run, whose code is its text's index)
        nexts[ply] = min(texts[f][code] if code >= 0 or move is None else move_text(move, t.syms[f])
                         for f in frames)
    return Columns(keys, first, tied, nexts, movers[:len(moves)])


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
        from ...records.points import letter_index

        index = letter_index(value[6:7])
        if index is None:
            return text
        return f"{colour.value}[sweep-{format_point((sym.line(colour, index), 0))[0]}]"
    from ...records.points import parse_point

    parts = value.split("-")
    moved = []
    for part in parts:
        p = parse_point(part) if part else None
        moved.append(format_point(sym.point(p)) if p is not None else part)
    return f"{colour.value}[{'-'.join(moved)}]"
