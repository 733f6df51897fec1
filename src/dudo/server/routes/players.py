"""Players over HTTP: create one, see and rename yourself, move to another device with a
one-time code or a password, see your devices and sign the others out, export your data,
delete your account, and a public profile that shows a name and nothing else.

Every argon2 use goes through the server's one bounded pool (:mod:`dudo.server.hashing`), and
every guess (a password, a code) takes its rate-limit tokens before it is hashed."""

from __future__ import annotations

import contextlib
import secrets
import time
from dataclasses import asdict, dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from dudo.server import devices as D
from dudo.server import players as P
from dudo.server.deps import AuthorizationHeader, HallDep, client_address
from dudo.server.errors import ErrorCode as E
from dudo.server.errors import Refused
from dudo.server.hashing import Hashing
from dudo.server.limits import Guard, RateLimited
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
    #: The device id the request came with (None: none).
    device: str | None = None

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


async def me(hall: HallDep, request: Request, authorization: AuthorizationHeader = None) -> Me:
    found = await find_me(hall, authorization)
    if found is None:
        raise P.key_needed()
    found.device = D.device_id(request.headers.get(D.DEVICE_HEADER))
    if found.device is not None:
        uses_of(request).seen(hall, found.id, found.device, request.headers.get("user-agent"))
    return found


MeDep = Annotated[Me, Depends(me)]


def guard_of(request: Request) -> Guard:
    guard: Guard = request.app.state.guard
    return guard


def hashing_of(request: Request) -> Hashing:
    hashing: Hashing = request.app.state.hashing
    return hashing


def uses_of(request: Request) -> D.DeviceUses:
    uses: D.DeviceUses = request.app.state.device_uses
    return uses


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Ana"}]})
    name: str | None = Field(default=None, max_length=200)


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Ana"}]})
    name: str = Field(max_length=200)


class Password(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"password": "correct horse", "old_password": "battery staple"}]
        },
    )
    password: str = Field(max_length=1000)
    #: The password set now, if one is.
    old_password: str | None = Field(default=None, max_length=1000)


class SignOut(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"password": "correct horse"}]}
    )
    #: The player's password, if one is set (the key it seals is replaced).
    password: str | None = Field(default=None, max_length=1000)


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


async def check_own_password(me: Me, given: str | None, hall: Hall, hashing: Hashing) -> str | None:
    """The player's password hash, after checking ``given`` is their password (None: they
    have none, and nothing is checked). Refused: none given, or a wrong one."""
    stored = await hall.answer(hall.store.password_hash_of, me.id)
    if stored is None:
        return None
    if not given:
        raise Refused(
            E.OLD_PASSWORD_NEEDED, "this player has a password: give it (old_password)", 403
        )
    if not await hashing.run(P.password_matches, given, stored):
        raise Refused(E.WRONG_PASSWORD, "this is not the player's password", 403)
    return stored


def spend_password_change(request: Request, me: Me) -> None:
    guard = guard_of(request)
    address = client_address(request)
    # Both checked before either is spent: a refusal takes nothing.
    guard.passwords.check(address)
    guard.player_passwords.check(me.id)
    guard.passwords.spend(address)
    guard.player_passwords.spend(me.id)


@router.post("/api/players/me/password")
async def set_password(
    me: MeDep, body: Password, hall: HallDep, request: Request
) -> dict[str, Any]:
    """Set (or change) the password that signs this player in anywhere with their name. A
    change needs the password set now (``old_password``)."""
    password = P.check_password(body.password)
    spend_password_change(request, me)
    hashing = hashing_of(request)
    await check_own_password(me, body.old_password, hall, hashing)
    hashed, sealed = await hashing.run(P.password_secrets, password, me.key)
    await hall.answer(hall.store.set_password, me.id, hashed, sealed)
    me.player.has_password = True
    return P.profile(me.player)


def wrong_login() -> Refused:
    return Refused(E.WRONG_LOGIN, "no player has this name and password", 401)


@router.post("/api/players/login")
async def login(body: Login, hall: HallDep, request: Request) -> dict[str, Any]:
    """Name and password: the player's ``{id, name, key}``."""
    guard = guard_of(request)
    address = client_address(request)
    name = name_key(" ".join(body.name.split()))
    # Every try takes a token of the address and one of the name before any hashing, right
    # or wrong, known name or not: a burst cannot slip guesses past the limit, and the answer
    # (and its time) is the same for a name nobody has.
    hashing = hashing_of(request)
    hashing.check()  # a full queue refuses before anything else, and takes no token
    guard.claims.check(address)
    guard.name_logins.check(name)
    guard.claims.spend(address)
    guard.name_logins.spend(name)
    found = await hall.answer(hall.store.password_of, name)
    key = await hashing.run(P.key_by_password, body.password, found)
    if found is None or key is None:
        raise wrong_login()
    player = await hall.answer(hall.store.player_by_key, P.key_hash(key))
    if player is None:
        raise wrong_login()
    if P.needs_rehash(found.password_hash):  # a hash of older parameters: stored again with today's
        with contextlib.suppress(RateLimited, Refused):  # it can wait for the next sign-in
            rehashed = await hashing.run(P.rehash, body.password)
            await hall.answer(hall.store.set_password, player.id, rehashed, found.key_sealed)
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
    code_hash, sealer = await hashing_of(request).run(P.code_secrets, code)
    expires = P.expires_at()
    await hall.answer(hall.store.add_code, code_hash, me.id, P.seal(me.key, sealer), expires)
    return {"code": code, "expires": expires, "seconds": P.CODE_SECONDS}


