"""The JSON-lines bot protocol: a :class:`~dudo.engine.view.PlayerView` as JSON and back, and
the request and answer messages a driver and a bot exchange (documented in
``docs/bot-protocol.md``).

:func:`view_to_json` and :func:`view_from_json` are exact inverses: a view read back equals
the one written. Reading checks everything it reads and raises :class:`ProtocolError` with
the path of the first bad value (``view.dice_counts[2]: 'x' is not a whole number``).
Actions travel as their canonical notation (``5x3``, ``call``, ``5x3 reveal 3,3``), events
as ``{"type": NAME, field: value, ...}`` with the engine's field names.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Final

from dudo.engine.actions import Action, Bid, Call
from dudo.engine.errors import DudoError, RecordError
from dudo.engine.events import EVENT_TYPES, Event
from dudo.engine.jsonable import compact_json, event_fields, view_fields
from dudo.engine.view import PlayerView
from dudo.records import JsonChecks, canonical_action, parse_rules, show_value, strict_json

#: The protocol version a driver and a bot agree on in the ``hello`` exchange.
PROTOCOL_VERSION: Final = 1

#: Request types a driver sends.
REQUEST_TYPES: Final = ("hello", "choose", "out_of_turn", "quit")

#: The values of ``view.phase`` and ``view.visibility``.
PHASES: Final = ("choose_visibility", "bidding", "over")
VISIBILITIES: Final = ("normal", "closed", "open")

VIEW_FIELDS: Final = (
    "rules",
    "viewer",
    "players",
    "order",
    "dice_counts",
    "start_total",
    "obliged",
    "phase",
    "round_number",
    "obliging",
    "obliger",
    "visibility",
    "opener",
    "to_move",
    "standing_bid",
    "bidder",
    "passer",
    "passed",
    "round_actions",
    "my_dice",
    "seen_dice",
    "set_aside",
    "legal_actions",
    "events",
    "winner",
)

_EVENT_TYPES: dict[str, type[tuple[object, ...]]] = {t.__name__: t for t in EVENT_TYPES}


class ProtocolError(DudoError):
    """A message (or a view, event or action in one) that is not valid in the protocol."""


_checks = JsonChecks(ProtocolError)
_fail = _checks.fail
_object = _checks.mapping
_list = _checks.items
_int = _checks.integer
_text = _checks.text
_seat = _checks.player


# ---------------------------------------------------------------------------- writing


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"type": "BidMade", "player": 0, "bid": "5x3", ...}``: the type's name, every field."""
    return event_fields(event)


def _round_action_json(player: int, action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"player": player, "action": str(action)}
    if isinstance(action, Call) and action.by is not None:
        out["by"] = action.by  # a call naming its caller (every out-of-turn call does)
    return out


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """Every field of ``view`` as JSON-ready values (see ``docs/bot-protocol.md``, "The view"): the
    engine's view fields, with the rules, round actions as objects, the legal actions and the
    view's events."""
    return {
        "rules": view.rules.to_dict(),
        **view_fields(view),
        "round_actions": [_round_action_json(p, a) for p, a in view.round_actions],
        "legal_actions": [str(a) for a in view.legal_actions],
        "events": [event_to_json(e) for e in view.events],
    }


def dumps(message: Mapping[str, Any]) -> str:
    """One message as one line of compact JSON (no newline inside, none at the end)."""
    return compact_json(message, allow_nan=False)


# ---------------------------------------------------------------------------- reading


def loads_message(line: str | bytes) -> dict[str, Any]:
    """One line of the protocol as a JSON object, or :class:`ProtocolError` saying why not."""
    if isinstance(line, bytes | bytearray):
        try:
            line = bytes(line).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    try:
        data = strict_json(line)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON: column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ProtocolError("not JSON this program can read: nested too deeply") from None
    except ValueError as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"a message is a JSON object, not {show_value(data)}")
    return data


def _count(value: Any, path: str) -> int:
    number = _int(value, path)
    if number < 0:
        _fail(path, f"{number} is negative")
    return number


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        _fail(path, f"{show_value(value)} is not true or false")
    return value


def action_from_text(text: Any, path: str, faces: int) -> Action:
    """A canonical action (``5x3``, ``call``, ``5x3 reveal 3,3``...); a call reads as ``Call()``."""
    return _checks.action(text, path, faces)


