"""Past games: the list of finished games, their records and their step-by-step replays."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from dudo.records import replay_steps
from dudo.server.deps import HallDep
from dudo.server.storage import StoreUnavailable
from dudo.server.tables import STORE_DOWN, Hall
from dudo.server.wire import event_json, view_json

router = APIRouter()


@router.get("/api/games")
async def games(hall: HallDep, limit: int = 20) -> dict[str, Any]:
    if not 1 <= limit <= 200:
        raise HTTPException(400, "limit: from 1 to 200")
    try:
        return {"games": await hall.db.run(hall.store.recent_games, limit)}
    except StoreUnavailable:
        raise HTTPException(503, STORE_DOWN) from None


#: The largest game id a database can hold (games.id is a 32-bit INTEGER on PostgreSQL); an id
#: beyond it is no game, not a database error.
MAX_GAME_ID = 2**31 - 1


async def _record(hall: Hall, game_id: int) -> dict[str, Any]:
    if not 0 < game_id <= MAX_GAME_ID:
        raise HTTPException(404, f"there is no finished game {game_id}")
    try:
        data = await hall.db.run(hall.store.game_record, game_id)
    except StoreUnavailable:
        raise HTTPException(503, STORE_DOWN) from None
    if data is None:
        raise HTTPException(404, f"there is no finished game {game_id}")
    return data


@router.get("/api/games/{game_id}/record")
async def game_record(game_id: int, hall: HallDep) -> dict[str, Any]:
    return await _record(hall, game_id)


@router.get("/api/games/{game_id}/replay")
async def game_replay(game_id: int, hall: HallDep) -> dict[str, Any]:
    return replay_json(await _record(hall, game_id))


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
    return {"record": data, "start": start, "steps": out_steps}
