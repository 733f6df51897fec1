"""Dice cups over HTTP: a cup per phone at a real table, guarded by its own token."""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Depends

from dudo.cup import Cup, CupError
from dudo.server.deps import AuthorizationHeader, HallDep, bearer, spending
from dudo.server.errors import ErrorCode, Refused
from dudo.server.storage import token_hash
from dudo.server.tables import Hall

router = APIRouter()

#: What each cup action does to a cup (the dice come from the operating system's randomness).
CUP_ACTIONS: dict[str, Callable[[Cup], Cup]] = {
    "roll": lambda cup: cup.roll(random.SystemRandom()),
    "remove": lambda cup: cup.remove_one(),
    "add": lambda cup: cup.add_one(random.SystemRandom()),
    "hide": lambda cup: cup.with_hidden(True),
    "show": lambda cup: cup.with_hidden(False),
    "new": lambda cup: cup.reset(),
}


#: What a cup id can be (``secrets.token_urlsafe``); anything else is no cup, and never reaches
#: the database (PostgreSQL refuses text holding a NUL).
CUP_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

#: The changes a cup may refuse, and the code of each refusal.
_CUP_REFUSALS = {
    "roll": ErrorCode.CUP_NO_DICE,
    "remove": ErrorCode.CUP_NO_DIE,
    "add": ErrorCode.CUP_FULL,
}


async def _cup_of(hall: Hall, cup_id: str, authorization: str | None) -> Cup:
    found = await hall.answer(hall.store.load_cup, cup_id) if CUP_ID.fullmatch(cup_id) else None
    if found is None:
        raise Refused(ErrorCode.NO_CUP, f"there is no cup {cup_id!r}", 404)
    token = bearer(authorization)
    if token is None or not secrets.compare_digest(found.token_hash, token_hash(token)):
        raise Refused(
            ErrorCode.CUP_TOKEN_NEEDED,
            "this cup's token is needed (Authorization: Bearer <token>)",
            401,
        )
    return found.cup


@router.post(
    "/api/cups", status_code=201, dependencies=[Depends(spending(lambda guard: guard.cups))]
)
async def new_cup(hall: HallDep) -> dict[str, Any]:
    cup_id, token = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
    cup = Cup.fresh()
    await hall.answer(hall.store.create_cup, cup_id, token, cup)
    return {"id": cup_id, "token": token, "cup": cup.to_dict()}


@router.get("/api/cups/{cup_id}")
async def get_cup(
    cup_id: str, hall: HallDep, authorization: AuthorizationHeader = None
) -> dict[str, Any]:
    return {"id": cup_id, "cup": (await _cup_of(hall, cup_id, authorization)).to_dict()}


@router.post("/api/cups/{cup_id}/{op}")
async def cup_op(
    cup_id: str, op: str, hall: HallDep, authorization: AuthorizationHeader = None
) -> dict[str, Any]:
    cup = await _cup_of(hall, cup_id, authorization)
    change = CUP_ACTIONS.get(op)
    if change is None:
        raise Refused(
            ErrorCode.UNKNOWN_CUP_ACTION,
            f"unknown cup action {op!r}; use roll, remove, add, hide, show or new",
            404,
        )
    try:
        cup = change(cup)
    except CupError as exc:
        # The cup refuses only these three changes; the code says which, for the client's words.
        code = _CUP_REFUSALS.get(op, ErrorCode.REFUSED)
        raise Refused(code, str(exc), 409, count=cup.max_dice) from None
    await hall.answer(hall.store.save_cup, cup_id, cup)
    return {"id": cup_id, "cup": cup.to_dict()}
