"""Continuations in the region after a move that breaks the pattern, counted by hand, one game each (Conversion Go,
Cation, Quentin, Squer; Go's capture is in tests/verifier/test_patterns_continuations.py): each record is imported,
searched with `records search --pattern ... --json` on SQLite and PostgreSQL, by both scans and both ways of
reading the change lists, and its continuation rows compared with the rows counted in the docstring.

Boards are drawn row by row from the top (row a), X Black, O White. Points are named as the search names them:
where the pattern is drawn (docs/patterns.md), in the game's notation (GEN-10: Conversion Go as Go, the others
a1-style with row 1 at the bottom)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..shared import import_games, run


def _search(db: str, game: str, pattern: str, *options: str) -> dict[str, Any]:
    r = run("search", "--pattern", pattern, "--game", game, "--size", "5", "--db", db, "--json", *options)
    assert r.exit_code == 0, r.output
    data: dict[str, Any] = json.loads(r.stdout)
    return data


def _rows(items: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """(move, colour, hits, tenuki, games, black_wins, white_wins) of each continuation, in the listing's order."""
    return [(c["move"], c.get("colour"), c["hits"], c.get("tenuki"), c["games"], c["black_wins"], c["white_wins"])
            for c in items]


def test_conversion_go_a_conversion_breaks_the_pattern(tmp_path: Path, db_url: str, route: str, scan: str) -> None:
    """Conversion Go 5x5, the pattern `OXO.` with its top row on an edge.

    Moves (CON-5: turns 1-3 are two Black moves and one White, turn 4 a White move): 1 B ba, 2 W aa, 3 B dd,
    4 W ca, 5 B ee, 6 W bb, 7 B da. After 4 the top row reads `OXO..`: the pattern stands at aa-da (its only
    appearance, at 4). 6 W bb (below the region) takes the last liberty of B ba, a group on one side only:
    dead, converted to White (CON-2, CON-3); the row is `OOO..` and the shape is gone. A stone never leaves the
    board (CON-4), so the first move in the region after 4 is 7 B da, its empty point: counted though the
    shape was broken, a tenuki (5 and 6 came between). Drawn against the top edge one column in, da is E5.
    Black won (B+R): one hit, one game, won by Black. The move right after (5 B ee) is far off: elsewhere.

        continuations: B E5   hits 1, tenuki 1, games 1, B won 1, W won 0
        next moves:    elsewhere  hits 1, games 1, B won 1, W won 0
    """
    import_games(tmp_path, db_url, {
        "c.rec": "(;GM[ConversionGo]SZ[5]PB[Ann]PW[Bo]RE[B+R];B[ba];W[aa];B[dd];W[ca];B[ee];W[bb];B[da])"})
    data = _search(db_url, "conversion-go", "OXO.", "--anchor", "top")
    assert (data["appearances"], [g["at_moves"] for g in data["records"]]) == (1, [[4]])
    assert _rows(data["continuations"]) == [("B E5", "B", 1, 1, 1, 1, 0)]
    assert _rows(data["next_moves"]) == [("elsewhere", None, 1, None, 1, 1, 0)]


def test_cation_a_relocation_breaks_the_pattern(tmp_path: Path, db_url: str, route: str, scan: str) -> None:
    """Cation 5x5, the crosscut `XO/OX` anywhere (CAT-2). Cation's stones leave a point by a relocation (CAT-6) or
    a removal (CAT-7); here a relocation.

    Moves: 1 B bb, 2 W cb, 3 B cc, 4 W ee, 5 B ea, 6 W bc. 6 makes the crosscut bb X, cb O / bc O, cc X (legal:
    the opponent's latest stone, ea, is not in it: CAT-4): the pattern's only appearance, at 6. Black must then
    lift a crosscut stone (situation b, CAT-6): 7 B bb-ad moves bb out of the region to ad, and the crosscut is
    gone. 8 W bb (situation a again) is the first move in the region after 6: a tenuki (the relocation came
    between; a relocation counts where the stone went). The pattern has a half turn of its own; the region is
    drawn at b4-c3 (one point in from the top left), bb is named by its first name in reading order, b4. The move
    right after 6 is the relocation to ad, one point from the region: named, through the half turn, d5. White
    won (W+R).

        continuations: W b4   hits 1, tenuki 1, games 1, B won 0, W won 1
        next moves:    B d5   hits 1, games 1, B won 0, W won 1
    """
    import_games(tmp_path, db_url, {
        "k.rec": "(;GM[Cation]SZ[5]PB[Ann]PW[Bo]RE[W+R];B[bb];W[cb];B[cc];W[ee];B[ea];W[bc];B[bb-ad];W[bb])"})
    data = _search(db_url, "cation", "XO/OX")
    assert (data["appearances"], [g["at_moves"] for g in data["records"]]) == (1, [[6]])
    assert _rows(data["continuations"]) == [("W b4", "W", 1, 1, 1, 0, 1)]
    assert _rows(data["next_moves"]) == [("B d5", None, 1, None, 1, 0, 1)]


