"""Table chat: who may say what, to whom, and how often.

Each table has two channels. The players' channel (a connection holding a seat) reaches
everyone at the table. The spectators' channel (a connection watching) reaches the spectators,
and the players only while no game is being played: spectators can talk about the hands they
see without telling the players anything during a game. Once the game is over the players get
the whole conversation, spectators' messages included.

A message is a quick phrase or emote (a code from :data:`PHRASES`, worded by each reader's
client in their language) or free text: NFC-normalized, trimmed, at most :data:`MAX_TEXT`
characters, with no control, invisible-format, line-separator, private-use or unassigned
characters (:func:`refused_character`). Each person seated (all their connections together)
may send :data:`RATE_COUNT` messages per :data:`RATE_SECONDS`, and so may the spectators of one
address at one table, all their connections together; the host may turn the chat off. Every
message is stored before anyone sees it, with the game it belongs to, the number of actions
played (the replay shows it at its moment, to the game's players only:
:meth:`~dudo.server.storage.Store.sat_in_game`) and its speaker; a connection saying hello
gets the latest ones.

A seated speaker is known by ``who``, an opaque identity at this table that stays the same
when they change seats (a player's is made from their key's hash, a guest's from their seat
token's): readers mute the person, not the seat.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
import unicodedata
from collections import deque
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from dudo.server.errors import ErrorCode, Refused
from dudo.server.frames import chat_frame, chat_history_frame
from dudo.server.storage import CHAT_RECENT, ChatMessage, StoreUnavailable

if TYPE_CHECKING:
    from dudo.server.tables import Seat, Table

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
#: Each person seated (or the spectators of one address at one table) may send this many
#: messages per RATE_SECONDS.
RATE_COUNT = 5
RATE_SECONDS = 10.0
#: Categories of characters refused besides the controls (Cc): format characters (Cf: the
#: right-to-left override U+202E that shows a text reversed, zero-width spaces, the tags
#: U+E0000-E007F that carry hidden text), line and paragraph separators (Zl, Zp: line breaks
#: by another name), private use (Co), lone surrogates (Cs) and unassigned code points (Cn).
REFUSED_CATEGORIES = frozenset({"Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
#: The zero-width joiner that makes one emoji of several (👨‍👩‍👧) is the one format
#: character kept; variation selectors (U+FE0F) are marks (Mn), not refused.
KEPT_FORMAT = frozenset({"\u200d"})


class Channel(StrEnum):
    PLAYERS = "players"
    SPECTATORS = "spectators"


class Listener(Protocol):
    """A connection as chat sees it: its seat (None: watching) and its outgoing queue."""

    seat: int | None

    def send(self, text: str) -> None: ...


class Speaker(Listener, Protocol):
    """A connection that speaks: also the address it is limited under."""

    address: str


def chat_refused(code: ErrorCode, message: str, **params: int | str) -> Refused:
    return Refused(code, message, 400, None, **params)


def refused_character(text: str) -> str | None:
    """The first character of ``text`` a message may not hold besides controls (None: none)."""
    for ch in text:
        if unicodedata.category(ch) in REFUSED_CATEGORIES and ch not in KEPT_FORMAT:
            return ch
    return None


def clean_text(raw: str) -> str:
    """The text as it is kept and shown, or :class:`Refused` saying what is wrong with it."""
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise chat_refused(ErrorCode.CHAT_EMPTY, "the message is empty")
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        # Line breaks and other control characters would let one message pose as several.
        raise chat_refused(ErrorCode.CHAT_CONTROL, "a message may not hold control characters")
    bad = refused_character(text)
    if bad is not None:
        # Invisible or reordering characters would let a message hide text or pose as another.
        point = f"U+{ord(bad):04X}"
        what = unicodedata.name(bad, "an unassigned or private character")
        raise chat_refused(
            ErrorCode.CHAT_CHARACTER,
            f"a message may not hold {point} ({what}): no invisible, separator, private or "
            "unassigned characters",
            char=point,
        )
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

    def __init__(self, off: bool = False, recent: list[ChatMessage] | None = None) -> None:
        self.off = off
        self.recent: deque[ChatMessage] = deque(recent or (), maxlen=CHAT_RECENT)
        self.lock = asyncio.Lock()
        #: The times of the latest messages of each person seated (by ``who``), and of the
        #: spectators of each address (however many connections they open).
        self._people: dict[str, deque[float]] = {}
        self._addresses: dict[str, deque[float]] = {}
        #: Each player's ``who`` here, once derived (player id -> who).
        self.whos: dict[str, str] = {}

    @staticmethod
    def sees(message: ChatMessage, listener: Listener, playing: bool) -> bool:
        """Whether ``listener`` may read ``message``: spectators' messages reach a player only
        while no game is played."""
        return message.channel == Channel.PLAYERS or listener.seat is None or not playing

    def next_seq(self, game: int | None) -> int:
        # The newest messages are kept, so the current game's last number is among them.
        return 1 + max((m.seq for m in self.recent if m.game == game), default=-1)

    def forget(self, player_id: str) -> None:
        """A player deleted their account: their messages leave the table's memory too."""
        self.whos.pop(player_id, None)
        kept = [m for m in self.recent if m.player != player_id]
        if len(kept) != len(self.recent):
            self.recent.clear()
            self.recent.extend(kept)

    def spend(self, who: str | None, address: str, now: float) -> None:
        """Count one message of the person ``who`` (None: a spectator, counted by
        ``address``), or refuse it."""
        windows = self._addresses if who is None else self._people
        if len(windows) > 64:  # forget those who have not spoken for a while
            for key in [k for k, w in windows.items() if not w or w[-1] <= now - RATE_SECONDS]:
                del windows[key]
        window = windows.setdefault(address if who is None else who, deque())
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
        return chat_history_frame(not self.off, messages)


