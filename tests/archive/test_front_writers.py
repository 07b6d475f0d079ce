"""The writers of `Archive` (archive/front.py), SQLite and PostgreSQL: an import with its progress and its Ctrl-C, a
fix and its undo and history, a delete, the aliases and a reindex, each through the one object; every writer
refused on an archive opened read-only; and `records import` giving what the library gives."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, text

from boardrecords.archive.core.filters import Filters
from boardrecords.archive.front import Archive
from boardrecords.archive.store import importer
from boardrecords.archive.store.curate import FixError, Unchanged
from boardrecords.archive.store.importer import ImportInterrupted, ImportProgress
from boardrecords.archive.tournaments.players import AliasError
from boardrecords.common.errors import ArchiveError, InputError, NotFound

from ..shared import exact_counts, run, write_folder
from ..verifier.test_signature import rows_game, sgf

GAMES = {
    "g1.rec": "(;GM[1]SZ[9]PB[Eve]PW[Fay]EV[Cup]DT[2022-01-01]RE[B+R];B[bb];W[ef];B[dg];W[gc];B[cc];W[resign])",
    "g2.rec": "(;GM[1]SZ[9]PB[Gus]PW[Eve]EV[Cup]DT[2022-02-02]RE[W+R];B[bb];W[de];B[cd];W[gg];B[resign])",
    "q1.rec": "(;GM[Quentin]SZ[5]PB[Ann]PW[Bo]DT[2024-01-02]RE[B+];B[bc];W[swap];W[cc];B[dd])",
}


def _imported(tmp_path: Path, db: str) -> Path:
    folder = write_folder(tmp_path, "games", GAMES)
    with Archive(db, create=True) as archive:
        assert archive.import_paths([folder], workers=1).new == len(GAMES)
    return folder


def _id(engine: Engine, name: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT id FROM game WHERE source_file LIKE :f"), {"f": f"%{name}"}).scalar_one())


def _count(engine: Engine, sql: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar() or 0)


def test_import_paths_stores_reports_progress_and_skips_what_it_holds(tmp_path: Path, db_url: str,
                                                                     engine: Engine) -> None:
    folder = write_folder(tmp_path, "games", {**GAMES, "broken.sgf": "not a record\n"})
    steps: list[tuple[str, int, int, int]] = []

    def progress(step: ImportProgress) -> None:
        steps.append((Path(step.file.path).name, step.summary.files, step.total, step.summary.records))

    with Archive(db_url, create=True) as archive:
        summary = archive.import_paths([folder, tmp_path / "absent.sgf"], workers=1, batch_size=2, progress=progress)
    assert (summary.files, summary.records, summary.new, summary.unreadable) == (4, 3, 3, 1)
    assert summary.missing == [f"{tmp_path / 'absent.sgf'}: no such file or folder"]
    assert not summary.ok
    assert steps == [("broken.sgf", 1, 4, 0), ("g1.rec", 2, 4, 1), ("g2.rec", 3, 4, 2), ("q1.rec", 4, 4, 3)]
    assert _count(engine, "SELECT count(*) FROM game") == 3
    with Archive(db_url, write=True) as archive:
        again = archive.import_paths([folder / "g1.rec", folder / "g2.rec"], workers=1)
    assert (again.new, again.duplicates, again.ok) == (0, 2, True)
    exact_counts(engine)


def test_import_paths_keeps_near_duplicates_out_when_asked(tmp_path: Path, db_url: str, engine: Engine) -> None:
    game = sgf(rows_game(80))
    first = write_folder(tmp_path, "first", {"game.sgf": game})
    # Other bytes, the same moves and players: a near-duplicate; its first 40 moves between other players: none
    # (too short a line to be one game whoever plays it).
    more = write_folder(tmp_path, "more", {"same.sgf": game.replace("PB[A]", "PB[A]GC[a comment]"),
                                           "other.sgf": sgf(rows_game(40)).replace("PB[A]PW[B]", "PB[C]PW[D]")})
    with Archive(db_url, create=True) as archive:
        assert archive.import_paths([first], workers=1).new == 1
        summary = archive.import_paths([more], workers=1, skip_duplicates=True)
    assert (summary.new, summary.skipped) == (1, 1)
    assert [(d.source, d.like, d.kind, d.stored) for d in summary.near_duplicates] == [
        (f"{more / 'same.sgf'}#0", "#1", "same-game", False)]
    assert _count(engine, "SELECT count(*) FROM game") == 2


def test_ctrl_c_during_import_paths_counts_the_committed_batches(tmp_path: Path, db_url: str, engine: Engine,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    write_rows = importer.write_rows
    calls = 0

    def committed_then_interrupted(*args: Any, **kwargs: Any) -> set[str]:
        nonlocal calls
        calls += 1
        stored = write_rows(*args, **kwargs)
        if calls == 2:
            raise KeyboardInterrupt  # after the second batch's commit, before its answer is counted
        return stored

    monkeypatch.setattr(importer, "write_rows", committed_then_interrupted)
    folder = write_folder(tmp_path, "games", GAMES)
    with Archive(db_url, create=True) as archive, pytest.raises(ImportInterrupted) as caught:
        archive.import_paths([folder], workers=1, batch_size=1)
    assert isinstance(caught.value, KeyboardInterrupt)
    assert caught.value.summary.new == 2 == _count(engine, "SELECT count(*) FROM game")
    monkeypatch.undo()
    with Archive(db_url, write=True) as archive:
        assert archive.import_paths([folder], workers=1).new == 1
    exact_counts(engine)


def test_fix_undo_fix_and_history(tmp_path: Path, db_url: str, engine: Engine) -> None:
    _imported(tmp_path, db_url)
    gid = _id(engine, "g1.rec")
    with Archive(db_url, write=True) as archive:
        row = archive.fix(gid, {"PB": "Eva", "RO": "3"})
        assert (row.id, row.black, row.round) == (gid, "Eva", "3")
        imported = row.result_status
        row = archive.fix(gid, [("RE", "W+R"), ("RO", "")])  # pairs; an empty value removes the property
        assert (row.result, row.round) == ("W+R", None)
        assert row.result_status != imported  # verified again: White resigned, RE now says otherwise
        versions = archive.history(gid)
        assert [v.version for v in versions] == [1, 2]
        assert [v.change for v in versions] == ["PB=Eva; RO=3", "RE=W+R; RO="]
        assert b"PB[Eve]" in versions[0].raw
        with pytest.raises(Unchanged):
            archive.fix(gid, {"PB": "Eva"})
        restored = archive.undo_fix(gid)
        assert (restored.result, restored.round, restored.black) == ("B+R", "3", "Eva")
        assert len(archive.history(gid)) == 3
        assert archive.history(_id(engine, "g2.rec")) == []
        for settings, says in (({"B": "cc"}, "are not fixed this way"), ({"pb": "x"}, "not a property to set"),
                               ({}, "give one or more settings")):
            with pytest.raises(FixError, match=says):
                archive.fix(gid, settings)
        with pytest.raises(FixError, match="never fixed"):
            archive.undo_fix(_id(engine, "g2.rec"))
        with pytest.raises(LookupError, match="no record 999"):
            archive.fix(999, {"PB": "Nobody"})
    exact_counts(engine)


def test_delete_by_ids_criteria_or_filters_with_a_confirmation(tmp_path: Path, db_url: str, engine: Engine) -> None:
    _imported(tmp_path, db_url)
    g1, g2, q1 = (_id(engine, n) for n in ("g1.rec", "g2.rec", "q1.rec"))
    asked: list[int] = []

    def refuse(n: int) -> bool:
        asked.append(n)
        return False

    with Archive(db_url, write=True) as archive:
        assert archive.delete(Filters(event="Cup"), confirm=refuse) == []
        assert asked == [2]
        assert _count(engine, "SELECT count(*) FROM game") == 3  # refused: nothing deleted
        wrongs: list[tuple[dict[str, Any], str]] = [({}, "name record ids or give search filters"),
                                                    ({"colour": "B"}, "no search filter colour")]
        for wrong, says in wrongs:
            with pytest.raises(InputError, match=says):
                archive.delete(**wrong)
        with pytest.raises(NotFound, match="no records match"):
            archive.delete(event="Nowhere")
        with pytest.raises(NotFound, match="no records match"):
            archive.delete(ids=[999], confirm=refuse)
        assert asked == [2]  # nothing matched: not asked
        assert archive.delete(ids=[q1]) == [q1]
        assert sorted(archive.delete(Filters(event="Cup"), game="go-ing", confirm=lambda n: n == 2)) == sorted([g1, g2])
    assert _count(engine, "SELECT count(*) FROM game") == 0
    assert _count(engine, "SELECT count(*) FROM position_game") == 0
    exact_counts(engine)


def test_alias_aliases_and_remove_alias(tmp_path: Path, db_url: str) -> None:
    _imported(tmp_path, db_url)
    with Archive(db_url, write=True) as archive:
        assert archive.aliases() == []
        made = archive.alias("Eve", "Eva", "E. V.")
        assert made == [("eva", "eve"), ("ev", "eve")]
        assert {a.name for a in archive.aliases()} == {"Eva", "E. V."}
        assert {a.player for a in archive.aliases()} == {"Eve"}
        with pytest.raises(AliasError, match="at least one other spelling"):
            archive.alias("Eve")
        with pytest.raises(AliasError, match="must not be empty"):
            archive.alias("Eve", "  ")
        assert archive.remove_alias("Eva") == 1
        assert [a.name for a in archive.aliases()] == ["E. V."]
        assert archive.remove_alias("Eve") == 1  # a player others were made: all of them
        assert archive.remove_alias("Eve") == 0
        assert archive.aliases() == []


def test_reindex_rebuilds_what_the_import_made(tmp_path: Path, db_url: str, engine: Engine) -> None:
    _imported(tmp_path, db_url)
    positions = _count(engine, "SELECT count(*) FROM position")
    lines = _count(engine, "SELECT count(*) FROM pattern_line")
    done: list[int] = []
    with Archive(db_url, write=True) as archive:
        summary = archive.reindex(batch=2, progress=done.append)
    assert tuple(summary) == (3, positions, lines, 0)
    assert summary.to_json() == {"records": 3, "positions": positions, "change_lists": lines, "verdicts_updated": 0}
    assert done == [2, 3]
    exact_counts(engine)


WRITERS: dict[str, Callable[[Archive], object]] = {
    "import records": lambda a: a.import_paths([]),
    "fix a record": lambda a: a.fix(1, {"PB": "Someone"}),
    "undo a fix": lambda a: a.undo_fix(1),
    "delete records": lambda a: a.delete(ids=[1]),
    "make an alias": lambda a: a.alias("Eve", "Eva"),
    "remove an alias": lambda a: a.remove_alias("Eve"),
    "reindex": lambda a: a.reindex(),
}


def test_every_writer_is_refused_on_an_archive_opened_read_only(tmp_path: Path, db_url: str, engine: Engine) -> None:
    _imported(tmp_path, db_url)
    with engine.connect() as conn:
        before = [tuple(r) for r in conn.execute(text("SELECT id, sha256 FROM game ORDER BY id"))]
    with Archive(db_url) as archive:
        for what, writer in WRITERS.items():
            with pytest.raises(ArchiveError) as caught:
                writer(archive)
            message = str(caught.value)
            assert message.startswith(f"cannot {what}: the archive ") and "was opened read-only" in message
            assert "Archive(db, write=True)" in message
            assert "records:records@" not in message  # no password in messages
        assert archive.history(1) == [] and archive.aliases() == []  # the reads among them answer
    with engine.connect() as conn:
        assert [tuple(r) for r in conn.execute(text("SELECT id, sha256 FROM game ORDER BY id"))] == before


def test_records_import_gives_what_import_paths_gives(tmp_path: Path) -> None:
    folder = write_folder(tmp_path, "games", {**GAMES, "again.rec": GAMES["g2.rec"], "broken.sgf": "no\n"})
    cli = run("import", folder, "--db", tmp_path / "cli.db", "-q", "--json", "-j", "1")
    assert cli.exit_code == 1  # the unreadable file
    with Archive(str(tmp_path / "lib.db"), create=True) as archive:
        summary = archive.import_paths([folder], workers=1)
    assert json.loads(cli.stdout) == summary.to_json()
