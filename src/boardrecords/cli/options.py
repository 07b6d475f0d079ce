"""Options more than one command takes, and the search filters (search, export, explore, delete).

Filters are typer options in their own help panel, one for each filter of the table `FILTERS`
(archive/core/filters.py, which loads no database); `with_filters` gives them to a command as one `Filters`
argument, built and checked by `Filters.parse`.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import Annotated, Any

import typer

from ..archive.core.filters import DB_INT_MAX, FILTERS, FilterError, Filters, FilterSpec
from .common import CommandError


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

def _escaped(help: str) -> str:
    """A help text of the table as typer's rich markup shows it as written (`[pd]` is no markup tag)."""
    return help.replace("[", "\\[")


def _option(spec: FilterSpec) -> inspect.Parameter:
    """The typer option of one filter of the table: `--{option}`, its help in the Filters panel, its bounds."""
    kw: dict[str, Any] = {}
    names = [f"--{spec.option}"]
    annotation: Any = str | None
    if spec.kind is bool:
        names = [f"--{spec.option}/--{spec.off}"]
        annotation = bool | None
    elif spec.kind is int:
        # Any whole number the database compares is read here; the table's bounds are checked as the filters are
        # built (Filters.parse), where a size is checked against its game's boards.
        annotation = int | None
        kw = number(-DB_INT_MAX - 1, DB_INT_MAX)
    return inspect.Parameter(spec.field, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=Annotated[annotation, typer.Option(*names, help=_escaped(spec.help),
                                                                           rich_help_panel="Filters", **kw)])


_FILTER_PARAMS = [_option(spec) for spec in FILTERS]


def with_filters(func: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the search filters as options; it receives them as one `filters: Filters` argument."""
    sig = inspect.signature(func, eval_str=True)
    own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in sig.parameters.values() if p.name != "filters"]

    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> Any:
        values = {p.name: kwargs.pop(p.name) for p in _FILTER_PARAMS}
        try:
            built = Filters.parse(**values)
        except FilterError as exc:
            raise CommandError(str(exc)) from None
        return func(filters=built, **kwargs)

    params = own + _FILTER_PARAMS
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper
