"""FMT-13: Tygem's `.gib`, WBaduk's `.ngf` and Pandanet's `.ugf`/`.ugi` files read as records (tests/records/formats/
holds one file per format and charset, all the same game). Each reads to the game the same SGF gives, is recognised by
its content whatever its name, is decoded in the charset it shows (FMT-11), says which values it read by a server's
habit (a warning citing FMT-13), and a broken or truncated one is a FormatError naming the file and the line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.records.files import record_files
from boardrecords.records.formats import recognise
from boardrecords.records.model import FormatError, Record
from boardrecords.records.reader import read_bytes, read_file

from ..shared import run

FORMATS = Path(__file__).resolve().parent / "formats"

# The game every file holds, written as SGF (the names differ per file and are compared on their own).
SAME_GAME = b"(;GM[1]SZ[19]HA[2]KM[0.5]RE[W+R]DT[2024-06-04]BR[5d]WR[9d]AB[dp][pd];W[pp];B[cn];W[nc];B[qn];W[cc];B[jj])"

EXPECTED = {  # file -> (format, encoding, Black, White, warning codes)
    "gib-utf8.gib": ("gib", "utf-8", "Lee Sedol", "Gu Li", ["komi-tenths", "result-code", "handicap-placed"]),
    "gib-euc-kr.gib": ("gib", "cp949", "이세돌", "박정환", ["komi-tenths", "result-code", "handicap-placed"]),
    "gib-gb2312.gib": ("gib", "gb18030", "柯洁", "古力",
                       ["charset-fallback", "komi-tenths", "result-code", "handicap-placed"]),
    "ngf-euc-kr.ngf": ("ngf", "cp949", "이세돌", "박정환", ["charset-fallback", "handicap-placed", "result-sentence"]),
    "ngf-gb2312.ngf": ("ngf", "gb18030", "柯洁", "古力", ["charset-fallback", "handicap-placed", "result-sentence"]),
    "ugf-utf8.ugf": ("ugf", "utf-8", "Lee Sedol", "Gu Li", ["result-code"]),
    # Its [Figure] section (a newspaper's diagram) is not read, with a warning.
    "ugi-shift-jis.ugi": ("ugf", "cp932", "一力遼", "井山裕太", ["result-code", "section-not-read"]),
}


def game_of(record: Record, komi: float | None = None) -> tuple[object, ...]:
    """What FMT-13 asks every format to give: ranks, komi (or `komi` instead), handicap and its stones, date, result,
    moves."""
    assert record.setup is not None and record.date is not None
    return (record.size, record.black_rank, record.white_rank, record.komi if komi is None else komi, record.handicap,
            sorted(record.setup.black), sorted(record.setup.white), record.date.raw, record.result.canonical(),
            [str(m) for m in record.moves()])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fmt_13_each_file_reads_as_the_same_game_written_as_sgf(name):
    kind, encoding, black, white, warnings = EXPECTED[name]
    data = (FORMATS / name).read_bytes()
    assert recognise(data, name) == kind
    (record,) = read_file(FORMATS / name)
    (sgf,) = read_bytes(SAME_GAME)
    komi = 0.0 if kind == "ngf" else 0.5  # NGF writes whole points: 0 in a handicap game, where no half is added
    assert game_of(record) == game_of(sgf, komi)
    assert (record.encoding, record.black, record.white) == (encoding, black, white)
    assert [d.code for d in record.diagnostics] == warnings
    assert all(d.rule == ("FMT-11" if d.code == "charset-fallback" else "FMT-13") for d in record.diagnostics)
    assert record.raw == data  # the archive keeps the file's own bytes
    (again,) = read_bytes(record.raw, "archive #1")  # and reads them back the same, under any name
    assert game_of(again) == game_of(record) and again.black == black
    assert record.komi == komi


def test_fmt_13_the_header_of_each_format_gives_event_place_and_rules():
    (gib,) = read_file(FORMATS / "gib-euc-kr.gib")
    assert (gib.event, gib.place) == ("제5회 응씨배 세계프로바둑선수권대회 결승 제1국", "서울 한국기원")
    assert gib.root.get("GC") == "흑 불계승"
    (ugi,) = read_file(FORMATS / "ugi-shift-jis.ugi")
    assert (ugi.name, ugi.place, ugi.rules) == ("第49期 名人戦", "日本棋院", "Japanese")
    assert (ugi.black_rank, ugi.white_rank) == ("5d", "9d")  # 5段, 9段 in SGF's spelling


def test_fmt_13_warnings_name_the_value_read_and_the_habit_relied_on():
    (gib,) = read_file(FORMATS / "gib-utf8.gib")
    komi, result, stones = gib.diagnostics
    assert "GONGJE:5 read as 0.5" in komi.message and "tenths" in komi.message and komi.pos.line == 8
    assert "GRLT:4 read as W+R" in result.message and "code" in result.message
    assert "dp, pd" in stones.message and "Tygem places them" in stones.message and stones.pos.line == 14
    (ngf,) = read_file(FORMATS / "ngf-euc-kr.ngf")
    sentence = ngf.diagnostics[-1]
    assert "'White wins by resignation!' read as W+R" in sentence.message and sentence.pos.line == 11


def test_fmt_13_ngf_komi_without_its_half_point_and_a_score_in_a_sentence():
    data = (b"\n19\nBob 3K\nAnn 2D\nwww.wbaduk.com\n0\n0\n6\n2008-1-2\n5\nBlack wins by 3.5 points!\n2\n"
            b"PMABBEEEE\nPMACWQQQQ\n")
    (record,) = read_bytes(data)
    assert (record.komi, record.handicap, record.result.canonical()) == (6.5, None, "B+3.5")
    assert (record.black, record.black_rank, record.white, record.white_rank) == ("Ann", "2d", "Bob", "3k")
    assert record.date is not None and record.date.raw == "2008-01-02"
    assert [str(m) for m in record.moves()] == ["B[dd]", "W[pp]"]
    komi = next(d for d in record.diagnostics if d.code == "komi-half-point")
    assert komi.rule == "FMT-13" and "komi 6 read as 6.5" in komi.message and "half point" in komi.message


def test_fmt_13_gib_score_in_tenths_and_nine_dan_professionals():
    data = gib_text([("B", 3, 3), ("W", 15, 15)], result="GRLT:1,ZIPSU:35,GONGJE:65", black="Cho (9DP)")
    (record,) = read_bytes(data)
    assert (record.komi, record.result.canonical(), record.black_rank) == (6.5, "W+3.5", "9p")
    assert any("GRLT:1 ZIPSU:35 read as W+3.5" in d.message for d in record.diagnostics)
    assert record.handicap is None and record.setup is not None and record.setup.empty


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fmt_13_a_renamed_file_still_reads(name, tmp_path):
    renamed = tmp_path / "download.txt"
    shutil.copy(FORMATS / name, renamed)
    (record,) = read_file(renamed)
    assert record.black == EXPECTED[name][2] and len(record.moves()) == 6
    (unnamed,) = read_bytes(renamed.read_bytes())
    assert unnamed.white == EXPECTED[name][3]


def test_fmt_13_sgf_stays_sgf_whatever_its_name():
    (record,) = read_bytes(SAME_GAME, "game.gib")
    assert record.diagnostics == [] and len(record.moves()) == 6
    assert recognise(SAME_GAME, "x.ngf") is None


TRUNCATED = {  # (file, how it is cut) -> (line named, words of the message)
    ("gib-utf8.gib", "no-end"): (19, "truncated"),
    ("gib-utf8.gib", "cut-move"): (19, "STO 0 <move>"),
    ("ngf-euc-kr.ngf", "no-end"): (16, "truncated"),
    ("ngf-euc-kr.ngf", "header"): (7, "header has 12 lines"),
    ("ugf-utf8.ugf", "no-end"): (22, "truncated"),
    ("ugf-utf8.ugf", "header"): (12, "without a [Data] section"),
}


@pytest.mark.parametrize(("name", "cut"), sorted(TRUNCATED))
def test_fmt_13_a_truncated_file_is_a_format_error_naming_file_and_line(name, cut, tmp_path):
    lines = (FORMATS / name).read_bytes().splitlines(keepends=True)
    if cut == "no-end":
        kept = b"".join(lines[:-2])
    elif cut == "cut-move":
        kept = b"".join(lines[:18]) + lines[18][:9]
    else:
        kept = b"".join(lines[:7] if name.endswith(".ngf") else lines[:12])
    path = tmp_path / name
    path.write_bytes(kept)
    with pytest.raises(FormatError) as caught:
        read_file(path)
    line, words = TRUNCATED[(name, cut)]
    error = caught.value
    assert error.source == str(path) and error.pos is not None and error.pos.line == line, error.describe()
    assert words in error.message and error.rule == "FMT-13"
    assert error.describe().startswith(f"{path}:{line}:")


def test_fmt_13_broken_files_are_format_errors_never_tracebacks():
    for data, name, words in ((b"", "empty.gib", "the file is empty"),
                              (b"\n\n", "empty.ngf", "header has 12 lines"),
                              (b"[Header]\nSize=x\n[Data]\n", "bad.ugf", "not a board size"),
                              (b"[Header]\n[Data]\nZZ,B1,1,0\n", "off.ugi", "not a point of the 19x19 board"),
                              (b"\\HS\n\\HE\n\\GS\nSTO 0 1 3 3 3\n\\GE\n", "colour.gib", "colour 1 or 2"),
                              # a point beyond any board a record can write (its letters name 0..51)
                              (b"\\HS\n\\HE\n\\GS\nSTO 0 1 1 3 99999999\n\\GE\n", "far.gib", "from 0 to 51")):
        with pytest.raises(FormatError) as caught:
            read_bytes(data, name)
        assert words in caught.value.message and caught.value.describe().startswith(name)


def test_fmt_13_strict_reading_refuses_values_read_by_a_habit():
    with pytest.raises(FormatError) as caught:
        read_file(FORMATS / "gib-utf8.gib", strict=True)
    assert "not allowed when reading strictly" in caught.value.message


def test_fmt_13_an_illegal_move_is_placed_on_its_line_of_the_file():
    from boardrecords.verifier.judging.verdict import verify

    data = gib_text([("B", 3, 3), ("W", 3, 3)])
    problem = verify(read_bytes(data, "t.gib")[0]).first_error
    assert problem is not None and problem.move == 2 and problem.pos is not None
    assert data.splitlines()[problem.pos.line - 1] == b"STO 0 2 2 3 3"


def test_fmt_13_folders_give_the_other_formats_in_any_case(tmp_path):
    for name in ("a.gib", "b.NGF", "c.Ugf", "d.ugi", "e.sgf", "f.txt"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p, _ in record_files([tmp_path])] == ["a.gib", "b.NGF", "c.Ugf", "d.ugi", "e.sgf"]


def test_fmt_13_records_verify_passes_a_legal_gib_game():
    done = run("verify", "--json", FORMATS / "gib-euc-kr.gib")
    assert done.exit_code == 0, done.output
    verdict = json.loads(done.stdout)
    assert verdict["verdict"] == "pass"
    assert {p["rule"] for p in verdict["problems"]} == {"FMT-13"}


def test_fmt_13_records_import_stores_one_file_of_each_format(tmp_path, db_url):
    folder = tmp_path / "downloads"
    folder.mkdir()
    for name in ("gib-gb2312.gib", "ngf-euc-kr.ngf", "ugf-utf8.ugf", "ugi-shift-jis.ugi"):
        shutil.copy(FORMATS / name, folder / name)
    done = run("import", folder, "--db", db_url, "-q")
    assert done.exit_code == 0, done.output
    for name in ("gib-gb2312.gib", "ngf-euc-kr.ngf", "ugf-utf8.ugf", "ugi-shift-jis.ugi"):
        black = EXPECTED[name][2]
        found = json.loads(run("search", "--db", db_url, "--player", black, "--json").stdout)
        assert [Path(r["source_file"]).name for r in found] == [name]
        canonical = run("export", str(found[0]["id"]), "--db", db_url, "--canonical")
        assert canonical.exit_code == 0, canonical.output
        (written,) = read_bytes(canonical.stdout_bytes)
        assert game_of(written, 0) == game_of(read_bytes(SAME_GAME)[0], 0) and written.black == black


# -- GIB written by the test itself --------------------------------------------------------------------------------

def gib_text(moves: list[tuple[str, int, int]], *, result: str = "GRLT:3,ZIPSU:0,GONGJE:65",
             black: str = "Ann (1D)", white: str = "Bob (2K)", handicap: int = 0) -> bytes:
    """A Tygem GIB file of `moves` (colour, column, row from the upper left)."""
    lines = ["\\HS", f"\\[GAMEBLACKNAME={black}\\]", f"\\[GAMEWHITENAME={white}\\]",
             f"\\[GAMEINFOMAIN=GBKIND:3,{result},\\]", "\\HE", "\\GS", "2 1 0", f"INI 0 1 {handicap} &4"]
    lines += [f"STO 0 {n} {1 if c == 'B' else 2} {x} {y}" for n, (c, x, y) in enumerate(moves, 1)]
    lines.append("\\GE")
    return "\r\n".join(lines).encode()


points = st.lists(st.tuples(st.integers(0, 18), st.integers(0, 18)), unique=True, max_size=40)


@settings(max_examples=60, deadline=None)
@given(points, st.sampled_from([0, 2, 3, 4, 5, 6, 7, 8, 9]))
def test_fmt_13_any_game_written_as_gib_reads_back_to_its_moves(where, handicap):
    moves = [("W" if (i % 2 == 0) == (handicap >= 2) else "B", x, y) for i, (x, y) in enumerate(where)]
    (record,) = read_bytes(gib_text(moves, handicap=handicap))
    assert [(m.colour.value, m.point) for m in record.moves()] == [(c, (x, y)) for c, x, y in moves]
    assert record.setup is not None and len(record.setup.black) == (handicap if handicap >= 2 else 0)
    assert (record.black, record.black_rank, record.white, record.white_rank) == ("Ann", "1d", "Bob", "2k")
