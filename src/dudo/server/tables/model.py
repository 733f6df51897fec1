"""The words every part of a table shares: its limits, statuses and refusals, a seat and the
settings, and how the table meets a player and a connection. No state lives here."""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

from dudo.engine.errors import Reason
from dudo.server.errors import ErrorCode, Refused
from dudo.server.errors import ErrorCode as E
from dudo.server.storage import StoredSeat

#: Letters of invite codes: no 0/O, 1/I/L, so a code read aloud or off a screen is not misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MIN_SEATS, MAX_SEATS = 2, 8
MAX_NAME = 24
#: The level of the bot that stands in for a disconnected or kicked player, and that picks
#: the automatic move when a turn timer runs out (a sensible move, never a random one).
STAND_IN_LEVEL = "easy"
#: Seconds between tries of an automatic move or a record the store did not take: doubling
#: from the first to the last, then the last again until the store answers.
RETRY_FIRST, RETRY_LAST = 0.5, 5.0

#: A timer of the table: the event loop's handle, to cancel it.
Timer = asyncio.TimerHandle


class SeatKind(StrEnum):
    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    #: The table's game could not be resumed when the server started (see ``Table.problem``).
    BROKEN = "broken"


class StoreState(StrEnum):
    OK = "ok"
    #: An automatic move or a finished game's record waits for the store, and is being retried.
    RETRYING = "retrying"


class AutoWhy(StrEnum):
    """Why a human's seat was played automatically (the update frame's ``auto.why``)."""

    TIMER = "timer"  # the player's turn timer ran out
    STAND_IN = "stand_in"  # a bot plays the seat of a player who is away or was kicked


class TableError(Refused):
    """A request the table refuses. ``status`` is the HTTP status that fits it."""

    def __init__(
        self, status: int, message: str, code: ErrorCode = E.REFUSED, /, **params: int | str
    ) -> None:
        super().__init__(code, message, status, **params)


class ActionRefused(Refused):
    """An intent the table refuses; ``code`` goes to the client in the error frame."""

    def __init__(
        self, code: ErrorCode, message: str, reason: Reason | None = None, /, **params: int | str
    ) -> None:
        super().__init__(code, message, 409, reason, **params)


def seat_token_needed() -> TableError:
    """The refusal of a request that needs a seat's token and has none that works."""
    return TableError(
        401,
        "a valid seat token is needed (Authorization: Bearer <token>)",
        E.SEAT_TOKEN_NEEDED,
    )


class PlayerKey(Protocol):
    """A player as a table meets them: their id, and the seat tokens their key gives."""

    id: str

    def seat_token(self, code: str, seat: int) -> str: ...


class Outbox(Protocol):
    """One connection as the table sees it: somewhere to put frames, and who is behind it."""

    seat: int | None
    since: int  # the last event seq this connection has of ``game_id``
    game_id: int | None

    def send(self, text: str) -> None: ...

    def end(self, code: int) -> None:
        """Send what is queued, then close with ``code`` (1012: come back, to any process)."""


@dataclass
class Settings:
    seats: int = 4
    turn_seconds: int = 0  # 0: no turn timer
    grace_seconds: int | None = 30  # None: no stand-in bot, the seat waits (the timer still runs)
    bot_seconds: float = 1.0  # how long a bot waits before acting, so people can follow
    #: After a round's reveal, how long before the next round's automatic moves and turn
    #: timer start, so everyone can see the dice before the clock runs.
    reveal_seconds: int = 3
    #: Hints for learners (odds, the hard bot's move, the after-game review), fixed at creation.
    hints: bool = False
    #: Seconds of the lobby's countdown (0: none): when it runs out before the first game with
    #: a person seated, bots of ``fill_level`` take the open seats and the game starts.
    fill_seconds: int = 0
    fill_level: str = STAND_IN_LEVEL
    #: The game's result changes its players' ratings (a public table without hints, playing
    #: its preset's rules, whose people are players), fixed at creation.
    rated: bool = False
    #: A real table: the friends sit together, each phone is a cup, bids may be said aloud
    #: (the game's setup is ``spoken``); no bots, no timers; fixed at creation.
    real: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Seat:
    """One seat and who sits there. Its changes are written first (as the :class:`StoredSeat`
    that :meth:`as_human`, :meth:`as_bot`, :meth:`as_open` or :meth:`as_stand_in` make), and
    taken in memory (:meth:`take`) once the store has them."""

    seat: int
    kind: SeatKind = SeatKind.OPEN
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    autoplay: bool = False
    #: Said ready for the rematch, after a game (a bot is always ready).
    ready: bool = False
    #: The running score at this table: games won and played from this seat.
    wins: int = 0
    played: int = 0
    #: The player who sat down here with a player key (None: a seat token alone, or a bot).
    player_id: str | None = None

    def stored(self, **changes: Any) -> StoredSeat:
        current = StoredSeat(
            self.seat,
            str(self.kind),
            self.name,
            self.level,
            self.token_hash,
            self.autoplay,
            self.ready,
            self.wins,
            self.played,
            self.player_id,
        )
        return replace(current, **changes)

    def as_human(self, name: str, digest: str, player_id: str | None = None) -> StoredSeat:
        return StoredSeat(self.seat, SeatKind.HUMAN, name, None, digest, False, player_id=player_id)

    def as_bot(self, level: str, name: str) -> StoredSeat:
        return StoredSeat(self.seat, SeatKind.BOT, name, level, None, False)

    def as_open(self) -> StoredSeat:
        return StoredSeat(self.seat, SeatKind.OPEN, None, None, None, False)

    def as_stand_in(self) -> StoredSeat:
        """A kicked player's seat in the game: a bot plays it to the end (the seat's score
        goes on with it)."""
        return self.stored(
            kind=SeatKind.BOT,
            name=f"{self.name} (bot)",
            level=STAND_IN_LEVEL,
            token_hash=None,
            autoplay=False,
            ready=False,
        )

    def take(self, stored: StoredSeat) -> None:
        self.kind = SeatKind(stored.kind)
        self.name, self.level = stored.name, stored.level
        self.token_hash, self.autoplay = stored.token_hash, stored.autoplay
        self.ready, self.wins, self.played = stored.ready, stored.wins, stored.played
        self.player_id = stored.player_id


def retry_delay(attempt: int) -> float:
    return min(RETRY_LAST, RETRY_FIRST * 2.0**attempt)
