"""Patterns: a rectangle of points, each Black, White, empty or any, found anywhere on the board (or against its
edges) in every symmetry of the game, at every moment of a line.

A line is kept as its *change list*: for every move, the points whose state it changed (placed, captured,
converted, flipped, filled, relocated, removed) with their new state, and the point where the mover's stone went
(a marker, for the continuation statistics). Matching replays the change list only, never the rules: a pattern
placed on the board keeps a count of its points that do not hold what it needs, and an appearance begins at the
move after which that count falls to zero. docs/patterns.md describes the design.

`ChangeWatcher` builds the change list from the verifier's own replay (`verify(record, watch=...)`); the tests
compare every answer with a reference that replays a record and tests every position from scratch
(tests/pattern_reference.py).
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_right
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field, replace

from ...common.errors import InputError
from ...records.games import Game, MoveKind
from ...records.model import Colour, Record
from ...records.points import Point
from ..judging.replay import Replay, RunLog, Step, ends_positions, usual_start
from ..rules.engine import BLACK, EMPTY, WHITE, Engine, touched
from . import follow
from .symmetry import Symmetry, symmetries

ANY = -1
CELL_CODES = {"X": BLACK, "O": WHITE, ".": EMPTY, "*": ANY}
CELL_TEXT = {BLACK: "X", WHITE: "O", EMPTY: ".", ANY: "*"}
SIDES = ("top", "bottom", "left", "right")
ANCHORS = {"anywhere": frozenset(), "corner": frozenset({"top", "left"}), "edge": frozenset({"top"})}
MARK_B, MARK_W = 4, 5  # event states that mark where the mover's stone went (not a change of the board)
_IDX_BITS, _STATE_BITS = 12, 3  # an event: ply << 15 | state << 12 | point index (boards up to 64x64)
_IDX_MASK = (1 << _IDX_BITS) - 1
_STATE_SHIFT = _IDX_BITS
_PLY_SHIFT = _IDX_BITS + _STATE_BITS


class PatternError(InputError):
    """A pattern that cannot be read or does not fit the board (an InputError)."""


# -- the pattern --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Pattern:
    """`cells` row by row (row 0 at the top), each BLACK, WHITE, EMPTY or ANY; `sides` the sides of the rectangle
    that lie on edges of the board (`top`, `bottom`, `left`, `right`), as written."""

    width: int
    height: int
    cells: tuple[int, ...]
    sides: frozenset[str] = frozenset()

    def cell(self, c: int, r: int) -> int:
        return self.cells[r * self.width + c]

    def rows(self) -> list[str]:
        return ["".join(CELL_TEXT[self.cell(c, r)] for c in range(self.width)) for r in range(self.height)]

    @property
    def text(self) -> str:
        return "/".join(self.rows())

    @property
    def stones(self) -> int:
        return sum(1 for v in self.cells if v in (BLACK, WHITE))


def parse_pattern(text: str, anchor: str | None = None) -> Pattern:
    """Rows of `X` (Black), `O` (White), `.` (empty) and `*` (any), one row per line or separated by `/`.

    Spaces inside a row are ignored. `anchor`: anywhere (default), corner (the top left of the pattern in a corner
    of the board), edge (its top row on an edge), or sides joined by `-` or `,` (`top-right`, `bottom`).
    """
    rows = [r.replace(" ", "").replace("\t", "") for r in text.replace("/", "\n").splitlines()]
    rows = [r for r in rows if r]
    if not rows:
        raise PatternError("an empty pattern: write rows of X (Black), O (White), . (empty) and * (any)")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise PatternError("the rows of a pattern must all have the same length")
    cells: list[int] = []
    for r in rows:
        for ch in r:
            code = CELL_CODES.get(ch.upper() if ch in "xo" else ch)
            if code is None:
                raise PatternError(f"{ch!r} in a pattern: use X (Black), O (White), . (empty) or * (any)")
            cells.append(code)
    if all(v == ANY for v in cells):
        raise PatternError("a pattern needs at least one point that is not * (any)")
    return Pattern(width, len(rows), tuple(cells), parse_anchor(anchor))


def parse_anchor(anchor: str | None) -> frozenset[str]:
    if anchor is None:
        return frozenset()
    a = anchor.strip().lower()
    if a in ANCHORS:
        return ANCHORS[a]
    parts = {p for p in a.replace(",", "-").split("-") if p}
    if not parts or not parts <= set(SIDES) or {"top", "bottom"} <= parts or {"left", "right"} <= parts:
        raise PatternError(f"anchor {anchor!r}: use anywhere, corner, edge, or sides such as top-left, bottom")
    return frozenset(parts)


def pattern_of_board(rows: Sequence[Sequence[Colour | None]], left: int, top: int, right: int, bottom: int,
                     *, anchor: str | None = None) -> Pattern:
    """The pattern of a region of a board (columns left..right, rows top..bottom, inclusive), every point required
    as it stands (`.` where empty). Without `anchor`, the sides of the region on the board's edges stay there."""
    size = len(rows)
    cells = []
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            s = rows[r][c]
            cells.append(BLACK if s is Colour.BLACK else WHITE if s is Colour.WHITE else EMPTY)
    if anchor is None:
        sides = frozenset(name for name, on in (("top", top == 0), ("bottom", bottom == size - 1),
                                                ("left", left == 0), ("right", right == size - 1)) if on)
    else:
        sides = parse_anchor(anchor)
    return Pattern(right - left + 1, bottom - top + 1, tuple(cells), sides)


