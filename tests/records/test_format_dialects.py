"""Records as other tools write them (tests/records/dialects/): UTF-16 of both byte orders (FMT-3), Chinese and Japanese
files without `CA` (FMT-11), the Nihon Ki-in's header without `;` (FMT-3), Sabaki's `PL` in move nodes (ING-8).
Each reads as its authors meant, verifies, is found by its names in the archive, and keeps its own bytes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from boardrecords.records.reader import read_bytes, read_file

from ..shared import DIALECTS, run

EXPECTED = {  # file -> (encoding, Black, White, warnings)
    "utf16-le-bom.sgf": ("utf-16-le", "李昌镐", "Anna Müller", ["utf-16"]),
    "utf16-be.sgf": ("utf-16-be", "曹薰铉", "Ivan Petrov", ["utf-16"]),
    "gb18030-no-ca.sgf": ("gb18030", "柯洁", "古力", ["charset-fallback"]),
    "shift-jis-no-ca.sgf": ("cp932", "井山裕太", "張栩", ["charset-fallback"]),
    "nihon-kiin.sgf": ("cp932", "一力遼", "芝野虎丸", ["root-without-semicolon", "charset-fallback"]),
    "sabaki-pl.sgf": ("utf-8", "Ann", "Bob", []),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_dialect_reads_as_written(name):
    encoding, black, white, warnings = EXPECTED[name]
    (record,) = read_file(DIALECTS / name)
    assert (record.encoding, record.black, record.white) == (encoding, black, white)
    assert [d.code for d in record.diagnostics] == warnings
    assert all(d.rule in ("FMT-3", "FMT-11") for d in record.diagnostics)
    data = (DIALECTS / name).read_bytes()
    assert record.raw in data and read_bytes(record.raw)[0].black == black  # its own bytes, and they read again
    assert len(record.moves()) == 8


def test_fmt_3_utf16_with_and_without_a_byte_order_mark_names_the_byte_order():
    text = "(;PB[Zoë]GM[1]SZ[9]C[été];B[cc];W[resign])"
    for data, order, mark in ((b"\xff\xfe" + text.encode("utf-16-le"), "LE", "with a"),
                              (b"\xfe\xff" + text.encode("utf-16-be"), "BE", "with a"),
                              (text.encode("utf-16-le"), "LE", "without a"),
                              (text.encode("utf-16-be"), "BE", "without a")):
        (record,) = read_bytes(data, "t.sgf")
        note = record.diagnostics[0]
        assert (note.code, note.rule) == ("utf-16", "FMT-3") and order in note.message and mark in note.message
        assert record.black == "Zoë" and record.root.comment == "été"
        assert record.raw == data.removeprefix(b"\xff\xfe").removeprefix(b"\xfe\xff")  # the file's own bytes
        (again,) = read_bytes(record.raw)  # as the archive reads it back, without the byte-order mark
        assert (again.encoding, again.black) == (record.encoding, "Zoë")


def test_fmt_3_utf16_positions_count_characters_of_the_file():
    data = "(;GM[1]SZ[9]PB[李]\n;B[cc];W[zz])".encode("utf-16-le")
    (record,) = read_bytes(data, "t.sgf")
    from boardrecords.verifier.judging.verdict import verify

    problem = verify(record).first_error
    assert problem is not None and problem.move == 2
    assert (problem.pos.line, problem.pos.column) == (2, 9)  # W[zz]'s value, as in a UTF-8 file


def test_fmt_3_a_first_node_without_its_semicolon_is_the_root_and_the_nihon_kiin_properties_map():
    (record,) = read_file(DIALECTS / "nihon-kiin.sgf")
    assert record.event == "第49期名人戦挑戦者決定リーグ"  # TE, where no EV stands
    assert record.date is not None and record.date.first is not None and record.date.first.isoformat() == "2024-05-09"
    note = record.diagnostics[0]
    assert (note.pos.line, note.pos.column) == (2, 1)
    # Elsewhere RD and TE are not read so: TE is a move's annotation in SGF.
    (plain,) = read_bytes(b"(;GM[1]TE[x]RD[2024-05-09];B[aa])")
    assert plain.event is None and plain.date is None


def test_fmt_11_the_warning_names_the_charset_used():
    (record,) = read_file(DIALECTS / "gb18030-no-ca.sgf")
    assert "GB18030" in record.diagnostics[0].message
    (japanese,) = read_file(DIALECTS / "shift-jis-no-ca.sgf")
    assert "Shift_JIS" in japanese.diagnostics[0].message


def test_fmt_11_utf8_files_never_reach_the_detector(monkeypatch):
    from boardrecords.records import charset

    def refuse(data: bytes) -> str | None:
        raise AssertionError("the detector ran on a UTF-8 file")

    monkeypatch.setattr(charset, "detect_codec", refuse)
    monkeypatch.setattr("boardrecords.records.reader.detect_codec", refuse)
    for name in ("sabaki-pl.sgf",):
        read_file(DIALECTS / name)
    read_bytes("(;GM[1]PB[李昌镐];B[aa])".encode())


def test_ing_8_sabakis_pl_in_move_nodes_is_ignored_with_a_warning():
    done = run("verify", "--json", DIALECTS / "sabaki-pl.sgf")
    assert done.exit_code == 0, done.output
    verdict = json.loads(done.stdout)
    assert verdict["verdict"] == "pass"
    assert [(p["code"], p["move"], p["rule"]) for p in verdict["problems"]] == [
        ("pl-ignored", 2, "ING-8"), ("pl-ignored", 3, "ING-8")]


def test_the_archive_finds_each_dialect_by_its_names_and_keeps_its_bytes(tmp_path, db_url):
    folder = tmp_path / "downloads"
    shutil.copytree(DIALECTS, folder, ignore=shutil.ignore_patterns("*.md"))
    done = run("import", folder, "--db", db_url, "-q")
    assert done.exit_code == 0, done.output
    for name, (_, black, _, _) in EXPECTED.items():
        found = json.loads(run("search", "--db", db_url, "--player", black, "--json").stdout)
        assert [Path(r["source_file"]).name for r in found] == [name]
        out = tmp_path / "out"
        exported = run("export", str(found[0]["id"]), "--db", db_url, "-o", f"{out}/")
        assert exported.exit_code == 0, exported.output
        (written,) = out.iterdir()
        assert written.read_bytes() in (folder / name).read_bytes()  # the record's own bytes, as the file has them
        shutil.rmtree(out)
    nihon = json.loads(run("search", "--db", db_url, "--event", "第49期名人戦挑戦者決定リーグ", "--json").stdout)
    assert [Path(r["source_file"]).name for r in nihon] == ["nihon-kiin.sgf"]
