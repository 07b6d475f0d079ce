"""The batch scan of verifier/keys/scan.py: the plain path against the brute-force reference (the appearances, the move
right after each and the first move in its region), and the compiled helper (when it was built) against the plain
path, on random games and patterns of all five games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boardrecords.common.settings import Settings
from boardrecords.records.games import Game
from boardrecords.records.reader import read_bytes
from boardrecords.records.writer import new_record, write
from boardrecords.verifier.judging.replay import Replay
from boardrecords.verifier.judging.verdict import verify
from boardrecords.verifier.keys.patterns import (
    ANY,
    ChangeWatcher,
    Line,
    Pattern,
    Placement,
    candidates,
    mask_bytes,
    moves_of,
    parse_pattern,
    pattern_of_board,
    placements,
)
from boardrecords.verifier.keys.scan import NO_MOVE, Hit, Scan, compiled_module

from ..pattern_reference import brute_force_continuations
from .test_patterns_match import pattern_from_game
from .test_verify_properties import SIZES, random_game

needs_compiled = pytest.mark.skipif(compiled_module() is None,
                                    reason="the compiled scan (_scan) was not built")


def _case(game: Game, seed: int, either: bool, games: int = 4):
    """Random games of one game and size, their stored rows, and the placements of a pattern from one of them."""
    rng = random.Random(seed)
    size = rng.choice(SIZES[game])
    records, rows = [], []
    for k in range(games):
        moves, _ = random_game(game, size, seed + k)
        record = read_bytes(write(new_record(game, size, moves, black="A", white="B")), "r.rec")[0]
        watcher = ChangeWatcher()
        verify(record, watch=watcher)
        line = watcher.finish()
        assert line is not None
        records.append(record)
        rows.append((k, mask_bytes(line.ever_black), mask_bytes(line.ever_white), line.blob()))
    pattern = pattern_from_game(rng, records[0], size)
    return pattern, size, records, rows, placements(pattern, game, size, either_colour=either)


def _expected(row, record, pattern: Pattern, found: list[Placement]) -> list[Hit]:
    """The brute-force appearances, each with the move after it as the change list marks it and the first move in
    its region as a replay of the record gives it."""
    after = moves_of(Line.from_blob(record.size, row[3]).events)
    return [(ply, k, *after.get(ply + 1, (-1, 0)), *(m or NO_MOVE))
            for ply, k, m in brute_force_continuations(record, pattern, found)]


@given(game=st.sampled_from(list(Game)), seed=st.integers(0, 2**32 - 1), either=st.booleans())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_plain_scan_agrees_with_brute_force(game: Game, seed: int, either: bool) -> None:
    pattern, size, records, rows, found = _case(game, seed, either)
    scan = Scan(pattern, found, size, plain=True)
    assert not scan.compiled
    got = dict(scan.lines(rows))
    for row, record in zip(rows, records, strict=True):
        k, black, white, _ = row
        assert got.get(k, []) == _expected(row, record, pattern, found)
        assert (k in scan.possible(rows)) == bool(candidates(found, int.from_bytes(black, "little"),
                                                             int.from_bytes(white, "little")))


@needs_compiled
@given(game=st.sampled_from(list(Game)), seed=st.integers(0, 2**32 - 1), either=st.booleans())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_compiled_scan_agrees_with_the_plain_path(game: Game, seed: int, either: bool) -> None:
    pattern, size, _, rows, found = _case(game, seed, either, games=3)
    plain, fast = Scan(pattern, found, size, plain=True), Scan(pattern, found, size)
    assert fast.compiled
    assert fast.lines(rows) == plain.lines(rows)
    assert fast.possible(rows) == plain.possible(rows)
    # Rows as the databases give them (memoryview from some drivers) and several calls on one scanner.
    views = [(k, memoryview(b), memoryview(w), memoryview(c)) for k, b, w, c in rows]
    assert fast.lines(iter(views)) == plain.lines(rows)
    assert fast.lines(rows[::-1]) == plain.lines(rows[::-1])


def _large_case(game: Game, seed: int, either: bool):
    """`_case` with a pattern of 25 points or more: the whole board, or a corner of it, as a random game stood
    after some move, some points left free. Regions this large take the compiled scan's other way of keeping
    the appearances that wait for a move in their region (one list, not one at each point)."""
    rng = random.Random(seed)
    pattern, size, records, rows, _ = _case(game, seed, either)
    assume(size >= 5)
    run = Replay(records[0])
    stop, board = rng.randrange(0, 12), run.engine.rows()
    for step in run:
        if step.number > stop:
            break
        board = run.engine.rows()
    side = rng.randint(5, size)
    whole = pattern_of_board(board, 0, 0, side - 1, side - 1, anchor="corner" if side < size else None)
    cells = tuple(c if rng.random() < 0.85 else ANY for c in whole.cells)
    pattern = Pattern(whole.width, whole.height, cells, whole.sides)
    return pattern, size, records, rows, placements(pattern, game, size, either_colour=either)


@given(game=st.sampled_from(list(Game)),
       seed=st.integers(0, 2**32 - 1), either=st.booleans())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_scans_agree_on_large_regions(game: Game, seed: int, either: bool) -> None:
    pattern, size, records, rows, found = _large_case(game, seed, either)
    assert pattern.width * pattern.height >= 25
    plain = Scan(pattern, found, size, plain=True)
    expected = [(row[0], hits) for row, record in zip(rows, records, strict=True)
                if (hits := _expected(row, record, pattern, found))]
    assert plain.lines(rows) == expected
    fast = Scan(pattern, found, size)
    if fast.compiled:
        assert fast.lines(rows) == expected


def test_the_environment_forces_the_plain_path() -> None:
    pattern = parse_pattern("X.", "corner")
    found = placements(pattern, Game.GO, 5)
    for word in ("python", "plain", " Python "):
        plain = Settings.from_environment({"RECORDS_SCAN": word}).plain_scan
        assert plain and not Scan(pattern, found, 5, plain=plain).compiled
    assert not Settings.from_environment({"RECORDS_SCAN": "compiled"}).plain_scan


@needs_compiled
def test_compiled_refuses_what_it_cannot_read() -> None:
    pattern = parse_pattern("X.", "corner")
    found = placements(pattern, Game.GO, 5)
    scan = Scan(pattern, found, 5)
    with pytest.raises(TypeError):
        scan.lines([(1, "not bytes", b"", b"")])
    with pytest.raises((TypeError, IndexError)):
        scan.lines([(1, b"\x01")])
    module = compiled_module()
    assert module is not None
    with pytest.raises(ValueError):
        module.Scanner(5, [], [((25, 1),)], [[0]])  # a point off the board
    with pytest.raises(ValueError):
        module.Scanner(5, [], [((0, 1),)], [[25]])  # a region's point off the board
    with pytest.raises(ValueError):
        module.Scanner(5, [], [((0, 1),)], [])  # no region for the placement
    # A line that holds the pattern at the start (move 0) and nothing else: no next move.
    row = (7, b"\x01", b"", (1 << 12 | 0).to_bytes(4, "little"))
    assert scan.lines([row]) == Scan(pattern, found, 5, plain=True).lines([row])
    assert [(hit[0], hit[2], hit[4]) for _, at in scan.lines([row]) for hit in at] == [(0, -1, -1), (0, -1, -1)]


def _namer(rng: random.Random, seen: dict[tuple[int, int, int], int]):
    """A namer that sends each (placement, point, colour) to one of a few indices, as a search merges keys that
    name the same continuation (several placements, one point of the pattern)."""
    def name(k: int, point: int, colour: int) -> int:
        key = (k, point, colour)
        if key not in seen:
            seen[key] = rng.randrange(len(seen) // 2 + 1)
        return seen[key]
    return name


@needs_compiled
@given(game=st.sampled_from(list(Game)), seed=st.integers(0, 2**32 - 1), either=st.booleans(),
       gap=st.sampled_from([1, 2]))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_compiled_tally_agrees_with_the_plain_one(game: Game, seed: int, either: bool, gap: int) -> None:
    pattern, size, records, rows, found = _case(game, seed, either, games=4)
    plain, fast = Scan(pattern, found, size, plain=True), Scan(pattern, found, size)
    lines = plain.lines(rows)
    rng = random.Random(seed)
    plies = {k: len(records[k].main_line()) for k, *_ in rows}
    winners = {k: rng.choice(["B", "W", None, "draw"]) for k, *_ in rows}
    # the same namings for both: the compiled tally must ask for the same keys and count the same
    names_plain: dict = {}
    names_fast: dict = {}
    expected = plain.tally(lines, plies, winners, gap, _namer(random.Random(seed), names_plain),
                           _namer(random.Random(seed + 1), names_plain))
    got = fast.tally(lines, plies, winners, gap, _namer(random.Random(seed), names_fast),
                     _namer(random.Random(seed + 1), names_fast))
    assert got == expected
    assert names_fast == names_plain
    assert sum(c[0] for c in got[0]) == sum(len(at) for _, at in lines)  # every appearance counted in the region


def test_tally_counts_each_field() -> None:
    """Two games, three appearances of one placement: hits, games once each, the winners in the pattern's colours
    (placement 1 has them exchanged), tenuki past the gap, and no move after an appearance at the line's end."""
    pattern = parse_pattern("X.", "corner")
    found = placements(pattern, Game.GO, 5, either_colour=True)
    swapped = next(k for k, place in enumerate(found) if place.swapped)
    plain = next(k for k, place in enumerate(found) if not place.swapped)
    lines = [(9, [(1, plain, 3, 2, 2, 3, 2), (5, plain, 8, 1, 9, 8, 1)]),  # B won; the second: tenuki (9 > 5 + 2)
             (4, [(7, swapped, -1, 0, -1, -1, 0)])]  # W won, colours exchanged: a Black win; at the line's end
    plies, winners = {9: 20, 4: 7}, {9: "B", 4: "W"}
    for scan in {Scan(pattern, found, 5, plain=True), Scan(pattern, found, 5)}:
        region, after = scan.tally(lines, plies, winners, 2, lambda k, p, c: 0 if p >= 0 else 1,
                                   lambda k, p, c: 0)
        assert region == [(2, 1, 2, 0, 1), (1, 1, 1, 0, 0)]
        assert after == [(2, 1, 2, 0, 0)]  # the appearance at move 7 of 7 has no move after it
