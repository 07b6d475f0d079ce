"""Precomputed per-size tables for the Cation engine: neighbours, 2x2 blocks and the diagonals that form crosscuts.

A 2x2 block is named by the flat index of its top-left point. Tables are built once per board size and shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...records.points import Point
from .grid import grid


@dataclass(frozen=True, slots=True)
class CationTables:
    size: int
    points: tuple[Point, ...]  # flat index -> (column, row)
    orth: tuple[tuple[int, ...], ...]  # orthogonal neighbours (chains)
    # For each point p and each 2x2 block holding it: (diagonal partner, the two other corners, block).
    # Placing colour X on p makes that block a crosscut (CAT-2) exactly when the partner holds X and the other
    # two corners hold the opponent's colour.
    diags: tuple[tuple[tuple[int, int, int, int], ...], ...]
    blocks: tuple[tuple[int, ...], ...]  # the blocks holding each point
    block_points: dict[int, tuple[Point, Point, Point, Point]]  # block -> its 4 points (TL, TR, BL, BR)
    # Edge bits per colour code (index 1 Black, 2 White; README: edges): 1 for the first edge of that colour
    # (row 0 / column 0), 2 for the second (row N-1 / column N-1). A group whose bits make 3 is a chain.
    edge_bits: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@cache
def tables(size: int) -> CationTables:
    n = size
    nn = n * n
    g = grid(size)
    diags: list[tuple[tuple[int, int, int, int], ...]] = []
    blocks: list[tuple[int, ...]] = []
    for i in range(nn):
        r, c = divmod(i, n)
        ds: list[tuple[int, int, int, int]] = []
        for dr in (-1, 1):
            for dc in (-1, 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    partner = rr * n + cc
                    ds.append((partner, rr * n + c, r * n + cc, min(r, rr) * n + min(c, cc)))
        diags.append(tuple(ds))
        blocks.append(tuple(d[3] for d in ds))
    block_points = {
        r * n + c: ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)) for r in range(n - 1) for c in range(n - 1)
    }
    return CationTables(n, g.points, g.neighbours, tuple(diags), tuple(blocks), block_points,
                        ((0,) * nn, g.black_edges, g.white_edges))
