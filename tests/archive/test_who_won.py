"""GEN-8, "who won, everywhere": every command credits the verdict's winner, and a self-play game is one game that
nobody wins; `reindex` brings verdicts stored under earlier rules up to the rules as they stand."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import text

from boardrecords.archive.core.db import make_engine

from ..shared import import_games, run

# A 7x7 game ended by two passes (no marks): the area count gives Black 28, White 21.
PASSES = (";B[da];W[ea];B[db];W[eb];B[dc];W[ec];B[dd];W[ed];B[de];W[ee];B[df];W[ef];B[dg];W[eg];B[];W[]")
RECORDS = {
    # ING-9: a territory ruleset; the declared winner (White) stands over the area count.
    "japanese.sgf": f"(;GM[1]SZ[7]KM[0.5]RU[Japanese]PB[Aiko]PW[Bruno]RE[W+3.5]{PASSES})",
    # GEN-8: text outside the vocabulary on a finished game: the computed winner (Black).
    "unrecognised.sgf": f"(;GM[1]SZ[7]KM[0.5]PB[Chen]PW[Dara]RE[not counted]{PASSES})",
    # ... but a win by a method outside the vocabulary (a referee's judgement) credits the colour it names (White).
    "judged.sgf": f"(;GM[1]SZ[7]KM[0.5]PB[Eve]PW[Fay]RE[W+J]{PASSES})",
    # ... and on a game that does not finish: nobody.
    "adjourned.sgf": "(;GM[1]SZ[7]PB[Chen]PW[Bruno]RE[has adjourned.];B[da];W[ea])",
    # Self-play: one game, neither won nor lost.
    "self-play.sgf": "(;GM[1]SZ[7]PB[AlphaGo]PW[Alphago]RE[B+R];B[da];W[resign])",
}


def winners(db: str, *args: str) -> dict[str, str | None]:
    done = run("search", "--db", db, "--json", *args)
    assert done.exit_code in (0, 3), done.output
    rows = json.loads(done.stdout) if done.stdout.strip() else []
    return {Path(r["source_file"]).name: r["winner_player"] for r in rows}


def test_gen_8_the_verdicts_winner_in_search_players_and_stats(tmp_path, db_url):
    import_games(tmp_path, db_url, RECORDS)
    assert winners(db_url) == {"japanese.sgf": "Bruno", "unrecognised.sgf": "Chen", "judged.sgf": "Fay",
                               "adjourned.sgf": None, "self-play.sgf": "AlphaGo"}
    assert set(winners(db_url, "--winner", "W")) == {"japanese.sgf", "judged.sgf"}
    assert set(winners(db_url, "--winner", "B")) == {"unrecognised.sgf", "self-play.sgf"}
    assert set(winners(db_url, "--status", "unrecognised")) == {"unrecognised.sgf", "judged.sgf", "adjourned.sgf"}

    players = {p["player"]: p for p in json.loads(run("players", "--db", db_url, "--json").stdout)}
    assert (players["Bruno"]["wins"], players["Bruno"]["losses"]) == (1, 0)
    assert (players["Aiko"]["wins"], players["Aiko"]["losses"]) == (0, 1)
    assert (players["Chen"]["games"], players["Chen"]["wins"], players["Chen"]["losses"]) == (2, 1, 0)
    assert (players["Fay"]["wins"], players["Eve"]["losses"]) == (1, 1)
    alpha = players["AlphaGo"]
    assert (alpha["games"], alpha["wins"], alpha["losses"]) == (1, 0, 0)

    stats = json.loads(run("stats", "--db", db_url, "--json").stdout)
    by_name = {p["name"]: p for p in stats["players"]}
    assert (by_name["AlphaGo"]["games"], by_name["AlphaGo"]["wins"]) == (1, 0)
    assert (by_name["Bruno"]["games"], by_name["Bruno"]["wins"]) == (2, 1)


def test_reindex_brings_stored_verdicts_up_to_the_rules(tmp_path, db_url):
    import_games(tmp_path, db_url, RECORDS)
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:  # as an archive stored under the earlier reading of ING-9 holds it
            conn.execute(text("UPDATE game SET winner_colour = 'B', winner_player = 'Aiko', winner_norm = 'aiko', "
                              "result_status = 'disagrees', verdict = 'wrong-result' WHERE source_file LIKE "
                              "'%japanese.sgf'"))
    finally:
        engine.dispose()
    assert winners(db_url)["japanese.sgf"] == "Aiko"
    done = run("reindex", "--db", db_url, "-q")
    assert done.exit_code == 0, done.output
    assert "1 stored verdicts updated" in done.stdout
    assert winners(db_url)["japanese.sgf"] == "Bruno"
    shown = json.loads(run("search", "--db", db_url, "--json", "--verdict", "wrong-result").stdout or "[]")
    assert shown == []
    again = run("reindex", "--db", db_url, "-q")
    assert "verdicts updated" not in again.stdout
