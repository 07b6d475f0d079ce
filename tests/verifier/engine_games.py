"""Records of random games the engines play, with faults put in, for the tests that compare a compiled path with the
plain-Python engine: the moves are chosen from the engine's own legal moves (so that games go on long enough to reach
the rare rules), and now and then a node is made wrong (a move of the wrong colour, a stone on a stone, a pass where
the game has none, setup, a comment)."""

from __future__ import annotations

import random

from boardrecords.records.games import Game, MoveKind
from boardrecords.records.model import Colour, Move
from boardrecords.verifier.rules.registry import engine_for

_HEADS = {Game.CATION: "Cation", Game.QUENTIN: "Quentin", Game.SQUER: "Squer"}


def engine_game(game: Game, size: int, seed: int, *, faults: float = 0.02, limit: int = 400) -> bytes:
    """A record of `game` on a `size` board: up to `limit` legal moves the engine offers, chosen at random, with a
    fault in about `faults` of the nodes (the record then stops being legal there, as a real broken record does)."""
    rng = random.Random(seed)
    engine = engine_for(game)(size)
    letters = "abcdefghijklmnopqrstuvwxyz"[:size]
    nodes: list[str] = []
    while engine.end is None and len(nodes) < limit:
        roll = rng.random()
        if roll < faults:
            colour = engine.to_move or Colour.BLACK
            fault = rng.choice(("wrong colour", "stone on a point", "pass", "setup", "comment", "empty"))
            if fault == "wrong colour":
                nodes.append(f";{colour.other.value}[{rng.choice(letters)}{rng.choice(letters)}]")
            elif fault == "stone on a point":
                nodes.append(f";{colour.value}[{rng.choice(letters)}{rng.choice(letters)}]")
            elif fault == "pass":
                nodes.append(f";{colour.value}[]")
            elif fault == "setup":
                nodes.append(";AB[aa]")
            elif fault == "comment":
                nodes.append(f";{colour.value}[{rng.choice(letters)}{rng.choice(letters)}]C[a comment]")
            else:
                nodes.append(";")
            if fault in ("setup", "empty"):
                continue
            break  # the record may be wrong from here on: nothing after it is played anyway
        legal = engine.legal_moves()
        if not legal:
            break
        plays = [m for m in legal if m.kind is not MoveKind.PASS] or legal
        move: Move = rng.choice(plays)
        engine.play(move)
        nodes.append(f";{move.colour.value}[{move.sgf_value()}]")
    return (f"(;GM[{_HEADS[game]}]FF[4]SZ[{size}]" + "".join(nodes) + ")").encode()
