"""The query parameters of the web application, named as the commands' options (`from`, `moves-min`...), each
with its bounds: a value out of them is a 400 with a JSON error (app.py), never a 500. The search filters are
made from the table that declares them (archive/core/filters.py), as the commands' options are.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from fastapi import Query

from ..archive.core.filters import DB_INT_MAX, FILTERS, MOVES_MAX, TEXT_MAX, Filters, FilterSpec

PAGE_MAX = 500  # games on one page
OFFSET_MAX = 100_000

Text = Annotated[str | None, Query(max_length=TEXT_MAX)]


def _parameter(spec: FilterSpec) -> inspect.Parameter:
    """The query parameter of one filter of the table: named as the command's option, with its help and bounds."""
    query: dict[str, Any] = {"description": spec.help}
    if spec.option != spec.field:
        query["alias"] = spec.option
    if spec.max_length is not None:
        query["max_length"] = spec.max_length
    if spec.least is not None:
        query["ge"] = spec.least
    if spec.most is not None:
        query["le"] = spec.most
    return inspect.Parameter(spec.field, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=Annotated[spec.kind | None, Query(**query)])


def filters(**given: Any) -> Filters:
    """The search filters of `records search`, by their option names (`from`, `moves-min`...), one query parameter
    for each filter of the table `FILTERS`; a value that is not one is a 400 (FilterError, app.py)."""
    # An empty text field of a form is no filter.
    return Filters.parse(**{k: (v or None) if isinstance(v, str) else v for k, v in given.items()})


_FILTER_PARAMS = [_parameter(spec) for spec in FILTERS]
filters.__signature__ = inspect.Signature(_FILTER_PARAMS, return_annotation=Filters)  # type: ignore[attr-defined]

# Every filter's query name, in the order of the form (the games page keeps them in its links).
FILTER_NAMES = tuple(spec.option for spec in FILTERS)

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
