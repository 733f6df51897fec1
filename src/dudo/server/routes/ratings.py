"""Ratings as JSON: a rule family's leaderboard and one rater's ratings with their history."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from dudo.server import ratings
from dudo.server.deps import HallDep
from dudo.server.errors import ErrorCode, Refused

router = APIRouter()


@router.get("/api/ratings/{family}")
async def leaderboard(family: str, hall: HallDep) -> dict[str, Any]:
    if family not in ratings.FAMILIES:
        raise Refused(
            ErrorCode.UNKNOWN_PRESET,
            f"rule family {family!r} is unknown; families are: {', '.join(ratings.FAMILIES)}",
            404,
            preset=family[:40],
        )
    return {"family": family, "ratings": await hall.answer(hall.store.leaderboard, family)}


@router.get("/api/players/{rater}/ratings")
async def rater_ratings(rater: str, hall: HallDep) -> dict[str, Any]:
    # A rater is a player id or "bot:<level>"; one never rated has no families (not an error).
    return {"rater": rater[:40], "ratings": await hall.answer(hall.store.rater_ratings, rater)}
