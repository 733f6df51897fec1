"""Players over HTTP: create one, see and rename yourself, move to another device with a
one-time code or a password, export your data, delete your account, and a public profile that
shows a name and nothing else."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from dudo.server import players as P
from dudo.server.chatstore import player_chat
from dudo.server.deps import AuthorizationHeader, HallDep, client_address
from dudo.server.errors import ErrorCode as E
from dudo.server.errors import Refused
from dudo.server.limits import Guard
from dudo.server.names import name_key
from dudo.server.storage import StoredPlayer
from dudo.server.tables import Hall, clean_name

router = APIRouter()

#: Names a new player gets when they give none: "Dudo 4821" reads the same in every language.
_AUTO_NAME_TRIES = 20


@dataclass
class Me:
    """The player a request's key belongs to, and the key (to derive their seat tokens)."""

    id: str
    key: str
    player: StoredPlayer

    def seat_token(self, code: str, seat: int) -> str:
        return P.seat_token(self.key, code, seat)


async def find_me(hall: Hall, authorization: str | None) -> Me | None:
    """The player of an ``Authorization: Player <key>`` header; None without that header, and
    a 401 for a key that is no player's."""
    key = P.player_key(authorization)
    if key is None:
        return None
    player = await hall.answer(hall.store.player_by_key, P.key_hash(key))
    if player is None:
        raise P.key_needed()
    return Me(player.id, key, player)


async def me(hall: HallDep, authorization: AuthorizationHeader = None) -> Me:
    found = await find_me(hall, authorization)
    if found is None:
        raise P.key_needed()
    return found


MeDep = Annotated[Me, Depends(me)]


def guard_of(request: Request) -> Guard:
    guard: Guard = request.app.state.guard
    return guard


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Ana"}]})
    name: str | None = Field(default=None, max_length=200)


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Ana"}]})
    name: str = Field(max_length=200)


class Password(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"password": "correct horse"}]}
    )
    password: str = Field(max_length=1000)


class Login(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"name": "Ana", "password": "correct horse"}]},
    )
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class Claim(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"code": "K7QX2MPA"}]}
    )
    code: str = Field(max_length=40)


def name_taken(name: str) -> Refused:
    return Refused(
        E.PLAYER_NAME_TAKEN,
        f"the name {name!r} belongs to another player: choose another name",
        409,
        name=name,
    )


@router.post("/api/players", status_code=201)
async def create_player(body: NewPlayer, hall: HallDep, request: Request) -> dict[str, Any]:
    """A new player: ``{id, name, key}``. Without a name the server picks one."""
    guard_of(request).players.spend(client_address(request))
    key = P.new_key()
    player_id = P.new_player_id()
    if body.name is not None:
        name = clean_name(body.name)
        if not await hall.answer(
            hall.store.create_player, player_id, name, name_key(name), P.key_hash(key)
        ):
            raise name_taken(name)
    else:
        for _ in range(_AUTO_NAME_TRIES):
            name = f"Dudo {secrets.randbelow(9000) + 1000}"
            if await hall.answer(
                hall.store.create_player, player_id, name, name_key(name), P.key_hash(key)
            ):
                break
        else:
            raise name_taken(name)
    return {"id": player_id, "name": name, "key": key}


@router.get("/api/players/me")
async def get_me(me: MeDep) -> dict[str, Any]:
    return P.profile(me.player)


@router.patch("/api/players/me")
async def rename(me: MeDep, body: Rename, hall: HallDep) -> dict[str, Any]:
    name = clean_name(body.name)
    if not await hall.answer(hall.store.rename_player, me.id, name, name_key(name)):
        raise name_taken(name)
    me.player.name = name
    return P.profile(me.player)


@router.post("/api/players/me/password")
async def set_password(me: MeDep, body: Password, hall: HallDep) -> dict[str, Any]:
    """Set (or change) the password that signs this player in anywhere with their name."""
    password = P.check_password(body.password)
    # argon2id is slow on purpose: off the event loop, so live tables do not wait for it.
    hashed, sealed = await asyncio.to_thread(P.password_secrets, password, me.key)
    await hall.answer(hall.store.set_password, me.id, hashed, sealed)
    me.player.has_password = True
    return P.profile(me.player)


