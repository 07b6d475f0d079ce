"""What every engine needs of a board size, computed once per size: points and orthogonal neighbours.

Engines keep a flat board (index = row * size + column); these tables turn an index into its point and its
neighbours without arithmetic in the hot loops.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...records.points import Point


@dataclass(frozen=True, slots=True)
class Grid:
    size: int
    points: tuple[Point, ...]  # index -> (column, row)
    neighbours: tuple[tuple[int, ...], ...]  # index -> orthogonal neighbours: up, left, right, down
    # Edge bits (GEN-3): 1 for the first edge of a colour (row 0 for Black, column 0 for White),
    # 2 for the opposite one; a group whose bits make 3 joins both, a chain.
    black_edges: tuple[int, ...]
    white_edges: tuple[int, ...]


@cache
def grid(size: int) -> Grid:
    last = size - 1
    points: list[Point] = []
    neighbours: list[tuple[int, ...]] = []
    black: list[int] = []
    white: list[int] = []
    for i in range(size * size):
        r, c = divmod(i, size)
        points.append((c, r))
        neighbours.append(tuple(j for j, ok in ((i - size, r > 0), (i - 1, c > 0), (i + 1, c < last),
                                                (i + size, r < last)) if ok))
        black.append((1 if r == 0 else 0) | (2 if r == last else 0))
        white.append((1 if c == 0 else 0) | (2 if c == last else 0))
    return Grid(size, tuple(points), tuple(neighbours), tuple(black), tuple(white))
