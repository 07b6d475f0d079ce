"""Options more than one command takes (the search filters: filter_options.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

import typer

from ..common.bounds import DB_INT_MAX


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
