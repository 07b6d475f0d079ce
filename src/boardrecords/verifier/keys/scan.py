"""Scanning many lines for one pattern: the prefilter on the masks of the points each colour ever held, then the
replay of the change lists of the lines it lets through, with the move played right after each appearance and the
first move into its region afterwards (its continuation in the region), all from one reading of each change list.

A compiled helper (`_scan`, from _scan.c, built at install when a C compiler is there) does both for a batch of
rows per call; in plain Python the replay of every change list with tens of placements alive is what a search of a
small shape anywhere on the board spends its time on. The plain path gives the same answers, and the tests compare
both with the slow reference of tests/pattern_reference.py. `Scan(..., plain=True)` forces it (the commands: with
`RECORDS_SCAN=python` in the environment, common/settings.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any

from .patterns import (
    Line,
    Pattern,
    Placement,
    Prefilter,
    appearances,
    first_in_region,
    mask_bytes,
    mask_of,
    move_list,
    region_points,
)

# ply, placement, where the next move's stone went (-1 if it put none or the line ends there), its colour (or 0);
# then the first move into the placement's region afterwards: its number, its point and its colour (-1, -1, 0 when
# the line ended first)
Hit = tuple[int, int, int, int, int, int, int]
NO_MOVE = (-1, -1, 0)
Row = Sequence[Any]  # (id, black mask, white mask[, change list]), masks and changes as stored (bytes)
# A continuation's counts: hits, the games they came from, the hits in games Black and White won (in the
# pattern's colours), and the tenuki (in the region; 0 for the move right after)
Counts = tuple[int, int, int, int, int]
Namer = Callable[[int, int, int], int]  # (placement, point, colour) -> the index of the continuation it counts for


def compiled_module() -> ModuleType | None:
    """The compiled helper, unless it was not built."""
    try:
        from . import _scan
    except ImportError:
        return None
    return _scan


class Scan:
    """One pattern's placements on a board of `size`, ready for many rows. `plain` forces the plain path."""

    def __init__(self, pattern: Pattern, found: Sequence[Placement], size: int, *, plain: bool = False) -> None:
        self.found = found
        self.size = size
        self.prefilter = Prefilter(pattern, found, size)
        # each placement's region: board point -> (column, row) in the pattern as written
        self.regions = [region_points(pattern, p, size) for p in found]
        module = self._module = None if plain else compiled_module()
        self._compiled = None if module is None else module.Scanner(
            size, [(stones, mask_bytes(valid), index) for stones, valid, index in self.prefilter.families],
            [p.need for p in found], [sorted(region) for region in self.regions])

    @property
    def compiled(self) -> bool:
        return self._compiled is not None

    def possible(self, rows: Iterable[Row]) -> list[int]:
        """The ids of the rows whose masks let some placement stand."""
        if self._compiled is not None:
            return self._compiled.possible(rows)
        test = self.prefilter
        return [row[0] for row in rows if test(mask_of(row[1]), mask_of(row[2]))]

    def lines(self, rows: Iterable[Row]) -> list[tuple[int, list[Hit]]]:
        """(id, its appearances in move order, each a `Hit`) for each row (id, black, white, changes) where the
        pattern appears."""
        if self._compiled is not None:
            return self._compiled.lines(rows)
        out: list[tuple[int, list[Hit]]] = []
        for row in rows:
            which = self.prefilter(mask_of(row[1]), mask_of(row[2]))
            if not which:
                continue
            events = Line.from_blob(self.size, row[3]).events
            at = appearances(events, self.found, which)
            if at:
                moves = move_list(events)
                after = {m[0]: m[1:] for m in moves}
                out.append((row[0], [(ply, k, *after.get(ply + 1, (-1, 0)),
                                      *(first_in_region(moves, ply, self.regions[k]) or NO_MOVE))
                                     for ply, k in at]))
        return out

    def tally(self, lines: Iterable[tuple[int, list[Hit]]], plies: dict[int, int],
              winners: dict[int, str | None], gap: int, region_of: Namer, next_of: Namer
              ) -> tuple[list[Counts], list[Counts]]:
        """The counts of the continuations of the appearances `lines` (as `lines()` gives them): in the region
        (each hit's first move into its region, tenuki when it came more than `gap` moves later) and right after
        (none where the line ends, at `plies[id]`), each `Counts` at the index `region_of` / `next_of` gave its
        (placement, point, colour); `winners[id]` is "B", "W" or None. A game counts once per index."""
        swapped = bytes(place.swapped for place in self.found)
        if self._module is not None:
            return self._module.tally(lines, plies, winners, swapped, gap, region_of, next_of)
        return plain_tally(lines, plies, winners, swapped, gap, region_of, next_of)


def plain_tally(lines: Iterable[tuple[int, list[Hit]]], plies: dict[int, int], winners: dict[int, str | None],
                swapped: bytes, gap: int, region_of: Namer, next_of: Namer) -> tuple[list[Counts], list[Counts]]:
    """`Scan.tally` in plain Python (the compiled `tally` of _scan.c does the same)."""
    region: list[list[int]] = []
    after: list[list[int]] = []
    region_index: dict[tuple[int, int, int], int] = {}
    next_index: dict[tuple[int, int, int], int] = {}

    def counter(table: list[list[int]], index: int) -> list[int]:
        while len(table) <= index:
            table.append([0, 0, 0, 0, 0, -1])  # the five counts, then the last game counted
        return table[index]

    def count(c: list[int], gid: int, decided: bool, black: bool, tenuki: bool) -> None:
        c[0] += 1
        if c[5] != gid:  # a game's appearances come together: it counts once
            c[5] = gid
            c[1] += 1
        if decided:
            c[2 if black else 3] += 1
        c[4] += tenuki

    for gid, at in lines:
        last, win = plies[gid], winners[gid]
        black_won = win == "B"
        decided = black_won or win == "W"
        for ply, k, nxt, colour, rply, rpoint, rcolour in at:
            black = black_won != bool(swapped[k])
            key = (k, rpoint, rcolour)
            index = region_index.get(key)
            if index is None:
                index = region_index[key] = region_of(*key)
            count(counter(region, index), gid, decided, black, rply > ply + gap)
            if ply >= last:
                continue  # the line ends there: no move after it
            key = (k, nxt, colour)
            index = next_index.get(key)
            if index is None:
                index = next_index[key] = next_of(*key)
            count(counter(after, index), gid, decided, black, False)
    return ([(c[0], c[1], c[2], c[3], c[4]) for c in region], [(c[0], c[1], c[2], c[3], c[4]) for c in after])


__all__ = ["NO_MOVE", "Counts", "Hit", "Namer", "Row", "Scan", "compiled_module", "plain_tally"]
