"""Setup stones and who moves first (ING-8): collected from the root and the nodes before the first move."""

from __future__ import annotations

from .model import Colour, Diagnostic, Node, Record, Setup
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


def collect_setup(record: Record) -> tuple[Setup, list[Diagnostic]]:
    """The starting position the setup nodes make, applied in order (AE clears, AB/AW place)."""
    setup = Setup()
    notes: list[Diagnostic] = []
    size = record.size
    for node in setup_nodes(record):
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
                notes.append(Diagnostic("setup-pl", f"PL[{pl.value}] is not B or W and is ignored (ING-8)",
                                        pl.pos, rule="ING-8"))
    return setup, notes
