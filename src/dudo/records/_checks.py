"""Checks on JSON values read from outside (game records, bot protocol messages).

A failure names where the bad value is and what is wrong with it (``players[2]: 'Carla' is
not an object``), raised as the one error type of the reader that checks: a
:class:`JsonChecks` is built once per reader with that type.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, NoReturn

from dudo.engine.actions import Action
from dudo.engine.errors import NotationError
from dudo.notation import parse_action


def show_value(value: Any) -> str:
    """A value as it appears in an error message: 'text', 12, true, null, [1, 2], {...}."""
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, dict):
        text = "an object" if value else "{}"
    elif isinstance(value, list):
        text = "a list" if value else "[]"
    else:
        try:
            text = json.dumps(value)
        except (TypeError, ValueError):  # pragma: no cover - JSON values always dump
            text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@lru_cache(maxsize=8192)
def canonical_action(text: str, faces: int, notation: str = "canonical") -> Action | str:
    """The action written as ``text`` in canonical notation, or why it is not one.
    (Cached: the same few hundred texts come in every view and record.)"""
    try:
        action = parse_action(text, faces)
    except NotationError as exc:
        return str(exc)
    if str(action) != text:
        return f"{text!r} is not in the {notation} notation; write {str(action)!r}"
    return action


class JsonChecks:
    """The shape checks of one reader; each fails with ``error("<path>: <why>")``."""

    __slots__ = ("error",)

    def __init__(self, error: Callable[[str], Exception]) -> None:
        self.error = error

    def fail(self, path: str, why: str) -> NoReturn:
        raise self.error(f"{path}: {why}")

    def mapping(self, value: Any, path: str, example: str = "") -> dict[str, Any]:
        if not isinstance(value, dict):
            like = f" like {example}" if example else ""
            self.fail(path, f"{show_value(value)} is not an object{like}")
        return value

    def items(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, f"{show_value(value)} is not a list")
        return value

    def integer(self, value: Any, path: str, what: str = "a whole number") -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"{show_value(value)} is not {what}")
        return value

    def text(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            self.fail(path, f"{show_value(value)} is not text")
        return value

    def keys(
        self,
        obj: Mapping[str, Any],
        path: str,
        allowed: tuple[str, ...],
        required: tuple[str, ...] | None = None,
    ) -> None:
        """Only ``allowed`` keys and every ``required`` one (default: all allowed); unknown
        keys are reported first, in the order written, then the first missing one."""
        prefix = f"{path}." if path else ""
        for key in obj:
            if key not in allowed:
                holder = path or "a record"
                self.fail(f"{prefix}{key}", f"unknown field; {holder} holds {', '.join(allowed)}")
        for key in allowed if required is None else required:
            if key not in obj:
                self.fail(f"{prefix}{key}", "missing")

    def player(self, value: Any, path: str, players: int) -> int:
        p = self.integer(value, path, "a player number")
        if not 0 <= p < players:
            self.fail(path, f"{p} is not a player (players are 0..{players - 1})")
        return p

    def action(self, value: Any, path: str, faces: int, notation: str = "canonical") -> Action:
        """One action in canonical notation (``5x3``, ``call``, ``5x3 reveal 3,3``...)."""
        found = canonical_action(self.text(value, path), faces, notation)
        if isinstance(found, str):
            self.fail(path, found)
        return found
