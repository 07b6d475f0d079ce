"""WBaduk's and Cyberoro's `.ngf` files (FMT-13).

A file is twelve header lines, then one line a move:
1 the game's title; 2 the board size; 3 and 4 White and Black, each the name then the rank (`9DP`, `5D`, `12K`);
5 the server; 6 the handicap; 7 (unused here); 8 the komi, written without its half point (`6` for 6.5 in an even
game); 9 the date (`20080102 [time]` or `2008-1-2`); 10 (unused here); 11 the result as a sentence (`White wins by
resignation!`, `Black wins by 3.5 points!`, `Black loses on time!`); 12 the number of moves.
Each move is `PM`, two letters of the move number, the colour (`B`, `W`), then column and row as letters, `B` the
first (from the upper left corner; `AA` a pass), the same point written again after them. The handicap stones are not
listed: WBaduk places them on the star points as Tygem does (common.korean_handicap).
Sabaki's reader (src/modules/fileformats/ngf.js) is the public reference for these lines.
"""

from __future__ import annotations

import re

from ..model import Repair
from ..points import format_point
from .common import Converted, Line, Lines, SgfText, korean_handicap, number, rank_text, show_points

NAME = "WBaduk NGF"
_HEADER_LINES = 12
_MOVE = re.compile(r"^PM(..)([BW])(.)(.)")
# The older form: every header line starts with `GI`; by index: 0 the title, 1 and 2 White and Black, 5 the date,
# 6 the size, 7 the handicap, 9 the komi, 10 the number of moves; after the moves, comments on moves:
# `<move number as two letters><colour>[<move number>] <text>[EndTxt]`.
_OLD_SIZE = 6
_OLD_COMMENT = re.compile(r"^(..)([BW])\[(\d+)\]\s*(.*?)\s*(?:\[EndTxt\])?\s*$")


def sniff(lines: list[bytes]) -> bool:
    """Whether a file's first lines have the shape of an NGF header: a board size, a handicap and a komi where NGF
    puts them, and the number of moves or a first move after them (or the older form's `GI` lines, then moves)."""
    if len(lines) > _OLD_SIZE + 1 and all(line.startswith(b"GI") for line in lines[:_OLD_SIZE + 1]):
        return _int(lines[_OLD_SIZE][2:]) is not None
    if len(lines) < _HEADER_LINES:
        return False
    size = _int(lines[1])
    if size is None or not 2 <= size <= 52 or _int(lines[5]) is None:
        return False
    if re.fullmatch(rb"\s*-?\d+(?:\.\d+)?\s*", lines[7]) is None:
        return False
    return _int(lines[11]) is not None or any(line.startswith(b"PM") for line in lines[12:14])


def _int(raw: bytes) -> int | None:
    return int(raw) if re.fullmatch(rb"\s*\d+\s*", raw) else None


def convert(data: bytes, source: str | None) -> Converted:
    lines = Lines(data, source)
    rows = lines.lines
    if len(rows) > 1 and rows[0].text.startswith("GI") and rows[1].text.startswith("GI"):
        return _old_form(lines)
    if len(rows) < _HEADER_LINES:
        last = rows[-1].number if rows else 1
        raise lines.error(f"the file ends at line {last}: a {NAME} header has {_HEADER_LINES} lines (title, size, "
                          "White, Black, server, handicap, -, komi, date, -, result, number of moves): it is "
                          "truncated or not an NGF file", last)
    size = number(rows[1].text)
    if size is None or not 2 <= size <= 52:
        raise lines.error(f"'{rows[1].text.strip()[:40]}' is not a board size: expected a number (line 2 of a "
                          f"{NAME} header)", rows[1])
    sgf = SgfText(size)
    if rows[0].text.strip():
        sgf.put("GN", rows[0].text.strip(), rows[0])
    for row, ident, rank in ((rows[2], "PW", "WR"), (rows[3], "PB", "BR")):
        _player(sgf, row.text, row, ident, rank)
    if rows[4].text.strip():
        sgf.put("PC", rows[4].text.strip(), rows[4])
    handicap = _header_number(lines, rows[5], "the handicap")
    if handicap >= 2:
        _placed(lines, sgf, size, handicap, rows[5])
    _komi(lines, sgf, rows[7], handicap)
    _date(sgf, rows[8])
    _result(lines, sgf, rows[10])
    declared = _header_number(lines, rows[11], "the number of moves")
    moves = _moves(lines, sgf, rows[_HEADER_LINES:])
    if moves < declared:
        raise lines.error(f"the file ends at line {lines.end_line} after {moves} moves, and line 12 says "
                          f"{declared}: it is truncated", lines.end_line)
    return Converted(sgf.text(), NAME, lines.codec, lines.detected, lines.notes, lines=sgf.lines)


