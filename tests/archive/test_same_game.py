"""The same game, once (docs/patterns.md): sameness decided on the moves, in `records duplicates` and the Archive
(SQLite and PostgreSQL), in the import's counts, the copy to keep, and the keys kept right by reindex; with
properties of the grouping itself (a record and its cut-off beginning always meet, records whose moves differ
never do)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.core.line_keys import HEAD_MOVES, line_keys
from boardrecords.archive.front import Archive
from boardrecords.archive.patterns.same_game import ANY_PLAYERS, Line, gather
from boardrecords.records.model import MoveKind
from boardrecords.records.points import format_point
from boardrecords.verifier.keys.symmetry import all_symmetries
from boardrecords.verifier.rules.go_ing import GoEngine

from ..shared import ROOT, run, write_folder

FORMATS = ROOT / "tests" / "records" / "formats"


def random_game(n: int, seed: int, size: int = 19) -> list[str]:
    """`n` legal stones of a random game (no pass), as SGF points."""
    rng = random.Random(seed)
    engine = GoEngine(size)
    points: list[str] = []
    while len(points) < n:
        plays = [m for m in engine.legal_moves() if m.kind is MoveKind.PLACE]
        move = rng.choice(plays)
        engine.play(move)
        assert move.point is not None
        points.append(format_point(move.point))
    return points


def sgf(points: list[str], header: str = "", size: int = 19, sym: int = 0) -> str:
    images = all_symmetries(size)[sym]
    moves = "".join(f";{'BW'[k % 2]}[{format_point(images.point((ord(p[0]) - 97, ord(p[1]) - 97)))}]"
                    for k, p in enumerate(points))
    return f"(;GM[1]FF[4]SZ[{size}]{header}{moves})"


def duplicates(db: str) -> list[dict]:
    r = run("duplicates", "--db", db, "--json")
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


def groups_by_file(db: str) -> list[tuple[str, str, list[str]]]:
    """`records duplicates --json` with each record named by its file (the ids of one batch follow the records'
    hashes): (kind, the file kept, the files of the group in id order)."""
    found = []
    for group in duplicates(db):
        files = {r["id"]: r["source_file"].rsplit("/", 1)[-1] for r in group["records"]}
        found.append((group["kind"], files[group["keep"]], [files[i] for i in group["ids"]]))
    return found


# -- two different short games of one pair: never one game ------------------------------------------------------

def two_nine_by_nine() -> dict[str, str]:
    """Two 9x9 games of one pair, 26 and 28 moves, B+R and W+R, move 20 on one point (b5): the same Dyer signature
    (move 20 alone), other games. Stones on every other row never capture."""
    rows = [(c, r) for r in (0, 2, 4, 6) for c in range(9)]
    first = rows[:26]
    second = list(reversed(rows))[:28]
    second.remove(first[19])
    second.insert(19, first[19])
    header = "PB[Ann]PW[Bo]KM[6.5]"

    def text(points: list[tuple[int, int]], result: str) -> str:
        return sgf([format_point(p) for p in points], header + f"RE[{result}]", size=9)

    return {"one.sgf": text(first, "B+R"), "two.sgf": text(second, "W+R")}


def test_two_nine_by_nine_games_of_one_pair_are_two_games(tmp_path: Path, db_url: str) -> None:
    folder = write_folder(tmp_path, "games", two_nine_by_nine())
    r = run("import", folder, "--db", db_url, "--json", "--skip-duplicates")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert (summary["new"], summary["duplicates"], summary["skipped"]) == (2, 0, 0)
    assert summary["near_duplicate_sources"] == []
    r = run("duplicates", "--db", db_url)
    assert r.exit_code == 1 and "no game is stored more than once" in r.output
    with Archive(db_url) as archive:
        found = archive.duplicates()
        assert found.groups == [] and archive.signature_search(archive.record(1).row.signature or "").total == 2


def test_a_beginning_whose_result_names_the_other_winner_is_another_game(tmp_path: Path, db_url: str) -> None:
    """The first 26 moves of a W+R game, declared B+R: a game that ended there, not a cut-off copy."""
    points = random_game(60, seed=3, size=9)
    folder = write_folder(tmp_path, "games", {
        "full.sgf": sgf(points, "PB[Ann]PW[Bo]RE[W+R]", size=9),
        "short.sgf": sgf(points[:26], "PB[Ann]PW[Bo]RE[B+R]", size=9),
        "cut.sgf": sgf(points[:30], "PB[Ann]PW[Bo]", size=9)})
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    [(kind, keep, files)] = groups_by_file(db_url)
    assert (kind, keep, sorted(files)) == ("beginning", "full.sgf", ["cut.sgf", "full.sgf"])


# -- the same moves in another format, a beginning, the copy to keep --------------------------------------------

# An SGF of the game of tests/records/formats/gib-utf8.gib: the same moves, setup and players, fewer header fields.
TWIN_MOVES = ["pp", "cn", "nc", "qn", "cc", "jj"]


def twin(sym: int = 0, players: str = "PB[Lee Sedol]PW[Gu Li]") -> str:
    image = all_symmetries(19)[sym]

    def at(p: str) -> str:
        return format_point(image.point((ord(p[0]) - 97, ord(p[1]) - 97)))

    moves = "".join(f";{'WB'[k % 2]}[{at(p)}]" for k, p in enumerate(TWIN_MOVES))
    return (f"(;GM[1]FF[4]CA[UTF-8]SZ[19]HA[2]KM[0.5]AB[{at('dp')}][{at('pd')}]{players}BR[5d]WR[9d]"
            f"DT[2024-06-04]RE[W+R]{moves})")


def test_a_gib_and_its_sgf_twin_are_one_game(tmp_path: Path, db_url: str) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(FORMATS / "gib-utf8.gib", folder / "a-tygem.gib")
    (folder / "b-twin.sgf").write_text(twin())
    summary = json.loads(run("import", folder, "--db", db_url, "--json").stdout)
    assert summary["new"] == 2 and summary["near_duplicates"] == {"same-game": 1, "beginning": 0, "longer": 0}
    near = summary["near_duplicate_sources"][0]
    assert near["source"].endswith("b-twin.sgf#0") and near["like"].endswith("a-tygem.gib#0") and near["stored"]
    # Other formats: same moves. The GIB names the event and the place too: it holds more, it is kept.
    [(kind, keep, files)] = groups_by_file(db_url)
    assert (kind, keep, sorted(files)) == ("same-moves", "a-tygem.gib", ["a-tygem.gib", "b-twin.sgf"])
    # Another SGF of the game turned a quarter (its setup too) is one game with them; without White's name it is
    # not (a line this short is one game only between the same players).
    more = write_folder(tmp_path, "more", {"turned.sgf": twin(sym=5), "anonymous.sgf": twin(players="PB[Lee Sedol]")})
    summary = json.loads(run("import", more, "--db", db_url, "--json", "--skip-duplicates").stdout)
    assert summary["duplicate_kinds"] == {"exact": 0, "same-game": 1, "beginning": 0, "longer": 0}
    assert [d["source"].rsplit("/", 1)[-1] for d in summary["near_duplicate_sources"]] == ["turned.sgf#0"]
    assert summary["new"] == 1


def test_a_record_cut_off_at_move_150_and_its_250_moves(tmp_path: Path, db_url: str) -> None:
    points = random_game(250, seed=1)
    cut = write_folder(tmp_path, "cut", {"cut.sgf": sgf(points[:150], "PB[Kim]PW[Lee]EV[Club]")})
    full = write_folder(tmp_path, "full", {"full.sgf": sgf(points, "PB[Kim Jiseok]PW[Lee Sedol]RE[B+R]", sym=5)})
    # The beginning stored first: the whole game, as long as it is, is one game with it.
    assert run("import", cut, "--db", db_url, "-q").exit_code == 0
    summary = json.loads(run("import", full, "--db", db_url, "--json").stdout)
    assert [(d["kind"], d["like"], d["moves"], d["like_moves"], d["stored"])
            for d in summary["near_duplicate_sources"]] == [("longer", "#1", 250, 150, True)]
    groups = duplicates(db_url)
    assert [(g["kind"], g["keep"], g["ids"]) for g in groups] == [("beginning", 2, [1, 2])]
    with Archive(db_url) as archive:
        found = archive.duplicates()
    assert [(g.kind, g.keep, g.ids) for g in found.groups] == [("beginning", 2, [1, 2])]
    assert found.kinds() == {"same-game": 0, "same-moves": 0, "beginning": 1}
    r = run("duplicates", "--db", db_url)
    assert r.exit_code == 0 and "a record and its beginning: 2 records, keep #2 (250 moves)" in r.stdout
    # A fix stores the record again with its keys: still one game.
    assert run("fix", "1", "--set", "PB=Kim Jiseok", "--db", db_url).exit_code == 0
    assert [(g["kind"], g["keep"], g["ids"]) for g in duplicates(db_url)] == [("beginning", 2, [1, 2])]
    # With --skip-duplicates every near-duplicate is left out, whichever holds more: the beginning once more in
    # other bytes (one game with #1), its first 200 moves (a beginning of #2), and a longer copy of #2.
    again = write_folder(tmp_path, "again", {"cut2.sgf": sgf(points[:150], "PB[Kim]PW[Lee]EV[Club 2]"),
                                             "mid.sgf": sgf(points[:200], "PB[Kim]PW[Lee]"),
                                             "more.sgf": sgf(random_game(270, seed=1), "PB[Kim]PW[Lee]")})
    summary = json.loads(run("import", again, "--db", db_url, "--json", "--skip-duplicates").stdout)
    assert summary["duplicate_kinds"] == {"exact": 0, "same-game": 1, "beginning": 1, "longer": 1}
    assert (summary["new"], summary["records"], summary["duplicates"]) == (0, 3, 3)
    assert [(d["source"].rsplit("/", 1)[-1], d["like"]) for d in summary["near_duplicate_sources"]] == [
        ("cut2.sgf#0", "#1"), ("mid.sgf#0", "#2"), ("more.sgf#0", "#2")]


def test_the_copy_to_keep_holds_most(tmp_path: Path, db_url: str) -> None:
    """The longest line, then a result, then more header fields, then the oldest."""
    points = random_game(120, seed=2)
    folder = write_folder(tmp_path, "games", {
        "1-short.sgf": sgf(points[:80], "PB[A]PW[B]RE[W+R]EV[Cup]DT[2020-01-01]RO[1]PC[Here]"),
        "2-bare.sgf": sgf(points, "PB[A]PW[B]"),
        "3-result.sgf": sgf(points, "PB[A]PW[B]RE[W+R]"),
        "4-more.sgf": sgf(points, "PB[A]PW[B]RE[W+R]EV[Cup]DT[2020-01-01]"),
        "5-alike.sgf": sgf(points, "PB[A]PW[B]RE[W+R]EV[Cup]DT[2020-01-02]")})
    # One at a time, so that the ids follow the names: 5-alike holds as much as 4-more, which is older.
    for name in sorted(p.name for p in folder.iterdir()):
        assert run("import", folder / name, "--db", db_url, "-q").exit_code == 0
    [(kind, keep, files)] = groups_by_file(db_url)
    assert (kind, keep, len(files)) == ("beginning", "4-more.sgf", 5)


# -- the import's counts ------------------------------------------------------------------------------------

def test_every_record_of_a_folder_is_counted(tmp_path: Path, db_url: str) -> None:
    points = random_game(100, seed=4)
    game = sgf(points, "PB[A]PW[B]")
    folder = write_folder(tmp_path, "games", {
        "a.sgf": game, "b-copy.sgf": game, "c-same.sgf": game.replace("PB[A]", "PB[A]EV[Cup]"),
        "d-cut.sgf": sgf(points[:50], "PB[A]PW[B]"), "e-other.sgf": sgf(random_game(100, seed=5), "PB[A]PW[B]"),
        "f-chess.sgf": "(;GM[Chess]SZ[8];B[aa])", "g-broken.sgf": "not a record"})
    r = run("import", folder, "--db", db_url, "--json")
    assert r.exit_code == 1, r.output  # the broken file and the record of no known game fail the import
    summary = json.loads(r.stdout)
    assert (summary["files"], summary["unreadable"], summary["records"]) == (7, 1, 6)
    # Without --skip-duplicates the near-duplicates are stored, and said to be.
    assert (summary["new"], summary["duplicates"], summary["not_stored"], summary["failed"]) == (4, 1, 1, 0)
    assert summary["duplicate_kinds"] == {"exact": 1, "same-game": 0, "beginning": 0, "longer": 0}
    assert summary["near_duplicates"] == {"same-game": 1, "beginning": 1, "longer": 0} and summary["skipped"] == 0
    assert [d["stored"] for d in summary["near_duplicate_sources"]] == [True, True]
    assert summary["records"] == summary["new"] + summary["duplicates"] + summary["not_stored"]
    # With it, they are duplicates of their kind, not stored.
    more = write_folder(tmp_path, "more", {"h-same.sgf": game.replace("PB[A]", "PB[A]RO[2]"),
                                           "i-cut.sgf": sgf(points[:70], "PB[A]PW[B]"),
                                           "j-new.sgf": sgf(random_game(30, seed=6), "PB[A]PW[B]")})
    summary = json.loads(run("import", more, "--db", db_url, "--json", "--skip-duplicates").stdout)
    assert (summary["records"], summary["new"], summary["duplicates"], summary["skipped"]) == (3, 1, 2, 2)
    assert summary["duplicate_kinds"] == {"exact": 0, "same-game": 1, "beginning": 1, "longer": 0}
    r = run("import", folder, more, "--db", db_url, "--skip-duplicates")
    assert "duplicates: 6 exact (the same bytes), 1 same game, 1 beginning of a stored game\n" in r.stdout


def test_the_import_says_what_each_near_duplicate_is(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    points = random_game(100, seed=6)
    folder = write_folder(tmp_path, "games", {"a.sgf": sgf(points, "PB[A]PW[B]"),
                                              "b.sgf": sgf(points, "PB[A]PW[B]EV[Cup]"),
                                              "c.sgf": sgf(points[:60], "PB[A]PW[B]")})
    r = run("import", folder, "--db", db, "-j", "1")
    assert r.exit_code == 0, r.output
    assert f"same game: {folder / 'b.sgf'}#0 (the 100 moves of {folder / 'a.sgf'}#0; stored)" in r.stderr
    # The beginning of both: named with the one that holds most (b names the event).
    assert (f"beginning of a stored game: {folder / 'c.sgf'}#0 (the first 60 of the 100 moves of "
            f"{folder / 'b.sgf'}#0; stored)") in r.stderr
    assert "stored, though one game with another: 1 same game, 1 beginning of a stored game" in r.stdout
    again = write_folder(tmp_path, "again", {"d.sgf": sgf(points, "PB[A]PW[B]GC[x]")})
    r = run("import", again, "--db", db, "--skip-duplicates")
    with Archive(db) as archive:
        b = next(g.id for g in archive.search().games if g.event == "Cup")
    assert f"same game: {again / 'd.sgf'}#0 (the 100 moves of #{b}; not stored)" in r.stderr
    assert "duplicates: 1 same game" in r.stdout


# -- the keys kept right ------------------------------------------------------------------------------------

def test_reindex_makes_the_keys_of_an_archive_made_before_them(tmp_path: Path, db_url: str) -> None:
    points = random_game(80, seed=7)
    folder = write_folder(tmp_path, "games", {"a.sgf": sgf(points, "PB[A]PW[B]"),
                                              "b.sgf": sgf(points, "PB[A]PW[B]EV[Cup]")})
    assert run("import", folder, "--db", db_url, "-q").exit_code == 0
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE game SET line_hash = NULL, head_hash = NULL"))
    engine.dispose()
    r = run("duplicates", "--db", db_url)
    assert r.exit_code == 1 and "2 records were stored before their moves were indexed" in r.output
    with Archive(db_url, write=True) as archive:
        assert archive.reindex().verdicts_updated == 0  # keys are not verdicts
    assert [g["ids"] for g in duplicates(db_url)] == [[1, 2]]


def test_an_archive_made_before_the_key_columns(tmp_path: Path) -> None:
    db = str(tmp_path / "old.db")
    points = random_game(80, seed=8)
    folder = write_folder(tmp_path, "games", {"a.sgf": sgf(points, "PB[A]PW[B]"),
                                              "b.sgf": sgf(points, "PB[A]PW[B]GC[]")})
    assert run("import", folder, "--db", db, "-q").exit_code == 0
    engine = make_engine(db)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP INDEX ix_game_head_hash")
        conn.exec_driver_sql("ALTER TABLE game DROP COLUMN head_hash")
        conn.exec_driver_sql("ALTER TABLE game DROP COLUMN line_hash")
    engine.dispose()
    assert run("duplicates", "--db", db).exit_code == 1  # read: the columns added, empty
    assert run("reindex", "--db", db, "-q").exit_code == 0
    assert [g["ids"] for g in duplicates(db)] == [[1, 2]]


# -- properties of the grouping ---------------------------------------------------------------------------

def _line(i: int, points: list[str], *, sym: int = 0, players: tuple[str, str] = ("a", "b"),
          winner: str | None = None) -> Line:
    image = all_symmetries(19)[sym]
    moves = ";".join(f"{'BW'[k % 2]}[{format_point(image.point((ord(p[0]) - 97, ord(p[1]) - 97)))}]"
                     for k, p in enumerate(points))
    line_hash, head_hash = line_keys(moves, "go-ing", 19, None)
    return Line.of({"id": i, "sha256": str(i), "game": "go-ing", "size": 19, "moves": moves, "line_hash": line_hash,
                    "head_hash": head_hash, "black_norm": players[0], "white_norm": players[1],
                    "result_winner": winner, "result_method": "resign" if winner else "unknown",
                    "result_canonical": f"{winner}+R" if winner else None})


POINTS = [format_point((c, r)) for c in range(19) for r in range(19)]
lines = st.lists(st.sampled_from(POINTS), min_size=HEAD_MOVES + 1, max_size=120, unique=True)


@settings(max_examples=150, deadline=None)
@given(line=lines, data=st.data())
def test_a_record_and_its_cut_off_beginning_always_meet(line: list[str], data: st.DataObject) -> None:
    cut = data.draw(st.integers(HEAD_MOVES, len(line) - 1))
    sym = data.draw(st.integers(0, 7))
    players = ("a", "b") if cut < ANY_PLAYERS else data.draw(st.sampled_from([("a", "b"), ("c", "d")]))
    full, beginning = _line(1, line, winner="W"), _line(2, line[:cut], sym=sym, players=players)
    assert [[x.id for x in g] for g in gather([beginning, full])] == [[1, 2]]
    assert [[x.id for x in g] for g in gather([_line(3, line, sym=7 - sym), full])] == [[1, 3]]


@settings(max_examples=150, deadline=None)
@given(line=lines, data=st.data())
def test_records_whose_moves_differ_never_meet(line: list[str], data: st.DataObject) -> None:
    """Two lines that part at some move (neither the other's beginning) are never one game, whatever else they
    share: the players, the first 20 moves, the Dyer signature."""
    at = data.draw(st.integers(0, len(line) - 1))
    other = [p for p in POINTS if p not in line]
    changed = [*line[:at], data.draw(st.sampled_from(other)), *line[at + 1:]]
    longer = changed + data.draw(st.lists(st.sampled_from([p for p in other if p not in changed]), max_size=5))
    sym = data.draw(st.integers(0, 7))
    found = gather([_line(1, line), _line(2, longer, sym=sym)])
    assert found == []


def test_the_other_colour_first_is_another_line() -> None:
    """The same points, played by the other colour first, are another line."""
    points = random_game(40, seed=10)
    moves = ";".join(f"{'WB'[k % 2]}[{p}]" for k, p in enumerate(points))
    line_hash, head_hash = line_keys(moves, "go-ing", 19, None)
    swapped = Line.of({"id": 2, "sha256": "2", "game": "go-ing", "size": 19, "moves": moves, "line_hash": line_hash,
                       "head_hash": head_hash, "black_norm": "a", "white_norm": "b"})
    assert gather([_line(1, points), swapped]) == []


@settings(max_examples=60, deadline=None)
@given(line=st.lists(st.sampled_from(POINTS), max_size=60, unique=True), sym=st.integers(0, 7),
       passes=st.integers(0, 2))
def test_the_line_the_worker_sends_is_the_one_computed_from_the_moves(line: list[str], sym: int,
                                                                      passes: int) -> None:
    # The import's worker sends the canonical line its keys came from (CANONICAL_LINE), so that the writer does not
    # compute it again; a stored row (without it) computes it from its moves: both the same, for any symmetry,
    # passes and setup, and for a line of no move.
    from boardrecords.archive.patterns.same_game import CANONICAL_LINE
    from boardrecords.archive.store.record_rows import archive_rows, game_columns
    from boardrecords.records.reader import read_bytes

    text = sgf(line, "AB[dd][pp]" if sym % 2 else "", sym=sym)
    text = text[:-1] + "".join(f";{'BW'[(len(line) + k) % 2]}[]" for k in range(passes)) + ")"
    record = read_bytes(text.encode())[0]
    values, _ = archive_rows(record, source_file="x.sgf")
    assert CANONICAL_LINE not in game_columns(values)
    sent, stored = Line.of(values), Line.of(game_columns(values))
    assert sent._tokens is not None and stored._tokens is None
    assert sent.tokens == stored.tokens
    assert (sent.tokens == []) == (not line and not passes)
