"""Past games: the list of finished games, their records and their step-by-step replays.

A replay holds the game's chat only for a person who sat in the game
(:meth:`~dudo.server.storage.Store.sat_in_game`):
anyone else gets the same replay with ``chat_hidden`` true and no message."""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict
from typing import Annotated, Any, NamedTuple, TypeVar

from fastapi import APIRouter, Depends, Header, Request, Response

from dudo.engine.rules import PRESETS
from dudo.records import replay_steps
from dudo.server import players as P
from dudo.server import ratings
from dudo.server.deps import AuthorizationHeader, HallDep, bearer
from dudo.server.errors import ErrorCode, Refused
from dudo.server.routes.players import find_me
from dudo.server.storage import GameFilter, token_hash
from dudo.server.tables import Hall
from dudo.server.wire import dumps, event_json, view_json

router = APIRouter()
T = TypeVar("T")


#: How a yes-or-no filter of the list is written.
FLAGS = {"1": True, "true": True, "0": False, "false": False}


def flag(name: str, value: str | None) -> bool | None:
    """A yes-or-no query parameter (None: not given); a 400 for any other word."""
    if value is None:
        return None
    if value.lower() not in FLAGS:
        raise Refused(
            ErrorCode.BAD_FILTER,
            f"{name}: 1 or 0 (true or false), not {value!r}",
            400,
            name=name,
        )
    return FLAGS[value.lower()]


def presets_of(preset: str | None, family: str | None) -> tuple[str, ...] | None:
    """The presets a list keeps for ``?preset=`` and ``?family=`` (None: every preset); a 400
    for a preset or family there is none of."""
    if preset is not None and preset not in PRESETS:
        raise Refused(
            ErrorCode.BAD_FILTER,
            f"preset: one of {', '.join(PRESETS)}, not {preset!r}",
            400,
            name="preset",
        )
    if family is not None and family not in ratings.FAMILIES:
        raise Refused(
            ErrorCode.BAD_FILTER,
            f"family: one of {', '.join(ratings.FAMILIES)}, not {family!r}",
            400,
            name="family",
        )
    if preset is None and family is None:
        return None
    return tuple(
        name
        for name in PRESETS
        if preset in (None, name) and family in (None, ratings.family(name))
    )


@router.get("/api/games")
async def games(
    hall: HallDep,
    limit: int = 20,
    mine: str | None = None,
    rated: str | None = None,
    preset: str | None = None,
    family: str | None = None,
    authorization: AuthorizationHeader = None,
) -> dict[str, Any]:
    """The newest finished games; ``?mine=1`` those the player of ``Authorization: Player
    <key>`` played (401 without a player's key), ``?rated=1`` (or ``0``) the rated (or unrated)
    ones, ``?preset=`` those of one preset, ``?family=`` those of a rated family's presets."""
    if not 1 <= limit <= 200:
        raise Refused(ErrorCode.BAD_LIMIT, "limit: from 1 to 200", 400)
    only = GameFilter(rated=flag("rated", rated), presets=presets_of(preset, family))
    if flag("mine", mine):
        me = await find_me(hall, authorization)
        if me is None:
            raise P.key_needed()
        only = dataclasses.replace(only, rater=me.id)
    found = await hall.answer(hall.store.recent_games, limit, only)
    return {"games": [asdict(game) for game in found]}


#: The largest game id a database can hold (games.id is a 32-bit INTEGER on PostgreSQL); an id
#: beyond it is no game, not a database error.
MAX_GAME_ID = 2**31 - 1


async def _finished(hall: Hall, game_id: int, read: Callable[[int], T | None]) -> T:
    """What ``read`` finds of a finished game (404: there is no such finished game)."""
    found = await hall.answer(read, game_id) if 0 < game_id <= MAX_GAME_ID else None
    if found is None:
        raise Refused(
            ErrorCode.NO_FINISHED_GAME, f"there is no finished game {game_id}", 404, id=game_id
        )
    return found


async def _record(hall: Hall, game_id: int) -> dict[str, Any]:
    return await _finished(hall, game_id, hall.store.game_record)


@router.get("/api/games/{game_id}/record")
async def game_record(game_id: int, hall: HallDep, download: bool = False) -> Response:
    """The record as JSON; with ``?download=1`` the same bytes as a file to save,
    ``dudo-<id>.json`` (the download links of the pages), and inline without it (programs)."""

    def encoded(found: int) -> bytes | None:
        record = hall.store.game_record(found)
        return None if record is None else dumps(record).encode()

    # Read and encoded in a worker thread: a crowd downloading records leaves the loop free.
    body = await _finished(hall, game_id, encoded)
    headers = {"Content-Disposition": f'attachment; filename="dudo-{game_id}.json"'}
    return Response(body, media_type="application/json", headers=headers if download else None)


class Replay(NamedTuple):
    """A replay encoded once: its JSON, and the same gzipped (a tenth of the size)."""

    json: bytes
    gzipped: bytes

    @classmethod
    def of(cls, data: dict[str, Any]) -> Replay:
        encoded = dumps(replay_json(data)).encode()
        return cls(encoded, gzip.compress(encoded, compresslevel=6))

    def __len__(self) -> int:
        return len(self.json) + len(self.gzipped)


