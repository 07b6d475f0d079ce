"""Continuations in the pattern's region (docs/patterns.md): for each appearance, the first move played afterwards
inside the pattern's rectangle however many moves later, or none when the line ended first. Counted by hand on
small boards of every game, and the fast path (the change list) against the reference (a replay of the record)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrecords.records.games import Game
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import new_record, write
from boardrecords.verifier.keys.patterns import (
    change_line,
    first_in_region,
    move_list,
    parse_pattern,
    placements,
    region_points,
    search_line,
)
from boardrecords.verifier.rules.engine import BLACK, WHITE

from ..pattern_reference import brute_force_continuations
from .test_patterns_match import pattern_from_game
from .test_verify_properties import SIZES, random_game

NAMES = {Game.GO: "1", Game.CONVERSION_GO: "ConversionGo", Game.CATION: "Cation", Game.QUENTIN: "Quentin",
         Game.SQUER: "Squer"}


def record(game: Game, moves: str, size: int = 5):
    body = "".join(f";{m}" for m in moves.split())
    return read_bytes(f"(;GM[{NAMES[game]}]SZ[{size}]{body})".encode(), "t.rec")[0]


def continuations(rec, text: str, anchor: str | None = None, either: bool = False
                  ) -> list[tuple[int, str, str | None, int | None]]:
    """(move of the appearance, where the pattern's top left point stands, the continuation's point in SGF letters,
    its move number) for each appearance, from the change list; checked against the reference."""
    pattern = parse_pattern(text, anchor)
    found = placements(pattern, rec.game, rec.size, either_colour=either)
    line = change_line(rec)
    assert line is not None
    moves = move_list(line.events)
    fast = []
    for ply, k in search_line(line, found):
        region = region_points(pattern, found[k], rec.size)
        fast.append((ply, k, first_in_region(moves, ply, region)))
    assert fast == brute_force_continuations(rec, pattern, found)
    out = []
    size = rec.size
    for ply, k, m in fast:
        points = region_points(pattern, found[k], size)
        corner = min(points, key=lambda i: (points[i][1], points[i][0]))  # the pattern's top left, on the board
        name = f"{chr(97 + corner % size)}{chr(97 + corner // size)}"
        if m is None:
            out.append((ply, name, None, None))
        else:
            out.append((ply, name, f"{'BW'[m[2] - 1]}[{chr(97 + m[1] % size)}{chr(97 + m[1] // size)}]", m[0]))
    return sorted(out, key=lambda t: (t[0], t[1], t[2] or "", t[3] or 0))


def test_tenuki_and_the_end_in_every_game() -> None:
    # An empty 2x2 corner of a 5x5 board stands from the start (0) in each corner the game's symmetries reach.
    # 1 B cc is in no corner; 2 W dd is the first move in the bottom right one, 3 B ab in the top left one, 4 W ea
    # in the top right one: each after other moves (tenuki). Nothing is played in the bottom left one: the line
    # ends first. Cation, Quentin and Squer keep each colour's edges, but their half turn and mirrors still reach
    # all four corners.
    for game in Game:
        assert BLACK == 1 and WHITE == 2
        got = continuations(record(game, "B[cc] W[dd] B[ab] W[ea]"), "../..", "corner")
        assert got == [(0, "aa", "B[ab]", 3), (0, "ae", None, None), (0, "ea", "W[ea]", 4),
                       (0, "ee", "W[dd]", 2)], game


def test_a_capture_breaks_the_pattern_but_the_count_goes_on() -> None:
    # "X" in a corner: B aa (1). W ab (4) captures it from outside the region (aa alone); the next move inside the
    # region is W aa (6), after moves elsewhere: that is its continuation, though the shape was gone by then. The
    # capture broke the appearance, W aa does not make it again (a white stone).
    rec = record(Game.GO, "B[aa] W[ba] B[dd] W[ab] B[cc] W[aa] B[ee]")
    assert continuations(rec, "X", "corner") == [(1, "aa", "W[aa]", 6), (7, "ee", None, None)]
    # "X." in a corner stands twice at 1 (aa with ba empty, aa with ab empty) and twice at 7 (ee): W ba (2) comes
    # right away into the first, W ab (4, the capture) into the second after a move elsewhere; at 7 the line ends.
    assert continuations(rec, "X.", "corner") == [(1, "aa", "W[ab]", 4), (1, "aa", "W[ba]", 2),
                                                  (7, "ee", None, None), (7, "ee", None, None)]


def test_either_colour_finds_the_exchanged_shape() -> None:
    # W aa makes "X." with colours exchanged, twice (ab empty, ba empty); B ab is the continuation of the first (a
    # Black move, White in the pattern's colours: the search turns it round, see tests/archive/), nothing comes into
    # the second.
    rec = record(Game.GO, "B[cc] W[aa] B[ab]")
    assert continuations(rec, "X.", "corner", either=True) == [(2, "aa", None, None), (2, "aa", "B[ab]", 3)]


@given(game=st.sampled_from(list(Game)), seed=st.integers(0, 2**32 - 1), either=st.booleans())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_region_continuations_agree_with_the_replay(game: Game, seed: int, either: bool) -> None:
    rng = random.Random(seed)
    size = rng.choice(SIZES[game])
    records = []
    for k in range(3):
        moves, _ = random_game(game, size, seed + k)
        records.append(read_bytes(write(new_record(game, size, moves, black="A", white="B")), "r.rec")[0])
    pattern = pattern_from_game(rng, records[0], size)
    found = placements(pattern, game, size, either_colour=either)
    for rec in records:
        line = change_line(rec)
        assert line is not None
        moves = move_list(line.events)
        fast = [(ply, k, first_in_region(moves, ply, region_points(pattern, found[k], size)))
                for ply, k in search_line(line, found)]
        assert fast == brute_force_continuations(rec, pattern, found)
