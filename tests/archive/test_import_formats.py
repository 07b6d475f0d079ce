"""FMT-13 at `records import`: a folder of SGF files and of the servers' own formats (Tygem `.gib`, WBaduk `.ngf`,
Pandanet `.ugf`/`.ugi`) is imported whole, and the summary counts the files read per format, in its line and in
`--json`, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from boardrecords.archive.store.importer import process_file
from boardrecords.cli.main import app

from ..shared import EXAMPLES

FORMATS = Path(__file__).parent.parent / "records" / "formats"
ONE_OF_EACH = ("gib-utf8.gib", "ngf-euc-kr.ngf", "ugf-utf8.ugf", "ugi-shift-jis.ugi")
SGF = ("capture-and-resignation.rec", "handicap.rec", "territory-walls.rec")


def _folder(tmp_path: Path) -> Path:
    """Three SGF records (`.rec`), one file of each other format (below a subfolder), and one file that is no record
    at all: it is counted as unreadable, in no format."""
    folder = tmp_path / "mixed"
    (folder / "servers").mkdir(parents=True)
    for name in SGF:
        shutil.copy(EXAMPLES / "go" / name, folder / name)
    for name in ONE_OF_EACH:
        shutil.copy(FORMATS / name, folder / "servers" / name)
    (folder / "broken.sgf").write_bytes(b"not a record at all")
    return folder


def run(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_fmt13_import_counts_the_files_of_each_format(db_url: str, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    done = run("import", folder, "--db", db_url, "-q", "--json")
    assert done.exit_code == 1, done.output  # the broken file fails the import; the others are stored
    summary = json.loads(done.stdout)
    # `.ugi` is Pandanet's UGF under another name: counted as UGF.
    assert summary["formats"] == {"sgf": 3, "gib": 1, "ngf": 1, "ugf": 2}
    assert summary["files"] == 8 and summary["records"] == 7 and summary["new"] == 7
    assert summary["verdicts"]["unreadable"] == 1
    for key in ("files", "records", "new", "duplicates", "verdicts", "results", "not_stored", "failed", "errors",
                "duplicate_sources", "near_duplicate_sources", "skipped"):
        assert key in summary  # every key the summary had before the formats

    again = run("import", folder, "--db", db_url, "-q")
    assert "read 7 files: 3 SGF, 1 GIB, 1 NGF, 2 UGF\n" in again.stdout, again.output


def test_fmt13_the_format_is_the_content_not_the_name(tmp_path: Path) -> None:
    """A GIB file renamed `.txt` is still a GIB file (records/formats `recognise`); an SGF file named `.gib`, SGF."""
    renamed = tmp_path / "game.txt"
    shutil.copy(FORMATS / "gib-gb2312.gib", renamed)
    assert process_file(str(renamed)).format == "gib"
    named = tmp_path / "game.gib"
    shutil.copy(EXAMPLES / "go" / "handicap.rec", named)
    assert process_file(str(named)).format == "sgf"
    broken = tmp_path / "broken.sgf"
    broken.write_bytes(b"not a record at all")
    assert process_file(str(broken)).format is None


def test_fmt13_the_summary_line_names_only_the_formats_read(tmp_path: Path) -> None:
    folder = tmp_path / "only-sgf"
    folder.mkdir()
    shutil.copy(EXAMPLES / "go" / "handicap.rec", folder / "one.rec")
    done = run("import", folder, "--db", tmp_path / "a.db", "-q")
    assert done.exit_code == 0, done.output
    assert "read 1 file: 1 SGF\n" in done.stdout
    assert json.loads(run("import", folder, "--db", tmp_path / "a.db", "-q", "--json").stdout)["formats"] == \
        {"sgf": 1, "gib": 0, "ngf": 0, "ugf": 0}


def test_fmt13_verify_of_a_folder_counts_the_files_of_each_format(tmp_path: Path) -> None:
    """`records verify` on a folder says the same as the import of it, above its totals line."""
    done = run("verify", "--no-color", _folder(tmp_path))
    assert done.exit_code == 1  # the unreadable file
    lines = done.stdout.splitlines()
    at = lines.index("read 7 files: 3 SGF, 1 GIB, 1 NGF, 2 UGF")
    assert lines[at + 1].startswith("7 records: 7 pass")
    one = run("verify", "--no-color", FORMATS / "gib-utf8.gib", EXAMPLES / "go" / "handicap.rec")
    assert "read 2 files: 1 SGF, 1 GIB" in one.stdout, one.output


def test_fmt13_an_export_keeps_the_format_of_the_original_bytes(db_url: str, tmp_path: Path) -> None:
    """The original bytes of a GIB record are exported as `ID.gib`, not as a `.rec` that no reader of SGF takes;
    `--canonical` writes SGF (`ID.rec`)."""
    folder = _folder(tmp_path)
    run("import", folder, "--db", db_url, "-q")
    found = json.loads(run("search", "--db", db_url, "--json", "--limit", "0").stdout)
    gib = next(g for g in found if g["source_file"].endswith(".gib"))
    out = tmp_path / "out"
    assert run("export", gib["id"], "--db", db_url, "-o", f"{out}/").exit_code == 0
    assert (out / f"{gib['id']}.gib").read_bytes() == (FORMATS / "gib-utf8.gib").read_bytes()
    assert run("export", gib["id"], "--db", db_url, "-o", f"{tmp_path / 'canon'}/", "--canonical").exit_code == 0
    assert (tmp_path / "canon" / f"{gib['id']}.rec").read_bytes().startswith(b"(;")

