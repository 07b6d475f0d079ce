"""`records verify` as a user runs it: reports, JSON, exit status, unreadable files, variations, strict reading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app

from ..shared import CONFORMANCE, EXAMPLES

LEGAL_CATION = "(;GM[Cation]SZ[4]PB[Ann]PW[Bo]RE[W+R];B[bb];W[cc];B[resign])"


def run(*args: str):
    return CliRunner().invoke(app, ["verify", *args])


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "good.rec").write_text(LEGAL_CATION)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "occupied.rec").write_text("(;GM[Squer]SZ[4]RE[B+R];B[aa];W[aa])")
    (tmp_path / "sub" / "broken.sgf").write_text("(;GM[1]SZ[9]\n;B[aa];W[bb] ; ]")
    (tmp_path / "notes.txt").write_text("not a record")  # ignored inside folders
    return tmp_path


def test_one_passing_record_exits_0_with_a_report(tmp_path):
    path = tmp_path / "good.rec"
    path.write_text(LEGAL_CATION)
    result = run(str(path))
    assert result.exit_code == 0, result.output
    assert "pass" in result.output and "Bo" in result.output


def test_an_illegal_move_exits_1_and_names_move_point_rule_and_position(tmp_path):
    path = tmp_path / "bad.rec"
    path.write_text("(;GM[Squer]SZ[4]\n;B[aa]\n;W[aa])")
    result = run(str(path))
    assert result.exit_code == 1
    assert "SQU-3" in result.output and "a4 is occupied" in result.output  # aa (GEN-10)
    assert "3:2" in result.output  # line 3, column 2: the W property of the second move


def test_points_in_the_game_s_notation_or_sgf_letters(tmp_path):
    path = tmp_path / "go.rec"
    path.write_text("(;GM[1]SZ[19]\n;B[pd]\n;W[pd])")
    shown = run("--no-color", str(path))
    assert "Q16 is occupied" in shown.output and "pd" not in shown.output.replace(str(path), "")
    assert "Points: Go coordinates" in shown.output  # the board excerpt says which notation it uses
    sgf = run("--no-color", "--sgf-points", str(path))
    assert "pd is occupied" in sgf.output and "Q16" not in sgf.output
    assert "Points: SGF letters" in sgf.output
    # JSON keeps SGF letters in `point`; the message follows the option.
    line = json.loads(run("--json", str(path)).output)
    assert line["problems"][0]["point"] == "pd" and line["problems"][0]["message"] == "Q16 is occupied"
    line = json.loads(run("--json", "--sgf-points", str(path)).output)
    assert line["problems"][0]["point"] == "pd" and line["problems"][0]["message"] == "pd is occupied"


def test_folders_are_searched_and_every_record_gets_a_json_verdict(folder):
    result = run("--json", str(folder))
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    by_name = {Path(obj["file"]).name: obj for obj in lines}
    assert set(by_name) == {"good.rec", "occupied.rec", "broken.sgf"}
    for obj in lines:
        assert {"file", "index", "game", "valid", "winner", "result", "problems"} <= set(obj)
        assert {"colour", "player"} <= set(obj["winner"])
        assert {"declared", "computed", "status", "agrees"} <= set(obj["result"])
        assert obj["verdict"] in ("pass", "invalid", "wrong-result", "unreadable")
        for problem in obj["problems"]:
            assert {"code", "move", "rule", "message", "severity"} <= set(problem)
    good = by_name["good.rec"]
    assert good["valid"] and good["winner"] == {"colour": "W", "player": "Bo"} and good["result"]["agrees"] is True
    occupied = by_name["occupied.rec"]
    assert not occupied["valid"]
    assert [(p["move"], p["rule"]) for p in occupied["problems"] if p["severity"] == "error"] == [(2, "SQU-3")]
    assert occupied["result"]["agrees"] is False
    # A file that opens but does not read still gets a verdict with its line and column, and the run goes on.
    broken = by_name["broken.sgf"]
    assert broken["valid"] is False
    assert (broken["problems"][0]["line"], broken["problems"][0]["column"]) == (2, 16)


def test_a_summary_table_for_many_records(folder):
    result = run(str(folder))
    assert result.exit_code == 1
    assert "good.rec" in result.output and "occupied.rec" in result.output
    assert "2 records: 1 pass, 1 invalid; 1 unreadable file; results: 1 agrees, 1 disagrees" in result.output


def test_a_missing_path_exits_2(tmp_path):
    good = tmp_path / "good.rec"
    good.write_text(LEGAL_CATION)
    result = run(str(good), str(tmp_path / "missing.rec"))
    assert result.exit_code == 2
    assert "missing.rec" in result.output


def test_no_arguments_is_a_usage_error():
    assert run().exit_code == 2


def test_variations_are_checked_only_when_asked(tmp_path):
    path = tmp_path / "var.rec"
    # The main line is legal; the variation plays on an occupied point at its move 2.
    path.write_text("(;GM[Squer]SZ[4];B[aa](;W[bb])(;W[aa]))")
    assert run(str(path)).exit_code == 0
    result = run("--variations", "--json", str(path))
    assert result.exit_code == 1
    problem = json.loads(result.stdout)["problems"][0]
    assert (problem["move"], problem["rule"]) == (2, "SQU-3") and "variation" in problem["message"]


def test_strict_reading_turns_warnings_into_errors(tmp_path):
    path = tmp_path / "lower.sgf"
    path.write_text("(;GM[1]SZ[9]CoPyright[x]RE[B+R];B[aa];W[resign])")
    assert run(str(path)).exit_code == 0
    assert run("--strict", str(path)).exit_code == 1


def test_fmt_14_a_fox_record_passes_with_its_repairs_shown_as_warnings(tmp_path):
    path = tmp_path / "fox.sgf"
    path.write_text("(;GM[1]FF[4]SZ[19]AP[foxwq]RU[Chinese]KM[375]HA[0]DT[2016-12-30 12:35:24]PB[Ann]PW[Bob]"
                    "RE[B+R];B[pd];W[dp];B[pp];W[resign])")
    result = CliRunner().invoke(app, ["verify", str(path)], env={"COLUMNS": "400"})  # one line per message
    assert result.exit_code == 0, result.output
    assert "pass" in result.output and "FMT-14" in result.output and "warning" in result.output
    assert "KM[375] read as 7.5" in result.output and "read as the day 2016-12-30" in result.output
    verdict = json.loads(run("--json", str(path)).output)
    assert verdict["verdict"] == "pass" and verdict["score"] is None
    assert [(p["code"], p["rule"], p["severity"]) for p in verdict["problems"]] == [
        ("date-time", "FMT-14", "warning"), ("fox-komi", "FMT-14", "warning")]


def test_the_bundled_examples_verify_as_their_folders_say():
    result = run("--json", str(EXAMPLES))
    for line in result.stdout.splitlines():
        obj = json.loads(line)
        broken = "invalid" in Path(obj["file"]).parts
        if "littlego" in Path(obj["file"]).parts:
            continue  # real files from another app's test set, some broken on purpose
        assert obj["passes"] is not broken, obj["file"]


def test_record_text_is_not_taken_as_markup(tmp_path):
    path = tmp_path / "markup.rec"
    path.write_text("(;GM[Cation]SZ[4]PB[[bold red\\]x[/\\]]PW[Bo];B[bb])")
    result = run(str(path))
    assert "[bold red]x[/]" in result.output


@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")
def test_workers_give_the_same_verdicts_in_the_same_order():
    # Over 100 files: enough for the worker pool (it starts from 100 files on).
    truths = [json.loads(p.read_text()) for p in CONFORMANCE.glob("*/*.truth.json")]
    passing = sum(1 for t in truths if t["valid"] and t["result_status"] != "disagrees")
    alone = run("--json", "-j", "1", str(CONFORMANCE))
    pooled = run("--json", "-j", "2", str(CONFORMANCE))
    assert alone.exit_code == pooled.exit_code == 1
    assert alone.stdout == pooled.stdout and alone.stdout.count("\n") == len(truths) > 100
    summary = run("-j", "2", str(CONFORMANCE))
    assert f"{len(truths)} records: {passing} pass" in summary.output
