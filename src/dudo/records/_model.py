"""The typed form of a game record (what :func:`dudo.records.read_record` returns)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from dudo.engine.actions import Action
from dudo.engine.chance import ChanceOutcome
from dudo.engine.rules import Rules
from dudo.engine.setup import Setup

FORMAT: Final = "dudo-record"
VERSION: Final = 1

#: The rule options every version-1 record holds. An option the engine gains later must
#: default to the behaviour of a game without it; readers give it that default when a
#: version-1 record does not name it (see docs/record-format.md, "Versions").
V1_OPTIONS: Final = (
    "aces_wild",
    "wild_needs_natural",
    "raise_mode",
    "aces_rank",
    "aces_to",
    "aces_from",
    "open_on_aces",
    "loss",
    "cruzado",
    "spot_on",
    "spot_on_reward",
    "spot_on_threshold",
    "spot_on_min_players",
    "pass_hands",
    "pass_min_players",
    "pass_allows_spot_on",
    "oblige",
    "oblige_min_players",
    "oblige_face_change",
    "oblige_visibility",
    "reveal_reroll",
    "seating",
    "direction",
    "next_opener",
    "min_players",
    "max_players",
    "faces",
    "dice_per_player",
)

PlayerKind = Literal["human", "bot"]
PLAYER_KINDS: Final = ("human", "bot")


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Who sat in a seat: a display name, human or bot, and which bot."""

    name: str
    kind: PlayerKind = "human"
    bot: str | None = None  # the bot's name (e.g. "random") when kind is "bot"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.bot is not None:
            out["bot"] = self.bot
        return out


def default_players(count: int) -> tuple[PlayerInfo, ...]:
    return tuple(PlayerInfo(f"Player {p + 1}") for p in range(count))


def setup_to_dict(setup: Setup) -> dict[str, Any]:
    """The record's ``setup`` object: each field the game was set up with, the player count
    aside (the ``players`` list gives it). A fresh game's setup is ``{}``."""
    out: dict[str, Any] = {}
    if setup.order is not None:
        out["order"] = list(setup.order)
    if setup.dice is not None:
        out["dice"] = list(setup.dice)
    if setup.start_total is not None:
        out["start_total"] = setup.start_total
    if setup.obliged:
        out["obliged"] = sorted(setup.obliged)
    if setup.obliger is not None:
        out["obliger"] = setup.obliger
    if setup.spoken:
        out["spoken"] = True
    return out


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One entry of ``actions``: who acted and what they did.

    ``action`` is the action to push: an out-of-turn call is ``Call(by=player)``.
    """

    player: int
    action: Action

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "action": str(self.action)}


@dataclass(frozen=True, slots=True)
class Result:
    """How the recorded game ended."""

    winner: int
    rounds: int  # rounds played, the last one included

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "rounds": self.rounds}


def chance_to_dict(outcome: ChanceOutcome) -> dict[str, list[int]]:
    return {outcome.kind: list(outcome.values)}


_FRESH = Setup()  # Record's default setup, until it knows the number of players


@dataclass(frozen=True, slots=True)
class Record:
    """A game record read and checked for form (a replay checks every action).

    ``setup`` is the engine's :class:`~dudo.engine.setup.Setup` of the game, whole; its
    ``players`` is the length of ``players``. ``meta`` is free-form JSON data (dates, a
    title, the program version...), never used to replay. ``preset`` names the preset the
    table started from, for display only: the rules are always the full option set in
    ``rules``.
    """

    rules: Rules
    players: tuple[PlayerInfo, ...]
    setup: Setup = _FRESH  # a fresh game of len(players) players
    chance: tuple[ChanceOutcome, ...] = ()
    actions: tuple[RecordedAction, ...] = ()
    result: Result | None = None
    meta: Mapping[str, Any] = field(default_factory=dict, hash=False)
    preset: str | None = None
    version: int = VERSION

    def __post_init__(self) -> None:
        if self.setup is _FRESH:
            object.__setattr__(self, "setup", Setup(len(self.players)))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data, in the key order of docs/record-format.md."""
        out: dict[str, Any] = {"format": FORMAT, "version": self.version}
        if self.preset is not None:
            out["preset"] = self.preset
        out["rules"] = self.rules.to_dict()
        out["players"] = [p.to_dict() for p in self.players]
        out["setup"] = setup_to_dict(self.setup)
        out["chance"] = [chance_to_dict(c) for c in self.chance]
        out["actions"] = [a.to_dict() for a in self.actions]
        out["result"] = None if self.result is None else self.result.to_dict()
        out["meta"] = dict(self.meta)
        return out
