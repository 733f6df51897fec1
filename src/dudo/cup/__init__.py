"""The dice cup for play at a real table (docs/rules.md section 5): roll, remove a die, add a die,
hide/show, with the die count kept between sessions.

This module is the pure model: an immutable :class:`Cup` whose operations return a new cup,
and its JSON form. Reading and writing the file is in :mod:`dudo.cup.storage`; the terminal
screen is :mod:`dudo.terminal.cup_screen`.

Choices the rules leave open:

- Adding a die rolls only the new die; the dice already rolled keep their faces, so a player
  who has looked at them is not surprised. Before the first roll (no faces yet) nothing is
  rolled. Adding at 0 dice is allowed: it undoes a removal tapped by mistake.
- Removing a die drops the last of the shown dice; the others keep their faces.
- Rolling with 0 dice is impossible (the player is out; a new game gives 5 dice again).
- Only hide/show/toggle change ``hidden``: rolling, adding, removing and a new game keep it,
  so a player who covered the screen is never exposed by the next action.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeGuard

from dudo.engine.errors import DudoError

__all__ = ["FACES", "FORMAT", "FORMAT_VERSION", "MAX_DICE", "Cup", "CupCode", "CupError"]

#: The most dice a cup can hold (docs/rules.md section 5: "never going past five").
MAX_DICE = 5
#: Die faces; 1 is the ace.
FACES = range(1, 7)
#: The ``format`` tag and the ``version`` written to and required in the JSON form.
FORMAT = "dudo-cup"
FORMAT_VERSION = 1

_FIELDS = ("format", "version", "count", "dice", "hidden", "max_dice")


class CupCode(StrEnum):
    """Why a cup operation or a cup file failed, as a stable code a front end words in its own
    language; the parameters each carries are listed beside it."""

    NO_DICE_TO_ROLL = "no_dice_to_roll"
    NO_DIE_TO_REMOVE = "no_die_to_remove"
    CUP_FULL = "cup_full"  # most
    NOT_A_CUP = "not_a_cup"
    NOT_JSON = "not_json"  # line, column
    NOT_UTF8 = "not_utf8"
    DAMAGED = "damaged"  # path (and the error found inside the file)
    CANNOT_READ = "cannot_read"  # path, detail
    CANNOT_SAVE = "cannot_save"  # path, detail
    CANNOT_RENAME = "cannot_rename"  # path, detail


class CupError(DudoError):
    """An impossible cup operation or a corrupt cup file. The cup is left unchanged.

    The message is English; ``code`` (with ``params``), when set, names the error for a front
    end to word in its own language (the terminal's ``terminal.cup_error_<code>``)."""

    def __init__(self, message: str, code: CupCode | None = None, **params: int | str) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, int | str] = MappingProxyType(params)


def _is_int(value: object) -> TypeGuard[int]:
    # bool is a subclass of int, but `true` is never a valid die count or face.
    return isinstance(value, int) and not isinstance(value, bool)


def _check(count: object, dice: object, hidden: object, max_dice: object) -> str | None:
    """Return what is wrong with these field values, or None if they make a valid cup."""
    if not _is_int(max_dice) or not 1 <= max_dice <= MAX_DICE:
        return f"max_dice must be a whole number from 1 to {MAX_DICE}, not {max_dice!r}"
    if not _is_int(count) or not 0 <= count <= max_dice:
        return f"count must be a whole number from 0 to {max_dice}, not {count!r}"
    if not isinstance(dice, tuple | list):
        return f"dice must be a list of faces, not {dice!r}"
    if len(dice) not in (0, count):
        return f"dice must hold {count} faces (or none before the first roll), not {len(dice)}"
    for face in dice:
        if not _is_int(face) or face not in FACES:
            return f"each die must show a face from 1 to 6, not {face!r}"
    if not isinstance(hidden, bool):
        return f"hidden must be true or false, not {hidden!r}"
    return None


