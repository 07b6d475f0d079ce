"""Fitting tables into the terminal: the one table layout every listing uses.

A table is laid out for a width measured as the terminal shows text (a CJK character takes two cells): columns
are left out by a stated priority until the rest fit, free text is shortened with an ellipsis after a whole word
(render/shorten.py: a bracketed part is one word, different values stay different), a result's first token is
never cut, and no cell is ever wrapped or cut inside a word otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.cells import cell_len
from rich.console import Console, JustifyMethod
from rich.table import Table
from rich.text import Text

from ...render.shorten import ELLIPSIS, cut_at, distinct, first_word

# Piped output (not a terminal) is laid out this wide unless COLUMNS says otherwise.
PIPE_WIDTH = 100


def output_width(is_terminal: bool, terminal_width: int) -> int:
    """The width to lay tables out in: the terminal's, else COLUMNS, else PIPE_WIDTH."""
    if is_terminal:
        return terminal_width
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else PIPE_WIDTH


def shown_in(encoding: str, text: str) -> str:
    """`text` with every character `encoding` cannot write as a visible escape (`\\u2026`), as control characters
    are: any output encoding works (PYTHONIOENCODING=ascii too)."""
    if text.isascii() or encoding.lower().replace("-", "").startswith(("utf", "cp65001")):
        return text
    try:
        text.encode(encoding)
        return text
    except (UnicodeEncodeError, LookupError):
        return text.encode(encoding, "backslashreplace").decode(encoding, "replace")



# -- the one table layout ---------------------------------------------------------------------------------------

GAP = 2  # the columns' separation: one space of padding and the (blank) rule between them


@dataclass(frozen=True)
class Column:
    """One column of a fitted table.

    `drop`: its place in the order columns are left out when the width does not afford them all (the highest
    number goes first; None: never left out). `shorten`: free text (a name, an event, a result) that is shortened
    with an ellipsis, after its last whole word that fits, rather than push the other columns out; down to
    `least` cells (or its header). Every other cell is shown whole or not at all.
    """

    header: str
    justify: JustifyMethod = "left"
    drop: int | None = None
    shorten: bool = False
    least: int = 10
    want: int = 0  # free text never left out: other columns are left out to give it this width (or what it needs)
    path: bool = False  # a file's path: shortened from the left, at a `/`, so that its file name stays
    tokens: bool = False  # free text whose first word is a token never cut (a result, `B+101.5`): at least that wide


@dataclass(frozen=True)
class Fit:
    """How a table fits a width: the columns kept (their indexes), the width of each, the headers left out."""

    keep: list[int]
    widths: dict[int, int]
    left_out: list[str]


def shorten(text: Text, width: int, shown: str | None = None) -> Text:
    """`text` in at most `width` terminal cells: whole, or up to its last whole word that fits, then `…`
    (render/shorten.py: a bracketed part is one word; a first word longer than the width is cut after its last
    character that fits). `shown`: the shortened text to show instead (`distinct`'s), in the cell's style."""
    if text.cell_len <= width:
        return text
    end, after = cut_at(text.plain, width, cell_len)
    if shown is not None and shown != text.plain[:end] + ELLIPSIS + after:
        return Text(shown, style=text.style)
    cut = text[:end]
    cut.append(ELLIPSIS + after)
    return cut


def shorten_path(text: Text, width: int) -> Text:
    """A path in at most `width` cells: whole, or `…/` and its last segments that fit (else as `shorten`)."""
    if text.cell_len <= width:
        return text
    plain = text.plain
    i = plain.find("/")
    while i >= 0:  # the first `/` (the longest tail) that fits; only the `/` are measured from
        if cell_len(plain[i:]) + 1 <= width:
            return Text(ELLIPSIS) + text[i:]
        i = plain.find("/", i + 1)
    return shorten(text, width)


def _cells(rows: Sequence[Sequence[Text | str]]) -> list[list[Text]]:
    return [[c if isinstance(c, Text) else Text(c) for c in row] for row in rows]


