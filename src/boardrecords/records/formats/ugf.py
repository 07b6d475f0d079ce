"""Pandanet's `.ugf` and `.ugi` files (FMT-13): one format under two names.

A file is sections, each opened by its name in brackets (`[Header]`, `[Data]`, `[Figure]`, ...; lines starting with
`#` before the first are comments). `[Header]` holds `KEY=VALUE` lines:
- `PlayerB`, `PlayerW`: `name,rank,...`; `Hdcp`: `handicap,komi` (`0,6.50`); `Size`; `Date`: `2001/08/20,...`;
  `Winner`: `B,1.5` (the winner and the score), or the winner and a letter (`W,C`: `C`, `G` and `E` a resignation,
  `T` on time, `F` by forfeit), `D` a draw; `Rule` (`JPN`, `CHN`); `Title`, `Place`, `Copyright`, `Comment`;
  `Lang`: the charset (`SJIS`); `Moves`: the number of moves.
`[Data]` holds one line a stone: `XY,C?,N,T`: column X and row Y as letters (`A` the left column and the BOTTOM row),
the colour (`B`, `W`), the move number (0 for a stone set before the game: a handicap stone, placed where the file
places it), the time.
Sabaki's reader (src/modules/fileformats/ugf.js) is the public reference for these lines.
"""

from __future__ import annotations

import re

from ..model import Repair
from ..points import format_point
from .common import Converted, Line, Lines, SgfText, number, rank_text, show_points
from .review import read_review

NAME = "Pandanet UGF"
_SECTION = re.compile(r"^\[([A-Za-z]+)\]\s*$")
_RULES = {"JPN": "Japanese", "CHN": "Chinese", "KOR": "Korean"}
_READ_SECTIONS = frozenset({"header", "data", "reviewnode", "reviewcomment"})
_PASS = "YA"  # a pass, on every board (the file's [ReviewNode] writes the same moves as points beyond the board)
_WINNER_CODES = {"C": "R", "G": "R", "E": "R", "T": "T", "F": "F"}


def sniff(head: bytes) -> bool:
    """Whether the start of a file shows a UGF `[Header]` section."""
    return re.search(rb"^\[Header\]\s*$", head, re.M) is not None


def convert(data: bytes, source: str | None) -> Converted:
    probe = re.search(rb"^Lang=([A-Za-z0-9_-]+)", data, re.M)
    lines = Lines(data, source, probe.group(1).decode("ascii") if probe else None)
    sections: dict[str, list[Line]] = {}
    opened: dict[str, Line] = {}
    current: list[Line] | None = None
    for line in lines.lines:
        text = line.text.strip()
        m = _SECTION.match(text)
        if m is not None:
            current = sections.setdefault(m.group(1).lower(), [])
            opened.setdefault(m.group(1).lower(), line)
        elif current is not None and text:
            current.append(line)
    if "header" not in opened:
        raise lines.error(f"no [Header] section: not a {NAME} record (expected [Header], then [Data])", 1)
    if "data" not in opened:
        raise lines.error(f"the file ends at line {lines.end_line} without a [Data] section: expected the moves "
                          "(it is truncated or holds no game)", lines.end_line)
    header: dict[str, tuple[str, Line]] = {}
    for line in sections["header"]:
        key, sep, value = line.text.strip().partition("=")
        if sep:
            header.setdefault(key.strip().lower(), (value.strip(), line))
    size = 19
    if "size" in header:
        size_value = number(header["size"][0])
        if size_value is None or not 2 <= size_value <= 52:
            raise lines.error(f"Size={header['size'][0][:40]} is not a board size: expected a number",
                              header["size"][1])
        size = size_value
    sgf = SgfText(size)
    handicap = _header(lines, sgf, header)
    _data(lines, sgf, sections["data"], size, handicap, header)
    read_review(lines, sgf, sections, size)
    for name, line in opened.items():
        if name not in _READ_SECTIONS and sections[name]:
            # No published description or reader says what their lines mean ([Figure]: a newspaper's diagrams).
            count = len(sections[name])
            lines.warn("section-not-read", f"the [{line.text.strip()[1:-1]}] section ({count} line"
                       f"{'s' if count != 1 else ''}) is not read: its layout is not known", line)
    return Converted(sgf.text(), NAME, lines.codec, lines.detected, lines.notes, lines=sgf.lines)


