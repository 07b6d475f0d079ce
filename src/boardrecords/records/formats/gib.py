"""Tygem's `.gib` files (FMT-13).

A file is a header between `\\HS` and `\\HE`, one `\\[KEY=VALUE\\]` a line, then the game between `\\GS` and `\\GE`:
- `GAMEBLACKNAME` / `GAMEWHITENAME`: the player and the rank in brackets (`Lee Sedol (9D)`);
- `GAMEINFOMAIN` (`...,GONGJE:65,...,GRLT:3,ZIPSU:0,...`) and `GAMETAG` (`C2024:06:04,...,W3,Z0,G65,...`): komi in
  tenths of a point (`GONGJE`, `G`), the result as a code (`GRLT`, `W`: 0 Black wins on score, 1 White on score,
  3 and 4 Black and White by resignation, 7 and 8 on time) with the score in tenths (`ZIPSU`, `Z`), the date (`C`);
- `GIBOKIND`: the edition, which names the charset (`Global` UTF-8, `China` GB2312, `Korea` EUC-KR, `Japan`
  Shift_JIS); `GAMENAME`, `GAMEPLACE`, `GAMECOMMENT`: the event, the place, a comment on the game;
- `INI 0 1 H ...`: H handicap stones, not listed: Tygem places them on the star points (common.korean_handicap);
- `STO 0 N C X Y`: move N by C (1 Black, 2 White) on column X, row Y (0-based, from the upper left corner).
Sabaki's reader (src/modules/fileformats/gib.js) is the public reference for these lines.
"""

from __future__ import annotations

import re

from ..model import Repair
from ..points import LETTER_COUNT, format_point
from .common import Converted, Line, Lines, SgfText, korean_handicap, number, rank_text, show_points

NAME = "Tygem GIB"
_HEADER = re.compile(r"^\\\[([A-Z0-9_]+)=(.*?)\\\]\s*$")
_PLAYER = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")
_CHARSETS = {"global": "utf-8", "china": "GB2312", "korea": "EUC-KR", "japan": "Shift_JIS"}
_RESULTS = {3: "B+R", 4: "W+R", 7: "B+T", 8: "W+T"}
_RESULT_WORDS = "0 Black on score, 1 White on score, 3/4 Black/White by resignation, 7/8 on time"
SIZE = 19


def sniff(head: bytes) -> bool:
    """Whether the start of a file shows a GIB header or game section."""
    return re.search(rb"^\\(?:HS|GS)\s*$|^\\\[GAME[A-Z]*=", head, re.M) is not None


def convert(data: bytes, source: str | None) -> Converted:
    probe = re.search(rb"\\\[GIBOKIND=([A-Za-z]+)\\\]", data)
    declared = _CHARSETS.get(probe.group(1).decode("ascii").lower()) if probe else None
    lines = Lines(data, source, declared)
    if not any(line.text.strip() for line in lines.lines):
        raise lines.error(f"the file is empty: expected a {NAME} record (\\HS, the header, \\GS, the moves)", None)
    header: dict[str, tuple[str, Line]] = {}
    sgf = SgfText(SIZE)
    section = None
    seen = False  # a header or a game section opened
    opened: dict[str, Line] = {}
    for line in lines.lines:
        text = line.text.strip()
        if text in ("\\HS", "\\GS"):
            section = text[1]
            opened[section] = line
            seen = True
            continue
        if text in ("\\HE", "\\GE"):
            opened.pop(text[1], None)
            section = None
            continue
        m = _HEADER.match(text)
        if m is not None:
            header.setdefault(m.group(1), (m.group(2), line))
        elif text.startswith("INI"):
            _handicap(lines, sgf, line, text)
        elif text.startswith("STO"):
            _move(lines, sgf, line, text)
        elif section == "G" and re.match(r"[A-Z]{3}\b", text):
            lines.warn("line-not-read", f"'{text[:40]}' is not a move this reader knows (STO): not read", line)
    if not seen:
        raise lines.error(f"no \\HS header and no \\GS game: not a {NAME} record (expected \\HS, the header, \\GS, "
                          "the moves)", 1)
    for mark, line in opened.items():
        end = "\\HE" if mark == "H" else "\\GE"
        raise lines.error(f"the file ends at line {lines.end_line} before {end} closes the "
                          f"{'header' if mark == 'H' else 'game'} opened at line {line.number}: it is truncated "
                          "(moves and the result may be lost)", lines.end_line)
    _header(lines, sgf, header)
    return Converted(sgf.text(), NAME, lines.codec, lines.detected, lines.notes, lines=sgf.lines)


def _numbers(lines: Lines, line: Line, text: str, count: int, shape: str) -> list[int]:
    fields = text.split()[1:]
    values = [number(f) for f in fields[:count]]
    if len(values) < count or any(v is None for v in values):
        raise lines.error(f"'{text[:40]}' is not a {NAME} line: expected '{shape}'", line)
    return [v for v in values if v is not None]


