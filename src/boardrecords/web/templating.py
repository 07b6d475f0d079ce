"""The templates of the pages (templates/, Jinja, autoescape on) and what they write with: every value from a
record shown with its control characters visible, bounded in a cell, a game by its players' name."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from ..archive.core.filters import TEXT_MAX
from ..records.games import SPECS, Game, game_from_name, game_title
from ..render.safe_text import terminal as visible
from ..render.shorten import VALUE_SHOWN, brief
from .assets import package_dir


def shown(value: Any) -> Any:
    """Every value a template writes passes here before it is escaped (the environment's `finalize`): text from
    a record shows its control characters, bidi and zero-width marks as visible escapes (render/safe_text.py), on
    every page as on the game page; markup made by the code (Markup) is left as it is."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return visible(value)
    return value


templates = Environment(loader=FileSystemLoader(package_dir("templates")), autoescape=True,
                        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, finalize=shown)


def percent(part: float | None, whole: float | None) -> str:
    return f"{100 * part / whole:.0f}%" if part is not None and whole else ""


def stored_game(text: str | None) -> str:
    """The stored value of a game a form names (`go` -> `go-ing`), or the text as typed when it names none."""
    game = game_from_name(text or "")
    return game.value if game is not None else text or ""


def bounded(value: Any, width: int = VALUE_SHOWN) -> str:
    """A value from a record as a cell of a page shows it: shortened past `width` characters after a whole word
    (render/shorten.py); the whole value is one click away, on the record's page."""
    text = "" if value is None else str(value)
    return brief(text, width)


def link_to(path: str, params: dict[str, Any], text: Any) -> Markup:
    """A link to the page `path` asked with `params`, its text bounded and escaped as every text of a page; the
    text alone when a value is longer than the page's parameter takes (TEXT_MAX): such a link could not answer."""
    label = escape(visible(bounded(text)))
    if any(isinstance(v, str) and len(v) > TEXT_MAX for v in params.values()):
        return Markup(label)
    return Markup(f'<a href="{escape(path + "?" + urlencode(params))}">{label}</a>')


def player_href(name: str) -> str:
    """The address of a player's page (/players/NAME, the name as one path segment)."""
    return "/players/" + quote(name, safe="")


def player_link(name: Any, text: Any = None) -> Markup:
    """A link to the page of the player `name` (its text `text`, else the name), bounded and escaped as every text
    of a page; the text alone for no name, or a name longer than the page takes (TEXT_MAX)."""
    label = escape(visible(bounded(name if text is None else text)))
    if not isinstance(name, str) or not name.strip() or len(name) > TEXT_MAX or "\x00" in name:
        return Markup(label)
    return Markup(f'<a class="player" href="{escape(player_href(name))}">{label}</a>')


templates.filters["percent"] = percent
templates.globals["player_link"] = player_link
templates.globals["player_href"] = player_href
templates.filters["bounded"] = bounded
templates.globals["link_to"] = link_to
templates.filters["game_name"] = game_title  # a game as players name it, never its stored value (`go-ing`)
templates.globals["urlencode"] = urlencode
templates.globals["game_value"] = stored_game
templates.globals["GAMES"] = [(g.value, SPECS[g].title) for g in Game]
