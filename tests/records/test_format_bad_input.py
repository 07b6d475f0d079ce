"""Bad input in the servers' formats (FMT-13): a truncated GIB, an NGF whose move lines are garbage, a UGF with a
move off the board, and a file that is none of the formats, each a clear message naming the file and the line, exit
status 1 and no traceback, from `verify`, `import` (which stores the other files) and `convert` (which converts
them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ..shared import EXAMPLES, run

FORMATS = Path(__file__).resolve().parent / "formats"


def _truncated_gib() -> bytes:
    return (FORMATS / "gib-utf8.gib").read_bytes().split(b"\\GE")[0]


def _garbage_ngf() -> bytes:
    head = (FORMATS / "ngf-euc-kr.ngf").read_bytes().splitlines()[:12]
    return b"\n".join([*head, b"@@##!!", b"PM??", b"xyzzy"]) + b"\n"


def _off_board_ugf() -> bytes:
    return (FORMATS / "ugf-utf8.ugf").read_bytes().replace(b"\nPP,", b"\nZZ,", 1)


BAD = {  # name -> (bytes, the line the message names, words it says)
    "truncated.gib": (_truncated_gib, None, "truncated"),
    "garbage.ngf": (_garbage_ngf, 13, "is not a WBaduk NGF move"),
    "off-board.ugf": (_off_board_ugf, None, "is not a point of the 19x19 board"),
    "nothing.gib": (lambda: b"hello, this is no game record\nat all\n", 1, "not a Tygem GIB record"),
    "nothing.txt": (lambda: b"hello, this is no game record\nat all\n", 1, "no game tree"),
}


@pytest.fixture
def bad_files(tmp_path: Path) -> Path:
    folder = tmp_path / "bad"
    folder.mkdir()
    for name, (make, _, _) in BAD.items():
        (folder / name).write_bytes(make())
    return folder


@pytest.mark.parametrize("name", sorted(BAD))
def test_verify_names_the_file_and_the_line(bad_files, name):
    _, line, words = BAD[name]
    path = bad_files / name
    done = run("verify", "--no-color", path)
    assert done.exit_code == 1
    assert "Traceback" not in done.output
    flat = " ".join(done.output.split())
    assert words in flat
    m = re.search(rf"{re.escape(name)}:(\d+):\d+:", flat)
    assert m is not None, flat
    if line is not None:
        assert int(m.group(1)) == line
    (row,) = [json.loads(x) for x in run("verify", "--json", path).stdout.splitlines() if x.startswith("{")]
    assert row["verdict"] == "unreadable" and row["problems"][0]["line"] == int(m.group(1))


def test_the_line_of_a_truncated_gib_and_of_a_move_off_the_board(bad_files):
    gib = run("verify", "--json", bad_files / "truncated.gib").stdout
    end = len(_truncated_gib().splitlines())
    assert json.loads(gib.splitlines()[0])["problems"][0]["line"] == end  # where the file ends
    ugf = json.loads(run("verify", "--json", bad_files / "off-board.ugf").stdout.splitlines()[0])
    lines = _off_board_ugf().decode().splitlines()
    assert lines[ugf["problems"][0]["line"] - 1].startswith("ZZ,")


def test_import_stores_the_other_files(bad_files, tmp_path):
    good = EXAMPLES / "go" / "handicap.rec"
    (bad_files / "good.rec").write_bytes(good.read_bytes())
    (bad_files / "tygem.gib").write_bytes((FORMATS / "gib-euc-kr.gib").read_bytes())
    db = tmp_path / "a.db"
    done = run("import", bad_files, "--db", db, "-q")
    assert done.exit_code == 1
    assert "Traceback" not in done.output
    stored = json.loads(run("search", "--db", db, "--json").stdout)
    assert sorted(Path(r["source_file"]).name for r in stored) == ["good.rec", "tygem.gib"]
    flat = " ".join(done.output.split())
    for name in BAD:
        if name != "nothing.txt":  # a folder's files are taken by their names: .txt is none of the formats'
            assert f"{name}:" in flat


def test_convert_converts_the_other_files(bad_files, tmp_path):
    (bad_files / "tygem.gib").write_bytes((FORMATS / "gib-euc-kr.gib").read_bytes())
    done = run("convert", bad_files, "-o", tmp_path / "out")
    assert done.exit_code == 1
    assert "Traceback" not in done.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["tygem.sgf"]
    errors = [x for x in done.stderr.splitlines() if x.startswith("error: ")]
    assert len(errors) == len(BAD) - 1  # nothing.txt is not a record file's name: a folder holds no such file
    for line in errors:
        assert re.search(r"\.(gib|ngf|ugf):\d+:\d+: ", line), line