def _handicap(lines: Lines, sgf: SgfText, line: Line, text: str) -> None:
    fields = text.split()
    count = number(fields[3]) if len(fields) > 3 else None
    if count is None:
        raise lines.error(f"'{text[:40]}' is not a {NAME} line: expected 'INI 0 1 <handicap>'", line)
    if count >= 2:
        points = korean_handicap(SIZE, count)
        sgf.put("HA", str(count), line)
        sgf.put("AB", [format_point(p) for p in points], line)
        lines.warn("handicap-placed", f"handicap {count} (INI): the file does not list its stones; placed where "
                   f"Tygem places them ({show_points(points)})", line, Repair("AB", text, show_points(points)))


def _move(lines: Lines, sgf: SgfText, line: Line, text: str) -> None:
    _, _, colour, x, y = _numbers(lines, line, text, 5, "STO 0 <move> <colour 1|2> <column> <row>")
    # A point off the 19x19 board is the verifier's to refuse (with its rule); one no record can write is not a move.
    if colour not in (1, 2) or not (0 <= x < LETTER_COUNT and 0 <= y < LETTER_COUNT):
        raise lines.error(f"'{text[:40]}' is not a {NAME} move: expected colour 1 or 2 and a column and row from 0 "
                          f"to {LETTER_COUNT - 1}", line)
    sgf.move("B" if colour == 1 else "W", (x, y), line)


def _header(lines: Lines, sgf: SgfText, header: dict[str, tuple[str, Line]]) -> None:
    for key, ident, rank in (("GAMEBLACKNAME", "PB", "BR"), ("GAMEWHITENAME", "PW", "WR")):
        if key in header:
            value, line = header[key]
            m = _PLAYER.match(value)
            name, raw_rank = (m.group(1), m.group(2)) if m else (value, "")
            if name.strip():
                sgf.put(ident, name.strip(), line)
            if raw_rank.strip():
                sgf.put(rank, rank_text(raw_rank), line)
    for key, ident in (("GAMENAME", "EV"), ("GAMEPLACE", "PC"), ("GAMECOMMENT", "GC")):
        if key in header and header[key][0].strip():
            sgf.put(ident, header[key][0].strip(), header[key][1])
    fields = _fields(header)
    _date(sgf, header)
    komi = fields.get("GONGJE") or fields.get("G")
    if komi is not None:
        (raw, tenths), line = komi
        sgf.put("KM", _tenths(tenths), line)
        lines.warn("komi-tenths", f"komi {raw} read as {_tenths(tenths)}: Tygem writes komi in tenths of a point",
                   line, Repair("KM", raw, _tenths(tenths)))
    code = fields.get("GRLT") or fields.get("W")
    if code is not None:
        (written, result_code), where = code
        _result(lines, sgf, written, result_code, fields.get("ZIPSU") or fields.get("Z"), where)


def _fields(header: dict[str, tuple[str, Line]]) -> dict[str, tuple[tuple[str, int], Line]]:
    """The numbered fields of GAMEINFOMAIN (`KEY:N`) and GAMETAG (`KN`), GAMEINFOMAIN's first."""
    out: dict[str, tuple[tuple[str, int], Line]] = {}
    for key, pattern in (("GAMEINFOMAIN", r"([A-Z]+):(-?\d+)"), ("GAMETAG", r"([A-Z])(-?\d+)")):
        if key not in header:
            continue
        value, line = header[key]
        for part in value.split(","):
            m = re.fullmatch(pattern, part.strip())
            if m is not None:
                out.setdefault(m.group(1), ((part.strip(), int(m.group(2))), line))
    return out


def _date(sgf: SgfText, header: dict[str, tuple[str, Line]]) -> None:
    if "GAMETAG" in header:
        value, line = header["GAMETAG"]
        m = re.search(r"(?:^|,)C(\d{4}):(\d{1,2}):(\d{1,2})", value)
        if m is not None:
            sgf.put("DT", f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}", line)
            return
    if "GAMEDATE" in header:
        value, line = header["GAMEDATE"]
        m = re.match(r"\s*(\d{4})\s*-\s*(\d{1,2})\s*-\s*(\d{1,2})", value)
        if m is not None:
            sgf.put("DT", f"{m.group(1)}-{int(m.group(2)):02d}-{int(m.group(3)):02d}", line)


def _tenths(value: int) -> str:
    text = f"{value / 10:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _result(lines: Lines, sgf: SgfText, raw: str, code: int, score: tuple[tuple[str, int], Line] | None,
            line: Line) -> None:
    if code in _RESULTS:
        value = _RESULTS[code]
        read = raw
    elif code in (0, 1):
        winner = "B" if code == 0 else "W"
        if score is not None and score[0][1] > 0:
            value = f"{winner}+{_tenths(score[0][1])}"
            read = f"{raw} {score[0][0]}"
        else:
            value = f"{winner}+"
            read = raw
    else:
        lines.warn("result-not-read", f"result code {raw} is none of Tygem's codes this reader knows "
                   f"({_RESULT_WORDS}): no result read", line)
        return
    sgf.put("RE", value, line)
    tail = ", the score in tenths of a point" if read != raw else ""
    lines.warn("result-code", f"result {read} read as {value}: Tygem writes the result as a code "
               f"({_RESULT_WORDS}){tail}", line, Repair("RE", read, value))


__all__ = ["NAME", "convert", "sniff"]
