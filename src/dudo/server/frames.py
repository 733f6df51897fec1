"""Every frame the server sends on a WebSocket, in one place: its type, its fields, who
receives it, and the function that builds it as the JSON text sent (encoded once, however
many connections receive it).

:data:`CATALOGUE` is the list: one :class:`Frame` per type, its fields those of its
``TypedDict`` below (in the order they go on the wire) and its receiver one of :class:`To`.
``docs/protocol.md`` ("Server to client") shows the same table with each frame's meaning, and
``tests/server/test_frames_catalogue.py`` keeps the two in step. No other module of the server
builds a frame: a new one is added here, to the catalogue and to ``docs/protocol.md``.

The frames of a table's WebSocket (``/ws/{code}``): ``welcome``, ``table``, ``update``,
``explain``, ``chat``, ``chat_history``, the hints (``hints``, ``odds``, ``suggest``,
``review``), ``pong`` and ``error``; of the lobby's (``/ws/lobby``): ``lobby_full``,
``lobby``, ``pong`` and ``error``. The objects inside them (a table, an event, a view, a chat
message, a lobby card) are built by :mod:`.wire`, :mod:`.tables`, :mod:`.chat`,
:mod:`.learner` and :mod:`.lobby`.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, NotRequired, TypedDict

from dudo.engine.errors import Reason
from dudo.engine.view import PlayerView, ViewerPart
from dudo.server import wire
from dudo.server.errors import Refused, reason_json
from dudo.server.wire import PROTOCOL_VERSION, dumps

#: A JSON object built elsewhere (a table, an event, a view, a chat message, a lobby card).
Json = dict[str, Any]


class To(StrEnum):
    """Who receives a frame (the ``receiver`` column of ``docs/protocol.md``'s table)."""

    HELLO = "the connection that said hello"
    TABLE = "every connection of the table"
    SEAT = "every connection of the table, with its seat's view"
    ASKER = "the connection that asked"
    PLAYER = "the player who asked"
    READERS = "every connection of the table that may read it"
    CHAT_HISTORY = "a connection after welcome; the players when a game ends"
    REFUSED = "the connection whose frame (or connection) was refused"
    LOBBY_NEW = "a lobby watcher, on connecting"
    LOBBY = "every lobby watcher"


# ------------------------------------------------------------------------- a table's frames


class Welcome(TypedDict):
    type: Literal["welcome"]
    seat: int | None
    player: int | None
    host: bool
    protocol: int


def welcome_frame(seat: int | None, player: int | None, host: bool) -> str:
    """The answer to ``hello``: the connection's seat and engine player (None: watching)."""
    frame: Welcome = {
        "type": "welcome",
        "seat": seat,
        "player": player,
        "host": host,
        "protocol": PROTOCOL_VERSION,
    }
    return dumps(frame)


class TableFrame(TypedDict):
    type: Literal["table"]
    table: Json


def table_frame(table: Json) -> str:
    """The table (as over HTTP: ``Table.to_json``), whenever it changes."""
    frame: TableFrame = {"type": "table", "table": table}
    return dumps(frame)


class Auto(TypedDict):
    """An action played for a person's seat without them (an update's ``auto``)."""

    player: int
    why: str
    action: str


class UpdateHead(TypedDict):
    type: Literal["update"]
    game: int | None
    events: list[Json]
    deadline: int | None
    auto: Auto | None


class Update(UpdateHead):
    view: Json


def update_head(
    game: int | None, events: list[Json], deadline: int | None, auto: Auto | None
) -> str:
    """An update frame's fields but its view, encoded: the same for every connection that
    lacks the same events (:func:`update_frame` adds each one's view)."""
    head: UpdateHead = {
        "type": "update",
        "game": game,
        "events": events,
        "deadline": deadline,
        "auto": auto,
    }
    return dumps(head)


def update_frame(head: str, shared: str, part: PlayerView | ViewerPart) -> str:
    """An update frame: ``head`` (:func:`update_head`) and one viewer's view, joined as text
    from its parts (:func:`.wire.update_frame`), each encoded once per broadcast."""
    return wire.update_frame(head, shared, part)


class Explain(TypedDict):
    type: Literal["explain"]
    action: str
    legal: bool
    problem: str | None
    reason: Json | None


def explain_frame(action: str, problem: Reason | None) -> str:
    """Whether ``action`` (the text as sent) is legal for the asker now, and why not."""
    frame: Explain = {
        "type": "explain",
        "action": action,
        "legal": problem is None,
        "problem": problem,
        "reason": None if problem is None else reason_json(problem),
    }
    return dumps(frame)


class ChatFrame(TypedDict):
    type: Literal["chat"]
    message: Json


def chat_frame(message: Json) -> str:
    """One chat message (:meth:`.chat.Message.to_json`)."""
    frame: ChatFrame = {"type": "chat", "message": message}
    return dumps(frame)


class ChatHistory(TypedDict):
    type: Literal["chat_history"]
    on: bool
    messages: list[Json]


def chat_history_frame(on: bool, messages: list[Json]) -> str:
    """The latest chat messages a connection may read, and whether the chat is on."""
    frame: ChatHistory = {"type": "chat_history", "on": on, "messages": messages}
    return dumps(frame)


# ------------------------------------------------------------------------- hints for learners


class HintOdds(TypedDict):
    """The odds of the asking player's view (:func:`.learner.hints_json`)."""

    standing: str | None
    chance: float | None
    spot_on: float | None
    expected: dict[str, float]
    at_least: dict[str, list[float]]
    known: int
    unknown: int
    wild: bool


class BidOdds(TypedDict):
    """One bid's chances (:func:`.learner.odds_json`)."""

    chance: float | None
    spot_on: float | None


class Reviewed(TypedDict):
    """A player's review (:func:`.learner.review_json`)."""

    level: str
    decisions: int
    riskiest: list[Json]


class Hints(TypedDict):
    type: Literal["hints"]
    game: int | None
    turn: int
    standing: str | None
    chance: float | None
    spot_on: float | None
    expected: dict[str, float]
    at_least: dict[str, list[float]]
    known: int
    unknown: int
    wild: bool


def hints_frame(game: int | None, turn: int, odds: HintOdds) -> str:
    frame: Hints = {"type": "hints", "game": game, "turn": turn, **odds}
    return dumps(frame)


class Odds(TypedDict):
    type: Literal["odds"]
    game: int | None
    turn: int
    action: str
    chance: float | None
    spot_on: float | None


def odds_frame(game: int | None, turn: int, action: str, chances: BidOdds) -> str:
    frame: Odds = {"type": "odds", "game": game, "turn": turn, "action": action, **chances}
    return dumps(frame)


class Suggest(TypedDict):
    type: Literal["suggest"]
    game: int | None
    turn: int
    level: str
    action: str | None


def suggest_frame(game: int | None, turn: int, level: str, action: str | None) -> str:
    frame: Suggest = {
        "type": "suggest",
        "game": game,
        "turn": turn,
        "level": level,
        "action": action,
    }
    return dumps(frame)


class Review(TypedDict):
    type: Literal["review"]
    game: int
    player: int
    level: str
    decisions: int
    riskiest: list[Json]


def review_frame(game: int, player: int, found: Reviewed) -> str:
    frame: Review = {"type": "review", "game": game, "player": player, **found}
    return dumps(frame)


# ------------------------------------------------------------------------- the lobby's frames


class LobbyFull(TypedDict):
    type: Literal["lobby_full"]
    version: int
    tables: list[Json]


def lobby_full_frame(version: int, tables: list[Json]) -> str:
    """The whole list of open public tables (their cards)."""
    frame: LobbyFull = {"type": "lobby_full", "version": version, "tables": tables}
    return dumps(frame)


class Lobby(TypedDict):
    type: Literal["lobby"]
    version: int
    changed: list[Json]
    removed: list[str]


def lobby_frame(version: int, changed: list[Json], removed: list[str]) -> str:
    """The cards added or changed, and the codes that left the list, since ``version - 1``."""
    frame: Lobby = {"type": "lobby", "version": version, "changed": changed, "removed": removed}
    return dumps(frame)


# ------------------------------------------------------------------------- both sockets


class Pong(TypedDict):
    type: Literal["pong"]


_PONG: Pong = {"type": "pong"}
PONG = dumps(_PONG)


def pong_frame() -> str:
    """The answer to ``ping``, the same text every time."""
    return PONG


# ``for`` is a Python keyword, so this TypedDict is written as a call.
Error = TypedDict(
    "Error",
    {
        "type": Literal["error"],
        "message": str,
        "code": str,
        "params": dict[str, int | str],
        "reason": NotRequired[Json],
        "for": NotRequired[str],
    },
)


def error_frame(refused: Refused, refused_frame: str | None = None) -> str:
    """A refusal: the English message, and the code and parameters a client words (and the
    engine's reason, if any); ``refused_frame`` (sent as ``for``) names the type of the frame
    refused, for frames a client tells apart from a refused move (the hints, the chat)."""
    answer = refused.to_json()
    frame: Error = {
        "type": "error",
        "message": str(refused),
        "code": answer["code"],
        "params": answer["params"],
    }
    if "reason" in answer:
        frame["reason"] = answer["reason"]
    if refused_frame is not None:
        frame["for"] = refused_frame
    return dumps(frame)


# ------------------------------------------------------------------------- the catalogue


@dataclass(frozen=True)
class Frame:
    """One frame of the catalogue: its type (``name``), its shape (a ``TypedDict``) and who
    receives it."""

    name: str  # its ``type``
    shape: type
    to: To

    @property
    def fields(self) -> tuple[str, ...]:
        """Its fields but ``type``, in the order they go on the wire."""
        return tuple(name for name in inspect.get_annotations(self.shape) if name != "type")

    @property
    def optional(self) -> frozenset[str]:
        """The fields only some frames of its type carry."""
        return frozenset(getattr(self.shape, "__optional_keys__", frozenset()))


#: Every frame the server sends, in the order ``docs/protocol.md`` lists them.
CATALOGUE: tuple[Frame, ...] = (
    Frame("welcome", Welcome, To.HELLO),
    Frame("table", TableFrame, To.TABLE),
    Frame("update", Update, To.SEAT),
    Frame("explain", Explain, To.ASKER),
    Frame("chat", ChatFrame, To.READERS),
    Frame("chat_history", ChatHistory, To.CHAT_HISTORY),
    Frame("hints", Hints, To.PLAYER),
    Frame("odds", Odds, To.PLAYER),
    Frame("suggest", Suggest, To.PLAYER),
    Frame("review", Review, To.PLAYER),
    Frame("lobby_full", LobbyFull, To.LOBBY_NEW),
    Frame("lobby", Lobby, To.LOBBY),
    Frame("pong", Pong, To.ASKER),
    Frame("error", Error, To.REFUSED),
)
