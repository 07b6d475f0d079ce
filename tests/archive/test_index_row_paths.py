"""The import's quick paths make the same index rows as the plain ones: the canonical line of the same-game keys
(archive/core/line_keys.py) against the move-by-move choice it shortens, and the change list of the pattern index
(verifier/keys/patterns.py) against the board itself, read whole after every move."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardrecords.archive.core import line_keys
from boardrecords.archive.core.line_keys import HEAD_MOVES, canonical
from boardrecords.records.files import read_records
from boardrecords.records.games import Game
from boardrecords.records.model import Colour, MoveKind, Record
from boardrecords.records.points import format_point
from boardrecords.verifier.judging.replay import Replay, ends_positions
from boardrecords.verifier.keys.patterns import MARK_B, MARK_W, ChangeWatcher
from boardrecords.verifier.rules.engine import BLACK, EMPTY, WHITE

from ..shared import ROOT

CORPUS = ROOT.parent / "shared" / "corpus" / "go"


def plain_canonical(tokens: Sequence[str], size: int) -> tuple[list[str], list[int], list[int]]:
    """The canonical line as it was chosen before the quick path: every move written in every symmetry still
    alive, one `_image` each."""
    images = line_keys._images(size)
    alive = list(range(len(images)))
    out: list[str] = []
    at_head = alive
    for i, token in enumerate(tokens):
        if len(alive) > 1:
            written = [(line_keys._image(token, images[s]), s) for s in alive]
            best = min(w for w, _ in written)
            alive = [s for w, s in written if w == best]
            out.append(best)
        else:
            out.append(line_keys._image(token, images[alive[0]]))
        if i + 1 == HEAD_MOVES:
            at_head = alive
    return out, (at_head if len(tokens) >= HEAD_MOVES else alive), alive


def tokens_of(size: int) -> st.SearchStrategy[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    on_board = st.builds(lambda c, x, y: f"{c}[{letters[x]}{letters[y]}]", st.sampled_from("BW"),
                         st.integers(0, size - 1), st.integers(0, size - 1))
    # passes, swaps, points off the board, a colour no game has: all must be written as `_image` writes them
    other = st.sampled_from(["B[]", "W[]", "W[swap-sides]", "B[tt]", "X[ab]", "B[ab-cd]", "W[zz]", "B[a]"])
    return st.one_of(on_board, on_board, on_board, other)


@st.composite
def lines(draw: st.DrawFn) -> tuple[int, list[str]]:
    size = draw(st.sampled_from([5, 9, 13, 19]))
    # a symmetric beginning keeps several symmetries alive for a while: the centre, then a move and its mirror
    start = draw(st.lists(st.sampled_from([f"B[{format_point((size // 2, size // 2))}]", "B[]", "W[]"]),
                          max_size=4))
    return size, start + draw(st.lists(tokens_of(size), max_size=HEAD_MOVES + 30))


@settings(max_examples=300, deadline=None)
@given(lines())
def test_the_canonical_line_is_the_move_by_move_choice(line: tuple[int, list[str]]) -> None:
    size, tokens = line
    assert canonical(tokens, Game.GO.value, size) == plain_canonical(tokens, size)


def corpus_records(limit: int) -> list[Record]:
    out: list[Record] = []
    for path in sorted(CORPUS.rglob("*.sgf")):
        records = read_records(str(path))
        if isinstance(records, list):
            out.extend(records)
        if len(out) >= limit:
            break
    return out[:limit]


def board_codes(run: Replay) -> list[int]:
    size = run.engine.size
    stone = run.engine.stone
    code = {None: EMPTY, Colour.BLACK: BLACK, Colour.WHITE: WHITE}
    return [code[stone((i % size, i // size))] for i in range(size * size)]


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"Go corpus absent ({CORPUS})")
def test_the_change_list_follows_the_board_move_by_move() -> None:
    """Each move's events are the points whose state it changed (read from the whole board before and after it)
    and one mark where the mover's stone went: on 300 records of the corpus, captures and passes among them."""
    records = corpus_records(300)
    assert len(records) == 300
    captures = 0
    for record in records:
        run = Replay(record)
        watcher = ChangeWatcher()
        step = watcher(run)
        before = board_codes(run)
        expected: list[tuple[int, int, int]] = []  # (ply, state, point) of every move until the positions end
        for s in run:
            step(s)
            if ends_positions(s):
                break
            after = board_codes(run)
            changed = [(s.number, v, i) for i, (u, v) in enumerate(zip(before, after, strict=True)) if u != v]
            captures += len(changed) > 1
            expected.extend(changed)
            where = s.move.target if s.move.target is not None else s.move.point
            if where is not None and s.move.kind is not MoveKind.REMOVE:
                size = run.engine.size
                mark = MARK_B if s.move.colour is Colour.BLACK else MARK_W
                expected.append((s.number, mark, where[1] * size + where[0]))
            before = after
        line = watcher.finish()
        assert line is not None
        start = [e for e in line.events if e >> 15 == 0]
        made = [(e >> 15, (e >> 12) & 7, e & 4095) for e in line.events[len(start):]]
        assert sorted(made) == sorted(expected), record.source
    assert captures  # the quick path's other side was met too