def fit(columns: Sequence[Column], rows: Sequence[Sequence[Text | str]], width: int) -> Fit:
    """Which columns of `rows` a table `width` terminal cells wide affords, and how wide each is (measured as the
    terminal shows them: a CJK character takes two).

    Columns with no text in any row are left out first; then, while the narrowest form of the table is too wide,
    the column with the highest `drop`. Free text (`shorten`) then shares what is left; no cell is wrapped, and
    none but free text is ever shortened."""
    cells = _cells(rows)
    natural = [max([cell_len(col.header)] + [r[i].cell_len for r in cells]) for i, col in enumerate(columns)]
    header_len = [cell_len(col.header) for col in columns]

    def token(cell: Text) -> int:
        word = first_word(cell.plain)
        return cell.cell_len if word == cell.plain else cell_len(word) + cell_len(ELLIPSIS)

    tokens = {i: max([token(r[i]) for r in cells], default=0) for i, col in enumerate(columns) if col.tokens}

    def least(i: int) -> int:
        col = columns[i]
        return min(natural[i], max(header_len[i], col.least, tokens.get(i, 0))) if col.shorten else natural[i]

    def wanted(i: int) -> int:
        return max(least(i), min(natural[i], columns[i].want))

    keep = [i for i, col in enumerate(columns) if col.drop is None or any(r[i].plain for r in cells)]
    left_out = [columns[i].header for i in range(len(columns)) if i not in keep and natural[i] > header_len[i]]
    droppable = sorted((i for i in keep if columns[i].drop is not None), key=lambda i: -(columns[i].drop or 0))
    while droppable and sum(wanted(i) for i in keep) + GAP * (len(keep) - 1) > width:
        gone = droppable.pop(0)
        keep.remove(gone)
        left_out.append(columns[gone].header)
    shown = {i: natural[i] for i in keep}
    free = [i for i in keep if columns[i].shorten]
    room = width - GAP * (len(keep) - 1) - sum(natural[i] for i in keep if not columns[i].shorten)
    # The free text shares the room: the columns that are never left out (the players) first, then the others by
    # their priority, each group leaving the later ones their least widths; in a group, equal shares, and what a
    # narrow column does not use goes to the others.
    def rank(i: int) -> tuple[bool, int]:
        return columns[i].drop is not None, columns[i].drop or 0

    for group in sorted({rank(i) for i in free}):
        members = sorted((i for i in free if rank(i) == group), key=lambda i: natural[i])
        later = sum(least(j) for j in free if rank(j) > group)
        share_room = room - later
        for n, i in enumerate(members):
            shown[i] = max(least(i), min(natural[i], share_room // (len(members) - n)))
            share_room -= shown[i]
            room -= shown[i]
    return Fit(keep, shown, left_out)


def fitted_rows(columns: Sequence[Column], layout: Fit, rows: Sequence[Sequence[Text | str]], *,
                title: str | Text | None = None, show_header: bool = True) -> Table:
    """`rows` laid out as `layout` says (several tables of one layout line up)."""
    table = Table(title=title, title_justify="left", header_style="bold", box=box.SIMPLE_HEAD if show_header
                  else None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0), show_header=show_header,
                  collapse_padding=True)
    for i in layout.keep:
        table.add_column(columns[i].header, justify=columns[i].justify, no_wrap=True, width=layout.widths[i],
                         overflow="ellipsis")
    cells = _cells(rows)
    # Different values of a column never look the same once shortened (render/shorten.py: distinct).
    shown = {i: distinct((r[i].plain for r in cells), layout.widths[i], cell_len) for i in layout.keep
             if columns[i].shorten and not columns[i].path}
    for r in cells:
        table.add_row(*(shorten_path(r[i], layout.widths[i]) if columns[i].path else
                        shorten(r[i], layout.widths[i], shown[i][r[i].plain]) if i in shown else r[i]
                        for i in layout.keep))
    return table


def fitted_table(columns: Sequence[Column], rows: Sequence[Sequence[Text | str]], width: int, *,
                 title: str | Text | None = None) -> tuple[Table, list[str]]:
    """`rows` as one table at most `width` terminal cells wide (`fit`), and the headers of the columns it left
    out."""
    layout = fit(columns, rows, width)
    return fitted_rows(columns, layout, rows, title=title), layout.left_out


def write_fitted(console: Console, columns: Sequence[Column], layout: Fit, rows: Sequence[Sequence[Text]], *,
                 show_header: bool = True) -> None:
    """`rows` laid out as `layout` says, as `fitted_rows` shows them (the same columns, widths, header and rule),
    written as plain lines: a listing of thousands of rows costs what printing its lines costs, where rich lays a
    table out cell by cell. A styled cell (a verdict in its colour) is rendered by the console once per distinct
    cell and width; every cell's record text must be escaped already (safe_text.plain), as in every listing."""
    keep = layout.keep
    widths = [layout.widths[i] for i in keep]
    justify = [columns[i].justify for i in keep]
    cut = [shorten_path if columns[i].path else shorten for i in keep]
    styled: dict[tuple[object, ...], str] = {}

    def cell(text: Text, width: int, how: JustifyMethod) -> str:
        plain = text.plain
        pad = width - cell_len(plain)
        if not text.style and not text.spans:
            return _padded(plain, pad, how)
        key = (plain, text.style, tuple(text.spans), width, how)
        out = styled.get(key)
        if out is None:
            with console.capture() as captured:
                console.print(text, end="", soft_wrap=True)
            out = styled[key] = _padded(captured.get(), pad, how)
        return out

    lines: list[str] = []
    if show_header:
        lines.append("  ".join(cell(Text(columns[i].header, style="bold"), w, how)
                               for i, w, how in zip(keep, widths, justify, strict=True)).rstrip())
        rule = "─" if console.encoding.lower().replace("-", "").startswith("utf") else "-"
        lines.append(rule * (sum(widths) + GAP * (len(widths) - 1)))
    for row in rows:
        lines.append("  ".join(cell(short(row[i], w), w, how)
                               for i, w, how, short in zip(keep, widths, justify, cut, strict=True)).rstrip())
    if lines:
        console.file.write(shown_in(console.encoding, "\n".join(lines) + "\n"))
        console.file.flush()


def _padded(text: str, pad: int, how: JustifyMethod) -> str:
    """`text` with `pad` spaces added as `how` justifies it (its measured width is the column's less `pad`)."""
    if pad <= 0:
        return text
    if how == "right":
        return " " * pad + text
    if how == "center":
        return " " * (pad // 2) + text + " " * (pad - pad // 2)
    return text + " " * pad
