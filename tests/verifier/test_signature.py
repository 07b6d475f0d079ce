"""The Dyer signature (verifier/keys/signature.py, docs/patterns.md): a game's, counted by hand, and the same for its
mirrored and turned copies; short games, passes, handicap stones, other sizes."""

from __future__ import annotations

import pytest

from boardrecords.records.reader import read_bytes
from boardrecords.verifier.judging.verdict import verify
from boardrecords.verifier.keys.signature import SignatureWatcher, dyer_signature, normalise_signature, signature_forms
from boardrecords.verifier.keys.symmetry import all_symmetries


def rows_game(n: int, size: int = 19) -> list[tuple[int, int]]:
    """Move k (1..n) on column (k-1) % size of row 2 * ((k-1) // size): stones of both colours along every other
    row, never a capture."""
    return [((k - 1) % size, 2 * ((k - 1) // size)) for k in range(1, n + 1)]


def sgf(points, size: int = 19, setup: str = "", game: str = "1", sym=None) -> str:
    moves = []
    for k, (c, r) in enumerate(points):
        if sym is not None:
            c, r = sym.point((c, r))
        moves.append(f";{'BW'[k % 2] if not setup else 'WB'[k % 2]}[{chr(97 + c)}{chr(97 + r)}]")
    return f"(;GM[{game}]SZ[{size}]PB[A]PW[B]{setup}{''.join(moves)})"


def signature_of(text: str) -> str | None:
    record = read_bytes(text.encode(), "t.sgf")[0]
    watcher = SignatureWatcher()
    verdict = verify(record, watch=watcher)
    assert not verdict.problems or all(p.severity.value != "error" for p in verdict.problems), verdict.problems
    return watcher.signature()


def test_a_game_by_hand_and_in_every_symmetry() -> None:
    # Moves 20, 40, 60, 31, 51, 71 at a3 (row 2, column 0), b5, c7, l3, m5, n7 in SGF letters: ac be cg lc me ng.
    # The identity gives the smallest string (its first point, ac, is the smallest image of (0, 2)).
    points = rows_game(80)
    assert signature_of(sgf(points)) == "acbecglcmeng"
    for sym in all_symmetries(19):
        assert signature_of(sgf(points, sym=sym)) == "acbecglcmeng", sym.name
    # Written in another symmetry, a signature is found again: its forms hold the normalised one.
    mirrored = "".join(chr(97 + 18 - (ord(a) - 97)) + b for a, b in zip("acbecglcmeng"[::2], "acbecglcmeng"[1::2],
                                                                       strict=True))
    assert mirrored == "screqghcgefg"
    assert normalise_signature(mirrored, 19) == "acbecglcmeng"
    assert "acbecglcmeng" in signature_forms(mirrored.upper(), 19)


def test_short_games_passes_handicap_and_other_sizes() -> None:
    assert signature_of(sgf(rows_game(19))) is None  # fewer than 20 moves: none
    assert signature_of(sgf(rows_game(45))) == "acbe--lc----"  # moves 60, 51 and 71 never played
    # A pass at move 40: `--` in its place.
    points = rows_game(80)
    text = sgf(points).replace(";W[be]", ";W[]")
    assert signature_of(text) == "ac--cglcmeng"
    # Handicap stones are setup, not moves: move 1 is White's first, and the signature counts from it.
    assert signature_of(sgf(points, setup="HA[2]AB[pd][dp]")) == "acbecglcmeng"
    # Other sizes: the letters of that board, its own symmetries. On 9x9 moves 20.. are on rows 4, 8.
    # Move 20 at b5 (be), 40 at di, 31 at dg: "bedi--dg----", whose top-bottom mirror (rows 4, 0, 2) is smaller.
    nine = rows_game(45, 9)
    assert signature_of(sgf(nine, 9)) == "beda--dc----" == normalise_signature("bedi--dg----", 9)
    assert dyer_signature({20: (1, 4), 31: (3, 6)}, 9) == normalise_signature("be----dg----", 9)
    # Conversion Go has one; the connection games none.
    assert signature_of(sgf(points, game="ConversionGo")) == "acbecglcmeng"
    assert signature_of(sgf(rows_game(30, 9), 9, game="Cation")) is None


def test_bad_signatures() -> None:
    with pytest.raises(ValueError):
        signature_forms("abc", 19)
    with pytest.raises(ValueError):
        signature_forms("zzzzzzzzzzzz", 19)
