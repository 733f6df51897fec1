"""Ratings as JSON: a rule family's leaderboard, one rater's ratings with their history, and a
rater's public profile (games, wins by preset, latest games, favourite opponents)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter

from dudo.bots import BOT_NAMES
from dudo.server import ratings
from dudo.server.deps import HallDep
from dudo.server.errors import ErrorCode, Refused
from dudo.server.storage import Profile, RaterRating

router = APIRouter()


def check_family(family: str) -> None:
    """Refuse (404) a rule family that has no ratings."""
    if family not in ratings.FAMILIES:
        raise Refused(
            ErrorCode.UNKNOWN_PRESET,
            f"rule family {family!r} is unknown; families are: {', '.join(ratings.FAMILIES)}",
            404,
            preset=family[:40],
        )


@router.get("/api/ratings/{family}")
async def leaderboard(family: str, hall: HallDep, provisional: bool = False) -> dict[str, Any]:
    """A family's leaderboard by shown rating. People whose rating is provisional are left out
    unless ``?provisional=1``; ``hidden`` says how many were."""
    check_family(family)
    board = await hall.answer(hall.store.leaderboard, family, 100, provisional)
    hidden = 0 if provisional else await hall.answer(hall.store.provisional_players, family)
    return {
        "family": family,
        "ratings": [asdict(row) for row in board],
        "provisional": provisional,
        "hidden": hidden,
        "provisional_games": ratings.PROVISIONAL_GAMES,
    }


@router.get("/api/players/{rater}/ratings")
async def rater_ratings(rater: str, hall: HallDep) -> dict[str, Any]:
    # A rater is a player id or "bot:<level>"; one never rated has no families (not an error).
    found = await hall.answer(hall.store.rater_ratings, rater)
    return {
        "rater": rater[:40],
        "ratings": ratings_json(found),
        "provisional_games": ratings.PROVISIONAL_GAMES,
    }


@router.get("/api/players/{rater}/profile")
async def profile(rater: str, hall: HallDep) -> dict[str, Any]:
    """A player's (by id) or a bot level's (``bot:hard``) profile; 404 for anyone else."""
    if rater.startswith(ratings.BOT_PREFIX):
        level = rater.removeprefix(ratings.BOT_PREFIX)
        if level not in BOT_NAMES:
            raise Refused(
                ErrorCode.NO_PLAYER,
                f"there is no bot level {level[:20]!r}; levels are: {', '.join(BOT_NAMES)}",
                404,
            )
    found = await hall.answer(hall.store.profile, rater) if 0 < len(rater) <= 40 else None
    if found is None:
        raise Refused(ErrorCode.NO_PLAYER, "there is no such player", 404)
    return profile_json(found)


def profile_json(found: Profile) -> dict[str, Any]:
    """A profile as JSON: each point of a rating's history with the rating shown after that
    game, so a chart needs no formula of its own."""
    out = asdict(found)
    out["ratings"] = ratings_json(found.ratings)
    out["provisional_games"] = ratings.PROVISIONAL_GAMES
    return out


def ratings_json(found: dict[str, RaterRating]) -> dict[str, Any]:
    """A rater's ratings by family as JSON, each point of a history with the rating shown
    after that game."""
    out = {family: asdict(r) for family, r in found.items()}
    for family, rated in found.items():
        for point, shown in zip(out[family]["history"], rated.history, strict=True):
            point["rating"] = shown.rating
    return out