@router.post("/api/players/login")
async def login(body: Login, hall: HallDep, request: Request) -> dict[str, Any]:
    """Name and password: the player's ``{id, name, key}``."""
    guard = guard_of(request)
    address = client_address(request)
    guard.claims.check(address)
    found = await hall.answer(hall.store.password_of, name_key(" ".join(body.name.split())))
    key = (
        None
        if found is None
        else await asyncio.to_thread(P.key_by_password, body.password, found[1], found[2])
    )
    if found is None or key is None:
        guard.claims.spend(address)
        raise Refused(E.WRONG_LOGIN, "no player has this name and password", 401)
    player = await hall.answer(hall.store.player_by_key, P.key_hash(key))
    if player is None:
        raise Refused(E.WRONG_LOGIN, "no player has this name and password", 401)
    return {"id": player.id, "name": player.name, "key": key}


@router.post("/api/players/me/code", status_code=201)
async def new_code(me: MeDep, hall: HallDep, request: Request) -> dict[str, Any]:
    """A one-time code to type on another device: ``{code, expires}`` (Unix seconds). A new
    code replaces the one given before."""
    guard = guard_of(request)
    guard.player_codes.check(me.id)
    guard.codes.spend(client_address(request))
    guard.player_codes.spend(me.id)
    code = P.new_code()
    code_hash, sealer = await asyncio.to_thread(P.code_secrets, code)
    expires = P.expires_at()
    await hall.answer(hall.store.add_code, code_hash, me.id, P.seal(me.key, sealer), expires)
    return {"code": code, "expires": expires, "seconds": P.CODE_SECONDS}


@router.post("/api/players/claim")
async def claim(body: Claim, hall: HallDep, request: Request) -> dict[str, Any]:
    """A one-time code typed on a new device: the player's ``{id, name, key}``."""
    guard = guard_of(request)
    address = client_address(request)
    # While an address is over its limit every claim is refused, right or wrong.
    guard.claims.check(address)
    code = P.clean_code(body.code)
    key = None
    if code is not None:
        code_hash, sealer = await asyncio.to_thread(P.code_secrets, code)
        found = await hall.answer(hall.store.take_code, code_hash)
        key = None if found is None else P.unseal(found[1], sealer)
    player = None if key is None else await hall.answer(hall.store.player_by_key, P.key_hash(key))
    if key is None or player is None:
        guard.claims.spend(address)
        raise Refused(
            E.BAD_PLAYER_CODE,
            "this code is wrong, used or expired: ask for a new one on your other device",
            400,
        )
    return {"id": player.id, "name": player.name, "key": key}


@router.get("/api/players/me/tables")
async def my_tables(me: MeDep, hall: HallDep) -> dict[str, Any]:
    """The tables where the player has a seat (not closed): ``{"tables": [{"code", "seat"}]}``;
    a new device takes each seat with ``POST /api/tables/{code}/seat``."""
    return {"tables": await hall.answer(hall.store.player_tables, me.id)}


@router.get("/api/players/me/export")
async def export(me: MeDep, hall: HallDep) -> dict[str, Any]:
    """Everything the server keeps about the player, as JSON."""
    games = await hall.answer(hall.store.player_games, me.id)
    rated = await hall.answer(hall.store.rater_ratings, me.id)
    chat = await hall.answer(player_chat, hall.store, me.id)
    return {
        "format": "dudo-player-export",
        "exported": time.time(),
        "profile": P.profile(me.player),
        "games": games,
        "ratings": [{"family": family, **rating} for family, rating in sorted(rated.items())],
        "chat": chat,  # every message the player wrote: table, game, when, what
    }


@router.delete("/api/players/me")
async def delete_me(me: MeDep, hall: HallDep, request: Request) -> dict[str, Any]:
    """Delete the account: the name is free at once, the player's seats are given up (as a
    leave; a bot plays on for them in a game being played) and their key and seat tokens stop
    working; the games stay, their seat named as a deleted player."""
    await hall.drop_player(me.id)
    games = await hall.answer(hall.store.delete_player, me.id)
    request.app.state.replays.forget(games)
    hall.forget_player(me.id, everywhere=True)
    return {"deleted": me.id, "games": len(games)}


@router.get("/api/players/{player_id}")
async def public_profile(player_id: str, hall: HallDep) -> dict[str, Any]:
    """What anyone may see of a player: the name."""
    player = None
    if 0 < len(player_id) <= 32:
        player = await hall.answer(hall.store.player, player_id)
    if player is None:
        raise Refused(E.NO_PLAYER, "there is no such player", 404)
    return {"id": player.id, "name": player.name}
