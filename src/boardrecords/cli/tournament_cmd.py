"""Tournament commands: `records events`, `crosstable`, `players`, `alias`, `ratings`, and the `records tournament`
group for official tournaments (`tournament import FILE.xml`: an OpenGotha file; `tournament check EVENT`;
`tournament export EVENT --format h9`).
views/tournament.py draws the crosstable in a terminal; render/crosstable.py writes it as CSV and HTML,
render/rating_chart.py the rating charts.

Every text from a record is shown through rich Text (never read as markup). Exit codes as in common.py: 0 ok;
1 nothing found; 2 bad usage or an unreachable database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from ..archive.core.names import identity_key
from ..archive.core.numbers import KINDS as NUMBER_KINDS
from ..archive.core.numbers import LABELS as NUMBER_LABELS
from ..records.games import short_name
from ..render.crosstable import crosstable_csv, crosstable_html
from ..render.rating_chart import rating_svg
from .common import (
    EXIT_FAILED,
    CommandError,
    add_commands,
    archive,
    make_console,
    note,
    one_output,
    print_json,
    write_out,
)
from .options import CsvOption, DbOption, ForceOption, JsonOption, number
from .tables import print_table
from .views.layout import Column
from .views.tournament import print_crosstable, print_official
from .views.words import plural

GameOption = Annotated[str | None, typer.Option("--game", help="Only this game (go-ing, conversion-go, cation, "
                                                                "quentin, squer; also go, ConversionGo).")]


def register(app: typer.Typer) -> None:
    add_commands(app, {"events": events_cmd, "crosstable": crosstable_cmd, "players": players_cmd,
                       "alias": alias_cmd, "ratings": ratings_cmd})
    group = typer.Typer(name="tournament", help="Official tournaments: their files in, checks, the federation's "
                        "formats out.", no_args_is_help=True, rich_markup_mode="rich")
    add_commands(group, {"import": tournament_import_cmd, "check": tournament_check_cmd,
                         "export": tournament_export_cmd})
    app.add_typer(group, name="tournament")
    numbers = typer.Typer(name="numbers", help="Players' federation numbers: EGD PIN, AGA id, FFG licence.",
                          no_args_is_help=True, rich_markup_mode="rich")
    add_commands(numbers, {"set": player_set_cmd, "list": player_numbers_cmd})
    app.add_typer(numbers, name="numbers")


def _date(value: Any) -> str:
    return value.isoformat() if value else ""


def _dates(first: Any, last: Any) -> str:
    """`2019-12-14`, `2019-12-14/15`, `2019-11-30/12-01` or `2000-07-28/2003-10-07`: the part the last date
    shares with the first left out."""
    a, b = _date(first), _date(last)
    if not a or not b or a == b:
        return a or b
    for cut in (8, 5):
        if a[:cut] == b[:cut]:
            return f"{a}/{b[cut:]}"
    return f"{a}/{b}"


# -- events ---------------------------------------------------------------------------------------------------

def events_cmd(db: DbOption = None, game: GameOption = None, as_json: JsonOption = False) -> None:
    """Every event (EV) in the archive: its games, first and last date, rounds, players, records and how many
    pass."""
    with archive(db) as opened:
        answer = opened.events(game)
    found = answer.events
    if as_json:
        print_json(answer.to_json())
    elif found:
        columns = [Column("event", shorten=True, least=16), Column("game", drop=3), Column("dates", drop=4),
                   Column("rounds", justify="right", drop=5), Column("players", justify="right", drop=2),
                   Column("records", justify="right"), Column("pass", justify="right", drop=1)]
        print_table(make_console(), columns, [
            [Text(e.name), " ".join(short_name(g) for g in sorted(e.games)), _dates(e.first, e.last),
             str(len(e.rounds)) if e.rounds else "-", str(len(e.players)), str(e.records), str(e.passed)]
            for e in found])
    if not found:
        if not as_json:
            note("no records name an event (EV)")
        raise typer.Exit(EXIT_FAILED)


# -- crosstable -----------------------------------------------------------------------------------------------

def crosstable_cmd(
    event: Annotated[str, typer.Argument(metavar="EVENT", help="The event, as EV names it (case, spacing and "
                                                               "punctuation do not matter).")],
    db: DbOption = None,
    game: GameOption = None,
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
    as_html: Annotated[bool, typer.Option("--html", help="Print one self-contained, printable HTML page.")] = False,
    notation: Annotated[str, typer.Option("--notation", help="How a result is written: records (`3W+`) or "
                                          "opengotha (`3+/w0`: opponent's rank, result, colour, handicap).")]
    = "records",
) -> None:
    """An event's players ranked by score, each round's opponent (by rank), colour and result, and the
    tie-breaks (docs/tournaments.md); when its tournament file was imported, the official results too, each with
    its record and a mark where they disagree."""
    one_output(json=as_json, csv=as_csv, html=as_html)
    with archive(db) as opened:
        answer = opened.crosstable(event, game, notation.lower())
    table = answer.table
    if as_json:
        print_json(answer.to_json())
    elif as_csv:
        write_out(crosstable_csv(table))
    elif as_html:
        write_out(crosstable_html(table, answer.official))
    else:
        out = make_console()
        print_crosstable(out, table)
        if answer.official is not None:
            print_official(out, answer.official)


# -- players and aliases ------------------------------------------------------------------------------------

def players_cmd(db: DbOption = None, game: GameOption = None, as_json: JsonOption = False) -> None:
    """Every player with games, wins, losses and draws per game, and the first and last date."""
    with archive(db) as opened:
        answer = opened.players(game)
    found = answer.players
    if as_json:
        print_json(answer.to_json())
    elif found:
        columns = [Column("player", shorten=True, least=14), Column("game", drop=3),
                   Column("games", justify="right"), Column("wins", justify="right", drop=1),
                   Column("losses", justify="right", drop=1), Column("draws", justify="right", drop=2),
                   Column("first", drop=5), Column("last", drop=4)]
        numbered = any(p.numbers.to_json()[k] for p in found for k in NUMBER_KINDS)
        if numbered:
            columns.append(Column("numbers", drop=6))
        print_table(make_console(), columns, [
            [Text(p.name), short_name(p.game), str(p.games), str(p.wins), str(p.losses), str(p.draws),
             _date(p.first), _date(p.last), *([_numbers(p.numbers.to_json())] if numbered else [])] for p in found])
    if not found:
        if not as_json:
            note("the archive holds no players")
        raise typer.Exit(EXIT_FAILED)


def _numbers(numbers: dict[str, Any]) -> str:
    """A player's federation numbers in one cell: `EGD 12345678, FFG 0512345`."""
    return ", ".join(f"{NUMBER_LABELS[k].split()[0]} {numbers[k]}" for k in NUMBER_KINDS if numbers.get(k))


