"""Squer: the rules engine (rules: /work/shared/rules/squer.md, SQU-1 .. SQU-11, and the shared README).

The board is a flat list of EMPTY/BLACK/WHITE codes, index `row * size + col`. Black flips along rows, White along
columns (SQU-2). A move only ever adds stones of the mover's colour (SQU-8), so:
- the mover never has a chain when their turn begins (they would have won by SQU-6), and any chain they have after
  it contains the stones the move just added, which are all in one connected group: the search starts there;
- the opponent can have a chain after the move only if they had one after their own previous turn, so the full
  `has_chain` search runs only in that (rare) case.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from types import ModuleType

from ...records.games import Game, MoveKind
from ...records.model import Colour, Move, Node, ResultMethod, Setup
from ...records.notation import Notation
from ...records.points import Point
from .chains import has_chain
from .engine import BLACK, EMPTY, WHITE, Change, Engine, IllegalMove, Marks, Outcome
from .grid import grid


def compiled_module() -> ModuleType | None:
    """The compiled plain maneuvers (_squer.c, built at install when a C compiler is there), unless it was not
    built."""
    try:
        from . import _squer
    except ImportError:
        return None
    return _squer


# The compiled runs of plain maneuvers (`SquerEngine.play_run`); None: every move is played in Python (the
# reference).
COMPILED: ModuleType | None = compiled_module()
# What ends a compiled run besides a move that is not a maneuver: setup, which the replay driver refuses (FMT-10).
_RUN_ENDS = ("AB", "AW", "AE", "PL")

_COLOUR = (None, Colour.BLACK, Colour.WHITE)
_PLAYERS = (Colour.BLACK, Colour.WHITE)
_LINE_WORD = ("", "row", "column")  # the line each colour sweeps (SQU-2, SQU-4); indexed by colour code

REASON_START = "chain at the start of the turn (SQU-6)"
REASON_END = "chain at the end of the turn, opponent has no move (SQU-7)"
REASON_DEADLOCK = "no legal action and no rule decides the game (SQU-9)"


class _Tables:
    """Per-size tables shared by every engine of that size."""

    __slots__ = ("edge", "lines", "nbrs", "place_moves", "points", "sweep_moves")

    def __init__(self, n: int) -> None:
        g = grid(n)
        self.points: tuple[Point, ...] = g.points
        self.nbrs: tuple[tuple[int, ...], ...] = g.neighbours
        # Indexed by colour code: entry 0 (EMPTY) is an empty placeholder, never read. Edge bits per colour (GEN-3).
        self.edge: tuple[tuple[int, ...], ...] = ((), g.black_edges, g.white_edges)
        # The cells of each line a colour sweeps: Black rows, White columns (SQU-4); indexed by colour code too.
        rows = tuple(tuple(range(r * n, r * n + n)) for r in range(n))
        cols = tuple(tuple(range(c, n * n, n)) for c in range(n))
        self.lines: tuple[tuple[tuple[int, ...], ...], ...] = ((), rows, cols)
        # Moves are immutable: legal_moves hands out these shared instances instead of building new ones.
        self.place_moves: tuple[tuple[Move, ...], ...] = (
            (), *(tuple(Move(c, MoveKind.PLACE, p) for p in self.points) for c in _PLAYERS))
        self.sweep_moves: tuple[tuple[Move, ...], ...] = (
            (), *(tuple(Move(c, MoveKind.SWEEP, line=k) for k in range(n)) for c in _PLAYERS))


@lru_cache(maxsize=64)
def _tables(n: int) -> _Tables:
    return _Tables(n)


class SquerEngine(Engine):
    game = Game.SQUER

    def __init__(self, size: int, *, komi: float = 0.0, setup: Setup | None = None,
                 notation: Notation = Notation.CUSTOMARY) -> None:
        super().__init__(size, komi=komi, setup=setup, notation=notation)
        t = _tables(size)
        self._t = t
        self._cells: list[int] = [EMPTY] * (size * size)
        self._empties = size * size
        # SQU-4: each player keeps their own list of swept lines (indexed by colour code; entry 0 is never used).
        self._swept: tuple[set[int], set[int], set[int]] = (set(), set(), set())
        # Whether each colour had a chain right after its own latest turn (see the module docstring).
        self._chain = [False, False, False]
        # SQU-6 at the very start: an empty board holds no chain, so nothing can end the game before move 1.

    @classmethod
    def from_position(cls, rows: Sequence[Sequence[Colour | None]], to_move: Colour = Colour.BLACK, *,
                      swept_black: Iterable[int] = (), swept_white: Iterable[int] = ()) -> SquerEngine:
        """An engine on a given position (for tests and analysis; records always start from the empty board).

        `turn` is set to 0 (Black to move) or 1 (White to move). The position is judged as after a turn: SQU-6 for
        the player to move, then SQU-7 for the other player, then SQU-9, so it may already be over.
        """
        size = len(rows)
        if size < 2 or any(len(row) != size for row in rows):
            raise ValueError("a Squer position is a square of at least 2x2 points (SQU-1)")
        engine = cls(size)
        code = {None: EMPTY, Colour.BLACK: BLACK, Colour.WHITE: WHITE}
        engine._cells = [code[v] for row in rows for v in row]
        engine._empties = engine._cells.count(EMPTY)
        engine._swept[BLACK].update(swept_black)
        engine._swept[WHITE].update(swept_white)
        if any(not 0 <= k < size for k in engine._swept[BLACK] | engine._swept[WHITE]):
            raise ValueError(f"a swept line is off the {size}x{size} board (SQU-1)")
        engine.turn = 0 if to_move is Colour.BLACK else 1
        me = WHITE if to_move is Colour.BLACK else BLACK  # the player who moved last
        you = 3 - me
        engine._chain[you] = has_chain(engine._cells, size, you)
        # A position not reached by play gives none of the shortcuts of the module docstring: search in full.
        engine._chain[me] = has_chain(engine._cells, size, me)
        engine._judge(me, None)
        return engine

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> Colour:
        # Black first, then turns alternate (GEN-5); Squer has no swap (SQU-5).
        return Colour.BLACK if self.turn % 2 == 0 else Colour.WHITE

    def stone(self, point: Point) -> Colour | None:
        return _COLOUR[self._cells[point[1] * self.size + point[0]]]

    def rows(self) -> list[list[Colour | None]]:
        n, cells = self.size, self._cells
        return [[_COLOUR[v] for v in cells[r * n:r * n + n]] for r in range(n)]

    def swept_lines(self, colour: Colour) -> set[int]:
        """The lines (Black: rows, White: columns) this colour has swept so far (SQU-4)."""
        return set(self._swept[BLACK if colour is Colour.BLACK else WHITE])

    # -- play ----------------------------------------------------------------------------------------------
    def play(self, move: Move, marks: Marks | None = None) -> Change:
        if self.end is not None:
            # SQU-10: moves recorded after the end are errors.
            raise IllegalMove("after-end", "SQU-10", "move after the end of the game", move.point)
        kind = move.kind
        if kind is not MoveKind.PLACE and kind is not MoveKind.SWEEP:
            self._refuse_kind(move)
        me = BLACK if self.turn % 2 == 0 else WHITE
        if move.colour is not _COLOUR[me]:
            raise IllegalMove("wrong-turn", "GEN-5",
                              f"{self.to_move.word} to move, not {move.colour.word}", move.point)
        # Every check is made before the first write, so a refused move leaves the position as it was.
        change, start = self._maneuver(move, me) if kind is MoveKind.PLACE else self._sweep(move, me)
        self.turn += 1
        self._judge(me, start)
        return change

    @property
    def compiled_runs(self) -> bool:
        return COMPILED is not None

    def play_run(self, nodes: Sequence[Node], start: int) -> tuple[int, int, int]:
        """Play the plain maneuvers of `nodes` from `start` in the compiled helper, as `play` would one by one:
        nodes that hold a maneuver of the colour to move on an empty point and nothing the replay driver reads
        (setup), and empty nodes. Stops before any other node and before a move the rules refuse (`play` then says
        why); a turn that may end the game is judged here, by `_judge`. Returns (the index of the first node not
        played, the moves played, the index of the last node played or -1). Changes are not reported: for the
        verdict's replay, which needs none."""
        module = COMPILED
        if module is None or self.end is not None:
            return start, 0, -1
        cells = bytearray(self._cells)
        chain = self._chain
        end, played, last, turn, empties, chain_black, chain_white, pending = module.play_run(
            nodes, start, self.size, cells, self.turn, self._empties, chain[BLACK], chain[WHITE], Colour.BLACK,
            Colour.WHITE, MoveKind.PLACE, _RUN_ENDS)
        if played:
            self._cells = list(cells)
            self.turn = turn
            self._empties = empties
            chain[BLACK] = chain_black
            chain[WHITE] = chain_white
            if pending >= 0:
                # The last maneuver's turn, judged as `play` judges every turn.
                self._judge(BLACK if (turn - 1) % 2 == 0 else WHITE, pending)
        return end, played, last

    def _refuse_kind(self, move: Move) -> None:
        kind = move.kind
        if kind is MoveKind.PASS:
            raise IllegalMove("kind-not-allowed", "SQU-5", "there is no pass in Squer (SQU-5)")
        if kind is MoveKind.SWAP:
            raise IllegalMove("kind-not-allowed", "SQU-5", "there is no swap in Squer (SQU-5)")
        if kind is MoveKind.INVALID:
            # The driver reports these itself; refuse cleanly if one arrives anyway.
            rule = move.rule or "SQU-11"
            raise IllegalMove("invalid-move", rule, f"{move.problem or f'cannot read move {move.raw!r}'} ({rule})")
        if kind is MoveKind.RESIGN:
            raise IllegalMove("kind-not-allowed", "GEN-9",
                              "resign is handled by the replay driver, not by the Squer engine")
        # Relocations and removals are Cation's: a Squer turn is one maneuver or one sweep (SQU-5).
        raise IllegalMove("kind-not-allowed", "SQU-5",
                          f"a {kind.value} is not a Squer move: a turn is one maneuver or one sweep (SQU-5)",
                          move.point)

    def _maneuver(self, move: Move, me: int) -> tuple[Change, int]:
        point = move.point
        n = self.size
        if point is None or not (0 <= point[0] < n and 0 <= point[1] < n):
            raise IllegalMove("off-board", "SQU-1", f"the maneuver has no point on the {n}x{n} board (SQU-1)",
                              point)
        col, row = point
        idx = row * n + col
        cells = self._cells
        if cells[idx] != EMPTY:
            # SQU-3: a maneuver places a stone on an empty point.
            raise IllegalMove("occupied", "SQU-3", f"{self.names(point)} is occupied (SQU-3)", point)
        cells[idx] = me
        self._empties -= 1
        flipped: list[int] = []
        # SQU-3 with SQU-2: in each of the two directions of the mover's flipping direction separately, flip the
        # maximal run of contiguous enemy stones next to the new stone; no bracketing stone is needed.
        you = 3 - me
        if me == BLACK:
            lo = idx - col
            j = idx - 1
            while j >= lo and cells[j] == you:
                cells[j] = me
                flipped.append(j)
                j -= 1
            hi = lo + n
            j = idx + 1
            while j < hi and cells[j] == you:
                cells[j] = me
                flipped.append(j)
                j += 1
        else:
            j = idx - n
            while j >= 0 and cells[j] == you:
                cells[j] = me
                flipped.append(j)
                j -= n
            hi = n * n
            j = idx + n
            while j < hi and cells[j] == you:
                cells[j] = me
                flipped.append(j)
                j += n
        points = self._t.points
        return Change(placed=(point,), flipped=tuple(points[j] for j in flipped) if flipped else ()), idx

    def _sweep(self, move: Move, me: int) -> tuple[Change, int]:
        line = move.line
        n = self.size
        word = _LINE_WORD[me]
        if line is None or not 0 <= line < n:
            raise IllegalMove("off-board", "SQU-1", f"the sweep names no {word} of the {n}x{n} board (SQU-1)")
        letter = self.names.row(line) if word == "row" else self.names.column(line)
        swept = self._swept[me]
        # SQU-4: a player may sweep a given line at most once in the game (checked first: it is final, whereas
        # the line's contents change).
        if line in swept:
            raise IllegalMove("already-swept", "SQU-4", f"{word} {letter} was already swept by this player (SQU-4)")
        cells = self._cells
        you = 3 - me
        members = self._t.lines[me][line]
        # SQU-4: only a line entirely filled with enemy stones (touching both of the opponent's edges) is swept.
        for j in members:
            if cells[j] != you:
                raise IllegalMove("sweep-not-full", "SQU-4",
                                  f"{word} {letter} is not entirely filled with enemy stones (SQU-4)")
        for j in members:
            cells[j] = me
        swept.add(line)
        points = self._t.points
        return Change(flipped=tuple(points[j] for j in members), swept=(word, line)), members[0]

    # -- the end of the game -------------------------------------------------------------------------------
    def _judge(self, me: int, start: int | None) -> None:
        """After `me`'s turn: SQU-6 for the player now to move, then SQU-7 for the mover, then SQU-9.

        `start` is a stone the move added (None when `self._chain[me]` is already known).
        """
        you = 3 - me
        cells = self._cells
        n = self.size
        chain = self._chain
        # SQU-8: the move added only `me` stones, so `you` can hold a chain now only if they held one after their
        # own previous turn and this move did not break it.
        if chain[you]:
            chain[you] = has_chain(cells, n, you)
            if chain[you]:
                # SQU-6: the player whose turn begins has a chain and wins before moving.
                self.end = Outcome(True, ResultMethod.CHAIN, _COLOUR[you], reason=REASON_START)
                return
        if start is not None:
            chain[me] = self._new_chain(me, start)
        if self._empties:
            return  # an empty point is a legal maneuver for the player to move (SQU-3)
        if self._sweeps(you):
            return
        if chain[me]:
            # SQU-7: the mover has a chain and the opponent has no legal maneuver or sweep.
            self.end = Outcome(True, ResultMethod.CHAIN, _COLOUR[me], reason=REASON_END)
        else:
            # SQU-9: the player to move has no legal action and neither SQU-6 nor SQU-7 applies.
            self.end = Outcome(True, ResultMethod.VOID, None, reason=REASON_DEADLOCK)

    def _new_chain(self, me: int, start: int) -> bool:
        """Whether the group of `me` stones holding `start` touches both of `me`'s edges (README: chains)."""
        cells = self._cells
        nbrs = self._t.nbrs
        edge = self._t.edge[me]
        reached = edge[start]
        seen = {start}
        stack = [start]
        while stack:
            i = stack.pop()
            for j in nbrs[i]:
                if j not in seen and cells[j] == me:
                    seen.add(j)
                    stack.append(j)
                    reached |= edge[j]
            if reached == 3:
                return True
        return False

    def _sweeps(self, code: int) -> list[int]:
        """The lines `code` may sweep now (SQU-4): full of enemy stones, not yet swept by `code`."""
        cells = self._cells
        n = self.size
        full = [3 - code] * n
        swept = self._swept[code]
        if code == BLACK:
            return [k for k in range(n) if k not in swept and cells[k * n:k * n + n] == full]
        return [k for k in range(n) if k not in swept and cells[k::n] == full]

    def legal_moves(self) -> list[Move]:
        if self.end is not None:
            return []
        me = BLACK if self.turn % 2 == 0 else WHITE
        t = self._t
        place = t.place_moves[me]
        moves = [place[i] for i, v in enumerate(self._cells) if v == EMPTY]
        sweep = t.sweep_moves[me]
        moves.extend(sweep[k] for k in self._sweeps(me))
        return moves
