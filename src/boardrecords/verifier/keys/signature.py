"""The Dyer signature of a game of Go or Conversion Go (docs/patterns.md): the points of moves 20, 40, 60, 31, 51
and 71 in SGF letters, the way GoGoD and Kombilo recognise one game stored twice with other headers, comments or
orientation. It is normalised over the 8 symmetries of the board: the smallest of the 8 strings (the same symmetry
applied to all six points) is the game's signature, so a mirrored or turned copy has the same one.

Move numbers are the record's (the verifier's): setup stones (handicap stones, AB/AW) are not moves, so in a
handicap game move 1 is White's first. A move that is not a stone put on a point (a pass, a swap, a resignation),
or that the game never reached (fewer than 71 moves), is written `--`; a line of fewer than 20 moves has no
signature (it would be all `--`). `SignatureWatcher` follows the verifier's replay (`verify(record, watch=...)`),
as the position index and the change lists do; `dyer_signature` computes it from a mapping of move number to point.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping

from ...common.errors import InputError
from ...records.games import Game, MoveKind
from ...records.points import Point
from ..judging.replay import Replay, RunLog, Step
from .symmetry import all_symmetries

DYER_MOVES = (20, 40, 60, 31, 51, 71)
MISSING = "--"
SIGNED_GAMES = frozenset({Game.GO, Game.CONVERSION_GO})
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _letters(point: Point | None) -> str:
    return MISSING if point is None else _LETTERS[point[0]] + _LETTERS[point[1]]


def dyer_signature(points: Mapping[int, Point | None], size: int) -> str | None:
    """The normalised signature from the points of the moves (move number -> point, None for a move that put no
    stone on a point; a move number that is not there was never played). None when no move of the six was played
    (a line of fewer than 20 moves) or the board is larger than 26."""
    if size > len(_LETTERS) or DYER_MOVES[0] not in points:
        return None
    chosen = [points.get(n) for n in DYER_MOVES]
    return min("".join(_letters(None if p is None else sym.point(p)) for p in chosen)
               for sym in all_symmetries(size))


def signature_forms(signature: str, size: int) -> set[str]:
    """The signature as written in each of the board's symmetries (a signature typed by hand need not be the
    normalised one); raises InputError when it is not six points (or `--`) of a board of `size`."""
    text = signature.strip().lower()
    if len(text) != 2 * len(DYER_MOVES):
        raise InputError(f"a Dyer signature is {2 * len(DYER_MOVES)} letters (six points, -- for none), "
                         f"not {signature!r}")
    pairs = [text[i:i + 2] for i in range(0, len(text), 2)]
    points: list[Point | None] = []
    for pair in pairs:
        if pair == MISSING:
            points.append(None)
            continue
        c, r = _LETTERS.find(pair[0]), _LETTERS.find(pair[1])
        if not (0 <= c < size and 0 <= r < size):
            raise InputError(f"{pair!r} in a Dyer signature is not a point of a {size}x{size} board")
        points.append((c, r))
    return {"".join(_letters(None if p is None else sym.point(p)) for p in points) for sym in all_symmetries(size)}


def normalise_signature(signature: str, size: int) -> str:
    """The normalised form of a signature written in any symmetry."""
    return min(signature_forms(signature, size))


class SignatureWatcher:
    """Follows the verifier's replay and keeps the points of the signature's moves: `verify(record,
    watch=watcher)`, then `.signature()`. Every move the replay gives counts (the record's moves, as written)."""

    def __init__(self) -> None:
        self.points: dict[int, Point | None] = {}
        self.size = 0
        self.game: Game | None = None

    def __call__(self, run: Replay) -> Callable[[Step], None]:
        self.size = run.engine.size
        self.game = run.record.game
        wanted = frozenset(DYER_MOVES)
        points = self.points

        def step(s: Step) -> None:
            if s.number in wanted:
                move = s.move
                points[s.number] = move.point if move.kind is MoveKind.PLACE else None

        return step

    def follow_run(self, log: RunLog) -> None:
        """Follow a compiled run of plain plays from its log: every one of its moves is a stone put on a point."""
        first, last = log.before + 1, log.before + log.played
        wanted = [n for n in DYER_MOVES if first <= n <= last]
        if wanted:
            placed = array("i")
            placed.frombytes(log.placed)
            size = self.size
            for n in wanted:
                i = placed[n - first]
                self.points[n] = (i % size, i // size)

    def signature(self) -> str | None:
        if self.game not in SIGNED_GAMES:
            return None
        return dyer_signature(self.points, self.size)


__all__ = ["DYER_MOVES", "MISSING", "SIGNED_GAMES", "SignatureWatcher", "dyer_signature", "normalise_signature",
           "signature_forms"]
