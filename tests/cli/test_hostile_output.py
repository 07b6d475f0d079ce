"""Hostile record text never reaches an output raw: terminals, CSV, SVG, HTML and JSON (render/safe_text.py)."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from boardrecords.archive.core.ingest import game_values
from boardrecords.archive.core.models import GameRow
from boardrecords.cli.common import SafeConsole
from boardrecords.cli.main import app
from boardrecords.cli.views.interactive import position_view
from boardrecords.cli.views.verdict_view import render_report
from boardrecords.records.reader import read_bytes
from boardrecords.render.csv_out import rows_csv as _csv
from boardrecords.render.html_replay import html_page
from boardrecords.render.safe_text import csv_cell, json_text, terminal, xml_text
from boardrecords.render.svg import diagram_svg
from boardrecords.verifier.judging.analysis import analyse
from boardrecords.verifier.judging.verdict import verify

runner = CliRunner()

# Every control character a terminal, a spreadsheet or an XML parser could act on (line feeds aside).
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
CONTROL_BYTES = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")

CLEAR = b"\x1b[2J\x1b[31mRED"
TITLE = b"\x1b]0;owned\x1b\\"
HIDDEN = b"\x1b[8mhidden"
CSI = "\u009b31m".encode()


def value(raw: bytes) -> bytes:
    return raw.replace(b"\\", b"\\\\").replace(b"]", b"\\]")


def record(props: dict[str, bytes], *, ca: bytes = b"UTF-8", moves: bytes = b";B[cc]C[" + value(HIDDEN) + b"];W[dd]",
           size: int = 9) -> bytes:
    head = b"".join(k.encode() + b"[" + value(v) + b"]" for k, v in props.items())
    return b"(;GM[1]FF[4]CA[" + ca + b"]SZ[" + str(size).encode() + b"]" + head + moves + b")"


HOSTILE = record({"PB": b"Bob" + CLEAR, "PW": TITLE + CSI, "EV": HIDDEN, "GN": b"\x07bell\x7fdel",
                  "PC": b"=HYPERLINK(\"x\")", "C": b"line1\nline2\x1b[1m"})


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def assert_no_controls(text: str) -> None:
    found = CONTROL.search(text.replace("\r\n", "\n"))
    assert found is None, f"control character {found.group()!r} in output: {text[max(0, found.start() - 40):][:80]!r}"


def test_safe_text_functions() -> None:
    assert terminal("a\x1bb\u009bc\udcffd\n") == "a\\x1bb\\x9bc\\xffd\n"
    assert terminal("a\nb", keep_newlines=False) == "a\\x0ab"
    assert csv_cell("=1+1") == "'=1+1"
    for start in ("+", "-", "@", "\t", "\r"):
        cell = csv_cell(start + "x")
        assert isinstance(cell, str) and cell.startswith("'")
    assert csv_cell("Bob") == "Bob" and csv_cell(3) == 3
    assert xml_text("<a \x01>") == "&lt;a \\x01&gt;"
    assert json.loads(json_text({"a": "\x7f\u009b\udcff"})) == {"a": "\x7f\u009b\udcff"}
    assert CONTROL.search(json_text({"a": "\x7f\u009b\x1b"})) is None


def test_verify_show_search_stats_replay_import_escape_the_terminal(tmp_path: Path) -> None:
    src = tmp_path / "Evil\x1b[2Jname.sgf"
    src.write_bytes(HOSTILE)
    (tmp_path / "plain.sgf").write_bytes(record({"PB": b"Ann"}))
    db = tmp_path / "a.db"
    outputs = []
    for args in (["verify", src], ["verify", tmp_path], ["import", tmp_path, "--db", db], ["search", "--db", db],
                 ["show", "1", "--db", db], ["stats", "--db", db], ["replay", src, "--all"],
                 ["replay", src, "--move", "1"], ["replay", "1", "--db", db, "--move", "2"]):
        result = run(*args)
        assert result.exit_code in (0, 1), (args, result.output)
        assert "Traceback" not in result.output
        assert_no_controls(result.output)
        outputs.append(result.output)
    assert "\\x1b[2J" in outputs[0] and "\\x9b31m" in outputs[0]
    assert "Evil\\x1b[2Jname.sgf" in outputs[1]
    assert "\\x1b]0;owned" in outputs[6]


def test_import_messages_escape_file_names(tmp_path: Path) -> None:
    bad = tmp_path / "bad\x1b[31m.sgf"
    bad.write_bytes(b"no game here")  # unreadable
    result = run("import", tmp_path, "--db", tmp_path / "a.db")
    assert result.exit_code == 1
    assert "bad\\x1b[31m.sgf" in result.output
    assert_no_controls(result.output)


def test_search_csv_neutralises_formulas(tmp_path: Path) -> None:
    (tmp_path / "f.sgf").write_bytes(record({"PB": b"=cmd|' /C calc'!A0", "PW": b"+1", "EV": b"@SUM(A1)",
                                             "PC": b"-2", "RO": b"\tx"}))
    db = tmp_path / "a.db"
    assert run("import", tmp_path, "--db", db).exit_code == 0
    result = run("search", "--csv", "--db", db)
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert rows[0]["black"] == "'=cmd|' /C calc'!A0"
    assert rows[0]["white"] == "'+1"
    assert rows[0]["event"] == "'@SUM(A1)"
    assert rows[0]["place"] == "'-2"
    assert rows[0]["round"] == "'\\x09x"
    for cell in (c for r in rows for c in r.values() if c):
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


@pytest.mark.parametrize("question", [("search", "--after", "cc"), ("search", "--pattern", "X"),
                                      ("explore", "cc")], ids=["search-after", "search-pattern", "explore"])
def test_position_and_pattern_csv_neutralise_formulas(tmp_path: Path, question: tuple[str, ...]) -> None:
    (tmp_path / "f.sgf").write_bytes(record({"PB": b'=HYPERLINK("http://x","y")', "PW": b"@SUM(A1)",
                                             "EV": b"\x1b[31mred"}))
    db = tmp_path / "a.db"
    assert run("import", tmp_path, "--db", db).exit_code == 0
    result = run(*question, "--size", "9", "--csv", "--db", db)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert rows
    if question[0] == "search":
        assert rows[0]["black"] == "'=HYPERLINK(\"http://x\",\"y\")"
        assert rows[0]["white"] == "'@SUM(A1)"
        assert rows[0]["event"] == "\\x1b[31mred"
    for cell in (c for r in rows for c in r.values() if c):
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    assert_no_controls(result.output)


def test_svg_is_well_formed_with_control_characters_in_names(tmp_path: Path) -> None:
    src = tmp_path / "r.sgf"
    src.write_bytes(HOSTILE)
    result = run("diagram", src)
    assert result.exit_code == 0
    assert_no_controls(result.output)
    ET.fromstring(result.output.encode("utf-8"))  # raises when not well-formed


def test_invalid_utf8_never_breaks_diagram_or_html(tmp_path: Path) -> None:
    src = tmp_path / "r.sgf"
    src.write_bytes(record({"PB": b"caf\xe9 \xff\xfe", "PW": b"ok", "C": b"\x80\x81"}))
    for command in ("diagram", "html"):
        out = tmp_path / f"out.{command}"
        result = run(command, src, "-o", out)
        assert result.exit_code == 0, result.output
        data = out.read_bytes()
        assert data, "an empty file was left"
        data.decode("utf-8")  # strictly UTF-8
        assert CONTROL_BYTES.search(data.replace(b"\r\n", b"\n")) is None
        stdout = runner.invoke(app, [command, str(src)])
        assert stdout.exit_code == 0
        stdout.stdout_bytes.decode("utf-8")
    assert "caf\\xe9 \\xff\\xfe" in (tmp_path / "out.html").read_text(encoding="utf-8")


def test_html_page_has_no_raw_control_characters(tmp_path: Path) -> None:
    src = tmp_path / "r.sgf"
    src.write_bytes(HOSTILE)
    result = run("html", src)
    assert result.exit_code == 0
    assert_no_controls(result.output)
    assert "Bob\\x1b[2J" in result.output


def test_json_outputs_escape_c1_and_del(tmp_path: Path) -> None:
    src = tmp_path / "r.sgf"
    src.write_bytes(HOSTILE)
    result = run("verify", "--json", src)
    assert_no_controls(result.output)
    assert json.loads(result.output)["players"]["white"].endswith("\u009b31m")


# -- the property: random text in every text property, every output ----------------------------------------

TEXT_PROPS = ("PB", "PW", "EV", "RO", "PC", "GN", "GC", "BR", "WR", "C")


def _outputs(data: bytes) -> list[str]:
    records = read_bytes(data, "r.sgf")
    rec = records[0]
    verdict = verify(rec)
    buf = io.StringIO()
    console = SafeConsole(file=buf, width=100, highlight=False)
    render_report(console, ("r\x1b.sgf", rec, verdict))
    replay = analyse(rec)
    for i in range(replay.last + 1):
        console.print(position_view(replay, i, ascii=False, width=100))
    row = GameRow(id=1, **game_values(rec, verdict, source_file="r.sgf"))
    return [buf.getvalue(), _csv([row]), diagram_svg(replay, replay.last), html_page(replay)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(TEXT_PROPS), st.binary(min_size=0, max_size=24), min_size=1),
       st.sampled_from([b"UTF-8", b"ISO-8859-1", b"Shift_JIS", b"unicode_escape", b"idna", b"bogus"]),
       st.binary(max_size=12))
def test_random_bytes_never_put_a_control_character_into_an_output(props: dict[str, bytes], ca: bytes,
                                                                   comment: bytes) -> None:
    data = record(props, ca=ca, moves=b";B[cc]C[" + value(comment) + b"];W[dd]")
    terminal_out, csv_out, svg_out, html_out = _outputs(data)
    for out in (terminal_out, csv_out, svg_out, html_out):
        assert_no_controls(out)
        out.encode("utf-8")  # no lone surrogate: every output encodes
    ET.fromstring(svg_out.encode("utf-8"))
    for row in csv.reader(io.StringIO(csv_out)):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


HOSTILE_NAME = "=HYPERLINK(\"http://x\")\x1b[31m\u202eevil\u200b"


def test_crosstable_and_rating_outputs_of_a_hostile_name_are_escaped(tmp_path):
    import csv
    import io
    import xml.etree.ElementTree as ET
    from html.parser import HTMLParser

    from ..shared import import_games, run

    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, {
        f"r{i}.sgf": f"(;GM[1]SZ[9]EV[Cup]RO[{i}]DT[2024-05-0{i}]PB[{HOSTILE_NAME}]PW[Bob]RE[B+R];B[cc];W[resign])"
        .replace("\x1b", "\\x1b") for i in (1, 2)})
    table = run("crosstable", "Cup", "--db", db, "--csv")
    assert table.exit_code == 0, table.output
    for row in csv.reader(io.StringIO(table.stdout)):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@")) and "\x1b" not in cell and "\u202e" not in cell
    page = run("crosstable", "Cup", "--db", db, "--html").stdout
    assert "\u202e" not in page and "\x1b" not in page and "\\u202e" in page

    class Strict(HTMLParser):
        def handle_starttag(self, tag, attrs):
            assert tag != "script"

    Strict().feed(page)
    svg = tmp_path / "r.svg"
    done = run("ratings", "--db", db, "--player", "Bob", "--svg", svg)
    assert done.exit_code == 0, done.output  # two dated games: Bob is rated
    ET.fromstring(svg.read_text())  # well-formed XML
    again = run("ratings", "--db", db, "--player", "Bob", "--svg", svg)
    assert again.exit_code != 0 and "exists" in again.output  # no overwrite without --force
    assert run("ratings", "--db", db, "--player", "Bob", "--svg", svg, "--force").exit_code == 0
    link = tmp_path / "link.svg"
    link.symlink_to(tmp_path / "elsewhere.svg")
    assert run("ratings", "--db", db, "--player", "Bob", "--svg", link, "--force").exit_code != 0
    assert not (tmp_path / "elsewhere.svg").exists()
