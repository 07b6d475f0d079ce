"""The keys that find one game stored twice by its moves (docs/patterns.md, "The same game, once"): the record's main
line in canonical form, and two hashes of it stored in `game.line_hash` (the whole line) and `game.head_hash` (its
first HEAD_MOVES moves, indexed), so that every copy of a line, and a record cut off early and its longer copy, meet
on the head's index without comparing all pairs.

The line is the `moves` column's text (`B[pd];W[dp];B[]`, archive/core/ingest.py), one token per move. In Go and
Conversion Go it is written in the symmetry of the board that makes it smallest, token by token (the same symmetry
for every move), so that a mirrored or turned copy has the same line; the setup stones (handicap stones, AB/AW) are
written in that symmetry too and are part of both keys. Because the smallest line is chosen move by move, the
canonical form of a line's beginning is the beginning of its canonical form: a prefix record and its longer copy
agree on every move they share, and on the head. Cation, Quentin and Squer keep their moves as written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache

from ...records.games import Game
from ...records.model import Setup
from ...records.points import LETTER_COUNT, format_point
from ...verifier.keys.symmetry import all_symmetries

HEAD_MOVES = 20  # moves in the head key: a beginning of fewer moves is not looked for (as the Dyer signature)
TURNED_GAMES = frozenset({Game.GO.value, Game.CONVERSION_GO.value})  # games whose lines are turned and mirrored


@cache
def _images(size: int) -> tuple[dict[str, str], ...]:
    """Per symmetry of the square board, the image of every point's two letters."""
    out = []
    for sym in all_symmetries(size):
        out.append({format_point((c, r)): format_point(sym.point((c, r))) for c in range(size) for r in range(size)})
    return tuple(out)


@cache
def _stone_images(size: int) -> tuple[dict[str, str], ...]:
    """Per symmetry of the square board, the image of every stone token of either colour (`B[pd]` -> `B[dp]`):
    once a line's symmetry is settled, each later move costs one look-up instead of `_image`'s slicing."""
    return tuple({f"{c}[{p}]": f"{c}[{q}]" for p, q in images.items() for c in "BW"} for images in _images(size))


def line_tokens(moves: str) -> list[str]:
    """The moves of a `moves` column's text, one token each (`B[pd]`); none for an empty line."""
    return moves.split(";") if moves else []


def _image(token: str, images: dict[str, str]) -> str:
    # A stone put on a point is `B[pd]`; every other move (a pass, a swap, a removal) stays as it is.
    if len(token) == 5 and token[1] == "[" and token[4] == "]":
        point = images.get(token[2:4])
        if point is not None:
            return token[:2] + point + "]"
    return token


def turned(game: str, size: int | None) -> bool:
    """Whether lines of `game` on boards of `size` are compared in any symmetry (Go and Conversion Go)."""
    return game in TURNED_GAMES and size is not None and 1 <= size <= LETTER_COUNT


def canonical(tokens: Sequence[str], game: str, size: int | None) -> tuple[list[str], list[int], list[int]]:
    """The line in its canonical symmetry, with the symmetries (numbers) that give it after HEAD_MOVES moves and
    after the whole line (several only while the moves so far are the same in them: then the setup decides)."""
    if not turned(game, size):
        return list(tokens), [0], [0]
    assert size is not None
    images = _images(size)
    alive = list(range(len(images)))
    out: list[str] = []
    at_head = alive
    for i, token in enumerate(tokens):
        if len(alive) == 1:  # the symmetry is settled (within a few moves, nearly always): the rest at once
            one = images[alive[0]]
            stones = _stone_images(size)[alive[0]].get
            out.extend([stones(t) or _image(t, one) for t in tokens[i:]])  # passes and the like: `_image`
            if i < HEAD_MOVES:
                at_head = alive
            break
        written = [(_image(token, images[s]), s) for s in alive]
        best = min(w for w, _ in written)
        alive = [s for w, s in written if w == best]
        out.append(best)
        if i + 1 == HEAD_MOVES:
            at_head = alive
    return out, (at_head if len(tokens) >= HEAD_MOVES else alive), alive


def setup_text(setup: Setup | None, game: str, size: int | None, symmetries: Sequence[int]) -> str:
    """The setup stones and the player to move first, written in the one of `symmetries` that makes them smallest
    (empty for no setup)."""
    if setup is None or (setup.empty and setup.to_move is None):
        return ""
    pl = f"PL[{setup.to_move.value}]" if setup.to_move is not None else ""
    if not turned(game, size):
        return f"AB{sorted(setup.black)}AW{sorted(setup.white)}{pl}"
    assert size is not None
    images = _images(size)

    def written(s: int) -> str:
        black = "".join(sorted(images[s].get(format_point(p), "") for p in setup.black))
        white = "".join(sorted(images[s].get(format_point(p), "") for p in setup.white))
        return f"AB{black}AW{white}{pl}"

    return min(written(s) for s in symmetries)


def key(game: str, size: int | None, setup: str, tokens: Sequence[str]) -> int:
    """A 64-bit hash (signed, as the database's BIGINT holds it) of a canonical line and what it starts from."""
    text = f"{game}\x1f{size}\x1f{setup}\x1f" + ";".join(tokens)
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def line_keys(moves: str, game: str, size: int | None, setup: Setup | None) -> tuple[int | None, int | None]:
    """(line_hash, head_hash) of a record's main line (`moves` as the column holds it): the key of the whole line,
    and of its first HEAD_MOVES moves (of the whole line when it is shorter: such a line meets only its equals);
    (None, None) for a line of no move."""
    line_hash, head_hash, _ = keyed_line(moves, game, size, setup)
    return line_hash, head_hash


def keyed_line(moves: str, game: str, size: int | None, setup: Setup | None
               ) -> tuple[int | None, int | None, list[str]]:
    """`line_keys` and the canonical line they were taken from (what the near-duplicate check compares)."""
    tokens = line_tokens(moves)
    if not tokens:
        return None, None, []
    line, at_head, at_end = canonical(tokens, game, size)
    whole = key(game, size, setup_text(setup, game, size, at_end), line)
    if len(line) <= HEAD_MOVES:
        return whole, whole, line
    return whole, key(game, size, setup_text(setup, game, size, at_head), line[:HEAD_MOVES]), line


__all__ = ["HEAD_MOVES", "TURNED_GAMES", "canonical", "key", "keyed_line", "line_keys", "line_tokens", "setup_text",
           "turned"]
