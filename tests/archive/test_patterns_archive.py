"""Pattern search in the archive (SQLite and PostgreSQL): the change lists written at import, continuation counts
against counts made by hand, filters, --json/--csv, a region of a record, reindex; and the stored fast path
against the brute-force reference on random games."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.core.filters import Filters
from boardrecords.archive.patterns.search import search_pattern
from boardrecords.cli.main import app
from boardrecords.records.games import Game
from boardrecords.records.reader import read_file
from boardrecords.records.writer import new_record, write
from boardrecords.verifier.keys.patterns import (
    parse_pattern,
    placements,
    region_points,
)

from ..pattern_reference import brute_force, brute_force_continuations
from ..shared import ROOT, import_games, run
from ..verifier.test_verify_properties import random_game

GAMES = {
    # Go 5x5. The pattern "X./.." in a corner: a black stone with the three points next to it empty.
    "g1.rec": "(;GM[1]SZ[5]PB[Ann]PW[Bo]RE[B+R];B[aa];W[ba];B[ca];W[ee];B[bb])",  # at 1, then W next to it
    "g2.rec": "(;GM[1]SZ[5]PB[Cy]PW[Di]RE[W+R];B[ea];W[da];B[ca];W[ae];B[db])",  # g1 mirrored
    "g3.rec": "(;GM[1]SZ[5]PB[Ann]PW[Di]RE[B+R];B[cc];W[aa];B[ee])",  # at 3, the last move: no continuation
    "g4.rec": "(;GM[1]SZ[5]PB[Eve]PW[Bo]RE[W+R];B[aa];W[bb])",  # at 1, then W diagonally
    "g5.rec": "(;GM[1]SZ[5]PB[Eve]PW[Fay]RE[B+R];B[aa];W[ee];B[dd])",  # at 1, then W away from it
    "g6.rec": "(;GM[1]SZ[5]PB[Gus]PW[Fay]RE[B+R];B[bb];W[cc])",  # never: no stone in a corner
}


def _archive(tmp_path: Path, db: str) -> Path:
    return import_games(tmp_path, db, GAMES)


def test_continuations_counted_by_hand(tmp_path: Path, db_url: str, route: str) -> None:
    _archive(tmp_path, db_url)
    r = run("search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--db", db_url, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 5 and data["appearances"] == 5
    by_black = {}
    for g in data["records"]:
        by_black.setdefault(g["black"], []).append(g["at_moves"])
    assert sorted(by_black["Ann"]) == [[1], [3]] and by_black["Cy"] == [[1]] and by_black["Eve"] == [[1], [1]]
    conts = {c["move"]: c for c in data["next_moves"]}
    # Drawn in the top left corner: B5 is next to the stone (g1, and g2 mirrored), B4 diagonal (g4).
    assert conts["W B5"] == {"move": "W B5", "hits": 2, "games": 2, "black_wins": 1, "white_wins": 1}
    assert conts["W B4"] == {"move": "W B4", "hits": 1, "games": 1, "black_wins": 0, "white_wins": 1}
    assert conts["elsewhere"] == {"move": "elsewhere", "hits": 1, "games": 1, "black_wins": 1, "white_wins": 0}
    assert len(conts) == 3
    # Filters apply.
    r = run("search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--player", "ann", "--db", db_url,
            "--json")
    data = json.loads(r.stdout)
    assert data["games"] == 2 and {c["move"]: c["hits"] for c in data["next_moves"]} == {"W B5": 1}
    # The table fits 80 columns and draws the pattern; CSV has one row per game.
    r = CliRunner().invoke(app, ["search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--db",
                                 db_url], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert max(len(line) for line in r.stdout.splitlines()) <= 80
    assert "W B5" in r.stdout and "5 records, 5 appearances" in r.stdout
    r = run("search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--db", db_url, "--csv")
    assert r.stdout.splitlines()[0].startswith("id,") and len(r.stdout.splitlines()) == 6
    # Nothing found: exit 1.
    r = run("search", "--pattern", "XXX", "--size", "5", "--db", db_url, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["games"] == 0


def test_region_continuations_counted_by_hand(tmp_path: Path, db_url: str, route: str) -> None:
    # The first move in the pattern's region after each appearance (Kombilo's count), on the games above: g1 and
    # g2 (mirrored) W B5 right away, g4 W B4; g3 (at its last move) and g5 (W ee and B dd far off) end first.
    _archive(tmp_path, db_url)
    r = run("search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--db", db_url, "--json")
    conts = {c["move"]: c for c in json.loads(r.stdout)["continuations"]}
    assert conts == {
        "W B5": {"move": "W B5", "colour": "W", "point": "B5", "hits": 2, "tenuki": 0, "games": 2, "black_wins": 1,
                 "white_wins": 1},
        "W B4": {"move": "W B4", "colour": "W", "point": "B4", "hits": 1, "tenuki": 0, "games": 1, "black_wins": 0,
                 "white_wins": 1},
        "ended": {"move": "ended", "colour": None, "point": None, "hits": 2, "tenuki": 0, "games": 2,
                  "black_wins": 2, "white_wins": 0}}
    r = CliRunner().invoke(app, ["search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--db",
                                 db_url], env={"COLUMNS": "80"})
    assert "in region" in r.stdout and "tenuki" in r.stdout and "game ended first" in r.stdout
    r = CliRunner().invoke(app, ["search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--db",
                                 db_url, "--next-move"], env={"COLUMNS": "80"})
    assert "elsewhere" in r.stdout and "tenuki" not in r.stdout


def test_region_continuations_tenuki_and_either_colour(tmp_path: Path, db_url: str, route: str) -> None:
    import_games(tmp_path, db_url, {
        # B aa (1), W ee far off, B ba (3) into the corner after it: a tenuki. With colours exchanged W ee (2) is
        # the pattern in the bottom right corner, and nothing more comes into it.
        "h1.rec": "(;GM[1]SZ[5]PB[A]PW[B]RE[B+R];B[aa];W[ee];B[ba])",
        # W aa (2) is the pattern with colours exchanged; B ab (3) then counts as White, and White's win as Black's.
        "h2.rec": "(;GM[1]SZ[5]PB[C]PW[D]RE[W+R];B[cc];W[aa];B[ab])",
    })
    args = ("search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--db", db_url, "--json")
    conts = {c["move"]: (c["hits"], c["tenuki"], c["games"], c["black_wins"], c["white_wins"])
             for c in json.loads(run(*args).stdout)["continuations"]}
    assert conts == {"B B5": (1, 1, 1, 1, 0)}
    data = json.loads(run(*args, "--either-colour").stdout)
    conts = {c["move"]: (c["hits"], c["tenuki"], c["games"], c["black_wins"], c["white_wins"])
             for c in data["continuations"]}
    assert conts == {"B B5": (1, 1, 1, 1, 0), "W B5": (1, 0, 1, 1, 0), "ended": (1, 0, 1, 0, 1)}
    nexts = {c["move"]: c["hits"] for c in data["next_moves"]}
    assert nexts == {"elsewhere": 2, "W B5": 1}  # the move right after: W ee and B ba are far off


def test_pattern_from_a_region_and_errors(tmp_path: Path, db_url: str) -> None:
    folder = _archive(tmp_path, db_url)
    # g1 after move 1, the region A5:B4 (top left 2x2): X./.. against the top and left edges.
    r = run("search", "--pattern-from", folder / "g1.rec", "--move", "1", "--region", "A5:B4", "--db", db_url,
            "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["pattern"] == ["X.", ".."] and data["anchor"] == ["left", "top"] and data["games"] == 5
    r = run("search", "--pattern-from", folder / "g1.rec", "--move", "1", "--db", db_url)
    assert r.exit_code == 2 and "--region" in r.output
    r = run("search", "--pattern", "XQ", "--db", db_url)
    assert r.exit_code == 2 and "pattern" in r.output


def test_reindex_rebuilds_the_change_lists(tmp_path: Path, db_url: str) -> None:
    _archive(tmp_path, db_url)
    url = db_url if "://" in db_url else f"sqlite:///{db_url}"
    engine = make_engine(url)
    from sqlalchemy import text

    with engine.begin() as conn:
        conn.execute(text("DELETE FROM pattern_line"))
    engine.dispose()
    assert json.loads(run("search", "--pattern", "X", "--size", "5", "--db", db_url, "--json").stdout)["games"] == 0
    assert run("reindex", "--db", db_url, "-q").exit_code == 0
    assert json.loads(run("search", "--pattern", "X", "--size", "5", "--db", db_url, "--json").stdout)["games"] == 6


def test_stored_fast_path_agrees_with_brute_force(tmp_path: Path, db_url: str, route: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "random"
    folder.mkdir()
    rng = random.Random(7)
    for game, size in ((Game.GO, 7), (Game.QUENTIN, 6), (Game.SQUER, 5), (Game.CATION, 5),
                       (Game.CONVERSION_GO, 6)):
        for k in range(12):
            moves, _ = random_game(game, size, 1000 * k + size)
            (folder / f"{game.value}-{k}.rec").write_bytes(write(new_record(game, size, moves, black=f"P{k}",
                                                                            white="Q")))
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    url = db_url if "://" in db_url else f"sqlite:///{db_url}"
    engine = make_engine(url)
    records = {}
    for path in sorted(folder.iterdir()):
        record = read_file(path)[0]
        records.setdefault((record.game, record.size), []).append(record)
    try:
        for (game, size), recs in records.items():
            for text in ("X", "XO", "X./.O", "*X*/O.O", "..X"):
                for anchor in (None, "edge", "corner"):
                    pattern = parse_pattern(text, anchor)
                    either = rng.random() < 0.5
                    found = placements(pattern, game, size, either_colour=either)
                    slow = sorted(b for b in (brute_force(r, found) for r in recs) if b)
                    counts = _region_counts(pattern, found, size, recs)
                    for scan in ("compiled", "python"):  # compiled: when it was built
                        monkeypatch.setenv("RECORDS_SCAN", scan)
                        result = search_pattern(engine, pattern, game, size, Filters(), either_colour=either)
                        fast = sorted(sorted((a.ply, a.placement) for a in h.found) for h in result.hits)
                        assert fast == slow, (game, text, anchor, scan)
                        got = {(c.colour, c.local): (c.hits, c.tenuki, c.games) for c in result.continuations}
                        assert got == counts, (game, text, anchor, scan)
    finally:
        engine.dispose()


def _region_counts(pattern, found, size: int, recs) -> dict:
    """(colour, local) -> (hits, tenuki, games) of the continuations in the region, from the reference replay."""
    out: dict = {}
    for n, rec in enumerate(recs):
        for ply, k, m in brute_force_continuations(rec, pattern, found):
            if m is None:
                key: tuple = ("", None)
            else:
                colour = 3 - m[2] if found[k].swapped else m[2]
                key = ("B" if colour == 1 else "W", region_points(pattern, found[k], size)[m[1]])
            hits, tenuki, games = out.get(key, (0, 0, set()))
            out[key] = (hits + 1, tenuki + (m is not None and m[0] > ply + 1), games | {n})
    return {key: (h, t, len(g)) for key, (h, t, g) in out.items()}


def test_readme_pattern_examples_work(tmp_path: Path, monkeypatch) -> None:
    import shlex

    root = ROOT
    readme = (root / "README.md").read_text()
    block = readme.split("### search by pattern", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(root)
    db = str(tmp_path / "archive.db")
    commands = [shlex.split(line.split("#")[0]) for line in block.strip().splitlines()]
    assert commands[0] == ["records", "import", "examples"]
    assert run("import", "examples", "--db", db, "-q").exit_code in (0, 1)
    for args in commands[1:]:
        r = run(*args[1:], "--db", db)
        assert r.exit_code == 0, (args, r.output)
        assert "appearance" in r.stdout


def test_docs_worked_example_works_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worked example of docs/patterns.md: its files, its commands, and the rows of its two tables."""
    import shlex

    docs = (ROOT / "docs" / "patterns.md").read_text()
    section = docs.split("## A worked example", 1)[1].split("\n## ", 1)[0]
    script, rest = section.split("```sh", 1)[1].split("```", 1)
    tables = [block.split("```", 1)[0] for block in rest.split("```\n")[1::2]]
    monkeypatch.chdir(tmp_path)
    outputs = []
    for line in script.strip().splitlines():
        args = shlex.split(line)
        if args[0] == "printf":
            Path(args[-1]).write_text(args[1])
            continue
        assert args[0] == "records"
        r = CliRunner().invoke(app, args[1:], env={"COLUMNS": "100"})
        assert r.exit_code == 0, (args, r.output)
        outputs.append(r.stdout)
    assert len(tables) == 2
    for table, out in zip(tables, outputs[1:], strict=True):
        got = [line.split() for line in out.splitlines()]
        for row in table.strip().splitlines():
            assert row.split() in got, (row, out)
    # The drawing of the section on the output is the first search's.
    drawing = docs.split("## Output", 1)[1].split("```\n", 2)[1].split("```", 1)[0]
    assert drawing.strip() and [line.rstrip() for line in outputs[1].splitlines()[:len(drawing.splitlines())]] == [
        line.rstrip() for line in drawing.splitlines()]


