"""FMT-14: known dialects of SGF, repaired when their origin is certain, each repair a warning that names the property,
the value in the file and the value read; where the origin is not certain, nothing is changed and a warning says
what looks odd. The records here are written for the tests, in the form the servers write."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from sqlmodel import Session

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.core.models import GameRow
from boardrecords.records.dialects import fox_mark
from boardrecords.records.model import FormatError, Record, Severity
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import write

from ..shared import import_games, run

MOVES = ";B[pd];W[dp];B[pp];W[dd]"


def one(data: bytes, **kw) -> Record:
    (record,) = read_bytes(data, "test.sgf", **kw)
    return record


def fmt_14(record: Record) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in record.diagnostics if d.rule == "FMT-14"]


def only(record: Record, code: str) -> str:
    """The message of the record's one FMT-14 warning, which must have `code`."""
    (found,) = fmt_14(record)
    assert found[0] == code, found
    (diag,) = [d for d in record.diagnostics if d.code == code]
    assert diag.severity is Severity.WARNING and diag.pos is not None
    return found[1]


# -- the Fox Go server: komi and handicap ----------------------------------------------------------------------------


@pytest.mark.parametrize(("root", "komi"), [
    ("AP[foxwq]RU[Chinese]KM[375]HA[0]", 7.5),  # hundredths of a stone under Chinese rules: 3.75 stones
    ("AP[foxwq]RU[cn]KM[325]", 6.5),
    ("AP[foxwq]RU[Japanese]KM[650]HA[0]", 6.5),  # hundredths of a point
    ("AP[foxwq]KM[750]", 7.5),  # no rules named: points
    ("AP[foxwq]RU[Japanese]KM[50]HA[2]", 0.5),  # a handicap game's half point
    ("AP[GNU Go:3.8]AP[foxwq]RU[Chinese]KM[375]", 7.5),  # the mark among other AP values
    ("TM[600]TC[3]TT[30]RU[Japanese]KM[750]", 7.5),  # the AP mark lost: Fox's own byo-yomi properties
    ("AP[YuanYu]TM[1800]TC[5]TT[60]RU[Chinese]KM[375]", 7.5),
])
def test_fmt_14_fox_komi_is_read_in_its_units_when_the_file_is_foxs(root, komi):
    data = f"(;GM[1]FF[4]SZ[19]{root}PB[Ann]PW[Bob]RE[B+R]{MOVES})".encode()
    r = one(data)
    assert r.komi == komi
    raw = r.root.get("KM")
    message = only(r, "fox-komi") if "AP[GNU" not in root else dict(fmt_14(r))["fox-komi"]
    assert f"KM[{raw}] read as {komi:g}" in message and "Fox" in message  # the property, the file's value, the reading
    assert r.raw == data  # the original bytes are kept, and the root property keeps the file's text
    again = one(write(r))
    assert again.komi == komi and again.root.get("KM") == raw  # written back as read: the same reading again


def test_fmt_14_fox_marks_are_its_own():
    assert fox_mark(one(b"(;GM[1]AP[foxwq:1.0])").root) == "AP[foxwq:1.0]"
    assert "TC and TT" in (fox_mark(one(b"(;GM[1]TC[3]TT[30])").root) or "")
    for other in (b"(;GM[1]AP[CGoban:3]TM[600])", b"(;GM[1]TC[3])", b"(;GM[1]AP[YuanYu])", b"(;GM[1]AP[foxwqx])"):
        assert fox_mark(one(other).root) is None, other


def test_fmt_14_a_fox_komi_already_in_points_is_read_as_written():
    for km, komi in (("7.5", 7.5), ("0", 0.0), ("6.5", 6.5)):
        r = one(f"(;GM[1]SZ[19]AP[foxwq]RU[Chinese]KM[{km}]HA[0]{MOVES})".encode())
        assert r.komi == komi and fmt_14(r) == [], km


