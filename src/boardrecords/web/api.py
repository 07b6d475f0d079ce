"""The JSON routes, one per command: `/api/search`, `/api/show/{id}`, `/api/explore`, `/api/players`,
`/api/events`, `/api/crosstable`, `/api/ratings`. Their query parameters are the commands' option names, their
JSON the objects of the commands' `--json` (each answer's `to_json()`, archive/answers.py, whose shape is the
route's response model in the OpenAPI description); a listing cut into pages says how many there are in all in
the header `X-Total-Count`. The heavy questions (a pattern search, a wildcard or text search, a filtered
exploration, the listings of players, events and ratings) run under a budget (deps.py, archive/core/budget.py):
over it they answer 503, and 503 with `Retry-After` when too many wait already.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, UploadFile
from fastapi.responses import JSONResponse

from ..archive.answers import (
    CrosstableJson,
    EventJson,
    ExplorationJson,
    GameJson,
    PatternJson,
    PlayerCardJson,
    PlayerJson,
    RatingJson,
    RatingsJson,
    ReachedGameJson,
    RecordJson,
)
from ..archive.core.filters import DEFAULT_LIMIT, Filters
from ..archive.front import PATTERN_MAX
from .deps import Asked, Budgeted
from .params import (
    DB_INT_MAX,
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
from .upload import VerifiedJson, read_upload, settings_of, verify_upload

router = APIRouter(prefix="/api", tags=["archive"])

Game = Annotated[str | None, Query(max_length=40, description="Only this game (go-ing, conversion-go, cation, "
                                   "quentin, squer; also go, ConversionGo).")]


def _json(data: Any, total: int | None = None) -> JSONResponse:
    """The answer's JSON as it is (the response model documents it), with the count of a page's listing."""
    return JSONResponse(data, headers={"X-Total-Count": str(total)} if total is not None else None)


@router.get("/search", summary="records search --json",
            response_model=list[GameJson] | list[ReachedGameJson] | PatternJson)
def search(
    archive: Asked,
    budget: Budgeted,
    found: Annotated[Filters, Depends(filters)],
    sort: Sort = "id",
    limit: Limit = DEFAULT_LIMIT,
    offset: Offset = 0,
    after: Annotated[Moves, Query(alias="after", description="Games that reached the position after these moves "
                                  "(any order, any symmetry), as `search --after`.")] = None,
    pattern: Annotated[str | None, Query(max_length=PATTERN_MAX, description="Games where this pattern "
                                         "appeared: rows of X, O, . and *, separated by /.")] = None,
    anchor: Annotated[str | None, Query(max_length=40, description="anywhere, corner, edge, or sides: "
                                        "top-right...")] = None,
    either_colour: Annotated[bool, Query(alias="either-colour", description="Also with Black and White "
                                         "exchanged.")] = False,
    pattern_from: PatternFrom = None,
    region: Region = None,
    move: AtMove = None,
    tenuki: Annotated[str | None, Query(max_length=20, description="Which continuations in the region count as "
                                        "tenuki: between or kombilo (default: the server's RECORDS_TENUKI, or "
                                        "between).")] = None,
) -> JSONResponse:
    """The records that match every filter given (as `records search --json`), one page of them: `limit` and
    `offset`; `X-Total-Count` says how many match in all. With `after`: by a position; with `pattern` or
    `pattern-from`: by a pattern (an object with the continuations and the records, as `search --pattern --json`
    and `search --pattern-from --json`)."""
    if pattern is not None or pattern_from is not None:
        return _json(archive.pattern_search(pattern, found, anchor=anchor, either_colour=either_colour,
                                            pattern_from=pattern_from, region=region, move=move, limit=limit,
                                            offset=offset, tenuki=tenuki, budget=budget).to_json())
    if after is not None:
        reached = archive.reached(after, found, limit=limit, offset=offset, budget=budget)
        return _json(reached.to_json(), reached.total)
    page = archive.search(found, sort=sort, limit=limit, offset=offset, budget=budget)
    return _json(page.to_json(), page.total)


@router.get("/show/{record_id}", summary="records show ID --json", response_model=RecordJson)
def show(archive: Asked, record_id: Annotated[int, Path(ge=1, le=DB_INT_MAX)]) -> JSONResponse:
    """A stored record: its fields, its verdict and every problem with its rule, as `records show ID --json`."""
    return _json(archive.record(record_id).to_json())


@router.get("/explore", summary="records explore --json", response_model=ExplorationJson)
def explore(archive: Asked, budget: Budgeted, found: Annotated[Filters, Depends(filters)],
            moves: Moves = None) -> JSONResponse:
    """What was played next at the position after `moves` on the board of `game` and `size`, with games, wins by
    colour and by mover, draws, last played, and for the pie games the swaps (as `records explore --json`)."""
    return _json(archive.explore(moves or "", found, budget=budget).to_json())


@router.get("/players", summary="records players --json", response_model=list[PlayerJson])
def players(archive: Asked, budget: Budgeted, game: Game = None) -> JSONResponse:
    """Every player with games, wins, losses and draws per game."""
    return _json(archive.players(game, budget=budget).to_json())


@router.get("/players/{name:path}", summary="records player NAME --json", response_model=PlayerCardJson)
def player(archive: Asked, budget: Budgeted,
           name: Annotated[str, Path(min_length=1, max_length=TEXT_MAX, description="The player, by any of "
                                     "their spellings or aliases.")]) -> JSONResponse:
    """One player: every game, results by game, colour, opponent and event, openings, events and rating."""
    return _json(archive.player_card(name, budget=budget).to_json())


@router.get("/events", summary="records events --json", response_model=list[EventJson])
def events(archive: Asked, budget: Budgeted, game: Game = None) -> JSONResponse:
    """Every event: games, dates, rounds, players, records and how many pass."""
    return _json(archive.events(game, budget=budget).to_json())


@router.get("/crosstable", summary="records crosstable EVENT --json", response_model=CrosstableJson)
def crosstable(archive: Asked, event: Annotated[str, Query(min_length=1, max_length=TEXT_MAX)],
               game: Game = None, notation: Annotated[str, Query(max_length=20)] = "records") -> JSONResponse:
    """An event's crosstable with its tie-breaks (cells in `notation`: records or opengotha), and the official
    results of its imported tournament."""
    return _json(archive.crosstable(event, game, notation).to_json())


@router.get("/ratings", summary="records ratings --json", response_model=RatingsJson | list[RatingJson])
def ratings(archive: Asked, budget: Budgeted, game: Game = None,
            player: Annotated[str | None, Query(max_length=TEXT_MAX, description="One player's rating "
                                                "history.")] = None,
            limit: Annotated[int, Query(ge=0, le=100_000, description="At most this many players per game "
                                        "(0: all).")] = 0) -> JSONResponse:
    """Whole-History Rating of every player, per game (with `player`: that player's history)."""
    return _json(archive.ratings(game, player, limit, budget=budget).to_json())


@router.post("/verify", summary="records verify --json (an uploaded file)", response_model=list[VerifiedJson])
async def verify(request: Request, file: UploadFile) -> JSONResponse:
    """Verify an uploaded record file, storing nothing: each record's `records verify --json` object."""
    from starlette.concurrency import run_in_threadpool

    data, name = await read_upload(request, file)
    return _json(await run_in_threadpool(verify_upload, data, name, settings_of(request).max_records))