def parse_region(text: str, game: Game, size: int) -> tuple[int, int, int, int]:
    """A region written as two opposite corners, `Q16:T19` (the game's notation or SGF letters): its columns
    left..right and rows top..bottom (inclusive), as (left, top, right, bottom)."""
    from ...records.notation import NotationError, parse_point_text

    a, sep, b = text.partition(":")
    if not sep:
        raise PatternError(f"write a region as two corners, Q16:T19, not {text!r}")
    try:
        (c1, r1), (c2, r2) = parse_point_text(a.strip(), game, size), parse_point_text(b.strip(), game, size)
    except NotationError as exc:
        raise PatternError(f"the region {text!r}: {exc}") from None
    return min(c1, c2), min(r1, r2), max(c1, c2), max(r1, r2)


def pattern_of_region(rows: Sequence[Sequence[Colour | None]], game: Game, region: str, *,
                      anchor: str | None = None) -> tuple[Pattern, tuple[int, int]]:
    """The pattern of `region` (two corners, Q16:T19) of a board of `game` (a record's after some move: targets.py,
    board_after), every point required as it stands, and the region's top-left point, where the pattern is drawn
    and its continuations named (`search --pattern-from`)."""
    left, top, right, bottom = parse_region(region, game, len(rows))
    return pattern_of_board(rows, left, top, right, bottom, anchor=anchor), (left, top)


# -- where a pattern may stand ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Placement:
    """The pattern at one place of the board, in one symmetry (and with colours exchanged or not): the points it
    needs with their states, and the masks of its required stones (bit = point index)."""

    sym: int
    dx: int  # offset of the pattern's top left, before the symmetry
    dy: int
    swapped: bool
    need: tuple[tuple[int, int], ...]  # (point index, state), sorted
    black: int
    white: int
    # Every (symmetry, dx, dy, colours exchanged) that gives the same points (a pattern with symmetries of its
    # own has several)
    alike: tuple[tuple[int, int, int, bool], ...] = ()


def offsets(pattern: Pattern, size: int) -> list[tuple[int, int]]:
    """The offsets (dx, dy) of the pattern, as written, that the anchor allows."""
    w, h = pattern.width, pattern.height
    if w > size or h > size:
        raise PatternError(f"a {w}x{h} pattern does not fit a {size}x{size} board")
    xs = range(size - w + 1)
    ys = range(size - h + 1)
    s = pattern.sides
    if "left" in s:
        xs = range(0, 1)
    elif "right" in s:
        xs = range(size - w, size - w + 1)
    if "top" in s:
        ys = range(0, 1)
    elif "bottom" in s:
        ys = range(size - h, size - h + 1)
    return [(x, y) for y in ys for x in xs]


def placements(pattern: Pattern, game: Game, size: int, *, either_colour: bool = False) -> list[Placement]:
    """Every distinct way the pattern stands on the board: each allowed offset in each symmetry of the game (and,
    with `either_colour`, with Black and White exchanged). Placements needing the same points are one."""
    syms = symmetries(game, size)
    seen: dict[tuple[tuple[int, int], ...], Placement] = {}
    flips = (False, True) if either_colour else (False,)
    for swapped in flips:
        for sym in syms:
            for dx, dy in offsets(pattern, size):
                need = []
                for r in range(pattern.height):
                    for c in range(pattern.width):
                        v = pattern.cells[r * pattern.width + c]
                        if v == ANY:
                            continue
                        if swapped and v != EMPTY:
                            v = BLACK + WHITE - v
                        need.append((sym.index[(dy + r) * size + dx + c], v))
                key = tuple(sorted(need))
                if key in seen:
                    first = seen[key]
                    seen[key] = replace(first, alike=(*first.alike, (sym.number, dx, dy, swapped)))
                    continue
                black = white = 0
                for i, v in key:
                    if v == BLACK:
                        black |= 1 << i
                    elif v == WHITE:
                        white |= 1 << i
                seen[key] = Placement(sym.number, dx, dy, swapped, key, black, white, ((sym.number, dx, dy, swapped),))
    return list(seen.values())


