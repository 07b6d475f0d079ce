"""Real Go games: our Go engine's board agrees with sgfmill's, an independent implementation, on the whole corpus.

Both boards replay each record's main line. After every move the points our engine says it changed (the stone
placed, the stones captured) must hold the same thing on both boards, and every 20 moves and at the end the whole
boards must be equal; so a divergence anywhere is caught within 20 moves. The comparison stops where either side
refuses a move (sgfmill plays no superko; we refuse what ING-4 forbids).
"""

from __future__ import annotations

import pytest

from boardrecords.records.games import Game, MoveKind
from boardrecords.records.model import Colour, FormatError
from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.replay import Replay

from ..shared import CORPUS

sgf = pytest.importorskip("sgfmill.sgf", reason="sgfmill (a test dependency) is not installed")
sgf_moves = pytest.importorskip("sgfmill.sgf_moves")

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"Go corpus absent ({CORPUS})")

FULL_EVERY = 20
SGFMILL = {"b": Colour.BLACK, "w": Colour.WHITE, None: None}


def _sgfmill_game(data: bytes):
    try:
        game = sgf.Sgf_game.from_bytes(data)
        board, moves = sgf_moves.get_setup_and_moves(game)
    except (ValueError, KeyError):
        return None
    return board, moves


def _same(board, stone, size: int, points) -> bool:
    """Whether sgfmill's board (row 0 at the bottom) and ours (`stone(point)`) agree on `points`."""
    return all(SGFMILL[board.get(size - 1 - row, col)] is stone((col, row)) for col, row in points)


def test_boards_agree_with_sgfmill_over_the_corpus():
    files = sorted(CORPUS.rglob("*.sgf"))
    compared_games = compared_moves = 0
    divergent: list[str] = []
    for path in files:
        data = path.read_bytes()
        try:
            records = read_bytes(data, str(path))
        except FormatError:
            continue
        theirs = _sgfmill_game(data)
        if not records or theirs is None or records[0].game is not Game.GO:
            continue
        record = records[0]
        board, moves = theirs
        if board.side != record.size:
            continue
        size = record.size
        everything = [(c, r) for r in range(size) for c in range(size)]
        run = Replay(record)
        engine = run.engine
        if not _same(board, engine.stone, size, everything):
            divergent.append(f"{path.name}: setup")
            continue
        compared_games += 1
        agreed: set[tuple[int, int]] = set()
        for index, step in enumerate(run):
            if step.illegal is not None or index >= len(moves) or step.move.kind is MoveKind.RESIGN:
                break
            colour, point = moves[index]
            if point is not None:
                try:
                    board.play(point[0], point[1], colour)
                except ValueError:  # sgfmill refuses (an occupied point): nothing more to compare
                    break
            compared_moves += 1
            # Stones removed by agreement at the end (ING-7) stay on sgfmill's board, which knows no marks.
            agreed.update(step.change.removed)
            points = everything if index % FULL_EVERY == 0 else [*step.change.placed, *step.change.captured]
            if not _same(board, engine.stone, size, [p for p in points if p not in agreed]):
                divergent.append(f"{path.name}: move {step.number}")
                break
        else:
            if not _same(board, engine.stone, size, [p for p in everything if p not in agreed]):
                divergent.append(f"{path.name}: final position")
    assert compared_games > 4000 and compared_moves > 700_000, (compared_games, compared_moves)
    assert not divergent, divergent[:20]
