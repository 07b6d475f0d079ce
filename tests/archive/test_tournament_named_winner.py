"""GEN-8, who won everywhere: a result outside the vocabulary that names one colour as the winner (`B+J` for a
referee's judgement, `W+AW`, `B+Illegal`) credits that colour in crosstables, `players` and `ratings`, as the event
published it, from records imported end to end."""

from __future__ import annotations

import json

from ..shared import import_games, run

# Two rounds of a club cup, none of them played out on the record (a few moves each): the results the referee
# published are outside the vocabulary, three of them naming a winner.
CUP = {
    "r1-a.sgf": "(;GM[1]SZ[9]EV[Club cup]RO[1]DT[2024-05-01]PB[Ann]PW[Bob]RE[B+J];B[ee];W[cc])",
    # Text that names no one winner credits nobody on a game that does not finish.
    "r1-b.sgf": "(;GM[1]SZ[9]EV[Club cup]RO[1]DT[2024-05-01]PB[Cy]PW[Dee]RE[has adjourned.];B[ee];W[cc])",
    "r2-a.sgf": "(;GM[1]SZ[9]EV[Club cup]RO[2]DT[2024-05-02]PB[Cy]PW[Ann]RE[W+AW];B[ee];W[cc])",
    "r2-b.sgf": "(;GM[1]SZ[9]EV[Club cup]RO[2]DT[2024-05-02]PB[Bob]PW[Dee]RE[B+Illegal];B[ee];W[cc])",
}


def _json(*args: str):
    done = run(*args)
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def test_gen_8_a_named_winner_scores_in_the_crosstable(tmp_path, db_url):
    import_games(tmp_path, db_url, CUP)
    table = _json("crosstable", "--db", db_url, "Club cup", "--json")
    # R1 Ann (Black) wins B+J, Cy-Dee has no result; R2 Ann (White) wins W+AW, Bob (Black) wins B+Illegal.
    points = {s["player"]: s["points"] for s in table["standings"]}
    assert points == {"Ann": 2.0, "Bob": 1.0, "Cy": 0.0, "Dee": 0.0}
    ann, bob = table["standings"][:2]
    assert [g["cell"][-2:] for g in ann["games"]] == ["B+", "W+"]
    assert [g["cell"][-2:] for g in bob["games"]] == ["W-", "B+"]


def test_gen_8_a_named_winner_counts_in_players_and_ratings(tmp_path, db_url):
    import_games(tmp_path, db_url, CUP)
    players = {p["player"]: p for p in _json("players", "--db", db_url, "--json")}
    assert (players["Ann"]["games"], players["Ann"]["wins"], players["Ann"]["losses"]) == (2, 2, 0)
    assert (players["Bob"]["wins"], players["Bob"]["losses"]) == (1, 1)
    assert (players["Cy"]["games"], players["Cy"]["wins"], players["Cy"]["losses"]) == (2, 0, 1)
    assert (players["Dee"]["wins"], players["Dee"]["losses"]) == (0, 1)
    ratings = _json("ratings", "--db", db_url, "--json")
    assert ratings["records_rated"] == 3 and ratings["records_left_out"] == {"no result": 1}
    rated = {r["player"]: r for r in ratings["ratings"]}
    assert rated["Ann"]["rating"] > rated["Bob"]["rating"] > rated["Dee"]["rating"]


def test_gen_8_the_11th_uec_cup_ranks_its_published_winner(tmp_path, db_url):
    """The corpus's 11th UEC Cup (two folders, 93 games) publishes 28 of its results as referees' words (`B+J`,
    `W+AW`, ...): counted for the colour they name, Golaxy wins with 12 points, as the cup published; counted for
    nobody, GLOBIS_AQZ came first with 9."""
    import pytest

    from ..shared import CORPUS

    days = [CORPUS / "yenw-computer-go-dataset" / f"the-11th-computer-go-uec-cup-day{n}" for n in (1, 2)]
    if not all(day.is_dir() for day in days):
        pytest.skip(f"the Go corpus is not at {CORPUS} (the shared folder beside the project)")
    done = run("import", *map(str, days), "--db", db_url, "-q")
    assert done.exit_code == 0, done.output
    table = _json("crosstable", "--db", db_url, "11th UEC Cup (UEC Cup 2019)", "--json")
    standings = [(s["player"].casefold(), s["points"]) for s in table["standings"]]  # spelt GOLAXY and Golaxy
    assert standings[0] == ("golaxy", 12.0)
    assert [p for _, p in standings[1:3]] == [9.0, 9.0]
    # Counted for nobody, 28 games scored 0-0; the four left are those whose result names no winner.
    no_result = [g["record"] for s in table["standings"] for g in s["games"] if g["outcome"] == "no-result"]
    assert len(set(no_result)) == 4, no_result
