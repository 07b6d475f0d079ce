"""The pages: games (the search form, sortable columns, pages), a game (the replay of `records html`), the
explorer, players and events with their crosstables. Each is a Jinja template (templates/, autoescape on) over the
same answers as the JSON routes (one question to the archive, archive/front.py), at a stable URL whose query is the
JSON route's.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from threading import Lock
from typing import Annotated, Any, NamedTuple
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, Path, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from ..archive.answers import StoredRecord
from ..archive.core.filters import DEFAULT_LIMIT, SORT_NAMES, Filters
from ..archive.front import PATTERN_MAX
from ..common.errors import InputError, concerning
from ..records.games import SPECS, Game, game_from_name, game_title
from ..records.model import FormatError, Record, path_text, variation_path
from ..records.model import Path as Path_
from ..records.notation import Notation, PointNames
from ..render.safe_text import terminal as visible
from ..render.shorten import VALUE_SHOWN, brief
from .assets import package_dir
from .deps import Asked, Budgeted
from .params import (
    DB_INT_MAX,
    FILTER_NAMES,
    TEXT_MAX,
    AtMove,
    Limit,
    Moves,
    Offset,
    PatternFrom,
    Region,
    Sort,
    filters,
)
from .upload import read_upload, settings_of, verify_upload

router = APIRouter(include_in_schema=False)
GAME_PAGES_KEPT = 256  # game pages kept made (a long game's page takes a replay of every move to make)
GAME_PAGES_BYTES = 64 * 1024 * 1024  # and the bytes they may take in all



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


class Listing(NamedTuple):
    """One page of a listing as the templates read it: its objects (the answer's JSON) and how many in all."""

    items: Sequence[Any]
    total: int


class GamePages:
    """The game pages made last (at most `kept` of them, and at most `budget` bytes in all: a page larger than a
    tenth of the budget is not kept), for the one archive version they were made from: a page asked for at
    another version is made again, and the pages of the old one are let go."""

    def __init__(self, kept: int = GAME_PAGES_KEPT, budget: int = GAME_PAGES_BYTES) -> None:
        self.kept = kept
        self.budget = budget
        self.version: int | None = None
        self.pages: OrderedDict[int, bytes] = OrderedDict()
        self.size = 0  # the bytes of the pages kept
        self.lock = Lock()  # the routes run in a pool of threads

    def get(self, record_id: int, version: int | None) -> bytes | None:
        """The kept page of `record_id` when it was made at `version` (None: an archive without a version, whose
        pages are never kept)."""
        with self.lock:
            if version is None or version != self.version:
                self.pages.clear()
                self.size = 0
                self.version = version
                return None
            page = self.pages.get(record_id)
            if page is not None:
                self.pages.move_to_end(record_id)
            return page

    def put(self, record_id: int, version: int | None, page: bytes) -> None:
        with self.lock:
            if version is None or version != self.version or len(page) > self.budget // 10:
                return  # made from another version than the one kept (a request that began before a change)
            self.size += len(page) - len(self.pages.get(record_id, b""))
            self.pages[record_id] = page
            self.pages.move_to_end(record_id)
            while len(self.pages) > self.kept or self.size > self.budget:
                _, gone = self.pages.popitem(last=False)
                self.size -= len(gone)


def render(template: str, **context: Any) -> HTMLResponse:
    return HTMLResponse(templates.get_template(template).render(**context))


class ErrorForm(NamedTuple):
    """The page an error of a path is shown on: its heading, its form (a macro of templates/forms.html) and the
    field a missing thing concerns (a NotFound names no field itself)."""

    heading: str
    form: str | None
    missing: str | None = None


ERROR_FORMS = {
    "/games": ErrorForm("Games", "games"),
    "/explore": ErrorForm("Explorer", "explore"),
    "/patterns": ErrorForm("Patterns", "patterns", "pattern-from"),
    "/players": ErrorForm("Players", "players"),
    "/events": ErrorForm("Events", "events"),
    "/ratings": ErrorForm("Ratings", "ratings", "player"),
    "/crosstable": ErrorForm("Crosstable", "crosstable", "event"),
    "/verify": ErrorForm("Verify a file", "verify"),
}
HEADINGS = {400: "That cannot be answered", 404: "Not found", 405: "Not here", 503: "The archive cannot answer",
            500: "Something went wrong"}


def error_page(request: Request, status: int, message: str, errors: dict[str, str]) -> HTMLResponse:
    """An error of a page as a page, with the same HTTP status as the API's: the site's navigation, the page's
    form with what was typed, and the message above it and beside the field it concerns (`errors`: field ->
    message; a missing thing beside the field that named it)."""
    where = ERROR_FORMS.get(request.url.path, ErrorForm(HEADINGS.get(status, "Error"), None))
    if not errors and status == 404 and where.missing is not None:
        errors = {where.missing: message}
    values: defaultdict[str, str] = defaultdict(str, request.query_params.items())
    page = templates.get_template("error.html").render(heading=where.heading, message=message, form=where.form,
                                                       values=values, errors=errors, status=status)
    return HTMLResponse(page, status_code=status)


def _query(request: Request, **changes: Any) -> str:
    """The page's own query with `changes` (None: left out), for links to other pages and sorts."""
    params = {k: v for k, v in request.query_params.items() if v != ""}
    for k, v in changes.items():
        if v is None:
            params.pop(k, None)
        else:
            params[k] = str(v)
    return urlencode(params)


@router.get("/")
def home() -> RedirectResponse:
    return RedirectResponse("/games", status_code=303)


@router.get("/games")
def games_page(request: Request, archive: Asked, budget: Budgeted, found: Annotated[Filters, Depends(filters)],
               sort: Sort = "-id", limit: Limit = DEFAULT_LIMIT, offset: Offset = 0) -> HTMLResponse:
    page = archive.search(found, sort=sort, limit=limit, offset=offset, budget=budget)
    values = {name: request.query_params.get(name, "") for name in FILTER_NAMES}
    return render("games.html", page=Listing(page.to_json(), page.total), values=values, sort=sort,
                  limit=limit, offset=offset,
                  sorts=SORT_NAMES, query=lambda **c: _query(request, **c))


@lru_cache(maxsize=64)
def _frame(game: Game, size: int, notation: Notation) -> Markup:
    """The board's frame (lines, star points, coordinates), the same for every game of that game, size and
    notation."""
    from ..render.svg import Geometry, frame_shapes, to_xml

    geo = Geometry.of(game, size, caption=False)
    return Markup(to_xml(frame_shapes(geo, PointNames(game, size, notation))))


LineParam = Annotated[str | None, Query(max_length=TEXT_MAX, description="A variation: depth.child for each "
                                       "branching on the way (`12.1`, `12.1,15.2`), as the page's tree links it.")]


def variation_items(record: Record, record_id: int, names: PointNames, line: Path_ | None) -> list[dict[str, Any]]:
    """The record's variations as the game page lists them: depth first, each with its level of nesting, the move
    it leaves at, its first move in the notation, how many moves it plays, and its address; the line shown and
    the lines it leaves marked."""
    from ..records.model import path_text

    out: list[dict[str, Any]] = []
    for top in record.variations():
        for v in top.walk():
            text = path_text(v.path)
            first = "" if v.first is None else f"{v.first.colour.word} {names.move(v.first)}"
            out.append({"path": text, "level": min(len(v.path), 6), "at": v.before + 1, "first": first,
                        "moves": v.moves, "comment": v.comment, "leaves_shown": leaves_line(v.path, line or ()),
                        "href": f"/games/{record_id}?{urlencode({'line': text})}#move={v.before + 1}",
                        "current": line == v.path, "open": line is not None and line[:len(v.path)] == v.path})
    return out


def leaves_line(path: Path_, line: Path_) -> bool:
    """Whether the variation `path` leaves the line `line` (a node of that line is where it branches): the line it
    leaves is followed by `line` at least to that node, and it is not `line` itself or a line `line` follows."""
    parent, depth = path[:-1], path[-1][0]
    if line[:len(parent)] != parent or line[:len(path)] == path:
        return False
    return len(line) == len(parent) or line[len(parent)][0] >= depth


def line_path(line: str | None) -> Path_ | None:
    """The variation a page's `line` names (None: the record's own line); InputError for text that names none."""
    try:
        return variation_path(line) if line else None
    except ValueError as exc:
        raise InputError(f"line: {exc}") from None


def follow(record: Record, path: Path_ | None) -> None:
    """The variation `path` made the record's main line (Record.follow); InputError for a line it has not."""
    if path is not None:
        try:
            record.follow(path)
        except ValueError as exc:
            raise InputError(f"line: {exc}") from None


def readable(stored: StoredRecord) -> Record:
    """A stored record read again from its bytes; InputError when they no longer read as a record."""
    try:
        return stored.record
    except FormatError as exc:
        raise InputError(exc.describe()) from None


@router.get("/games/{record_id}")
def game_page(request: Request, archive: Asked,
              record_id: Annotated[int, Path(ge=1, le=DB_INT_MAX)], line: LineParam = None) -> HTMLResponse:
    """The replay of `records html` (render/html_replay.py: page_data) from one replay of the record; with `line`,
    of that variation of the record (its moves replayed from the start as the main line would be)."""
    from ..render.game_lines import header_lines
    from ..render.html_replay import board_html, header_html, move_items, page_data, script_json, status_html
    from ..render.svg import Geometry
    from ..verifier.judging.analysis import analyse

    # A game's page stays right while the archive is unchanged (another process may fix, import, delete or alias
    # while it is served): the last ones made are kept, for the archive's version they were made from.
    kept: GamePages = request.app.state.game_pages
    version = archive.version()  # read before the record: a change after it leaves its page kept for the old one
    page = kept.get(record_id, version) if not line else None  # a variation's page is made at each view
    if page is not None:
        return HTMLResponse(page)
    path = line_path(line)
    stored = archive.record(record_id)
    row, verdict = stored.row, stored.verdict
    record = readable(stored)
    variations = variation_items(record, record_id, PointNames(record.game, record.size), path)
    follow(record, path)
    leaves = next(v for v in variations if v["current"]) if path is not None else None
    analysis = analyse(record)
    geo = Geometry.of(record.game, record.size, caption=False)
    data = page_data(analysis, geo)
    source = f", {row.source_file} (game {row.source_index + 1})" if row.source_file else ""
    # The replay's markup is the page of `records html`'s; this page adds the links, the problems and the moves.
    page = templates.get_template("game.html").render(
        row=row, title=header_lines(record)[0], problems=verdict.problems,
        board=Markup(board_html(analysis, geo, _frame(record.game, record.size, analysis.notation))),
        header=Markup(header_html(analysis, [("record", f"#{row.id}{source}")])),
        status=Markup(status_html(analysis)),
        moves=move_items(analysis), data=Markup(script_json(data)), variations=variations, leaves=leaves,
        parent=(f"/games/{record_id}?{urlencode({'line': path_text(path[:-1])})}" if path and len(path) > 1
                else f"/games/{record_id}") + (f"#move={leaves['at'] - 1}" if leaves else "")).encode("utf-8")
    if not line:
        kept.put(record_id, version, page)
    return HTMLResponse(page)


@router.get("/games/{record_id}/print")
def game_print(archive: Asked, record_id: Annotated[int, Path(ge=1, le=DB_INT_MAX)],
               line: LineParam = None) -> HTMLResponse:
    """The game as a book prints it: the figures of `records diagram --figures` (render/figures.py: 100 moves
    each, the stones numbered where they were played), the header and the verdict, and the record's comments by
    move number; with print styles (no navigation, a figure never cut across two sheets). With `line`: of that
    variation, as the game page shows it."""
    from ..render.figures import figure_ranges, figure_svg
    from ..render.game_lines import comment_of, header_lines, verdict_lines
    from ..verifier.judging.analysis import analyse

    path = line_path(line)
    stored = archive.record(record_id)
    record = readable(stored)
    follow(record, path)
    analysis = analyse(record)
    figures = [Markup(figure_svg(analysis, a, b).split("?>", 1)[-1].strip()) for a, b in figure_ranges(analysis)]
    lines = header_lines(record)
    comments = [(i, text) for i in range(analysis.last + 1) if (text := comment_of(analysis, i))]
    back = f"/games/{record_id}" + (f"?{urlencode({'line': line})}" if path is not None else "")
    return render("print.html", row=stored.row, title=lines[0], header=[text.partition(": ")[::2]
                  for text in lines[1:]], verdict=verdict_lines(analysis), figures=figures, comments=comments,
                  back=back, variation=path is not None)


@router.get("/games/{record_id}/original")
def original(archive: Asked, record_id: Annotated[int, Path(ge=1, le=DB_INT_MAX)]) -> Response:
    """The record's original bytes, as imported."""
    row = archive.record(record_id).row
    name = f"record-{record_id}.{'sgf' if row.raw[:2] == b'(;' else 'rec'}"
    return Response(bytes(row.raw), media_type="application/octet-stream",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/explore")
def explore_page(request: Request, archive: Asked, budget: Budgeted, found: Annotated[Filters, Depends(filters)],
                 moves: Moves = None, limit: Limit = 20, offset: Offset = 0) -> HTMLResponse:
    from ..records.model import Colour
    from ..records.notation import names_for
    from ..render.board import board_svg, lettered, move_point

    # The games that reached the position come with it (the explorer's count is theirs; the opening table of
    # Conversion Go counts its openings' games).
    with concerning("size"):  # the board first: a size its game is not played on is the size's error
        archive.board(found)
    with concerning("moves"):
        answer = archive.explore(moves or "", found, games=limit, offset=offset, budget=budget)
    at, data = answer.target, answer.to_json()
    assert answer.reached is not None
    reached = Listing(answer.reached.to_json(), answer.reached.total)
    names = names_for(at.game, at.size)
    typed = [m.strip() for m in (moves or "").split(",") if m.strip()]
    base = {k: v for k, v in request.query_params.items() if v != "" and k not in ("moves", "offset")}

    def step(move: str) -> str:
        return "/explore?" + urlencode({**base, "moves": ",".join([*typed, move])})

    continuations = lettered([c | {"href": step(c["move"].split(" ", 1)[-1])}  # `B Q16` -> Q16
                              for c in answer.continuation_json()], names,
                             share=lambda c: c["mover_wins"] / c["games"] if c["games"] else None,
                             href=lambda c, _letter: str(c["href"]))
    # Only a move that can be played is a link: a suicide or a ko point would lead to an error page.
    links = {(col, r): step(names((col, r))) for r, line in enumerate(at.rows) for col, stone in enumerate(line)
             if stone is None and (at.playable is None or (col, r) in at.playable)}
    back = "/explore?" + urlencode({**base, **({"moves": ",".join(typed[:-1])} if len(typed) > 1 else {})})
    svg = board_svg(at.game, at.size, names, "explore-board", rows=at.rows,
                    last=move_point(typed[-1], names) if typed else None, links=links,
                    continuations=[c["mark"] for c in continuations if c["mark"] is not None])
    to_move = at.to_move.word if isinstance(at.to_move, Colour) else "either colour"
    return render("explore.html", data=data, continuations=continuations, reached=reached, typed=typed,
                  game=at.game.value, size=at.size, board=Markup(svg), back=back if typed else None, to_move=to_move,
                  values={name: request.query_params.get(name, "") for name in FILTER_NAMES},
                  moves=",".join(typed), offset=offset, limit=limit, query=lambda **c: _query(request, **c))


@router.get("/players")
def players_page(archive: Asked, budget: Budgeted,
                 game: Annotated[str | None, Query(max_length=40)] = None) -> HTMLResponse:
    with concerning("game"):
        players = archive.players(game or None, budget=budget).to_json()
    return render("players.html", players=players, game=game or "")


@router.get("/players/{name:path}")
def player_page(request: Request, archive: Asked, budget: Budgeted,
                name: Annotated[str, Path(min_length=1, max_length=TEXT_MAX)],
                limit: Limit = 100, offset: Offset = 0) -> HTMLResponse:
    """One player's card (Archive.player_card, as `records player NAME`): results by game, colour, opponent and
    event, the openings played most (each opening the explorer at it, narrowed to the player), the rating chart,
    the events, and a page of `limit` of the player's games."""
    from ..render.rating_chart import rating_svg

    answer = archive.player_card(name, budget=budget)
    data = answer.to_json()
    openings = [o | {"href": "/explore?" + urlencode({"game": o["game"], "size": o["size"], "player": answer.name,
                                                       "moves": ",".join(opening_moves(o["game"], o["moves"]))})}
                for o in data["openings"]]
    chart = Markup(rating_svg(answer.ratings)) if answer.ratings else None
    records = data["records"]
    return render("player.html", card=data, openings=openings, chart=chart,
                  records=Listing(records[offset:offset + limit], len(records)), limit=limit, offset=offset,
                  query=lambda **c: _query(request, **c))


def opening_moves(game: str, moves: Sequence[str]) -> list[str]:
    """An opening's moves (`B Q16`) as the explorer's `moves` takes them: the points alone, whose colours the rules
    give; in Conversion Go's opening, where either colour may move (CON-5), each with its colour (`B:Q16`)."""
    if game == Game.CONVERSION_GO.value:
        return [m.replace(" ", ":", 1) for m in moves]
    return [m.split(" ", 1)[-1] for m in moves]


@router.get("/events")
def events_page(archive: Asked, budget: Budgeted,
                game: Annotated[str | None, Query(max_length=40)] = None) -> HTMLResponse:
    with concerning("game"):
        events = archive.events(game or None, budget=budget).to_json()
    return render("events.html", events=events, game=game or "")


@router.get("/crosstable")
def crosstable_page(archive: Asked, event: Annotated[str, Query(min_length=1, max_length=TEXT_MAX)],
                    game: Annotated[str | None, Query(max_length=40)] = None,
                    notation: Annotated[str, Query(max_length=20)] = "records") -> HTMLResponse:
    with concerning("game"):  # an event of several games needs one named (a bad notation names its field)
        table = archive.crosstable(event, game or None, notation).to_json()
    return render("crosstable.html", table=table, game=game or "")


def mover_share(row: Mapping[str, Any]) -> float | None:
    """The share of a pattern continuation's games its mover won (None: no games, or no mover)."""
    wins = {"B": row.get("black_wins"), "W": row.get("white_wins")}.get(row.get("colour") or "")
    return wins / row["games"] if wins is not None and row["games"] else None


@router.get("/patterns")
def patterns_page(archive: Asked, budget: Budgeted, found: Annotated[Filters, Depends(filters)],
                  pattern: Annotated[str | None, Query(max_length=PATTERN_MAX)] = None,
                  anchor: Annotated[str | None, Query(max_length=40)] = None,
                  either_colour: Annotated[bool, Query(alias="either-colour")] = False,
                  pattern_from: PatternFrom = None, region: Region = None, move: AtMove = None,
                  limit: Limit = DEFAULT_LIMIT, offset: Offset = 0) -> HTMLResponse:
    """Draw a pattern and drag its region (static/patterns.js fills the form), or take it from a stored game's
    position (`pattern-from`, `move`: the position is drawn, a region dragged over it is the pattern); its
    continuations and games as `records search --pattern` gives them, every field of the continuations shown."""
    result = None
    board = None
    origin = (1, 1)
    if pattern_from is not None and region is None:  # a position to drag a region over
        with concerning("move"):
            record, board = archive.board_after(pattern_from, move)
        game, size = record.game, record.size
    elif pattern or pattern_from is not None:
        with concerning("pattern" if pattern_from is None else "region"):
            answer = archive.pattern_search(pattern or None, found, anchor=anchor, either_colour=either_colour,
                                            pattern_from=pattern_from, region=region, move=move, limit=limit,
                                            offset=offset, budget=budget)
        game, size, board, origin = answer.game, answer.size, answer.board, answer.origin
        result = answer.to_json()
        pattern = "/".join(result["pattern"])
    else:
        game, size = archive.board(found)
    from ..render.board import board_svg, lettered

    names = PointNames(game, size)
    position = "".join(s or "." for row in board for s in row) if board is not None else ""
    continuations = []
    if result is not None:
        continuations = lettered(result["continuations"], names, share=mover_share,
                                 href=lambda _c, letter: f"#pattern-continuation-{letter}")
    svg = board_svg(game, size, names, "pattern-svg", editor=True,
                    continuations=[c["mark"] for c in continuations if c["mark"] is not None])
    return render("patterns.html", result=result, game=game.value, size=size, text=pattern or "",
                  board=Markup(svg), continuations=continuations,
                  anchor=anchor or ("" if pattern_from is not None else "anywhere"), either=either_colour,
                  names=" ".join(names((c, r)) for r in range(size) for c in range(size)), position=position,
                  origin=origin, region=region or "", pattern_from=pattern_from,
                  move="" if move is None else move)


@router.get("/verify")
def verify_form() -> HTMLResponse:
    return render("verify.html", report=None, name="")


@router.post("/verify")
async def verify_page(request: Request, file: UploadFile) -> HTMLResponse:
    """The report of an uploaded file (nothing stored): each record's verdict and problems with their rules."""
    from starlette.concurrency import run_in_threadpool

    with concerning("file"):
        data, name = await read_upload(request, file)
        report = await run_in_threadpool(verify_upload, data, name, settings_of(request).max_records)
    return render("verify.html", report=report, name=name)


@router.get("/ratings")
def ratings_page(archive: Asked, budget: Budgeted, game: Annotated[str | None, Query(max_length=40)] = None,
                 player: Annotated[str | None, Query(max_length=TEXT_MAX)] = None) -> HTMLResponse:
    """Every player's rating per game; with `player`: that player's history as a chart and a table."""
    from ..render.rating_chart import rating_svg

    with concerning("game"):
        answer = archive.ratings(game or None, player or None, budget=budget)
    run, mine = answer.run, answer.mine
    chart = Markup(rating_svg(mine)) if mine else None
    return render("ratings.html", ratings=[r.to_json() for r in run.ratings], mine=[r.to_json(history=True)
                  for r in mine], chart=chart, player=player or "", game=game or "")
