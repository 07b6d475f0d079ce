"""Go under the Simplified Ing Rules (/work/shared/rules/go-ing.md, ING-1 .. ING-10).

Speed matters here (the real Go corpus is replayed with this engine), so the position is kept incrementally:
every stone knows its string, every string its stones and its set of liberties, and a play only touches the
strings next to it. Positional superko (ING-4) is checked with 64-bit Zobrist hashes of every earlier position
(a false repetition would need two of a game's few hundred positions to share a hash: about 1 in 10^14).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence, Set
from types import ModuleType
from typing import ClassVar

from ...records.games import Game, MoveKind
from ...records.model import Colour, Move, Node, Setup
from ...records.notation import Notation
from ...records.points import Point
from .engine import (
    BLACK,
    EMPTY,
    WHITE,
    Change,
    Engine,
    EngineWarning,
    IllegalMove,
    Marks,
    Outcome,
    Pieces,
    Score,
    Side,
)
from .grid import grid


def compiled_module() -> ModuleType | None:
    """The compiled plain plays (_go.c, built at install when a C compiler is there), unless it was not built."""
    try:
        from . import _go
    except ImportError:
        return None
    return _go


# The compiled runs of plain plays (`GoEngine.play_run`); None: every move is played in Python (the reference).
COMPILED: ModuleType | None = compiled_module()
# What ends a compiled run besides a move that is not a placement: setup (ING-8) and the end-of-game marks (ING-7),
# which the replay driver looks at.
_RUN_ENDS = ("AB", "AW", "AE", "PL", "TB", "TW")

_PLACE = MoveKind.PLACE
_PASS = MoveKind.PASS
_B = Colour.BLACK
_W = Colour.WHITE

_COLOURS: tuple[Colour | None, ...] = (None, _B, _W)  # indexed by cell code

END_STOP = "two passes (ING-5)"
END_AGREED = "two passes and agreement (ING-5)"
END_RESUMED = "two passes after resumed play (ING-5)"


class _Tables:
    """What depends on the board size only: neighbours, point tuples and Zobrist keys, built once per size."""

    __slots__ = ("keys", "neighbours", "points", "zobrist")

    def __init__(self, size: int) -> None:
        n = size * size
        g = grid(size)
        self.neighbours: tuple[tuple[int, ...], ...] = g.neighbours
        self.points: tuple[Point, ...] = g.points
        # A fixed seed per size keeps position hashes reproducible between runs (they may be stored or compared).
        rng = random.Random(0x60_1A6 * 64 + size)
        keys_b = [rng.getrandbits(64) for _ in range(n)]
        keys_w = [rng.getrandbits(64) for _ in range(n)]
        self.zobrist: tuple[list[int], list[int], list[int]] = ([], keys_b, keys_w)  # indexed by cell code
        self.keys = (array("Q", keys_b).tobytes(), array("Q", keys_w).tobytes())  # the same, for the compiled runs


_TABLES: dict[int, _Tables] = {}


def _tables(size: int) -> _Tables:
    t = _TABLES.get(size)
    if t is None:
        t = _TABLES[size] = _Tables(size)
    return t


# A string (ING-2) is a two-item list [stones, liberties]: its stones as flat indices, and the set of its liberties.
# A list rather than a small class, because one is created for most plays and a list is several times cheaper.
_String = list  # [list[int], set[int]]

# What `_strs` holds for an empty point: a shared placeholder that is never read (a point's string is looked up only
# while the point holds a stone), so `_strs` needs no None and its entries need no test on the hot path.
_NO_STRING: _String = [[], set()]


class GoEngine(Engine):
    """Go under the Simplified Ing Rules.

    The end of the game (ING-5): the first stop (two successive passes) with TB/TW marks on the node of its second
    pass is the agreement and ends the game for good. A first stop without marks sets `end` provisionally
    ("two passes (ING-5)", the board scored as it stands) and `stopped` to True: a record that stops there is
    finished, but a further move resumes play (it is not a move after the end) and clears `end` again; the next
    two successive passes then end the game for good. `play` raises "after-end" only after a final end.
    """

    game: ClassVar[Game] = Game.GO

    def __init__(self, size: int, *, komi: float = 0.0, setup: Setup | None = None,
                 notation: Notation = Notation.CUSTOMARY) -> None:
        super().__init__(size, komi=komi, setup=setup, notation=notation)
        t = _tables(size)
        self._nb = t.neighbours
        self._pts = t.points
        self._zob = t.zobrist
        self._keys = t.keys
        n = size * size
        self._cells: list[int] = [EMPTY] * n
        # The last rows() made and the cells of each row then: a row no move has changed since is given again.
        self._made: tuple[list[list[int]], list[list[Colour | None]]] | None = None
        self._strs: list[_String] = [_NO_STRING] * n
        self._passes = 0  # successive passes just played
        self._resumed = False  # play went on after a first stop without agreement (ING-5)
        self._final = False  # the game has ended for good (ING-5)
        self.stopped = False  # True while `end` is the provisional end of a first stop without marks
        self._dead = False  # strings without liberties stand on the board (only possible from a setup)
        self._stale = False  # `_strs` is behind `_cells` after a compiled run: rebuilt when next needed
        # Opposing stones each colour has taken off (indexed by cell code): captures, a suicide's stones for the
        # opponent, and the agreed removals (ING-7); a territory count adds them as prisoners.
        self._taken = [0, 0, 0]
        # The TB/TW marks that ended the game and the stones they removed (ING-5, ING-7).
        self._agreement: tuple[Marks, frozenset[int]] | None = None
        h = 0
        first = _B
        if setup is not None:
            # ING-8: setup stones make the starting position and remove nothing.
            cells = self._cells
            for code, points in ((BLACK, setup.black), (WHITE, setup.white)):
                for col, row in points:
                    i = row * size + col
                    if cells[i]:  # on both lists (the reader should not allow it): the white stone stands
                        h ^= self._zob[cells[i]][i]
                    cells[i] = code
                    h ^= self._zob[code][i]
            if not setup.empty:
                self._rebuild_strings()
            # ING-8: PL decides; without it White moves first when the setup holds only black stones (handicap).
            if setup.to_move is not None:
                first = setup.to_move
            elif setup.black and not setup.white:
                first = _W
        self._to_move = first
        self._hash = h
        # ING-4: the starting position is an earlier position of every later play.
        self._history: set[int] = {h}

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> Colour:
        return self._to_move

    @property
    def player_to_move(self) -> int:
        # Go has no swap, and White moves first in a handicap game (ING-8), so turn parity alone is not enough.
        return 0 if self._to_move is _B else 1

    @property
    def position_hash(self) -> int:
        """The Zobrist hash of the stones on the board (64 bits; equal positions have equal hashes)."""
        return self._hash

    def stone(self, point: Point) -> Colour | None:
        return _COLOURS[self._cells[point[1] * self.size + point[0]]]

    def rows(self) -> list[list[Colour | None]]:
        """The board, row 0 at the top. The replay asks for it after every move, and a move changes few rows: a row
        whose points are as at the last call is the same list again (the rows are read, never changed)."""
        cells = self._cells
        s = self.size
        colour = _COLOURS.__getitem__
        parts = [cells[r * s:(r + 1) * s] for r in range(s)]
        made = self._made
        if made is None:
            rows = [list(map(colour, part)) for part in parts]
        else:
            rows = [row if part == old else list(map(colour, part))
                    for part, old, row in zip(parts, made[0], made[1], strict=True)]
        self._made = (parts, rows)
        return rows

    # -- play ----------------------------------------------------------------------------------------------
    def play(self, move: Move, marks: Marks | None = None) -> Change:
        if self._final:
            raise IllegalMove("after-end", "ING-5", "move after the end of the game", move.point)
        if move.kind is not _PLACE:
            return self._not_a_play(move, marks)
        colour = move.colour
        if colour is not self._to_move:
            raise self._wrong_turn(move)
        point = move.point
        i = point[1] * self.size + point[0]  # type: ignore[index]
        cells = self._cells
        if cells[i]:
            # ING-3: a play puts a stone on an empty point.
            raise IllegalMove("occupied", "ING-3", f"{self.names(point)} is occupied", point)  # type: ignore[arg-type]
        if self._stale:
            self._rebuild_strings()
        if self._dead:
            return self._play_slow(i, point)  # type: ignore[arg-type]
        c = BLACK if colour is _B else WHITE
        strs = self._strs
        libs: set[int] = set()
        own: list[_String] = []
        caught: list[_String] | None = None
        for j in self._nb[i]:
            v = cells[j]
            if not v:
                libs.add(j)
            elif v == c:
                s = strs[j]
                if s not in own:
                    own.append(s)
            else:
                s = strs[j]
                slibs = s[1]
                if i in slibs:
                    if len(slibs) == 1:
                        if caught is None:
                            caught = [s]
                        elif s not in caught:
                            caught.append(s)
                    else:
                        # Taken back below if the play turns out illegal (play must be atomic).
                        slibs.discard(i)
        zc = self._zob[c]
        h = self._hash ^ zc[i]
        suicide = False
        if caught is not None:
            zo = self._zob[3 - c]
            for s in caught:
                for k in s[0]:
                    h ^= zo[k]
        elif not libs:
            # ING-3: with nothing captured and no empty neighbour, the new string dies when every own string it
            # joins had this point as its last liberty.
            suicide = True
            for s in own:
                if len(s[1]) > 1:
                    suicide = False
                    break
            if suicide:
                h ^= zc[i]
                for s in own:
                    for k in s[0]:
                        h ^= zc[k]
        history = self._history
        if h in history:
            for j in self._nb[i]:
                if cells[j] and cells[j] != c:
                    strs[j][1].add(i)
            raise self._repetition(point, suicide and not own)  # type: ignore[arg-type]

        # The play is legal: apply it.
        history.add(h)
        self._hash = h
        self.turn += 1
        self._to_move = _W if c == BLACK else _B
        self._passes = 0
        if self.stopped:
            self._resume()
        if suicide:
            # ING-3: own strings without liberties are removed after the opponent's: suicide is carried out.
            gone = [i]
            for s in own:
                gone.extend(s[0])
            self._take_off(gone, c)
            self._taken[3 - c] += len(gone)
            pts = self._pts
            return Change((point,), tuple([pts[k] for k in gone]))  # type: ignore[arg-type]
        cells[i] = c
        if own:
            big = own[0]
            if len(own) > 1:
                for s in own:
                    if len(s[0]) > len(big[0]):
                        big = s
                blibs = big[1]
                bstones = big[0]
                for s in own:
                    if s is not big:
                        for k in s[0]:
                            strs[k] = big
                        bstones.extend(s[0])
                        blibs |= s[1]
            big[0].append(i)
            strs[i] = big
            blibs = big[1]
            blibs |= libs
            blibs.discard(i)
        else:
            strs[i] = [[i], libs]
        # Positional arguments: Change(placed, captured) is measurably cheaper than keywords on this hot path.
        if caught is None:
            return Change((point,))  # type: ignore[arg-type]
        # ING-3: opposing strings without liberties are removed.
        gone = []
        for s in caught:
            gone.extend(s[0])
        self._take_off(gone, 3 - c)
        self._taken[c] += len(gone)
        pts = self._pts
        return Change((point,), tuple([pts[k] for k in gone]))  # type: ignore[arg-type]

    @property
    def compiled_runs(self) -> bool:
        return COMPILED is not None

    def play_run(self, nodes: Sequence[Node], start: int) -> tuple[int, int, int]:
        """Play the plain placements of `nodes` from `start` in the compiled helper, as `play` would one by one:
        nodes that hold a placement of the colour to move and nothing the replay driver reads (setup, marks), and
        empty nodes. Stops before any other node and before a move the rules refuse (`play` then says why).
        Returns (the index of the first node not played, the moves played, the index of the last node played or
        -1). Changes are not reported: for the verdict's replay, which needs none."""
        end, played, last, _, _ = self._run(nodes, start, False)
        return end, played, last

    @property
    def logs_runs(self) -> bool:
        return COMPILED is not None

    def play_logged(self, nodes: Sequence[Node], start: int) -> tuple[int, int, int, bytes, bytes]:
        """`play_run`, and the log of what it did (Engine.play_logged), for the import's watchers."""
        return self._run(nodes, start, True)

    def _run(self, nodes: Sequence[Node], start: int, log: bool) -> tuple[int, int, int, bytes, bytes]:
        module = COMPILED
        if module is None or self._final or self._dead:
            return start, 0, -1, b"", b""
        cells = bytearray(self._cells)
        end, played, last, h, black_next, by_black, by_white, *logged = module.play_run(
            nodes, start, self.size, cells, self._keys[0], self._keys[1], self._hash, self._history, _B, _W,
            self._to_move is _B, _PLACE, _RUN_ENDS, log)
        if played:
            self._cells = list(cells)
            self._taken[BLACK] += by_black
            self._taken[WHITE] += by_white
            self._stale = True
            self._hash = h
            self.turn += played
            self._to_move = _B if black_next else _W
            self._passes = 0
            if self.stopped:
                self._resume()
        placed, taken = logged if logged else (b"", b"")
        return end, played, last, placed, taken

    def _not_a_play(self, move: Move, marks: Marks | None) -> Change:
        if move.kind is not _PASS:
            # ING-10: standard SGF Go knows only plays and passes (resign is the driver's).
            raise IllegalMove("kind-not-allowed", "ING-10", f'"{move.sgf_value()}" is not a move of go-ing',
                              move.point)
        if move.colour is not self._to_move:
            raise self._wrong_turn(move)
        return self._pass(marks)

    def _wrong_turn(self, move: Move) -> IllegalMove:
        return IllegalMove("wrong-turn", "GEN-5", f"{self._to_move.word} to move, not {move.colour.word}",
                           move.point)

    def _repetition(self, point: Point, lone_suicide: bool) -> IllegalMove:
        # ING-4: positional superko; a lone suicide capturing nothing recreates the current position itself.
        if lone_suicide:
            return IllegalMove("single-stone-suicide", "ING-4",
                               f"single-stone suicide on {self.names(point)} recreates the current position",
                               point)
        return IllegalMove("superko", "ING-4",
                           f"play on {self.names(point)} recreates an earlier position (positional superko)",
                           point)

    def _take_off(self, stones: list[int], code: int) -> None:
        """Remove stones of colour `code` (whole strings) and give their points back as liberties."""
        cells = self._cells
        strs = self._strs
        nb = self._nb
        none = _NO_STRING
        for k in stones:
            cells[k] = EMPTY
            strs[k] = none
        for k in stones:
            for m in nb[k]:
                v = cells[m]
                if v and v != code:
                    strs[m][1].add(k)

    def _resume(self) -> None:
        # ING-5: a move after a first stop without agreement resumes play; history is not reset.
        self.stopped = False
        self.end = None
        self._resumed = True

    def _pass(self, marks: Marks | None) -> Change:
        # ING-4: a pass is always legal and creates no new position.
        # ING-5: after a first stop without agreement, a pass resumes play and starts a new count of passes.
        passes = 1 if self.stopped else self._passes + 1
        change = Change()
        end: Outcome | None = None
        stop = False
        if passes == 2:
            if self._resumed:
                # ING-5: after resumed play the next two successive passes end the game, scored as it stands.
                if marks:
                    self.warnings.append(EngineWarning(
                        "marks-ignored", "ING-5",
                        "TB/TW marks on the final pass after resumed play remove nothing (ING-5)"))
                end = self._scored(frozenset(), END_RESUMED)
            elif marks is not None:
                # ING-5: TB/TW on the second pass of the first stop is the agreement (even if it removes nothing).
                removed = self._agreed_removals(marks)  # raises on a split string, before anything changes
                self._territory_warnings(marks, removed)
                end = self._scored(removed, END_AGREED)
                self._agreement = (marks, removed)
                if removed:
                    self._remove_agreed(removed)
                    pts = self._pts
                    change = Change(removed=tuple(pts[k] for k in sorted(removed)))
            else:
                # ING-5: a record that ends at the first stop without marks is scored as it stands; a further move
                # would resume play, so this end is provisional.
                end = self._scored(frozenset(), END_STOP)
                stop = True
        if self.stopped:
            self._resume()
        self.end = end
        self.stopped = stop
        self._final = end is not None and not stop
        self._passes = passes
        self.turn += 1
        self._to_move = self._to_move.other
        return change

    # -- end of the game -----------------------------------------------------------------------------------
    def _agreed_removals(self, marks: Marks) -> frozenset[int]:
        """The stones the marks remove (ING-7): white stones on TB points, black stones on TW points."""
        if self._stale:
            self._rebuild_strings()
        s = self.size
        cells = self._cells
        marked: set[int] = set()
        for points, dead in ((marks.black, WHITE), (marks.white, BLACK)):
            for col, row in points:
                if 0 <= col < s and 0 <= row < s and cells[row * s + col] == dead:
                    marked.add(row * s + col)
        # ING-7: every removed string must be removed whole. When several are split, the one named is the one whose
        # first point (in (column, row) order, as the warnings list points) comes first.
        split: list[tuple[Point, int, int]] = []
        seen: set[int] = set()
        pts = self._pts
        for k in marked:
            string = self._strs[k]
            assert string is not _NO_STRING
            stones = string[0]
            if stones[0] in seen:
                continue
            seen.add(stones[0])
            hit = sum(1 for m in stones if m in marked)
            if hit != len(stones):
                split.append((min(pts[m] for m in stones), len(stones), hit))
        if split:
            p, total, hit = min(split)
            raise IllegalMove("marks-split", "ING-7",
                              f"the marks split the {total}-stone string at {self.names(p)}: {hit} of its stones "
                              "are marked", p)
        return frozenset(marked)

    def _territory_warnings(self, marks: Marks, removed: frozenset[int]) -> None:
        # ING-7: marks on points that are empty once the marked stones are removed (empty points and the removed
        # stones' points) are checked against the territory computed after the removals. A mark on a stone of the
        # mark's own colour is neither a removal nor territory and is left alone (no rule speaks of it).
        _, _, owner = self._area(removed)
        s = self.size
        cells = self._cells
        for label, points, code in (("TB", marks.black, BLACK), ("TW", marks.white, WHITE)):
            wrong = sorted(
                (col, row) for col, row in points
                if 0 <= col < s and 0 <= row < s and owner[row * s + col] != code
                and (not cells[row * s + col] or row * s + col in removed))
            if wrong:
                # Every point is named: a user checking the marks needs all of them, not a sample.
                listed = " ".join(self.names(p) for p in wrong)
                self.warnings.append(EngineWarning(
                    "marks-not-territory", "ING-7",
                    f"{label} marks on points that are not that colour's territory: {listed}"))

    def _remove_agreed(self, removed: frozenset[int]) -> None:
        """Take the agreed dead stones off the board (the game has ended; the hash follows, the history not)."""
        cells = self._cells
        h = self._hash
        for k in removed:
            h ^= self._zob[cells[k]][k]
        done: set[int] = set()
        for k in sorted(removed):
            if k in done:
                continue
            string = self._strs[k]
            assert string is not _NO_STRING
            stones = list(string[0])
            done.update(stones)
            self._taken[3 - cells[k]] += len(stones)
            self._take_off(stones, cells[k])
        self._hash = h

    def standing(self) -> Outcome:
        return self._scored(frozenset(), "as it stands (ING-6)")

    def _scored(self, removed: Set[int], reason: str) -> Outcome:
        black, white, _ = self._area(removed)
        return Outcome.scored(Score(black, white, self.komi), reason)

    def _area(self, removed: Set[int]) -> tuple[int, int, list[int]]:
        """ING-6 area count with `removed` stones taken as empty: (black, white, owner of every point).

        The owner of an empty point is BLACK or WHITE when its empty region touches that colour only, else EMPTY.
        """
        cells = [EMPTY if k in removed else v for k, v in enumerate(self._cells)] if removed else self._cells
        if COMPILED is not None:
            owned = COMPILED.owners(bytes(cells), self.size)
            return owned.count(BLACK), owned.count(WHITE), list(owned)
        nb = self._nb
        n = len(cells)
        owner = list(cells)
        seen = [False] * n
        for start in range(n):
            if cells[start] or seen[start]:
                continue
            region = [start]
            seen[start] = True
            touches = 0
            k = 0
            while k < len(region):
                p = region[k]
                k += 1
                for m in nb[p]:
                    v = cells[m]
                    if v:
                        touches |= v
                    elif not seen[m]:
                        seen[m] = True
                        region.append(m)
            code = touches if touches in (BLACK, WHITE) else EMPTY
            for p in region:
                owner[p] = code
        return owner.count(BLACK), owner.count(WHITE), owner

    def pieces(self) -> Pieces:
        """The board as it stands (after any agreed removals) in the pieces of a count: each colour's stones, its
        territory (ING-6) and the opposing stones it has taken off."""
        black, white, _ = self._area(frozenset())
        cells = self._cells
        s = self.size
        taken = self._taken
        marked: tuple[int | None, int | None] = (None, None)
        if self._agreement is not None:
            # ING-7: marks on the points that are empty once the agreed removals are made state each colour's
            # territory as the players agreed it (the engine warns where it differs from the computed one) -- unless
            # they name nothing but the stones they remove.
            marks, removed = self._agreement
            on_empty = [[k for col, row in points if 0 <= col < s and 0 <= row < s and not cells[k := row * s + col]]
                        for points in (marks.black, marks.white)]
            if any(k not in removed for k in on_empty[0] + on_empty[1]):
                marked = (len(on_empty[0]), len(on_empty[1]))
        sides = []
        for code, area, territory in ((BLACK, black, marked[0]), (WHITE, white, marked[1])):
            stones = cells.count(code)
            sides.append(Side(stones, area - stones, taken[code], territory))
        return Pieces(*sides)

    def score(self, removed: Set[Point] = frozenset()) -> Score:
        """ING-6: each colour's stones plus the empty regions that touch only that colour, `removed` taken off."""
        s = self.size
        black, white, _ = self._area({row * s + col for col, row in removed})
        return Score(black, white, self.komi)

    # -- legal moves ---------------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self._final:
            return []
        if self._stale:
            self._rebuild_strings()
        colour = self._to_move
        c = BLACK if colour is _B else WHITE
        out = [Move(colour, _PASS)]
        cells = self._cells
        pts = self._pts
        for i in range(len(cells)):
            if not cells[i] and self._would_be_legal(i, c):
                out.append(Move(colour, _PLACE, point=pts[i]))
        return out

    def _would_be_legal(self, i: int, c: int) -> bool:
        """Whether a play of colour code `c` on the empty point `i` is legal (ING-3, ING-4), changing nothing."""
        if self._dead:
            return self._simulate(i, c)[0] not in self._history
        cells = self._cells
        strs = self._strs
        zc = self._zob[c]
        zo = self._zob[3 - c]
        h = self._hash ^ zc[i]
        own: list[_String] = []
        caught: list[_String] = []
        empty_nb = False
        for j in self._nb[i]:
            v = cells[j]
            if not v:
                empty_nb = True
            else:
                s = strs[j]
                if v == c:
                    if s not in own:
                        own.append(s)
                elif len(s[1]) == 1 and s not in caught:
                    caught.append(s)
                    for k in s[0]:
                        h ^= zo[k]
        if not caught and not empty_nb and all(len(s[1]) == 1 for s in own):
            if not own:
                return False  # ING-4: a lone suicide recreates the current position
            h ^= zc[i]
            for s in own:
                for k in s[0]:
                    h ^= zc[k]
        return h not in self._history

    # -- setups with strings that have no liberties ---------------------------------------------------------
    def _rebuild_strings(self) -> None:
        """Strings and liberties from scratch (after a setup, or a play in the slow path)."""
        cells = self._cells
        strs: list[_String] = [_NO_STRING] * len(cells)
        dead = False
        for string in self._strings_of(cells, BLACK) + self._strings_of(cells, WHITE):
            for k in string[0]:
                strs[k] = string
            if not string[1]:
                dead = True
        self._strs = strs
        self._stale = False
        # ING-8: setup removes nothing, so a set-up string may stand without liberties until the next play.
        self._dead = dead

    def _strings_of(self, cells: list[int], code: int) -> list[_String]:
        """Every string of colour `code` on `cells`, found by flood fill (only outside the hot path)."""
        nb = self._nb
        seen: set[int] = set()
        out: list[_String] = []
        for start, v in enumerate(cells):
            if v != code or start in seen:
                continue
            stones = [start]
            libs: set[int] = set()
            seen.add(start)
            k = 0
            while k < len(stones):
                p = stones[k]
                k += 1
                for m in nb[p]:
                    w = cells[m]
                    if not w:
                        libs.add(m)
                    elif w == code and m not in seen:
                        seen.add(m)
                        stones.append(m)
            out.append([stones, libs])
        return out

    def _simulate(self, i: int, c: int) -> tuple[int, list[int], list[int]]:
        """ING-3 taken literally on a copy, for positions holding strings without liberties (from a setup):
        the play, then every opposing string without liberties removed, then every own one.
        Returns the new hash, the opposing stones removed and the own stones removed."""
        cells = list(self._cells)
        cells[i] = c
        h = self._hash ^ self._zob[c][i]
        taken: list[list[int]] = []
        for code in (3 - c, c):
            gone = [k for string in self._strings_of(cells, code) if not string[1] for k in string[0]]
            for k in gone:
                cells[k] = EMPTY
                h ^= self._zob[code][k]
            taken.append(gone)
        return h, taken[0], taken[1]

    def _play_slow(self, i: int, point: Point) -> Change:
        c = BLACK if self._to_move is _B else WHITE
        h, caught, own_gone = self._simulate(i, c)
        if h in self._history:
            raise self._repetition(point, h == self._hash and own_gone == [i] and not caught)
        cells = self._cells
        cells[i] = c
        for k in caught:
            cells[k] = EMPTY
        for k in own_gone:
            cells[k] = EMPTY
        self._taken[c] += len(caught)
        self._taken[3 - c] += len(own_gone)
        self._rebuild_strings()
        self._history.add(h)
        self._hash = h
        self.turn += 1
        self._to_move = self._to_move.other
        self._passes = 0
        if self.stopped:
            self._resume()
        pts = self._pts
        return Change((point,), tuple(pts[k] for k in [*caught, *own_gone]))