def identity(code: str, secret: str) -> str:
    """A speaker's ``who`` at table ``code``: the same for the same secret, unlinkable across
    tables and to anything public."""
    return hashlib.sha256(f"dudo chat {code} {secret}".encode()).hexdigest()[:16]


async def speaker(table: Table, seat: Seat) -> tuple[str | None, str]:
    """(player id, who) of the person in ``seat``: a player's stays theirs in any seat; a seat
    without a player is known by its token (a guest who sits down again is someone new)."""
    chat = table.chat
    player = seat.player_id
    if player is not None:
        who = chat.whos.get(player)
        if who is not None:
            return player, who
        try:
            secret = await table.hall.db.run(table.hall.store.speaker_secret, player)
        except StoreUnavailable:
            raise Refused(
                ErrorCode.STORE_UNAVAILABLE, "the message was not stored: send it again", 503
            ) from None
        if secret is not None:
            who = chat.whos[player] = identity(table.code, f"player {secret}")
            return player, who
        player = None  # deleted meanwhile: no longer anyone's
    return player, identity(table.code, f"seat {seat.token_hash}")


async def say(table: Table, listener: Speaker, frame: dict[str, Any]) -> None:
    """Check, store and deliver one chat frame; :class:`Refused` if it cannot be said."""
    chat = table.chat
    text, phrase = content(frame)
    if table.status == "broken":  # closed for good: nothing more is kept of it
        raise Refused(ErrorCode.TABLE_BROKEN, "this table could not be resumed and is closed")
    if chat.off:
        raise chat_refused(ErrorCode.CHAT_OFF, "the host has turned the chat off at this table")
    seat = listener.seat
    player, who = (None, None) if seat is None else await speaker(table, table.seats[seat])
    chat.spend(who, listener.address, time.monotonic())
    async with chat.lock:  # numbered, stored and sent in one order
        game = table.game_id
        message = ChatMessage(
            game=game,
            seq=chat.next_seq(game),
            turn=0 if table.game is None else len(table.game.history),
            channel=Channel.SPECTATORS if seat is None else Channel.PLAYERS,
            seat=seat,
            name=None if seat is None else table.seats[seat].name,
            text=text,
            phrase=phrase,
            at=time.time(),
            who=who,
            player=player,
        )
        try:
            await table.hall.db.run(table.hall.store.add_chat, table.code, message)
        except StoreUnavailable:
            raise Refused(
                ErrorCode.STORE_UNAVAILABLE, "the message was not stored: send it again", 503
            ) from None
        chat.recent.append(message)
        table.active = time.monotonic()
        playing = table.playing_now()
        out = chat_frame(message.to_json())
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
