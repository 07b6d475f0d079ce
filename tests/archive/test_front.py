"""The archive's front door (archive/front.py, `Archive`) over the examples, on SQLite and PostgreSQL: each
question's typed answer, its JSON the same object as the command's `--json`, and the errors of the family of
common/errors.py (a board size out of the game's range the same for the CLI and the web application)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardrecords.archive.answers import (
    JSON_FIELDS,
    Exploration,
    GamePage,
    PatternAnswer,
    ReachedPage,
    StoredRecord,
)
from boardrecords.archive.core.filters import Filters
from boardrecords.archive.front import Archive
from boardrecords.common.errors import InputError, NotFound
from boardrecords.records.games import Game
from boardrecords.verifier.keys.targets import target_of_moves

from ..shared import EXAMPLES, run


def cli_json(db: str, *args: object) -> Any:
    """The command's `--json` over the archive `db`."""
    done = run(*args, "--json", "--db", db)
    assert done.exit_code in (0, 1), done.output
    return json.loads(done.stdout)


@pytest.fixture
def db(db_url: str) -> str:
    done = run("import", "-q", "--db", db_url, EXAMPLES)
    assert done.exit_code == 0, done.output
    return db_url


@pytest.fixture
def archive(db: str) -> Iterator[Archive]:
    with Archive(db) as opened:
        yield opened


# -- games ----------------------------------------------------------------------------------------------------

def test_search_pages_through_the_games_and_counts_them(archive: Archive, db: str) -> None:
    everything = archive.search(limit=None)
    assert isinstance(everything, GamePage) and everything.total == len(everything.games) > 6
    assert everything.to_json() == cli_json(db, "search", "--limit", "0")
    assert list(everything.to_json()[0]) == list(JSON_FIELDS)
    first, second = archive.search(limit=3), archive.search(limit=3, offset=3)
    assert first.total == second.total == everything.total
    assert [g.id for g in first.games + second.games] == [g.id for g in everything.games[:6]]
    # Criteria by name are merged into the filters given.
    go = archive.search(Filters(game="go"), sort="-moves", limit=2, player="*")
    assert go.to_json() == cli_json(db, "search", "--game", "go", "--sort", "-moves", "--limit", "2", "--player", "*")
    assert {g.game for g in go.games} == {"go-ing"} and go.total >= 2


def test_search_refuses_what_it_cannot_answer(archive: Archive) -> None:
    with pytest.raises(InputError, match="no search filter colour"):
        archive.search(colour="B")
    with pytest.raises(InputError, match="not a date"):
        archive.search(date_from="yesterday")
    with pytest.raises(InputError):
        archive.search(sort="bogus")


def test_filters_given_by_name_are_read_as_the_faces_read_them(archive: Archive) -> None:
    # Checked when the question is asked (Filters.parse), as the CLI's options and the web's parameters are.
    with pytest.raises(InputError, match="--size 99: Go"):
        archive.search(game="go", size=99)
    with pytest.raises(InputError, match="verdict"):
        archive.search(verdict="fine")
    assert archive.search(game="go", verdict="PASS").to_json() == archive.search(
        Filters(game="go-ing", verdict="pass")).to_json()
    # A filter given by name joins the filters given whole.
    both = archive.search(Filters(game="go-ing"), size=9)
    assert both.games and all(g.game == "go-ing" and g.size == 9 for g in both.games)


def test_export_gives_the_original_bytes_as_the_command_writes_them(archive: Archive, db: str) -> None:
    go = archive.search(game="go", sort="id", limit=2).games
    ids = [go[1].id, 10**6, go[0].id]
    chosen = archive.export(ids)
    assert [r.id for r in chosen.rows] == [go[1].id, go[0].id] and chosen.missing == [10**6]
    assert chosen.collection() == run("export", go[1].id, go[0].id, "--db", db).stdout_bytes
    assert [data for _, data in chosen.files()] == [r.raw for r in chosen.rows]
    assert all(name.startswith(f"{r.id}.") for (name, _), r in zip(chosen.files(), chosen.rows, strict=True))
    # Ids narrowed by filters; filters alone in the order asked.
    assert archive.export(ids, game="cation").rows == []
    cation = archive.export(game="cation", sort="-moves")
    assert [r.id for r in cation.rows] == [g.id for g in archive.search(game="cation", sort="-moves", limit=None).games]