@dataclass(frozen=True, slots=True)
class Cup:
    """One player's dice cup.

    ``count`` is how many dice the player holds (0 = out of the game); ``dice`` are the faces
    of the last roll (empty before the first roll, else one face per die); ``hidden`` covers
    the dice on screen. Every operation returns a new cup; an impossible one raises
    :class:`CupError` and, the cup being immutable, changes nothing.
    """

    count: int = MAX_DICE
    dice: tuple[int, ...] = ()
    hidden: bool = False
    max_dice: int = MAX_DICE

    def __post_init__(self) -> None:
        problem = _check(self.count, self.dice, self.hidden, self.max_dice)
        if problem is not None:
            raise CupError(f"invalid cup: {problem}")
        if isinstance(self.dice, list):  # accept a list, but store the immutable form
            object.__setattr__(self, "dice", tuple(self.dice))

    @classmethod
    def fresh(cls, max_dice: int = MAX_DICE) -> Cup:
        """A full cup for a new game, not rolled yet."""
        return cls(count=max_dice, dice=(), hidden=False, max_dice=max_dice)

    @property
    def out(self) -> bool:
        """True when the player has lost every die."""
        return self.count == 0

    @property
    def rolled(self) -> bool:
        """True when the cup holds faces to show (rolled at least once since the last reset)."""
        return bool(self.dice)

    def roll(self, rng: random.Random) -> Cup:
        """Shake the cup: a new face for every die."""
        if self.out:
            raise CupError(
                "no dice to roll: you are out of the game (start a new game)",
                CupCode.NO_DICE_TO_ROLL,
            )
        return replace(self, dice=tuple(rng.randint(1, 6) for _ in range(self.count)))

    def remove_one(self) -> Cup:
        """I lost a die: one die fewer (the last shown die goes). At 0 the player is out."""
        if self.out:
            raise CupError(
                "no die to remove: you have no dice left and are out of the game",
                CupCode.NO_DIE_TO_REMOVE,
            )
        return replace(self, count=self.count - 1, dice=self.dice[:-1])

    def add_one(self, rng: random.Random) -> Cup:
        """I won a die back: one die more, never above ``max_dice``.

        Only the new die is rolled; the others keep their faces. Before the first roll
        there are no faces, so none is drawn.
        """
        if self.count >= self.max_dice:
            raise CupError(
                f"cannot add a die: you already hold the most, {self.max_dice}",
                CupCode.CUP_FULL,
                most=self.max_dice,
            )
        dice = (*self.dice, rng.randint(1, 6)) if self.rolled else ()
        return replace(self, count=self.count + 1, dice=dice)

    def toggle_hidden(self) -> Cup:
        """Cover the dice if they are shown, show them if they are covered."""
        return replace(self, hidden=not self.hidden)

    def with_hidden(self, hidden: bool) -> Cup:
        """Cover (``True``) or show (``False``) the dice, whatever they were."""
        return replace(self, hidden=hidden)

    def reset(self) -> Cup:
        """A new game: back to ``max_dice`` dice, not rolled yet (``hidden`` is kept)."""
        return replace(self, count=self.max_dice, dice=())

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, tagged with the format and its version."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "count": self.count,
            "dice": list(self.dice),
            "hidden": self.hidden,
            "max_dice": self.max_dice,
        }

    def to_json(self) -> str:
        """The cup as a one-line JSON document (ending in a newline)."""
        return json.dumps(self.to_dict()) + "\n"

    @classmethod
    def from_dict(cls, data: object) -> Cup:
        """Read the form written by :meth:`to_dict`; anything else raises :class:`CupError`."""
        if not isinstance(data, dict):
            raise CupError(
                f"a cup must be a JSON object, not {type(data).__name__}", CupCode.NOT_A_CUP
            )
        if data.get("format") != FORMAT:
            raise CupError(
                f"not a dice cup: format must be {FORMAT!r}, not {data.get('format')!r}",
                CupCode.NOT_A_CUP,
            )
        if data.get("version") != FORMAT_VERSION:
            raise CupError(
                f"unsupported cup version {data.get('version')!r} (this program reads "
                f"version {FORMAT_VERSION})"
            )
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise CupError(f"missing field(s): {', '.join(missing)}")
        unknown = sorted(str(name) for name in data if name not in _FIELDS)
        if unknown:
            raise CupError(f"unknown field(s): {', '.join(unknown)}")
        count, dice, hidden, max_dice = (data[k] for k in ("count", "dice", "hidden", "max_dice"))
        problem = _check(count, dice, hidden, max_dice)
        if problem is not None:
            raise CupError(problem)
        return cls(count=count, dice=tuple(dice), hidden=hidden, max_dice=max_dice)

    @classmethod
    def from_json(cls, text: str) -> Cup:
        """Read :meth:`to_json` output; corrupt or invalid text raises :class:`CupError`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise CupError(
                f"not valid JSON ({err.msg} at line {err.lineno} column {err.colno})",
                CupCode.NOT_JSON,
                line=err.lineno,
                column=err.colno,
            ) from None
        except (ValueError, RecursionError) as err:  # e.g. a number with too many digits
            raise CupError(f"not valid JSON ({err})") from None
        return cls.from_dict(data)
