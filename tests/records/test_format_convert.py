"""`records convert`: every format and charset of tests/records/formats/ (and Sabaki's files in sabaki/) written as
SGF that `records verify` reads back to the same verdict, with the same moves, players, komi, handicap and result;
a property that converting generated GIB, NGF and UGF games keeps every move; and what convert does with files it
cannot read, outputs that exist and names that meet."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrecords.records.convert import converted_bytes
from boardrecords.records.reader import read_bytes, read_file
from boardrecords.verifier.judging.verdict import verify

from ..shared import EXAMPLES, run
from .format_writers import WRITERS, Game

FORMATS = Path(__file__).resolve().parent / "formats"
SAMPLES = sorted(p for p in FORMATS.rglob("*") if p.suffix in (".gib", ".ngf", ".ugf", ".ugi"))


def verdicts(path: Path) -> list[dict[str, object]]:
    done = run("verify", "--json", path)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def facts(record) -> tuple[object, ...]:
    return (record.game, record.size, record.black, record.white, record.black_rank, record.white_rank, record.komi,
            record.handicap, sorted(record.setup.black) if record.setup else None,
            record.result.canonical() if record.root.get("RE") else None, record.date.raw if record.date else None,
            [str(m) for m in record.moves()])


def test_every_sample_is_converted():
    assert len(SAMPLES) == 15  # 7 written for the tests, 8 of Sabaki's


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_convert_writes_sgf_that_verifies_as_the_file_does(sample, tmp_path):
    done = run("convert", sample, "-o", tmp_path / "out")
    assert done.exit_code == 0, done.output
    out = tmp_path / "out" / (sample.stem + ".sgf")
    assert out.exists() and out.read_bytes().startswith(b"(;FF[4]CA[UTF-8]GM[1]")
    before, after = verdicts(sample), verdicts(out)
    keep = ("verdict", "winner", "moves", "players", "score")
    assert [{k: v[k] for k in keep} for v in after] == [{k: v[k] for k in keep} for v in before]
    assert [v["result"]["status"] for v in after] == [v["result"]["status"] for v in before]
    (original,) = read_file(sample)
    (written,) = read_file(out)
    assert facts(written) == facts(original)
    assert written.file_format == "sgf" and original.file_format in ("gib", "ngf", "ugf")
    assert f"-> {out}" in done.stderr and "converted 1 of 1 file" in done.stderr


def test_convert_keeps_a_ugi_review_its_variations_and_comments(tmp_path):
    sample = FORMATS / "sabaki" / "review.ugi"
    assert run("convert", sample, "-o", tmp_path).exit_code == 0
    (original,) = read_file(sample)
    (written,) = read_file(tmp_path / "review.sgf")

    def tree(node):
        return (str(node.move), node.get("C"), [tree(c) for c in node.children])

    assert tree(written.root)[1:] == tree(original.root)[1:]
    on = run("verify", "--variations", "--json", tmp_path / "review.sgf")
    assert json.loads(on.stdout.splitlines()[0])["verdict"] == verdicts(sample)[0]["verdict"]


def test_convert_of_sgf_and_of_the_other_games(tmp_path):
    go = EXAMPLES / "go" / "handicap.rec"
    cation = next((EXAMPLES / "cation").glob("*.rec"))
    done = run("convert", go, cation, "-o", tmp_path, "--json")
    assert done.exit_code == 0, done.output
    rows = json.loads(done.stdout)
    assert [(Path(r["output"]).name, r["format"], r["written"]) for r in rows] == \
        [("handicap.sgf", "sgf", True), (cation.stem + ".rec", "sgf", True)]  # Go as .sgf, the others as .rec
    assert verdicts(tmp_path / (cation.stem + ".rec"))[0]["verdict"] == verdicts(cation)[0]["verdict"]


def test_convert_a_folder_keeps_the_paths_below_it(tmp_path):
    src = tmp_path / "downloads"
    (src / "tygem").mkdir(parents=True)
    (src / "wbaduk").mkdir()
    shutil.copy(FORMATS / "gib-utf8.gib", src / "tygem" / "game.gib")
    shutil.copy(FORMATS / "ngf-euc-kr.ngf", src / "wbaduk" / "game.ngf")
    done = run("convert", src, "-o", tmp_path / "out")
    assert done.exit_code == 0, done.output
    assert sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*.sgf")) == \
        ["tygem/game.sgf", "wbaduk/game.sgf"]


def test_convert_reports_unreadable_files_and_converts_the_others(tmp_path):
    broken = tmp_path / "broken.gib"
    broken.write_bytes((FORMATS / "gib-utf8.gib").read_bytes().split(b"\\GE")[0])
    done = run("convert", broken, FORMATS / "ugf-utf8.ugf", "-o", tmp_path / "out")
    assert done.exit_code == 1
    assert "Traceback" not in done.output
    assert f"error: {broken}:" in done.stderr and "truncated" in done.stderr
    assert (tmp_path / "out" / "ugf-utf8.sgf").exists() and not (tmp_path / "out" / "broken.sgf").exists()
    assert "converted 1 of 2 files" in done.stderr
    missing = run("convert", tmp_path / "nothing.gib", "-o", tmp_path / "out")
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_convert_never_overwrites_without_force(tmp_path):
    sample = FORMATS / "gib-utf8.gib"
    out = tmp_path / "gib-utf8.sgf"
    out.write_bytes(b"mine")
    done = run("convert", sample, FORMATS / "ngf-gb2312.ngf", "-o", tmp_path)
    assert done.exit_code == 1 and "exists: not overwritten (use --force to replace it)" in done.stderr
    assert out.read_bytes() == b"mine" and (tmp_path / "ngf-gb2312.sgf").exists()
    forced = run("convert", sample, "-o", tmp_path, "--force")
    assert forced.exit_code == 0 and out.read_bytes().startswith(b"(;FF[4]")


def test_convert_refuses_two_inputs_meeting_in_one_output(tmp_path):
    done = run("convert", FORMATS / "gib-utf8.gib", FORMATS / "sabaki" / "utf8.gib", FORMATS / "ngf-gb2312.ngf",
               "-o", tmp_path, "--json")
    rows = json.loads(done.stdout)
    assert done.exit_code == 0, done.output  # gib-utf8.sgf and utf8.sgf: different names
    assert all(r["written"] for r in rows)
    twice = run("convert", FORMATS / "gib-utf8.gib", FORMATS / "gib-utf8.gib", "-o", tmp_path / "two")
    assert twice.exit_code == 1 and "would be written to" in twice.stderr


def test_convert_refuses_an_output_that_is_a_file_and_standard_input(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    assert run("convert", FORMATS / "gib-utf8.gib", "-o", target).exit_code == 2
    assert run("convert", "-", "-o", tmp_path).exit_code == 2


def test_convert_does_not_write_what_would_verify_otherwise(tmp_path):
    """A truncated SGF file is invalid (FMT-3); the writer would close its tree and make it pass: not written."""
    cut = tmp_path / "cut.sgf"
    cut.write_bytes(b"(;GM[1]SZ[9]KM[7]RE[B+R];B[ee];W[cc]")
    done = run("convert", cut, "-o", tmp_path / "out")
    assert done.exit_code == 1, done.output
    assert "verifies as invalid" in done.stderr and "its SGF as pass" in done.stderr
    assert not (tmp_path / "out" / "cut.sgf").exists()


# -- the property ---------------------------------------------------------------------------------------------

def _games(kind: str) -> st.SearchStrategy[Game]:
    sizes = st.just(19) if kind == "gib" else st.sampled_from([9, 13, 19])

    def moves(size: int) -> st.SearchStrategy[list]:
        point = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
        spot = point if kind == "gib" else st.one_of(point, st.just(None))
        return st.lists(spot, max_size=40).map(
            lambda spots: [("B" if i % 2 == 0 else "W", p) for i, p in enumerate(spots)])

    return sizes.flatmap(lambda size: st.builds(
        Game, st.just(size), moves(size), komi_tenths=st.sampled_from([5, 65, 75]),
        result=st.sampled_from(["B+R", "W+R", "B+T", "W+T"])))


@pytest.mark.parametrize("kind", sorted(WRITERS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_converting_and_reading_back_keeps_every_move(kind, data):
    game = data.draw(_games(kind))
    (record,) = read_bytes(WRITERS[kind](game), f"game.{kind}")
    assert record.file_format == kind
    wanted = [f"{c}[{'' if p is None else chr(97 + p[0]) + chr(97 + p[1])}]" for c, p in game.moves]
    assert [str(m) for m in record.moves()] == wanted
    (again,) = read_bytes(converted_bytes([record]), "game.sgf")
    assert [str(m) for m in again.moves()] == wanted
    assert facts(again) == facts(record)
    first, second = verify(record), verify(again)
    assert (second.verdict, second.status, second.moves_replayed) == (first.verdict, first.status,
                                                                      first.moves_replayed)


def test_convert_loads_neither_the_archive_nor_the_web(tmp_path):
    """convert needs no archive: SQLAlchemy, the archive's modules and the web stay unloaded (quick start-up)."""
    import subprocess
    import sys

    code = ("import sys, json, atexit\n"
            "atexit.register(lambda: sys.__stderr__.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n'))\n"
            "from boardrecords.cli.main import app\n"
            f"sys.argv = ['records', 'convert', {str(FORMATS / 'gib-utf8.gib')!r}, '-o', {str(tmp_path)!r}]\n"
            "app()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    loaded = set(json.loads(line.removeprefix("MODULES ")))
    assert (tmp_path / "gib-utf8.sgf").exists()
    assert not {m for m in loaded if m.split(".")[0] in ("sqlalchemy", "sqlmodel", "fastapi")}
    assert not {m for m in loaded if m.startswith(("boardrecords.archive", "boardrecords.web"))}
