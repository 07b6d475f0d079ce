"""The peer: what sgfmill does for `records verify`, as a whole process: parse every .sgf file under the folders
named, set up the position and replay the main line on sgfmill's board (captures, suicide and simple ko).

Usage: python benchmarks/peer_sgfmill.py FOLDER... (prints records, moves and files it could not read)
"""

from __future__ import annotations

import sys
from pathlib import Path

from sgfmill import sgf, sgf_moves


def main(folders: list[str]) -> int:
    records = moves = failed = 0
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.sgf")):
            try:
                game = sgf.Sgf_game.from_bytes(path.read_bytes())
                board, plays = sgf_moves.get_setup_and_moves(game)
                for colour, point in plays:
                    if point is not None:
                        board.play(point[0], point[1], colour)
                    moves += 1
            except (ValueError, IndexError):
                failed += 1
                continue
            records += 1
    print(f"{records} records, {moves} moves, {failed} files not read")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
