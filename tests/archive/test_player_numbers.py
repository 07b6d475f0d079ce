"""Players' federation numbers: kept on the player (from a tournament file or set by hand), joining spellings
that share one across events (as an alias does: players, crosstables and search see one player), and conflicts
reported, never merged. The join on its own (archive/core/numbers.py), then through the archive on both
databases, then the commands."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from boardrecords import Archive
from boardrecords.archive.core.numbers import HAND, KINDS, NumberRow, join
from boardrecords.cli.main import app

SMALL = (Path(__file__).parent / "tournament_files" / "small.xml").read_bytes()


def _row(key: str, source: str = "t1", **numbers: str) -> NumberRow:
    return NumberRow(key, key, source, numbers)


def test_one_pin_two_spellings_one_player() -> None:
    found = join({}, [_row("aadams", egd_pin="1"), _row("aliceadams", egd_pin="1"), _row("bob", egd_pin="2")])
    assert found.aliases.get("aadams", "aadams") == found.aliases.get("aliceadams", "aliceadams")
    assert "bob" not in found.aliases and not found.conflicts
    rep = found.aliases.get("aadams", "aadams")
    assert found.numbers[rep].egd_pin == "1"


def test_two_pins_for_one_spelling_is_a_conflict_and_joins_nobody() -> None:
    found = join({}, [_row("alice", egd_pin="1"), _row("alice", "t2", egd_pin="2"), _row("other", egd_pin="1")])
    assert not found.aliases  # neither PIN joins: the spelling has two
    (c,) = found.conflicts
    assert (c.kind, c.values) == ("egd_pin", ("1", "2")) and "2 EGD PINs" in c.message
    assert found.numbers["alice"].egd_pin == ""


def test_a_number_set_by_hand_wins() -> None:
    found = join({}, [_row("alice", egd_pin="1"), _row("alice", HAND, egd_pin="2"), _row("al", egd_pin="2")])
    assert not found.conflicts
    assert found.aliases in ({"al": "alice"}, {"alice": "al"})


def test_a_join_that_would_give_two_numbers_is_refused() -> None:
    found = join({}, [_row("a", egd_pin="1", aga_id="7"), _row("b", egd_pin="1", aga_id="8")])
    assert not found.aliases
    (c,) = found.conflicts
    assert c.kind == "aga_id" and "not joined" in c.message


def test_aliases_and_numbers_together() -> None:
    # "al" is an alias of "alice"; "ali" shares alice's PIN: all three are one player, never a chain
    found = join({"al": "alice"}, [_row("alice", egd_pin="1"), _row("ali", egd_pin="1")])
    assert {found.aliases.get(k, k) for k in ("al", "alice", "ali")} == {"alice"}
    # an alias joining two spellings of different PINs: one player (the alias says so), the PINs a conflict
    found = join({"b": "a"}, [_row("a", egd_pin="1"), _row("b", egd_pin="2")])
    assert found.conflicts and found.conflicts[0].kind == "egd_pin"


ROWS = st.lists(st.builds(lambda k, s, e, a: NumberRow(k, k, s, {"egd_pin": e, "aga_id": a}),
                          st.sampled_from("abcdef"), st.sampled_from(["", "t1", "t2"]), st.sampled_from(["", "1", "2"]),
                          st.sampled_from(["", "7", "8"])), max_size=12)


@given(ROWS)
def test_joined_players_never_hold_two_numbers_of_a_kind(rows: list[NumberRow]) -> None:
    found = join({}, rows)
    assert all(c not in found.aliases for c in found.aliases.values())  # no chain
    groups: dict[str, set[str]] = {}
    for k in {r.key for r in rows}:
        groups.setdefault(found.aliases.get(k, k), set()).add(k)
    for members in groups.values():
        for kind in KINDS:
            own = set()
            for k in members:  # each key's own numbers: a join of its rows alone
                alone = join({}, [r for r in rows if r.key == k])
                value = alone.numbers[k].get(kind) if k in alone.numbers else ""
                own |= {value} - {""}
            assert len(own) <= 1 or len(members) == 1


def _records(folder: Path) -> None:
    folder.mkdir()
    games = [("A. Adams", "Björn Berg", "W+R", "Cup 2023", "1"), ("Alice Adams", "Dan Do", "B+R", "Cup 2024", "1"),
             ("Adams, Alice", "Eve Ek", "B+R", "Cup 2024", "2")]
    for i, (black, white, result, event, ro) in enumerate(games):
        folder.joinpath(f"g{i}.sgf").write_text(
            f"(;FF[4]GM[1]SZ[9]KM[6.5]EV[{event}]RO[{ro}]DT[{event[-4:]}-05-0{i + 1}]PB[{black}]PW[{white}]"
            f"RE[{result}];B[ee];W[cc])\n",
            encoding="utf-8")


def test_archive_joins_spellings_by_pin(db_url: str, tmp_path: Path) -> None:
    _records(tmp_path / "records")
    with Archive(db_url, create=True) as archive:
        archive.import_paths([tmp_path / "records"], workers=1)
        archive.import_tournament(SMALL)  # Alice Adams: EGD PIN 12345678
        before = [p.spellings for p in archive.players().players if p.spellings & {"A. Adams", "Alice Adams"}]
        # "Adams, Alice" is "Adams Alice": one with Alice Adams through the file's PIN; A. Adams apart
        assert sorted(before, key=len) == [{"A. Adams"}, {"Alice Adams", "Adams, Alice"}]
        assert archive.set_player_numbers("A. Adams", egd_pin="12345678") == {"egd_pin": "12345678"}
        players = {p.name: p for p in archive.players().players}
        (adams,) = [p for p in players.values() if "A. Adams" in p.spellings]
        assert adams.games == 3 and adams.spellings == {"A. Adams", "Alice Adams", "Adams, Alice"}
        assert adams.to_json()["egd_pin"] == "12345678" and players["Björn Berg"].to_json()["aga_id"] == "777"
        assert archive.search(player="A. Adams").total == 3  # search sees one player
        assert archive.explore("", game="go", size=9, player="A. Adams").to_json()["games"] == 3  # the explorer
        table = archive.crosstable("Cup 2024").table
        assert len(table.standings) == 3  # Adams once, with both games
        rated = [r for r in archive.ratings(game="go").shown if r.name in adams.spellings]
        assert [r.games for r in rated] == [3]  # the ratings see one player too
        numbers = archive.player_numbers()
        assert not numbers.conflicts
        assert {"A. Adams", "Alice Adams"} <= set(next(p for p in numbers.players
                                                      if p.numbers.egd_pin == "12345678").spellings)
        archive.set_player_numbers("A. Adams", egd_pin="")  # removed: apart again
        assert "A. Adams" in {p.name for p in archive.players().players}


def test_conflicting_files_reported_not_merged(db_url: str, tmp_path: Path) -> None:
    other = (SMALL.decode("utf-8").replace('shortName="small-open-2024"', 'shortName="small-open-2025"')
             .replace('name="Small Open 2024"', 'name="Small Open 2025"')
             .replace('egfPin="12345678"', 'egfPin="87654321"').encode("utf-8"))
    with Archive(db_url, create=True) as archive:
        assert archive.import_tournament(SMALL).conflicts == []
        answer = archive.import_tournament(other)
        assert answer.to_json()["conflicts"] and {c.kind for c in answer.conflicts} == {"egd_pin"}
        assert "12345678, 87654321" in answer.conflicts[0].message
        adams = [p for p in archive.player_numbers().players if "Alice Adams" in p.spellings]
        assert [p.numbers.egd_pin for p in adams] == [""]  # neither PIN is the player's
        archive.set_player_numbers("Alice Adams", egd_pin="12345678")  # the director decides
        assert not [c for c in archive.player_numbers().conflicts if "Alice Adams" in c.players]


def test_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    xml = tmp_path / "small.xml"
    xml.write_bytes(SMALL)
    _records(tmp_path / "records")
    run = CliRunner().invoke
    assert run(app, ["import", str(tmp_path / "records"), "--db", db]).exit_code == 0
    assert run(app, ["tournament", "import", str(xml), "--db", db]).exit_code == 0
    result = run(app, ["numbers", "set", "A. Adams", "--egd", "12345678", "--aga", "55", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["egd_pin"] == "12345678"
    listed = json.loads(run(app, ["numbers", "list", "--json", "--db", db]).stdout)
    (adams,) = [p for p in listed["players"] if p["egd_pin"] == "12345678"]
    assert adams["aga_id"] == "55" and "A. Adams" in adams["spellings"]
    players = json.loads(run(app, ["players", "--json", "--db", db]).stdout)
    assert [p["egd_pin"] for p in players if "A. Adams" in p["spellings"]] == ["12345678"]
    table = run(app, ["players", "--db", db], env={"COLUMNS": "200"}).stdout
    assert "EGD 12345678" in table
    bad = run(app, ["numbers", "set", "A. Adams", "--egd", "12 34; x", "--db", db])
    assert bad.exit_code == 2 and "is not a number" in bad.output and "Traceback" not in bad.output
    assert run(app, ["numbers", "set", "A. Adams", "--db", db]).exit_code == 2


def test_the_check_matches_a_spelling_by_its_pin(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    folder.joinpath("r1.sgf").write_text("(;FF[4]GM[1]SZ[9]KM[6.5]EV[Small Open 2024]RO[1]PB[Björn Berg]PW[A. Adams]"
                                         "RE[W+R];B[ee];W[cc];B[resign])\n", encoding="utf-8")
    with Archive(str(tmp_path / "a.db"), create=True) as archive:
        archive.import_paths([folder], workers=1)
        archive.import_tournament(SMALL)
        before = {d.kind for d in archive.check_tournament("Small Open 2024").disagreements if d.record}
        archive.set_player_numbers("A. Adams", egd_pin="12345678")  # Alice Adams's PIN in the file
        after = {d.kind for d in archive.check_tournament("Small Open 2024").disagreements if d.record}
    assert before == {"no-pairing"} and after == set()  # matched to round 1 board 1, where White won
