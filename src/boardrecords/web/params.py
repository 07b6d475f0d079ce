"""The query parameters of the web application, named as the commands' options (`from`, `moves-min`...), each
with its bounds: a value out of them is a 400 with a JSON error (app.py), never a 500.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query

from ..archive.core.filters import Filters

DB_INT_MAX = 2**63 - 1  # the largest integer SQLite and PostgreSQL compare with (cli/options.py's)
TEXT_MAX = 200  # a name, an event, a date, a result...
MOVES_MAX = 4000  # moves typed in: Q16,D4,...
PAGE_MAX = 500  # games on one page
OFFSET_MAX = 100_000

Text = Annotated[str | None, Query(max_length=TEXT_MAX)]


def filters(
    player: Annotated[str | None, Query(max_length=TEXT_MAX, description="A player, either colour (`*` = "
                                        "wildcard).")] = None,
    black: Annotated[str | None, Query(max_length=TEXT_MAX, description="The player holding Black.")] = None,
    white: Annotated[str | None, Query(max_length=TEXT_MAX, description="The player holding White.")] = None,
    winner: Annotated[str | None, Query(max_length=TEXT_MAX, description="A player's name, or B / W.")] = None,
    game: Annotated[str | None, Query(max_length=40, description="go-ing, conversion-go, cation, quentin, "
                                      "squer (also go, ConversionGo).")] = None,
    size: Annotated[int | None, Query(ge=1, le=52, description="Board size.")] = None,
    event: Annotated[str | None, Query(max_length=TEXT_MAX, description="The event (EV).")] = None,
    round: Annotated[str | None, Query(max_length=TEXT_MAX, description="The round (RO), exactly.")] = None,
    date_from: Annotated[str | None, Query(alias="from", max_length=10, description="On or after: 2017, 2017-05 "
                                           "or 2017-05-03.")] = None,
    date_to: Annotated[str | None, Query(alias="to", max_length=10, description="On or before.")] = None,
    result: Annotated[str | None, Query(max_length=40, description="Declared result: B+R, W+, B+3.5, 0, resign, "
                                        "time, score...")] = None,
    verdict: Annotated[str | None, Query(max_length=40, description="pass, invalid, wrong-result, "
                                         "unconfirmed.")] = None,
    status: Annotated[str | None, Query(max_length=40, description="agrees, disagrees, unconfirmed, undeclared, "
                                        "kind-only.")] = None,
    swapped: Annotated[bool | None, Query(description="Only records where the pie swap was (or was not) "
                                          "taken.")] = None,
    moves_min: Annotated[int | None, Query(alias="moves-min", ge=0, le=DB_INT_MAX)] = None,
    moves_max: Annotated[int | None, Query(alias="moves-max", ge=0, le=DB_INT_MAX)] = None,
    text: Annotated[str | None, Query(max_length=TEXT_MAX, description="Text in the comments or the "
                                      "names.")] = None,
    opening: Annotated[str | None, Query(max_length=MOVES_MAX, description="The main line starts with these "
                                         "moves: pd,dp or Q16,D4.")] = None,
) -> Filters:
    """The search filters of `records search`, by their option names."""
    given: dict[str, Any] = {k: (v or None) if isinstance(v, str) else v for k, v in locals().items()}
    return Filters(**given)  # an empty text field of a form is no filter


# Every filter's query name, in the order of the form (the games page keeps them in its links).
FILTER_NAMES = ("player", "black", "white", "winner", "game", "size", "event", "round", "from", "to", "result",
                "verdict", "status", "swapped", "moves-min", "moves-max", "text", "opening")

Sort = Annotated[str, Query(max_length=100, description="id, date, moves, event, round, game, size, black, white, "
                            "winner, result, verdict, problems; `-` first for descending; several with commas.")]
Limit = Annotated[int, Query(ge=1, le=PAGE_MAX, description=f"At most this many records (1-{PAGE_MAX}).")]
Offset = Annotated[int, Query(ge=0, le=OFFSET_MAX, description="Leave out this many first (pages).")]
Moves = Annotated[str | None, Query(max_length=MOVES_MAX, description="Moves from the start: Q16,D4 or pd,dp.")]
PatternFrom = Annotated[int | None, Query(alias="pattern-from", ge=1, le=DB_INT_MAX, description="... the pattern "
                                          "of a region of this stored record (its id; with region and move), as "
                                          "`search --pattern-from`.")]
Region = Annotated[str | None, Query(max_length=40, description="The region: two corners, Q16:T19 (with "
                                     "pattern-from; with pattern: where it is drawn and its continuations named).")]
AtMove = Annotated[int | None, Query(ge=0, le=DB_INT_MAX, description="With pattern-from: the position after this "
                                     "many moves (default: the end of the record's line).")]