def _header(lines: Lines, sgf: SgfText, header: dict[str, tuple[str, Line]]) -> int:
    for key, ident, rank in (("playerb", "PB", "BR"), ("playerw", "PW", "WR")):
        if key in header:
            value, line = header[key]
            parts = value.split(",")
            if parts[0].strip():
                sgf.put(ident, parts[0].strip(), line)
            if len(parts) > 1 and parts[1].strip():
                sgf.put(rank, rank_text(parts[1]), line)
    for key, ident in (("title", "GN"), ("place", "PC"), ("copyright", "CP"), ("comment", "GC")):
        if key in header and header[key][0].strip(" ,"):
            sgf.put(ident, " ".join(p.strip() for p in header[key][0].split(",") if p.strip()), header[key][1])
    if "rule" in header:
        value, line = header["rule"]
        sgf.put("RU", _RULES.get(value.upper(), value), line)
    if "date" in header:
        value, line = header["date"]
        m = re.match(r"\s*(\d{4})[/-](\d{1,2})[/-](\d{1,2})", value)
        if m is not None:
            sgf.put("DT", f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}", line)
    handicap = 0
    if "hdcp" in header:
        value, line = header["hdcp"]
        parts = value.split(",")
        count = number(parts[0])
        if count is None:
            raise lines.error(f"Hdcp={value[:40]} is not a handicap: expected 'Hdcp=<stones>,<komi>'", line)
        handicap = count
        if count >= 2:
            sgf.put("HA", str(count), line)
        if len(parts) > 1 and parts[1].strip():
            try:
                sgf.put("KM", f"{float(parts[1]):g}", line)
            except ValueError:
                raise lines.error(f"Hdcp={value[:40]}: '{parts[1].strip()}' is not a komi: expected a number",
                                  line) from None
    if "winner" in header:
        _winner(lines, sgf, *header["winner"])
    return handicap


def _winner(lines: Lines, sgf: SgfText, value: str, line: Line) -> None:
    parts = [p.strip() for p in value.split(",")]
    who = parts[0].upper()
    how = parts[1] if len(parts) > 1 else ""
    if who == "D":
        sgf.put("RE", "0", line)
        return
    if who not in ("B", "W"):
        lines.warn("result-not-read", f"Winner={value[:40]} names no winner (B, W or D): no result read", line)
        return
    if re.fullmatch(r"\d+(?:\.\d+)?", how):
        sgf.put("RE", f"{who}+{float(how):g}", line)
        return
    code = _WINNER_CODES.get(how[:1].upper())
    result = f"{who}+{code}" if code else f"{who}+"
    sgf.put("RE", result, line)
    if how:
        known = "" if code else " (not one this reader knows: only the winner is read)"
        lines.warn("result-code", f"Winner={value[:40]} read as {result}: Pandanet writes how the game ended as a "
                   f"letter (C, G, E a resignation, T on time, F by forfeit){known}", line,
                   Repair("RE", f"Winner={value}", result))


def _data(lines: Lines, sgf: SgfText, rows: list[Line], size: int, handicap: int,
          header: dict[str, tuple[str, Line]]) -> None:
    stones: list[tuple[str, tuple[int, int] | None, Line, int]] = []
    for row in rows:
        parts = [p.strip() for p in row.text.split(",")]
        if len(parts) < 3 or len(parts[0]) != 2 or parts[1][:1] not in ("B", "W") or number(parts[2]) is None:
            raise lines.error(f"'{row.text.strip()[:40]}' is not a {NAME} move: expected 'XY,B1,<move number>,"
                              "<time>' (column and row as letters)", row)
        if parts[0].upper() == _PASS:
            if not number(parts[2]):
                raise lines.error(f"'{row.text.strip()[:40]}': a pass (YA) numbered 0, as a stone set before the "
                                  "game: expected a move number", row)
            stones.append((parts[1][0], None, row, number(parts[2]) or 0))
            continue
        column, line = (ord(c) - ord("A") for c in parts[0].upper())
        if not (0 <= column < size and 0 <= line < size):
            raise lines.error(f"'{parts[0]}' is not a point of the {size}x{size} board: expected the column and "
                              "row as letters from A", row)
        stones.append((parts[1][0], (column, size - 1 - line), row, number(parts[2]) or 0))
    setup = [s for s in stones if s[3] == 0]
    moves = [s for s in stones if s[3] != 0]
    if not setup and handicap >= 2 and len(moves) >= handicap and all(
            s[0] == "B" and s[1] is not None for s in moves[:handicap]):
        # Some files list the handicap stones as Black's first moves: the first `handicap` of them are the setup.
        setup, moves = moves[:handicap], moves[handicap:]
        shown = show_points([s[1] for s in setup if s[1] is not None])
        lines.warn("handicap-as-moves", f"Hdcp={handicap}: the first {handicap} stones are numbered as moves; read "
                   f"as the handicap stones ({shown})", setup[0][2],
                   Repair("AB", ", ".join(s[2].text.strip() for s in setup), shown))
    for colour in ("B", "W"):
        placed = [s for s in setup if s[0] == colour]
        if placed:
            sgf.put(f"A{colour}", [format_point(s[1]) for s in placed if s[1] is not None], placed[0][2])
    for colour, point, row, _ in moves:
        sgf.move(colour, point, row)
    if "moves" in header:
        declared = number(header["moves"][0])
        if declared is not None and len(moves) < declared:
            raise lines.error(f"the file ends at line {lines.end_line} after {len(moves)} moves, and Moves= says "
                              f"{declared}: it is truncated", lines.end_line)