@router.post("/api/players/claim")
async def claim(body: Claim, hall: HallDep, request: Request) -> dict[str, Any]:
    """A one-time code typed on a new device: the player's ``{id, name, key}``."""
    guard = guard_of(request)
    address = client_address(request)
    code = P.clean_code(body.code)
    key = None
    if code is not None:
        # Taken before the hashing, right or wrong: over the limit every code is refused.
        guard.claims.spend(address)
        code_hash, sealer = await hashing_of(request).run(P.code_secrets, code)
        found = await hall.answer(hall.store.take_code, code_hash)
        key = None if found is None else P.unseal(found.key_sealed, sealer)
    else:
        guard.claims.check(address)  # over the limit the answer is the same for any text
    player = None if key is None else await hall.answer(hall.store.player_by_key, P.key_hash(key))
    if key is None or player is None:
        raise Refused(
            E.BAD_PLAYER_CODE,
            "this code is wrong, used or expired: ask for a new one on your other device",
            400,
        )
    return {"id": player.id, "name": player.name, "key": key}


@router.get("/api/players/me/devices")
async def my_devices(me: MeDep, hall: HallDep, request: Request) -> dict[str, Any]:
    """The devices that used the player's key, the last used first: ``{"devices": [{"browser",
    "system", "first_seen", "last_used", "current"}]}`` (``current``: the device asking)."""
    await uses_of(request).settled(me.id)
    listed = await hall.answer(hall.store.player_devices, me.id)
    return {
        "devices": [
            {
                "browser": d.browser,
                "system": d.system,
                "first_seen": d.first_seen,
                "last_used": d.last_used,
                "current": d.device == me.device,
            }
            for d in listed
        ]
    }


@router.post("/api/players/me/sign-out-others")
async def sign_out_others(
    me: MeDep, body: SignOut, hall: HallDep, request: Request
) -> dict[str, Any]:
    """A new key for this device: every other copy of the old key, its one-time codes and the
    seat tokens it gave stop working. ``{"id", "name", "key", "tables": [{"code", "seat",
    "token"}]}``: this device's new key and its seats' new tokens."""
    spend_password_change(request, me)
    hashing = hashing_of(request)
    await check_own_password(me, body.password, hall, hashing)
    key = P.new_key()
    password = None
    if body.password is not None and me.player.has_password:
        password = await hashing.run(P.password_secrets, body.password, key)
    seats = await hall.answer(
        hall.store.rekey_player,
        me.id,
        P.key_hash(me.key),
        P.key_hash(key),
        lambda code, seat: P.key_hash(P.seat_token(key, code, seat)),
        password,
        me.device,
    )
    if seats is None:  # another sign-out took the key meanwhile
        raise P.key_needed()
    uses_of(request).forget(me.id)
    await D.rekey_everywhere(hall, me.id, seats)
    tables = [
        {"code": code, "seat": seat, "token": P.seat_token(key, code, seat)}
        for code, seat, _digest in seats
    ]
    return {"id": me.id, "name": me.player.name, "key": key, "tables": tables}


@router.get("/api/players/me/tables")
async def my_tables(me: MeDep, hall: HallDep) -> dict[str, Any]:
    """The tables where the player has a seat (not closed): ``{"tables": [{"code", "seat"}]}``;
    a new device takes each seat with ``POST /api/tables/{code}/seat``."""
    seats = await hall.answer(hall.store.player_tables, me.id)
    return {"tables": [asdict(seat) for seat in seats]}


@router.get("/api/players/me/export")
async def export(me: MeDep, hall: HallDep) -> dict[str, Any]:
    """Everything the server keeps about the player, as JSON."""
    games = await hall.answer(hall.store.player_games, me.id)
    rated = await hall.answer(hall.store.rater_ratings, me.id)
    chat = await hall.answer(hall.store.player_chat, me.id)
    return {
        "format": "dudo-player-export",
        "exported": time.time(),
        "profile": P.profile(me.player),
        "games": [asdict(game) for game in games],
        "ratings": [{"family": family, **asdict(r)} for family, r in sorted(rated.items())],
        "chat": [asdict(line) for line in chat],  # every message the player wrote
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
