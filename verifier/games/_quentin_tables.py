"""Precomputed neighbour tables of a Quentin board (flat index = row * size + column), one set per size."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...records.points import Point
from ..engine import BLACK, WHITE


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
    points = tuple((i % n, i // n) for i in range(n * n))
    nbrs: list[tuple[int, ...]] = []
    diags: list[tuple[tuple[int, int, int], ...]] = []
    black_bits: list[int] = []
    white_bits: list[int] = []
    for i in range(n * n):
        c, r = i % n, i // n
        nbrs.append(tuple(rr * n + cc for cc, rr in ((c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1))
                          if 0 <= cc < n and 0 <= rr < n))
        diags.append(tuple((rr * n + cc, r * n + cc, rr * n + c)
                           for cc, rr in ((c - 1, r - 1), (c + 1, r - 1), (c - 1, r + 1), (c + 1, r + 1))
                           if 0 <= cc < n and 0 <= rr < n))
        black_bits.append((1 if r == 0 else 0) | (2 if r == n - 1 else 0))
        white_bits.append((1 if c == 0 else 0) | (2 if c == n - 1 else 0))
    return Tables(n, points, tuple(nbrs), tuple(diags), {BLACK: tuple(black_bits), WHITE: tuple(white_bits)})
