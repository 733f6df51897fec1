"""What a request to make or join a table must be: a display name, a bot level, the rules of
a preset with house rules, what a rated table asks; and the names bots sit down with."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from typing import Any

from dudo.bots import BOT_NAMES
from dudo.engine.errors import DudoError, RulesError
from dudo.engine.rules import PRESETS, Rules, from_mapping
from dudo.server.errors import ErrorCode as E
from dudo.server.names import name_key
from dudo.server.tables.model import MAX_NAME, PlayerKey, Seat, Settings, TableError


def clean_name(name: object) -> str:
    """A display name: 1 to 24 printable characters once spaces are trimmed, in Unicode's
    composed form (so the same name typed on two keyboards is the same text)."""
    if not isinstance(name, str):
        raise TableError(400, "name: give a display name as text", E.NAME_NOT_TEXT)
    text = unicodedata.normalize("NFC", " ".join(name.split()))
    if not text:
        raise TableError(400, "name: a display name is needed", E.NAME_MISSING)
    if len(text) > MAX_NAME:
        raise TableError(
            400,
            f"name: at most {MAX_NAME} characters, not {len(text)}",
            E.NAME_TOO_LONG,
            count=MAX_NAME,
        )
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise TableError(400, "name: control characters are not allowed", E.NAME_CONTROL)
    return text


#: The names bots sit down with (their level is shown beside the name): names that read the
#: same in English, Spanish and Italian, one per seat a bot may take.
BOT_NAMES_POOL = (
    "Alba", "Bruno", "Carmen", "Dario", "Elena", "Fausto", "Gala", "Hugo",
    "Irene", "Julio", "Lucía", "Marco", "Nora", "Paolo", "Rocío", "Sara",
)  # fmt: skip


def bot_name(seats: list[Seat], seat: int) -> str:
    """A name for a bot taking ``seat``: from the pool, starting at the seat's place so a table's
    bots differ, and never one a person or another bot at the table has."""
    taken = {name_key(s.name) for s in seats if s.name}
    for step in range(len(BOT_NAMES_POOL)):
        name = BOT_NAMES_POOL[(seat + step) % len(BOT_NAMES_POOL)]
        if name_key(name) not in taken:
            return name
    return f"Bot {seat + 1}"  # every name of the pool taken: people chose them all


def check_level(level: object) -> str:
    if not isinstance(level, str) or level not in BOT_NAMES:
        raise TableError(
            400,
            f"bot level {level!r} is unknown; levels are: {', '.join(BOT_NAMES)}",
            E.UNKNOWN_LEVEL,
            level=str(level),
        )
    return level


def table_rules(preset: str, options: dict[str, Any]) -> Rules:
    """The rules of a table: a preset plus house rules, checked by the engine."""
    if preset not in PRESETS:
        raise TableError(
            400,
            f"preset {preset!r} is unknown; presets are: {', '.join(PRESETS)}",
            E.UNKNOWN_PRESET,
            preset=preset,
        )
    try:
        return from_mapping(options, base=PRESETS[preset])
    except RulesError as exc:
        if exc.option is not None:  # the refusal names the house rule at fault
            raise TableError(400, f"options: {exc}", E.BAD_OPTION, option=exc.option) from None
        raise TableError(400, f"options: {exc}", E.BAD_OPTIONS) from None
    except DudoError as exc:
        raise TableError(400, f"options: {exc}", E.BAD_OPTIONS) from None


def check_rated(
    preset: str, rules: Rules, settings: Settings, public: bool, player: PlayerKey | None
) -> None:
    """A rated table is public (anyone may take a seat and see the result), has no hints (the
    odds and the bot's advice would play for people), plays its preset's rules as they are
    (ratings compare games of one rule family) and its host is a player (a rating needs one)."""
    if not public:
        raise TableError(
            400, "a rated table is public: anyone can find it in the lobby", E.RATED_NEEDS_PUBLIC
        )
    if settings.hints:
        raise TableError(
            400,
            "a rated table has no hints: the odds and the bot's advice would play for you",
            E.RATED_NO_HINTS,
        )
    if rules.differences(PRESETS[preset]):
        raise TableError(
            400,
            f"a rated table plays {preset} as it is: remove the house rules, or make the table "
            "unrated",
            E.RATED_HOUSE_RULES,
            preset=preset,
        )
    check_rated_seat(player)


def check_rated_seat(player: PlayerKey | None) -> None:
    """A seat at a rated table is a player's: a seat token alone cannot be rated."""
    if player is None:
        raise TableError(
            401,
            "a seat at a rated table belongs to a player: send your player key "
            "(Authorization: Player <key>)",
            E.RATED_NEEDS_PLAYER,
        )


def check_real(settings: Settings, bots: list[str], public: bool) -> Settings:
    """A real table's settings: its seats are phones at one table (no bots), it is reached by
    its link (not listed), unrated, without turn timers or a lobby countdown, and nobody
    stands in for a phone that is away (the host plays on for it)."""
    if bots:
        raise TableError(
            400, "a real table has no bots: every seat is a phone at the table", E.REAL_NO_BOTS
        )
    if public:
        raise TableError(
            400,
            "a real table is not listed in the lobby: the friends at it open its link",
            E.REAL_NOT_PUBLIC,
        )
    if settings.rated:
        raise TableError(400, "a real table's games are not rated", E.REAL_NOT_RATED)
    if settings.turn_seconds or settings.fill_seconds:
        raise TableError(
            400,
            "a real table has no turn timer and no countdown: the people at it keep the pace",
            E.REAL_NO_TIMERS,
        )
    return replace(settings, grace_seconds=None)
