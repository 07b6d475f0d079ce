"""Setup stones and who moves first (ING-8): collected from the root and the nodes before the first move."""

from __future__ import annotations

from .games import SPECS, Game
from .model import Colour, Node, Problem, Record, Setup, Severity
from .points import Point, parse_point

SETUP_IDENTS = ("AB", "AW", "AE", "PL")


def point_list(values: list[str], size: int) -> list[Point]:
    """SGF point lists, compressed rectangles (`aa:cc`) included; points off the board are left out."""
    out: list[Point] = []
    for value in values:
        if ":" in value:
            a, b = (parse_point(v) for v in value.split(":", 1))
            if a is None or b is None:
                continue
            for row in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
                out.extend((col, row) for col in range(min(a[0], b[0]), max(a[0], b[0]) + 1))
        else:
            p = parse_point(value)
            if p is not None:
                out.append(p)
    return [p for p in out if p[0] < size and p[1] < size]


def setup_nodes(record: Record) -> list[Node]:
    """The root and the main-line nodes before the first move: where setup may stand (ING-8)."""
    nodes = [record.root]
    node = record.root
    while node.children:
        node = node.children[0]
        if node.move is not None:
            break
        nodes.append(node)
    return nodes


def off_board(values: list[str], size: int) -> list[str]:
    """The values of a point list that name no point of a `size` board (unreadable or off the board)."""
    bad: list[str] = []
    for value in values:
        ends = value.split(":", 1) if ":" in value else [value]
        points = [parse_point(v) for v in ends]
        if any(p is None or p[0] >= size or p[1] >= size for p in points):
            bad.append(value)
    return bad


def collect_setup(record: Record) -> tuple[Setup, list[Problem]]:
    """The starting position the setup nodes make, applied in order (AE clears, AB/AW place).

    Points that are not on the board are left out, each list with an error (the size rule); a `PL` that is not
    `B` or `W` is ignored with a warning (ING-8). Only Go has setup (the reader reports it elsewhere).
    """
    setup = Setup()
    notes: list[Problem] = []
    size = record.size
    if record.game is not Game.GO:
        return setup, notes
    rule = SPECS[record.game].size_rule
    for node in setup_nodes(record):
        for ident in ("AE", "AB", "AW"):
            prop = node.properties.get(ident)
            bad = off_board(prop.values, size) if prop is not None and size else []
            if bad and prop is not None:
                notes.append(Problem("setup-off-board", f"{ident}: {', '.join(bad)} "
                                     f"{'is' if len(bad) == 1 else 'are'} not on the {size}x{size} board; left "
                                     f"out ({rule})", Severity.ERROR, rule, pos=prop.pos))
        for point in point_list(node.get_all("AE"), size):
            setup.black.discard(point)
            setup.white.discard(point)
        for point in point_list(node.get_all("AB"), size):
            setup.white.discard(point)
            setup.black.add(point)
        for point in point_list(node.get_all("AW"), size):
            setup.black.discard(point)
            setup.white.add(point)
        pl = node.properties.get("PL")
        if pl is not None:
            value = pl.value.strip().upper()
            if value in ("B", "W"):
                setup.to_move = Colour(value)
            else:
                # Old files write PL[1] / PL[2]; ING-8 says such a value is ignored with a warning.
                notes.append(Problem("setup-pl", f"PL[{pl.value}] is not B or W and is ignored (ING-8)",
                                     rule="ING-8", pos=pl.pos))
    return setup, notes
