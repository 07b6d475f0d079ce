"""Official tournaments: an OpenGotha file read (players, federation numbers, pairings, byes, results, settings),
stored and read back on SQLite and PostgreSQL, a later save replacing it, and hostile or broken files refused
with a message and nothing changed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardrecords import Archive
from boardrecords.archive.tournaments.opengotha import TournamentFileError, parse_tournament, rank_value
from boardrecords.common.errors import InputError, NotFound

FILES = Path(__file__).parent / "tournament_files"
SMALL = (FILES / "small.xml").read_bytes()


def _edited(data: bytes, old: str, new: str) -> bytes:
    text = data.decode("utf-8")
    assert old in text
    return text.replace(old, new, 1).encode("utf-8")


def test_small_file_read_whole() -> None:
    t = parse_tournament(SMALL)
    assert (t.name, t.short_name, t.location) == ("Small Open 2024", "small-open-2024", "Berlin")
    assert (str(t.begin), str(t.end), t.komi, t.size, t.rounds) == ("2024-05-04", "2024-05-05", 6.5, 19, 3)
    assert t.settings["mm_bar"] == 1 and t.settings["mm_floor"] == -20  # 2D and 20K on OpenGotha's scale
    assert t.settings["criteria"] == ["MMS", "SOSM", "SOSOSM"]  # the NULL criteria left out
    assert (t.settings["mms2_bye"], t.settings["mms2_absent"], t.settings["round_down"]) == (2, 1, True)
    adams, berg, cote = t.players[0], t.players[1], t.players[2]
    assert (adams.egd_pin, adams.country, adams.rank, adams.rank_value, adams.rating) == ("12345678", "DE", "3D", 2,
                                                                                       2250)
    assert berg.aga_id == "777" and cote.ffg_licence == "0512345" and cote.rank == "2K"
    assert cote.key == "CÔTÉCHLOÉ" and cote.full_name == "Chloé Côté"
    by_round = {(p.round, p.board): p for p in t.pairings if not p.bye}
    assert by_round[(1, 2)].result == "B" and by_round[(1, 2)].forfeit and by_round[(1, 2)].handicap == 2
    assert by_round[(2, 1)].result == "=" and by_round[(2, 2)].result == "0"
    assert by_round[(3, 1)].known_colour is False and by_round[(3, 2)].result == "?"
    assert [(p.round, p.white) for p in t.pairings if p.bye] == [(1, "EKEVE"), (2, "DODAN"), (3, "BERGBJÖRN")]


def test_import_stores_and_reads_back(db_url: str) -> None:
    with Archive(db_url, create=True) as archive:
        answer = archive.import_tournament(SMALL, "small.xml")
        assert answer.to_json() == {"tournament": "Small Open 2024", "short_name": "small-open-2024",
                                    "updated": False, "players": 5, "rounds": 3, "pairings": 6, "byes": 3,
                                    "conflicts": []}
        back = archive.tournament("small open 2024")  # the name, spelt as EV might
        assert back == parse_tournament(SMALL)
        assert archive.tournament("Small-Open-2024").name == "Small Open 2024"  # the short name
        with pytest.raises(NotFound):
            archive.tournament("Other Cup")


def test_a_later_save_updates(db_url: str) -> None:
    later = _edited(SMALL, 'result="RESULT_UNKNOWN"', 'result="RESULT_WHITEWINS"')
    later = _edited(later, '<Player agaExpirationDate="" agaId="" club="" country="SE"',
                    '<Player agaExpirationDate="" agaId="" club="Upp" country="SE"')
    with Archive(db_url, create=True) as archive:
        archive.import_tournament(SMALL)
        answer = archive.import_tournament(later)
        assert answer.updated
        back = archive.tournament("small-open-2024")
    assert [p.result for p in back.pairings if p.round == 3 and p.board == 2] == ["W"]
    assert [p.club for p in back.players if p.name == "Ek"] == ["Upp"]
    assert len(back.pairings) == 9 and len(back.players) == 5  # replaced, not added to


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE Tournament [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
<Tournament dataVersion="201"><Players><Player name="&c;" firstName="x" rank="1D"/></Players></Tournament>"""
XXE = b"""<?xml version="1.0"?>
<!DOCTYPE Tournament [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<Tournament dataVersion="201"><Players><Player name="&secret;" firstName="x" rank="1D"/></Players></Tournament>"""

