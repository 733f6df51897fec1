"""Table chat: who may say what, to whom, and how often.

Each table has two channels. The players' channel (a connection holding a seat) reaches
everyone at the table. The spectators' channel (a connection watching) reaches the spectators,
and the players only while no game is being played: spectators can talk about the hands they
see without telling the players anything during a game. Once the game is over the players get
the whole conversation, spectators' messages included.

A message is a quick phrase or emote (a code from :data:`PHRASES`, worded by each reader's
client in their language) or free text: NFC-normalized, trimmed, at most :data:`MAX_TEXT`
characters, with no control characters. Each seat (each spectator connection) may send
:data:`RATE_COUNT` messages per :data:`RATE_SECONDS`; the host may turn the chat off. Every
message is stored before anyone sees it, with the game it belongs to and the number of actions
played, so the replay shows it at its moment; a connection saying hello gets the latest ones.
"""

from __future__ import annotations

import asyncio
import math
import time
import unicodedata
import weakref
from collections import deque
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from dudo.server.errors import ErrorCode, Refused
from dudo.server.storage import CHAT_RECENT, StoreUnavailable
from dudo.server.wire import dumps

if TYPE_CHECKING:
    from dudo.server.tables import Table

#: The quick phrases and emotes a client offers; each reader's client words the code.
PHRASES = (
    "dudo",
    "nice_bluff",
    "good_game",
    "good_luck",
    "well_played",
    "oops",
    "hurry",
    "rematch",
    "laugh",
    "clap",
    "think",
    "wow",
    "cool",
    "sad",
)
#: The most characters of a free-text message (after NFC normalization and trimming).
MAX_TEXT = 200
#: Each seat (or spectator connection) may send this many messages per RATE_SECONDS.
RATE_COUNT = 5
RATE_SECONDS = 10.0


class Channel(StrEnum):
    PLAYERS = "players"
    SPECTATORS = "spectators"


class Listener(Protocol):
    """A connection as chat sees it: its seat (None: watching) and its outgoing queue."""

    seat: int | None

    def send(self, text: str) -> None: ...


@dataclass(frozen=True)
class Message:
    game: int | None  # None: said in the lobby before the table's first game
    seq: int  # numbered from 0 within its game
    turn: int  # actions played in the game when it was said
    channel: str
    seat: int | None  # the speaker's seat (None: a spectator, who is not named)
    name: str | None
    text: str | None
    phrase: str | None
    at: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def chat_refused(code: ErrorCode, message: str, **params: int | str) -> Refused:
    return Refused(code, message, 400, None, **params)


def clean_text(raw: str) -> str:
    """The text as it is kept and shown, or :class:`Refused` saying what is wrong with it."""
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise chat_refused(ErrorCode.CHAT_EMPTY, "the message is empty")
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        # Line breaks and other control characters would let one message pose as several.
        raise chat_refused(ErrorCode.CHAT_CONTROL, "a message may not hold control characters")
    if len(text) > MAX_TEXT:
        raise chat_refused(
            ErrorCode.CHAT_TOO_LONG,
            f"a message has at most {MAX_TEXT} characters; this one has {len(text)}",
            count=MAX_TEXT,
        )
    return text


def content(frame: dict[str, Any]) -> tuple[str | None, str | None]:
    """The ``(text, phrase)`` of a chat frame: exactly one of them, checked."""
    text, phrase = frame.get("text"), frame.get("phrase")
    if (text is None) == (phrase is None):
        raise chat_refused(
            ErrorCode.CHAT_TEXT_OR_PHRASE, "a chat frame holds either text or a phrase"
        )
    if phrase is not None:
        if phrase not in PHRASES:
            raise chat_refused(
                ErrorCode.CHAT_UNKNOWN_PHRASE,
                f"no quick phrase {phrase!r}; they are: {', '.join(PHRASES)}",
                phrase=phrase,
            )
        return None, phrase
    assert isinstance(text, str)  # the wire checked the type
    return clean_text(text), None


