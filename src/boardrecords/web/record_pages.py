"""The recording pages of `records serve`: `/record` (start a game, and the games being played now) and
`/record/{id}` (the board of one game: click a point or type it to play, the special moves the rules offer as
buttons, the refusal of a move shown with its rule, live for every viewer). The pages only draw; every change is a
request to the API of web/recording.py, sent by static/record.js."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import HTMLResponse, Response

from ..records.games import SPECS, Colour, Game
from ..records.notation import PointNames
from .deps import Asked

router = APIRouter(include_in_schema=False)
DB_INT_MAX = 2**31 - 1
RecordingId = Annotated[int, Path(ge=1, le=DB_INT_MAX)]


def board_of(game: Game, size: int, board: list[str], last: str | None) -> str:
    """The recording's board as every page draws one (render/board.py): its stones, the last move ringed, each
    point named in the game's notation (the page's script plays the point clicked)."""
    from ..render.board import board_svg, move_point

    names = PointNames(game, size)
    rows = [[Colour(c) if c in "BW" else None for c in row] for row in board]
    return board_svg(game, size, names, "record-svg", rows=rows,
                     last=move_point(last, names) if last else None)


@router.get("/record")
def start_page(archive: Asked) -> HTMLResponse:
    from .pages import templates

    games = [(g.value, SPECS[g].title, SPECS[g].default_size or (6 if g is not Game.SQUER else 7)) for g in Game]
    page = templates.get_template("record_start.html").render(
        playing=[r.to_json() for r in archive.recordings()], games=games)
    return HTMLResponse(page)


@router.get("/record/{recording_id}")
def game_page(archive: Asked, recording_id: RecordingId) -> HTMLResponse:
    from .pages import templates

    position = archive.recording(recording_id)
    data = position.to_json()
    last = position.moves[-1].name if position.moves else None
    page = templates.get_template("record.html").render(
        position=data, title=SPECS[Game(position.game)].title,
        board=board_of(Game(position.game), position.size, position.board, last),
        data=json.dumps(data).replace("<", "\\u003c"))
    return HTMLResponse(page)


@router.get("/record/{recording_id}/board")
def board(archive: Asked, recording_id: RecordingId) -> Response:
    """The board of the position now (the page's script puts it in place of the one shown)."""
    position = archive.recording(recording_id)
    last = position.moves[-1].name if position.moves else None
    svg = board_of(Game(position.game), position.size, position.board, last)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