def test_docs_commands_work(tmp_path: Path) -> None:
    """Every other `records` command in the shell blocks of docs/patterns.md, as a shell runs it (the quoting as
    written), on an archive of the examples (`records.db`, the default) with `more/` to import: none fails (exit 1
    is "nothing found"). The worked example is checked above; the benchmark commands take an hour."""
    import os
    import subprocess
    import sys

    docs = (ROOT / "docs" / "patterns.md").read_text()
    worked = docs.split("## A worked example", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in docs.replace(worked, "").split("```sh")[1:]]
    commands = [line.split("  #")[0].strip() for b in blocks for line in b.strip().splitlines()]
    commands = [c for c in commands if c.startswith("records ")]
    assert len(commands) >= 5, commands
    bin_dir = Path(sys.executable).parent
    assert run("import", ROOT / "examples", "--db", tmp_path / "records.db", "-q").exit_code in (0, 1)
    (tmp_path / "more").mkdir()
    for f in sorted((ROOT / "examples" / "go").glob("*.rec")):
        (tmp_path / "more" / f.name).write_bytes(f.read_bytes())
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", COLUMNS="100")
    env.pop("RECORDS_DB", None)
    for command in commands:
        r = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode in (0, 1) and "Traceback" not in r.stderr, (command, r.stdout, r.stderr)