def _bid(value: Any, path: str, faces: int) -> Bid:
    action = action_from_text(value, path, faces)
    if not isinstance(action, Bid):
        _fail(path, f"{show_value(value)} is not a bid like '5x3'")
    return action


def _seat_or_none(value: Any, path: str, players: int) -> int | None:
    return None if value is None else _seat(value, path, players)


def _seats(value: Any, path: str, players: int) -> list[int]:
    return [_seat(v, f"{path}[{i}]", players) for i, v in enumerate(_list(value, path))]


def _seat_set(value: Any, path: str, players: int) -> frozenset[int]:
    seats = _seats(value, path, players)
    if len(set(seats)) != len(seats):
        _fail(path, f"{seats} names a player twice")
    return frozenset(seats)


def _dice(value: Any, path: str, faces: int) -> tuple[int, ...]:
    out = []
    for i, item in enumerate(_list(value, path)):
        die = _int(item, f"{path}[{i}]", "a die value")
        if not 1 <= die <= faces:
            _fail(f"{path}[{i}]", f"{die} is not a face 1..{faces}")
        out.append(die)
    return tuple(out)


def _choice(value: Any, path: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        _fail(path, f"{show_value(value)} is not valid; use {' | '.join(choices)}")
    return value


class _Bad(Exception):
    """A bad value inside an event; ``where`` is built up on the way out (``[2][0]``), so
    reading good values builds no path strings."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why
        self.where = ""


_Reader = Callable[[Any, int], Any]  # (JSON value, faces) -> engine value


def _read_bool(value: Any, faces: int) -> bool:
    if type(value) is not bool:
        raise _Bad(f"{show_value(value)} is not true or false")
    return value


def _read_int(value: Any, faces: int) -> int:
    if type(value) is not int:
        raise _Bad(f"{show_value(value)} is not a whole number")
    return value


def _read_str(value: Any, faces: int) -> str:
    if type(value) is not str:
        raise _Bad(f"{show_value(value)} is not text")
    return value


def _read_bid(value: Any, faces: int) -> Bid:
    if type(value) is not str:
        raise _Bad(f"{show_value(value)} is not a bid like '5x3'")
    found = canonical_action(value, faces)
    if isinstance(found, str):
        raise _Bad(found)
    if not isinstance(found, Bid):
        raise _Bad(f"{show_value(value)} is not a bid like '5x3'")
    return found


# Events are read by the types of their fields (the engine's annotations), so a new event
# type or field needs no change here.
@cache
def _reader(hint: Any) -> _Reader:
    """A function reading a JSON value as the annotated type ``hint`` of an event field."""
    simple: dict[Any, _Reader] = {bool: _read_bool, int: _read_int, str: _read_str, Bid: _read_bid}
    if hint in simple:
        return simple[hint]
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        enum: type[StrEnum] = hint
        names = {str(m): m for m in enum}

        def read_enum(value: Any, faces: int) -> StrEnum:
            if type(value) is not str or value not in names:
                raise _Bad(f"{show_value(value)} is not valid; use {' | '.join(names)}")
            return names[value]

        return read_enum
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is types.UnionType or origin is typing.Union:
        others = [a for a in args if a is not type(None)]
        if len(others) != 1 or len(args) != 2:  # pragma: no cover - events use X | None
            raise AssertionError(f"cannot read a value of type {hint}")
        inner = _reader(others[0])

        def read_optional(value: Any, faces: int) -> Any:
            return None if value is None else inner(value, faces)

        return read_optional
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _reader(args[0])

        def read_many(value: Any, faces: int) -> tuple[Any, ...]:
            if type(value) is not list:
                raise _Bad(f"{show_value(value)} is not a list")
            out = []
            for i, v in enumerate(value):
                try:
                    out.append(item(v, faces))
                except _Bad as bad:
                    bad.where = f"[{i}]{bad.where}"
                    raise
            return tuple(out)

        return read_many
    if origin is tuple:
        items = tuple(_reader(a) for a in args)

        def read_fixed(value: Any, faces: int) -> tuple[Any, ...]:
            if type(value) is not list:
                raise _Bad(f"{show_value(value)} is not a list")
            if len(value) != len(items):
                raise _Bad(f"holds {len(value)} values, not {len(items)}")
            out = []
            for i, (read, v) in enumerate(zip(items, value, strict=True)):
                try:
                    out.append(read(v, faces))
                except _Bad as bad:
                    bad.where = f"[{i}]{bad.where}"
                    raise
            return tuple(out)

        return read_fixed
    raise AssertionError(f"cannot read a value of type {hint}")  # pragma: no cover


@cache
def _event_fields(event_type: type[tuple[object, ...]]) -> tuple[tuple[str, _Reader], ...]:
    hints = typing.get_type_hints(event_type)
    fields: tuple[str, ...] = getattr(event_type, "_fields")  # noqa: B009 - a NamedTuple
    return tuple((name, _reader(hints[name])) for name in fields)


def event_from_json(value: Any, path: str, faces: int) -> Event:
    """The inverse of :func:`event_to_json`: type and fields checked, every field required."""
    obj = _object(value, path)
    kind = obj.get("type")
    event_type = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if event_type is None:
        _fail(
            f"{path}.type",
            f"{show_value(kind)} is not an event type; types are: {', '.join(_EVENT_TYPES)}",
        )
    fields = _event_fields(event_type)
    if len(obj) != len(fields) + 1:
        _checks.keys(obj, path, ("type", *(name for name, _ in fields)))
    values = []
    for name, read in fields:
        if name not in obj:
            _fail(f"{path}.{name}", "missing")
        try:
            values.append(read(obj[name], faces))
        except _Bad as bad:
            _fail(f"{path}.{name}{bad.where}", bad.why)
    event: Event = event_type(*values)  # type: ignore[assignment]
    return event


def _legal_action(value: Any, path: str, faces: int, out_of_turn_caller: int | None) -> Action:
    action = action_from_text(value, path, faces)
    if isinstance(action, Call) and out_of_turn_caller is not None:
        return Call(by=out_of_turn_caller)  # what the engine offers a player not to move
    return action


def _round_action(value: Any, path: str, faces: int, players: int) -> tuple[int, Action]:
    obj = _object(value, path)
    fields = ("player", "action", "by") if "by" in obj else ("player", "action")
    _checks.keys(obj, path, fields)
    player = _seat(obj["player"], f"{path}.player", players)
    action = action_from_text(obj["action"], f"{path}.action", faces)
    if "by" in obj:
        if not isinstance(action, Call):
            _fail(f"{path}.by", f"only a call names its caller, not {str(action)!r}")
        action = Call(by=_seat(obj["by"], f"{path}.by", players))
    return player, action


def view_from_json(value: Any, path: str = "view") -> PlayerView:
    """The :class:`PlayerView` written by :func:`view_to_json`, every field checked for form.

    Whether the view could arise in a game is not checked (only the engine knows that); the
    shapes are: lists of one entry per player, dice within the faces, actions in the
    canonical notation, events of the engine's types.
    """
    obj = _object(value, path)
    _checks.keys(obj, path, VIEW_FIELDS)
    try:
        rules = parse_rules(obj["rules"])
    except RecordError as exc:
        raise ProtocolError(f"{path}.{exc}") from None
    faces = rules.faces
    players = _int(obj["players"], f"{path}.players", "a number of players")
    if players < 2:
        _fail(f"{path}.players", f"{players} players; a game has two or more")

    def per_player(name: str) -> list[Any]:
        items = _list(obj[name], f"{path}.{name}")
        if len(items) != players:
            _fail(f"{path}.{name}", f"{len(items)} entries for {players} players")
        return items

    order = tuple(_seats(obj["order"], f"{path}.order", players))
    if sorted(order) != list(range(players)):
        _fail(f"{path}.order", f"{list(order)} is not an order of players 0..{players - 1}")
    dice_counts = tuple(
        _count(v, f"{path}.dice_counts[{i}]") for i, v in enumerate(per_player("dice_counts"))
    )
    viewer = _seat_or_none(obj["viewer"], f"{path}.viewer", players)
    to_move = _seat_or_none(obj["to_move"], f"{path}.to_move", players)
    visibility = obj["visibility"]
    if visibility is not None:
        visibility = _choice(visibility, f"{path}.visibility", VISIBILITIES)
    standing = obj["standing_bid"]
    my_dice = obj["my_dice"]
    out_of_turn = viewer if viewer is not None and viewer != to_move else None
    return PlayerView(
        rules=rules,
        viewer=viewer,
        players=players,
        order=order,
        dice_counts=dice_counts,
        start_total=_count(obj["start_total"], f"{path}.start_total"),
        obliged=_seat_set(obj["obliged"], f"{path}.obliged", players),
        phase=_choice(obj["phase"], f"{path}.phase", PHASES),
        round_number=_count(obj["round_number"], f"{path}.round_number"),
        obliging=_bool(obj["obliging"], f"{path}.obliging"),
        obliger=_seat_or_none(obj["obliger"], f"{path}.obliger", players),
        visibility=visibility,
        opener=_seat(obj["opener"], f"{path}.opener", players),
        to_move=to_move,
        standing_bid=None if standing is None else _bid(standing, f"{path}.standing_bid", faces),
        bidder=_seat_or_none(obj["bidder"], f"{path}.bidder", players),
        passer=_seat_or_none(obj["passer"], f"{path}.passer", players),
        passed=_seat_set(obj["passed"], f"{path}.passed", players),
        round_actions=tuple(
            _round_action(v, f"{path}.round_actions[{i}]", faces, players)
            for i, v in enumerate(_list(obj["round_actions"], f"{path}.round_actions"))
        ),
        my_dice=None if my_dice is None else _dice(my_dice, f"{path}.my_dice", faces),
        seen_dice=tuple(
            None if hand is None else _dice(hand, f"{path}.seen_dice[{i}]", faces)
            for i, hand in enumerate(per_player("seen_dice"))
        ),
        set_aside=tuple(
            _dice(hand, f"{path}.set_aside[{i}]", faces)
            for i, hand in enumerate(per_player("set_aside"))
        ),
        legal_actions=tuple(
            _legal_action(v, f"{path}.legal_actions[{i}]", faces, out_of_turn)
            for i, v in enumerate(_list(obj["legal_actions"], f"{path}.legal_actions"))
        ),
        events=tuple(
            event_from_json(v, f"{path}.events[{i}]", faces)
            for i, v in enumerate(_list(obj["events"], f"{path}.events"))
        ),
        winner=_seat_or_none(obj["winner"], f"{path}.winner", players),
    )


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True)
class Request:
    """A checked request from a driver. ``view`` is set for ``choose`` and ``out_of_turn``,
    ``protocol`` for ``hello``; ``id`` may be None only for ``quit``."""

    type: str
    id: int | None
    view: PlayerView | None = None
    protocol: int | None = None


_REQUEST_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("type", "id", "protocol"),
    "choose": ("type", "id", "view"),
    "out_of_turn": ("type", "id", "view"),
    "quit": ("type", "id"),
}


def request_id(data: Mapping[str, Any]) -> int | None:
    """The request's id if it is a whole number (what an error answer echoes), else None."""
    value = data.get("id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_request(data: Mapping[str, Any]) -> Request:
    """Check a request object (as :func:`loads_message` gives it); :class:`ProtocolError` if bad."""
    if "type" not in data:
        _fail("type", f"missing; a request has one of: {', '.join(REQUEST_TYPES)}")
    kind = data["type"]
    if not isinstance(kind, str) or kind not in _REQUEST_FIELDS:
        _fail(
            "type",
            f"{show_value(kind)} is not a request type; types are: {', '.join(REQUEST_TYPES)}",
        )
    fields = _REQUEST_FIELDS[kind]
    for key in data:
        if key not in fields:
            _fail(key, f"unknown field; a {kind} request holds {', '.join(fields)}")
    if kind == "quit" and data.get("id") is None:
        return Request("quit", None)
    if "id" not in data:
        _fail("id", "missing")
    number = _int(data["id"], "id", "a whole number")
    if kind == "quit":
        return Request("quit", number)
    if kind == "hello":
        if "protocol" not in data:
            _fail("protocol", "missing")
        return Request(
            "hello", number, protocol=_int(data["protocol"], "protocol", "a version number")
        )
    if "view" not in data:
        _fail("view", "missing")
    return Request(kind, number, view=view_from_json(data["view"]))


def hello_request(number: int) -> dict[str, Any]:
    return {"type": "hello", "id": number, "protocol": PROTOCOL_VERSION}


def view_request(kind: str, number: int, view: PlayerView) -> dict[str, Any]:
    """A ``choose`` or ``out_of_turn`` request for ``view``."""
    return {"type": kind, "id": number, "view": view_to_json(view)}


def quit_request(number: int) -> dict[str, Any]:
    return {"type": "quit", "id": number}


def error_answer(number: int | None, why: str) -> dict[str, Any]:
    return {"id": number, "error": why}