def local_points(pattern: Pattern, place: Placement, size: int, margin: int = 1) -> dict[int, tuple[int, int]]:
    """Board point index -> (column, row) in the pattern as written, for the placed rectangle and `margin` points
    around it (column -1 is left of the pattern). Where the pattern has symmetries of its own, a point has several
    names; the smallest (row first) is taken, so that the same move counts once whichever way the pattern lay."""
    out: dict[int, tuple[int, int]] = {}
    for number, dx, dy, _ in place.alike or ((place.sym, place.dx, place.dy, place.swapped),):
        sym = _sym(size, number)
        for r in range(-margin, pattern.height + margin):
            for c in range(-margin, pattern.width + margin):
                x, y = dx + c, dy + r
                if 0 <= x < size and 0 <= y < size:
                    i = sym.index[y * size + x]
                    old = out.get(i)
                    if old is None or (r, c) < (old[1], old[0]):
                        out[i] = (c, r)
    return out


def _sym(size: int, number: int) -> Symmetry:
    from .symmetry import all_symmetries

    return all_symmetries(size)[number]


# -- change lists -------------------------------------------------------------------------------------------

def _code(stone: Colour | None) -> int:
    return EMPTY if stone is None else BLACK if stone is Colour.BLACK else WHITE


@dataclass(slots=True)
class Line:
    """The change list of one line: `events` (ply << 15 | state << 12 | point) in move order, the last move
    number (`plies`), and the points each colour ever held (bit masks)."""

    size: int
    events: array = field(default_factory=lambda: array("I"))
    plies: int = 0
    ever_black: int = 0
    ever_white: int = 0

    def blob(self) -> bytes:
        a = self.events
        if sys.byteorder != "little":
            a = array("I", a)
            a.byteswap()
        return a.tobytes()

    @classmethod
    def from_blob(cls, size: int, data: bytes, plies: int = 0) -> Line:
        a = array("I")
        a.frombytes(data)
        if sys.byteorder != "little":
            a.byteswap()
        return cls(size, a, plies)


