"""The search filters as plain values (no database imports, so that the CLI can build them cheaply)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from ...common.errors import InputError

DEFAULT_LIMIT = 50
SORT_NAMES = ("id", "date", "moves", "event", "round", "game", "size", "black", "white", "winner", "result", "verdict",
              "problems")


class FilterError(InputError):
    """A filter value that cannot be understood (an InputError: the CLI exits with 2, the web answers 400)."""


@dataclass(slots=True)
class Filters:
    player: str | None = None
    black: str | None = None
    white: str | None = None
    winner: str | None = None
    game: str | None = None
    size: int | None = None
    event: str | None = None
    round: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    result: str | None = None
    verdict: str | None = None  # a VerdictClass value
    status: str | None = None  # a ResultStatus value
    swapped: bool | None = None
    moves_min: int | None = None
    moves_max: int | None = None
    text: str | None = None
    opening: str | None = None
    ids: Sequence[int] = ()

    @property
    def empty(self) -> bool:
        return all(getattr(self, f.name) in (None, ()) for f in fields(self))
