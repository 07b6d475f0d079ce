"""Known dialects of SGF (FMT-14) that depend on where a file comes from: the Fox Go server's komi and handicap.

Fox writes a Go komi in its own units, a hundred times the komi: in hundredths of a point (`KM[650]` is 6.5), and
under Chinese rules in hundredths of a stone, a stone being two points (`KM[375]` is 7.5). It writes `HA[1]` for a
game without komi in which Black has no stone placed: no handicap. A file is Fox's when its `AP` names `foxwq`, or,
where that mark was lost (files passed on through Fox's clients and other programs), when its root holds the byo-yomi
properties only Fox writes, `TC` and `TT` (the number of periods and their length). KaTrain's and the Sabaki
parser's readings of Fox's files are the public references.

Only then is a value read in Fox's way, each time with a warning (FMT-14) that names the property, the value in
the file and the value read. A file that does not show it is Fox's keeps the values as written, with a warning that
says what looks odd. The root properties keep the file's text; only the typed values (`Record.komi`,
`Record.handicap`) are read anew. The other dialects of FMT-14 depend on no origin: a date with a time of day and
an empty `KM[]` (records/properties.py), line breaks written as the four characters `\\r\\n` (records/grammar.py).
"""

from __future__ import annotations

from .games import Game
from .model import Node, Problem, Record, Repair

_FOX_APP = "foxwq"
_FOX_PROPERTIES = ("TC", "TT")
_CHINESE = frozenset({"chinese", "cn", "china"})


def fox_mark(root: Node) -> str | None:
    """What shows a record is the Fox server's (`AP[foxwq]`, or its own root properties), or None."""
    for value in root.get_all("AP"):
        if value.split(":", 1)[0].strip().lower() == _FOX_APP:
            return f"AP[{value}]"
    if all(root.has(ident) for ident in _FOX_PROPERTIES):
        return "its root properties TC and TT, which only the Fox server writes"
    return None


def read_dialects(record: Record) -> None:
    """FMT-14: the record's komi and handicap read as the server that wrote them means them, each reading a warning
    on the record's diagnostics; a value that looks odd but whose origin is not certain is only warned about."""
    if record.game is not Game.GO:
        return
    mark = fox_mark(record.root)
    if mark is not None:
        _fox_komi(record, mark)
    _handicap_one(record, mark)


def _fox_komi(record: Record, mark: str) -> None:
    komi = record.komi
    prop = record.root.properties.get("KM")
    # Fox's komi are whole multiples of 25 hundredths (`KM[50]` is 0.5); a komi with a fraction is in points.
    if komi is None or prop is None or komi == 0 or komi % 25 != 0:
        return
    chinese = (record.rules or "").strip().lower() in _CHINESE
    value = komi / 50 if chinese else komi / 100
    unit = "hundredths of a stone under Chinese rules (a stone is two points)" if chinese else "hundredths of a point"
    # The reader's warning that the komi looks odd (properties.in_hundredths) gives way to the reading.
    record.diagnostics[:] = [d for d in record.diagnostics if d.code != "komi-odd"]
    record.komi = value
    record.diagnostics.append(Problem(
        "fox-komi", f"KM[{prop.value}] read as {value:g}: the Fox server writes komi in {unit}; the file is Fox's "
        f"({mark})", rule="FMT-14", pos=prop.pos, repair=Repair("KM", prop.value, f"{value:g}")))


def _handicap_one(record: Record, mark: str | None) -> None:
    prop = record.root.properties.get("HA")
    if record.handicap != 1 or prop is None or record.setup is None or record.setup.black:
        return
    if mark is not None:
        record.handicap = 0
        record.diagnostics.append(Problem(
            "fox-handicap", f"HA[{prop.value}] read as 0, no handicap: Black has no stone placed, and the Fox server "
            f"writes HA[1] for a game without komi; the file is Fox's ({mark})", rule="FMT-14", pos=prop.pos,
            repair=Repair("HA", prop.value, "0")))
        return
    record.diagnostics.append(Problem(
        "handicap-odd", f"HA[{prop.value}] names a handicap, but Black has no stone placed; nothing in the file shows "
        "it comes from the Fox server (which writes HA[1] for a game without komi): read as written, 1",
        rule="FMT-14", pos=prop.pos))