def test_record_is_the_show_commands_answer(archive: Archive, db: str) -> None:
    rid = archive.search(game="cation", limit=1).games[0].id
    assert rid is not None
    stored = archive.record(rid)
    assert isinstance(stored, StoredRecord)
    assert stored.row.id == rid and stored.record.game is Game.CATION
    assert stored.to_json() == cli_json(db, "show", rid)
    with pytest.raises(NotFound, match="no record 999999 in the archive"):
        archive.record(999999)


def test_signature_search_and_duplicates(archive: Archive, db: str) -> None:
    signed = [g for g in archive.search(limit=None).games if g.signature]
    assert signed
    found = archive.signature_search(signed[0].signature or "")
    assert signed[0].id in [g.id for g in found.games] and found.total == len(found.games)
    assert found.to_json() == cli_json(db, "search", "--signature", signed[0].signature)
    with pytest.raises(InputError, match="--signature"):
        archive.signature_search("not a signature", size=9)
    assert archive.duplicates().to_json() == cli_json(db, "duplicates")


# -- positions and patterns ------------------------------------------------------------------------------------

def test_reached_by_moves_or_by_a_target(archive: Archive, db: str) -> None:
    played = archive.explore(game="go", size=9).continuation_json()[0]
    move = played["move"].split()[-1]  # `B E5` -> E5
    page = archive.reached(move, game="go", size=9)
    assert isinstance(page, ReachedPage) and page.total == len(page.found) == played["games"] > 0
    assert page.to_json() == cli_json(db, "search", "--after", move, "--game", "go", "--size", "9")
    assert {g["at_move"] for g in page.to_json()} == {1}
    same = archive.reached(target_of_moves(move, Game.GO, 9), Filters(game="go", size=9))
    assert same.to_json() == page.to_json()
    first = archive.reached(move, game="go", size=9, limit=1)
    assert len(first.found) == 1 and first.total == page.total


def test_explore_continuations_openings_and_the_games_that_reached_it(archive: Archive, db: str) -> None:
    found = archive.explore("", game="go", size=9, games=5)
    assert isinstance(found, Exploration) and found.openings is None and found.continuations
    assert found.to_json() == cli_json(db, "explore", "--game", "go", "--size", "9")
    assert found.reached is not None and found.reached.total == found.total
    after = archive.explore("E5", Filters(game="go", size=9))
    assert after.to_json() == cli_json(db, "explore", "E5", "--game", "go", "--size", "9")
    squer = archive.explore(game="squer", size=7)
    assert not squer.pie and squer.to_json() == cli_json(db, "explore", "--game", "squer", "--size", "7")
    size = archive.search(game="quentin", limit=1).games[0].size
    pie = archive.explore(game="quentin", size=size)
    assert pie.pie and "swapped" in pie.to_json()["continuations"][0]
    assert pie.to_json() == cli_json(db, "explore", "--game", "quentin", "--size", size)
    openings = archive.explore(game="conversion-go", size=6, games=3)
    assert openings.openings is not None and openings.to_json()["openings"]
    assert openings.to_json() == cli_json(db, "explore", "--game", "conversion-go", "--size", "6")
    with pytest.raises(InputError, match="'Z99'"):
        archive.explore("Z99")


def test_pattern_search_by_rows_and_from_a_stored_record(archive: Archive, db: str) -> None:
    answer = archive.pattern_search("X", game="go", size=9)
    assert isinstance(answer, PatternAnswer) and answer.total == len(answer.shown) > 0
    assert answer.to_json() == cli_json(db, "search", "--pattern", "X", "--game", "go", "--size", "9")
    one = archive.pattern_search("X", game="go", size=9, limit=1, offset=1)
    assert [r.id for r, _ in one.shown] == [r.id for r, _ in answer.shown[1:2]]
    rid = answer.shown[0][0].id
    assert rid is not None
    taken = archive.pattern_search(pattern_from=rid, region="A9:C7", move=None)
    assert taken.board is not None and (taken.game, taken.size) == (Game.GO, 9)
    assert taken.pattern.width == taken.pattern.height == 3 and taken.origin == (0, 0)
    with pytest.raises(InputError, match="not both"):
        archive.pattern_search("X", pattern_from=rid, region="A9:C7")
    with pytest.raises(InputError, match="needs --region"):
        archive.pattern_search(pattern_from=rid)
    with pytest.raises(NotFound):
        archive.pattern_search(pattern_from=999999, region="A9:C7")
    with pytest.raises(InputError, match="anchor"):
        archive.pattern_search("X", anchor="middle")


