"""Engine values as JSON: the one encoding of bids, actions, events and player views that every
protocol shares (the server's WebSocket frames and the bot protocol each add or rename a few
fields of their own, next to their documentation), and compact JSON text."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

from dudo.engine.actions import Bid
from dudo.engine.events import Event
from dudo.engine.view import PlayerView, PublicPart, ViewerPart


def plain(value: Any) -> Any:
    """An engine value as JSON-ready data: bids as their notation, enums as text, tuples as
    lists, sets as sorted lists."""
    kind = type(value)
    if kind is int or kind is bool or kind is str or value is None:  # most values: first
        return value
    if kind is tuple or kind is list:
        return [plain(v) for v in value]
    if kind is frozenset or kind is set:
        return sorted(plain(v) for v in value)
    if isinstance(value, Bid | StrEnum):
        return str(value)
    return value


def event_fields(event: Event) -> dict[str, Any]:
    """``{"type": "BidMade", "player": 0, "bid": "5x3", ...}``: the type's name, every field."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for name, value in zip(event._fields, event, strict=True):
        out[name] = plain(value)
    return out


def view_fields(view: PlayerView) -> dict[str, Any]:
    """The fields of a player's view every protocol sends, under the engine's names. The round's
    actions, the legal actions and the events are left to each protocol's own form."""
    return {**public_fields(view), **viewer_fields(view)}


def public_fields(view: PlayerView | PublicPart) -> dict[str, Any]:
    """The fields of :func:`view_fields` that are the same for every viewer of one moment,
    from a view or only its :class:`~dudo.engine.view.PublicPart`."""
    return {
        "players": view.players,
        "order": list(view.order),
        "dice_counts": list(view.dice_counts),
        "start_total": view.start_total,
        "obliged": sorted(view.obliged),
        "phase": view.phase,
        "round_number": view.round_number,
        "obliging": view.obliging,
        "obliger": view.obliger,
        "visibility": view.visibility,
        "opener": view.opener,
        "to_move": view.to_move,
        "standing_bid": None if view.standing_bid is None else str(view.standing_bid),
        "bidder": view.bidder,
        "passer": view.passer,
        "passed": sorted(view.passed),
        "set_aside": [list(hand) for hand in view.set_aside],
        "winner": view.winner,
    }


def viewer_fields(view: PlayerView | ViewerPart) -> dict[str, Any]:
    """The fields of :func:`view_fields` that depend on who is looking: who it is, their own
    dice and the dice they see. The others are the same for every viewer of one moment."""
    return {
        "viewer": view.viewer,
        "my_dice": None if view.my_dice is None else list(view.my_dice),
        "seen_dice": [None if hand is None else list(hand) for hand in view.seen_dice],
    }


def compact_json(message: Any, *, allow_nan: bool = True) -> str:
    """``message`` as compact JSON text on one line that can always be sent as UTF-8."""
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=allow_nan)
    if not text.isascii():  # O(1) for a str: only non-ASCII text is checked
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # A lone surrogate has no UTF-8 form and would break the sending connection:
            # escaped (\ud800) it is valid JSON that any reader takes.
            return json.dumps(message, separators=(",", ":"), allow_nan=allow_nan)
    return text