def player_set_cmd(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The player, as a record names them.")],
    egd: Annotated[str | None, typer.Option("--egd", metavar="PIN", help="The EGD PIN (\"\" removes it).")] = None,
    aga: Annotated[str | None, typer.Option("--aga", metavar="ID", help="The AGA id (\"\" removes it).")] = None,
    ffg: Annotated[str | None, typer.Option("--ffg", metavar="LICENCE", help="The FFG licence (\"\" removes it).")]
    = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Set a player's federation numbers by hand (they win over a tournament file's). Spellings that share a number
    are one player in every list, crosstable, rating and search."""
    if egd is None and aga is None and ffg is None:
        raise CommandError("give --egd, --aga or --ffg")
    with archive(db, write=True) as opened:
        kept = opened.set_player_numbers(name, egd_pin=egd, aga_id=aga, ffg_licence=ffg)
        conflicts = [c for c in opened.player_numbers().conflicts
                     if identity_key(name) in {identity_key(n) for n in c.players}]
    if as_json:
        print_json({"player": name, **{k: kept.get(k) for k in NUMBER_KINDS},
                    "conflicts": [c.to_json() for c in conflicts]})
        return
    note(f"{name}: {_numbers(kept) or 'no numbers set by hand'}")
    for c in conflicts:
        note(f"conflict: {c.message}")


def player_numbers_cmd(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Every player with a federation number (EGD PIN, AGA id, FFG licence) and the spellings that carry it, then
    every conflict: a spelling with two numbers of one kind, or players sharing one number whose others differ
    (they are not joined). Exit 1 when no player has a number."""
    with archive(db) as opened:
        answer = opened.player_numbers()
    if as_json:
        print_json(answer.to_json())
    elif answer.players:
        columns = [Column("player", shorten=True, least=14), Column("EGD PIN"), Column("AGA id", drop=2),
                   Column("FFG licence", drop=1), Column("spellings", shorten=True, drop=3)]
        print_table(make_console(), columns, [
            [Text(p.name), p.numbers.egd_pin, p.numbers.aga_id, p.numbers.ffg_licence,
             Text(", ".join(sorted(p.spellings)))] for p in answer.players])
    if not as_json:
        for c in answer.conflicts:
            note(f"conflict: {c.message}")
    if not answer.players:
        if not as_json:
            note("no player has a federation number")
        raise typer.Exit(EXIT_FAILED)


