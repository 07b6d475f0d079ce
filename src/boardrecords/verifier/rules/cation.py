"""The Cation rules engine (rules: shared/rules/cation.md, CAT-1 .. CAT-10; conventions: shared/rules/README.md).

Two situations decide every turn: with no crosscut on the board the mover places a stone (situation a, CAT-4), with
one or more the mover relocates or removes one of their crosscut stones (situation b, CAT-6 and CAT-7).

Speed: the board is a flat list of cell codes with per-size tables (`_cation_tables`). The crosscuts on the board
are kept as a set of 2x2 blocks, updated only around the points a move touches. Chains are found with a union-find
of the groups, each root knowing which of its colour's edges the group touches; since union-find cannot delete,
lifting a stone (CAT-6, CAT-7) regroups only the lifted stone's old group. The quiet replay plays the runs of
plain placements in the compiled helper (`_cation.c`, `play_run`), on the same lists and set; this module stays the
reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from ...records.games import Game, MoveKind
from ...records.model import Colour, Move, Node, ResultMethod, Setup
from ...records.notation import Notation
from ...records.points import Point
from ._cation_tables import CationTables, tables
from .chains import has_chain
from .engine import BLACK, COLOUR, EMPTY, WHITE, Change, Engine, IllegalMove, Marks, Outcome

_PLACE, _PASS, _SWAP, _RELOCATE, _REMOVE = (MoveKind.PLACE, MoveKind.PASS, MoveKind.SWAP, MoveKind.RELOCATE,
                                            MoveKind.REMOVE)
_KINDS = frozenset({_PLACE, _PASS, _SWAP, _RELOCATE, _REMOVE})
_B, _W = Colour.BLACK, Colour.WHITE
_END_RULE = "CAT-8"
_CHAIN_REASON = "chain (CAT-8)"

Crosscut = tuple[Point, Point, Point, Point]


def compiled_module() -> ModuleType | None:
    """The compiled plain placements (_cation.c, built at install when a C compiler is there), unless it was not
    built."""
    try:
        from . import _cation
    except ImportError:
        return None
    return _cation


# The compiled runs of plain placements (`CationEngine.play_run`); None: every move is played in Python (the
# reference).
COMPILED: ModuleType | None = compiled_module()
# What ends a compiled run besides a move that is not a plain placement: setup, which the replay driver refuses in
# Cation (FMT-10). A Cation engine reads no TB/TW marks, so they do not end a run.
_RUN_ENDS = ("AB", "AW", "AE", "PL")


class CationEngine(Engine):
    """Cation on an N x N board (3 <= N <= 52, CAT-1; the driver has checked the size)."""

    game = Game.CATION

    def __init__(self, size: int, *, komi: float = 0.0, setup: Setup | None = None,
                 notation: Notation = Notation.CUSTOMARY) -> None:
        super().__init__(size, komi=komi, setup=setup, notation=notation)
        # `setup` is only ever given for Go (format spec: setup is Go-only), so it is ignored here.
        self._t: CationTables = tables(size)
        nn = size * size
        self._cells: list[int] = [EMPTY] * nn
        # Groups of orthogonally connected stones (union-find by size); at each root, the edges of its colour the
        # group touches (bits 1 and 2) and its size.
        self._parent: list[int] = list(range(nn))
        self._mask: list[int] = [0] * nn
        self._gsize: list[int] = [1] * nn
        self._cc: set[int] = set()  # crosscut blocks (top-left index), CAT-2
        self._cc_cache: tuple[Crosscut, ...] | None = ()
        # CAT-3: index of the opponent's latest stone (placed or moved to on the previous turn), -1 when none:
        # at the start, and after a pass, a swap or a removal.
        self._latest = -1
        self._empty = nn
        self._mover = Colour.BLACK  # GEN-5: Black moves first

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> Colour:
        return self._mover

    def stone(self, point: Point) -> Colour | None:
        c, r = point
        n = self.size
        return COLOUR.get(self._cells[r * n + c]) if 0 <= c < n and 0 <= r < n else None

    def rows(self) -> list[list[Colour | None]]:
        n, cells, get = self.size, self._cells, COLOUR.get
        return [[get(cells[r * n + c]) for c in range(n)] for r in range(n)]

    def crosscuts(self) -> tuple[Crosscut, ...]:
        """Every crosscut on the board (CAT-2), each as its 4 points (top-left, top-right, bottom-left,
        bottom-right), ordered by the top-left point in reading order."""
        cached = self._cc_cache
        if cached is None:
            bp = self._t.block_points
            cached = self._cc_cache = tuple(bp[b] for b in sorted(self._cc))
        return cached

    @property
    def latest_stone(self) -> Point | None:
        """The opponent's latest stone for the side to move (CAT-3), or None when there is none."""
        return self._t.points[self._latest] if self._latest >= 0 else None

    @property
    def situation(self) -> str:
        """"a" with no crosscut on the board (CAT-4), "b" with at least one (CAT-6)."""
        return "b" if self._cc else "a"

    # -- play ----------------------------------------------------------------------------------------------
    def play(self, move: Move, marks: Marks | None = None) -> Change:
        if self.end is not None:
            raise IllegalMove("after-end", _END_RULE, "move after the end of the game", move.point)
        kind = move.kind
        if kind not in _KINDS:
            raise _kind_error(move)
        mover = self._mover
        if move.colour != mover:
            raise IllegalMove("wrong-turn", "GEN-5", f"{mover.word} to move, not {_word(move.colour)}",
                              move.point)
        x = BLACK if mover is Colour.BLACK else WHITE
        if kind is _PLACE:
            return self._place(move, x)
        if kind is _RELOCATE:
            return self._relocate(move, x)
        if kind is _REMOVE:
            return self._remove(move, x)
        if kind is _PASS:
            return self._pass(x)
        return self._swap()

    def _place(self, move: Move, x: int) -> Change:
        # The hot path of a replay: index and turn handling are inlined here.
        point = move.point
        n = self.size
        if point is None or not (0 <= point[0] < n and 0 <= point[1] < n):
            self._index(point, move)  # raises the precise error
        i = point[1] * n + point[0]  # type: ignore[index]
        t = self._t
        pt = t.points[i]
        if self._cc:
            raise IllegalMove("placement-in-situation-b", "CAT-6",
                              f"{self.names(pt)}: there is a crosscut on the board: a crosscut stone must be moved"
                              " or removed (CAT-6)", pt)
        cells = self._cells
        if cells[i]:
            raise IllegalMove("occupied", "CAT-4", f"{self.names(pt)}: the point is occupied (CAT-4)", pt)
        y = 3 - x
        diags = t.diags[i]
        latest = self._latest
        if latest >= 0:
            # CAT-4: the board holds no crosscut, so any crosscut the placement makes contains the new stone;
            # it is illegal only when it also contains the opponent's latest stone (CAT-3).
            for d, a, b, _ in diags:
                if (a == latest or b == latest) and cells[d] == x and cells[a] == y and cells[b] == y:
                    raise IllegalMove(
                        "crosscut-with-latest", "CAT-4",
                        f"{self.names(pt)}: the stone would form a crosscut with {COLOUR[y].word}'s latest stone"
                        f" {self.names(t.points[latest])} (CAT-4)", pt)
        cells[i] = x
        self._empty -= 1
        cc = self._cc
        for d, a, b, blk in diags:
            # CAT-4: a placement may create crosscuts without the latest stone; the opponent faces situation b.
            if cells[d] == x and cells[a] == y and cells[b] == y:
                cc.add(blk)
                self._cc_cache = None
        self._latest = i
        self.turn += 1
        self._mover = self._mover.other
        self._join(i, x)
        cached = self._cc_cache
        return Change(placed=(pt,), crosscuts=cached if cached is not None else self.crosscuts())

    @property
    def compiled_runs(self) -> bool:
        return COMPILED is not None

    def play_run(self, nodes: Sequence[Node], start: int) -> tuple[int, int, int]:
        """Play the plain placements of `nodes` from `start` in the compiled helper, as `play` would one by one:
        nodes that hold a placement of the colour to move and no setup, and empty nodes. Stops before any other
        node and before a placement the rules refuse (`play` then says why), and after a placement that forms a
        crosscut or completes a chain. Returns (the index of the first node not played, the moves played, the index
        of the last node played or -1). Changes are not reported: for the verdict's replay, which needs none."""
        module = COMPILED
        if module is None or self.end is not None or self._cc:
            # After the end every move is refused (CAT-8); in situation b no placement is legal (CAT-6).
            return start, 0, -1
        end, played, last, latest, black_next, crosscut, chain = module.play_run(
            nodes, start, self.size, self._cells, self._parent, self._mask, self._gsize, self._cc, self._latest,
            self._mover is _B, _B, _W, _PLACE, _RUN_ENDS)
        if played:
            self.turn += played
            self._empty -= played
            self._latest = latest
            self._mover = _B if black_next else _W
            if crosscut:
                self._cc_cache = None
                self.crosscuts()  # as `_place` leaves it
            if chain:
                # CAT-8: the mover of the last placement completed the chain.
                self.end = Outcome(finished=True, method=ResultMethod.CHAIN, winner=_W if black_next else _B,
                                   reason=_CHAIN_REASON)
        return end, played, last

    def _relocate(self, move: Move, x: int) -> Change:
        o = self._index(move.point, move)
        if move.target is None:
            raise IllegalMove("malformed-move", "CAT-10",
                              f"{self.names(self._t.points[o])}-: a relocation needs a destination (CAT-10)",
                              move.point)
        t = self._index(move.target, move)
        pts = self._t.points
        src, dst = pts[o], pts[t]
        if not self._cc:
            raise IllegalMove("relocation-in-situation-a", "CAT-6",
                              f"{self.names(src)}-{self.names(dst)}: no crosscut on the board:"
                              " a stone must be placed (CAT-6, CAT-4)", src)
        self._check_chosen(o, x, "move")
        cells = self._cells
        if t == o:
            raise IllegalMove("same-point", "CAT-6",
                              f"{self.names(src)}-{self.names(dst)}: the stone must be put on a"
                              " different point (CAT-6)", dst)
        if cells[t]:
            raise IllegalMove("target-occupied", "CAT-6", f"{self.names(dst)}: the point is occupied (CAT-6)", dst)
        if self._forms(t, x, o):
            raise IllegalMove("relocation-crosscut", "CAT-6",
                              f"{self.names(dst)}: the stone would belong to a crosscut there (CAT-6)", dst)
        self._lift(o, x)
        cells[t] = x  # CAT-6: checked above, the stone belongs to no crosscut on its new point
        self._latest = t  # CAT-3: a stone moved to its new point is the latest stone
        self._advance()
        self._join(t, x)
        return Change(relocated=((src, dst),), crosscuts=self.crosscuts())

    def _remove(self, move: Move, x: int) -> Change:
        o = self._index(move.point, move)
        src = self._t.points[o]
        if not self._cc:
            raise IllegalMove("removal-in-situation-a", "CAT-6",
                              f"{self.names(src)}-: no crosscut on the board:"
                              " a stone must be placed (CAT-6, CAT-4)",
                              src)
        self._check_chosen(o, x, "remove")
        if self._has_destination(o, x):
            # CAT-7: removal only for a stone with no legal destination (the mover may still choose that stone
            # when another crosscut stone could move).
            raise IllegalMove("removal-with-destination", "CAT-7",
                              f"{self.names(src)}: the stone has a legal destination, so it may not be removed"
                              " (CAT-7)", src)
        self._lift(o, x)
        self._empty += 1
        self._latest = -1  # CAT-3: no latest stone after a removal
        self._advance()
        return Change(removed=(src,), crosscuts=self.crosscuts())

    def _pass(self, x: int) -> Change:
        if self._cc:
            raise IllegalMove("pass-in-situation-b", "CAT-5",
                              "pass is not allowed while there is a crosscut on the board (CAT-5)")
        if self._placement_exists(x):
            # CAT-5: the swap of CAT-9 does not count as a placement, so it never makes a pass illegal.
            raise IllegalMove("pass-not-forced", "CAT-5", "pass is not allowed while a legal placement exists (CAT-5)")
        self._latest = -1  # CAT-3: no latest stone after a pass
        self._advance()
        return Change(crosscuts=self.crosscuts())

    def _swap(self) -> Change:
        if self.turn != 1:
            raise IllegalMove("swap-not-turn-2", "CAT-9", f"swap only on turn 2, not turn {self.turn + 1} (CAT-9)")
        # GEN-7: the players exchange colours, the stones stay; the player who now holds White moves
        # next, so the colour to move stays White.
        self.swapped = True
        self.turn += 1
        self._latest = -1  # CAT-3: no latest stone after a swap
        return Change(swapped=True, crosscuts=self.crosscuts())

    # -- legal moves ---------------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.end is not None:
            return []
        colour = self._mover
        x = BLACK if colour is Colour.BLACK else WHITE
        cells = self._cells
        pts = self._t.points
        moves: list[Move] = []
        if not self._cc:
            moves = [Move(colour, _PLACE, pts[i]) for i, v in enumerate(cells) if not v and not self._hits_latest(i, x)]
            if not moves:
                moves.append(Move(colour, _PASS))  # CAT-5: forced
            if self.turn == 1:
                moves.append(Move(colour, _SWAP))  # CAT-9
            return moves
        empties = [i for i, v in enumerate(cells) if not v]
        bad = [t for t in empties if self._forms(t, x, -1)]
        if bad:
            refused = set(bad)
            good = [t for t in empties if t not in refused]
        else:
            good = empties
        for o in self._chosen_stones(x):
            # Lifting `o` can only clear crosscuts in which it is the diagonal partner of the destination.
            freed = [t for t in bad if not self._forms(t, x, o)]
            dests = sorted(good + freed) if freed else good
            if dests:
                moves.extend(Move(colour, _RELOCATE, pts[o], pts[t]) for t in dests)
            else:
                moves.append(Move(colour, _REMOVE, pts[o]))  # CAT-7
        return moves

    # -- helpers -------------------------------------------------------------------------------------------
    def _index(self, point: Point | None, move: Move) -> int:
        if point is None:
            raise IllegalMove("malformed-move", "CAT-10", f"{move.kind} needs a point (CAT-10)")
        c, r = point
        n = self.size
        if not (0 <= c < n and 0 <= r < n):
            raise IllegalMove("off-board", "CAT-1", f"point {self.names(point)} is off the {n}x{n} board (CAT-1)",
                              point)
        return r * n + c

    def _advance(self) -> None:
        self.turn += 1
        self._mover = self._mover.other

    def _forms(self, t: int, x: int, lifted: int) -> bool:
        """Whether a stone of `x` on empty point `t` would belong to a crosscut, with the stone on `lifted` taken
        off the board first (CAT-6: the check is made with the stone lifted); `lifted` = -1 for none."""
        cells = self._cells
        y = 3 - x
        return any(d != lifted and cells[d] == x and cells[a] == y and cells[b] == y
                   for d, a, b, _ in self._t.diags[t])

    def _hits_latest(self, i: int, x: int) -> bool:
        """CAT-4 in situation a: placing `x` on `i` would form a crosscut containing the opponent's latest stone."""
        latest = self._latest
        if latest < 0:
            return False
        cells = self._cells
        y = 3 - x
        for d, a, b, _ in self._t.diags[i]:
            if (a == latest or b == latest) and cells[d] == x and cells[a] == y and cells[b] == y:
                return True
        return False

    def _placement_exists(self, x: int) -> bool:
        """CAT-5: whether any legal placement exists in situation a."""
        if self._latest < 0 or self._empty > 8:
            # Only the 8 points around the latest stone can be refused by CAT-4.
            return self._empty > 0
        cells = self._cells
        return any(not v and not self._hits_latest(i, x) for i, v in enumerate(cells))

    def _check_chosen(self, o: int, x: int, verb: str) -> None:
        """CAT-6: the chosen stone must be one of the mover's stones and belong to a crosscut."""
        cells = self._cells
        src = self._t.points[o]
        if cells[o] != x:
            what = "an empty point" if not cells[o] else f"a {COLOUR[cells[o]].word} stone"
            raise IllegalMove("not-own-stone", "CAT-6",
                              f"{self.names(src)}: {what}; the mover must {verb} a {COLOUR[x].word} stone (CAT-6)",
                              src)
        cc = self._cc
        if not any(b in cc for b in self._t.blocks[o]):
            raise IllegalMove("not-in-crosscut", "CAT-6",
                              f"{self.names(src)}: the stone belongs to no crosscut (CAT-6)", src)

    def _chosen_stones(self, x: int) -> list[int]:
        """The mover's stones that belong to a crosscut (CAT-6), in reading order."""
        cells = self._cells
        n = self.size
        out: set[int] = set()
        for b in self._cc:
            for i in (b, b + 1, b + n, b + n + 1):
                if cells[i] == x:
                    out.add(i)
        return sorted(out)

    def _has_destination(self, o: int, x: int) -> bool:
        """CAT-6 / CAT-7: whether the stone on `o` has an empty point other than `o` where, with it lifted, it
        would belong to no crosscut."""
        cells = self._cells
        forms = self._forms
        return any(not v and not forms(t, x, o) for t, v in enumerate(cells))

    def _lift(self, o: int, x: int) -> None:
        """Take the stone on `o` off the board: its crosscuts go, and what was its group is regrouped."""
        t = self._t
        cells = self._cells
        cells[o] = EMPTY
        cc = self._cc
        for b in t.blocks[o]:
            if b in cc:
                cc.discard(b)
                self._cc_cache = None
        # Union-find cannot delete: the stones of the lifted stone's old group are relabelled from scratch, one
        # new group per remaining piece. No node outside that group points into it, so nothing else changes.
        parent, mask, gsize = self._parent, self._mask, self._gsize
        orth, bits = t.orth, t.edge_bits[x]
        seen: set[int] = set()
        for j in orth[o]:
            if cells[j] != x or j in seen:
                continue
            seen.add(j)
            group = [j]
            m = 0
            for k in group:  # grows while it is walked: a breadth-first search
                parent[k] = j
                m |= bits[k]
                for q in orth[k]:
                    if cells[q] == x and q not in seen:
                        seen.add(q)
                        group.append(q)
            mask[j] = m
            gsize[j] = len(group)

    def _join(self, i: int, x: int) -> None:
        """Add the new stone on `i` to its colour's groups; end the game when it completes a chain (CAT-8)."""
        parent, mask, gsize, cells = self._parent, self._mask, self._gsize, self._cells
        root, m, s = i, self._t.edge_bits[x][i], 1
        parent[i] = i
        for j in self._t.orth[i]:
            if cells[j] != x:
                continue
            r = j
            while parent[r] != r:  # find, with path halving
                parent[r] = r = parent[parent[r]]
            if r == root:
                continue
            if gsize[r] >= s:  # union by size
                parent[root] = r
                root, m, s = r, m | mask[r], s + gsize[r]
            else:
                parent[r] = root
                m |= mask[r]
                s += gsize[r]
        mask[root] = m
        gsize[root] = s
        # CAT-8: only the mover can complete a chain; the group's edge bits say so, chains.py confirms it.
        if m == 3 and has_chain(cells, self.size, x):
            self.end = Outcome(finished=True, method=ResultMethod.CHAIN, winner=COLOUR[x], reason=_CHAIN_REASON)


def _word(colour: object) -> str:
    return colour.word if isinstance(colour, Colour) else str(colour)



def _kind_error(move: Move) -> IllegalMove:
    if move.kind is MoveKind.INVALID:
        # The driver reports INVALID moves itself; kept here so that such a move can never crash the engine.
        rule = move.rule or "CAT-10"
        return IllegalMove("kind-not-allowed", rule, f"{move.problem or 'not a Cation move'} ({rule})", move.point)
    return IllegalMove("kind-not-allowed", "CAT-10",
                       f"{move.kind} is not a Cation move: Cation has placement, relocation, removal, pass and swap"
                       " (CAT-10)", move.point)
