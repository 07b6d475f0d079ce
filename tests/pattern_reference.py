"""The reference of the pattern search: the same answers as verifier/keys/patterns.py's `appearances` and
`first_in_region`, found the slow way (replay the record and test every placement on every position from scratch),
so that the tests can compare the change-list matching and the scans with something that shares none of their
shortcuts.
"""

from __future__ import annotations

from collections.abc import Sequence

from boardrecords.records.games import MoveKind
from boardrecords.records.model import Colour, Record
from boardrecords.verifier.judging.replay import Replay, ends_positions
from boardrecords.verifier.keys.patterns import Pattern, Placement, region_points
from boardrecords.verifier.rules.engine import BLACK, EMPTY, WHITE


def code_of(stone: Colour | None) -> int:
    """A point's state as the patterns code it."""
    return EMPTY if stone is None else BLACK if stone is Colour.BLACK else WHITE


def brute_force(record: Record, found: Sequence[Placement]) -> list[tuple[int, int]]:
    """The same answer as `appearances`, the slow way: replay the record and test every placement on every
    position from scratch (the start, then after each move up to the first refused move or a resignation)."""
    run = Replay(record)
    engine = run.engine
    size = engine.size

    def board() -> list[int]:
        return [code_of(engine.stone((i % size, i // size))) for i in range(size * size)]

    out: list[tuple[int, int]] = []
    standing: set[int] = set()

    def test(ply: int, b: list[int]) -> None:
        for k, p in enumerate(found):
            if all(b[i] == v for i, v in p.need):
                if k not in standing:
                    standing.add(k)
                    out.append((ply, k))
            else:
                standing.discard(k)

    test(0, board())
    for s in run:
        if ends_positions(s):
            break
        test(s.number, board())
    out.sort()
    return out


def brute_force_continuations(record: Record, pattern: Pattern, found: Sequence[Placement]
                              ) -> list[tuple[int, int, tuple[int, int, int] | None]]:
    """(move number, placement, its continuation in the region) for each appearance of `brute_force`, the slow
    way: the moves are read from a replay of the record (each move's point, a relocation's target), not from
    the change list. The continuation is (move number, point index, BLACK or WHITE), None when the line ended
    first."""
    run = Replay(record)
    size = run.engine.size
    moves: list[tuple[int, int, int]] = []
    for s in run:
        if ends_positions(s):
            break
        m = s.move
        where = m.target if m.kind is MoveKind.RELOCATE else m.point
        if where is not None and m.kind is not MoveKind.REMOVE:
            moves.append((s.number, where[1] * size + where[0], BLACK if m.colour is Colour.BLACK else WHITE))
    out: list[tuple[int, int, tuple[int, int, int] | None]] = []
    for ply, k in brute_force(record, found):
        region = set(region_points(pattern, found[k], size))
        out.append((ply, k, next((m for m in moves if m[0] > ply and m[1] in region), None)))
    return out