# -- boards: the same check for every question and both faces ----------------------------------------------

def test_a_board_size_out_of_the_games_range_is_refused_once_for_every_question(archive: Archive) -> None:
    said = "--size 99: Quentin is played on 3x3 to 52x52"
    for ask in (lambda: archive.board(game="quentin", size=99), lambda: archive.explore(game="quentin", size=99),
                lambda: archive.reached("c3", game="quentin", size=99),
                lambda: archive.pattern_search("X", game="quentin", size=99)):
        with pytest.raises(InputError) as caught:
            ask()
        assert str(caught.value).startswith(said)
    assert archive.board() == (Game.GO, 19)
    with pytest.raises(InputError, match="unknown game 'chess'"):
        archive.board(game="chess")


def test_the_cli_and_the_web_refuse_a_size_out_of_range_alike(db: str) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from boardrecords.web.app import create_app

    done = run("explore", "--game", "quentin", "--size", "2", "--db", db)
    assert done.exit_code == 2
    with TestClient(create_app(db), raise_server_exceptions=False, base_url="http://localhost") as client:
        got = client.get("/api/explore", params={"game": "quentin", "size": "2"})
        page = client.get("/explore", params={"game": "quentin", "size": "2"})
    assert got.status_code == page.status_code == 400
    assert done.output.strip() == f"error: {got.json()['error']}"
    assert got.json()["error"].startswith("--size 2: Quentin is played on 3x3")


# -- statistics and tournaments -----------------------------------------------------------------------------

def test_stats_players_events(archive: Archive, db: str) -> None:
    assert archive.stats().to_json() == cli_json(db, "stats")
    assert archive.stats(game="cation", players=0).to_json() == cli_json(db, "stats", "--game", "cation",
                                                                         "--players", "0")
    assert archive.players().to_json() == cli_json(db, "players")
    assert archive.players("go").to_json() == cli_json(db, "players", "--game", "go")
    assert archive.events().to_json() == cli_json(db, "events")
    assert "Quentin open" in {e.name for e in archive.events("quentin").events}
    assert "Quentin open" not in {e.name for e in archive.events("cation").events}
    with pytest.raises(InputError, match="unknown game 'chess'"):
        archive.players("chess")


def test_crosstable_and_ratings(archive: Archive, db: str) -> None:
    table = archive.crosstable("autumn club TOURNAMENT")
    assert table.table.event == "Autumn club tournament"
    assert len(table.to_json()["standings"]) == 4 and table.to_json()["rounds"] == [1, 2]
    assert table.to_json() == cli_json(db, "crosstable", "Autumn club tournament")
    with pytest.raises(NotFound, match="no records of event 'nothing here'"):
        archive.crosstable("nothing here")
    with pytest.raises(InputError, match="several games"):
        archive.crosstable("Examples of invalid records")
    assert archive.ratings().to_json() == cli_json(db, "ratings")
    mine = archive.ratings(player="Alice Martin")
    assert mine.mine and mine.to_json() == cli_json(db, "ratings", "--player", "Alice Martin")
    assert len(archive.ratings(limit=1).shown) <= len({r.game for r in archive.ratings().shown})
    with pytest.raises(NotFound, match="no rated records of 'Nobody'"):
        archive.ratings(player="Nobody")


def test_an_archive_that_is_not_there_is_an_archive_error(tmp_path: Path) -> None:
    from boardrecords.archive.core.db import ArchiveError

    with pytest.raises(ArchiveError, match="no archive at"):
        Archive(str(tmp_path / "missing.db"))
