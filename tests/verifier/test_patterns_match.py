"""Pattern matching on change lists (verifier/keys/patterns.py): every symmetry, wildcards and required-empty points,
corner and edge anchors, appearances that come, go and come back; and the fast path against the brute-force
reference (replay every game, test every position) on random games of all five games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrecords.records.games import Game
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import new_record, write
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.judging.verdict import verify
from boardrecords.verifier.keys.patterns import (
    ANY,
    ChangeWatcher,
    Pattern,
    PatternError,
    Prefilter,
    change_line,
    parse_pattern,
    pattern_of_board,
    placements,
    search_line,
)
from boardrecords.verifier.keys.symmetry import all_symmetries

from ..pattern_reference import brute_force
from .test_verify_properties import SIZES, random_game


def go(moves: str, size: int = 5):
    body = "".join(f";{m}" for m in moves.split())
    return read_bytes(f"(;GM[1]SZ[{size}]{body})".encode(), "t.rec")[0]


def hits(record, text: str, anchor: str | None = None, game: Game = Game.GO, either: bool = False) -> list[int]:
    found = placements(parse_pattern(text, anchor), game, record.size, either_colour=either)
    line = change_line(record)
    assert line is not None
    fast = search_line(line, found, Prefilter(parse_pattern(text, anchor), found, record.size))
    assert fast == brute_force(record, found)
    return sorted({p for p, _ in fast})


def test_parse_rows_and_errors() -> None:
    p = parse_pattern("X.O\n*X.", "corner")
    assert p.rows() == ["X.O", "*X."] and p.sides == {"top", "left"} and p.stones == 3
    assert parse_pattern("X.O/*X.").cells == p.cells
    assert parse_pattern("X", "bottom-right").sides == {"bottom", "right"}
    for bad in ("", "XY", "X./X", "**"):
        with pytest.raises(PatternError):
            parse_pattern(bad)
    with pytest.raises(PatternError):
        parse_pattern("X", "top-bottom")
    with pytest.raises(PatternError):
        placements(parse_pattern("XXXXXX"), Game.GO, 5)


def test_appears_disappears_and_reappears() -> None:
    # B aa with ba empty (the top left corner): stands after 1, broken by W ba (2), back when B bb captures ba (5).
    record = go("B[aa] W[ba] B[ca] W[ee] B[bb]")
    assert hits(record, "X.", "corner") == [1, 5]
    # A single white stone anywhere: after 2; it goes at 5 and no white stone is there again... but W ee stays.
    assert hits(record, "O") == [2, 4]


def test_every_symmetry_finds_the_same_moves() -> None:
    moves = ["aa", "ba", "ca", "ee", "bb"]
    for sym in all_symmetries(5):
        text = " ".join(f"{'BW'[n % 2]}[{chr(97 + x)}{chr(97 + y)}]"
                        for n, m in enumerate(moves) for x, y in [sym.point((ord(m[0]) - 97, ord(m[1]) - 97))])
        assert hits(go(text), "X.", "corner") == [1, 5], sym.name
        assert hits(go(text), "X./.X", "corner") == [5], sym.name


def test_connection_games_keep_their_edges() -> None:
    # Cation's 4 symmetries: a pattern turned a quarter is another pattern (Black's rows would go to White).
    found = placements(parse_pattern("XX"), Game.CATION, 5)
    assert len(found) == 4 * 5  # one row of two: 4 columns x 5 rows, the mirrors give the same placements
    assert all(abs(a[0] - b[0]) == 1 for p in found for a, b in [p.need])
    assert len(placements(parse_pattern("XX"), Game.GO, 5)) == 2 * 4 * 5


def test_wildcards_and_required_empty_points() -> None:
    record = go("B[aa] W[ba] B[ca]")
    assert hits(record, "X*X", "corner") == [3]
    assert hits(record, "X.X", "corner") == []
    assert hits(record, "XOX", "corner") == [3]
    # Required empty points stand from the start: an empty corner until the first stone comes into it.
    assert hits(go("B[cc] W[aa]"), "../..", "corner") == [0]


def test_anchors() -> None:
    inside = go("B[bb]")
    assert hits(inside, "X.") == [1]
    assert hits(inside, "X.", "corner") == []
    assert hits(inside, "X.", "edge") == []
    edge = go("B[ca]")
    assert hits(edge, "X.", "edge") == [1]
    assert hits(edge, "X.", "corner") == []
    assert hits(go("B[ea]"), "X.", "edge") == [1]  # mirrored: the empty point on the other side
    assert hits(go("B[ae]"), "X", "corner") == [1]


def test_either_colour() -> None:
    record = go("B[cc] W[aa]")
    assert hits(record, "X.", "corner") == []
    assert hits(record, "X.", "corner", either=True) == [2]


def test_region_of_a_board() -> None:
    record = go("B[aa] W[ba] B[ca]")
    run = Replay(record)
    for _ in run:
        pass
    p = pattern_of_board(run.engine.rows(), 0, 0, 2, 1)
    assert p.rows() == ["XOX", "..."] and p.sides == {"top", "left"}


def test_the_watcher_on_the_verifiers_replay_stops_at_a_refused_move() -> None:
    record = go("B[aa] W[aa] B[bb]")  # move 2 is refused: nothing after it counts
    watcher = ChangeWatcher()
    verify(record, watch=watcher)
    line = watcher.finish()
    assert line is not None and line.plies == 1
    assert [p for p, _ in search_line(line, placements(parse_pattern("X"), Game.GO, 5))] == [1]


def random_pattern(rng: random.Random, rows, size: int) -> Pattern:
    w, h = rng.randint(1, min(4, size)), rng.randint(1, min(4, size))
    x, y = rng.randrange(size - w + 1), rng.randrange(size - h + 1)
    p = pattern_of_board(rows, x, y, x + w - 1, y + h - 1, anchor=rng.choice([None, "anywhere"]))
    cells = [c if rng.random() < 0.7 else ANY for c in p.cells]
    if all(c == ANY for c in cells):
        cells[0] = p.cells[0]
    return Pattern(w, h, tuple(cells), p.sides)


def pattern_from_game(rng: random.Random, record, size: int) -> Pattern:
    """A region of a position the record reached, with some points left free."""
    run = Replay(record)
    stop = rng.randrange(0, 40)
    rows = run.engine.rows()
    for s in run:
        if s.number > stop:
            break
        rows = run.engine.rows()
    return random_pattern(rng, rows, size)


@given(game=st.sampled_from(list(Game)), seed=st.integers(0, 2**32 - 1), either=st.booleans())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fast_path_agrees_with_brute_force(game: Game, seed: int, either: bool) -> None:
    rng = random.Random(seed)
    size = rng.choice(SIZES[game])
    records = []
    for k in range(4):
        moves, _ = random_game(game, size, seed + k)
        data = write(new_record(game, size, moves, black="A", white="B"))
        records.append(read_bytes(data, "r.rec")[0])
    pattern = pattern_from_game(rng, records[0], size)
    found = placements(pattern, game, size, either_colour=either)
    prefilter = Prefilter(pattern, found, size)  # search_line checks it gives what `candidates` gives
    for record in records:
        watcher = ChangeWatcher()
        verify(record, watch=watcher)
        line = watcher.finish()
        assert line is not None
        assert search_line(line, found, prefilter) == brute_force(record, found)
