"""The position index in the archive (SQLite and PostgreSQL): filled at import, exact after deletes and re-imports,
rebuilt by reindex; explore's counts and swap statistics against counts made by hand; search by position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.positions import counts as positions
from boardrecords.cli.main import app

from ..shared import exact_counts, import_games, run

# Every test here runs with the counts kept in each way (tests/conftest.py `counting`).
pytestmark = pytest.mark.usefixtures("counting")

GAMES = {
    # Quentin 5x5: two swapped games (the swapper wins one), one not swapped; one mirrored (left-right).
    "q1.rec": "(;GM[Quentin]SZ[5]PB[Ann]PW[Bo]DT[2024-01-02]RE[B+];B[bc];W[swap];W[cc];B[dd])",
    "q2.rec": "(;GM[Quentin]SZ[5]PB[Cy]PW[Di]DT[2024-03-04]RE[W+];B[bc];W[swap];W[dd])",
    "q3.rec": "(;GM[Quentin]SZ[5]PB[Ann]PW[Di]DT[2023-05-06]RE[B+];B[dc];W[cc])",
    # Go 9x9: one game and its quarter turn.
    "g1.rec": "(;GM[1]SZ[9]PB[Eve]PW[Fay]DT[2022-01-01]RE[B+R];B[cd];W[ef];B[dg];W[gc])",
    "g2.rec": "(;GM[1]SZ[9]PB[Gus]PW[Eve]DT[2022-02-02]RE[W+R];B[fc];W[de];B[cd];W[gg])",
}


def _archive(tmp_path: Path, db: str) -> Path:
    return import_games(tmp_path, db, GAMES)


def test_explore_counts_and_swaps(tmp_path: Path, db_url: str) -> None:
    _archive(tmp_path, db_url)
    r = run("explore", "--game", "quentin", "--size", "5", "--db", db_url, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 3
    # bc and its mirror dc are one opening move (shown as the canonical representative).
    [first] = data["continuations"]
    assert first["games"] == 3 and first["swapped"] == 2 and first["swapper_wins"] == 1
    assert first["black_wins"] == 2 and first["white_wins"] == 1
    # The first player won q3 (no swap) and q2 (Cy holds White after Di's swap; W+), and lost q1 (Bo swapped, B+).
    assert first["mover_wins"] == 2
    assert first["last_played"] == "2024-03-04"
    r = run("explore", "b3", "--game", "quentin", "--size", "5", "--db", db_url, "--json")
    moves = {c["move"]: c for c in json.loads(r.stdout)["continuations"]}
    assert moves["W swap-sides"]["games"] == 2 and moves["W swap-sides"]["mover_wins"] == 1
    assert moves["W c3"]["games"] == 1
    # Filters apply: Ann's games only.
    r = run("explore", "b3", "--game", "quentin", "--size", "5", "--player", "ann", "--db", db_url, "--json")
    moves = {c["move"]: c["games"] for c in json.loads(r.stdout)["continuations"]}
    assert moves == {"W swap-sides": 1, "W c3": 1}
    # Dates (read from the index rows), alone and with a player.
    r = run("explore", "--game", "quentin", "--size", "5", "--from", "2024-01-01", "--db", db_url, "--json")
    assert json.loads(r.stdout)["games"] == 2
    r = run("explore", "--game", "quentin", "--size", "5", "--to", "2024-01-02", "--db", db_url, "--json")
    assert json.loads(r.stdout)["continuations"][0]["last_played"] == "2024-01-02"
    r = run("explore", "--game", "quentin", "--size", "5", "--from", "2024", "--player", "ann", "--db", db_url,
            "--json")
    assert json.loads(r.stdout)["games"] == 1


def test_search_by_position_finds_rotated_games(tmp_path: Path, db_url: str) -> None:
    folder = _archive(tmp_path, db_url)
    r = run("search", "--after", "C6,E4", "--db", db_url, "--json", "--size", "9")
    assert r.exit_code == 0, r.output
    found = json.loads(r.stdout)
    assert sorted(f["at_move"] for f in found) == [2, 2]
    r = run("search", "--like", folder / "g1.rec", "--move", "4", "--db", db_url, "--json")
    assert len(json.loads(r.stdout)) == 2
    r = run("search", "--stones", "B:C6,D3 W:E4", "--size", "9", "--db", db_url, "--json")
    assert {f["black"] for f in json.loads(r.stdout)} == {"Eve", "Gus"}
    r = run("search", "--stones", "B:C6,D3 W:E4", "--size", "9", "--player", "gus", "--db", db_url, "--json")
    assert [f["black"] for f in json.loads(r.stdout)] == ["Gus"]


def test_deletes_reimports_and_reindex_keep_the_index_exact(tmp_path: Path, db_url: str) -> None:
    folder = _archive(tmp_path, db_url)
    url = db_url if "://" in db_url else f"sqlite:///{db_url}"
    engine = make_engine(url)

    def count() -> int:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM position")).scalar() or 0)

    def counts() -> list[tuple[object, ...]]:
        """The counts of the positions that must be counted (a position once counted may stay so below the
        threshold after a delete: exact, but not comparable from one way of filling to another)."""
        rows = exact_counts(engine)
        games: dict[object, int] = {}
        for row in rows:
            games[row[0]] = games.get(row[0], 0) + int(str(row[2]))
        return [row for row in rows if games[row[0]] >= positions.COUNTED_AT]

    full = count()
    assert full == sum(1 + body.count(";") - 1 for body in GAMES.values())
    before = counts()
    # Counted from two rows: 9 positions (among them both starts, Quentin after b3 or its mirror d3, and the five
    # of the Go game and its quarter turn).
    assert len({row[0] for row in before}) == (9 if positions.COUNTED_AT == 2 else 0)
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0  # duplicates: nothing added
    assert count() == full and counts() == before
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys = ON")
        conn.execute(text("DELETE FROM game WHERE source_file LIKE '%q2.rec'"))
    assert count() == full - 4
    after = counts()
    assert after != before or positions.COUNTED_AT > 3
    # The latest game goes: the last date of the start's continuation goes back to the one before.
    r = run("explore", "--game", "quentin", "--size", "5", "--db", db_url, "--json")
    assert json.loads(r.stdout)["continuations"][0]["last_played"] == "2024-01-02"
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM position"))
    assert exact_counts(engine) == []
    r = run("reindex", "--db", db_url, "-q")
    assert r.exit_code == 0, r.output
    assert count() == full - 4
    assert counts() == after
    # Imported again: the deleted record comes back, and the counts with it.
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    assert count() == full and counts() == before
    engine.dispose()


def test_search_by_position_fits_80_columns(tmp_path: Path, db_url: str) -> None:
    folder = _archive(tmp_path, db_url)
    long = ("(;GM[1]SZ[9]PB[Bartholomew Ignatius Featherstonehaugh]PW[Wilhelmina Cholmondeley-Marjoribanks]"
            "EV[The Thirty-Seventh Annual Invitational Championship of Everywhere]RO[12]DT[2021-06-07]RE[W+R]"
            ";B[cd];W[ef];B[dg];W[gc];B[ee];W[ff])")
    (folder / "long.rec").write_text(long)
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    r = CliRunner().invoke(app, ["search", "--after", "C6,E4", "--size", "9", "--db", db_url], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, r.stdout
    header = next(line for line in lines if line.strip()).split()
    # The long names are shortened after a whole word; columns are left out by their priority (cli/tables.py), and
    # the id, the players, the move number and the next move stay.
    assert header[0] == "id" and header[-2:] == ["at", "next"] and {"black", "white"} <= set(header)
    kept = ["id", "game", "date", "black", "white", "result", "verdict", "at", "next"]
    assert header == [h for h in kept if h in header]
    assert "Bartholomew…" in r.stdout or "Bartholomew Ignatius…" in r.stdout
    assert "Gus" in r.stdout
    rows = [line for line in lines if line.rstrip().endswith(("W E4", "W D5", "W E6", "W F5", "B D3", "B C6"))]
    assert rows and all(line.split()[-3] == "2" for line in rows), r.stdout


CONVERSION = {
    # The same opening three times: c2 plays it in another order, c3 is its mirror image (left-right).
    "c1.rec": "(;GM[ConversionGo]SZ[9]PB[Ann]PW[Bo]DT[2024-01-01]RE[B+R];B[cc];B[gg];W[ee];W[swap-sides];W[cg];B[gc])",
    "c2.rec": "(;GM[ConversionGo]SZ[9]PB[Cy]PW[Di]DT[2024-02-01]RE[W+R];W[ee];B[gg];B[cc];W[swap-sides];W[dg])",
    "c3.rec": "(;GM[ConversionGo]SZ[9]PB[Ann]PW[Di]DT[2024-03-01]RE[W+R];B[gc];B[cg];W[ee];W[dd])",
    # Two openings played once: one kept (the first player wins), one with a pass, swapped, the first player wins.
    "c4.rec": "(;GM[ConversionGo]SZ[9]PB[Bo]PW[Ann]DT[2023-01-01]RE[B+R];B[cc];B[dd];W[ff];W[gg])",
    "c5.rec": "(;GM[ConversionGo]SZ[9]PB[Di]PW[Cy]DT[2022-01-01]RE[W+R];B[];B[cc];W[gg];W[swap-sides];W[ee])",
    # Another game and size: not counted.
    "g1.rec": "(;GM[1]SZ[9]PB[Eve]PW[Fay]RE[B+R];B[cd];W[ef];B[dg])",
}


def test_conversion_go_opening_table(tmp_path: Path, db_url: str) -> None:
    folder = tmp_path / "cg"
    folder.mkdir()
    for name, body in CONVERSION.items():
        (folder / name).write_text(body)
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    r = run("explore", "--game", "conversion-go", "--size", "9", "--db", db_url, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 5 and data["turns"] == 3
    first, *others = data["openings"]
    # Counted by hand: c1 swapped and the swapper (Bo, then Black) won; c2 swapped and the first player (Cy, then
    # White) won; c3 kept, White (the second player) won.
    assert first["white"] == ["E5"] and sorted(first["black"]) in (["C3", "G7"], ["C7", "G3"])
    assert {k: first[k] for k in ("games", "swapped", "black_wins", "white_wins", "draws", "first_player_wins",
                                  "second_player_wins", "swapper_wins", "last_played")} == {
        "games": 3, "swapped": 2, "black_wins": 1, "white_wins": 2, "draws": 0, "first_player_wins": 1,
        "second_player_wins": 2, "swapper_wins": 1, "last_played": "2024-03-01"}
    assert first["swap_rate"] == round(2 / 3, 4)
    by_pass = {("pass" in o["black"]): o for o in others}
    kept, passed = by_pass[False], by_pass[True]
    assert len(kept["black"]) == 2 and len(kept["white"]) == 1
    assert (kept["games"], kept["swapped"], kept["black_wins"], kept["first_player_wins"]) == (1, 0, 1, 1)
    assert (passed["games"], passed["swapped"], passed["white_wins"], passed["first_player_wins"],
            passed["swapper_wins"]) == (1, 1, 1, 1, 0)
    assert passed["swap_rate"] == 1.0
    # Filters apply; the table prints.
    r = run("explore", "--game", "conversion-go", "--size", "9", "--player", "ann", "--db", db_url, "--json")
    assert [o["games"] for o in json.loads(r.stdout)["openings"]] == [2, 1]
    r = run("explore", "--game", "conversion-go", "--size", "9", "--db", db_url)
    assert r.exit_code == 0 and "E5" in r.stdout and "67%" in r.stdout