def alias_cmd(
    names: Annotated[list[str] | None, typer.Argument(metavar="NAME OTHER...", help="A player, then the other "
                                                      "spellings that are the same player.", show_default=False)]
    = None,
    db: DbOption = None,
    list_: Annotated[bool, typer.Option("--list", help="List the aliases.")] = False,
    remove: Annotated[str | None, typer.Option("--remove", metavar="NAME", help="Undo: NAME is its own player "
                                               "again (for a player others were made: all of them).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of the table (--list) or the one "
                                          "line.")] = False,
) -> None:
    """Make several spellings one player, in every search, statistic, crosstable and rating. Names that differ
    only in case, spacing or punctuation are one player already."""

    names = names or []
    if sum((bool(names), list_, remove is not None)) != 1:
        raise CommandError("give NAME OTHER..., --list or --remove NAME")
    if names and len(names) < 2:
        raise CommandError("give a player and at least one other spelling")
    with archive(db, write=True) as opened:
        if remove is not None:
            n = opened.remove_alias(remove)
            if as_json:
                print_json({"removed": n})
            else:
                note(f"removed {plural(n, 'alias', 'aliases')} of {remove}" if n else f"{remove} has no alias")
            if not n:
                raise typer.Exit(EXIT_FAILED)
            return
        if names:
            made = opened.alias(names[0], *names[1:])
            if as_json:
                print_json([{"key": k, "player": c} for k, c in made])
            else:
                note(f"{plural(len(made), 'spelling')} made one player with {names[0]}")
            return
        listed = opened.aliases()
    if as_json:
        print_json([{"spelling": a.name, "key": a.key, "player": a.player, "player_key": a.canonical}
                    for a in listed])
        return
    if not listed:
        note("no aliases")
        raise typer.Exit(EXIT_FAILED)
    columns = [Column("player", shorten=True), Column("spelling", shorten=True), Column("key", shorten=True, drop=1)]
    print_table(make_console(), columns, [[Text(a.player or a.canonical), Text(a.name), Text(a.key)]
                                          for a in listed])


# -- ratings --------------------------------------------------------------------------------------------------

def ratings_cmd(
    db: DbOption = None,
    game: GameOption = None,
    player: Annotated[str | None, typer.Option("--player", help="One player's rating history.")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="With --player: write the history as an SVG line "
                                             "chart to this file.")] = None,
    force: ForceOption = False,
    limit: Annotated[int, typer.Option("--limit", help="At most this many players per game (0: all).", **number(0))]
    = 0,
    as_json: JsonOption = False,
) -> None:
    """Whole-History Rating of every player, per game, from the archive's records in date order, with the games
    played and a 95% interval (docs/tournaments.md says which records count)."""
    if svg is not None and player is None:
        raise CommandError("--svg needs --player")
    with archive(db) as opened:
        answer = opened.ratings(game, player, limit)
    run = answer.run
    if player is not None:
        found = answer.mine
        if svg is not None:
            from .output_files import OutputError, write_output

            try:  # no overwrite without --force, no symbolic link followed, nothing left on a failure
                write_output(svg, rating_svg(found), force=force)
            except OutputError as exc:
                raise CommandError(str(exc), EXIT_FAILED) from None
        if as_json:
            print_json(answer.to_json())
            return
        out = make_console()
        for r in found:
            out.print(Text(f"{r.name} ({short_name(r.game)}, {r.games} game{'s' if r.games != 1 else ''})",
                           style="bold"))
            print_table(out, [Column("date"), Column("rating", justify="right"), Column("95% interval", drop=1)],
                        [[day.isoformat(), f"{value:.0f}", f"{value - 1.96 * sd:.0f} .. {value + 1.96 * sd:.0f}"]
                         for day, value, sd in r.history])
        return
    found = answer.shown
    if as_json:
        print_json(answer.to_json())
    elif found:
        columns = [Column("#", justify="right"), Column("player", shorten=True, least=14), Column("game", drop=3),
                   Column("rating", justify="right"), Column("95% interval", drop=2),
                   Column("games", justify="right", drop=1), Column("last", drop=4)]
        place: dict[str, int] = {}
        cells: list[list[Text | str]] = []
        for r in found:
            place[r.game] = place.get(r.game, 0) + 1
            cells.append([str(place[r.game]), Text(r.name), short_name(r.game), f"{r.rating:.0f}",
                          f"{r.low:.0f} .. {r.high:.0f}", str(r.games), _date(r.last)])
        out = make_console()
        print_table(out, columns, cells)
        left = ", ".join(f"{n} {why}" for why, n in run.skipped.most_common())
        out.print(Text(f"{plural(run.counted, 'record')} rated" + (f"; left out: {left}" if left else ""), style="dim"))
    if not found:
        if not as_json:
            note("no records to rate")
        raise typer.Exit(EXIT_FAILED)


