"""Star points (hoshi): the marked intersections of a Go board, drawn on empty points by every view.

The rule (docs/replay.md, "Star points"), for Go and Conversion Go, which is played on a Go board (CON-1):
- no star points below 7x7;
- the corner points on the 3rd line from each edge below 13x13, on the 4th line from 13x13 up;
- odd sizes add the centre (9x9 and 13x13: 5 points);
- odd sizes from 15x15 up add the four side points midway along the corner lines (19x19: the 9 points at
  D4 D10 D16 K4 K10 K16 Q4 Q10 Q16);
- even sizes have the four corner points only (no centre line to put the others on).
The other games' boards have none.
"""

from __future__ import annotations

from functools import cache

from ..records.games import Game
from ..records.points import Point

_STAR_GAMES = frozenset({Game.GO, Game.CONVERSION_GO})


@cache
def star_points(game: Game, size: int) -> frozenset[Point]:
    """The star points of a `size`x`size` board of `game` (empty for games without them)."""
    if game not in _STAR_GAMES or size < 7:
        return frozenset()
    edge = 2 if size < 13 else 3  # the 3rd or the 4th line, counted from 0
    lines = [edge, size - 1 - edge]
    if size % 2 == 1:
        middle = size // 2
        if size >= 15:
            lines.append(middle)
            return frozenset((c, r) for c in lines for r in lines)
        return frozenset({(c, r) for c in lines[:2] for r in lines[:2]} | {(middle, middle)})
    return frozenset((c, r) for c in lines for r in lines)
