"""Crosstables and tie-breaks against small events worked out by hand (docs/tournaments.md states the readings)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest

from boardrecords.archive.core.names import identity_key
from boardrecords.archive.tournaments.crosstable import crosstable, natural_key, pairing_from_row, round_number


def row(n: int, game: str, black: str, white: str, result: str | None, *, ro: str | None = None,
        swapped: bool = False, day: int = 1, status: str = "agrees", verdict: str = "pass") -> SimpleNamespace:
    """A game row as the archive stores it: `black`/`white` as PB/PW, the final colours after a swap."""
    method = {"F": "forfeit", "R": "resign", "0": "draw"}.get((result or "?").split("+")[-1], "unknown")
    if result == "0":
        method = "draw"
    winner = result[0] if result and result[0] in "BW" else None
    return SimpleNamespace(
        id=n, game=game, black=black, white=white,
        black_final=white if swapped else black, white_final=black if swapped else white,
        result=result, result_method=method, result_winner=winner, winner_colour=winner,
        computed_result="0" if result == "0" else "?", result_checked=True, swapped=swapped, round=ro,
        date_first=dt.date(2024, 3, day), result_status=status, verdict=verdict, source_file=f"{n}.rec",
        source_index=0)


def table_of(event: str, rows: list[SimpleNamespace]):
    pairings = [pairing_from_row(r, identity_key) for r in rows]
    return crosstable(event, [p for p in pairings if p is not None])


def summary(table) -> list[tuple]:
    return [(s.name, s.points, s.tie_breaks, [table.cell_text(c) for c in s.cells]) for s in table.standings]


def test_go_event_with_a_draw_a_forfeit_and_byes():
    # Three players, three rounds, one game a round: each round one player has a bye (1 point: the only one out).
    rows = [
        row(1, "go-ing", "Ann", "Bob", "B+R", ro="Round 1"),
        row(2, "go-ing", "Bob", "Cy", "0", ro="R2"),  # a jigo
        row(3, "go-ing", "Cy", "Ann", "W+F", ro="3 (final)"),  # Ann wins by forfeit
    ]
    t = table_of("Spring", rows)
    assert t.rounds == [1, 2, 3] and t.rounds_from == "RO"
    assert t.tie_break_names == ("SOS", "SOSOS", "SODOS")
    # Ann 1 + bye 1 + forfeit 1 = 3; Bob 0 + 1/2 + bye 1 = 1.5; Cy bye 1 + 1/2 + 0 = 1.5.
    # SOS counts games played on the board only: Ann: Bob 1.5; Bob: Ann 3 + Cy 1.5; Cy: Bob 1.5.
    # SOSOS: Ann: SOS(Bob) 4.5; Bob: SOS(Ann) 1.5 + SOS(Cy) 1.5; Cy: SOS(Bob) 4.5.
    # SODOS: Ann beat Bob (1.5); Bob drew Cy (1.5 / 2); Cy drew Bob (1.5 / 2). Bob is second on SOS.
    assert summary(t) == [
        ("Ann", 3.0, {"SOS": 1.5, "SOSOS": 4.5, "SODOS": 1.5}, ["2B+", "bye1", "3W+f"]),
        ("Bob", 1.5, {"SOS": 4.5, "SOSOS": 3.0, "SODOS": 0.75}, ["1W-", "3B=", "bye1"]),
        ("Cy", 1.5, {"SOS": 1.5, "SOSOS": 4.5, "SODOS": 0.75}, ["bye1", "2W=", "1B-f"]),
    ]


def test_swiss_cation_event_with_a_swap():
    rows = [
        # Round 1: Pat starts with Black, Quinn takes the swap: Quinn holds Black, Pat White; White wins: Pat.
        row(1, "cation", "Pat", "Quinn", "W+", ro="1", swapped=True),
        row(2, "cation", "Rex", "Sam", "B+", ro="1"),
        row(3, "cation", "Pat", "Rex", "W+", ro="2"),
        row(4, "cation", "Quinn", "Sam", "B+", ro="2"),
    ]
    t = table_of("Cation club", rows)
    assert t.tie_break_names == ("Buchholz", "SB")
    # Points: Rex 2, Pat 1, Quinn 1, Sam 0. Buchholz: Pat Quinn 1 + Rex 2 = 3; Quinn Pat 1 + Sam 0 = 1;
    # Rex Sam 0 + Pat 1 = 1; Sam Rex 2 + Quinn 1 = 3. SB: Pat beat Quinn (1); Quinn beat Sam (0); Rex beat Sam (0)
    # and Pat (1). Pat is ahead of Quinn on Buchholz.
    assert summary(t) == [
        ("Rex", 2.0, {"Buchholz": 1.0, "SB": 1.0}, ["4B+", "2W+"]),
        ("Pat", 1.0, {"Buchholz": 3.0, "SB": 1.0}, ["3Ws+", "1B-"]),
        ("Quinn", 1.0, {"Buchholz": 1.0, "SB": 0.0}, ["2Bs-", "4B+"]),
        ("Sam", 0.0, {"Buchholz": 3.0, "SB": 0.0}, ["1W-", "3W-"]),
    ]


def test_event_without_ro_takes_rounds_from_date_order_and_a_record_without_result():
    rows = [
        row(1, "quentin", "Xi", "Yu", "B+", day=1),
        row(2, "quentin", "Zoe", "Wen", "B+", day=1),
        row(3, "quentin", "Xi", "Zoe", "W+", day=2),
        row(4, "quentin", "Yu", "Wen", None, day=2),  # no result: 0 for both, left out of the tie-breaks
    ]
    t = table_of("Quentin open", rows)
    assert t.rounds == [1, 2] and t.rounds_from == "date order"
    # Zoe 2, Xi 1, Wen 0, Yu 0. Buchholz: Xi Yu 0 + Zoe 2 = 2; Zoe Wen 0 + Xi 1 = 1; Yu Xi 1; Wen Zoe 2.
    # SB: Zoe beat Wen (0) and Xi (1); Xi beat Yu (0). Wen is ahead of Yu on Buchholz.
    assert summary(t) == [
        ("Zoe", 2.0, {"Buchholz": 1.0, "SB": 1.0}, ["3B+", "2W+"]),
        ("Xi", 1.0, {"Buchholz": 2.0, "SB": 0.0}, ["4B+", "1B-"]),
        ("Wen", 0.0, {"Buchholz": 2.0, "SB": 0.0}, ["1W-", "4W?"]),
        ("Yu", 0.0, {"Buchholz": 1.0, "SB": 0.0}, ["2W-", "3B?"]),
    ]


def test_date_order_puts_a_day_in_several_rounds_and_an_absent_player_scores_nothing():
    rows = [
        row(1, "squer", "A", "B", "B+", day=5),
        row(2, "squer", "C", "D", "W+", day=5),
        row(3, "squer", "A", "C", "B+", day=5),  # A and C played already that day: the next round
        row(4, "squer", "B", "D", "B+", day=6),
    ]
    t = table_of("Squer cup", rows)
    assert [p for p in t.rounds] == [1, 2]
    cells = {s.name: [t.cell_text(c) for c in s.cells] for s in t.standings}
    assert cells["A"][0].endswith("B+") and cells["A"][1].endswith("B+")
    assert [c.round for s in t.standings if s.name == "B" for c in s.cells] == [1, 2]


def test_two_records_of_one_pair_in_a_round_both_count_and_two_missing_players_score_no_bye():
    rows = [
        row(1, "go-ing", "Ann", "Bob", "B+R", ro="1"),
        row(2, "go-ing", "Bob", "Ann", "B+R", ro="1"),
        row(3, "go-ing", "Cy", "Dan", "W+R", ro="2"),
    ]
    t = table_of("Match", rows)
    by_name = {s.name: s for s in t.standings}
    assert by_name["Ann"].points == 1.0 and by_name["Bob"].points == 1.0
    assert [t.cell_text(c) for c in by_name["Ann"].cells] == [f"{t.rank_of(identity_key('Bob'))}B+",
                                                              f"{t.rank_of(identity_key('Bob'))}W-", "bye0"]
    assert by_name["Cy"].cells[0].outcome == "bye" and by_name["Cy"].cells[0].points == 0.0


def test_marks_for_unconfirmed_results_and_failing_records():
    rows = [
        row(1, "go-ing", "Ann", "Bob", "B+T", ro="1", status="unconfirmed"),
        row(2, "go-ing", "Ann", "Bob", "W+R", ro="2", verdict="invalid", status="disagrees"),
    ]
    t = table_of("Marks", rows)
    ann = next(s for s in t.standings if s.name == "Ann")
    assert [t.cell_text(c) for c in ann.cells] == ["2B+*", "2B-!"]


def test_gen_8_a_result_outside_the_vocabulary_scores_the_verdicts_winner():
    # GEN-8, who won everywhere: text that names no one winner is unrecognised, so the computed winner of the
    # finished game counts.
    r = row(1, "go-ing", "Ann", "Bob", None, ro="1", status="unrecognised")
    r.result, r.winner_colour = "not counted", "W"
    t = table_of("Judged", [r])
    assert t.standings[0].name == "Bob" and t.standings[0].points == 1.0


@pytest.mark.parametrize(("text", "number"), [("3", 3), ("Round 3", 3), ("R3", 3), ("3 (final)", 3), ("final", None),
                                              (None, None)])
def test_round_numbers(text, number):
    assert round_number(text) == number


def test_natural_order_of_files():
    assert sorted(["10-a.sgf", "2-b.sgf", "1-c.sgf"], key=natural_key) == ["1-c.sgf", "2-b.sgf", "10-a.sgf"]


def test_several_games_in_one_event_are_refused():
    with pytest.raises(ValueError, match="several games"):
        table_of("Mixed", [row(1, "go-ing", "A", "B", "B+R"), row(2, "squer", "A", "B", "B+")])