# -- official tournaments -----------------------------------------------------------------------------------------

def tournament_import_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="An OpenGotha tournament file (its save, .xml), or "
                                          "with --game a table of pairings (CSV or TSV).")],
    db: DbOption = None,
    game: Annotated[str | None, typer.Option("--game", help="The file is a table of pairings of this game (any "
                                             "game): round,black,white,result.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="With --game: the tournament's name, as EV names it "
                                             "(else the file's name).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Store an OpenGotha tournament: players with their federation numbers, rounds, pairings, byes, official
    results and settings; or, with --game, a table of pairings of any game (docs/tournaments.md). A later save of
    the same tournament replaces it; a file that cannot be read changes nothing."""
    if name is not None and game is None:
        raise CommandError("--name goes with --game (an OpenGotha file names its tournament)")
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {file}: {exc.strerror or exc}") from None
    with archive(db, write=True, create=True) as opened:
        answer = opened.import_tournament(data, file.name, game=game, name=name)
    if as_json:
        print_json(answer.to_json())
        return
    found = answer.to_json()
    make_console().print(Text(f"{'updated' if found['updated'] else 'imported'} {found['tournament']}: "
         f"{plural(found['players'], 'player')}, {plural(found['rounds'], 'round')}, "
         f"{plural(found['pairings'], 'pairing')}, {plural(found['byes'], 'bye')}"))
    for c in answer.conflicts:
        note(f"conflict: {c.message}")


def tournament_check_cmd(
    event: Annotated[str, typer.Argument(metavar="EVENT", help="The tournament, by its name or short name (as EV "
                                                               "names it: case, spacing and punctuation aside).")],
    db: DbOption = None,
    game: GameOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per disagreement, one a line.")]
    = False,
) -> None:
    """Match the event's records to the tournament's pairings and list every disagreement: a result that is not
    the official one, colours swapped, a pairing without a record, a record without a pairing, a record whose
    verdict is not a pass. Exit 1 when there is one."""
    with archive(db) as opened:
        answer = opened.check_tournament(event, game)
    found = answer.disagreements
    if as_json:
        from ..render.safe_text import json_text

        for d in found:  # one object a line
            typer.echo(json_text(d.to_json()))
    elif found:
        columns = [Column("round", justify="right"), Column("board", justify="right", drop=2), Column("kind"),
                   Column("record", justify="right", drop=1), Column("disagreement", shorten=True, least=20)]
        print_table(make_console(), columns, [
            [str(d.round) if d.round is not None else "-", str(d.board) if d.board is not None else "-", d.kind,
             str(d.record) if d.record is not None else "-", Text(d.message)] for d in found])
    if not as_json:
        note(f"{answer.tournament}: {plural(answer.records, 'record')}, {plural(answer.pairings, 'pairing')}, "
             f"{plural(len(found), 'disagreement')}")
    if found:
        raise typer.Exit(EXIT_FAILED)


def tournament_export_cmd(
    event: Annotated[str, typer.Argument(metavar="EVENT", help="The tournament, by its name or short name.")],
    db: DbOption = None,
    format: Annotated[str, typer.Option("--format", help="The format: h9 (the EGD's results file).")] = "h9",
) -> None:
    """Write the imported tournament as the EGD's h9 results file: one line a player with place, name, rank,
    country, club, McMahon score, SOS, SOSOS (computed from the tournament's settings), each round's result and
    the EGD PIN."""
    with archive(db) as opened:
        text = opened.export_tournament(event, format)
    write_out(text)
