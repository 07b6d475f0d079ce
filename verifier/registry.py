"""Which engine plays which game."""

from __future__ import annotations

from ..records.games import Game
from .engine import Engine
from .games.cation import CationEngine
from .games.conversion_go import ConversionGoEngine
from .games.go_ing import GoEngine
from .games.quentin import QuentinEngine
from .games.squer import SquerEngine

ENGINES: dict[Game, type[Engine]] = {
    Game.GO: GoEngine,
    Game.CONVERSION_GO: ConversionGoEngine,
    Game.CATION: CationEngine,
    Game.QUENTIN: QuentinEngine,
    Game.SQUER: SquerEngine,
}


def engine_for(game: Game) -> type[Engine]:
    return ENGINES[game]
