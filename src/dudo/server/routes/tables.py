"""The lobby over HTTP: create a table, look at it, join it, invite the phones at a real table
to it (its address and QR code), and the host's commands."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from dudo.engine.rules import DEFAULT_PRESET
from dudo.server.chat import set_on as set_chat_on
from dudo.server.deps import (
    AuthorizationHeader,
    HallDep,
    HostTableDep,
    LimitsDep,
    TableDep,
    bearer,
    spending,
)
from dudo.server.invite import Invite, LanAddresses, invite_url, on_this_machine, qr_svg
from dudo.server.routes.players import MeDep, find_me
from dudo.server.tables import Settings

router = APIRouter()


class CreateTable(BaseModel):
    # The examples are quoted by the errors that say what a body should look like.
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"name": "Ana", "seats": 4}]}
    )
    name: str = Field(max_length=200)
    preset: str = Field(default=DEFAULT_PRESET, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int = Field(default=4, ge=2, le=8)
    bots: list[str] = Field(default_factory=list, max_length=7)
    turn_seconds: int = Field(default=0, ge=0, le=3600)
    grace_seconds: int | None = Field(default=30, ge=0, le=3600)
    bot_seconds: float = Field(default=1.0, ge=0.0, le=10.0, allow_inf_nan=False)
    reveal_seconds: int = Field(default=3, ge=0, le=30)
    hints: bool = Field(default=False, strict=True)
    #: Listed in the lobby (public) or reached by its link only (private, the default).
    public: bool = Field(default=False, strict=True)
    #: The lobby's countdown (0: none): bots of ``fill_level`` take the open seats when it ends.
    fill_seconds: int = Field(default=0, ge=0, le=3600)
    fill_level: str = Field(default="easy", max_length=40)
    #: The result changes the players' ratings: public, no hints, the preset's own rules.
    rated: bool = Field(default=False, strict=True)
    #: A real table: every phone a cup at one table, bids may be said aloud, no bots.
    real: bool = Field(default=False, strict=True)


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Bo"}]})
    name: str = Field(max_length=200)


class AddBot(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"level": "easy"}]})
    level: str = Field(default="easy", max_length=40)


class ChatSwitch(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"on": False}]})
    on: StrictBool


class StartGame(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"order": [2, 0, 1]}]}
    )
    #: The filled seats clockwise, the first to open (None: the rules' seating decides).
    order: list[int] | None = Field(default=None, max_length=8)


class Ready(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"ready": True}]})
    ready: StrictBool = True


@router.post(
    "/api/tables", status_code=201, dependencies=[Depends(spending(lambda guard: guard.tables))]
)
async def create_table(
    body: CreateTable,
    hall: HallDep,
    limits: LimitsDep,
    authorization: AuthorizationHeader = None,
) -> dict[str, Any]:
    # With ``Authorization: Player <key>`` the host's seat belongs to that player.
    player = await find_me(hall, authorization)
    # Bots faster than the server's least delay would only burn its CPU: they wait that long.
    bot_seconds = max(body.bot_seconds, limits.min_bot_seconds)
    settings = Settings(
        body.seats,
        body.turn_seconds,
        body.grace_seconds,
        bot_seconds,
        body.reveal_seconds,
        body.hints,
        body.fill_seconds,
        body.fill_level,
        body.rated,
        body.real,
    )
    table, token = await hall.create(
        body.name, body.preset, body.options, settings, body.bots, public=body.public, player=player
    )
    return {"code": table.code, "seat": 0, "token": token, "url": f"/t/{table.code}"}


@router.get("/api/tables/{code}")
async def get_table(table: TableDep) -> dict[str, Any]:
    return table.to_json()


async def invite_of(code: str, request: Request) -> tuple[Invite, list[str]]:
    """The invitation to table ``code`` for this request (:func:`invite_url`), and the
    machine's network addresses when the request comes from the machine itself (to no one
    else: they are the host's own business)."""
    lan_addresses: LanAddresses = request.app.state.lan
    lan = await lan_addresses.get()
    if not on_this_machine(request.client.host if request.client else None, lan):
        lan = []
    authority = request.headers.get("host", "")
    invite = invite_url(code, request.url.scheme, authority, request.app.state.listen, lan)
    return invite, lan


@router.get("/api/tables/{code}/invite")
async def invite(table: TableDep, request: Request, response: Response) -> dict[str, Any]:
    """The address phones at a real table open to join it (see :mod:`dudo.server.invite`)."""
    found, lan = await invite_of(table.code, request)
    # no-store: the address changes with the network the laptop is on.
    response.headers["Cache-Control"] = "no-store"
    return {"code": table.code, "url": found.url, "local_only": found.local_only, "addresses": lan}


@router.get(
    "/t/{code}/qr.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "the QR code"}},
)
async def invite_qr(table: TableDep, request: Request) -> Response:
    """The invitation's address as a QR code, for the host's page to show as an image."""
    found, _ = await invite_of(table.code, request)
    return Response(
        qr_svg(found.url), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )


@router.post("/api/tables/{code}/join", status_code=201)
async def join_table(
    table: TableDep, body: JoinTable, hall: HallDep, authorization: AuthorizationHeader = None
) -> dict[str, Any]:
    # With ``Authorization: Player <key>`` the seat belongs to that player.
    seat, token = await table.join(body.name, await find_me(hall, authorization))
    return {"code": table.code, "seat": seat.seat, "token": token, "url": f"/t/{table.code}"}


@router.post("/api/tables/{code}/seat")
async def take_back(table: TableDep, me: MeDep) -> dict[str, Any]:
    """A player's seat at this table and its token, on any device holding the player key
    (``seat`` and ``token`` null: the player has no seat here, which is no error: a page asks
    this on every visit)."""
    found = await table.claim_seat(me)
    seat, token = (None, None) if found is None else (found[0].seat, found[1])
    return {"code": table.code, "seat": seat, "token": token, "url": f"/t/{table.code}"}


@router.post("/api/tables/{code}/bots")
async def add_bot(table: HostTableDep, body: AddBot) -> dict[str, Any]:
    await table.add_bot(body.level)
    return table.to_json()


@router.delete("/api/tables/{code}/seats/{seat}")
async def remove_seat(table: HostTableDep, seat: int) -> dict[str, Any]:
    await table.remove_seat(seat)
    return table.to_json()


@router.post("/api/tables/{code}/start")
async def start(table: HostTableDep, body: StartGame | None = None) -> dict[str, Any]:
    await table.start(None if body is None else body.order)
    return table.to_json()


@router.post("/api/tables/{code}/rematch")
async def rematch(table: HostTableDep) -> dict[str, Any]:
    await table.rematch()
    return table.to_json()


@router.post("/api/tables/{code}/chat")
async def chat_switch(table: HostTableDep, body: ChatSwitch) -> dict[str, Any]:
    """The host turns the table's chat on or off (everyone sees it in the table)."""
    await set_chat_on(table, body.on)
    return table.to_json()


@router.post("/api/tables/{code}/ready")
async def ready(
    table: TableDep, authorization: AuthorizationHeader = None, body: Ready | None = None
) -> dict[str, Any]:
    """A person says they are ready for the rematch (``{"ready": false}``: no longer)."""
    seat = table.require_seat(bearer(authorization))
    await table.set_ready(seat, True if body is None else body.ready)
    return table.to_json()


@router.post("/api/tables/{code}/leave")
async def leave(table: TableDep, authorization: AuthorizationHeader = None) -> dict[str, Any]:
    """A person gives up their seat, in the lobby or after a game."""
    seat = table.require_seat(bearer(authorization))
    await table.leave(seat)
    return table.to_json()
