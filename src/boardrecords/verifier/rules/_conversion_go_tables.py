"""Per-size tables of the Conversion Go engine: neighbours, sides touched, and the five mirror images (CON-6)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import lru_cache

from ...records.points import Point
from ..keys.symmetry import all_symmetries
from .grid import grid

# Bits of the sides a point lies on (CON-2: a corner point lies on two sides).
TOP, BOTTOM, LEFT, RIGHT = 1, 2, 4, 8

# CON-6: the five symmetries, in the order the engine checks them (and names the first one that reaches ten).
SYMMETRY_NAMES: tuple[str, ...] = (
    "half turn",
    "vertical middle line",
    "horizontal middle line",
    "main diagonal",
    "anti-diagonal",
)

# Their numbers in symmetry.py: half turn, mirror left-right, mirror top-bottom, diagonal and anti-diagonal mirror.
_CON6_SYMMETRIES = (3, 1, 2, 4, 7)


@dataclass(frozen=True, slots=True)
class Tables:
    size: int
    points: tuple[Point, ...]  # index -> (column, row)
    neighbours: tuple[tuple[int, ...], ...]  # index -> orthogonal neighbours
    sides: tuple[int, ...]  # index -> bit set of the sides the point lies on
    images: tuple[tuple[int, ...], ...]  # index -> its image under each symmetry of SYMMETRY_NAMES
    # The same two tables as the compiled plays read them (_conversion_go.c): int32 images, five per point, and a
    # byte of side bits per point.
    images_c: bytes
    sides_c: bytes


@lru_cache(maxsize=64)
def tables(size: int) -> Tables:
    n = size - 1
    g = grid(size)
    sides: list[int] = []
    for row in range(size):
        for col in range(size):
            mask = 0
            if row == 0:
                mask |= TOP
            if row == n:
                mask |= BOTTOM
            if col == 0:
                mask |= LEFT
            if col == n:
                mask |= RIGHT
            sides.append(mask)
    # The square's symmetries (verifier/keys/symmetry.py), in the order of SYMMETRY_NAMES.
    chosen = [all_symmetries(size)[k].index for k in _CON6_SYMMETRIES]
    images = [tuple(index[i] for index in chosen) for i in range(size * size)]
    images_c = array("i", [k for image in images for k in image]).tobytes()
    return Tables(size, g.points, g.neighbours, tuple(sides), tuple(images), images_c, bytes(sides))