def _moves(lines: Lines, sgf: SgfText, rows: list[Line], *, only_moves: bool = True) -> int:
    """The `PM` lines' moves added to `sgf`; how many. With `only_moves` every other line that is not blank is an
    error (the newer form holds nothing but moves after its header)."""
    moves = 0
    for row in rows:
        text = row.text.strip()
        if not text.startswith("PM"):
            if text and only_moves:
                raise lines.error(f"'{text[:40]}' is not a {NAME} move: expected 'PM', two letters of the move "
                                  "number, B or W, a column and a row", row)
            continue
        m = _MOVE.match(text)
        if m is None:
            raise lines.error(f"'{text[:40]}' is not a {NAME} move: expected 'PM', two letters of the move number, "
                              "B or W, a column and a row", row)
        column, line = m.group(3), m.group(4)
        if column == "A" and line == "A":
            sgf.move(m.group(2), None, row)
        elif column < "B" or line < "B" or column > "Z" or line > "Z":
            raise lines.error(f"'{text[:40]}': '{column}{line}' is not a point: expected the column and row as "
                              "letters, B the first", row)
        else:
            sgf.move(m.group(2), (ord(column) - ord("B"), ord(line) - ord("B")), row)
        moves += 1
    return moves


def _old_form(lines: Lines) -> Converted:
    """A file of the older form (`GI` header lines), as Cyberoro wrote them: the header's fields where that form
    puts them, the moves, and the comments on moves after them."""
    rows = lines.lines
    header = [r for r in rows[:_HEADER_LINES] if r.text.startswith("GI")]
    if len(header) <= 10 or any(not r.text.startswith("GI") for r in rows[:len(header)]):
        last = header[-1].number if header else 1
        raise lines.error(f"the {NAME} header of the older form ends at line {last}: it has 11 lines starting 'GI' "
                          "(title, White, Black, -, -, date, size, handicap, -, komi, number of moves): it is "
                          "truncated", last)
    field = {i: (r.text[2:].strip(), r) for i, r in enumerate(header)}
    size = number(field[6][0])
    if size is None or not 2 <= size <= 52:
        raise lines.error(f"'{field[6][0][:40]}' is not a board size: expected a number (line 7 of the older "
                          f"{NAME} header)", field[6][1])
    sgf = SgfText(size)
    if field[0][0]:
        sgf.put("GN", field[0][0], field[0][1])
    for (text, row), ident, rank in ((field[1], "PW", "WR"), (field[2], "PB", "BR")):
        _player(sgf, text, row, ident, rank)
    handicap = _header_number(lines, field[7][1], "the handicap", field[7][0])
    if handicap >= 2:
        _placed(lines, sgf, size, handicap, field[7][1])
    _komi(lines, sgf, field[9][1], handicap, field[9][0])
    _date(sgf, field[5][1], field[5][0])
    declared = _header_number(lines, field[10][1], "the number of moves", field[10][0])
    body = rows[len(header):]
    moves = _moves(lines, sgf, body, only_moves=False)
    if moves < declared:
        raise lines.error(f"the file ends at line {lines.end_line} after {moves} moves, and line 11 says "
                          f"{declared}: it is truncated", lines.end_line)
    for row in body:
        m = _OLD_COMMENT.match(row.text.strip())
        if m is not None and m.group(4) and 0 < int(m.group(3)) <= len(sgf.main):
            sgf.main[int(m.group(3)) - 1].props.append(("C", [m.group(4)]))
    lines.warn("ngf-old-form", f"the older {NAME} form (header lines starting 'GI'): read as title, White, Black, "
               "-, -, date, size, handicap, -, komi, number of moves, the order of the newer form's fields (White "
               "before Black)", header[0])
    return Converted(sgf.text(), NAME, lines.codec, lines.detected, lines.notes, lines=sgf.lines)


