"""`records player NAME`: one player's card (Archive.player_card, the same answer as the page /players/NAME):
results by game and by colour, against each opponent, by event, the openings played most, the rating, and every
game. Each part is a fitted table (views/layout.py), so that it reads at any width. Every text from a record is
shown through rich Text (never read as markup). Exit codes as in common.py: 0 ok; 1 no records of the player; 2
bad usage or an unreachable database.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from ..records.games import short_name
from .common import add_commands, archive, make_console, print_json
from .options import DbOption, JsonOption
from .tables import print_table
from .views.layout import Column

if TYPE_CHECKING:
    from rich.console import Console

    from ..archive.tournaments.player_card import Tally

COLOURS = {"B": "Black", "W": "White"}
OUTCOMES = {"won": "won", "lost": "lost", "drew": "draw", "-": "-"}


def register(app: typer.Typer) -> None:
    add_commands(app, {"player": player_cmd})


def _counts(t: Tally) -> list[str]:
    return [str(t.games), str(t.wins), str(t.losses), str(t.draws)]


def _count_columns() -> list[Column]:
    return [Column("games", justify="right"), Column("wins", justify="right"),
            Column("losses", justify="right"), Column("draws", justify="right", drop=1)]


def _section(out: Console, title: str) -> None:
    out.print()
    out.print(Text(title, style="bold"))


def _tallied(out: Console, title: str, what: str, when: str,
             rows: list[tuple[str, str, Tally, dt.date | None]]) -> None:
    """A section of results against someone or at something (an opponent, an event), when there are any."""
    if not rows:
        return
    _section(out, title)
    print_table(out, [Column(what, shorten=True, least=12), Column("game", drop=3), *_count_columns(),
                      Column(when, drop=2)],
                [[Text(label), short_name(game), *_counts(t), day.isoformat() if day else ""]
                 for label, game, t, day in rows])


def player_cmd(
    name: Annotated[str, typer.Argument(help="The player, by any of their spellings or aliases.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """One player: results by game and colour (the colour held at the end of a game), against each opponent and
    by event, the openings played most (the position after the first three moves, docs/tournaments.md), the rating,
    and every game."""
    with archive(db) as opened:
        answer = opened.player_card(name)
    if as_json:
        print_json(answer.to_json())
        return
    c = answer.card
    out = make_console()
    spelt = f" (also {', '.join(s for s in c.spellings if s != c.name)})" if len(c.spellings) > 1 else ""
    out.print(Text(f"{c.name}{spelt}: {len(c.games)} game{'s' if len(c.games) != 1 else ''}", style="bold"))
    print_table(out, [Column("game"), Column("colour"), *_count_columns()],
                [[short_name(game), "all", *_counts(t)] for game, t in sorted(c.by_game.items())]
                + [[short_name(game), COLOURS[colour], *_counts(t)]
                   for (game, colour), t in sorted(c.by_colour.items())])
    if answer.ratings:
        _section(out, "Rating (Whole-History Rating, 95% interval)")
        print_table(out, [Column("game"), Column("rating", justify="right"), Column("95% interval", drop=1),
                          Column("rated games", justify="right", drop=2)],
                    [[short_name(r.game), f"{r.rating:.0f}", f"{r.low:.0f} .. {r.high:.0f}", str(r.games)]
                     for r in answer.ratings])
    _tallied(out, "Against each opponent", "opponent", "last",
             [(a.opponent, a.game, a.tally, a.last) for a in c.opponents])
    _tallied(out, "Events", "event", "first", [(e.event, e.game, e.tally, e.first) for e in c.events])
    if c.openings:
        _section(out, "Openings played most (the position after the first three moves)")
        print_table(out, [Column("moves", shorten=True, least=10), Column("game", drop=3), *_count_columns(),
                          Column("as Black", justify="right", drop=2), Column("as White", justify="right", drop=2)],
                    [[", ".join(o.moves), short_name(o.game), *_counts(o.tally), str(o.as_black), str(o.as_white)]
                     for o in c.openings])
    _section(out, "Games")
    print_table(out, [Column("id", justify="right"), Column("date", drop=3), Column("game", drop=4),
                      Column("colour", drop=2), Column("opponent", shorten=True, least=10),
                      Column("result"), Column("event", shorten=True, drop=1)],
                [[str(g.row.id), g.row.date_raw or "", short_name(g.row.game), COLOURS[g.colour],
                  Text(g.opponent or ""), OUTCOMES[g.outcome], Text(g.row.event or "")] for g in c.games])