BAD = {
    "not XML": (b"PK\x03\x04 this is a zip", r"is not XML"),
    "empty": (b"", r"is not XML"),
    "another root": (b"<?xml version='1.0'?><Players/>", r"not an OpenGotha tournament file"),
    "billion laughs": (BILLION_LAUGHS, r"declares XML entities"),
    "external entity": (XXE, r"declares XML entities"),
    "unknown version": (_edited(SMALL, 'dataVersion="201"', 'dataVersion="999"'), r"data version 999"),
    "no version": (_edited(SMALL, 'dataVersion="201"', ''), r"dataVersion is missing"),
    "a later OpenGotha": (_edited(SMALL, 'dataVersion="201"', 'fullVersionNumber="4.0.1"'),
                          r"saved by OpenGotha '4.0.1'"),
    "unknown player": (_edited(SMALL, 'whitePlayer="EKEVE"/>', 'whitePlayer="NOBODY"/>'),
                       r"names 'NOBODY', a player the file does not list"),
    "unknown bye player": (_edited(SMALL, 'player="DODAN"', 'player="GHOST"'), r"a ByePlayer of round 2 names"),
    "paired twice": (_edited(SMALL, 'player="EKEVE" roundNumber="1"', 'player="ADAMSALICE" roundNumber="1"'),
                     r"paired twice in round 1"),
    "round out of range": (_edited(SMALL, 'roundNumber="3" tableNumber="2"', 'roundNumber="4" tableNumber="2"'),
                           r"round 4, not 1 to 3"),
    "unknown result": (_edited(SMALL, "RESULT_EQUAL", "RESULT_MAYBE"), r"'RESULT_MAYBE'"),
    "bad rank": (_edited(SMALL, 'rank="5K" rating="1540"', 'rank="50K" rating="1540"'), r"'50K', which is no rank"),
    "bad date": (_edited(SMALL, 'beginDate="2024-05-04"', 'beginDate="May 4th"'), r"beginDate is 'May 4th'"),
    "twice listed": (_edited(SMALL, 'firstName="Eve" grade="5K" name="Ek"', 'firstName="Dan" grade="5K" name="Do"'),
                     r"listed twice"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_files_refused_and_nothing_changed(case: str, db_url: str) -> None:
    data, message = BAD[case]
    with Archive(db_url, create=True) as archive:
        archive.import_tournament(SMALL)
        before = archive.tournament("small-open-2024")
        version = archive.version()
        with pytest.raises(TournamentFileError, match=message) as caught:
            archive.import_tournament(data, "bad.xml")
        assert isinstance(caught.value, InputError)
        assert archive.tournament("small-open-2024") == before
        assert archive.version() == version


def test_entity_text_never_expanded() -> None:
    with pytest.raises(TournamentFileError):
        parse_tournament(XXE)
    # a character reference is no entity: it is read (one to a control character is no XML)
    found = parse_tournament(_edited(SMALL, 'name="Ek"', 'name="E&#x6b; "'))
    assert found.players[-1].name == "Ek"
    with pytest.raises(TournamentFileError, match="is not XML"):
        parse_tournament(_edited(SMALL, 'name="Ek"', 'name="E&#x7;"'))


@given(st.integers(1, 30), st.sampled_from("kK"))
def test_kyu_ranks(n: int, k: str) -> None:
    assert rank_value(f"{n}{k}") == -n


@given(st.text(max_size=5))
def test_rank_value_is_a_rank_or_refused(text: str) -> None:
    try:
        value = rank_value(text)
    except ValueError:
        assert not re.fullmatch(r"\s*([1-9]|[12]\d|30)\s*[kK]\s*|\s*[1-9]\s*[dDpP]\s*", text)
    else:
        assert -30 <= value <= 8


def test_an_older_archive_gets_the_tables_from_a_writer(db_url: str) -> None:
    from sqlalchemy import inspect, text

    with Archive(db_url, create=True) as archive, archive.engine.begin() as conn:
        conn.execute(text("DROP TABLE tournament_pairing"))
        conn.execute(text("DROP TABLE tournament_player"))
        conn.execute(text("DROP TABLE tournament"))
    with Archive(db_url) as archive:  # a reader neither adds them nor fails
        assert not inspect(archive.engine).has_table("tournament")
        with pytest.raises(NotFound):
            archive.tournament("small-open-2024")
    with Archive(db_url, write=True) as archive:
        assert {"tournament", "tournament_player", "tournament_pairing"} <= set(inspect(archive.engine)
                                                                                 .get_table_names())


def test_a_name_with_spaces_keys_as_opengotha_keys_it() -> None:
    """OpenGotha's key drops the spaces of name and first name ("van Ek" "Eve" pairs as VANEKEVE)."""
    data = SMALL.decode("utf-8").replace('name="Ek"', 'name="van Ek"').replace('"EKEVE"', '"VANEKEVE"')
    found = parse_tournament(data.encode("utf-8"))
    assert [p.key for p in found.players if p.name == "van Ek"] == ["VANEKEVE"]
    assert sum("VANEKEVE" in (p.white, p.black) for p in found.pairings) == 3