def mask_bytes(mask: int) -> bytes:
    return mask.to_bytes((mask.bit_length() + 7) // 8, "little")


def mask_of(data: bytes) -> int:
    return int.from_bytes(data, "little")


def _start_of(engine: Engine) -> tuple[bytes, array, tuple[int, int, int]]:
    """The engine's position as a change list starts: every point's state, the events of its stones (ply 0), and
    the points each colour holds (masks, indexed by state)."""
    size = engine.size
    board = bytearray(size * size)
    events = array("I")
    ever = [0, 0, 0]
    for r, row in enumerate(engine.rows()):  # one call for the board (a look at each point costs a call each)
        for c, stone in enumerate(row):
            if stone is not None:
                v = _code(stone)
                i = r * size + c
                board[i] = v
                events.append((v << _STATE_SHIFT) | i)
                ever[v] |= 1 << i
    return bytes(board), events, (ever[0], ever[1], ever[2])


_STARTS: dict[tuple[Game, int], tuple[bytes, array, tuple[int, int, int]]] = {}


class ChangeWatcher:
    """Builds a line's change list while the verifier replays it: `verify(record, watch=watcher)`, then `.line`.
    Only moves before the first refused move (and before a resignation) count."""

    def __init__(self) -> None:
        self.line: Line | None = None
        self.stopped = False
        self._board = bytearray()  # the state of every point as the change list has it (EMPTY, BLACK, WHITE)
        self._ever = [0, 0, 0]

    def __call__(self, run: Replay) -> Callable[[Step], None]:
        engine = run.engine
        size = engine.size
        line = self.line = Line(size)
        events = line.events
        stone = engine.stone
        record = run.record
        # The game's usual start is read from the engine once per game and size.
        standard = usual_start(record)
        start = _STARTS.get((record.game, size)) if standard else None
        if start is None:
            start = _start_of(engine)
            if standard:
                _STARTS[(record.game, size)] = start
        cells, first, masks = start
        board = self._board = bytearray(cells)
        events.extend(first)
        ever = list(masks)
        place = MoveKind.PLACE
        relocate = MoveKind.RELOCATE
        black = Colour.BLACK

        def step(s: Step) -> None:
            if self.stopped:
                return
            if ends_positions(s):
                self.stopped = True
                return
            move = s.move
            kind = move.kind
            ply = s.number << _PLY_SHIFT
            change = s.change
            point = move.point
            where: Point | None = point
            if (kind is place and point is not None and not change.captured and not change.converted
                    and not change.flipped and not change.filled):
                points: Sequence[Point] = (point,)  # a stone put on a point, nothing else changed: nearly always
            else:
                points = touched(move, change)
                if kind is relocate:
                    where = move.target
                elif kind is MoveKind.REMOVE:
                    where = None
            for p in points:
                i = p[1] * size + p[0]
                v = _code(stone(p))
                if v != board[i]:
                    board[i] = v
                    events.append(ply | (v << _STATE_SHIFT) | i)
                    if v:
                        ever[v] |= 1 << i
            if where is not None:
                mark = MARK_B if move.colour is black else MARK_W
                events.append(ply | (mark << _STATE_SHIFT) | (where[1] * size + where[0]))
            line.plies = s.number

        self._ever = ever
        return step

    def follow_run(self, log: RunLog) -> None:
        """Follow a compiled run of plain plays from its log (follow.py), as the steps of its moves would. Within a
        move the stones it took off may come in another order than the plain step's (the board after each move,
        which is what matching reads, is the same)."""
        module = follow.COMPILED
        line = self.line
        if self.stopped or module is None or line is None:
            return
        events, black, white = module.events_run(log.placed, log.taken, log.black_first, len(self._board),
                                                 self._board, log.before + 1)
        line.events.frombytes(events)
        ever = self._ever
        ever[BLACK] |= int.from_bytes(black, "little")
        ever[WHITE] |= int.from_bytes(white, "little")
        line.plies = log.before + log.played

    def finish(self) -> Line | None:
        line = self.line
        if line is not None:
            line.ever_black, line.ever_white = self._ever[BLACK], self._ever[WHITE]
        return line


def change_line(record: Record) -> Line | None:
    """The change list of a record's main line, from a replay of its own."""
    run = Replay(record)
    watcher = ChangeWatcher()
    step = watcher(run)
    for s in run:
        step(s)
    return watcher.finish()


# -- matching -----------------------------------------------------------------------------------------------

def candidates(found: Sequence[Placement], ever_black: int, ever_white: int) -> list[int]:
    """The placements whose stones the line ever held, each on its point and in its colour."""
    return [k for k, p in enumerate(found)
            if not (p.black & ~ever_black) and not (p.white & ~ever_white)]


class Prefilter:
    """`candidates` for every placement at once, a few shifts and ANDs per game: for each symmetry (and colour
    exchange) the pattern is one rectangle in the board's own frame, and the offsets where its stones could all
    stand are the AND of the masks of points ever held, each shifted by one stone's place in the rectangle.

    Points are bits `row * size + column`; a shift never carries a bit over from the next row at an offset where
    the rectangle fits, so the result is exact (the same list as `candidates`)."""

    def __init__(self, pattern: Pattern, found: Sequence[Placement], size: int) -> None:
        fams: dict[tuple[int, bool], tuple[list[tuple[int, int]], list[int], dict[int, int]]] = {}
        for k, place in enumerate(found):
            for number, dx, dy, swapped in place.alike or ((place.sym, place.dx, place.dy, place.swapped),):
                sym = _sym(size, number)
                cells = []
                for r in range(pattern.height):
                    for c in range(pattern.width):
                        i = sym.index[(dy + r) * size + dx + c]
                        cells.append((i % size, i // size, pattern.cells[r * pattern.width + c]))
                bx = min(x for x, _, _ in cells)
                by = min(y for _, y, _ in cells)
                fam = fams.get((number, swapped))
                if fam is None:
                    stones = []
                    for x, y, v in cells:
                        if v in (BLACK, WHITE):
                            if swapped:
                                v = BLACK + WHITE - v
                            stones.append(((y - by) * size + (x - bx), v))
                    # the rarest points first would be better still; the stones of a corner shape come first
                    fam = fams[(number, swapped)] = (stones, [0], {})
                bit = by * size + bx
                fam[1][0] |= 1 << bit
                fam[2][bit] = k
        self.families = [(stones, valid[0], index) for stones, valid, index in fams.values()]

    def __call__(self, ever_black: int, ever_white: int) -> list[int]:
        out: set[int] = set()
        for stones, valid, index in self.families:
            m = valid
            for shift, v in stones:
                m &= (ever_black if v == BLACK else ever_white) >> shift
                if not m:
                    break
            while m:
                low = m & -m
                out.add(index[low.bit_length() - 1])
                m ^= low
        return sorted(out)


def appearances(events: Sequence[int], found: Sequence[Placement], which: Sequence[int] | None = None
                ) -> list[tuple[int, int]]:
    """(move number, placement) at the first position of each appearance of each placement, in move order.

    A placement appears after a move when every point it needs holds what it needs; it appears again after it
    has been broken (a capture, a conversion, a flip, a relocation) and restored. Move number 0 is the start.
    """
    ks = range(len(found)) if which is None else which
    # point -> the placements that need it empty, Black, White (a change touches only the lists of its two states)
    watch: dict[int, tuple[list[int], list[int], list[int]]] = {}
    missing = [0] * len(found)
    for k in ks:
        n = 0
        for i, v in found[k].need:
            lists = watch.get(i)
            if lists is None:
                lists = watch[i] = ([], [], [])
            lists[v].append(k)
            if v:
                n += 1
        missing[k] = n
    board: dict[int, int] = {}
    standing: set[int] = set()
    dirty: set[int] = set(ks)
    out: list[tuple[int, int]] = []
    ply = 0
    get = watch.get
    for e in events:
        p = e >> _PLY_SHIFT
        if p != ply:
            if dirty:
                _settle(ply, dirty, missing, standing, out)
            ply = p
        i = e & _IDX_MASK
        lists = get(i)
        if lists is None:
            continue
        new = (e >> _STATE_SHIFT) & 7
        if new > WHITE:
            continue  # a marker
        old = board.get(i, EMPTY)
        board[i] = new
        for k in lists[old]:
            missing[k] += 1
        for k in lists[new]:
            missing[k] -= 1
        dirty.update(lists[old])
        dirty.update(lists[new])
    if dirty:
        _settle(ply, dirty, missing, standing, out)
    out.sort()
    return out


def _settle(ply: int, dirty: set[int], missing: list[int], standing: set[int],
            out: list[tuple[int, int]]) -> None:
    for k in dirty:
        if missing[k] == 0:
            if k not in standing:
                standing.add(k)
                out.append((ply, k))
        else:
            standing.discard(k)
    dirty.clear()


def moves_of(events: Sequence[int]) -> dict[int, tuple[int, int]]:
    """Move number -> (point index, BLACK or WHITE) where the mover's stone went, for the moves that put one."""
    out = {}
    for e in events:
        st = (e >> _STATE_SHIFT) & 7
        if st >= MARK_B:
            out[e >> _PLY_SHIFT] = (e & _IDX_MASK, BLACK if st == MARK_B else WHITE)
    return out


def move_list(events: Sequence[int]) -> list[tuple[int, int, int]]:
    """(move number, point index, BLACK or WHITE) where the mover's stone went, in move order, for the moves that
    put one (a relocation: its target)."""
    out = []
    for e in events:
        st = (e >> _STATE_SHIFT) & 7
        if st >= MARK_B:
            out.append((e >> _PLY_SHIFT, e & _IDX_MASK, BLACK if st == MARK_B else WHITE))
    return out


def region_points(pattern: Pattern, place: Placement, size: int) -> dict[int, tuple[int, int]]:
    """Board point index -> (column, row) in the pattern as written, for the points of the placed rectangle (its
    `*` points too): the region whose first move after an appearance is its continuation in the region."""
    return local_points(pattern, place, size, margin=0)


def first_in_region(moves: Sequence[tuple[int, int, int]], ply: int, region: Container[int]
                    ) -> tuple[int, int, int] | None:
    """The first of `moves` (move number, point, colour; in move order) after move `ply` whose stone went into
    `region`, however many moves later; None when the line ended first."""
    for m in moves[bisect_right(moves, (ply, _IDX_MASK + 1, 9)):]:
        if m[1] in region:
            return m
    return None


def search_line(line: Line, found: Sequence[Placement], prefilter: Prefilter | None = None
                ) -> list[tuple[int, int]]:
    """The appearances in one line, after the cheap test on the points ever held."""
    which = candidates(found, line.ever_black, line.ever_white)
    if prefilter is not None:
        assert prefilter(line.ever_black, line.ever_white) == which
    if not which:
        return []
    return appearances(line.events, found, which)


__all__ = ["ANY", "ChangeWatcher", "Line", "Pattern", "PatternError", "Placement", "Prefilter", "appearances",
           "candidates", "change_line", "first_in_region",
           "local_points", "mask_bytes", "mask_of", "move_list", "moves_of", "parse_anchor", "parse_pattern",
           "pattern_of_board", "placements", "region_points", "search_line"]