def test_fmt_14_fox_ha_1_without_a_stone_is_no_handicap():
    r = one(f"(;GM[1]SZ[19]AP[foxwq]RU[Japanese]KM[0]HA[1]{MOVES})".encode())
    assert (r.handicap, r.komi) == (0, 0.0)
    message = only(r, "fox-handicap")
    assert "HA[1] read as 0" in message and "no stone" in message
    assert r.root.get("HA") == "1"


def test_fmt_14_a_fox_handicap_with_its_stones_stands():
    # Fox puts the handicap stones in the second node; HA[1] with a stone, or HA[3] with three, is what it says.
    three = one(b"(;GM[1]SZ[19]TM[1200]TC[3]TT[30]KM[50]HA[3]RU[Japanese];AB[pd][dp][dd];W[pp])")
    assert (three.handicap, three.komi) == (3, 0.5) and [code for code, _ in fmt_14(three)] == ["fox-komi"]
    stone = one(b"(;GM[1]SZ[19]AP[foxwq]KM[0]HA[1];AB[pd];W[pp])")
    assert stone.handicap == 1 and fmt_14(stone) == []


def test_fmt_14_where_the_origin_is_not_certain_nothing_is_changed_and_a_warning_says_what_looks_odd():
    # The same values without a mark of Fox: read as written.
    komi = one(f"(;GM[1]SZ[19]AP[CGoban:3]RU[Chinese]KM[375]{MOVES})".encode())
    assert komi.komi == 375.0 and komi.root.get("KM") == "375"
    message = only(komi, "komi-odd")
    assert "KM[375]" in message and "Fox" in message and "read as written" in message
    handicap = one(f"(;GM[1]SZ[19]KM[0]HA[1]{MOVES})".encode())
    assert handicap.handicap == 1
    assert "HA[1]" in only(handicap, "handicap-odd") and "read as written" in only(handicap, "handicap-odd")
    # Nothing odd, nothing said: a komi of 110, a komi in Conversion Go, a HA[1] that has its stone.
    for plain in (b"(;GM[1]KM[110])", b"(;GM[ConversionGo]SZ[6]AP[foxwq]KM[750])", b"(;GM[1]HA[1]AB[dd])"):
        assert fmt_14(one(plain)) == [], plain


def test_fmt_14_repairs_are_warnings_that_strict_reading_refuses():
    with pytest.raises(FormatError) as err:
        one(b"(;GM[1]AP[foxwq]KM[375]RU[Chinese])", strict=True)
    assert err.value.rule == "FMT-14" and "KM[375] read as 7.5" in err.value.message


# -- a date with a time of day ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "day", "time"), [
    ("2016-12-30 12:35:24", dt.date(2016, 12, 30), "12:35:24"),  # the Fox and Tygem servers' form
    ("2016-12-30  9:05", dt.date(2016, 12, 30), "9:05"),
    ("2018-03-01T08:00:00.5+08:00", dt.date(2018, 3, 1), "08:00:00.5+08:00"),
    ("2019-07-04 23:59:59 UTC", dt.date(2019, 7, 4), "23:59:59 UTC"),
])
def test_fmt_14_a_date_with_a_time_of_day_is_read_as_its_day_the_time_kept(raw, day, time):
    r = one(f"(;GM[1]SZ[19]DT[{raw}]{MOVES})".encode())
    assert (r.date.first, r.date.last, r.date.dates, r.date.time, r.date.raw) == (day, day, (day.isoformat(),), time,
                                                                                  raw)
    message = only(r, "date-time")
    assert f"DT[{raw}] read as the day {day.isoformat()}" in message and time in message


@pytest.mark.parametrize("raw", ["2016-12-30 25:00", "2016-02-30 12:00", "2016-12-30 12:35 or so",
                                 "2016.12.30 12:35"])
def test_fmt_14_a_date_and_time_that_does_not_read_stays_text(raw):
    r = one(f"(;GM[1]DT[{raw}])".encode())
    assert r.date.first is None and r.date.raw == raw
    assert [d.code for d in r.diagnostics] == ["date-not-iso"]


# -- an empty KM[] ---------------------------------------------------------------------------------------------------


