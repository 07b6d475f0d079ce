"""`records html`: one self-contained HTML page that replays a game (no network access: nothing is loaded); `records
serve`'s game page is made of the same parts (board_html, header_html, status_html, page_data).

Safety: every text from a record is escaped with html.escape where it is markup; the positions travel as JSON in
a non-executed `<script type="application/json">` block with `<`, `>`, `&`, U+2028 and U+2029 escaped, and the
replayer script sets record text with textContent only. A Content-Security-Policy allows nothing but the page's
own inline script (by its hash), inline styles and data: images.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from html import escape
from importlib import resources
from typing import Any

from ..records.games import SPECS
from ..records.model import Colour
from ..records.points import index_letter
from ..verifier.judging.analysis import Analysis
from .board import points_layer, svg_open
from .game_lines import (
    change_lines,
    clock_lines,
    comment_of,
    header_lines,
    move_line,
    swap_line,
    taken_line,
    to_move_line,
    verdict_lines,
)
from .highlight import Mark, step_highlights
from .safe_text import html_text, json_text
from .safe_text import (
    terminal as html_shown,  # the page shows control characters as the terminal does
)
from .shorten import VALUE_SHOWN, shorten_text
from .svg import CELL, Geometry, frame_shapes, step_shapes, stone_shape, to_xml

_LETTERS = "".join(index_letter(i) for i in range(52))


def _asset(name: str) -> str:
    return resources.files("boardrecords.render").joinpath(name).read_text(encoding="utf-8")


def script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: no `</script>`, no HTML comment, no JS line separators."""
    text = json_text(value, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _board_strings(data: Analysis) -> list[str]:
    """Every position's board as one string (`.`, B, W by point index). A move changes few rows, so a row equal to
    the one before keeps its text: a long game's page is made without writing every point of every board."""
    out: list[str] = []
    before: list[list[Colour | None]] = []
    texts: list[str] = []
    for i in range(data.last + 1):
        rows = data.rows_at(i)
        texts = [texts[r] if r < len(before) and row == before[r] else "".join(s or "." for s in row)
                 for r, row in enumerate(rows)]  # a Colour is its letter (StrEnum)
        before = rows
        out.append("".join(texts))
    return out


def page_data(data: Analysis, geo: Geometry) -> dict[str, Any]:
    """Everything the replayer script needs: one entry per position (0: the start)."""
    positions: list[dict[str, Any]] = []
    clocks = clock_lines(data)
    for i, board in enumerate(_board_strings(data)):
        step = data.step_at(i)
        under, over = step_shapes(data, i, geo)
        positions.append({
            "board": board,
            "label": html_shown(move_line(data, i)),
            "changes": [html_shown(line) for line in change_lines(step, data.points)],
            "illegal": bool(step is not None and step.illegal is not None),
            "toMove": html_shown(to_move_line(data, i)),
            "taken": taken_line(data, i) or "",
            "swap": html_shown(swap_line(data, i) or ""),
            "comment": html_shown(comment_of(data, i) or ""),
            "under": under,
            "over": over,
        })
        if clocks is not None:
            positions[-1]["clock"] = html_shown(clocks[i])
    black = stone_shape(geo, (0, 0), Colour.BLACK)
    white = stone_shape(geo, (0, 0), Colour.WHITE)
    return {
        "size": data.record.size,
        "letters": _LETTERS,
        "geometry": {"cell": CELL, "off": geo.off},
        "stone": {"B": [black[0], black[1], None], "W": [white[0], white[1], None]},
        "start": 0,
        "positions": positions,
    }


# How the board draws each mark (svg.py: mark_shapes), for the legend under it.
_MARK_PICTURES: dict[Mark, str] = {
    Mark.LAST: "small ring: last move",
    Mark.CAPTURED: "red cross: captured",
    Mark.REMOVED: "red cross: removed",
    Mark.CONVERTED: "purple ring: converted",
    Mark.FLIPPED: "purple ring: flipped",
    Mark.FILLED: "green square: filled",
    Mark.CROSSCUT: "amber frame: crosscut",
    Mark.SWEPT: "blue band: swept line",
    Mark.FROM: "dashed circle and arrow: a stone moved",
    Mark.ILLEGAL: "big red cross: illegal move",
}


def marks_used(data: Analysis) -> list[Mark]:
    """The marks some position of this game shows, in the legend's order."""
    present: set[Mark] = set()
    for step in data.steps:
        present.update(step_highlights(step, data.record.size).used())
    return [m for m in _MARK_PICTURES if m in present]


def _marks_html(data: Analysis) -> str:
    used = marks_used(data)
    if not used:
        return ""
    return f'<p class="keys" id="marks">Marks: {html_text("; ".join(_MARK_PICTURES[m] for m in used))}.</p>'


def _title(data: Analysis) -> str:
    r = data.record
    players = f"{r.black or '?'} (Black) vs {r.white or '?'} (White)"
    return f"{players}: {SPECS[r.game].title}" + (f", {r.event}" if r.event else "")


def header_html(data: Analysis, first: Sequence[tuple[str, str]] = ()) -> str:
    """The title and the record's header as a list of terms (`first`: rows the page adds before the record's)."""
    lines = header_lines(data.record)
    pairs = [*first, *(line.partition(": ")[::2] for line in lines[1:])]
    rows = "".join(f"<dt>{html_text(label)}</dt><dd>{bounded_html(value)}</dd>" for label, value in pairs)
    return f"<h1>{html_text(lines[0])}</h1>\n<dl id=\"header\">{rows}</dl>"


def bounded_html(value: str) -> str:
    """A header value as a page shows it: whole when short; else its first words (VALUE_SHOWN characters), the
    whole value one click away in a closed <details>, which the browser does not lay out until it is opened."""
    if len(value) <= VALUE_SHOWN:
        return html_text(value)
    short = shorten_text(value, VALUE_SHOWN)
    return (f'<details class="long"><summary>{html_text(short)} ({len(value):,} characters)</summary>'
            f'<span class="whole">{html_text(value)}</span></details>')


def move_items(data: Analysis) -> list[dict[str, Any]]:
    """The moves as a compact list shows them: number, colour (`black`, `white`), the move in the notation, whether
    it was refused, its comment (record text, escaped by the page)."""
    out: list[dict[str, Any]] = []
    for i in range(1, data.last + 1):
        step = data.step_at(i)
        if step is None:
            continue
        out.append({"index": i, "number": step.number, "colour": "black" if step.colour is Colour.BLACK else "white",
                    "move": data.points.move(step.move), "illegal": step.illegal is not None,
                    "comment": comment_of(data, i) or ""})
    return out


def board_html(data: Analysis, geo: Geometry, frame: str) -> str:
    """The board (its `frame`: lines, star points, coordinates, as SVG), the buttons, the slider and the legends
    under them: the replay's side that replay.js steps, on the page of `records html` and `records serve`'s game
    page alike."""
    record = data.record
    return f"""<section id="board-wrap">
{svg_open(record.game, record.size, geo, "board")}
{frame}
<g id="layer-under"></g><g id="layer-stones"></g><g id="layer-over"></g>
{points_layer(geo, data.points)}
</svg>
<div id="controls">
<button type="button" id="first" title="Start (Home)" aria-label="start">|&#x25C0;</button>
<button type="button" id="prev" title="Back (left arrow)" aria-label="previous move">&#x25C0;</button>
<span id="counter"></span>
<button type="button" id="next" title="Next (right arrow)" aria-label="next move">&#x25B6;</button>
<button type="button" id="last" title="End (End)" aria-label="last move">&#x25B6;|</button>
<input type="range" id="slider" min="0" max="{data.last}" value="0" aria-label="move">
</div>
<p class="keys">Keys: &#x2190; &#x2192; step, Home / End: start and end; the address ends in #move=N.</p>
<p class="keys" id="notation">{escape(data.points.words)}.</p>
{_marks_html(data)}
</section>"""


def status_html(data: Analysis) -> str:
    """The places replay.js fills for the position shown (the move, its changes, who moves next, captures, the
    swap, the comment) and the record's verdict."""
    lines = verdict_lines(data)
    body = "".join(f"<p>{html_text(line)}</p>" for line in lines)
    return f"""<p id="move-label"></p>
<ul id="changes" class="changes"></ul>
<p id="to-move"></p>
<p id="taken" hidden></p>
<p id="clock" hidden></p>
<p id="swap" hidden></p>
<div id="comment" hidden></div>
<section id="verdict" class="verdict-{data.verdict.verdict.value}">{body}</section>"""


def html_page(data: Analysis) -> str:
    """The complete page."""
    record = data.record
    geo = Geometry.of(record.game, record.size, caption=False)
    script = _asset("replay.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    csp = (f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; img-src data:; "
           "base-uri 'none'; form-action 'none'")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{html_text(_title(data))}</title>
<style>
{_asset("replay.css")}</style>
</head>
<body>
<main>
{board_html(data, geo, to_xml(frame_shapes(geo, data.points)))}
<aside>
{header_html(data)}
{status_html(data)}
</aside>
</main>
<noscript><p>This page needs JavaScript to step through the game.</p></noscript>
<script type="application/json" id="replay-data">{script_json(page_data(data, geo))}</script>
<script>{script}</script>
</body>
</html>
"""
