"""The lobby over HTTP and WebSocket: the list of open public tables, "Play now", and the live
feed of the list (``/ws/lobby``). docs/protocol.md, "The lobby", describes the frames."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from dudo.engine.rules import DEFAULT_PRESET, PRESETS
from dudo.server.deps import AuthorizationHeader, HallDep, client_address
from dudo.server.errors import ErrorCode, Refused
from dudo.server.frames import pong_frame
from dudo.server.lobby import PLAY_NOW_FILL_SECONDS, Lobby
from dudo.server.play import Connection, frames
from dudo.server.routes.players import find_me
from dudo.server.tables import STAND_IN_LEVEL, check_level
from dudo.server.wire import BadMessage

router = APIRouter()


async def get_lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(get_lobby)]


class PlayNow(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"name": "Ana", "preset": "perudo"}]}
    )
    name: str = Field(max_length=200)
    preset: str = Field(default=DEFAULT_PRESET, max_length=40)
    #: The countdown of a table this request opens (0: none); a table joined keeps its own.
    fill_seconds: int = Field(default=PLAY_NOW_FILL_SECONDS, ge=0, le=600)
    fill_level: str = Field(default=STAND_IN_LEVEL, max_length=40)


def check_preset(preset: str) -> None:
    if preset not in PRESETS:
        raise Refused(
            ErrorCode.UNKNOWN_PRESET,
            f"preset {preset!r} is unknown; presets are: {', '.join(PRESETS)}",
            400,
            preset=preset[:40],
        )


class PlayBots(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"name": "Ana", "preset": "dudo", "level": "medium"}]},
    )
    name: str = Field(max_length=200)
    preset: str = Field(default=DEFAULT_PRESET, max_length=40)
    level: str = Field(default="easy", max_length=40)
    rated: StrictBool = False


@router.get("/api/lobby")
async def list_tables(
    lobby: LobbyDep, preset: Annotated[str | None, Query(max_length=40)] = None
) -> dict[str, Any]:
    """The open public tables (of one preset, with ``?preset=``), fullest first, and the
    public games in progress (``games``)."""
    if preset is not None:
        check_preset(preset)
    tables = lobby.listing(preset, "waiting")  # first: it sends the gathered changes
    return {"version": lobby.version, "tables": tables, "games": lobby.listing(preset, "playing")}


@router.post("/api/lobby/play", status_code=201)
async def play_now(
    body: PlayNow,
    lobby: LobbyDep,
    hall: HallDep,
    request: Request,
    authorization: AuthorizationHeader = None,
) -> dict[str, Any]:
    """Seat the caller at the fullest waiting public table of the preset, or open one; with
    ``Authorization: Player <key>`` the seat belongs to that player."""
    check_preset(body.preset)
    level = check_level(body.fill_level)
    guard = request.app.state.guard
    address = client_address(request)
    code, seat, token, created = await lobby.play_now(
        body.name,
        body.preset,
        body.fill_seconds,
        level,
        lambda: guard.tables.spend(address),
        await find_me(hall, authorization),
        authorization,
    )
    return {"code": code, "seat": seat, "token": token, "url": f"/t/{code}", "created": created}


@router.post("/api/lobby/bots", status_code=201)
async def play_bots(
    body: PlayBots,
    lobby: LobbyDep,
    hall: HallDep,
    request: Request,
    authorization: AuthorizationHeader = None,
) -> dict[str, Any]:
    """A game against bots of ``level`` that starts at once (rated: the caller must be a
    player, ``Authorization: Player <key>``)."""
    check_preset(body.preset)
    level = check_level(body.level)
    guard = request.app.state.guard
    address = client_address(request)
    code, token = await lobby.play_bots(
        body.name,
        body.preset,
        level,
        body.rated,
        lambda: guard.tables.spend(address),
        await find_me(hall, authorization),
    )
    return {"code": code, "seat": 0, "token": token, "url": f"/t/{code}"}


@router.websocket("/ws/lobby")
async def watch_lobby(websocket: WebSocket) -> None:
    """The live list: ``lobby_full`` at once, then a ``lobby`` diff frame per change."""
    lobby: Lobby = websocket.app.state.lobby
    await websocket.accept()
    connection = Connection(websocket, websocket.app.state.limits)
    connection.writer = asyncio.create_task(connection.write())
    lobby.watch(connection)
    try:
        # Frames over the rate are dropped without an answer: the lobby only sends.
        async for frame in frames(connection, answer_over_rate=False):
            if frame["type"] != "ping":
                connection.refuse(
                    BadMessage(
                        ErrorCode.BAD_MESSAGE, "the lobby takes only ping: it sends, you watch"
                    )
                )
                continue
            connection.send(pong_frame())
    except WebSocketDisconnect:
        pass
    except Exception:
        connection.finish(1011)  # the client learns at once; uvicorn logs the traceback
        raise
    finally:
        lobby.unwatch(connection)
        await connection.close_after_sending()
