"""What the command line does with hostile or odd input: a text no database stores refused with its option named,
a password in a URL's query masked, `export -o -` on standard output, and `reindex` giving exactly the problems
`verify` gives for the same file (a byte-order mark, text before and between game trees, records after the
first)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from boardrecords.archive.core.db import describe_url
from boardrecords.archive.core.filters import FilterError, Filters
from boardrecords.cli.main import app

runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


# -- texts no database stores ------------------------------------------------------------------------------------

@pytest.mark.parametrize("field", ["text", "player", "event", "round", "result", "opening"])
def test_a_nul_in_a_filter_is_refused_with_its_option_named(field: str) -> None:
    with pytest.raises(FilterError) as caught:
        Filters.parse(**{field: "a\x00b"})
    assert str(caught.value).startswith(f"--{field}: ") and "NUL" in str(caught.value)


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
def test_every_text_a_database_stores_is_kept(text: str) -> None:
    if "\x00" not in text:
        assert Filters.parse(text=text).text == text


def test_undecodable_bytes_of_the_command_line_are_one_line_not_a_database_error(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    (tmp_path / "g.sgf").write_bytes(b"(;GM[1]SZ[9]PB[a]PW[b];B[ee])")
    assert run("import", "-q", "--db", db, tmp_path / "g.sgf").exit_code == 0
    done = run("search", "--db", db, "--text", "a\udcffb")  # a byte that is not UTF-8, as Python reads argv
    assert done.exit_code == 2
    assert "--text" in done.output and "U+DCFF" in done.output
    assert "Traceback" not in done.output


# -- passwords in URLs -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql+psycopg://u@h/db?password=secret", "postgresql+psycopg://u@h/db?password=***"),
    ("postgresql+psycopg://u:pw@h/db?sslmode=disable&PassWord=secret",
     "postgresql+psycopg://u:***@h/db?sslmode=disable&PassWord=***"),
    ("postgresql+psycopg://h/db?user=u&sslpassword=x&password=y", "postgresql+psycopg://h/db?user=u&sslpassword=***&password=***"),
    ("postgresql+psycopg://u:p@h/db?application_name=a@b", "postgresql+psycopg://u:***@h/db?application_name=a@b"),
])
def test_a_password_in_a_urls_query_is_masked(url: str, shown: str) -> None:
    assert describe_url(url) == shown


def test_the_error_line_does_not_echo_a_password_in_the_query() -> None:
    done = run("search", "--db", "postgresql+psycopg://records@127.0.0.1:1/x?password=hunter2&connect_timeout=2")
    assert done.exit_code == 2
    assert "hunter2" not in done.output and "password=***" in done.output


# -- export -o - -------------------------------------------------------------------------------------------------

def test_export_to_dash_is_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = b"(;GM[1]SZ[9]PB[a]PW[b];B[ee])"
    (tmp_path / "g.sgf").write_bytes(record)
    db = tmp_path / "a.db"
    assert run("import", "-q", "--db", db, tmp_path / "g.sgf").exit_code == 0
    monkeypatch.chdir(tmp_path)
    done = run("export", "1", "--db", db, "-o", "-")
    assert done.exit_code == 0
    assert done.stdout_bytes.strip() == record
    assert not (tmp_path / "-").exists()
    assert run("export", "1", "--db", db, "-o", "./-").exit_code == 0  # a file named `-`, asked for so
    assert (tmp_path / "-").read_bytes().strip() == record


# -- reindex -----------------------------------------------------------------------------------------------------

FILES = {
    # A byte-order mark and text before the game tree, and a move that cannot be read on line 5.
    "bom.sgf": b"\xef\xbb\xbfSome text first\nmore of it\n(;GM[1]FF[4]SZ[9]PB[a]PW[b]RE[B+R]\n;B[ee]C[x]\n"
               b";W[zz])\n",
    # Three records: text between them, each with a problem on a line of its own and one on the tree's first line.
    "multi.sgf": b"(;GM[1]FF[4]SZ[9]PB[c]PW[d]\n;B[ee];W[zz]) text between\n  (;GM[1]FF[4]SZ[9]PB[e]PW[f];B[zz]\n"
                 b";W[cc])\n\n(;GM[1]FF[4]SZ[9]PB[g]PW[h]\n\n;B[ee];W[ee])",
}


def _problems(items: list[dict]) -> list[tuple]:
    return [(p["code"], p.get("line"), p.get("column"), p.get("message"), p.get("move")) for p in items]


FORMATS = Path(__file__).parent.parent / "records" / "formats"
OTHER_FORMATS = ("gib-utf8.gib", "ngf-euc-kr.ngf", "ugf-utf8.ugf")  # FMT-13: read through the SGF they convert to


def test_reindex_gives_the_problems_verify_gives_for_the_same_file(tmp_path: Path) -> None:
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    for name in OTHER_FORMATS:
        (tmp_path / name).write_bytes((FORMATS / name).read_bytes())
    paths = [tmp_path / name for name in (*FILES, *OTHER_FORMATS)]
    verified = [json.loads(line) for line in run("verify", "--json", *paths).stdout.splitlines() if line.strip()]
    assert len(verified) == 4 + len(OTHER_FORMATS)
    assert {"bom", "junk-before"} <= {p["code"] for p in verified[0]["problems"]}
    db = tmp_path / "a.db"
    run("import", "-q", "--db", db, *paths)
    assert run("reindex", "--db", db).exit_code == 0
    by_place = {(Path(v["file"]).name, v["index"]): v for v in verified}
    for record_id in range(1, len(verified) + 1):
        shown = json.loads(run("show", str(record_id), "--db", db, "--json").stdout)
        expected = by_place.pop((Path(shown["source_file"]).name, shown["source_index"]))
        assert _problems(shown["problems"]) == _problems(expected["problems"]), shown["source_file"]
        assert shown["verdict"] == expected["verdict"]
    assert not by_place


def test_the_reader_says_where_a_records_bytes_start_in_its_file(tmp_path: Path) -> None:
    """The frame reindex moves positions into: the game tree's line and column, and 1, 1 for a file of another
    format, whose bytes the archive keeps whole (FMT-13)."""
    from boardrecords.records.reader import read_bytes, read_file

    assert [r.start for r in read_bytes(FILES["bom.sgf"])] == [(3, 1)]
    assert [r.start for r in read_bytes(FILES["multi.sgf"])] == [(1, 1), (3, 3), (6, 1)]
    for name in OTHER_FORMATS:
        assert read_file(FORMATS / name)[0].start == (1, 1), name
