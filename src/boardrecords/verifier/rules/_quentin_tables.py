"""Precomputed neighbour tables of a Quentin board (flat index = row * size + column), one set per size."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...records.points import Point
from .engine import BLACK, WHITE
from .grid import grid


@dataclass(frozen=True, slots=True)
class Tables:
    size: int
    points: tuple[Point, ...]  # index -> (column, row)
    nbrs: tuple[tuple[int, ...], ...]  # orthogonal neighbours
    # For each diagonal neighbour d of a point: (d, a, b) with a and b the two points orthogonally adjacent to both
    # (QUE-4 asks whether one of them holds a like-coloured stone).
    diags: tuple[tuple[tuple[int, int, int], ...], ...]
    # Edge bits of each point for each colour (README: Black owns rows 0 and N-1, White columns 0 and N-1):
    # bit 1 for the first edge, bit 2 for the opposite one; a group whose bits make 3 is a chain.
    edge_bits: dict[int, tuple[int, ...]]


@lru_cache(maxsize=64)
def tables(size: int) -> Tables:
    n = size
    g = grid(size)
    diags: list[tuple[tuple[int, int, int], ...]] = []
    for i in range(n * n):
        c, r = i % n, i // n
        diags.append(tuple((rr * n + cc, r * n + cc, rr * n + c)
                           for cc, rr in ((c - 1, r - 1), (c + 1, r - 1), (c - 1, r + 1), (c + 1, r + 1))
                           if 0 <= cc < n and 0 <= rr < n))
    return Tables(n, g.points, g.neighbours, tuple(diags), {BLACK: g.black_edges, WHITE: g.white_edges})
