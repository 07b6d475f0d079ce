"""The archive's commands end to end, on SQLite and PostgreSQL: import, search, show, export, stats.

The expected values come from reading and verifying the same files directly (records.reader + verifier.verdict),
so these tests check the archive, not the rules.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app
from boardrecords.records.reader import read_file
from boardrecords.verifier.judging.verdict import verify

from ..shared import EXAMPLES

runner = CliRunner()
INJECTION = "'; DROP TABLE game; --"


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@cache
def _truth(folder: str) -> tuple[dict[str, dict], int]:
    """sha256 -> facts for every record under `folder`, from reading and verifying the files directly."""
    out: dict[str, dict] = {}
    n = 0
    for path in sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in (".rec", ".sgf")):
        # The verdict and result status the independent implementation gives, where its truth file is beside.
        given = path.with_name(path.name.removesuffix(path.suffix) + ".truth.json")
        truth = json.loads(given.read_text()) if given.exists() else None
        for record in read_file(path):
            n += 1
            verdict = verify(record)
            status = truth["result_status"] if truth else verdict.status.value
            word = "invalid" if not verdict.valid else "wrong-result" if status == "disagrees" else "pass"
            out.setdefault(hashlib.sha256(record.raw).hexdigest(), {
                "verdict": word, "status": status,
                "raw": record.raw, "game": record.game.value, "valid": verdict.valid, "swapped": verdict.swapped,
                "winner": verdict.winner_colour.value if verdict.winner_colour else None,
                "black": record.black, "moves": len(record.moves()), "problems": len(verdict.problems),
                "path": str(path),
            })
    return out, n


@pytest.fixture
def imported(db_url: str, conformance_copy: Path):
    result = run("import", conformance_copy, "--db", db_url, "-q", "--json")
    assert result.exit_code == 0, result.output
    truth, n = _truth(str(conformance_copy))
    return db_url, conformance_copy, truth, n, result


def _search(db: str, *args: str) -> list[dict]:
    result = run("search", "--db", db, "--json", "--limit", "0", *args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_import_stores_every_record_once_with_its_verdict(imported) -> None:
    db, folder, truth, n, result = imported
    summary = json.loads(result.stdout)
    assert summary["files"] == len(list(folder.rglob("*.rec")))
    assert (summary["records"], summary["new"], summary["duplicates"]) == (n, len(truth), n - len(truth))
    assert sum(summary["verdicts"].values()) == n and summary["verdicts"]["unreadable"] == 0
    assert sum(summary["results"].values()) == n
    rows = _search(db)
    assert len(rows) == len(truth)
    by_hash = {r["sha256"]: r for r in rows}
    assert set(by_hash) == set(truth)
    for sha, t in truth.items():
        row = by_hash[sha]
        assert (row["game"], row["valid"], row["swapped"], row["winner_colour"], row["moves"], row["problems"]) == (
            t["game"], t["valid"], t["swapped"], t["winner"], t["moves"], t["problems"]), t["path"]
        assert (row["verdict"], row["result_status"]) == (t["verdict"], t["status"]), t["path"]
    # Importing the same folder again stores nothing new: every record is a duplicate.
    again = run("import", folder, "--db", db, "-q", "--json")
    assert again.exit_code == 0, again.output
    assert len(_search(db)) == len(truth)
    summary = json.loads(again.stdout)
    assert (summary["records"], summary["new"], summary["duplicates"]) == (n, 0, n)
    table = run("import", folder, "--db", db, "-q")
    assert "duplicates" in table.stdout and f"{n} records: " in table.stdout


def test_search_filters_against_the_verdicts(imported) -> None:
    db, _, truth, _, _ = imported
    for word in ("pass", "invalid", "wrong-result"):
        want = {s for s, t in truth.items() if t["verdict"] == word}
        assert {r["sha256"] for r in _search(db, "--verdict", word)} == want, word
    for word in ("agrees", "disagrees", "unconfirmed", "undeclared"):
        want = {s for s, t in truth.items() if t["status"] == word}
        assert {r["sha256"] for r in _search(db, "--status", word)} == want, word
    bad = run("search", "--db", db, "--verdict", "fine")
    assert bad.exit_code == 2 and "pass, invalid, wrong-result" in bad.stderr
    for game in ("cation", "quentin", "squer", "go-ing", "conversion-go"):
        want = {s for s, t in truth.items() if t["game"] == game}
        assert {r["sha256"] for r in _search(db, "--game", game)} == want, game
    swapped = {s for s, t in truth.items() if t["swapped"]}
    assert {r["sha256"] for r in _search(db, "--swapped")} == swapped
    assert {r["sha256"] for r in _search(db, "--winner", "W")} == {s for s, t in truth.items() if t["winner"] == "W"}
    many = {s for s, t in truth.items() if t["moves"] >= 30}
    assert {r["sha256"] for r in _search(db, "--moves-min", "30")} == many
    some = next(t for t in truth.values() if t["black"])
    named = {s for s, t in truth.items() if t["black"] == some["black"]}
    assert named <= {r["sha256"] for r in _search(db, "--player", some["black"].upper())}


def test_search_opening_sort_limit_and_formats(imported) -> None:
    db, *_ = imported
    first = _search(db, "--sort", "-moves", "--limit", "3")
    assert len(first) == 3
    assert [r["moves"] for r in first] == sorted((r["moves"] for r in first), reverse=True)
    longest = max(r["moves"] for r in _search(db))
    assert first[0]["moves"] == longest
    # The opening of a stored record finds that record.
    row = next(r for r in _search(db, "--game", "cation", "--moves-min", "3"))
    shown = run("show", row["id"], "--db", db, "--json")
    assert shown.exit_code == 0, shown.output
    table = run("search", "--db", db, "--game", "cation", "--limit", "5")
    assert table.exit_code == 0 and "Cation" in table.stdout
    cation = len(_search(db, "--game", "cation"))
    assert f"5 of {cation} records; --limit 0 for all" in table.stdout
    as_csv = run("search", "--db", db, "--game", "squer", "--csv", "--limit", "0")
    assert as_csv.exit_code == 0
    lines = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert lines and all(line["game"] == "squer" for line in lines)
    assert len(lines) == len(_search(db, "--game", "squer"))
    nothing = run("search", "--db", db, "--player", "no such player")
    assert nothing.exit_code == 1
    assert "no records match" in nothing.stderr


def test_opening_search_finds_the_records_that_start_so(imported) -> None:
    db, _, truth, _, _ = imported
    sha, t = next((s, t) for s, t in truth.items() if t["game"] == "go-ing" and t["moves"] >= 2)
    from boardrecords.records.reader import read_bytes

    moves = read_bytes(t["raw"])[0].moves()
    opening = " ".join(str(m) for m in moves[:2])
    found = _search(db, "--opening", opening)
    assert sha in {r["sha256"] for r in found}
    for r in found:
        rec = read_bytes(truth[r["sha256"]]["raw"])[0]
        assert [str(m) for m in rec.moves()[:2]] == [str(m) for m in moves[:2]]


def test_show_header_verdict_and_problems(imported) -> None:
    db, _, truth, _, _ = imported
    bad = _search(db, "--verdict", "invalid", "--limit", "1")[0]
    result = run("show", bad["id"], "--db", db, "--ascii")
    assert result.exit_code == 0, result.output
    assert "invalid" in result.stdout
    detail = json.loads(run("show", bad["id"], "--db", db, "--json").stdout)
    assert len(detail["problems"]) == truth[bad["sha256"]]["problems"] >= 1
    assert all(p["code"] for p in detail["problems"])
    for p in detail["problems"]:
        if p["rule"]:
            assert p["rule"] in result.stdout
    good = _search(db, "--verdict", "pass", "--limit", "1")[0]
    out = run("show", good["id"], "--db", db)
    assert out.exit_code == 0 and "Verdict  pass" in out.stdout
    missing = run("show", "999999", "--db", db)
    assert missing.exit_code == 1 and "no record 999999" in missing.stderr


def test_export_gives_back_the_original_bytes(imported, tmp_path: Path) -> None:
    db, _, truth, _, _ = imported
    rows = _search(db, "--limit", "5")
    one = run("export", rows[0]["id"], "--db", db)
    assert one.exit_code == 0
    assert one.stdout_bytes == truth[rows[0]["sha256"]]["raw"]
    folder = tmp_path / "out"
    many = run("export", *[r["id"] for r in rows], "--db", db, "-o", f"{folder}/")
    assert many.exit_code == 0, many.output
    for r in rows:
        assert (folder / f"{r['id']}.rec").read_bytes() == truth[r["sha256"]]["raw"]
    # With filters instead of ids: every squer record, into one collection file.
    target = tmp_path / "squer.rec"
    by_filter = run("export", "--game", "squer", "--db", db, "-o", target)
    assert by_filter.exit_code == 0, by_filter.output
    squer = [r for r in _search(db, "--game", "squer")]
    assert target.read_bytes() == b"\n".join(truth[r["sha256"]]["raw"] for r in squer)
    assert len(read_file(target)) == len(squer)
    assert run("export", "--db", db).exit_code == 2  # neither ids nor filters
    assert run("export", "424242", "--db", db).exit_code == 1


def test_export_canonical_is_the_writers_form(imported, tmp_path: Path) -> None:
    writer = pytest.importorskip("boardrecords.records.writer")
    db, _, truth, _, _ = imported
    row = _search(db, "--game", "quentin", "--limit", "1")[0]
    result = run("export", row["id"], "--db", db, "--canonical")
    assert result.exit_code == 0, result.output
    from boardrecords.records.reader import read_bytes

    assert result.stdout_bytes == writer.write([read_bytes(truth[row["sha256"]]["raw"])[0]])


def test_stats_counts_agree_with_the_verdicts(imported) -> None:
    db, _, truth, _, _ = imported
    result = run("stats", "--db", db, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    games = {g["game"]: g for g in data["games"]}
    for game in {t["game"] for t in truth.values()}:
        mine = [t for t in truth.values() if t["game"] == game]
        g = games[game]
        assert g["records"] == len(mine)
        assert g["passed"] == sum(t["verdict"] == "pass" for t in mine)
        assert g["black_wins"] == sum(t["winner"] == "B" for t in mine)
        assert g["white_wins"] == sum(t["winner"] == "W" for t in mine)
        assert g["swaps"] == sum(t["swapped"] for t in mine)
        assert sum(g["methods"].values()) == len(mine)
    assert data["players"] and all(p["games"] >= p["wins"] for p in data["players"])
    table = run("stats", "--db", db)
    assert table.exit_code == 0 and "per game" in table.stdout and "per player" in table.stdout


def test_sql_injection_player_name_is_stored_and_found_as_a_name(db_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "inj"
    folder.mkdir()
    text = f"(;GM[1]FF[4]SZ[9]PB[{INJECTION}]PW[Robert'); DROP TABLE problem;--]EV[x' OR '1'='1];B[ee];W[cc])"
    (folder / "bobby.sgf").write_text(text, encoding="utf-8")
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    for option, value in (("--player", INJECTION), ("--black", INJECTION), ("--event", "x' OR '1'='1"),
                          ("--white", "Robert'); DROP TABLE problem;--"), ("--text", INJECTION)):
        found = _search(db_url, option, value)
        assert [r["black"] for r in found] == [INJECTION], option
    assert _search(db_url, "--player", "' OR 1=1 --") == []
    assert len(_search(db_url)) == 1
    assert run("stats", "--db", db_url).exit_code == 0  # both tables are still there


def test_unreadable_files_are_reported_and_the_import_goes_on(db_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "good.sgf").write_bytes(b"(;GM[1]SZ[9]PB[A]PW[B];B[ee];W[cc])\n")
    (folder / "bad.sgf").write_bytes(b"(;GM[1]SZ[9]\n;B[ee]W[cc]]]\n;W")
    (folder / "notes.sgf").write_bytes(b"this is not a record at all\n")
    result = run("import", folder, "--db", db_url, "-q")
    assert result.exit_code == 1  # some files failed
    stored = _search(db_url)
    assert [r["black"] for r in stored] == ["A"]
    assert "notes.sgf" in result.output
    assert "Traceback" not in result.output


def test_bad_usage_and_unreachable_databases_exit_2_without_traceback(tmp_path: Path, sqlite_db: str) -> None:
    (tmp_path / "r.sgf").write_bytes(b"(;GM[1]SZ[9];B[ee])")
    assert run("import", tmp_path / "r.sgf", "--db", sqlite_db, "-q").exit_code == 0
    cases = [
        ("search", "--db", sqlite_db, "--from", "May 2017"),
        ("search", "--db", sqlite_db, "--game", "chess"),
        ("search", "--db", sqlite_db, "--sort", "colour"),
        ("search", "--db", sqlite_db, "--opening", "B[pd"),
        ("search", "--db", str(tmp_path / "nothing-here.db")),
        ("search", "--db", "postgresql+psycopg://nobody:pw@127.0.0.1:1/none"),
        ("stats", "--db", "notadialect://x/y"),
        ("show", "1", "--db", "postgresql+psycopg://nobody:pw@127.0.0.1:1/none"),
        ("import", tmp_path / "r.sgf", "--db", "postgresql+psycopg://nobody:pw@127.0.0.1:1/none"),
    ]
    for args in cases:
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.startswith("error: "), (args, result.output)
        assert "Traceback" not in result.output
        assert "pw@" not in result.output  # no password in messages
    assert run("import", tmp_path / "missing.sgf", "--db", sqlite_db).exit_code == 2


def test_collections_store_each_game_tree_with_its_index(db_url: str, tmp_path: Path) -> None:
    trees = [b"(;GM[1]SZ[9]PB[One];B[aa])", b"(;GM[1]SZ[9]PB[Two];B[bb];W[cc])", b"(;GM[Quentin]SZ[6]PB[Q];B[cc])"]
    (tmp_path / "c.sgf").write_bytes(b"\n".join(trees) + b"\n")
    (tmp_path / "copy").mkdir()
    shutil.copyfile(tmp_path / "c.sgf", tmp_path / "copy" / "again.SGF")
    result = run("import", tmp_path / "c.sgf", tmp_path / "copy", "--db", db_url, "-q", "-v")
    assert result.exit_code == 0, result.output
    assert "duplicate:" in result.stderr
    rows = _search(db_url, "--sort", "id")
    assert [(r["black"], r["source_index"]) for r in rows] == [("One", 0), ("Two", 1), ("Q", 2)]
    for r, raw in zip(rows, trees, strict=True):
        assert run("export", r["id"], "--db", db_url).stdout_bytes == raw


def test_a_stored_record_is_read_back_with_its_row(imported, tmp_path: Path) -> None:
    from boardrecords.archive.front import Archive
    from boardrecords.common.errors import ArchiveError, NotFound

    db, _, truth, _, _ = imported
    row = _search(db, "--game", "quentin", "--limit", "1")[0]
    with Archive(db) as archive:
        found = archive.record(row["id"])
        record, game = found.record, found.row
        assert record.raw == truth[row["sha256"]]["raw"]
        assert (game.id, game.sha256, record.game.value) == (row["id"], row["sha256"], "quentin")
        assert len(record.moves()) == row["moves"]
        with pytest.raises(NotFound):
            archive.record(10**6)
    with pytest.raises(ArchiveError):
        Archive(str(tmp_path / "no-archive.db"))


def test_import_the_examples_folder(db_url: str, tmp_path: Path) -> None:
    if not any(p.suffix in (".rec", ".sgf") for p in EXAMPLES.rglob("*")):
        pytest.skip(f"no example records in {EXAMPLES}")
    folder = tmp_path / "examples"
    shutil.copytree(EXAMPLES, folder)
    result = run("import", folder, "--db", db_url, "-q", "--json")
    assert result.exit_code == 0, result.output
    truth, n = _truth(str(folder))
    assert json.loads(result.stdout)["records"] == n
    rows = _search(db_url)
    assert {r["sha256"] for r in rows} == set(truth)
    for r in rows:
        assert r["valid"] == truth[r["sha256"]]["valid"]
        assert run("export", r["id"], "--db", db_url).stdout_bytes == truth[r["sha256"]]["raw"]


def test_show_and_search_read_and_name_points_in_either_notation(tmp_path: Path) -> None:
    # GEN-10: `show` names points in the game's notation (Q16) unless --sgf-points; `--opening` reads both.
    rec = tmp_path / "occupied.rec"
    rec.write_text("(;GM[1]SZ[19]PB[Ann]PW[Bo];B[pd];W[dp];B[pd])")
    db = str(tmp_path / "points.db")
    assert run("import", rec, "--db", db, "-q").exit_code == 0
    shown = run("show", "1", "--db", db, "--ascii")
    assert shown.exit_code == 0, shown.output
    assert "Q16 is occupied" in shown.output and "pd is occupied" not in shown.output
    assert "Points: Go coordinates" in shown.output
    sgf = run("show", "1", "--db", db, "--ascii", "--sgf-points")
    assert "pd is occupied" in sgf.output and "Q16" not in sgf.output and "Points: SGF letters" in sgf.output
    stored = json.loads(run("show", "1", "--db", db, "--json").stdout)
    assert stored["problems"][0]["point"] == "pd"  # machines get SGF letters
    for opening in ("Q16,D4", "pd,dp", "q16 d4", "B[pd] W[D4]"):
        found = json.loads(run("search", "--db", db, "--opening", opening, "--json").stdout)
        assert [r["id"] for r in found] == [1], opening
    wrong = run("search", "--db", db, "--opening", "I5")
    assert wrong.exit_code == 2 and "no column I" in wrong.output
