"""Conversion Go (Steven Meyers, 2001): the rules engine, as /work/shared/rules/conversion-go.md decides them.

Stones never leave the board (CON-4): a dead group (CON-2) changes colour instead (CON-3). The opening is a refined
pie rule (CON-5), playing the mirror image of the opponent's play is limited (CON-6), and after two passes the
marked stones are converted and the board is scored (CON-7).

Why conversion only looks near the placed stone: no dead group is ever left on the board after a move (round one
converts every dead group of the opponent, round two every dead group of the mover; a mover's group converted in
round two has no liberties and joins opponent groups that are alive, so the merged group is alive too). A placement
takes one liberty, from the groups beside it only, so only those can die in round one, and in round two only the
mover's group holding the new stone (every group converted in round one touches it) can be dead.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from types import ModuleType

from ...records.games import Game, MoveKind
from ...records.model import Colour, Move, Node, Setup
from ...records.notation import Notation
from ...records.points import Point
from ._conversion_go_tables import SYMMETRY_NAMES, tables
from .engine import (
    BLACK,
    CODE,
    COLOUR,
    EMPTY,
    WHITE,
    Change,
    Engine,
    IllegalMove,
    Marks,
    Outcome,
    Score,
)


def compiled_module() -> ModuleType | None:
    """The compiled plain plays (_conversion_go.c, built at install when a C compiler is there), unless it was not
    built."""
    try:
        from . import _conversion_go
    except ImportError:
        return None
    return _conversion_go


# The compiled runs of plain plays (`ConversionGoEngine.play_run`); None: every move is played in Python (the
# reference).
COMPILED: ModuleType | None = compiled_module()
# What ends a compiled run besides a move that is not a placement: setup, which the replay driver refuses (FMT-10),
# and the TB/TW marks of the end (CON-7).
_RUN_ENDS = ("AB", "AW", "AE", "PL", "TB", "TW")

_PLACE = MoveKind.PLACE
_PASS = MoveKind.PASS
_SWAP = MoveKind.SWAP
_BLACK = Colour.BLACK
_NO_RUNS = (0, 0, 0, 0, 0)
_MIRROR_LIMIT = 10  # CON-6: the tenth successive mirror with one symmetry is illegal
_END_REASON = "two passes (CON-4)"


class ConversionGoEngine(Engine):
    game = Game.CONVERSION_GO

    def __init__(self, size: int, *, komi: float = 0.0, setup: Setup | None = None,
                 notation: Notation = Notation.CUSTOMARY) -> None:
        super().__init__(size, komi=komi, setup=setup, notation=notation)
        # `setup` is only ever given for Go (ING-8); Conversion Go always starts on an empty board.
        t = tables(size)
        self._tables = t
        self._points = t.points
        self._neighbours = t.neighbours
        self._sides = t.sides
        self._images = t.images
        self._cells = [EMPTY] * (size * size)
        # CON-5: colours played so far on turns 1-3 (exactly two Black moves and one White move).
        self._opening_black = 0
        self._opening_white = 0
        self._last_was_pass = False  # CON-4: a second successive pass ends the game
        self._last_play = -1  # CON-6: index of the previous move's stone, -1 when it was not a play
        # CON-6: per player, the length of their current run of mirrors under each symmetry.
        self._runs: list[tuple[int, ...]] = [_NO_RUNS, _NO_RUNS]

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> Colour | None:
        t = self.turn
        if t < 3:
            # CON-5: turns 1-3 are two Black moves and one White move in any order; None while either may come.
            if self._opening_black == 2:
                return Colour.WHITE
            if self._opening_white == 1:
                return Colour.BLACK
            return None
        return self.colour_of_player(t % 2)

    @property
    def player_to_move(self) -> int:
        # CON-5: the first player makes turns 1-3, the second player turn 4; then turns alternate.
        t = self.turn
        return 0 if t < 3 else t % 2

    def stone(self, point: Point) -> Colour | None:
        c, r = point
        n = self.size
        return COLOUR.get(self._cells[r * n + c]) if 0 <= c < n and 0 <= r < n else None

    def rows(self) -> list[list[Colour | None]]:
        cells, size, get = self._cells, self.size, COLOUR.get
        return [[get(c) for c in cells[r * size:(r + 1) * size]] for r in range(size)]

    # -- play ----------------------------------------------------------------------------------------------
    def play(self, move: Move, marks: Marks | None = None) -> Change:
        if self.end is not None:
            raise IllegalMove("after-end", "CON-4", "move after the end of the game", move.point)
        kind = move.kind
        if kind is _PLACE:
            t = self.turn
            # The usual case inline (speed): from turn 5 on, player t % 2 moves, holding Black unless swapped.
            if t < 4 or (move.colour is _BLACK) is (((t & 1) == 0) == self.swapped):
                self._check_colour(move)
            return self._place(move)
        if kind is not _PASS and kind is not _SWAP:
            raise self._kind_not_allowed(move)
        self._check_colour(move)
        if kind is _PASS:
            return self._pass(move.colour, marks)
        return self._swap()

    def _kind_not_allowed(self, move: Move) -> IllegalMove:
        if move.kind is MoveKind.INVALID:
            return IllegalMove("invalid-move", move.rule or "CON-8", move.problem or f"{move.raw!r} is not a move")
        if move.kind is MoveKind.RESIGN:
            # The replay driver handles resignations; an engine has nothing to apply.
            return IllegalMove("kind-not-allowed", "GEN-9", "a resignation is not a move of the board")
        # CON-8: the moves of Conversion Go are a play, a pass and the swap.
        return IllegalMove("kind-not-allowed", "CON-8",
                           f"Conversion Go has no {move.kind.value} moves, only plays, passes and the swap",
                           move.point)

    def _check_colour(self, move: Move) -> None:
        t = self.turn
        if t < 3:
            expected = self.to_move
            if expected is None or move.colour is expected:
                return
            rule = "CON-5"
        else:
            expected = self.colour_of_player(t % 2)
            if move.colour is expected:
                return
            # CON-5 fixes turn 4 as White's (a White move or the swap); later turns alternate (GEN-5).
            rule = "CON-5" if t == 3 else "GEN-5"
        raise IllegalMove("wrong-turn", rule, f"{expected.word} to move, not {move.colour.word}", move.point)

    def _place(self, move: Move) -> Change:
        point = move.point
        size = self.size
        if point is None or not (0 <= point[0] < size and 0 <= point[1] < size):
            # The driver checks points against the board; this keeps a bad Move from ending in a traceback.
            where = self.names(point) if point is not None else "no point"
            raise IllegalMove("off-board", "CON-1", f"point {where} is off the {size}x{size} board", point)
        cells = self._cells
        idx = point[1] * size + point[0]
        if cells[idx] != EMPTY:
            raise IllegalMove("occupied", "CON-4", f"{self.names(point)} is occupied", point)

        turn = self.turn
        player = 0 if turn < 3 else turn % 2
        runs = self._runs[player]
        if turn >= 4:
            # CON-6: plays of turns 1-4 never count; from turn 5 a play may mirror the opponent's previous play.
            last = self._last_play
            if last >= 0 and idx in self._images[last]:
                runs = tuple(r + 1 if img == idx else 0 for r, img in zip(runs, self._images[last], strict=True))
                for s, length in enumerate(runs):
                    if length >= _MIRROR_LIMIT:
                        raise IllegalMove(
                            "mirror", "CON-6",
                            f"{self.names(point)} would be the {length}th successive mirror ({SYMMETRY_NAMES[s]})"
                            " of the opponent's play", point)
            elif runs is not _NO_RUNS:
                runs = _NO_RUNS

        # Legal from here on: nothing below can fail, so the move is applied whole.
        me = CODE[move.colour]
        opp = 3 - me
        cells[idx] = me
        neighbours = self._neighbours
        dead_group = self._dead_group
        # CON-3 round one: every dead group of the opponent becomes the mover's, all at once.
        taken: list[int] = []
        for n in neighbours[idx]:
            if cells[n] == opp:
                for m in neighbours[n]:
                    if cells[m] == EMPTY:  # a liberty next to it: alive, no need to walk the group
                        break
                else:
                    group = dead_group(n)
                    if group is not None:
                        for g in group:
                            cells[g] = me
                        taken.extend(group)
        # CON-3 round two: then every dead group of the mover becomes the opponent's (suicide converts too).
        given: list[int] | None = None
        for n in neighbours[idx]:
            if cells[n] == EMPTY:
                break
        else:
            given = dead_group(idx)
            if given is not None:
                for g in given:
                    cells[g] = opp

        if turn < 3:
            if me == BLACK:
                self._opening_black += 1
            else:
                self._opening_white += 1
        self._runs[player] = runs
        self._last_play = idx
        self._last_was_pass = False
        self.turn = turn + 1

        if given is None:
            if not taken:
                return Change((point,))  # positional: noticeably faster on this hot path
            changed = taken
        else:
            # Round two takes back every stone round one converted (they all joined the new stone's group), so
            # those end as they began; what changed is the mover's group, the new stone included.
            back = set(taken)
            changed = [g for g in given if g not in back]
        pts = self._points
        return Change((point,), (), tuple(pts[i] for i in sorted(changed)))  # placed, captured, converted

    @property
    def compiled_runs(self) -> bool:
        return COMPILED is not None

    def play_run(self, nodes: Sequence[Node], start: int) -> tuple[int, int, int]:
        """Play the plain placements of `nodes` from `start` in the compiled helper, as `play` would one by one:
        from turn 5 on (the opening of CON-5 is played here), nodes that hold a placement of the colour to move and
        nothing the replay driver reads (setup, marks), and empty nodes. Stops before any other node and before a
        move the rules refuse (`play` then says why). Returns (the index of the first node not played, the moves
        played, the index of the last node played or -1). Changes are not reported: for the verdict's replay,
        which needs none."""
        module = COMPILED
        if module is None or self.end is not None or self.turn < 4:
            return start, 0, -1
        t = self._tables
        cells = bytearray(self._cells)
        runs = array("i", self._runs[0] + self._runs[1])
        end, played, last, turn, last_play = module.play_run(
            nodes, start, self.size, cells, t.images_c, t.sides_c, runs, self.turn, self.swapped, self._last_play,
            _BLACK, Colour.WHITE, _PLACE, _RUN_ENDS)
        if played:
            self._cells = list(cells)
            self._runs = [_run_lengths(runs[:5]), _run_lengths(runs[5:])]
            self.turn = turn
            self._last_play = last_play
            self._last_was_pass = False
        return end, played, last

    def _dead_group(self, start: int) -> list[int] | None:
        """The group holding `start` when it is dead (CON-2: no liberty, fewer than two sides), else None."""
        cells, neighbours, sides = self._cells, self._neighbours, self._sides
        colour = cells[start]
        touched = sides[start]
        if touched & (touched - 1):  # two sides or more
            return None
        group = [start]
        seen = {start}
        for i in group:  # the list grows while it is walked
            for n in neighbours[i]:
                c = cells[n]
                if c == colour:
                    if n not in seen:
                        touched |= sides[n]
                        if touched & (touched - 1):
                            return None
                        seen.add(n)
                        group.append(n)
                elif c == EMPTY:
                    return None
        return group

    def _pass(self, colour: Colour, marks: Marks | None) -> Change:
        # CON-4: a pass is always legal; two successive passes end the game, even within turns 1-4 (so also two
        # passes of the first player inside turns 1-3: the rule counts passes, not players).
        turn = self.turn
        player = 0 if turn < 3 else turn % 2
        if not self._last_was_pass:
            self._count_opening(colour)
            self._runs[player] = _NO_RUNS  # CON-6: a pass ends the run
            self._last_play = -1
            self._last_was_pass = True
            self.turn = turn + 1
            return Change()
        # The game ends here: CON-7 converts the marked stones (checked before anything changes), then scores.
        converted = self._final_conversions(marks) if marks else []
        for i in converted:
            self._cells[i] = 3 - self._cells[i]
        self._count_opening(colour)
        self._runs[player] = _NO_RUNS
        self._last_play = -1
        self.turn = turn + 1
        self.end = self._score()
        pts = self._points
        return Change(converted=tuple(pts[i] for i in converted))

    def _count_opening(self, colour: Colour) -> None:
        # CON-5: a pass in turns 1-3 is one of the first player's two Black moves or one White move.
        if self.turn < 3:
            if colour is Colour.WHITE:
                self._opening_white += 1
            else:
                self._opening_black += 1

    def _swap(self) -> Change:
        t = self.turn
        if t != 3:
            raise IllegalMove("swap-not-allowed", "CON-5", f"swap only on turn 4, not turn {t + 1}")
        # CON-5: the second player takes Black; the first player now holds White and makes the next move.
        self.swapped = True
        self._last_play = -1  # the swap is not a play: turn 5 cannot mirror it (CON-6)
        self._last_was_pass = False
        self.turn = t + 1
        return Change(swapped=True)

    # -- end of the game (CON-7) ---------------------------------------------------------------------------
    def _final_conversions(self, marks: Marks) -> list[int]:
        """The stones the marks convert: a white stone on TB, a black stone on TW, each group whole (CON-7)."""
        cells, size = self._cells, self.size
        marked: set[int] = set()
        for points, colour in ((marks.black, WHITE), (marks.white, BLACK)):
            for c, r in points:
                if 0 <= c < size and 0 <= r < size and cells[r * size + c] == colour:
                    marked.add(r * size + c)
        # Marks on empty points or on stones of the mark's own colour convert nothing (CON-7 gives them no meaning).
        done: set[int] = set()
        for start in sorted(marked):
            if start in done:
                continue
            group = self._group(start)
            done.update(group)
            hit = sum(1 for g in group if g in marked)
            if hit != len(group):
                at = self.names(self._points[min(group)])
                raise IllegalMove("marks-split", "CON-7",
                                  f"the marks split the {len(group)}-stone group at {at}: {hit} of its stones are "
                                  "marked", self._points[min(group)])
        return sorted(marked)

    def _group(self, start: int) -> list[int]:
        cells, neighbours = self._cells, self._neighbours
        colour = cells[start]
        group = [start]
        seen = {start}
        for i in group:
            for n in neighbours[i]:
                if cells[n] == colour and n not in seen:
                    seen.add(n)
                    group.append(n)
        return group

    def standing(self) -> Outcome:
        return self._score()

    def _score(self) -> Outcome:
        """CON-7: stones plus the empty regions that touch stones of one colour only; komi; equal is a tie."""
        cells, neighbours = self._cells, self._neighbours
        black = cells.count(BLACK)
        white = cells.count(WHITE)
        seen: set[int] = set()
        for start, c in enumerate(cells):
            if c != EMPTY or start in seen:
                continue
            region = [start]
            seen.add(start)
            borders = 0
            for i in region:
                for n in neighbours[i]:
                    v = cells[n]
                    if v == EMPTY:
                        if n not in seen:
                            seen.add(n)
                            region.append(n)
                    else:
                        borders |= v
            if borders == BLACK:
                black += len(region)
            elif borders == WHITE:
                white += len(region)
        return Outcome.scored(Score(float(black), float(white), float(self.komi)), _END_REASON)

    # -- legal moves ---------------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.end is not None:
            return []
        colour = self.to_move
        colours = (Colour.BLACK, Colour.WHITE) if colour is None else (colour,)
        cells, pts = self._cells, self._points
        barred: set[int] = set()
        if self.turn >= 4 and self._last_play >= 0:
            runs = self._runs[self.turn % 2]
            barred = {img for img, r in zip(self._images[self._last_play], runs, strict=True)
                      if r + 1 >= _MIRROR_LIMIT}
        empties = [i for i, c in enumerate(cells) if c == EMPTY and i not in barred]
        moves: list[Move] = []
        for col in colours:
            moves.append(Move(col, _PASS))
            if self.turn == 3:
                moves.append(Move(col, _SWAP))
            moves.extend(Move(col, _PLACE, point=pts[i]) for i in empties)
        return moves


def _run_lengths(lengths: Sequence[int]) -> tuple[int, ...]:
    # No run at all is the shared _NO_RUNS, as the plain path keeps it.
    run = tuple(lengths)
    return _NO_RUNS if run == _NO_RUNS else run
