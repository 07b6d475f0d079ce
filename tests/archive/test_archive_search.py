"""Search filters on hand-made archive rows (SQLite and PostgreSQL): each filter selects exactly what it says."""

from __future__ import annotations

import datetime as dt
import hashlib
import os

import pytest
from sqlmodel import Session, select

from boardrecords.archive.core import search as search_module
from boardrecords.archive.core.db import make_engine, resolve_url, sqlite_path
from boardrecords.archive.core.models import GameRow, ProblemRow
from boardrecords.archive.core.names import normalise_name
from boardrecords.archive.core.search import (
    FilterError,
    Filters,
    canonical_opening,
    count,
    date_bound,
    search,
)
from boardrecords.archive.store.access import create_schema
from boardrecords.common.settings import Settings

INJECTION = "'; DROP TABLE game; --"


def _row(n: int, **kw) -> GameRow:
    black, white = kw.pop("black", f"Black {n}"), kw.pop("white", f"White {n}")
    swapped = kw.pop("swapped", False)
    black_final, white_final = (white, black) if swapped else (black, white)
    winner_colour = kw.pop("winner_colour", None)
    winner = {"B": black_final, "W": white_final}.get(winner_colour or "")
    moves = kw.pop("moves", "B[pd];W[dp]")
    values = dict(
        sha256=hashlib.sha256(f"row {n}".encode()).hexdigest(), raw=f"(;GM[1]C[row {n}])".encode(),
        game="go-ing", size=19, black=black, white=white, black_final=black_final, white_final=white_final,
        black_norm=normalise_name(black), white_norm=normalise_name(white),
        black_final_norm=normalise_name(black_final), white_final_norm=normalise_name(white_final),
        swapped=swapped, winner_colour=winner_colour, winner_player=winner, winner_norm=normalise_name(winner),
        moves=moves, opening=moves[:240], move_count=moves.count(";") + 1 if moves else 0, valid=True,
        search_text=f"row {n}".casefold(),
    )
    values.update(kw)
    values["verdict"] = "pass" if values["valid"] else "invalid"
    values["event_norm"] = normalise_name(values.get("event"))
    if values.get("date_first"):
        values["date_days"] = (values["date_last"] - values["date_first"]).days
    return GameRow(**values)


@pytest.fixture
def archive(db_url: str):
    engine = make_engine(db_url)
    create_schema(engine)
    rows = [
        _row(1, black="Lee  Sedol", white="AlphaGo", winner_colour="W", event="Google DeepMind Challenge",
             round="4", date_raw="2016-03-13", date_first=dt.date(2016, 3, 13), date_last=dt.date(2016, 3, 13),
             result="B+R", result_canonical="B+R", result_method="resign", result_winner="B"),
        _row(2, black="ＡｌｐｈａＧｏ", white="Ke Jie", winner_colour="B", event="Future of Go", round="1",
             date_raw="2017-05-23,25,27", date_first=dt.date(2017, 5, 23), date_last=dt.date(2017, 5, 27),
             result="B+0.5", result_canonical="B+0.5", result_method="score", result_winner="B",
             moves="B[pd];W[dd];B[pq]"),
        _row(3, game="cation", size=6, black="Ann", white="Bo", swapped=True, swapper_colour="B", winner_colour="B",
             result="B+", result_canonical="B+", result_method="chain", result_winner="B", valid=True,
             moves="B[cc];W[swap-sides];W[dd]", search_text="a comment about the 100% crosscut_rule"),
        _row(4, game="quentin", size=8, black=INJECTION, white="Eve", valid=False, moves="",
             result="W+T", result_canonical="W+T", result_method="time", result_winner="W", winner_colour="W",
             date_raw="2017-12-31", date_first=dt.date(2017, 12, 31), date_last=dt.date(2017, 12, 31)),
    ]
    with Session(engine) as session:
        session.add_all(rows)
        session.commit()
    yield engine
    engine.dispose()


def _ids(engine, sort: str = "id", limit: int | None = 50, **kw) -> list[int]:
    with Session(engine) as session:
        return [r.id for r in search(session, Filters(**kw), sort=sort, limit=limit)]


def test_players_match_either_colour_normalised(archive) -> None:
    assert _ids(archive, player="lee sedol") == [1]
    assert _ids(archive, player="LEE   SEDOL") == [1]  # spacing collapsed, case folded
    assert _ids(archive, player="alphago") == [1, 2]  # NFKC: full-width ＡｌｐｈａＧｏ is AlphaGo
    assert _ids(archive, player="alpha*") == [1, 2]
    assert _ids(archive, player="nobody") == []


