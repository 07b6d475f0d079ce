"""Every value read in a server's own way (FMT-13, FMT-14, and the lower-case identifiers of FMT-3 such as Pandanet's
`CoPyright`) is a warning that names the property, the value in the file and the value read, and `verify --json`
gives those three as data (`repair`); a warning about a value whose origin is not certain changes nothing and has
none. `search --problem` finds records by a problem's code or rule, in the CLI and the web alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..shared import run

FORMATS = Path(__file__).resolve().parent / "formats"
MOVES = ";B[pd];W[dp];B[pp];W[dd]"
UGF_HANDICAP_AS_MOVES = (
    "[Header]\nSize=19\nHdcp=2,0.50\nWinner=W,C\nPlayerB=Ann,3k,,\nPlayerW=Bob,1d,,\n[Data]\n"
    "DD,B1,1,0\nPP,B1,2,0\nQD,W1,3,0\nDP,B1,4,0\n")


def problems(path: Path) -> list[dict]:
    done = run("verify", "--json", path)
    assert "Traceback" not in done.output
    (line,) = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    return line["problems"]


def repairs(path: Path) -> dict[str, dict | None]:
    return {p["code"]: p.get("repair") for p in problems(path) if p["severity"] == "warning"}


@pytest.mark.parametrize(("text", "code", "repair"), [
    (f"(;GM[1]FF[4]SZ[19]AP[foxwq]RU[Chinese]KM[375]PB[a]PW[b]{MOVES})", "fox-komi",
     {"property": "KM", "found": "375", "read": "7.5"}),
    (f"(;GM[1]FF[4]SZ[19]AP[foxwq]KM[0]HA[1]{MOVES})", "fox-handicap",
     {"property": "HA", "found": "1", "read": "0"}),
    (f"(;GM[1]FF[4]SZ[19]KM[]{MOVES})", "komi-empty", {"property": "KM", "found": "", "read": None}),
    (f"(;GM[1]FF[4]SZ[19]KM[6.5]DT[2016-12-30 12:35:24]{MOVES})", "date-time",
     {"property": "DT", "found": "2016-12-30 12:35:24", "read": "2016-12-30"}),
    (f"(;GM[1]FF[4]SZ[19]KM[6.5]GC[first\\r\\nsecond]{MOVES})", "text-line-break",
     {"property": "GC", "found": "\\r\\n", "read": "\n"}),
    (f"(;GM[1]FF[4]SZ[19]KM[6.5]CoPyright[Pandanet Inc.]{MOVES})", "lc-propident",
     {"property": "CoPyright", "found": "CoPyright", "read": "CP"}),
])
def test_each_fmt_14_repair_is_listed_as_data(tmp_path, text, code, repair):
    path = tmp_path / "game.sgf"
    path.write_text(text)
    found = repairs(path)
    assert found[code] == repair, found
    (problem,) = [p for p in problems(path) if p["code"] == code]
    assert repair["property"] in problem["message"] and problem["line"] is not None


@pytest.mark.parametrize(("text", "code"), [
    (f"(;GM[1]FF[4]SZ[19]KM[750]{MOVES})", "komi-odd"),  # not shown to be Fox's: read as written
    (f"(;GM[1]FF[4]SZ[19]KM[0]HA[1]{MOVES})", "handicap-odd"),
    (f"(;GM[1]FF[4]SZ[19]KM[6.5]GC[a\\\\r\\\\nb]{MOVES})", "text-backslash-rn"),
])
def test_a_warning_about_a_doubtful_value_changes_nothing_and_lists_no_repair(tmp_path, text, code):
    path = tmp_path / "game.sgf"
    path.write_text(text)
    found = repairs(path)
    assert code in found and found[code] is None


@pytest.mark.parametrize(("name", "wanted"), [
    ("gib-utf8.gib", {"komi-tenths": ("KM", "GONGJE:5", "0.5"), "result-code": ("RE", "GRLT:4", "W+R"),
                      "handicap-placed": ("AB", "INI 0 1 2 &4", "dp, pd")}),
    ("ngf-euc-kr.ngf", {"handicap-placed": ("AB", "2", "dp, pd"),
                        "result-sentence": ("RE", "White wins by resignation!", "W+R")}),
    ("sabaki/even.ngf", {"komi-half-point": ("KM", "7", "7.5"), "result-sentence": ("RE", "Black wins by 0.5!",
                                                                                    "B+0.5")}),
    ("ugf-utf8.ugf", {"result-code": ("RE", "Winner=W,C", "W+R")}),
])
def test_each_fmt_13_reading_by_a_servers_habit_is_listed_as_data(name, wanted):
    found = {code: (r["property"], r["found"], r["read"]) for code, r in repairs(FORMATS / name).items() if r}
    assert found == wanted


def test_ugf_handicap_stones_numbered_as_moves(tmp_path):
    path = tmp_path / "game.ugf"
    path.write_text(UGF_HANDICAP_AS_MOVES)
    found = repairs(path)
    assert found["handicap-as-moves"] == {"property": "AB", "found": "DD,B1,1,0, PP,B1,2,0", "read": "dp, pd"}


def test_search_finds_repaired_records_by_code_or_rule(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "fox.sgf").write_text(f"(;GM[1]FF[4]SZ[19]AP[foxwq]RU[Chinese]KM[375]PB[Fox]PW[Kit]RE[B+R]{MOVES})")
    (folder / "plain.sgf").write_text(f"(;GM[1]FF[4]SZ[19]KM[6.5]PB[Ann]PW[Bob]RE[B+R]{MOVES})")
    (folder / "tygem.gib").write_bytes((FORMATS / "gib-utf8.gib").read_bytes())
    db = tmp_path / "a.db"
    assert run("import", folder, "--db", db, "-q").exit_code == 0

    def found(word: str) -> list[str]:
        done = run("search", "--db", db, "--problem", word, "--json")
        return sorted(Path(r["source_file"]).name for r in json.loads(done.stdout)) if done.exit_code == 0 else []

    assert found("fox-komi") == ["fox.sgf"]
    assert found("FMT-14") == found("fmt-14") == ["fox.sgf"]
    assert found("komi-tenths") == found("FMT-13") == ["tygem.gib"]
    assert found("komi-odd") == []
    from fastapi.testclient import TestClient

    from boardrecords.web.app import create_app

    web = TestClient(create_app(str(db)), base_url="http://localhost")
    answer = web.get("/api/search", params={"problem": "FMT-14"})
    assert answer.status_code == 200 and [Path(r["source_file"]).name for r in answer.json()] == ["fox.sgf"]
    assert web.get("/api/search", params={"problem": "no such!"}).status_code == 400
    bad = run("search", "--db", db, "--problem", "no such!")
    assert bad.exit_code == 2 and "--problem" in bad.stderr and "Traceback" not in bad.output


def test_the_problem_filter_is_offered_by_both_faces():
    from boardrecords.cli.filter_options import with_filters  # noqa: F401  (the CLI builds its options from FILTERS)
    from boardrecords.web.params import FILTER_NAMES

    assert "problem" in FILTER_NAMES
    assert "--problem" in run("search", "--help").stdout
