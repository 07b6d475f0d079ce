"""Which engine plays which game.

An engine's module is imported the first time its game is asked for: verifying a Go record need not load the
other four games' engines and tables (a one-file `records verify` starts faster).
"""

from __future__ import annotations

import importlib

from ...records.games import Game
from .engine import Engine

# game -> (module under verifier/games, engine class)
_WHERE: dict[Game, tuple[str, str]] = {
    Game.GO: ("go_ing", "GoEngine"),
    Game.CONVERSION_GO: ("conversion_go", "ConversionGoEngine"),
    Game.CATION: ("cation", "CationEngine"),
    Game.QUENTIN: ("quentin", "QuentinEngine"),
    Game.SQUER: ("squer", "SquerEngine"),
}
_loaded: dict[Game, type[Engine]] = {}


def engine_for(game: Game) -> type[Engine]:
    engine = _loaded.get(game)
    if engine is None:
        module, name = _WHERE[game]
        engine = _loaded[game] = getattr(importlib.import_module(f"{__package__}.{module}"), name)
    return engine
