"""The symmetries of each game's board: the 8 of the square in Go and Conversion Go; in the connection games only
the 4 that keep each colour's edges (GEN-3: Black's top and bottom rows, White's left and right columns).

A quarter turn or a diagonal mirror would hand Black's rows to White: such positions are different games and are
never merged. Points are (column, row), row 0 at the top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ...records.games import SPECS, Game
from ...records.model import Colour
from ...records.points import Point

# name, (column, row, last index) -> (column, row)
_TRANSFORMS: tuple[tuple[str, Callable[[int, int, int], Point]], ...] = (
    ("identity", lambda c, r, m: (c, r)),
    ("mirror left-right", lambda c, r, m: (m - c, r)),
    ("mirror top-bottom", lambda c, r, m: (c, m - r)),
    ("half turn", lambda c, r, m: (m - c, m - r)),
    ("diagonal mirror", lambda c, r, m: (r, c)),
    ("quarter turn", lambda c, r, m: (m - r, c)),
    ("three-quarter turn", lambda c, r, m: (r, m - c)),
    ("anti-diagonal mirror", lambda c, r, m: (m - r, m - c)),
)
INVERSE = (0, 1, 2, 3, 4, 6, 5, 7)


@dataclass(frozen=True, slots=True)
class Symmetry:
    number: int
    name: str
    size: int
    index: tuple[int, ...]  # flat index (row * size + column) -> flat index of its image

    @property
    def identity(self) -> bool:
        return self.number == 0

    def point(self, point: Point) -> Point:
        r, c = divmod(self.index[point[1] * self.size + point[0]], self.size)
        return (c, r)

    def line(self, colour: Colour, line: int) -> int:
        """The image of a Squer sweep line: Black sweeps rows, White columns (edge-keeping symmetries only)."""
        if colour is Colour.BLACK:
            return self.point((0, line))[1]
        return self.point((line, 0))[0]


@cache
def all_symmetries(size: int) -> tuple[Symmetry, ...]:
    m = size - 1
    out = []
    for number, (name, f) in enumerate(_TRANSFORMS):
        index = []
        for i in range(size * size):
            r, c = divmod(i, size)
            x, y = f(c, r, m)
            index.append(y * size + x)
        out.append(Symmetry(number, name, size, tuple(index)))
    return tuple(out)


def symmetries(game: Game, size: int) -> tuple[Symmetry, ...]:
    """The symmetries under which two positions of `game` are the same position."""
    every = all_symmetries(size)
    return every[:4] if SPECS[game].connection else every


def inverse(sym: Symmetry) -> Symmetry:
    return all_symmetries(sym.size)[INVERSE[sym.number]]
