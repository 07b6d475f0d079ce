"""The index of every game's winner by game and size (`ix_game_winners`, archive/core/models.py): made with a new
archive, added when a command that writes opens an archive made before it, and what a pattern search that finds
most games reads the winners from (SQLite reads the index alone, not the rows past each record's bytes)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import inspect, text

from boardrecords import Archive
from boardrecords.archive.patterns.search import all_winners
from boardrecords.records.games import Game


def _games(folder: Path) -> None:
    folder.mkdir()
    for i, result in enumerate(["B+R", "W+R", "", "B+3.5", "Draw"]):
        (folder / f"g{i}.sgf").write_text(f"(;GM[1]FF[4]SZ[9]RE[{result}];B[cc];W[gg];B[cg];W[gc])", encoding="utf-8")


def _has_index(archive: Archive) -> bool:
    return "ix_game_winners" in {ix["name"] for ix in inspect(archive.engine).get_indexes("game")}


def test_the_winners_index_is_made_added_and_read(db_url: str, tmp_path: Path) -> None:
    _games(tmp_path / "files")
    with Archive(db_url, create=True) as archive:
        archive.import_paths([tmp_path / "files"], workers=1)
        assert _has_index(archive)
        winners = all_winners(archive.engine, Game.GO, 9)
        assert sorted(winners.values(), key=str) == sorted(["B", "W", None, "B", None], key=str)
        if archive.engine.dialect.name == "sqlite":
            with archive.engine.connect() as conn:
                plan = " ".join(str(r[-1]) for r in conn.execute(text(
                    "EXPLAIN QUERY PLAN SELECT game.id, game.winner_colour FROM game "
                    "WHERE game.game = 'go-ing' AND game.size = 9")))
            assert "COVERING INDEX ix_game_winners" in plan
    with Archive(db_url, write=True) as archive, archive.engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_game_winners"))
    with Archive(db_url) as old:  # read only: answered without it
        assert not _has_index(old)
        assert all_winners(old.engine, Game.GO, 9) == winners
    with Archive(db_url, write=True) as upgraded:
        assert _has_index(upgraded)