class Chat:
    """One table's chat: whether it is on, its latest messages, and who sent what when."""

    def __init__(self, off: bool = False, recent: list[dict[str, Any]] | None = None) -> None:
        self.off = off
        self.recent: deque[Message] = deque(maxlen=CHAT_RECENT)
        for stored in recent or ():
            self.recent.append(Message(**stored))
        self.lock = asyncio.Lock()
        self._seats: dict[int, deque[float]] = {}
        self._watchers: weakref.WeakKeyDictionary[Listener, deque[float]] = (
            weakref.WeakKeyDictionary()
        )

    @staticmethod
    def sees(message: Message, listener: Listener, playing: bool) -> bool:
        """Whether ``listener`` may read ``message``: spectators' messages reach a player only
        while no game is played."""
        return message.channel == Channel.PLAYERS or listener.seat is None or not playing

    def next_seq(self, game: int | None) -> int:
        # The newest messages are kept, so the current game's last number is among them.
        return 1 + max((m.seq for m in self.recent if m.game == game), default=-1)

    def _window(self, listener: Listener) -> deque[float]:
        if listener.seat is not None:
            return self._seats.setdefault(listener.seat, deque())
        window = self._watchers.get(listener)
        if window is None:
            window = self._watchers[listener] = deque()
        return window

    def spend(self, listener: Listener, now: float) -> None:
        """Count one message of ``listener``'s seat (or connection), or refuse it."""
        window = self._window(listener)
        while window and window[0] <= now - RATE_SECONDS:
            window.popleft()
        if len(window) >= RATE_COUNT:
            wait = max(1, math.ceil(window[0] + RATE_SECONDS - now))
            raise chat_refused(
                ErrorCode.CHAT_RATE,
                f"at most {RATE_COUNT} messages every {RATE_SECONDS:g} s: wait {wait} s",
                count=wait,
            )
        window.append(now)

    def history(self, listener: Listener, playing: bool) -> str:
        """The ``chat_history`` frame for ``listener``: the latest messages it may read."""
        messages = [m.to_json() for m in self.recent if self.sees(m, listener, playing)]
        return dumps({"type": "chat_history", "on": not self.off, "messages": messages})


async def say(table: Table, listener: Listener, frame: dict[str, Any]) -> None:
    """Check, store and deliver one chat frame; :class:`Refused` if it cannot be said."""
    chat = table.chat
    text, phrase = content(frame)
    if table.status == "broken":  # closed for good: nothing more is kept of it
        raise Refused(ErrorCode.TABLE_BROKEN, "this table could not be resumed and is closed")
    if chat.off:
        raise chat_refused(ErrorCode.CHAT_OFF, "the host has turned the chat off at this table")
    chat.spend(listener, time.monotonic())
    seat = listener.seat
    async with chat.lock:  # numbered, stored and sent in one order
        game = table.game_id
        message = Message(
            game=game,
            seq=chat.next_seq(game),
            turn=0 if table.game is None else len(table.game.history),
            channel=Channel.SPECTATORS if seat is None else Channel.PLAYERS,
            seat=seat,
            name=None if seat is None else table.seats[seat].name,
            text=text,
            phrase=phrase,
            at=time.time(),
        )
        try:
            await table.hall.db.run(table.hall.store.add_chat, table.code, message.to_json())
        except StoreUnavailable:
            raise Refused(
                ErrorCode.STORE_UNAVAILABLE, "the message was not stored: send it again", 503
            ) from None
        chat.recent.append(message)
        table.active = time.monotonic()
        playing = table.playing_now()
        out = dumps({"type": "chat", "message": message.to_json()})
        for client in list(table.clients):
            if chat.sees(message, client, playing):
                client.send(out)


async def set_on(table: Table, on: bool) -> None:
    """The host turns the table's chat on or off: stored, then everyone is told."""
    async with table.chat.lock:
        await table.hall.answer(table.hall.store.set_chat_off, table.code, not on)
        table.chat.off = not on
    table.broadcast_table()


def game_over(table: Table) -> None:
    """The game just ended: its players may now read what the spectators said."""
    for client in list(table.clients):
        if client.seat is not None:
            client.send(table.chat.history(client, playing=False))
