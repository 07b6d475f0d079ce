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
