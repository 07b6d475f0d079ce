"""Recording games as they are played, over HTTP (`/api/recordings`): a thin face of the Archive's recording
methods (archive/store/recordings.py), and the live stream of each game to its watchers.

Who may write: with `--accounts`, editors (web/accounts.py's `writer`: a session with its CSRF token, or an API
token); on the read-only default, only a client on this machine (127.0.0.1, ::1), not through a proxy, and never
from another site's page (guards.OriginCheck). The read-only default then opens a second, writing connection to
the archive for the recordings alone.

Watching (`GET /api/recordings/{id}/events`, server-sent events): one Channel per game watched in this process
holds its last position, computed once per change for all its watchers. A change made by this process wakes the
channel at once; a change made by another process (several servers over one database) is found by the channel's
poll of the recording's revision, once a second, however many watch.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from ..archive.front import Archive
from ..archive.store.recordings import FinishedJson, MoveRefused, PositionJson, StalePosition, SummaryJson
from .accounts import visitor, writer
from .deps import Asked

LOCAL_CLIENTS = frozenset({"127.0.0.1", "::1"})
POLL_SECONDS = 1.0  # how often a watched game's revision is read (changes made by other processes)
KEEP_ALIVE_SECONDS = 15.0  # a comment line to every watcher when nothing happened for this long
EDITOR = writer("editor").dependency

router = APIRouter(tags=["recording"])


# -- the bodies -----------------------------------------------------------------------------------------------

class StartBody(BaseModel):
    """A new recording: the game (`go`, `conversion-go`, `cation`, `quentin`, `squer`), the board size (Go's 19
    and Conversion Go's 16 by default) and the header."""

    game: str = Field(max_length=32)
    size: int | None = Field(default=None, ge=2, le=52)
    black: str | None = Field(default=None, max_length=200)
    white: str | None = Field(default=None, max_length=200)
    black_rank: str | None = Field(default=None, max_length=200)
    white_rank: str | None = Field(default=None, max_length=200)
    event: str | None = Field(default=None, max_length=200)
    round: str | None = Field(default=None, max_length=200)
    date: str | None = Field(default=None, max_length=200, description="DT; today when not given")
    place: str | None = Field(default=None, max_length=200)
    name: str | None = Field(default=None, max_length=200)
    ruleset: str | None = Field(default=None, max_length=200)
    komi: float | None = Field(default=None, ge=-1000, le=1000)
    handicap: int | None = Field(default=None, ge=0, le=2704)
    time: float | None = Field(default=None, ge=0, le=1_000_000, description="TM: seconds for each player")
    overtime: str | None = Field(default=None, max_length=200, description="OT, e.g. 5x30 byo-yomi")
    setup_black: list[Annotated[str, Field(max_length=8)]] = Field(default=[], max_length=2704,
                                                                     description="Go: handicap stones (AB)")
    setup_white: list[Annotated[str, Field(max_length=8)]] = Field(default=[], max_length=2704)
    first: str | None = Field(default=None, max_length=1, description="Go: B or W, the colour to move first (PL)")


class MoveBody(BaseModel):
    """A move: as the record format writes it (FMT-12: `pd`, empty for a pass, `swap-sides`, `dc-fe`, `dc-`,
    `sweep-c`, `resign`) or in the game's notation (`Q16`, `d3`, `pass`, `swap`, `d3-f1`, `sweep-3`)."""

    move: str = Field(max_length=40)
    after: int | None = Field(default=None, ge=0, description="the number of moves the client saw: refused (409) "
                                                              "when the game has moved on")
    colour: str | None = Field(default=None, max_length=1,
                               description="B or W: by default the colour to move (needed in Conversion Go's "
                                           "opening, CON-5, where either may move)")
    comment: str | None = Field(default=None, max_length=10_000)
    black_time: float | None = Field(default=None, ge=0, le=1_000_000, description="BL: Black's seconds left")
    white_time: float | None = Field(default=None, ge=0, le=1_000_000, description="WL: White's seconds left")
    marks_black: list[Annotated[str, Field(max_length=8)]] = Field(default=[], max_length=2704,
                                                                     description="TB on a final pass (ING-7, CON-7)")
    marks_white: list[Annotated[str, Field(max_length=8)]] = Field(default=[], max_length=2704)


class AfterBody(BaseModel):
    after: int | None = Field(default=None, ge=0)


class CommentBody(BaseModel):
    text: str = Field(max_length=10_000)
    number: int | None = Field(default=None, ge=1, description="the move (the last by default)")
    after: int | None = Field(default=None, ge=0)


class MarksBody(BaseModel):
    """The end-of-game marks of the final pass: `marks_black` (TB: Black's territory, the white stones on it
    removed in Go, converted in Conversion Go) and `marks_white` (TW)."""

    marks_black: list[Annotated[str, Field(max_length=8)]] = Field(default=[], max_length=2704)
    marks_white: list[Annotated[str, Field(max_length=8)]] = Field(default=[], max_length=2704)
    after: int | None = Field(default=None, ge=0)


class FinishBody(BaseModel):
    result: str | None = Field(default=None, max_length=200,
                               description="the result an editor enters (B+T, W+F, B+3.5, 0); by default the "
                                           "one the game's end shows")


# -- who may write --------------------------------------------------------------------------------------------

async def may_record(request: Request, archive: Asked) -> str | None:
    """Who writes: the editor's name (with accounts), or None for a local client of the read-only default; 401 or
    403 otherwise. Asynchronous as the editor's check is (it may read the CSRF token from a form's body); the
    session is looked up in the thread pool, as a synchronous dependency would be."""
    if request.app.state.archive.writable:  # served with accounts
        seen = await run_in_threadpool(visitor, request, archive)
        account = await EDITOR(request, seen)
        return str(account.name)
    host = request.client.host if request.client else ""
    proxied = any(request.headers.get(h) for h in ("forwarded", "x-forwarded-for", "x-real-ip"))
    if host not in LOCAL_CLIENTS or proxied or request.app.state.public_hosts:
        raise HTTPException(403, "recording on an archive served without accounts is for this machine only "
                                 "(127.0.0.1): serve it with --accounts to record from elsewhere")
    return None


Who = Annotated[str | None, Depends(may_record)]


_opening = threading.Lock()


def recorder(request: Request, _: Who) -> Archive:
    """The archive the recordings are written to, for a request that may write (`may_record` first: nothing is
    opened for one that may not): the application's own when it serves accounts (opened writable), else a writing
    connection opened once, on the first recording."""
    state = request.app.state
    archive: Archive = state.archive
    if archive.writable:
        return archive
    with _opening:
        opened: Archive | None = getattr(state, "recorder", None)
        if opened is None:
            opened = state.recorder = Archive(archive.db, write=True, settings=archive.settings)
    return opened


Recorder = Annotated[Archive, Depends(recorder)]


# -- the live stream ------------------------------------------------------------------------------------------

@dataclass
class Channel:
    """One watched game: its last revision and position (JSON text), and the watchers waiting for the next."""

    revision: int = -1
    payload: str = ""
    watchers: int = 0
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    kick: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class Notifier:
    """The channels of the games watched in this process."""

    def __init__(self) -> None:
        self.channels: dict[int, Channel] = {}

    def wake(self, recording_id: int) -> None:
        """A change was committed here: the game's channel reads it now (on the event loop)."""
        channel = self.channels.get(recording_id)
        if channel is not None:
            channel.kick.set()

    async def _follow(self, archive: Archive, recording_id: int, channel: Channel) -> None:
        """Read the game's revision when woken or every POLL_SECONDS; on a change, its position once for all."""
        while channel.watchers > 0:
            with suppress(TimeoutError):
                await asyncio.wait_for(channel.kick.wait(), POLL_SECONDS)
            channel.kick.clear()
            try:
                revision = await run_in_threadpool(archive.recording_revision, recording_id)
                if revision is None or revision == channel.revision:
                    continue
                position = await run_in_threadpool(archive.recording, recording_id)
            except Exception:  # a database that fails for a moment: the next poll tries again
                continue
            channel.payload = json.dumps(position.to_json())
            channel.revision = revision
            async with channel.changed:
                channel.changed.notify_all()

    async def stream(self, archive: Archive, recording_id: int, first: str, revision: int) -> AsyncIterator[str]:
        """The events of one watcher: the position now, then each new one."""
        channel = self.channels.get(recording_id)
        if channel is None:
            channel = self.channels[recording_id] = Channel(revision, first)
        channel.watchers += 1
        if channel.task is None or channel.task.done():
            channel.task = asyncio.ensure_future(self._follow(archive, recording_id, channel))
        try:
            if channel.revision < revision:
                channel.revision, channel.payload = revision, first
            seen = channel.revision
            yield _event(seen, channel.payload)
            while True:
                async with channel.changed:
                    try:
                        await asyncio.wait_for(channel.changed.wait_for(_moved_on(channel, seen)),
                                               KEEP_ALIVE_SECONDS)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                seen = channel.revision
                yield _event(seen, channel.payload)
        finally:
            channel.watchers -= 1
            if channel.watchers <= 0:
                channel.kick.set()  # its task sees no watcher and ends
                self.channels.pop(recording_id, None)


def _moved_on(channel: Channel, seen: int) -> Callable[[], bool]:
    return lambda: channel.revision != seen


def _event(revision: int, payload: str) -> str:
    return f"event: position\nid: {revision}\ndata: {payload}\n\n"


def notifier(request: Request) -> Notifier:
    state = request.app.state
    found: Notifier | None = getattr(state, "notifier", None)
    if found is None:
        found = state.notifier = Notifier()
    return found


# -- the routes -----------------------------------------------------------------------------------------------

def _refused(exc: MoveRefused, archive: Archive, recording_id: int) -> JSONResponse:
    """409: the move or change the game cannot take where it stands, with the rule and the position now."""
    body: dict[str, Any] = {"error": str(exc), "rule": exc.rule, "code": exc.code, "point": exc.point}
    if isinstance(exc, StalePosition):
        body["moves"] = exc.now
    try:
        body["position"] = archive.recording(recording_id).to_json()
    except Exception:
        body["position"] = None
    return JSONResponse(body, status_code=409)


async def _change(request: Request, archive: Archive, recording_id: int, action: Callable[[], Any]) -> Any:
    """Run a change of the recording in a worker thread (it waits for the disk), then wake its watchers; a
    refusal is a 409."""
    try:
        answer = await run_in_threadpool(action)
    except MoveRefused as exc:
        return await run_in_threadpool(_refused, exc, archive, recording_id)
    notifier(request).wake(recording_id)
    return answer.to_json() if hasattr(answer, "to_json") else answer


class DiscardedJson(TypedDict):
    discarded: int


REFUSED = {409: {"description": "refused: `{\"error\", \"rule\", \"code\", \"position\"}` (the rule that refuses "
                                "the move, or the game has moved on: `moves`, the number played)"}}


@router.post("/api/recordings", summary="start recording a game", response_model=PositionJson)
async def start(request: Request, body: StartBody, archive: Recorder, who: Who) -> Any:
    """Start a recording: `{"id", ...the position}`."""
    header = body.model_dump(exclude={"game", "size"}, exclude_none=True)
    for key in ("setup_black", "setup_white"):
        if not header.get(key):
            header.pop(key, None)
    position = await run_in_threadpool(lambda: archive.start_recording(body.game, body.size, who=who, **header))
    return position.to_json()


@router.get("/api/recordings", summary="the games being recorded now", response_model=list[SummaryJson])
def listing(archive: Asked, state: str = "playing") -> list[SummaryJson]:
    """The recordings being played (or `state=finished`, `discarded`), latest changed first."""
    return [r.to_json() for r in archive.recordings(state)]


@router.get("/api/recordings/{recording_id}", summary="where a recording stands", response_model=PositionJson)
def position(recording_id: int, archive: Asked) -> PositionJson:
    """The moves so far, whose turn it is, whether the game has ended, the special moves offered, the board."""
    return archive.recording(recording_id).to_json()


@router.post("/api/recordings/{recording_id}/moves", summary="play a move", response_model=PositionJson,
             responses=REFUSED)  # type: ignore[arg-type]
async def move(request: Request, recording_id: int, body: MoveBody, archive: Recorder, _: Who) -> Any:
    """Play a move, checked by the rules and stored before the answer: the position after it."""
    return await _change(request, archive, recording_id, lambda: archive.play_move(
        recording_id, body.move, colour=body.colour, after=body.after, comment=body.comment,
        black_time=body.black_time, white_time=body.white_time, marks_black=body.marks_black,
        marks_white=body.marks_white))


@router.post("/api/recordings/{recording_id}/undo", summary="take back the last move", response_model=PositionJson,
             responses=REFUSED)  # type: ignore[arg-type]
async def undo(request: Request, recording_id: int, archive: Recorder, _: Who, body: AfterBody | None = None) -> Any:
    """Take back the last move (kept as a variation once another replaces it)."""
    after = body.after if body is not None else None
    return await _change(request, archive, recording_id, lambda: archive.undo_move(recording_id, after=after))


@router.post("/api/recordings/{recording_id}/comment", summary="comment on a move", response_model=PositionJson,
             responses=REFUSED)  # type: ignore[arg-type]
async def comment(request: Request, recording_id: int, body: CommentBody, archive: Recorder, _: Who) -> Any:
    return await _change(request, archive, recording_id, lambda: archive.comment_move(
        recording_id, body.text, number=body.number, after=body.after))


@router.post("/api/recordings/{recording_id}/marks", summary="mark the stones agreed dead (Go) or converted",
             response_model=PositionJson, responses=REFUSED)  # type: ignore[arg-type]
async def marks(request: Request, recording_id: int, body: MarksBody, archive: Recorder, _: Who) -> Any:
    """Set the marks of the final pass (ING-7, CON-7), checked by the rules: the position, scored with them."""
    return await _change(request, archive, recording_id, lambda: archive.mark_recording(
        recording_id, black=body.marks_black, white=body.marks_white, after=body.after))


@router.post("/api/recordings/{recording_id}/finish", summary="store the game in the archive",
             response_model=FinishedJson, responses=REFUSED)  # type: ignore[arg-type]
async def finish(request: Request, recording_id: int, archive: Recorder, who: Who,
                 body: FinishBody | None = None) -> Any:
    """Store the record, verified as an import verifies it: `{"record": ARCHIVE_ID, "verdict", ...}`."""
    result = body.result if body is not None else None
    answer = await _change(request, archive, recording_id, lambda: archive.finish_recording(recording_id, result))
    if who is not None and isinstance(answer, dict) and answer.get("new"):
        await run_in_threadpool(lambda: archive.log_change(who, "record", [answer["record"]],
                                                           after={"recording": recording_id}))
    return answer


@router.post("/api/recordings/{recording_id}/discard", summary="give up a recording", response_model=DiscardedJson,
             responses=REFUSED)  # type: ignore[arg-type]
async def discard(request: Request, recording_id: int, archive: Recorder, _: Who) -> Any:
    await _change(request, archive, recording_id, lambda: archive.discard_recording(recording_id))
    return {"discarded": recording_id}


@router.get("/api/recordings/{recording_id}/events", summary="the game live (server-sent events)",
            response_model=PositionJson)
async def events(request: Request, recording_id: int, archive: Asked) -> StreamingResponse:
    """`text/event-stream`: an event `position` (its `data` the position's JSON, this schema; its `id` the
    revision) now and after every change."""
    now = await run_in_threadpool(archive.recording, recording_id)  # NotFound: 404 before the stream starts
    stream = notifier(request).stream(archive, recording_id, json.dumps(now.to_json()), now.revision)
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
