"""Scanning many lines for one pattern: the prefilter on the masks of the points each colour ever held, then the
replay of the change lists of the lines it lets through, with the move played right after each appearance and the
first move into its region afterwards (its continuation in the region), all from one reading of each change list.

A compiled helper (`_scan`, from _scan.c, built at install when a C compiler is there) does both for a batch of
rows per call; in plain Python the replay of every change list with tens of placements alive is what a search of a
small shape anywhere on the board spends its time on. The plain path gives the same answers, and the tests compare
both with the slow reference of tests/pattern_reference.py. `RECORDS_SCAN=python` in the environment forces it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
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


def compiled_module() -> ModuleType | None:
    """The compiled helper, unless it was not built or RECORDS_SCAN=python asks for the plain path."""
    if os.environ.get("RECORDS_SCAN", "").strip().lower() in ("python", "plain"):
        return None
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
        module = None if plain else compiled_module()
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


__all__ = ["NO_MOVE", "Hit", "Row", "Scan", "compiled_module"]
