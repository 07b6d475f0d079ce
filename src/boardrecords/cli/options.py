"""Options more than one command takes, and the search filters (search, export, explore, delete).

Filters are typer options in their own help panel; `with_filters` gives them to a command as one `Filters`
argument. archive/core/filters.py holds them as plain values, so building them loads no database.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import Annotated, Any

import typer

DB_INT_MAX = 2**63 - 1  # the largest integer SQLite and PostgreSQL (bigint) compare with: ids, sizes, limits


def whole_number(least: int = 0, most: int = DB_INT_MAX) -> Callable[[str], int]:
    """A parser for a whole-number option or argument (typer's `parser=`, with a metavar such as `N`): a clear
    usage error for text that is not a number or a number out of range (ids of 2**63 and above too), and no raw
    range in the help."""

    def parse(value: str | int) -> int:
        if isinstance(value, int):
            number = value
        else:
            text = value.strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                raise typer.BadParameter(f"{value!r} is not a whole number")
            number = int(text)
        if number < least:
            raise typer.BadParameter(f"{number} is too small: give {least} or more")
        if number > most:
            raise typer.BadParameter(f"{number} is too large: give at most {most}")
        return number

    return parse


def number(least: int = 0, most: int = DB_INT_MAX) -> dict[str, Any]:
    """The settings of a whole-number option (`typer.Option(..., **number(1))`): its parser and the metavar N."""
    return {"parser": whole_number(least, most), "metavar": "N"}


DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Archive: a SQLite file or an SQLAlchemy URL (default: env RECORDS_DB, else "
                              "records.db here).", show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
# Commands that say what they did in one line: their --json promises that line's facts, not a table.
JsonReportOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of the report.")]
ForceOption = Annotated[bool, typer.Option("--force", help="Replace the output file if it exists.")]
CsvOption = Annotated[bool, typer.Option("--csv", help="Print CSV instead of a table.")]

# One option on every command that shows points (GEN-10): the game's own notation by default, SGF letters with it.
_SGF_POINTS = ("Show points in the SGF letters of the records (pd) instead of the game's own notation (Q16 in Go and "
               "Conversion Go, d3 in Cation, Quentin and Squer).")
SgfPointsOption = Annotated[bool, typer.Option("--sgf-points", help=_SGF_POINTS)]
# The same, on a command with --json: its problems' `point` fields do not change.
SgfPointsJsonOption = Annotated[bool, typer.Option(
    "--sgf-points", help=_SGF_POINTS + " JSON `point` fields are SGF letters either way.")]


# -- the search filters ---------------------------------------------------------------------------------------

def _opt(annotation: Any, *names: str, help: str, **kw: Any) -> inspect.Parameter:
    name = kw.pop("param", None) or names[0].lstrip("-").split("/")[0].replace("-", "_")
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=kw.pop("default", None),
                             annotation=Annotated[annotation, typer.Option(*names, help=help,
                                                                           rich_help_panel="Filters", **kw)])


_FILTER_PARAMS = [
    _opt(str | None, "--player", help="A player, either colour, at the start or the finish (`*` = wildcard)."),
    _opt(str | None, "--black", help="The player holding Black at the start or, after a swap, at the finish."),
    _opt(str | None, "--white", help="The player holding White at the start or, after a swap, at the finish."),
    _opt(str | None, "--winner", help="The winner: a player's name, or the colour B / W."),
    _opt(str | None, "--game", help="go-ing, conversion-go, cation, quentin, squer (also go, ConversionGo)."),
    _opt(int | None, "--size", help="Board size.", **number(0)),
    _opt(str | None, "--event", help="The event (EV), compared like names."),
    _opt(str | None, "--round", help="The round (RO), exactly."),
    _opt(str | None, "--from", help="Played on or after this date: 2017, 2017-05 or 2017-05-03.",
         param="date_from"),
    _opt(str | None, "--to", help="Played on or before this date: 2017, 2017-05 or 2017-05-03.",
         param="date_to"),
    _opt(str | None, "--result", help="Declared result: B+R, W+, B+3.5, 0, or a method: resign, time, score..."),
    _opt(str | None, "--verdict", help="pass, invalid, wrong-result, or unconfirmed (passes with an unconfirmed "
         "result)."),
    _opt(str | None, "--status", help="Result status (GEN-8): agrees, disagrees, unconfirmed, undeclared, kind-only."),
    _opt(bool | None, "--swapped/--not-swapped", help="Only records where the pie swap was (or was not) taken."),
    _opt(int | None, "--moves-min", help="At least this many moves on the main line.", **number(0)),
    _opt(int | None, "--moves-max", help="At most this many moves on the main line.", **number(0)),
    _opt(str | None, "--text", help="Text in the comments or the names (case-insensitive)."),
    _opt(str | None, "--opening", help="The main line starts with these moves: 'B\\[pd] W\\[dp]', pd,dp or Q16,D4. "
         "Points in SGF letters or the game's own notation (Q16; a1-style for the connection games), read on the "
         "board of --game and --size (default: Go, 19x19)."),
]


def with_filters(func: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the search filters as options; it receives them as one `filters: Filters` argument."""
    sig = inspect.signature(func, eval_str=True)
    own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in sig.parameters.values() if p.name != "filters"]

    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> Any:
        from ..archive.core.filters import Filters

        values = {p.name: kwargs.pop(p.name) for p in _FILTER_PARAMS}
        return func(filters=Filters(**values), **kwargs)

    params = own + _FILTER_PARAMS
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper
