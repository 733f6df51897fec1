"""The rules and words the client shows: presets, options, bot levels, face and call names."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from dudo.bots import BOT_NAMES
from dudo.engine.actions import CALL, CLOSED, DOUBT_PASS, OPEN, PASS, SPOT_ON
from dudo.engine.rules import (
    DEFAULT_PRESET,
    OPTION_NAMES,
    PRESET_SUMMARIES,
    PRESETS,
    describe_option,
    option_choices,
)
from dudo.notation import FACE_NAMINGS, LANGUAGES, face_name, format_action
from dudo.server.errors import ErrorCode, Refused
from dudo.server.rated import FREE_WIN_LEVELS, RATED_FILL_LEVEL

router = APIRouter()


@router.get("/api/presets")
async def presets() -> dict[str, Any]:
    return {
        "presets": [
            {"name": name, "summary": PRESET_SUMMARIES.get(name, ""), "rules": rules.to_dict()}
            for name, rules in PRESETS.items()
        ],
        "options": [
            {"name": name, "values": describe_option(name), "choices": option_choices(name)}
            for name in OPTION_NAMES
        ],
        "default": DEFAULT_PRESET,
        "bot_levels": list(BOT_NAMES),
        # What a rated table allows of them: the form offers no other (the server refuses it).
        "rated_bot_levels": [level for level in BOT_NAMES if level not in FREE_WIN_LEVELS],
        "rated_fill_level": RATED_FILL_LEVEL,
    }


@router.get("/api/i18n/{lang}")
async def words(lang: str, faces: str = "usual") -> dict[str, Any]:
    """A language's face names and calls; ``?faces=traditional`` names the faces with the
    English nicknames (ducks, trains, quads, queens, hexes) instead of the numbers."""
    if lang not in LANGUAGES:
        raise Refused(
            ErrorCode.NO_LANGUAGE,
            f"language {lang!r} is not available; use {', '.join(LANGUAGES)}",
            404,
        )
    if faces not in FACE_NAMINGS:
        raise Refused(
            ErrorCode.BAD_OPTION,
            f"faces: {' or '.join(FACE_NAMINGS)}, not {faces!r}",
            400,
            option="faces",
        )
    return {
        "lang": lang,
        "faces": {
            str(f): {
                "one": face_name(f, lang, naming=faces),
                "many": face_name(f, lang, plural=True, naming=faces),
            }
            for f in range(1, 7)
        },
        "calls": {
            str(a): format_action(a, lang) for a in (CALL, SPOT_ON, PASS, DOUBT_PASS, OPEN, CLOSED)
        },
    }
