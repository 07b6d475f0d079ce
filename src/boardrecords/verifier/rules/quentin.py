"""Quentin (rules/quentin.md): place a stone, fill the territories, then the diagonal rule; won by a chain.

Two facts keep a move cheap:
- At the start of every turn no territory exists (each was filled on the turn it appeared, filling touches no other
  region, and passes and swaps change nothing). A placement therefore only splits the region it was played in: the
  only candidate territories are the regions holding an empty neighbour of the new stone (QUE-3).
- The board satisfies the diagonal rule at the start of every turn and stones never leave or change colour, so a
  pair that was fine stays fine: only pairs holding a new stone (placed or filled) can break QUE-4.
Groups of like-coloured stones are kept incrementally (labels with member lists, the smaller group relabelled on a
merge) with the edges each group touches, so finding a chain after a move costs no search of the board (QUE-6).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import NoReturn

from ...records.games import Game, MoveKind
from ...records.model import Colour, Move, Node, ResultMethod, Setup
from ...records.notation import Notation
from ...records.points import Point
from ._quentin_tables import tables
from .chains import chain_points, has_chain
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
)


def compiled_module() -> ModuleType | None:
    """The compiled plain placements (_quentin.c, built at install when a C compiler is there), unless it was not
    built."""
    try:
        from . import _quentin
    except ImportError:
        return None
    return _quentin


# The compiled runs of plain placements (`QuentinEngine.play_run`); None: every move is played in Python (the
# reference).
COMPILED: ModuleType | None = compiled_module()
# What ends a compiled run besides a move that is not a placement: setup, which the replay driver refuses (FMT-10).
_RUN_ENDS = ("AB", "AW", "AE", "PL")

END_REASON = "chain (QUE-6)"
_PLACE, _PASS, _SWAP = MoveKind.PLACE, MoveKind.PASS, MoveKind.SWAP
_B, _W = Colour.BLACK, Colour.WHITE
_CODE = {_B: BLACK, _W: WHITE}


@lru_cache(maxsize=128)
def _placements(size: int, colour: Colour) -> tuple[Move, ...]:
    """Every placement of a colour by flat index; Moves are frozen, so legal_moves can share them."""
    return tuple(Move(colour, MoveKind.PLACE, point=p) for p in tables(size).points)


class QuentinEngine(Engine):
    game = Game.QUENTIN

    def __init__(self, size: int, *, komi: float = 0.0, setup: Setup | None = None,
                 notation: Notation = Notation.CUSTOMARY) -> None:
        super().__init__(size, komi=komi, setup=setup, notation=notation)
        t = tables(size)
        self._points = t.points
        self._nbrs = t.nbrs
        self._diags = t.diags
        self._edge_bits = t.edge_bits
        n = size * size
        self._cells = [EMPTY] * n
        self._adj = [0] * n  # stones orthogonally adjacent to each point (QUE-3 asks for at least two)
        self._label = [-1] * n  # group of each stone (the index of its representative); -1 on empty points
        self._members: list[list[int] | None] = [None] * n
        self._bits = [0] * n  # edges touched by the group a representative stands for
        self._stale = False  # the groups are out of date: the compiled runs keep none (rebuilt by `_regroup`)

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> Colour:
        # README:turns: turns alternate between players; after a swap (QUE-7) the player to move holds the other colour.
        return Colour.BLACK if (self.turn % 2 == 0) != self.swapped else Colour.WHITE

    def stone(self, point: Point) -> Colour | None:
        return COLOUR.get(self._cells[point[1] * self.size + point[0]])

    def rows(self) -> list[list[Colour | None]]:
        cells, n, get = self._cells, self.size, COLOUR.get
        return [[get(cells[r * n + c]) for c in range(n)] for r in range(n)]

    # -- play ----------------------------------------------------------------------------------------------
    def play(self, move: Move, marks: Marks | None = None) -> Change:
        if self.end is not None:
            raise IllegalMove("after-end", "QUE-6", "move after the end of the game", move.point)
        kind = move.kind
        if kind is _PLACE:
            # The common case first, with to_move inlined: this is the hot path of every replay.
            if move.colour is not (_B if (self.turn & 1 == 0) != self.swapped else _W):
                self._wrong_turn(move)
            return self._place(move)
        if kind is not _PASS and kind is not _SWAP:
            # QUE-8: a Quentin move is a placement, a pass or a swap; resign and unreadable values are the driver's.
            raise IllegalMove("kind-not-allowed", "QUE-8",
                              f"Quentin has no {kind.value} moves: a move is a placement, a pass or swap-sides (QUE-8)",
                              move.point)
        if move.colour is not self.to_move:
            self._wrong_turn(move)
        if kind is _PASS:
            # QUE-5: a pass is legal only when no placement is; the swap does not count as a legal move here.
            first = self._first_legal(CODE[move.colour])
            if first is not None:
                raise IllegalMove("pass-not-allowed", "QUE-5",
                                  "pass is not allowed while a legal placement exists, e.g. "
                                  f"{self.names(self._points[first])} (QUE-5)")
            self.turn += 1
            return Change()
        # QUE-7 and README (pie swap): only as the second turn of the game, instead of a placement.
        if self.turn != 1:
            raise IllegalMove("swap-not-allowed", "QUE-7", f"swap only on turn 2, not turn {self.turn + 1} (QUE-7)")
        self.swapped = True
        self.turn += 1
        return Change(swapped=True)

    @property
    def compiled_runs(self) -> bool:
        return COMPILED is not None

    def play_run(self, nodes: Sequence[Node], start: int) -> tuple[int, int, int]:
        """Play the plain placements of `nodes` from `start` in the compiled helper, as `play` would one by one:
        nodes that hold a placement of the colour to move and nothing the replay driver reads (setup), and empty
        nodes. Stops before any other node and before a move the rules refuse (`play` then says why), and after a
        placement that completes a chain (QUE-6). Returns (the index of the first node not played, the moves played,
        the index of the last node played or -1). Changes are not reported: for the verdict's replay, which needs
        none."""
        module = COMPILED
        if module is None or self.end is not None:
            return start, 0, -1
        cells = bytearray(self._cells)
        adj = bytearray(self._adj)
        end, played, last, turn, won = module.play_run(nodes, start, self.size, cells, adj, self.turn, self.swapped,
                                                       _B, _W, _PLACE, _RUN_ENDS)
        if played:
            self._cells = list(cells)
            self._adj = list(adj)
            self.turn = turn
            self._stale = True
            if won and has_chain(self._cells, self.size, won):
                self.end = Outcome(finished=True, method=ResultMethod.CHAIN, winner=COLOUR[won], reason=END_REASON)
        return end, played, last

    def _regroup(self) -> None:
        """The groups of the stones on the board, from scratch (after compiled runs, which keep none)."""
        cells, nbrs = self._cells, self._nbrs
        n = len(cells)
        label, bits = [-1] * n, [0] * n
        members: list[list[int] | None] = [None] * n
        for s in range(n):
            c = cells[s]
            if not c or label[s] >= 0:
                continue
            group = [s]
            label[s] = s
            edge = self._edge_bits[c]
            m = edge[s]
            for p in group:  # the list grows while it is walked
                for q in nbrs[p]:
                    if cells[q] == c and label[q] < 0:
                        label[q] = s
                        group.append(q)
                        m |= edge[q]
            members[s] = group
            bits[s] = m
        self._label, self._members, self._bits = label, members, bits
        self._stale = False

    def _wrong_turn(self, move: Move) -> NoReturn:
        raise IllegalMove("wrong-turn", "GEN-5", f"{self.to_move.word} to move, not {move.colour.word}",
                          move.point)

    def _place(self, move: Move) -> Change:
        point = move.point
        n = self.size
        if point is None or not (0 <= point[0] < n and 0 <= point[1] < n):
            # The driver checks points against the board (QUE-1); kept so that a bad Move can never corrupt the board.
            where = self.names(point) if point is not None else "no point"
            raise IllegalMove("off-board", "QUE-1", f"point {where} is off the {n}x{n} board (QUE-1)", point)
        i = point[1] * n + point[0]
        held = self._cells[i]
        if held:
            # QUE-2: a stone goes on an empty point.
            raise IllegalMove("occupied", "QUE-2",
                              f"{self.names(point)}: the point is occupied by a {COLOUR[held].word} stone (QUE-2)",
                              point)
        filled, bad = self._apply(i, _CODE[move.colour])
        if bad is not None:
            self._undo(i, filled)
            a, b = sorted(bad)
            raise IllegalMove("diagonal", "QUE-4",
                              f"{self.names(point)}: {self.names(self._points[a])} and "
                              f"{self.names(self._points[b])} are diagonal neighbours without a common "
                              "like-coloured neighbour after filling (QUE-4)", point)
        self._commit(i, filled)
        self.turn += 1
        if filled:
            pts = self._points
            return Change(placed=(point,), filled=tuple([pts[j] for j in filled]))
        return Change(placed=(point,))

    def _apply(self, i: int, code: int) -> tuple[list[int], tuple[int, int] | None]:
        """Place `code` on `i` and fill the territories (QUE-2, QUE-3); return the filled points and the first pair
        that breaks the diagonal rule afterwards (QUE-4), or None. The caller commits or undoes."""
        cells, adj, nbrs = self._cells, self._adj, self._nbrs
        cells[i] = code
        around = nbrs[i]
        for j in around:
            adj[j] += 1
        filled: list[int] = []
        for q in around:
            # QUE-3: only the pieces of the split region can be territories (see the module docstring). A piece is
            # searched until it shows a point with fewer than two adjacent stones; most show one next to q.
            if cells[q] or adj[q] < 2:
                continue
            for r in nbrs[q]:
                if not cells[r] and adj[r] < 2:
                    break
            else:
                region = self._territory(q)
                if region is not None:
                    self._fill(region, code)
                    filled.extend(region)
        # QUE-4 on the whole board after filling. Only pairs holding a new stone can be broken (module docstring),
        # and only the placed stone's pairs need a look: a filled stone s and a like-coloured diagonal d can only lack
        # a common like-coloured neighbour when both common points a, b are stones of the other colour (an empty one
        # would be in s's territory and filled alike). Then a-b is the other pair of that crosscut; it was fine at
        # the start of the turn, so one of a, b is the new stone, and its pair a-b is broken too.
        for d, a, b in self._diags[i]:
            if cells[d] == code and cells[a] != code and cells[b] != code:
                return filled, (i, d)
        return filled, None

    def _territory(self, q: int) -> list[int] | None:
        """The region of the empty point q if it is a territory (every point next to two stones, QUE-3), else None."""
        cells, adj, nbrs = self._cells, self._adj, self._nbrs
        region = [q]
        inside = {q}
        k = 0
        while k < len(region):
            for r in nbrs[region[k]]:
                if not cells[r] and r not in inside:
                    if adj[r] < 2:
                        return None
                    inside.add(r)
                    region.append(r)
            k += 1
        return region

    def _fill(self, region: list[int], code: int) -> None:
        """QUE-3: fill with the colour of more DISTINCT adjacent stones; on a tie, the colour opposite the mover's."""
        cells, adj, nbrs = self._cells, self._adj, self._nbrs
        stones = {r for p in region for r in nbrs[p] if cells[r]}
        black = sum(1 for s in stones if cells[s] == BLACK)
        white = len(stones) - black
        fill = BLACK if black > white else WHITE if white > black else BLACK + WHITE - code
        for p in region:
            cells[p] = fill
            for r in nbrs[p]:
                adj[r] += 1

    def _undo(self, i: int, filled: list[int]) -> None:
        cells, adj, nbrs = self._cells, self._adj, self._nbrs
        for p in (i, *filled):
            cells[p] = EMPTY
            for r in nbrs[p]:
                adj[r] -= 1

    def _commit(self, i: int, filled: list[int]) -> None:
        """Join the new stones to their groups and end the game when a group joins its colour's edges (QUE-6)."""
        if self._stale:
            self._regroup()
        cells, nbrs, label, members, bits = self._cells, self._nbrs, self._label, self._members, self._bits
        won = 0
        for s in (i, *filled) if filled else (i,):
            c = cells[s]
            g = -1
            for j in nbrs[s]:
                h = label[j]
                # New stones not joined yet have label -1; they join this one when their turn in the loop comes.
                if h < 0 or h == g or cells[j] != c:
                    continue
                if g < 0:
                    g = h
                    label[s] = g
                    members[g].append(s)  # type: ignore[union-attr]
                    bits[g] |= self._edge_bits[c][s]
                    continue
                gm, hm = members[g], members[h]
                assert gm is not None and hm is not None
                if len(hm) > len(gm):
                    g, h, gm, hm = h, g, hm, gm
                for m in hm:
                    label[m] = g
                gm.extend(hm)
                members[h] = None
                bits[g] |= bits[h]
            if g < 0:
                g = s
                label[s] = s
                members[s] = [s]
                bits[s] = self._edge_bits[c][s]
            if bits[g] == 3:
                won = c
        if won and has_chain(cells, self.size, won):
            # QUE-6: the chain may belong to either colour (a fill can complete the opponent's chain).
            self.end = Outcome(finished=True, method=ResultMethod.CHAIN, winner=COLOUR[won], reason=END_REASON)

    # -- legality ------------------------------------------------------------------------------------------
    def _legal_at(self, i: int, code: int) -> bool:
        """Whether placing `code` on the empty point `i` is legal, the position left exactly as it was."""
        cells, adj, nbrs = self._cells, self._adj, self._nbrs
        for q in nbrs[i]:
            if cells[q] or not adj[q]:
                continue
            # q would have two adjacent stones after the placement. Two neighbours of q are never adjacent to each
            # other, so the stone on i changes no count around q but q's own: the test of _apply, without placing.
            for r in nbrs[q]:
                if r != i and not cells[r] and adj[r] < 2:
                    break
            else:
                break
        else:
            # No territory can appear (QUE-3): only the pairs of the new stone count (QUE-4).
            for d, a, b in self._diags[i]:  # noqa: SIM110 (a plain loop: any() with a generator is slower here)
                if cells[d] == code and cells[a] != code and cells[b] != code:
                    return False
            return True
        filled, bad = self._apply(i, code)
        self._undo(i, filled)
        return bad is None

    def _first_legal(self, code: int) -> int | None:
        cells = self._cells
        for i in range(len(cells)):
            if not cells[i] and self._legal_at(i, code):
                return i
        return None

    def legal_moves(self) -> list[Move]:
        if self.end is not None:
            return []
        colour = self.to_move
        code = CODE[colour]
        cells, legal_at = self._cells, self._legal_at
        every = _placements(self.size, colour)
        moves = [every[i] for i in range(len(cells)) if not cells[i] and legal_at(i, code)]
        if self.turn == 1:
            moves.append(Move(colour, MoveKind.SWAP))  # QUE-7
        if not any(m.kind is MoveKind.PLACE for m in moves):
            moves.append(Move(colour, MoveKind.PASS))  # QUE-5: forced
        return moves

    def chain_points(self) -> set[Point]:
        """The stones of the winning chain (for highlighting), empty while the game goes on."""
        if self.end is None or self.end.winner is None:
            return set()
        return {self._points[i] for i in chain_points(self._cells, self.size, CODE[self.end.winner])}