def _player(sgf: SgfText, text: str, row: Line, ident: str, rank: str) -> None:
    words = text.split()
    if len(words) > 1:
        sgf.put(ident, " ".join(words[:-1]), row)
        sgf.put(rank, rank_text(words[-1]), row)
    elif words:
        sgf.put(ident, words[0], row)


def _placed(lines: Lines, sgf: SgfText, size: int, handicap: int, row: Line) -> None:
    points = korean_handicap(size, handicap)
    sgf.put("HA", str(handicap), row)
    sgf.put("AB", [format_point(p) for p in points], row)
    lines.warn("handicap-placed", f"handicap {handicap} (line {row.number}): the file does not list its stones; "
               f"placed where WBaduk places them ({show_points(points)})", row,
               Repair("AB", row.text.strip(), show_points(points)))


def _header_number(lines: Lines, row: Line, what: str, text: str | None = None) -> int:
    text = row.text if text is None else text
    value = number(text)
    if value is None or value < 0:
        raise lines.error(f"'{text.strip()[:40]}' is not {what}: expected a number (line {row.number} of a "
                          f"{NAME} header)", row)
    return value


def _komi(lines: Lines, sgf: SgfText, row: Line, handicap: int, text: str | None = None) -> None:
    raw = (row.text if text is None else text).strip()
    try:
        komi = float(raw)
    except ValueError:
        raise lines.error(f"'{raw[:40]}' is not a komi: expected a number (line 8 of a {NAME} header)",
                          row) from None
    if handicap == 0 and komi == int(komi):
        komi += 0.5
        lines.warn("komi-half-point", f"komi {raw} read as {komi:g}: WBaduk writes the komi of an even game without "
                   "its half point", row, Repair("KM", raw, f"{komi:g}"))
    sgf.put("KM", f"{komi:g}", row)


def _date(sgf: SgfText, row: Line, text: str | None = None) -> None:
    text = (row.text if text is None else text).strip()
    m = re.match(r"(\d{4})(\d{2})(\d{2})(?!\d)", text) or re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})\b", text)
    if m is not None:
        sgf.put("DT", f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}", row)


def _result(lines: Lines, sgf: SgfText, row: Line) -> None:
    sentence = row.text.strip()
    if not sentence:
        return
    lower = sentence.lower()
    winner = ("W" if "white win" in lower or "black lose" in lower else
              "B" if "black win" in lower or "white lose" in lower else None)
    if winner is None:
        lines.warn("result-not-read", f"the result '{sentence[:60]}' names no winner this reader knows (WBaduk "
                   "writes 'Black wins by ...', 'White loses on time'): no result read", row)
        return
    if "resign" in lower:
        value = f"{winner}+R"
    elif "time" in lower:
        value = f"{winner}+T"
    else:
        scores = re.findall(r"\d+(?:\.\d+)?", sentence)
        value = f"{winner}+{float(scores[-1]):g}" if scores else f"{winner}+"
    sgf.put("RE", value, row)
    lines.warn("result-sentence", f"the result '{sentence[:60]}' read as {value}: WBaduk writes the result as a "
               "sentence", row, Repair("RE", sentence, value))
