"""The search filters as options (search, export, explore, delete): typer options in their own help panel, one for
each filter of the table `FILTERS` (archive/core/filters.py, which loads no database); `with_filters` gives them to
a command as one `Filters` argument, built and checked by `Filters.parse`. Only the commands with filters load it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer

from ..archive.core.filters import DB_INT_MAX, FILTERS, FilterError, Filters, FilterSpec
from .common import CommandError
from .options import number


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