def test_black_and_white_include_the_colours_after_a_swap(archive) -> None:
    # Record 3: Ann started with Black; Bo swapped (README pie swap) and finished holding Black.
    assert _ids(archive, black="ann") == [3]
    assert _ids(archive, black="bo") == [3]
    assert _ids(archive, white="ann") == [3]
    assert _ids(archive, black="lee sedol") == [1]
    assert _ids(archive, white="lee sedol") == []


def test_winner_by_colour_or_player(archive) -> None:
    assert _ids(archive, winner="W") == [1, 4]
    assert _ids(archive, winner="black") == [2, 3]
    assert _ids(archive, winner="Bo") == [3]  # the swapper won holding Black
    assert _ids(archive, winner="ke jie") == []


def test_game_size_event_round(archive) -> None:
    assert _ids(archive, game="cation") == [3]
    assert _ids(archive, game="go") == [1, 2]
    assert _ids(archive, game="1") == [1, 2]  # GM[1]
    assert _ids(archive, size=8) == [4]
    assert _ids(archive, event="future of go") == [2]
    assert _ids(archive, round="4") == [1]
    with pytest.raises(FilterError):
        _ids(archive, game="chess")


def test_dates_are_ranges_and_partial_dates_cover_their_span(archive, bound) -> None:
    assert _ids(archive, date_from="2017") == [2, 4]
    assert _ids(archive, date_from="2017-05-26", date_to="2017-05-26") == [2]  # inside 2017-05-23,25,27
    assert _ids(archive, date_to="2016") == [1]
    assert _ids(archive, date_from="2017-06", date_to="2017-11") == []
    assert _ids(archive, date_to="2017-12") == [1, 2, 4]
    with pytest.raises(FilterError):
        date_bound("2017-13", end=False)
    with pytest.raises(FilterError):
        date_bound("May 2017", end=False)


def test_results_by_exact_value_colour_or_method(archive) -> None:
    assert _ids(archive, result="B+R") == [1]
    assert _ids(archive, result="B+Resign") == [1]
    assert _ids(archive, result="resign") == [1]
    assert _ids(archive, result="B+") == [1, 2, 3]
    assert _ids(archive, result="W+") == [4]
    assert _ids(archive, result="B+0.5") == [2]
    assert _ids(archive, result="B+.50") == [2]
    assert _ids(archive, result="chain") == [3]
    assert _ids(archive, result="time") == [4]


def test_valid_swapped_and_move_counts(archive, bound) -> None:
    assert _ids(archive, verdict="invalid") == [4]
    assert _ids(archive, verdict="pass") == [1, 2, 3]
    assert _ids(archive, swapped=True) == [3]
    assert _ids(archive, swapped=False) == [1, 2, 4]
    assert _ids(archive, moves_min=3) == [2, 3]
    assert _ids(archive, moves_max=0) == [4]
    assert _ids(archive, moves_min=2, moves_max=2) == [1]


def test_text_is_a_literal_substring(archive) -> None:
    assert _ids(archive, text="CROSSCUT_rule") == [3]
    assert _ids(archive, text="100%") == [3]
    assert _ids(archive, text="1_0%") == []  # `_` and `%` are not wildcards
    assert _ids(archive, text="row 2") == [2]
    assert _ids(archive, text="10") == [3]  # shorter than a trigram: read from every row
    assert _ids(archive, text='"') == []


