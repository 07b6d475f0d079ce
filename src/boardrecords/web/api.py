"""The JSON routes, one per command: `/api/search`, `/api/show/{id}`, `/api/explore`, `/api/players`,
`/api/events`, `/api/crosstable`, `/api/ratings`. Their query parameters are the commands' option names, their
JSON the objects of the commands' `--json`; a listing cut into pages says how many there are in all in the header
`X-Total-Count`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, UploadFile
from fastapi.responses import JSONResponse

from ..archive.core.filters import DEFAULT_LIMIT, Filters
from ..common.settings import Settings
from . import answers
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

router = APIRouter(prefix="/api", tags=["archive"])

Game = Annotated[str | None, Query(max_length=40, description="Only this game (go-ing, conversion-go, cation, "
                                   "quentin, squer; also go, ConversionGo).")]


def _engine(request: Request) -> Any:
    return request.app.state.engine


def _page(page: answers.Page) -> JSONResponse:
    return JSONResponse(page.items, headers={"X-Total-Count": str(page.total)})


@router.get("/search", summary="records search --json")
def search(
    request: Request,
    found: Annotated[Filters, Depends(filters)],
    sort: Sort = "id",
    limit: Limit = DEFAULT_LIMIT,
    offset: Offset = 0,
    after: Annotated[Moves, Query(alias="after", description="Games that reached the position after these moves "
                                  "(any order, any symmetry), as `search --after`.")] = None,
    pattern: Annotated[str | None, Query(max_length=answers.PATTERN_MAX, description="Games where this pattern "
                                         "appeared: rows of X, O, . and *, separated by /.")] = None,
    anchor: Annotated[str | None, Query(max_length=40, description="anywhere, corner, edge, or sides: "
                                        "top-right...")] = None,
    either_colour: Annotated[bool, Query(alias="either-colour", description="Also with Black and White "
                                         "exchanged.")] = False,
    pattern_from: PatternFrom = None,
    region: Region = None,
    move: AtMove = None,
) -> Any:
    """The records that match every filter given (as `records search --json`), one page of them: `limit` and
    `offset`; `X-Total-Count` says how many match in all. With `after`: by a position; with `pattern` or
    `pattern-from`: by a pattern (an object with the continuations and the records, as `search --pattern --json`
    and `search --pattern-from --json`)."""
    if pattern is not None or pattern_from is not None:
        engine = _engine(request)
        asked = answers.asked_pattern(engine, found, pattern, source=pattern_from, move=move, region=region,
                                      anchor=anchor)
        return answers.pattern_search(engine, found, asked, either_colour=either_colour, limit=limit, offset=offset,
                                      plain_scan=settings_of(request).plain_scan)
    if after is not None:
        return _page(answers.position_search(_engine(request), found, after, limit=limit, offset=offset))
    return _page(answers.search(_engine(request), found, sort=sort, limit=limit, offset=offset))


@router.get("/show/{record_id}", summary="records show ID --json")
def show(request: Request, record_id: Annotated[int, Path(ge=1, le=DB_INT_MAX)]) -> dict[str, Any]:
    """A stored record: its fields, its verdict and every problem with its rule, as `records show ID --json`."""
    return answers.show(_engine(request), record_id)


@router.get("/explore", summary="records explore --json")
def explore(request: Request, found: Annotated[Filters, Depends(filters)], moves: Moves = None) -> dict[str, Any]:
    """What was played next at the position after `moves` on the board of `game` and `size`, with games, wins by
    colour and by mover, draws, last played, and for the pie games the swaps (as `records explore --json`)."""
    return answers.explore(_engine(request), found, moves)[1]


@router.get("/players", summary="records players --json")
def players(request: Request, game: Game = None) -> list[dict[str, Any]]:
    """Every player with games, wins, losses and draws per game."""
    return answers.players(_engine(request), game)


@router.get("/events", summary="records events --json")
def events(request: Request, game: Game = None) -> list[dict[str, Any]]:
    """Every event: games, dates, rounds, players, records and how many pass."""
    return answers.events(_engine(request), game)


@router.get("/crosstable", summary="records crosstable EVENT --json")
def crosstable(request: Request, event: Annotated[str, Query(min_length=1, max_length=TEXT_MAX)],
               game: Game = None) -> dict[str, Any]:
    """An event's crosstable with its tie-breaks."""
    return answers.crosstable(_engine(request), event, game)


@router.get("/ratings", summary="records ratings --json")
def ratings(request: Request, game: Game = None,
            player: Annotated[str | None, Query(max_length=TEXT_MAX, description="One player's rating "
                                                "history.")] = None,
            limit: Annotated[int, Query(ge=0, le=100_000, description="At most this many players per game "
                                        "(0: all).")] = 0) -> Any:
    """Whole-History Rating of every player, per game (with `player`: that player's history)."""
    return answers.ratings(_engine(request), game, player, limit)


def settings_of(request: Request) -> Settings:
    """The settings the application was made with (`records serve` reads them from the environment)."""
    settings: Settings = request.app.state.settings
    return settings


async def read_upload(request: Request, file: UploadFile) -> tuple[bytes, str]:
    """The upload's bytes, refused past the file cap of `records verify` (RECORDS_MAX_FILE_SIZE, default 3 MiB)."""
    from ..records.limits import describe_size

    cap = settings_of(request).max_file_size
    data = await file.read(cap + 1 if cap is not None else -1)
    if cap is not None and len(data) > cap:
        raise answers.BadRequest(f"the file is larger than {describe_size(cap)} (RECORDS_MAX_FILE_SIZE)")
    name = (file.filename or "upload")[:200]
    return data, name


@router.post("/verify", summary="records verify --json (an uploaded file)")
async def verify(request: Request, file: UploadFile) -> list[dict[str, Any]]:
    """Verify an uploaded record file, storing nothing: each record's `records verify --json` object."""
    from starlette.concurrency import run_in_threadpool

    data, name = await read_upload(request, file)
    return await run_in_threadpool(answers.verify_upload, data, name, settings_of(request).max_records)
