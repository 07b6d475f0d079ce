"""Dyer signatures in the archive (SQLite and PostgreSQL): stored at import and by reindex, shown by `show`,
`search --signature` in any symmetry, the copies of one game in its symmetries found at import
(`--skip-duplicates`) and by `records duplicates`, and an archive made before the column."""

from __future__ import annotations

import json
from pathlib import Path

from boardrecords.archive.core.db import make_engine
from boardrecords.verifier.keys.symmetry import all_symmetries

from ..shared import run
from ..verifier.test_signature import rows_game, sgf

SIG = "acbecglcmeng"


def _copies(folder: Path, names: tuple[str, str] = ("A", "B")) -> None:
    """The game of tests/verifier/test_signature.py in its 8 symmetries, each with other headers."""
    folder.mkdir()
    for sym in all_symmetries(19):
        text = sgf(rows_game(80), sym=sym).replace("PB[A]PW[B]", f"PB[{names[0]}]PW[{names[1]}]EV[copy {sym.number}]")
        (folder / f"copy{sym.number}.sgf").write_text(text)


def test_signature_stored_shown_searched_and_duplicates(tmp_path: Path, db_url: str) -> None:
    _copies(tmp_path / "copies")
    r = run("import", tmp_path / "copies", "--db", db_url, "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert summary["new"] == 8 and summary["skipped"] == 0
    near = summary["near_duplicate_sources"]
    assert len(near) == 7 and all(d["like"] and d["kind"] == "same-game" and d["stored"] for d in near)
    show = json.loads(run("show", "1", "--db", db_url, "--json").stdout)
    assert show["signature"] == SIG
    assert SIG in run("show", "1", "--db", db_url).stdout
    # Found from the signature as any copy would give it (here: mirrored left-right), and from the normalised one.
    for text in (SIG, "screqghcgefg"):
        found = json.loads(run("search", "--signature", text, "--db", db_url, "--json").stdout)
        assert sorted(g["id"] for g in found) == list(range(1, 9)) and {g["signature"] for g in found} == {SIG}
    r = run("search", "--signature", "nonsense", "--db", db_url)
    assert r.exit_code == 2
    assert run("search", "--signature", "aaaaaaaaaaaa", "--db", db_url, "--json").exit_code == 1
    groups = json.loads(run("duplicates", "--db", db_url, "--json").stdout)
    assert [g["ids"] for g in groups] == [list(range(1, 9))] and groups[0]["signature"] == SIG
    assert groups[0]["kind"] == "same-game" and groups[0]["keep"] == 1  # all alike: the oldest is kept
    # Another collection: a shorter game with the same signature but other moves is no near-duplicate, nor the
    # same 40 moves between other players (too short a line to be one game whoever plays it); the same game with
    # the same players is, and --skip-duplicates keeps it out.
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "other.sgf").write_text(sgf(rows_game(40)).replace("PB[A]PW[B]", "PB[C]PW[D]"))
    (tmp_path / "more" / "other2.sgf").write_text(sgf(rows_game(40)).replace("PB[A]PW[B]", "PB[E]PW[F]"))
    (tmp_path / "more" / "same.sgf").write_text(sgf(rows_game(80)).replace("PB[A]", "PB[A]GC[a comment]"))
    summary = json.loads(run("import", tmp_path / "more", "--db", db_url, "--json", "--skip-duplicates").stdout)
    assert summary["new"] == 2 and summary["skipped"] == 1 and summary["duplicates"] == 1
    near = summary["near_duplicate_sources"]
    assert [d["source"].rsplit("/", 1)[-1] for d in near] == ["same.sgf#0"]
    assert (near[0]["like"], near[0]["kind"], near[0]["stored"]) == ("#1", "same-game", False)
    # The same bytes again: a duplicate as before, not a near one.
    summary = json.loads(run("import", tmp_path / "copies", "--db", db_url, "--json").stdout)
    assert summary["duplicates"] == 8 and summary["near_duplicate_sources"] == []
    assert summary["duplicate_kinds"] == {"exact": 8, "same-game": 0, "beginning": 0, "longer": 0}


def test_an_archive_made_before_the_column(tmp_path: Path) -> None:
    db = str(tmp_path / "old.db")
    _copies(tmp_path / "copies")
    assert run("import", tmp_path / "copies", "--db", db, "-q").exit_code == 0
    engine = make_engine(db)
    with engine.begin() as conn:  # the layout of the archives made before signatures
        conn.exec_driver_sql("DROP INDEX ix_game_signature")
        conn.exec_driver_sql("ALTER TABLE game DROP COLUMN signature")
    engine.dispose()
    # A read opens it (the column added, empty), reindex fills it.
    r = run("search", "--signature", SIG, "--db", db, "--json")
    assert r.exit_code == 1, r.output
    assert run("reindex", "--db", db, "-q").exit_code == 0
    assert len(json.loads(run("search", "--signature", SIG, "--db", db, "--json").stdout)) == 8
    assert run("duplicates", "--db", db).exit_code == 0


def test_every_json_listing_gives_the_signature(tmp_path: Path, db_url: str) -> None:
    """Every record object of every JSON listing carries `signature` (archive/answers.py: row_json), null for a game
    without one (Cation; Go with fewer than 20 moves)."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "long.sgf").write_text(sgf(rows_game(80)))
    (folder / "short.sgf").write_text("(;GM[1]SZ[19]PB[C]PW[D];B[pd];W[dp])")
    (folder / "cation.rec").write_text("(;GM[Cation]SZ[5]PB[E]PW[F];B[cc];W[bb])")
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    want = {"A": SIG, "C": None, "E": None}

    def signatures(*args: str, key: str | None = None) -> dict[str, str | None]:
        r = run(*args, "--db", db_url, "--json")
        assert r.exit_code == 0, (args, r.output)
        data = json.loads(r.stdout)
        listed = data[key] if key else data
        return {g["black"]: g["signature"] for g in listed}

    assert signatures("search") == want
    assert signatures("search", "--game", "go", "--size", "19") == {"A": SIG, "C": None}
    assert signatures("search", "--after", "Q16", "--size", "19") == {"C": None}
    assert signatures("search", "--after", "A19", "--size", "19") == {"A": SIG}
    assert signatures("search", "--pattern", "X", "--game", "cation", "--size", "5", key="records") == {"E": None}
    assert signatures("search", "--signature", SIG) == {"A": SIG}
    groups = json.loads(run("duplicates", "--db", db_url, "--json").stdout or "[]")
    assert all("signature" in g for grp in groups for g in grp["records"])
    header = run("search", "--db", db_url, "--csv").stdout.splitlines()[0].split(",")
    assert header[-1] == "signature"