@pytest.fixture(params=[None, 1, 10**6], ids=["bound-auto", "all-common", "all-rare"])
def bound(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite reads a range that matches many records without its index, a rare one through it: same answers."""
    monkeypatch.setattr(search_module, "COMMON_BOUND", request.param)


def test_opening_prefix_in_every_spelling(archive, bound) -> None:
    assert _ids(archive, opening="B[pd] W[dp]") == [1]
    assert _ids(archive, opening="pd,dd") == [2]
    assert _ids(archive, opening="pd") == [1, 2]
    assert _ids(archive, opening="B[cc];W[swap-sides];W[dd]") == [3]
    assert _ids(archive, opening="cc swap") == [3]
    assert _ids(archive, opening="cc swap dd") == []  # bare values alternate colours: B[dd], but a swap gave W[dd]
    assert _ids(archive, opening="B[cc] W[swap]") == [3]
    assert canonical_opening("pd, dp ; pass") == "B[pd];W[dp];B[]"
    with pytest.raises(FilterError):
        canonical_opening("B[pd")


def test_opening_in_either_notation(archive, bound) -> None:
    # GEN-10: Go coordinates (Q16 = pd, D4 = dp on 19x19, the default board), any case, or SGF letters.
    assert canonical_opening("Q16,D4") == canonical_opening("pd,dp") == "B[pd];W[dp]"
    assert canonical_opening("q16 B[D4]") == "B[pd];B[dp]"
    assert _ids(archive, opening="Q16 D4") == [1]
    assert _ids(archive, opening="Q16,D16") == [2]
    # The connection games in a1-style coordinates, on the board of --game and --size: cc on 6x6 is c4.
    assert canonical_opening("c4 swap", "cation", 6) == "B[cc];W[swap-sides]"
    assert _ids(archive, game="cation", size=6, opening="c4 swap") == [3]
    assert _ids(archive, game="cation", size=6, opening="B[c4] W[swap] W[d3]") == [3]
    assert canonical_opening("d3-e1 d3-", "cation", 5) == "B[dc-ee];W[dc-]"
    assert canonical_opening("sweep-3 sweep-c", "squer", 5) == "B[sweep-c];W[sweep-c]"
    assert canonical_opening("Q16", "go", 9 + 10) == "B[pd]"
    assert canonical_opening("D13", "conversion-go") == "B[dd]"  # Conversion Go's default board is 16x16
    with pytest.raises(FilterError, match="give --size"):
        canonical_opening("c4", "cation")
    with pytest.raises(FilterError, match="no column I"):
        canonical_opening("I5")
    with pytest.raises(FilterError, match="Q16"):
        canonical_opening("Z99")


def test_sort_and_limit(archive, bound) -> None:
    assert _ids(archive, sort="-id") == [4, 3, 2, 1]
    assert _ids(archive, sort="-moves") == [3, 2, 1, 4]  # ties broken by id, in the same direction
    assert _ids(archive, sort="date") in ([1, 2, 4, 3], [3, 1, 2, 4])  # NULL dates sort first or last by database
    assert _ids(archive, sort="-date", limit=1) in ([4], [3])
    assert _ids(archive, limit=2) == [1, 2]
    assert _ids(archive, sort="-date", moves_min=1, opening="pd") == [2, 1]
    assert _ids(archive, sort="-moves", date_from="2016", moves_max=3, opening="B[pd]") == [2, 1]
    with pytest.raises(FilterError):
        _ids(archive, sort="colour")


def test_sql_injection_name_is_only_a_name(archive) -> None:
    assert _ids(archive, player=INJECTION) == [4]
    assert _ids(archive, black=INJECTION, text=INJECTION) == []
    assert _ids(archive, event=INJECTION, opening="pd") == []
    with Session(archive) as session:
        assert count(session, Filters()) == 4  # the table is still there, with every row


def test_problems_cascade_with_their_game(archive) -> None:
    with Session(archive) as session:
        game = session.exec(select(GameRow).where(GameRow.id == 4)).one()
        session.add(ProblemRow(game_id=game.id, code="occupied", message="point occupied (QUE-3)", move=3,
                               rule="QUE-3"))
        session.commit()
        assert [p.rule for p in game.problems] == ["QUE-3"]
        session.delete(game)
        session.commit()
        assert session.exec(select(ProblemRow)).all() == []
    assert _ids(archive, text="row 4") == []  # the text index follows the deletion
    assert _ids(archive, text="crosscut") == [3]


def test_normalise_name() -> None:
    assert normalise_name("  Lee\tSe  dol ") == "lee se dol"
    assert normalise_name("ＫＥ") == "ke"
    assert normalise_name("STRASSE") == normalise_name("straße")
    assert normalise_name("   ") is None
    assert normalise_name(None) is None


def test_db_location(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RECORDS_DB", raising=False)
    assert sqlite_path(resolve_url(None)) == tmp_path / "records.db"
    monkeypatch.setenv("RECORDS_DB", str(tmp_path / "env.db"))
    assert sqlite_path(resolve_url(None)) == tmp_path / "records.db"  # the library reads no environment
    assert sqlite_path(resolve_url(Settings.from_environment(os.environ).db)) == tmp_path / "env.db"
    assert sqlite_path(resolve_url("x.db")) == tmp_path / "x.db"
    assert resolve_url("postgresql+psycopg://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