def test_quentin_a_swap_and_a_filling(tmp_path: Path, db_url: str, route: str, scan: str) -> None:
    """Quentin 5x5, the pattern `X.` in a corner. A Quentin stone is never removed or changed once placed: a move
    only adds stones (QUE-2, QUE-3). So the pie swap (QUE-7, GEN-7: the players change colours, the stones stay)
    is tested, and the other way a region changes without a move in it: a filling of its empty point.

    q1, 1 B aa, 2 W swap-sides, 3 W ba: the pattern stands at 1 (aa X, ba empty); the swap puts no stone, so
    the first move in the region is 3 W ba, with the swap between: a tenuki, W b5 (the corner drawn at the top
    left). Black won (B+R; Bo, who took Black by the swap).

    q2, 1 B aa, 2 W cc, 3 B ca, 4 W ec, 5 B bb: the pattern stands at 1. After 5 the empty point ba has only
    stones around it (aa, ca, bb: all Black), a territory filled Black (QUE-3), which also keeps the diagonal
    pairs aa-bb and ca-bb legal (QUE-4). The shape is broken by a move outside its region (bb), and both its
    points now hold stones: no move is ever played in it again, the game ends first. White won (W+R).

    Both moves right after the appearance (the swap; W cc, two points off) are elsewhere.

        continuations: W b5  hits 1, tenuki 1, games 1, B won 1, W won 0
                       ended hits 1, tenuki 0, games 1, B won 0, W won 1
        next moves:    elsewhere  hits 2, games 2, B won 1, W won 1
    """
    import_games(tmp_path, db_url, {
        "q1.rec": "(;GM[Quentin]SZ[5]PB[Ann]PW[Bo]RE[B+R];B[aa];W[swap-sides];W[ba])",
        "q2.rec": "(;GM[Quentin]SZ[5]PB[Cy]PW[Di]RE[W+R];B[aa];W[cc];B[ca];W[ec];B[bb])"})
    data = _search(db_url, "quentin", "X.", "--anchor", "corner")
    assert (data["appearances"], [g["at_moves"] for g in data["records"]]) == (2, [[1], [1]])
    assert _rows(data["continuations"]) == [("W b5", "W", 1, 1, 1, 1, 0), ("ended", None, 1, 0, 1, 0, 1)]
    assert _rows(data["next_moves"]) == [("elsewhere", None, 2, None, 2, 1, 1)]


def test_squer_a_flip_breaks_the_pattern_and_makes_it_again(tmp_path: Path, db_url: str, route: str,
                                                            scan: str) -> None:
    """Squer 5x5 (no pass and no swap: SQU-5). Stones change colour by flips (SQU-3; sweeps, SQU-4, need a full
    line).

    Moves: 1 B aa, 2 W ab, 3 B cc, 4 W ec, 5 B ba. 2 W ab flips along its column (SQU-2): aa turns White. 5 B ba
    flips along its row: aa turns Black again.

    `X.` in a corner stands at 1 only (at 5 ba holds a stone). The flip at 2 breaks it from outside the region
    (aa, ba); the first move in the region is 5 B ba: B b5, a tenuki. The move right after 1 is W ab, next to
    the region: W a4.

    `X` in a corner (the region aa alone): it stands at 1, the flip at 2 breaks it, the flip at 5 makes it again
    (a move outside the region), a new appearance at 5. No move is ever played on aa after it: both appearances
    end first; the one at 5 is at the end of the line, so it has no move right after. Black won (B+R).

        X.: continuations: B b5   hits 1, tenuki 1, games 1, B won 1, W won 0
            next moves:    W a4   hits 1, games 1, B won 1, W won 0
        X:  continuations: ended  hits 2, tenuki 0, games 1, B won 2, W won 0
            next moves:    W a4   hits 1, games 1, B won 1, W won 0
    """
    import_games(tmp_path, db_url, {
        "s.rec": "(;GM[Squer]SZ[5]PB[Ann]PW[Bo]RE[B+R];B[aa];W[ab];B[cc];W[ec];B[ba])"})
    data = _search(db_url, "squer", "X.", "--anchor", "corner")
    assert (data["appearances"], [g["at_moves"] for g in data["records"]]) == (1, [[1]])
    assert _rows(data["continuations"]) == [("B b5", "B", 1, 1, 1, 1, 0)]
    assert _rows(data["next_moves"]) == [("W a4", None, 1, None, 1, 1, 0)]
    data = _search(db_url, "squer", "X", "--anchor", "corner")
    assert (data["appearances"], [g["at_moves"] for g in data["records"]]) == (2, [[1, 5]])
    assert _rows(data["continuations"]) == [("ended", None, 2, 0, 1, 2, 0)]
    assert _rows(data["next_moves"]) == [("W a4", None, 1, None, 1, 1, 0)]