class Replays:
    """The encoded replays of finished games: built off the event loop, ``builders`` at a time,
    and the most recent kept up to ``max_bytes`` (a finished game never changes).

    A long game's replay takes Python a while to build; built on the event loop for each of
    many requests at once, it delays every live table. Built in a thread, one at a time, it
    leaves the loop free, and a crowd asking for the same game costs one build."""

    def __init__(self, max_bytes: int = 32 * 1024 * 1024, builders: int = 1) -> None:
        self.max_bytes = max_bytes
        self._cache: OrderedDict[int, Replay] = OrderedDict()
        self._bytes = 0
        self._building = asyncio.Semaphore(builders)

    def _cached(self, game_id: int) -> Replay | None:
        replay = self._cache.get(game_id)
        if replay is not None:
            self._cache.move_to_end(game_id)
        return replay

    def _keep(self, game_id: int, replay: Replay) -> None:
        if len(replay) > self.max_bytes:
            return
        self._cache[game_id] = replay
        self._bytes += len(replay)
        while self._bytes > self.max_bytes:
            _, dropped = self._cache.popitem(last=False)
            self._bytes -= len(dropped)

    def forget(self, game_ids: list[int]) -> None:
        """Drop these games' replays (a player deleted their account: their name goes)."""
        for game_id in game_ids:
            dropped = self._cache.pop(game_id, None)
            if dropped is not None:
                self._bytes -= len(dropped)

    async def replay(self, hall: Hall, game_id: int) -> Replay:
        """The replay of a finished game (HTTPException 404: no such game)."""
        replay = self._cached(game_id)
        if replay is not None:
            return replay
        async with self._building:
            replay = self._cached(game_id)  # built while this request waited
            if replay is None:
                data = await _record(hall, game_id)
                replay = await asyncio.to_thread(Replay.of, data)
                self._keep(game_id, replay)
            return replay


async def get_replays(request: Request) -> Replays:
    replays: Replays = request.app.state.replays
    return replays


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an Accept-Encoding header allows gzip (every browser's does)."""
    for part in (accept_encoding or "").split(","):
        name, _, params = part.partition(";")
        if name.strip().lower() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


#: How every cached replay ends: its chat hidden (see replay_json).
HIDDEN_CHAT = b'"chat_hidden":true,"chat":[]}'


async def reads_chat(hall: Hall, game_id: int, authorization: str | None) -> bool:
    """Whether the request comes from someone who sat in the game: by ``Authorization:
    Player <key>`` or ``Bearer <seat token>``. A key or token that is nobody's is no error:
    that request gets the replay without its chat, like anyone's."""
    key, token = P.player_key(authorization), bearer(authorization)
    player_id = None
    if key is not None:
        player = await hall.answer(hall.store.player_by_key, P.key_hash(key))
        player_id = None if player is None else player.id
    if player_id is None and token is None:
        return False
    found = None if token is None else token_hash(token)
    return await hall.answer(hall.store.sat_in_game, game_id, player_id, found)


@router.get("/api/games/{game_id}/replay")
async def game_replay(
    game_id: int,
    hall: HallDep,
    replays: Annotated[Replays, Depends(get_replays)],
    accept_encoding: Annotated[str | None, Header()] = None,
    authorization: AuthorizationHeader = None,
) -> Response:
    replay = await replays.replay(hall, game_id)
    if await reads_chat(hall, game_id, authorization) and replay.json.endswith(HIDDEN_CHAT):
        # The chat is read afresh (people talk on after a game) and joined to the cached
        # replay in place of its last fields: '"chat_hidden":true,"chat":[]}' becomes
        # '"chat_hidden":false,"chat":[…]}'.
        chat = await hall.answer(hall.store.game_chat, game_id)
        said = [message.to_json() for message in chat]
        shown = dumps({"chat_hidden": False, "chat": said}).encode()[1:]
        body = replay.json[: -len(HIDDEN_CHAT)] + shown
        headers = {"Vary": "Accept-Encoding, Authorization", "Cache-Control": "private"}
        if accepts_gzip(accept_encoding):
            zipped = await asyncio.to_thread(gzip.compress, body, 6)
            headers["Content-Encoding"] = "gzip"
            return Response(zipped, media_type="application/json", headers=headers)
        return Response(body, media_type="application/json", headers=headers)
    vary = {"Vary": "Accept-Encoding, Authorization"}
    if accepts_gzip(accept_encoding):
        headers = {"Content-Encoding": "gzip", **vary}
        return Response(replay.gzipped, media_type="application/json", headers=headers)
    return Response(replay.json, media_type="application/json", headers=vary)


def replay_json(data: dict[str, Any]) -> dict[str, Any]:
    """A finished game's record as the replay page reads it: the start and every step, each
    with the events it made and the state after it."""
    steps = replay_steps(data)
    game = steps.game
    names = [p["name"] for p in data["players"]]
    seats = list(range(len(names)))

    def state() -> dict[str, Any]:
        # A finished game has no secrets left: the replay shows every hand at every step.
        out = view_json(game.view(None), names, seats, len(game.history))
        out["hands"] = [list(game.hand(p)) for p in range(game.players)]
        return out

    start = {
        "events": [event_json(i, e, game.rules) for i, e in enumerate(game.events)],
        "state": state(),
    }
    out_steps = []
    for step in steps:
        first = len(game.events) - len(step.events)
        out_steps.append(
            {
                "player": step.player,
                "action": str(step.action),
                "events": [event_json(first + i, e, game.rules) for i, e in enumerate(step.events)],
                "state": state(),
            }
        )
    # Last, hidden and empty here: the route shows the game's chat to its players in their
    # place (see game_replay).
    return {"record": data, "start": start, "steps": out_steps, "chat_hidden": True, "chat": []}
