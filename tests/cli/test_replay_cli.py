"""`records replay` (non-interactive forms), `records diagram` and `records html` from the command line."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app

runner = CliRunner()

GO = b"(;GM[1]SZ[9]PB[Alice]PW[Bob]EV[Club night]RE[?];B[ca]C[first];W[aa];B[ab];W[ba];B[bb]C[two captured])"
MARKUP = (b"(;GM[Squer]SZ[4]PB[[bold red\\]x[/\\]]PW[[link=http://evil.example\\]Bob[/link\\]]"
          b";B[dd]C[[i\\]not italic[/i\\]];W[ab])")
# ING-3 / README: W[aa] plays on an occupied point at move 2; the replay stops there.
ILLEGAL = b"(;GM[1]SZ[9]PB[Alice]PW[Bob];B[aa];W[aa];B[bb];W[cc])"
SWAP = b"(;GM[Quentin]SZ[5]PB[Alice]PW[Bob];B[cc];W[swap-sides];W[aa];B[ee])"


@pytest.fixture
def rec(tmp_path: Path):
    def write(data: bytes, name: str = "game.rec") -> Path:
        p = tmp_path / name
        p.write_bytes(data)
        return p

    return write


def run(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), env=env)


def test_move_n_prints_that_position(rec) -> None:
    result = run("replay", str(rec(GO)), "--move", "5", "--ascii")
    assert result.exit_code == 0, result.output
    out = result.output
    # Go coordinates (GEN-10): bb is B8, aa and ba are A9 and B9.
    assert "Move 5 of 5: Black B8 (Alice)" in out
    assert "captured 2: A9 B9" in out
    assert re.search(r"^9 \| x  x  X  \.", out, re.M)  # row 9 (a): aa and ba captured, ca black
    assert re.search(r"^8 \| X \(X\) \.", out, re.M)  # row 8 (b): ab, and the last move bb
    assert "Points: Go coordinates" in out  # the legend says so (wrapped to the board's width)
    assert "Comment:" in out and "two captured" in out
    assert "Black: Alice" in out and "White: Bob" in out and "Event: Club night" in out
    assert "Verdict: pass (" in out
    assert "Move 4 of" not in out


def test_sgf_points_shows_the_letters_of_the_record(rec) -> None:
    result = run("replay", str(rec(GO)), "--move", "5", "--ascii", "--sgf-points")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Move 5 of 5: Black bb (Alice)" in out
    assert "captured 2: aa ba" in out
    assert re.search(r"^a \| x  x  X  \.", out, re.M)
    assert re.search(r"^b \| X \(X\) \.", out, re.M)
    assert "Points: SGF letters" in out and "Go coordinates" not in out
    illegal = run("replay", str(rec(ILLEGAL)), "--all", "--ascii", "--sgf-points").output
    assert "Illegal move 2 of 4: White aa (Bob)" in illegal and "illegal: aa is occupied (ING-3)" in illegal
    assert "First error: move 2 aa: aa is occupied" in illegal


def test_move_zero_is_the_start(rec) -> None:
    result = run("replay", str(rec(GO)), "--move", "0", "--ascii")
    assert result.exit_code == 0, result.output
    assert "Start (moves: 5)" in result.output
    assert "To move: Black (Alice)" in result.output
    assert not re.search(r"^[a-i] \|.*[XO]", result.output, re.M)  # an empty board


def test_all_prints_every_step_in_order(rec) -> None:
    result = run("replay", str(rec(GO)), "--all", "--ascii")
    assert result.exit_code == 0, result.output
    out = result.output
    marks = [out.index(f"Move {i} of 5") for i in range(1, 6)]
    assert marks == sorted(marks)
    assert out.index("Start (moves: 5)") < marks[0]
    assert out.count("Verdict:") == 6


def test_not_a_terminal_means_all(rec) -> None:
    # CliRunner's stdout is not a terminal: no keys to read, so every step is printed.
    plain = run("replay", str(rec(GO)), "--ascii")
    assert plain.exit_code == 0
    assert plain.output == run("replay", str(rec(GO)), "--ascii", "--all").output


def test_move_beyond_the_end_is_a_clear_error(rec) -> None:
    result = run("replay", str(rec(GO)), "--move", "9")
    assert result.exit_code == 2
    assert "the record has 5 moves" in result.output
    assert "Traceback" not in result.output


def test_invalid_record_replays_up_to_the_illegal_move(rec) -> None:
    path = rec(ILLEGAL)
    result = run("replay", str(path), "--all", "--ascii")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Illegal move 2 of 4: White A9 (Bob)" in out  # aa; the record has 4 moves
    assert "illegal: A9 is occupied (ING-3)" in out
    assert "First error: move 2 A9: A9 is occupied" in out
    assert "Move 3" not in out  # never past the first illegal move
    assert re.search(r"^9 \|!X!", out, re.M)  # the refused move's point marked on the position before it
    assert "Verdict: invalid" in out
    beyond = run("replay", str(path), "--move", "3")
    assert beyond.exit_code == 2
    assert "stops at move 2, which is illegal" in beyond.output


def test_markup_in_names_and_comments_is_shown_literally(rec) -> None:
    result = run("replay", str(rec(MARKUP)), "--all")
    assert result.exit_code == 0, result.output
    assert "[bold red]x[/]" in result.output
    assert "[link=http://evil.example]Bob[/link]" in result.output
    assert "[i]not italic[/i]" in result.output


def test_swap_is_shown_from_its_move_on(rec) -> None:
    result = run("replay", str(rec(SWAP)), "--move", "1")
    assert "Swap at move" not in result.output
    result = run("replay", str(rec(SWAP)), "--move", "2")
    assert result.exit_code == 0, result.output
    assert "Swap at move 2: Bob now plays Black" in result.output
    assert "the players swapped sides" in result.output
    assert "To move: White (Alice)" in result.output  # README: after the swap the first player holds White


def test_connection_games_show_whose_edges_are_whose(rec) -> None:
    result = run("replay", str(rec(SWAP)), "--move", "0", "--ascii")
    assert "Black X: top, bottom edges =" in result.output
    assert "White O: left, right edges |" in result.output
    assert "edges" not in run("replay", str(rec(GO)), "--move", "0").output


def test_errors_are_messages_not_tracebacks(rec, tmp_path: Path) -> None:
    missing = run("replay", str(tmp_path / "nope.rec"))
    assert missing.exit_code == 2 and "no such file" in missing.output
    broken = run("replay", str(rec(b"hello", "broken.rec")))
    assert broken.exit_code == 1  # unreadable, as `verify` says it (README.md, "Exit status")
    assert "broken.rec:1:1" in broken.output and "Traceback" not in broken.output
    no_size = run("replay", str(rec(b"(;GM[Cation];B[aa])", "nosize.rec")))  # CAT-1: SZ is required
    assert no_size.exit_code == 2
    assert "CAT-1" in no_size.output and "nosize.rec:1:2" in no_size.output
    folder = run("replay", str(tmp_path))
    assert folder.exit_code == 2 and "folder" in folder.output
    index = run("replay", str(rec(GO)), "--index", "3")
    assert index.exit_code == 2 and "--index" in index.output
    for cmd in (["diagram", str(rec(GO)), "--move", "6"], ["html", str(tmp_path / "x.rec")]):
        res = run(*cmd)
        assert res.exit_code == 2 and res.output.startswith("error:"), res.output


def test_collection_index_chooses_the_record(rec) -> None:
    path = rec(GO + b"\n" + SWAP, "two.rec")
    second = run("replay", str(path), "--index", "1", "--move", "0")
    assert second.exit_code == 0, second.output
    assert "Quentin" in second.output
    first = run("replay", str(path), "--move", "0")
    assert "Go (Simplified Ing Rules)" in first.output
    assert "holds 2 records" in first.output  # a note (on stderr) says which record is shown


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "boardrecords.cli.main", *args], capture_output=True, env=env,
                          timeout=120)


def test_ascii_is_chosen_when_the_encoding_cannot_show_stones(rec) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    env.pop("NO_COLOR", None)
    proc = _cli("replay", str(rec(GO)), "--move", "5", env=env)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode("ascii")
    assert "(X)" in out and "captured 2: A9 B9" in out
    utf8 = _cli("replay", str(rec(GO)), "--move", "5", env={**env, "PYTHONIOENCODING": "utf-8"})
    assert "(●)" in utf8.stdout.decode("utf-8")


def test_archive_id_replays_the_stored_record(rec, tmp_path: Path) -> None:
    db = str(tmp_path / "archive.db")
    imported = run("import", str(rec(GO)), "--db", db)
    assert imported.exit_code == 0, imported.output
    result = run("replay", "1", "--db", db, "--move", "5", "--ascii")
    assert result.exit_code == 0, result.output
    assert "Move 5 of 5: Black B8 (Alice)" in result.output
    missing = run("replay", "999", "--db", db)
    assert missing.exit_code == 1 and "no record 999" in missing.output


def test_an_existing_file_named_like_an_id_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "7").write_bytes(GO)
    result = run("replay", "7", "--move", "1", "--db", str(tmp_path / "none.db"))
    assert result.exit_code == 0, result.output
    assert "Move 1 of 5" in result.output


# -- diagram -------------------------------------------------------------------------------------------------


def _svg_root(path: Path) -> ET.Element:
    text = path.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    return ET.fromstring(text.split("\n", 1)[1])


def _classes(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in (el.get("class") or "").split()]


def test_diagram_writes_the_position_with_marks(rec, tmp_path: Path) -> None:
    out = tmp_path / "out.svg"
    result = run("diagram", str(rec(GO)), "--move", "5", "-o", str(out))
    assert result.exit_code == 0, result.output
    root = _svg_root(out)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("data-move") == "5"
    assert {el.get("data-point") for el in _classes(root, "black")} == {"ca", "ab", "bb"}
    assert _classes(root, "white") == []
    assert {el.get("data-point") for el in _classes(root, "last")} == {"bb"}
    assert {el.get("data-point") for el in _classes(root, "captured")} == {"aa", "ba"}
    coords = [el.text for el in _classes(root, "coord")]
    # 9x9 in Go coordinates: columns A..J (no I) above and below, rows 9..1 on both sides.
    assert coords.count("A") == 2 and coords.count("J") == 2 and "I" not in coords
    assert coords.count("9") == 2 and coords.count("1") == 2
    captions = " ".join(el.text or "" for el in _classes(root, "caption"))
    assert "Black B8" in captions and "captured 2: A9 B9" in captions and "Points: Go coordinates" in captions
    sgf = tmp_path / "sgf.svg"
    assert run("diagram", str(rec(GO)), "--move", "5", "--sgf-points", "-o", str(sgf)).exit_code == 0
    sgf_root = _svg_root(sgf)
    coords = [el.text for el in _classes(sgf_root, "coord")]
    assert coords.count("a") == 4 and coords.count("i") == 4  # SGF letters on all four sides
    captions = " ".join(el.text or "" for el in _classes(sgf_root, "caption"))
    assert "Black bb" in captions and "captured 2: aa ba" in captions and "Points: SGF letters" in captions
    assert _classes(root, "edge") == []  # Go has no owned edges
    assert _classes(root, "number") == []


def test_diagram_numbers_and_owned_edges(rec, tmp_path: Path) -> None:
    out = tmp_path / "q.svg"
    result = run("diagram", str(rec(SWAP)), "-o", str(out), "--numbers", "1-4")
    assert result.exit_code == 0, result.output
    root = _svg_root(out)
    assert (root.get("data-first"), root.get("data-last")) == ("1", "4")
    numbers = {el.get("data-point"): el.text for el in _classes(root, "number")}
    assert numbers == {"cc": "1", "aa": "3", "ee": "4"}  # the swap (move 2) places nothing
    captions = " ".join(el.text or "" for el in _classes(root, "caption")).replace("\u00a0", " ")
    assert "2: White swaps sides" in captions
    assert len(_classes(root, "edge-black")) == 2 and len(_classes(root, "edge-white")) == 2
    top = [el for el in _classes(root, "edge-black")]
    assert all(el.get("fill") == "#111111" for el in top)


def test_diagram_text_is_escaped(rec, tmp_path: Path) -> None:
    out = tmp_path / "m.svg"
    assert run("diagram", str(rec(MARKUP)), "--move", "1", "-o", str(out)).exit_code == 0
    root = _svg_root(out)  # parses: nothing from the record broke the XML
    assert "[bold red]x[/]" in ET.tostring(root, encoding="unicode")


# -- html (static checks; the page is run in Chromium by test_replay_chromium.py) ----------------------------

XSS = ("(;GM[Cation]SZ[5]PB[<script>window.pwned=1;document.title='pwned'</script>]"
       "PW[<img src=x onerror=\"window.pwned=2;document.title='pwned'\">]EV[</script><script>window.pwned=3</script>]"
       ";B[bb]C[<img src=x onerror=window.pwned=4> & </script><!-- \u2028\u2029 end];W[dd]C[<b>bold?</b>])")


def test_html_page_is_self_contained_with_a_strict_csp(rec, tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = run("html", str(rec(XSS.encode("utf-8"))), "-o", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
    assert csp is not None
    policy = csp.group(1).replace("&#x27;", "'")
    assert "default-src 'none'" in policy and "style-src 'unsafe-inline'" in policy and "img-src data:" in policy
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy
    # Nothing to fetch: no src/href attributes at all, and the only URL is the SVG namespace.
    assert not re.search(r"\s(src|href)\s*=", page.replace("src=x", ""))
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}


def test_html_escapes_record_text(rec, tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert run("html", str(rec(XSS.encode("utf-8"))), "-o", str(out)).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "<img" not in page and "<b>" not in page
    assert page.count("<script") == 2 and page.count("</script>") == 2  # the data block and the replayer
    assert "&lt;script&gt;window.pwned=1" in page  # the name, escaped in the header and the title
    block = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert block is not None
    raw = block.group(1)
    assert "<" not in raw and ">" not in raw and "&" not in raw
    assert "\u2028" not in raw and "\u2029" not in raw
    data = json.loads(raw)
    assert data["positions"][1]["comment"].startswith("<img src=x onerror=window.pwned=4> & </script><!--")
    assert "\u2028" in data["positions"][1]["comment"]
    assert data["positions"][2]["comment"] == "<b>bold?</b>"


def test_the_end_of_the_game_is_shown_instead_of_whose_turn(rec) -> None:
    # README (Results): a resignation ends the game; after the swap Bob plays Black, so Alice wins with White.
    resigned = run("replay", str(rec(b"(;GM[Quentin]SZ[5]PB[Alice]PW[Bob]RE[W+R];B[cc];W[swap-sides];W[aa]"
                                     b";B[resign])")), "--move", "4")
    assert resigned.exit_code == 0, resigned.output
    assert "Game over: Black (Bob) resigned" in resigned.output
    assert "End: White (Alice) won by resignation" in resigned.output
    assert "To move:" not in resigned.output
    # SQU-6: White's row b is a chain, but Black gets one turn: the game goes on until it is swept.
    swept = run("replay", str(rec(b"(;GM[Squer]SZ[4]PB[Alice]PW[Bob];B[ad];W[ab];B[bd];W[bb];B[dd];W[cb];B[ca]"
                                  b";W[db])", "squer.rec")), "--move", "8")
    assert "To move: Black (Alice)" in swept.output
    assert "Game over" not in swept.output


@pytest.mark.parametrize("size", [9, 13, 19])
def test_the_points_line_is_broken_between_its_clauses_only(rec, size: int) -> None:
    """GEN-10: the legend names the notation; under a board narrower than the line it is broken after its commas,
    never inside a clause (`A..J (no I) left to right` stays whole), at the width of a 120-column terminal."""
    data = f"(;GM[1]SZ[{size}]PB[Alice]PW[Bob];B[cc];W[dd])".encode()
    result = run("replay", str(rec(data)), "--move", "2", env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("Points:"))
    end = next(i for i in range(start, len(lines)) if lines[i].endswith("bottom to top"))
    legend = " ".join(lines[start:end + 1])
    last = {9: "J", 13: "N", 19: "T"}[size]
    assert legend == f"Points: Go coordinates, A..{last} (no I) left to right, 1..{size} bottom to top"
    assert all(line.startswith(("Points:", "A..", "1..")) for line in lines[start:end + 1])
