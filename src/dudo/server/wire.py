"""The JSON forms the server sends (views, events, tables) and the checks on what clients send.

Everything a connection receives about a game is built here from the engine's
:class:`~dudo.engine.view.PlayerView` for that connection's seat, or from public events, so
hidden dice cannot reach anyone the engine would not show them to.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from dudo.engine.actions import Action, Bid, RevealBid
from dudo.engine.counting import counting_dice
from dudo.engine.events import Event, Revealed
from dudo.engine.jsonable import compact_json, event_fields, plain, public_fields, viewer_fields
from dudo.engine.rules import Rules
from dudo.engine.view import PlayerView, PublicPart, ViewerPart
from dudo.server.errors import ErrorCode, Refused

#: The largest client frame accepted, in bytes (a bid, a call or a hello is far smaller).
MAX_FRAME = 4096

PROTOCOL_VERSION = 1


class BadMessage(Refused, ValueError):
    """A client frame that is not a valid protocol message. ``code`` is the error code sent back."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(code, message, 400)


def event_json(seq: int, event: Event, rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {"seq": seq, **event_fields(event)}
    if type(event) is Revealed:
        # Which dice counted for the bid: the engine's counting, so clients need not know it.
        out["counted"] = (
            None
            if event.bid is None
            else plain(
                counting_dice(
                    event.hands, event.bid.face, event.wild_aces, rules.wild_needs_natural
                )
            )
        )
    return out


def view_json(view: PlayerView, names: list[str], seats: list[int], turn: int) -> dict[str, Any]:
    """The engine's view fields (:func:`~dudo.engine.jsonable.view_fields`) as the wire names
    them (``round``, ``legal``, round actions as pairs), with the table's names and seats, the
    legal actions split for the client, and the turn count. docs/protocol.md, "The view"."""
    out = _public_json(view, names, seats, turn)
    out.update(viewer_fields(view))
    _add_legal(out, view.legal_actions)
    return out


def _public_json(
    part: PlayerView | PublicPart, names: list[str], seats: list[int], turn: int
) -> dict[str, Any]:
    """The fields of :func:`view_json` that are the same for every viewer of one moment."""
    out = public_fields(part)
    out["round"] = out.pop("round_number")
    out.update(
        names=names,
        seats=seats,
        round_actions=[[p, _notation(a)] for p, a in part.round_actions],
        turn=turn,
        faces=part.rules.faces,
    )
    return out


#: An action's notation (its ``str``), remembered: the round's actions so far go out with
#: every move of the round.
_notation = functools.lru_cache(maxsize=4096)(str)


def shared_part(public: PublicPart, names: list[str], seats: list[int], turn: int) -> str:
    """The fields of :func:`view_json` that are the same for every viewer of this moment (all
    but :data:`VIEWER_FIELDS`), encoded, from the engine's
    :meth:`~dudo.engine.game.Game.public_part`."""
    return dumps(_public_json(public, names, seats, turn))


def update_frame(head: str, shared: str, part: PlayerView | ViewerPart) -> str:
    """An update frame: ``head`` (its fields but the view, encoded) with a viewer's view as
    JSON, made of the view's shared part (:func:`shared_part`, encoded once for every viewer)
    and the fields that depend on who is looking (:data:`VIEWER_FIELDS`), from the viewer's
    :class:`ViewerPart` (or whole view): their dice and their legal actions, each encoded
    once for each value met (:func:`_own_part`, :func:`_legal_part`). The encoded objects are
    joined as text: their names never overlap."""
    own = _own_part(part.viewer, part.my_dice, part.seen_dice)
    return f'{head[:-1]},"view":{shared[:-1]},{own},{_legal_part(part.legal_actions)}}}}}'


@functools.lru_cache(maxsize=8192)
def _own_part(
    viewer: int | None,
    my_dice: tuple[int, ...] | None,
    seen_dice: tuple[tuple[int, ...] | None, ...],
) -> str:
    """``"viewer":…,"my_dice":…,"seen_dice":…``: a viewer's own fields, encoded, without the
    braces of an object. They change once a round, and a round has many moves."""
    return dumps(viewer_fields(ViewerPart(viewer, my_dice, seen_dice, ())))[1:-1]


#: The encoded legal actions of the sets met lately, by the identity of their tuple (which
#: each entry holds, so that no other tuple can take its id meanwhile): the mover's legal
#: actions are most often a tuple the engine's bid table shares, and hashing its hundred
#: bids to look it up by value costs more than encoding them did.
_LEGAL_PARTS: dict[int, tuple[tuple[Action, ...], str]] = {}


def _legal_part(legal: tuple[Action, ...]) -> str:
    """``"legal":[...],"legal_bids":[...],"legal_reveals":[...]``: a view's legal actions
    as :func:`view_json` names them, encoded, without the braces of an object."""
    entry = _LEGAL_PARTS.get(id(legal))
    if entry is not None and entry[0] is legal:
        return entry[1]
    text = _legal_text(legal)
    if len(_LEGAL_PARTS) >= 4096:
        _LEGAL_PARTS.clear()
    _LEGAL_PARTS[id(legal)] = (legal, text)
    return text


@functools.lru_cache(maxsize=4096)
def _legal_text(legal: tuple[Action, ...]) -> str:
    """:func:`_legal_part` for a set of legal actions not met by identity: a game meets the
    same few hundred sets again and again (the raises over each standing bid)."""
    out: dict[str, Any] = {}
    _add_legal(out, legal)
    return dumps(out)[1:-1]


def _add_legal(out: dict[str, Any], legal: tuple[Action, ...]) -> None:
    """The three wire lists of a set of legal actions."""
    out["legal"] = [str(a) for a in legal]
    out["legal_bids"] = [[a.quantity, a.face] for a in legal if type(a) is Bid]
    out["legal_reveals"] = [str(a) for a in legal if type(a) is RevealBid]


#: The fields of :func:`view_json` that may differ from one viewer to another at one moment
#: (:func:`~dudo.engine.jsonable.viewer_fields` and the legal actions): everything else is
#: the same for every player and spectator.
VIEWER_FIELDS = frozenset(
    {"viewer", "my_dice", "seen_dice", "legal", "legal_bids", "legal_reveals"}
)


def dumps(message: Mapping[str, Any]) -> str:
    """``message`` as compact JSON text that can always be sent as UTF-8.

    Every frame a server sends goes through here, four or more per action: orjson encodes
    it about ten times faster than the standard library. It refuses what it cannot encode
    exactly as JSON (a lone surrogate in a name, a number out of range), which then takes
    the standard library's path (:func:`~dudo.engine.jsonable.compact_json`)."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):
        return compact_json(message)


# ------------------------------------------------------------------------- client frames

#: The largest whole number a client may send: the largest a JavaScript number holds exactly.
MAX_INT = 2**53 - 1
#: How deeply a client frame may nest arrays and objects (a valid frame is one flat object).
MAX_DEPTH = 8


@dataclass(frozen=True)
class _Field:
    """A field of a client frame: the JSON types it may have and, for ints and strings, their
    bounds."""

    types: tuple[type, ...]
    low: int = 0
    high: int = MAX_INT
    longest: int = 0  # for strings; 0: no limit beyond the frame's

    def want(self) -> str:
        names = []
        for t in self.types:
            if t is int:
                names.append(f"an int from {self.low} to {self.high}")
            else:
                names.append("null" if t is type(None) else "text")
        return " or ".join(names)


_NULL = type(None)
_FRAME_FIELDS: dict[str, dict[str, _Field]] = {
    "hello": {
        "token": _Field((str, _NULL), longest=128),
        "since": _Field((int,), low=-1),
        "game": _Field((int, _NULL)),
    },
    "act": {
        "action": _Field((str,), longest=64),
        "turn": _Field((int,)),
        "player": _Field((int, _NULL), high=7),
    },
    # A real table's: a cup rolled; a call tapped after bids said aloud (docs/protocol.md).
    "shake": {"player": _Field((int, _NULL), high=7)},
    "call": {
        "call": _Field((str,), longest=20),
        "bid": _Field((str,), longest=64),
        "bidder": _Field((int,), high=7),
        "turn": _Field((int,)),
    },
    "explain": {"action": _Field((str,), longest=64)},
    "take_back": {},
    "ping": {},
    "hints": {},
    "odds": {"action": _Field((str,), longest=64)},
    "suggest": {},
    "review": {},
    "seed": {"seed": _Field((str,), longest=64)},
    # The text's length after normalizing is checked by the chat (dudo.server.chat).
    "chat": {"text": _Field((str,), longest=1000), "phrase": _Field((str,), longest=32)},
}
_REQUIRED: dict[str, frozenset[str]] = {
    "hello": frozenset(),
    "act": frozenset({"action"}),
    "shake": frozenset(),
    "call": frozenset({"call", "bid", "bidder"}),
    "explain": frozenset({"action"}),
    "take_back": frozenset(),
    "ping": frozenset(),
    "hints": frozenset(),
    "odds": frozenset({"action"}),
    "suggest": frozenset(),
    "review": frozenset(),
    "seed": frozenset({"seed"}),
    "chat": frozenset(),
}


class _Literal:
    """A JSON number no field accepts, kept as written: a fraction, an exponent, NaN or
    Infinity (Python's JSON reader takes those), or an int too long to be worth converting."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _int(text: str) -> int | _Literal:
    # Longer than any int a field allows: not converted (converting is quadratic in length).
    return int(text) if len(text) <= 20 else _Literal(text)


_DECODER = json.JSONDecoder(parse_float=_Literal, parse_int=_int, parse_constant=_Literal)
# A JSON string, or an unterminated one up to the end of the text.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\Z)', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def _too_deep(text: str) -> bool:
    """Whether ``text`` nests arrays and objects more than MAX_DEPTH deep, found without parsing:
    the JSON reader recurses once per level and would hit Python's recursion limit."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False  # every frame that is not an attack ends here
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


def _shown(value: Any) -> str:
    """A client's value for an error message: short, and always ASCII."""
    text = value.text if isinstance(value, _Literal) else json.dumps(value, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


def _described(value: Any) -> str:
    """What a client sent, in JSON's words (never a Python type's name): ``the number 1.5``."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float | _Literal):
        return f"the number {_shown(value)}"
    if isinstance(value, str):
        return f"the text {_shown(value)}"
    return "a list" if isinstance(value, list) else "an object"


def _unencodable(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def parse_frame(text: str | bytes) -> dict[str, Any]:
    """Check one client frame and return it as a dict, or raise :class:`BadMessage`."""
    if len(text) > MAX_FRAME:
        raise BadMessage(
            ErrorCode.TOO_LARGE, f"frame of {len(text)} bytes; the limit is {MAX_FRAME}"
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage(
                ErrorCode.BAD_MESSAGE, "not JSON: a binary frame must hold JSON text in UTF-8"
            ) from None
    if _too_deep(text):
        raise BadMessage(
            ErrorCode.BAD_MESSAGE,
            f"nested deeper than {MAX_DEPTH} levels: a frame is one flat JSON object",
        )
    try:
        data = _DECODER.decode(text)
    except ValueError:
        raise BadMessage(
            ErrorCode.BAD_MESSAGE, 'not JSON: send a JSON object such as {"type": "ping"}'
        ) from None
    if not isinstance(data, dict):
        raise BadMessage(
            ErrorCode.BAD_MESSAGE,
            f'expected a JSON object such as {{"type": "ping"}}, got {_described(data)}',
        )
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FRAME_FIELDS:
        known = ", ".join(_FRAME_FIELDS)
        raise BadMessage(
            ErrorCode.BAD_MESSAGE, f"unknown frame type {_shown(kind)}; types are: {known}"
        )
    fields = _FRAME_FIELDS[kind]
    for name, value in data.items():
        if name == "type":
            continue
        field = fields.get(name)
        if field is None:
            raise BadMessage(ErrorCode.BAD_MESSAGE, f"{kind}: unknown field {name!r}")
        _check(f"{kind}.{name}", field, value)
    for name in _REQUIRED[kind]:
        if name not in data:
            raise BadMessage(ErrorCode.BAD_MESSAGE, f"{kind}: missing field {name!r}")
    return data


def _check(where: str, field: _Field, value: Any) -> None:
    """Refuse ``value`` unless it is one of ``field``'s types, within its bounds."""
    if isinstance(value, bool) or not isinstance(value, field.types):
        raise BadMessage(
            ErrorCode.BAD_MESSAGE, f"{where}: expected {field.want()}, got {_shown(value)}"
        )
    if isinstance(value, int) and not field.low <= value <= field.high:
        raise BadMessage(ErrorCode.BAD_MESSAGE, f"{where}: expected {field.want()}, got {value}")
    if isinstance(value, str):
        if field.longest and len(value) > field.longest:
            raise BadMessage(
                ErrorCode.BAD_MESSAGE, f"{where}: longer than {field.longest} characters"
            )
        if _unencodable(value):
            # Such a string cannot be sent back, stored or hashed as UTF-8.
            raise BadMessage(
                ErrorCode.BAD_MESSAGE,
                f"{where}: holds a lone UTF-16 surrogate (an escape such as \\ud800 without its "
                "pair), which is not Unicode text: send the character itself or its full pair",
            )
