"""The five games: identifiers, board sizes and the move kinds each one allows, and the two colours that play them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Game(StrEnum):
    GO = "go-ing"
    CONVERSION_GO = "conversion-go"
    CATION = "cation"
    QUENTIN = "quentin"
    SQUER = "squer"


class Colour(StrEnum):
    BLACK = "B"
    WHITE = "W"

    @property
    def other(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK

    @property
    def word(self) -> str:
        return "Black" if self is Colour.BLACK else "White"


class MoveKind(StrEnum):
    PLACE = "place"
    PASS = "pass"
    SWAP = "swap"
    RELOCATE = "relocate"
    REMOVE = "remove"
    SWEEP = "sweep"
    RESIGN = "resign"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class GameSpec:
    game: Game
    title: str
    gm_value: str  # what the writer puts in GM[]
    default_size: int | None
    min_size: int
    max_size: int
    size_rule: str  # the clarification that fixes the board size
    notation_rule: str  # the clarification that fixes the notation
    kinds: frozenset[MoveKind]
    connection: bool  # won by a chain between the player's edges
    short: str  # the name in narrow table columns


_ALWAYS = {MoveKind.PLACE, MoveKind.RESIGN}

SPECS: dict[Game, GameSpec] = {
    Game.GO: GameSpec(Game.GO, "Go (Simplified Ing Rules)", "1", 19, 2, 52, "ING-1", "ING-10",
                      frozenset(_ALWAYS | {MoveKind.PASS}), False, "Go"),
    Game.CONVERSION_GO: GameSpec(Game.CONVERSION_GO, "Conversion Go", "ConversionGo", 16, 2, 52, "CON-1", "CON-8",
                                 frozenset(_ALWAYS | {MoveKind.PASS, MoveKind.SWAP}), False, "ConvGo"),
    Game.CATION: GameSpec(Game.CATION, "Cation", "Cation", None, 3, 52, "CAT-1", "CAT-10",
                          frozenset(_ALWAYS | {MoveKind.PASS, MoveKind.SWAP, MoveKind.RELOCATE, MoveKind.REMOVE}),
                          True, "Cation"),
    Game.QUENTIN: GameSpec(Game.QUENTIN, "Quentin", "Quentin", None, 3, 52, "QUE-1", "QUE-8",
                           frozenset(_ALWAYS | {MoveKind.PASS, MoveKind.SWAP}), True, "Quentin"),
    Game.SQUER: GameSpec(Game.SQUER, "Squer", "Squer", None, 2, 52, "SQU-1", "SQU-11",
                         frozenset(_ALWAYS | {MoveKind.SWEEP}), True, "Squer"),
}


def short_name(value: str | None) -> str:
    """A game's short name for narrow columns, from its stored value (`go-ing` -> `Go`); unknown values as given."""
    try:
        return SPECS[Game(value or "")].short
    except ValueError:
        return value or "?"


def game_title(value: str | None) -> str:
    """A game's name as players read it, from its stored value (`go-ing` -> `Go (Simplified Ing Rules)`)."""
    try:
        return SPECS[Game(value or "")].title
    except ValueError:
        return value or "?"

_GM_ALIASES = {
    "1": Game.GO,
    "go": Game.GO,
    "go-ing": Game.GO,
    "conversiongo": Game.CONVERSION_GO,
    "conversion-go": Game.CONVERSION_GO,
    "cation": Game.CATION,
    "quentin": Game.QUENTIN,
    "squer": Game.SQUER,
}


def game_from_gm(value: str) -> Game | None:
    """The game a `GM` value names (case-insensitive), or None for an unknown game."""
    return _GM_ALIASES.get(value.strip().lower())


def game_from_name(value: str) -> Game | None:
    """A game from a user's spelling: `go`, `go-ing`, `ConversionGo`, `conversion-go`, `cation`..."""
    return game_from_gm(value) or _GM_ALIASES.get(value.strip().lower().replace("_", "-"))


def game_named(value: Game | str) -> Game:
    """A Game, or the game a name spells (as `game_from_name` reads it); ValueError for a name of no game."""
    if isinstance(value, Game):
        return value
    found = game_from_name(str(value))
    if found is None:
        raise ValueError(f"unknown game {value!r}")
    return found
