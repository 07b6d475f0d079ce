"""Rating histories as an SVG chart: one line per game with its 95% band, every text escaped, no script."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..archive.tournaments.ratings import Z95
from ..records.games import game_title
from .safe_text import xml_text

if TYPE_CHECKING:
    from ..archive.tournaments.ratings import Rating


def rating_svg(found: Sequence[Rating]) -> str:
    """A line chart of rating histories (one line per game) with the 95% band; text escaped, no script."""
    width, height, pad = 640, 320, 48
    points = [(d.toordinal(), v, s) for r in found for d, v, s in r.history]
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0 = min(v - Z95 * s for _, v, s in points)
    y1 = max(v + Z95 * s for _, v, s in points)
    if x1 == x0:  # one day of games: that day in the middle of the axis
        x0, x1 = x0 - 1, x1 + 1
    y1 = y1 if y1 > y0 else y0 + 1

    def x(day: int) -> float:
        return pad + (day - x0) / (x1 - x0) * (width - 2 * pad)

    def y(value: float) -> float:
        return height - pad - (value - y0) / (y1 - y0) * (height - 2 * pad)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#333"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#333"/>',
             f'<text x="{pad}" y="{pad - 16}" font-weight="bold">'
             f'{xml_text(", ".join(f"{r.name} ({game_title(r.game)})" for r in found))}</text>',
             f'<text x="4" y="{y(y1):.1f}">{y1:.0f}</text><text x="4" y="{y(y0):.1f}">{y0:.0f}</text>']
    first = min(d for r in found for d, _, _ in r.history)
    last = max(d for r in found for d, _, _ in r.history)
    if first == last:
        parts.append(f'<text x="{x(first.toordinal()):.1f}" y="{height - pad + 16}" text-anchor="middle">'
                     f'{first.isoformat()}</text>')
    else:
        parts.append(f'<text x="{pad}" y="{height - pad + 16}">{first.isoformat()}</text>')
        parts.append(f'<text x="{width - pad}" y="{height - pad + 16}" text-anchor="end">{last.isoformat()}</text>')
    colours = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
    for i, r in enumerate(found):
        colour = colours[i % len(colours)]
        upper = [(x(d.toordinal()), y(v + Z95 * s)) for d, v, s in r.history]
        lower = [(x(d.toordinal()), y(v - Z95 * s)) for d, v, s in reversed(r.history)]
        band = " ".join(f"{a:.1f},{b:.1f}" for a, b in upper + lower)
        line = " ".join(f"{x(d.toordinal()):.1f},{y(v):.1f}" for d, v, _ in r.history)
        parts.append(f'<polygon points="{band}" fill="{colour}" fill-opacity="0.15"/>')
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        # Each day's rating as a dot with its 95% interval as a bar: a history of one day (a line of one point,
        # a band of no width) is seen too.
        for d, v, sd in r.history:
            px = x(d.toordinal())
            parts.append(f'<line class="interval" x1="{px:.1f}" y1="{y(v + Z95 * sd):.1f}" x2="{px:.1f}" '
                         f'y2="{y(v - Z95 * sd):.1f}" stroke="{colour}" stroke-opacity="0.5" stroke-width="2"/>')
            parts.append(f'<circle class="point" cx="{px:.1f}" cy="{y(v):.1f}" r="3.5" fill="{colour}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