def test_fmt_14_an_empty_komi_is_no_komi_with_a_warning():
    r = one(f"(;GM[1]SZ[19]KM[]{MOVES})".encode())
    assert r.komi is None and r.root.get("KM") == ""
    assert "KM[] is empty: read as no komi" in only(r, "komi-empty")


# -- line breaks written as the four characters \r\n -----------------------------------------------------------------


def test_fmt_14_line_breaks_written_as_backslash_r_backslash_n_are_read_as_line_breaks():
    data = b"(;GM[1]SZ[19]GC[Round 1\\r\\nBoard 3]PB[Ann]PW[Bob];B[pd]C[good move\\r\\nthanks\\r\\n];W[dp])"
    r = one(data)
    assert r.root.get("GC") == "Round 1\nBoard 3"
    assert r.main_line()[0].comment == "good move\nthanks\n"
    found = fmt_14(r)
    assert [code for code, _ in found] == ["text-line-break", "text-line-break"]
    assert found[0][1].startswith("GC: ") and "\\r\\n" in found[0][1] and "read as a line break" in found[0][1]
    assert "2 times" in found[1][1] and found[1][1].startswith("C: ")
    assert r.raw == data
    again = one(write(r))  # the canonical form writes real line breaks, read back the same
    assert again.main_line()[0].comment == "good move\nthanks\n" and fmt_14(again) == []


def test_fmt_14_backslash_r_n_that_may_be_text_is_kept_with_a_warning():
    # The file escapes its backslashes: the value itself holds the four characters. Nothing shows a line break.
    r = one(b"(;GM[1]C[type \\\\r\\\\n for a line break])")
    assert r.root.get("C") == "type \\r\\n for a line break"
    (code, message), = fmt_14(r)
    assert code == "text-backslash-rn" and message.startswith("C holds") and "kept as written" in message
    # An escaped backslash before `r` is no written line break; other escapes read as SGF says.
    plain = one(b"(;GM[1]C[a \\\\\\] b \\: c])")
    assert plain.root.get("C") == "a \\] b : c" and fmt_14(plain) == []


# -- what the archive and the verifier see ---------------------------------------------------------------------------

FOX = ("(;GM[1]FF[4]CA[UTF-8]SZ[19]AP[foxwq]DT[2016-12-30 12:35:24]PB[Ann]PW[Bob]RU[Chinese]KM[375]HA[0]"
       "TM[600]TC[3]TT[30]C[gg\\r\\n]RE[W+R];B[pd];W[dp];B[resign])")


def test_fmt_14_the_archive_sees_the_day_keeps_the_time_and_the_files_bytes(tmp_path, db_url):
    folder = import_games(tmp_path, db_url, {"fox.sgf": FOX, "old.sgf": "(;GM[1]SZ[9]DT[2015-06-01]PB[Ann]PW[Cy]"
                                                                        "RE[B+R];B[aa];W[resign])"})
    found = json.loads(run("search", "--db", db_url, "--from", "2016", "--json").stdout)
    assert [Path(g["source_file"]).name for g in found] == ["fox.sgf"]
    (game,) = found
    assert (game["date_first"], game["date_last"], game["date"]) == ("2016-12-30", "2016-12-30", "2016-12-30 12:35:24")
    engine = make_engine(db_url)
    try:
        with Session(engine) as session:
            row = session.get(GameRow, game["id"])
            assert row is not None and (row.komi, row.handicap) == (7.5, 0)
            assert {p.code for p in row.problems} >= {"fox-komi", "date-time", "text-line-break"}
    finally:
        engine.dispose()
    players = {p["player"]: p for p in json.loads(run("players", "--db", db_url, "--json").stdout)}
    assert (players["Ann"]["first"], players["Ann"]["last"]) == ("2015-06-01", "2016-12-30")
    out = tmp_path / "out"
    assert run("export", str(game["id"]), "--db", db_url, "-o", f"{out}/").exit_code == 0
    (written,) = out.iterdir()
    assert written.read_bytes() == (folder / "fox.sgf").read_bytes()  # the original bytes
