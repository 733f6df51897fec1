"""The JSON forms the server sends (views, events, tables) and the checks on what clients send.

Everything a connection receives about a game is built here from the engine's
:class:`~dudo.engine.view.PlayerView` for that connection's seat, or from public events, so
hidden dice cannot reach anyone the engine would not show them to.
"""

from __future__ import annotations

import json
from typing import Any

from dudo.engine.actions import Action, Bid, RevealBid
from dudo.engine.counting import counting_dice
from dudo.engine.events import Event, Revealed
from dudo.engine.rules import Rules
from dudo.engine.view import PlayerView

#: The largest client frame accepted, in bytes (a bid, a call or a hello is far smaller).
MAX_FRAME = 4096

PROTOCOL_VERSION = 1


class BadMessage(ValueError):
    """A client frame that is not a valid protocol message. ``code`` is the error code sent back."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _plain(value: Any) -> Any:
    """Engine values as JSON: bids and actions as their notation, tuples as lists."""
    if isinstance(value, Bid):
        return str(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)
    return value


def event_json(seq: int, event: Event, rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {"seq": seq, "type": type(event).__name__}
    for name, value in zip(event._fields, event, strict=True):
        out[name] = _plain(value)
    if type(event) is Revealed:
        # Which dice counted for the bid: the engine's counting, so clients need not know it.
        out["counted"] = (
            None
            if event.bid is None
            else _plain(
                counting_dice(
                    event.hands, event.bid.face, event.wild_aces, rules.wild_needs_natural
                )
            )
        )
    return out


def action_text(action: Action) -> str:
    return str(action)


def view_json(view: PlayerView, names: list[str], seats: list[int], turn: int) -> dict[str, Any]:
    legal = view.legal_actions
    return {
        "viewer": view.viewer,
        "players": view.players,
        "names": names,
        "seats": seats,
        "order": list(view.order),
        "dice_counts": list(view.dice_counts),
        "start_total": view.start_total,
        "phase": view.phase,
        "round": view.round_number,
        "obliging": view.obliging,
        "obliger": view.obliger,
        "obliged": sorted(view.obliged),
        "visibility": view.visibility,
        "opener": view.opener,
        "to_move": view.to_move,
        "standing_bid": None if view.standing_bid is None else str(view.standing_bid),
        "bidder": view.bidder,
        "passer": view.passer,
        "passed": sorted(view.passed),
        "round_actions": [[p, str(a)] for p, a in view.round_actions],
        "my_dice": None if view.my_dice is None else list(view.my_dice),
        "seen_dice": [None if hand is None else list(hand) for hand in view.seen_dice],
        "set_aside": [list(hand) for hand in view.set_aside],
        "legal": [str(a) for a in legal],
        "legal_bids": [[a.quantity, a.face] for a in legal if type(a) is Bid],
        "legal_reveals": [str(a) for a in legal if type(a) is RevealBid],
        "turn": turn,
        "winner": view.winner,
        "faces": view.rules.faces,
    }


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


# ------------------------------------------------------------------------- client frames

_FRAME_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "hello": {"token": (str, type(None)), "since": (int,), "game": (int, type(None))},
    "act": {"action": (str,), "turn": (int,)},
    "explain": {"action": (str,)},
    "take_back": {},
    "ping": {},
}
_REQUIRED: dict[str, frozenset[str]] = {
    "hello": frozenset(),
    "act": frozenset({"action"}),
    "explain": frozenset({"action"}),
    "take_back": frozenset(),
    "ping": frozenset(),
}


def parse_frame(text: str | bytes) -> dict[str, Any]:
    """Check one client frame and return it as a dict, or raise :class:`BadMessage`."""
    if len(text) > MAX_FRAME:
        raise BadMessage("too_large", f"frame of {len(text)} bytes; the limit is {MAX_FRAME}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise BadMessage(
            "bad_message", 'not JSON: send a JSON object such as {"type": "ping"}'
        ) from None
    if not isinstance(data, dict):
        raise BadMessage("bad_message", f"expected a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FRAME_FIELDS:
        known = ", ".join(_FRAME_FIELDS)
        raise BadMessage("bad_message", f"unknown frame type {kind!r}; types are: {known}")
    fields = _FRAME_FIELDS[kind]
    for name, value in data.items():
        if name == "type":
            continue
        if name not in fields:
            raise BadMessage("bad_message", f"{kind}: unknown field {name!r}")
        allowed = fields[name]
        if isinstance(value, bool) or not isinstance(value, allowed):
            want = " or ".join("null" if t is type(None) else t.__name__ for t in allowed)
            raise BadMessage(
                "bad_message", f"{kind}.{name}: expected {want}, got {json.dumps(value)[:40]}"
            )
    for name in _REQUIRED[kind]:
        if name not in data:
            raise BadMessage("bad_message", f"{kind}: missing field {name!r}")
    if len(data.get("action", "")) > 64:  # act and explain, both checked as text above
        raise BadMessage("bad_message", f"{kind}.action: longer than 64 characters")
    if kind == "hello" and isinstance(data.get("token"), str) and len(data["token"]) > 128:
        raise BadMessage("bad_message", "hello.token: longer than 128 characters")
    return data
