"""Live tables: seats, the game in play, bots, turn timers, stand-ins, and who hears what.

Everything runs on the server's one event loop, and every change to a table happens under the
table's lock in one order: the engine checks it, the store writes it (in a worker thread, off
the loop), and only then does memory change and anyone hear of it. So a write that fails
changes nothing, a slow database holds up only the tables that are writing, and nobody ever
sees an action that was not stored. An automatic move (a bot's, a timed-out player's, a
stand-in's) whose write fails is tried again with backoff until the store answers; meanwhile
the table tells everyone it is saving and retrying. Each connection receives the engine's view
for its own seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from dudo.bots import BOT_NAMES, Bot, make_bot, out_of_turn_call
from dudo.engine import Game, Setup
from dudo.engine.actions import Action, Call
from dudo.engine.errors import DudoError, Reason, ReasonCode, RulesError
from dudo.engine.events import Revealed
from dudo.engine.fair import SCHEME, SECRET_BYTES, FairSeed, chance_for, valid_client_seed
from dudo.engine.rules import DEFAULT_PRESET, PRESETS, Rules, from_mapping
from dudo.notation import parse_action
from dudo.records import PlayerInfo, record_of
from dudo.server import ratings
from dudo.server.chat import Chat
from dudo.server.chat import game_over as chat_game_over
from dudo.server.cluster import where
from dudo.server.errors import ErrorCode, Refused
from dudo.server.errors import ErrorCode as E
from dudo.server.learner import Learner
from dudo.server.limits import Limits
from dudo.server.logs import table_context
from dudo.server.metrics import Metrics
from dudo.server.names import name_key, name_owned, name_owner
from dudo.server.rated import RATED_FILL_LEVEL, check_rated_bots, rated_kick
from dudo.server.storage import (
    KEEP_HOST,
    LIVE_STATUSES,
    ActionWrite,
    AsyncStore,
    FencedOut,
    Place,
    Store,
    StoredSeat,
    StoredTable,
    StoreUnavailable,
    token_hash,
)
from dudo.server.wire import dumps, event_json, shared_part, update_frame

if TYPE_CHECKING:
    from dudo.server.cluster import Cluster

log = logging.getLogger("dudo.server")

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
#: Seconds nobody may be connected to the host's seat, while another person is, before the
#: host role passes to that person, when the table has no grace period of its own.
HOST_AWAY_SECONDS = 30
#: The answer to a request whose write the store did not take.
STORE_DOWN = (
    "the database is not answering right now, so nothing was changed; try again in a moment"
)

T = TypeVar("T")


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
    grace: asyncio.TimerHandle | None = None

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


def clean_name(name: object) -> str:
    """A display name: 1 to 24 printable characters once spaces are trimmed, in Unicode's
    composed form (so the same name typed on two keyboards is the same text)."""
    if not isinstance(name, str):
        raise TableError(400, "name: give a display name as text", E.NAME_NOT_TEXT)
    text = unicodedata.normalize("NFC", " ".join(name.split()))
    if not text:
        raise TableError(400, "name: a display name is needed", E.NAME_MISSING)
    if len(text) > MAX_NAME:
        raise TableError(
            400,
            f"name: at most {MAX_NAME} characters, not {len(text)}",
            E.NAME_TOO_LONG,
            count=MAX_NAME,
        )
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise TableError(400, "name: control characters are not allowed", E.NAME_CONTROL)
    return text


#: The names bots sit down with (their level is shown beside the name): names that read the
#: same in English, Spanish and Italian, one per seat a bot may take.
BOT_NAMES_POOL = (
    "Alba", "Bruno", "Carmen", "Dario", "Elena", "Fausto", "Gala", "Hugo",
    "Irene", "Julio", "Lucía", "Marco", "Nora", "Paolo", "Rocío", "Sara",
)  # fmt: skip


def bot_name(seats: list[Seat], seat: int) -> str:
    """A name for a bot taking ``seat``: from the pool, starting at the seat's place so a table's
    bots differ, and never one a person or another bot at the table has."""
    taken = {name_key(s.name) for s in seats if s.name}
    for step in range(len(BOT_NAMES_POOL)):
        name = BOT_NAMES_POOL[(seat + step) % len(BOT_NAMES_POOL)]
        if name_key(name) not in taken:
            return name
    return f"Bot {seat + 1}"  # every name of the pool taken: people chose them all


def check_level(level: object) -> str:
    if not isinstance(level, str) or level not in BOT_NAMES:
        raise TableError(
            400,
            f"bot level {level!r} is unknown; levels are: {', '.join(BOT_NAMES)}",
            E.UNKNOWN_LEVEL,
            level=str(level),
        )
    return level


def table_rules(preset: str, options: dict[str, Any]) -> Rules:
    """The rules of a table: a preset plus house rules, checked by the engine."""
    if preset not in PRESETS:
        raise TableError(
            400,
            f"preset {preset!r} is unknown; presets are: {', '.join(PRESETS)}",
            E.UNKNOWN_PRESET,
            preset=preset,
        )
    try:
        return from_mapping(options, base=PRESETS[preset])
    except RulesError as exc:
        if exc.option is not None:  # the refusal names the house rule at fault
            raise TableError(400, f"options: {exc}", E.BAD_OPTION, option=exc.option) from None
        raise TableError(400, f"options: {exc}", E.BAD_OPTIONS) from None
    except DudoError as exc:
        raise TableError(400, f"options: {exc}", E.BAD_OPTIONS) from None


def check_rated(
    preset: str, rules: Rules, settings: Settings, public: bool, player: PlayerKey | None
) -> None:
    """A rated table is public (anyone may take a seat and see the result), has no hints (the
    odds and the bot's advice would play for people), plays its preset's rules as they are
    (ratings compare games of one rule family) and its host is a player (a rating needs one)."""
    if not public:
        raise TableError(
            400, "a rated table is public: anyone can find it in the lobby", E.RATED_NEEDS_PUBLIC
        )
    if settings.hints:
        raise TableError(
            400,
            "a rated table has no hints: the odds and the bot's advice would play for you",
            E.RATED_NO_HINTS,
        )
    if rules.differences(PRESETS[preset]):
        raise TableError(
            400,
            f"a rated table plays {preset} as it is: remove the house rules, or make the table "
            "unrated",
            E.RATED_HOUSE_RULES,
            preset=preset,
        )
    check_rated_seat(player)


def check_rated_seat(player: PlayerKey | None) -> None:
    """A seat at a rated table is a player's: a seat token alone cannot be rated."""
    if player is None:
        raise TableError(
            401,
            "a seat at a rated table belongs to a player: send your player key "
            "(Authorization: Player <key>)",
            E.RATED_NEEDS_PLAYER,
        )


def action_for(game: Game, player: int, text: str) -> Action:
    """The engine action ``player`` means by ``text`` (any notation); a call by a player who is
    not to move is an out-of-turn call."""
    action = parse_action(text, game.rules.faces)
    if isinstance(action, Call) and player != game.to_move:
        return Call(by=player)
    return action


def retry_delay(attempt: int) -> float:
    return min(RETRY_LAST, RETRY_FIRST * 2.0**attempt)


_PLAYER_NUMBER = re.compile(r"\bplayer (\d+)\b")


class Table:
    def __init__(
        self,
        hall: Hall,
        code: str,
        preset: str,
        options: dict[str, Any],
        settings: Settings,
        seats: list[Seat],
        rules: Rules | None = None,
        host: int | None = 0,
    ) -> None:
        self.hall = hall
        self.code = code
        self.preset = preset
        self.options = options
        self.rules = rules if rules is not None else table_rules(preset, options)
        self.settings = settings
        self.seats = seats
        #: The seat whose token may give the host's commands (None: no person is seated; the
        #: next one to join becomes host).
        self.host = host
        #: Since when (time.monotonic()) nobody has been connected to the host's seat (None:
        #: someone is, or nobody has been since the table was made or loaded).
        self.host_away_since: float | None = None
        self._host_away: asyncio.TimerHandle | None = None
        self.status = TableStatus.LOBBY
        #: Why a broken table could not be resumed (for the log and the curious).
        self.problem_text: str | None = None
        self.store_state = StoreState.OK
        self.game: Game | None = None
        self.game_id: int | None = None
        self.game_number = 0
        #: What decides the current game's dice: its fair secret and client seeds (a game from
        #: before provably fair dice: an int seed). A review plays it again to see each view.
        self.seed: int | FairSeed | None = None
        #: The secret of the next game's dice: its commitment is shown before any client seed
        #: is taken, and it is revealed only once that game is over.
        self.next_secret: bytes | None = None
        #: The client seeds sent for the next game: seat -> (the seat's token hash, seed), so
        #: a seed counts only for the person who sent it.
        self.client_seeds: dict[int, tuple[str, str]] = {}
        self.learner = Learner()
        self.players: list[int] = []  # the seat of each engine player
        self.humans: set[int] = set()  # the engine players who were people when the game began
        self.bots: dict[int, Bot] = {}  # engine player -> the bot that plays it
        #: Engine players who sat down as people and had a bot play for them at some point of
        #: this game (a stand-in after the grace period, or after a kick): the record says so.
        self.stood_in: set[int] = set()
        #: Engine players whose seat a bot took while they still had dice, and who have not
        #: taken it back: they left the game, and finish below everyone who played on.
        self.left_early: set[int] = set()
        #: Engine players whose person made at least one move of this game themselves (not a
        #: stand-in's, not the turn timer's): only they are rated (README.md, "Ratings").
        self.acted: set[int] = set()
        #: The last game's rating changes, once stored: (before, after) by engine player.
        self.rating_changes: dict[int, tuple[float, float]] = {}
        #: Every live connection, and those of each seat: presence is these, nothing else.
        self.clients: set[Outbox] = set()
        self.seat_clients: dict[int, set[Outbox]] = {}
        self.spectators = 0
        #: Grows with every change of the table anyone is told of, across restarts too (it
        #: starts from the clock), so a client can drop a snapshot older than the one it has.
        self.version = int(time.time() * 1000)
        self.deadline: float | None = None
        #: Until when (time.time()) the last round's reveal is being shown: no automatic move
        #: and no turn timer starts before.
        self.reveal_until = 0.0
        #: When the table last had a change or a connection (time.monotonic()).
        self.active = time.monotonic()
        self.lock = asyncio.Lock()
        self.saving_record = False
        self._timer: asyncio.TimerHandle | None = None
        self._bot_turn: asyncio.TimerHandle | None = None
        self._table_news: asyncio.TimerHandle | None = None
        #: Listed in the lobby (a public table) or reached by its link only.
        self.public = False
        #: When (time.time()) the lobby's countdown fills the open seats with bots and starts
        #: the game (None: no countdown runs).
        self.fill_at: float | None = None
        self._fill: asyncio.TimerHandle | None = None
        self.chat = Chat()

    # ------------------------------------------------------------------ identities

    def seat_for_token(self, token: str | None) -> Seat | None:
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def require_host(self, token: str | None) -> Seat:
        seat = self.seat_for_token(token)
        if seat is None:
            raise TableError(
                401,
                "a valid seat token is needed (Authorization: Bearer <token>)",
                E.SEAT_TOKEN_NEEDED,
            )
        if seat.seat != self.host:
            raise TableError(403, "only the table's host can do that", E.HOST_ONLY)
        return seat

    def require_seat(self, token: str | None) -> Seat:
        """The human seat whose token this is."""
        seat = self.seat_for_token(token)
        if seat is None or seat.kind is not SeatKind.HUMAN:
            raise TableError(
                401,
                "a valid seat token is needed (Authorization: Bearer <token>)",
                E.SEAT_TOKEN_NEEDED,
            )
        return seat

    def is_ready(self, seat: Seat) -> bool:
        """Ready for the next game: a bot always is, a person once they said so."""
        return seat.kind is SeatKind.BOT or (seat.kind is SeatKind.HUMAN and seat.ready)

    def player_of(self, seat: Seat | None) -> int | None:
        if seat is None or self.game is None:
            return None
        return self.players.index(seat.seat) if seat.seat in self.players else None

    def playing_now(self) -> bool:
        """A game is being played (spectators' chat does not reach the players)."""
        return self.status is TableStatus.PLAYING

    def present(self, seat: Seat) -> bool:
        """Someone is connected to this seat right now."""
        return bool(self.seat_clients.get(seat.seat))

    # ---------------------------------------------------------------------- the lobby

    def to_json(self) -> dict[str, Any]:
        base = PRESETS.get(self.preset, PRESETS[DEFAULT_PRESET])
        return {
            "code": self.code,
            "version": self.version,
            "status": str(self.status),
            "problem": self.problem_text,
            # The client words a broken table by this code, not by the English log line.
            "problem_code": None if self.problem_text is None else str(E.CANNOT_RESUME),
            "store": str(self.store_state),
            "game": self.game_id,
            "game_number": self.game_number,
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "house_rules": {name: mine for name, (mine, _) in self.rules.differences(base).items()},
            **self.settings.to_dict(),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": str(s.kind),
                    "level": s.level,
                    "host": s.seat == self.host,
                    "connected": self.present(s),
                    "autoplay": s.autoplay,
                    "player": self.player_of(s),
                    "ready": self.is_ready(s),
                    "wins": s.wins,
                    "played": s.played,
                }
                for s in self.seats
            ],
            "host": self.host,
            "spectators": self.spectators,
            "public": self.public,
            "fill_deadline": None if self.fill_at is None else int(self.fill_at * 1000),
            "fair": self.fair_json(),
            "chat": not self.chat.off,
            "rating_changes": self.rating_changes_json(),
        }

    def rating_changes_json(self) -> dict[str, Any] | None:
        """After a rated game: its rule family, and each rated seat's displayed rating before
        and after it (None before the result is stored, and at an unrated table)."""
        if self.status is not TableStatus.OVER or not self.rating_changes:
            return None
        seats = [
            {"seat": self.players[p], "before": round(before, 2), "after": round(after, 2)}
            for p, (before, after) in sorted(self.rating_changes.items())
            if p < len(self.players)
        ]
        return {"family": ratings.family(self.preset), "seats": seats}

    def fair_json(self) -> dict[str, Any]:
        """The fair-dice data everyone may see: the next game's commitment and who has sent a
        client seed for it; the current (or last) game's commitment and locked seeds, and its
        secret once that game is over, never before."""
        upcoming = None
        if self.next_secret is not None and self.status in (TableStatus.LOBBY, TableStatus.OVER):
            upcoming = {
                "commitment": FairSeed(self.next_secret, ()).commitment,
                "seeded": sorted(s for s in self.client_seeds if self._seed_counts(s)),
            }
        current = None
        if isinstance(self.seed, FairSeed):
            over = self.status is TableStatus.OVER
            current = {"game": self.game_id, **self.seed.to_json(reveal=over)}
        return {"scheme": SCHEME, "next": upcoming, "game": current}

    def _seed_counts(self, seat: int) -> bool:
        """The seed sent from ``seat`` is its present person's."""
        sent = self.client_seeds.get(seat)
        person = self.seats[seat]
        return sent is not None and person.kind is SeatKind.HUMAN and sent[0] == person.token_hash

    async def set_client_seed(self, seat: Seat | None, seed: object) -> None:
        """A seated person's client seed for the next game: taken (or changed) until it
        starts, then locked."""
        async with self.lock:
            if self.status is TableStatus.BROKEN:
                raise ActionRefused(E.TABLE_BROKEN, "this table's game could not be resumed")
            if seat is None or seat.kind is not SeatKind.HUMAN or seat.token_hash is None:
                raise ActionRefused(
                    E.SEED_NOT_SEATED, "only a person seated at the table sends a client seed"
                )
            if self.status is TableStatus.PLAYING or self.next_secret is None:
                raise ActionRefused(
                    E.SEED_LOCKED,
                    "the game has started: its client seeds are locked; send yours for the "
                    "next game once this one is over",
                )
            if not valid_client_seed(seed):
                raise ActionRefused(
                    E.SEED_INVALID, "seed: give 16 to 64 lower-case hex digits (0-9, a-f)"
                )
            assert isinstance(seed, str)
            self.client_seeds[seat.seat] = (seat.token_hash, seed)
            self._changed()
            self.broadcast_table()

    def _draw_secret(self) -> bytes:
        return self.hall.dice.getrandbits(SECRET_BYTES * 8).to_bytes(SECRET_BYTES, "big")

    async def _keep_next_secret(self, secret: bytes, attempt: int) -> None:
        """Store the next game's secret, trying again until the store takes it (unless a game
        has used it meanwhile, or another replaced it)."""
        while True:
            async with self.lock:
                if self.next_secret != secret:
                    return
                try:
                    await self.hall.db.run(self.hall.store.set_next_secret, self.code, secret)
                    return
                except StoreUnavailable:
                    pass
            await asyncio.sleep(retry_delay(attempt))
            attempt += 1

    def _new_next_secret(self) -> None:
        """Draw the next game's secret (its commitment is shown at once) and store it."""
        self.next_secret = self._draw_secret()
        self.client_seeds.clear()
        self.hall.spawn(self._keep_next_secret(self.next_secret, 0))

    def _refuse_if_broken(self) -> None:
        if self.status is TableStatus.BROKEN:
            raise TableError(
                409,
                "this table's game could not be resumed when the server restarted, so the "
                "table is closed; its finished games are kept. Please start a new table.",
                E.TABLE_BROKEN,
            )

    async def join(self, name: object, player: PlayerKey | None = None) -> tuple[Seat, str]:
        """Sit a person down; with a player, the seat is theirs (a player who has a seat here
        already gets that seat back)."""
        display = clean_name(name)
        async with self.lock:
            self._refuse_if_broken()
            if player is not None:
                mine = self.seat_of_player(player.id)
                if mine is not None:
                    return mine, await self._player_token(mine, player)
            if self.status is TableStatus.PLAYING:
                raise TableError(
                    409,
                    "the game has started: you can watch it, and join the next one",
                    E.GAME_STARTED,
                )
            if self.settings.rated:
                check_rated_seat(player)
            taken = next(
                (s.name for s in self.seats if s.name and name_key(s.name) == name_key(display)),
                None,
            )
            if taken is not None:
                raise TableError(
                    409,
                    f"the name {taken!r} is taken at this table: choose another name",
                    E.NAME_TAKEN,
                    name=taken,
                )
            self._open_seat()  # a full table says so before the name is looked up
            await self.hall.check_name(display, player)
            seat = self._open_seat()
            token = (
                secrets.token_urlsafe(24)
                if player is None
                else player.seat_token(self.code, seat.seat)
            )
            stored = seat.as_human(
                display, token_hash(token), None if player is None else player.id
            )
            # At a table no person was left at, the first to sit down is its host.
            host = seat.seat if self.host is None else KEEP_HOST
            await self.hall.answer(self.hall.store.save_seat, self.code, stored, host)
            seat.take(stored)
            if host != KEEP_HOST:
                self.host = host
            self._changed()
            self.arm_fill()
            self.broadcast_table()
            self._start_when_full()
            return seat, token

    def seat_of_player(self, player_id: str) -> Seat | None:
        """The seat a player holds here as a person."""
        return next(
            (s for s in self.seats if s.kind is SeatKind.HUMAN and s.player_id == player_id),
            None,
        )

    async def claim_seat(self, player: PlayerKey) -> tuple[Seat, str] | None:
        """The seat a player holds here, and its token: any device holding the player's key
        takes the seat's control (the devices that had it keep it). None: no seat here."""
        async with self.lock:
            seat = self.seat_of_player(player.id)
            if seat is None:
                return None
            return seat, await self._player_token(seat, player)

    async def _player_token(self, seat: Seat, player: PlayerKey) -> str:
        token = player.seat_token(self.code, seat.seat)
        digest = token_hash(token)
        if seat.token_hash != digest:  # a seat linked before its token came from the key
            stored = seat.stored(token_hash=digest)
            await self.hall.answer(self.hall.store.save_seat, self.code, stored)
            seat.take(stored)
        return token

    async def add_bot(self, level: object) -> None:
        checked = check_level(level)
        if self.settings.rated:
            check_rated_bots([checked])
        async with self.lock:
            self._refuse_if_broken()
            if self.status is TableStatus.PLAYING:
                raise TableError(
                    409, "bots can be added between games, not during one", E.BOTS_BETWEEN_GAMES
                )
            seat = self._open_seat()
            stored = seat.as_bot(checked, bot_name(self.seats, seat.seat))
            await self.hall.answer(self.hall.store.save_seat, self.code, stored)
            seat.take(stored)
            self._changed()
            self.broadcast_table()
            self._start_when_full()

    def _start_when_full(self) -> None:
        """A table with a countdown starts as soon as it is full: nobody waits for nothing."""
        if self.fill_at is not None and not any(s.kind is SeatKind.OPEN for s in self.seats):
            self.hall.spawn(self._fill_over(0))

    def _open_seat(self) -> Seat:
        seat = next((s for s in self.seats if s.kind is SeatKind.OPEN), None)
        if seat is None:
            raise TableError(
                409,
                "the table is full: ask the host to free a seat, or watch the game",
                E.TABLE_FULL,
            )
        return seat

    async def remove_seat(self, index: int) -> None:
        if not 0 <= index < len(self.seats):
            raise TableError(
                404,
                f"there is no seat {index}: seats are 0 to {len(self.seats) - 1}",
                E.NO_SUCH_SEAT,
                seat=index + 1,
                last=len(self.seats),
            )
        if index == self.host:
            raise TableError(
                400,
                "the host cannot remove their own seat: leave the table to give it up",
                E.HOST_SEAT,
            )
        async with self.lock:
            self._refuse_if_broken()
            seat = self.seats[index]
            if seat.kind is SeatKind.OPEN:
                raise TableError(
                    409,
                    f"seat {index} is already open: nobody to remove",
                    E.SEAT_OPEN,
                    seat=index + 1,
                )
            in_game = self.status is TableStatus.PLAYING and index in self.players
            if in_game and seat.kind is SeatKind.BOT:
                raise TableError(
                    409, "a bot in the game plays on until the game ends", E.BOT_PLAYS_ON
                )
            if in_game and self.settings.rated:
                raise rated_kick()  # a kick would place the person last: theirs to choose
            # A kicked player's seat in a game is played by a bot until the game ends.
            stored = seat.as_stand_in() if in_game else seat.as_open()
            player = self.players.index(index) if in_game else None
            await self._vacate(seat, stored, KEEP_HOST, player)
            self.broadcast_table()
            self.schedule()
            self.broadcast()

    async def _vacate(
        self, seat: Seat, stored: StoredSeat, host: int | None, stand_in: int | None
    ) -> None:
        """A person's seat is given up by a kick or a deleted account: it becomes ``stored``, the
        host role goes to ``host`` (KEEP_HOST: stays), a bot plays on for ``stand_in``."""
        left = None if stand_in is None else self._left(stand_in, True)
        await self.hall.answer(self.hall.store.save_seat, self.code, stored, host, left)
        self._cancel_grace(seat)
        seat.take(stored)
        if host != KEEP_HOST:
            self._take_host(host)
        if stand_in is not None:
            self.bots[stand_in] = self._make_bot(STAND_IN_LEVEL)
            self._stand_in(stand_in)
        for client in self.seat_clients.pop(seat.seat, set()):
            client.seat = None
            self.spectators += 1
        self._changed()

    async def start(self) -> None:
        async with self.lock:
            self._refuse_if_broken()
            if self.status is TableStatus.PLAYING:
                raise TableError(409, "the game is already being played", E.ALREADY_PLAYING)
            if self.status is TableStatus.OVER:
                self._refuse_unready()
            await self._start()

    async def rematch(self) -> None:
        async with self.lock:
            self._refuse_if_broken()
            if self.status is not TableStatus.OVER:
                raise TableError(
                    409, "a rematch can be offered once the game is over", E.REMATCH_AFTER_GAME
                )
            if self.saving_record:
                raise TableError(
                    503,
                    "the last game is still being saved; offer the rematch in a moment",
                    E.RECORD_SAVING,
                )
            self._refuse_unready()
            await self._start()

    def _refuse_unready(self) -> None:
        """After a game, the next starts only once every person seated has said ready."""
        waiting = [
            s.name or f"seat {s.seat + 1}"
            for s in self.seats
            if s.kind is SeatKind.HUMAN and not s.ready
        ]
        if waiting:
            raise TableError(
                409,
                "the rematch starts once everyone at the table is ready; waiting for "
                f"{', '.join(waiting)} (the host may remove a seat that does not answer)",
                E.NOT_ALL_READY,
                names=", ".join(waiting),
                count=len(waiting),
            )

    async def set_ready(self, seat: Seat, ready: object) -> None:
        """A person says they are ready for the rematch (or no longer are)."""
        if not isinstance(ready, bool):
            raise TableError(400, "ready: give true or false", E.INVALID_REQUEST)
        async with self.lock:
            self._refuse_if_broken()
            if self.status is not TableStatus.OVER:
                raise TableError(
                    409,
                    "you can say you are ready for a rematch once the game is over",
                    E.READY_AFTER_GAME,
                )
            if seat.kind is not SeatKind.HUMAN:
                raise TableError(
                    401,
                    "a valid seat token is needed (Authorization: Bearer <token>)",
                    E.SEAT_TOKEN_NEEDED,
                )
            stored = seat.stored(ready=ready)
            await self.hall.answer(self.hall.store.save_seat, self.code, stored)
            seat.take(stored)
            self._changed()
            self.broadcast_table()

    async def leave(self, seat: Seat) -> None:
        """A person gives up their seat (in the lobby, or after a game): it opens, their score
        at the table goes with them, and if they were host the role passes on."""
        async with self.lock:
            self._refuse_if_broken()
            if seat.kind is not SeatKind.HUMAN:
                raise TableError(
                    401,
                    "a valid seat token is needed (Authorization: Bearer <token>)",
                    E.SEAT_TOKEN_NEEDED,
                )
            if self.status is TableStatus.PLAYING:
                raise TableError(
                    409,
                    "you can leave the table before or after a game, not during one: if you go, "
                    "a bot plays for you after the grace period",
                    E.LEAVE_DURING_GAME,
                )
            host = self.host
            if seat.seat == host:
                host = self._next_host(seat.seat, connected_only=False)
            stored = seat.as_open()
            await self.hall.answer(self.hall.store.save_seat, self.code, stored, host)
            seat.take(stored)
            self._take_host(host)
            for client in self.seat_clients.pop(seat.seat, set()):
                client.seat = None  # the connections of who left go on watching
                self.spectators += 1
            self._changed()
            self.arm_fill()
            self.broadcast_table()

    async def drop_player(self, player_id: str) -> None:
        """The player deleted their account: their seat here is given up. Between games it
        opens, as when they leave; in a game being played a bot plays it to the end, as when
        the host removes a seat. The host role passes on, and no token of theirs works."""
        async with self.lock:
            seat = next((s for s in self.seats if s.player_id == player_id), None)
            if seat is None or self.status is TableStatus.BROKEN:
                return  # a broken table runs nothing: the store forgets the seat's token
            in_game = self.status is TableStatus.PLAYING and seat.seat in self.players
            host = self.host
            if seat.seat == host:
                host = self._next_host(seat.seat, connected_only=False)
            stand_in = None
            if in_game:
                # Named as any bot: the deleted player's name is not shown on for them.
                stored = replace(
                    seat.as_stand_in(), name=bot_name(self.seats, seat.seat), player_id=None
                )
                if seat.kind is SeatKind.HUMAN:  # else a stand-in plays it already
                    stand_in = self.players.index(seat.seat)
            else:
                stored = seat.as_open()
            await self._vacate(seat, stored, host, stand_in)
            self.arm_fill()
            self.broadcast_table()
            self.schedule()
            self.broadcast()

    # ------------------------------------------------------------------ the countdown

    def arm_fill(self) -> None:
        """Run the lobby's countdown while it applies (a table with one, before its first
        game, with a person seated), and stop it when it no longer does."""
        applies = (
            self.settings.fill_seconds > 0
            and self.status is TableStatus.LOBBY
            and any(s.kind is SeatKind.HUMAN for s in self.seats)
        )
        if not applies:
            if self._fill is not None:
                self._fill.cancel()
                self._fill = None
            self.fill_at = None
        elif self.fill_at is None:
            self.fill_at = time.time() + self.settings.fill_seconds
            self._fill = self._later(self.settings.fill_seconds, self._fill_over, 0)

    async def _fill_over(self, attempt: int) -> None:
        """The countdown ran out (or the table filled): bots take the open seats and the
        game starts. A write the store did not take is tried again with backoff."""
        async with self.lock:
            if self.fill_at is None or self.status is not TableStatus.LOBBY:
                return
            if self._fill is not None:
                self._fill.cancel()
                self._fill = None
            try:
                for seat in self.seats:
                    if seat.kind is SeatKind.OPEN:
                        stored = seat.as_bot(
                            self.settings.fill_level, bot_name(self.seats, seat.seat)
                        )
                        await self.hall.db.run(self.hall.store.save_seat, self.code, stored)
                        seat.take(stored)
                await self._start()
            except (StoreUnavailable, TableError) as exc:
                if isinstance(exc, TableError) and exc.status != 503:
                    # The rules refuse this game (no store trouble): the host decides now.
                    log.warning(
                        "table %s: the countdown could not start: %s",
                        self.code,
                        exc,
                        extra=table_context(self.code),
                    )
                    self.fill_at = None
                    self.broadcast_table()
                    return
                self._store_retrying()
                self._fill = self._later(retry_delay(attempt), self._fill_over, attempt + 1)
                self.broadcast_table()
                return
            self._store_ok()

    # ------------------------------------------------------------------ the host

    def _next_host(self, after: int, connected_only: bool) -> int | None:
        """Who takes the host role from seat ``after``: the next person in seat order who is
        connected (and not played by a stand-in), else (unless ``connected_only``) the next
        person; None: nobody."""
        count = len(self.seats)
        people = [
            seat
            for seat in (self.seats[(after + step) % count] for step in range(1, count))
            if seat.kind is SeatKind.HUMAN
        ]
        here = [seat for seat in people if self.present(seat) and not seat.autoplay]
        if here:
            return here[0].seat
        if connected_only or not people:
            return None
        return people[0].seat

    def _take_host(self, host: int | None) -> None:
        """The host role is ``host``'s now (stored already)."""
        if host == self.host:
            return
        self.host = host
        self.host_away_since = None
        if self._host_away is not None:
            self._host_away.cancel()
            self._host_away = None
        if host is not None and not self.present(self.seats[host]):
            self._host_left()

    def _host_wait(self) -> float:
        grace = self.settings.grace_seconds
        return HOST_AWAY_SECONDS if grace is None else grace

    def _host_left(self) -> None:
        """Nobody is connected to the host's seat: if that lasts the grace period while
        someone else is here, the role passes on."""
        self.host_away_since = time.monotonic()
        if self._host_away is not None:
            self._host_away.cancel()
        self._host_away = self._later(self._host_wait(), self._host_away_over, 0)

    async def _host_away_over(self, attempt: int) -> None:
        async with self.lock:
            self._host_away = None
            host = self.host
            if host is None or self.present(self.seats[host]) or self.host_away_since is None:
                return
            if self.status is TableStatus.BROKEN:
                return
            heir = self._next_host(host, connected_only=True)
            if heir is None:
                return  # nobody else here: checked again when someone comes
            write = self.hall.db.run(self.hall.store.set_host, self.code, heir)
            if not await self._stored_unasked(write):
                self._host_away = self._later(
                    retry_delay(attempt), self._host_away_over, attempt + 1
                )
                return
            self._take_host(heir)
            self._changed()
            self.broadcast_table()

    async def _start(self) -> None:
        filled = [s for s in self.seats if s.kind is not SeatKind.OPEN]
        need = max(MIN_SEATS, self.rules.min_players)
        if len(filled) < need:
            words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
            raise TableError(
                409,
                f"at least {words[need]} seats must be filled to play under these rules, and "
                f"{words[len(filled)]} {'is' if len(filled) == 1 else 'are'}: "
                "invite a friend or add a bot",
                E.TOO_FEW_SEATS,
                count=need,
                filled=len(filled),
            )
        if self.rules.max_players is not None and len(filled) > self.rules.max_players:
            raise TableError(
                409,
                f"these rules allow at most {self.rules.max_players} players, not "
                f"{len(filled)}: remove a bot or a player",
                E.TOO_MANY_PLAYERS,
                count=self.rules.max_players,
                filled=len(filled),
            )
        # The dice follow from the secret committed to before any client seed was taken, and
        # the seeds of the people seated now (a bot's, or a missing one, is "").
        secret = self.next_secret if self.next_secret is not None else self._draw_secret()
        seeds = tuple(
            self.client_seeds[s.seat][1] if self._seed_counts(s.seat) else "" for s in filled
        )
        fair = FairSeed(secret, seeds)
        try:  # the engine checks the game before anything is stored
            game = Game(self.rules, setup=Setup(len(filled)), chance=fair.chance())
        except DudoError as exc:
            raise TableError(409, f"the game cannot start: {exc}", E.CANNOT_START) from None
        players = [
            {"seat": s.seat, "name": s.name, "kind": str(s.kind), "level": s.level}
            | ({"player_id": s.player_id} if s.player_id else {})
            # The seat token it is played with: its holder may read the game's chat later.
            | ({"token_hash": s.token_hash} if s.token_hash else {})
            for s in filled
        ]
        number = self.game_number + 1
        game_id = await self.hall.answer(
            self.hall.store.start_game,
            self.code,
            number,
            0,  # the old seed column: the fair secret decides these dice
            self.rules.to_dict(),
            players,
            fair,
            ratings.family(self.preset) if self.settings.rated else None,
        )
        self.game_number, self.game_id, self.seed = number, game_id, fair
        self.next_secret = None  # used: the next game gets a new one when this one is over
        self.client_seeds.clear()
        self.players = [s.seat for s in filled]
        self.humans = {p for p, s in enumerate(filled) if s.kind is SeatKind.HUMAN}
        self.stood_in = set()
        self.left_early = set()
        self.acted = set()
        self.rating_changes = {}
        for s in self.seats:
            s.autoplay = s.ready = False
        self._set_game(game)
        self.status = TableStatus.PLAYING
        log.info(
            "table %s: game %s started, %d players",
            self.code,
            game_id,
            len(filled),
            extra=table_context(self.code, game_id, players=len(filled)),
        )
        self.arm_fill()  # the countdown is over once a game starts
        for client in self.clients:
            client.since, client.game_id = -1, self.game_id
        self._changed()
        self.broadcast_table()
        self.schedule()
        self.broadcast()
        self._start_absent_graces()

    def _set_game(self, game: Game) -> None:
        self.game = game
        self.bots = {}
        for p, seat_index in enumerate(self.players):
            seat = self.seats[seat_index]
            if seat.kind is SeatKind.BOT:
                self.bots[p] = self._make_bot(seat.level or STAND_IN_LEVEL)

    def _replay(self, seed: int | FairSeed, actions: list[tuple[int, str]]) -> Game:
        """The game as stored: its dice from the seed and every stored action, each checked."""
        game = Game(self.rules, setup=Setup(len(self.players)), chance=chance_for(seed))
        for index, (player, text) in enumerate(actions):
            action = action_for(game, player, text)
            problem = game.problem(action)
            if problem is not None:
                raise DudoError(f"stored action {index} ({text}) is illegal: {problem}")
            game.push(action)
        return game

    def _make_bot(self, level: str) -> Bot:
        return make_bot(level, random.Random(self.hall.dice.getrandbits(64)))

    # ---------------------------------------------------------------------- play

    def intent(self, seat: Seat | None, text: str) -> tuple[int, Action]:
        """The player ``seat`` is in the game and the engine action ``text`` means for them.
        Raises :class:`ActionRefused` when there is no game, the seat is not in it, or the
        text is not an action."""
        game = self.game
        if game is None or self.status is not TableStatus.PLAYING:
            raise ActionRefused(E.NO_GAME, "no game is being played at this table")
        if seat is not None and seat.kind is not SeatKind.HUMAN:
            seat = None  # kicked while this frame waited: the connection only watches now
        player = self.player_of(seat)
        if player is None:
            raise ActionRefused(
                E.NOT_A_PLAYER, "you are watching: only players in the game can act"
            )
        try:
            return player, action_for(game, player, text)
        except DudoError as exc:
            raise ActionRefused(E.UNKNOWN_ACTION, str(exc), action=text[:40]) from None

    async def act(self, seat: Seat | None, text: str, turn: int | None) -> None:
        """Play ``text`` for ``seat``. Raises :class:`ActionRefused` and changes nothing if
        the action is not this seat's to make now, or the store did not take it."""
        began = time.perf_counter()
        try:
            await self._act(seat, text, turn)
        finally:
            self.hall.metrics.action_seconds.observe(time.perf_counter() - began)

    async def _act(self, seat: Seat | None, text: str, turn: int | None) -> None:
        async with self.lock:
            player, action = self.intent(seat, text)
            game = self.game
            assert game is not None
            if turn is not None and turn != len(game.history):
                raise ActionRefused(
                    E.STALE,
                    f"the game has moved on (you chose at turn {turn}, it is now turn "
                    f"{len(game.history)}): choose again",
                )
            problem = self.problem(player, action)
            if problem is not None:
                code = E.NOT_YOUR_TURN if self._out_of_turn(player, action) else E.ILLEGAL
                raise ActionRefused(code, problem, problem)
            try:
                await self._commit(player, action)
            except FencedOut:
                raise ActionRefused(
                    E.TABLE_MOVING,
                    "this table is moving to another server process, so your move was not "
                    "played: you will be reconnected; choose again there",
                ) from None
            except StoreUnavailable:
                raise ActionRefused(
                    E.STORE_UNAVAILABLE,
                    "your move could not be saved (the database is not answering), so nothing "
                    "changed: play it again in a moment",
                ) from None

    def explain(self, seat: Seat | None, text: str) -> Reason | None:
        """Why ``seat`` may not play ``text`` now (None: it may)."""
        player, action = self.intent(seat, text)
        return self.problem(player, action)

    def _out_of_turn(self, player: int, action: Action) -> bool:
        """Acting while another player is to move (only a call may, under cruzado)."""
        game = self.game
        assert game is not None
        return player != game.to_move and not isinstance(action, Call)

    def problem(self, player: int, action: Action) -> Reason | None:
        """Why ``player`` may not play ``action`` now (None: they may). The engine decides; the
        answer names players by name, in the English and in the ``player`` parameter."""
        game = self.game
        assert game is not None
        if game.is_over:
            return Reason(ReasonCode.GAME_OVER, "the game is over")
        # The mover's action: the engine's check (a set lookup for a bid), not a search of
        # the list of every legal action; anyone else's: that list is one call at most.
        if player == game.to_move and game.problem(action) is None:
            return None
        if player != game.to_move and action in game.legal_actions(player):
            return None
        mover = self.name_of(game.to_move)
        if self._out_of_turn(player, action):
            return Reason(
                ReasonCode.NOT_YOUR_TURN,
                f"it is {mover}'s turn, not yours: wait for your turn",
                player=mover,
            )
        if player != game.to_move and not self.rules.cruzado:
            return Reason(
                ReasonCode.CRUZADO_OFF,
                f"it is {mover}'s turn: under these rules nobody may call out of turn",
                player=mover,
            )
        why = game.problem(action) or Reason(
            ReasonCode.NOT_LEGAL_NOW,
            f"{action} is not one of your legal actions now",
            action=str(action),
        )
        params = dict(why.params)
        who = params.get("player")
        if isinstance(who, int):
            params["player"] = self.name_of(who)
        text = _PLAYER_NUMBER.sub(lambda m: self.name_of(int(m[1])), why)
        return Reason(why.code, text, **params)

    def name_of(self, player: int) -> str:
        if not 0 <= player < len(self.players):
            return f"player {player + 1}"
        return self.seats[self.players[player]].name or f"player {player + 1}"

    async def _commit(self, player: int, action: Action, why: AutoWhy | None = None) -> None:
        """Store, apply and broadcast one legal action (under the table's lock); ``why`` says
        why a human's seat was played automatically. Raises :class:`StoreUnavailable`, having
        changed nothing, if the store does not take it."""
        game = self.game
        assert game is not None and self.game_id is not None
        seq = len(game.history)
        await self.hall.db.add_action(
            ActionWrite(self.code, self.game_id, seq, player, str(action))
        )
        by = str(why) if why is not None else "person" if player in self.humans else "bot"
        if by == "person" and player not in self.acted:
            self._acted(player)  # before the push: this move may end the game
        self.hall.metrics.count_action(by)
        first_new = len(game.events)
        game.push(action)
        self._changed()
        if any(isinstance(e, Revealed) for e in game.events[first_new:]):
            self.reveal_until = time.time() + self.settings.reveal_seconds
        if game.is_over:
            await self._finish()
        self.schedule()  # first, so the update carries the new mover's deadline
        auto = None if why is None else {"player": player, "why": str(why), "action": str(action)}
        self.broadcast(auto)

    def _acted(self, player: int) -> None:
        """The person of ``player`` made their first move of this game themselves. A rated
        game keeps that at once (the result keeps it again), so a restart still rates them."""
        self.acted.add(player)
        if self.settings.rated and self.game_id is not None:
            self.hall.spawn(self._keep_acted(self.game_id, player))

    async def _keep_acted(self, game_id: int, player: int) -> None:
        with contextlib.suppress(StoreUnavailable):  # logged; the result stores it again
            await self.hall.db.run(self.hall.store.mark_acted, game_id, player)

    async def _finish(self) -> None:
        """The game is over (its last action is stored): end it here and store its record, so
        it can be fetched once anyone hears the game is over; if the store does not take it,
        keep trying in the background."""
        game = self.game
        assert game is not None and game.winner is not None and self.game_id is not None
        infos = []
        for seat_index in self.players:
            seat = self.seats[seat_index]
            name = seat.name or f"Seat {seat_index + 1}"
            if seat.kind is SeatKind.BOT:
                infos.append(PlayerInfo(name, "bot", seat.level))
            else:
                infos.append(PlayerInfo(name, "human"))
        # The table's code stays out of the record: records are public, codes are invitations.
        meta: dict[str, Any] = {"game": self.game_number, "game_id": self.game_id}
        if self.stood_in:
            meta["stood_in"] = sorted(self.stood_in)
        if isinstance(self.seed, FairSeed):  # revealed: anyone can now check every die
            meta["fair"] = self.seed.to_json(reveal=True)
        placed = ratings.places(game.finishing_order(), self.left_early)
        places = tuple(
            Place(p, placed[p], p in self.left_early, p in self.acted) for p in sorted(placed)
        )
        if self.left_early:
            meta["left_early"] = sorted(self.left_early)
        if self.settings.rated:
            meta["rated"] = ratings.family(self.preset)
        record = record_of(game, infos, meta=meta, preset=self.preset)
        chat_game_over(self)
        for seat in self.seats:
            self._cancel_grace(seat)
            seat.autoplay = False
        # The running score: totals, so storing them again (a retry, a restart) counts once.
        scores = []
        for p, seat_index in enumerate(self.players):
            seat = self.seats[seat_index]
            seat.played += 1
            seat.wins += p == game.winner
            scores.append((seat_index, seat.wins, seat.played))
        self._new_next_secret()  # the rematch's commitment, shown with the revealed secret
        self.saving_record = True
        args = (
            self.code,
            self.game_id,
            game.winner,
            game.round_number,
            record,
            tuple(scores),
            places,
        )
        log.info(
            "table %s: game %s over after %d rounds, won by player %d",
            self.code,
            self.game_id,
            game.round_number,
            game.winner,
            extra=table_context(
                self.code, self.game_id, winner=game.winner, rounds=game.round_number
            ),
        )
        # The table says "over" once the record can be fetched (anyone told the game is over
        # may ask for it at once); only a store that is not answering makes it say so first,
        # with the record being saved (store_state "retrying") until it is.
        try:
            self.rating_changes = await self.hall.db.run(self.hall.store.finish_game, *args)
            self.saving_record = False
            self.status = TableStatus.OVER
        except StoreUnavailable:
            self.status = TableStatus.OVER
            self._store_retrying()
            self.hall.spawn(self._save_record(args, 1))
        self.broadcast_table()

    async def _save_record(
        self,
        args: tuple[
            str, int, int, int, dict[str, Any], tuple[tuple[int, int, int], ...], tuple[Place, ...]
        ],
        attempt: int,
    ) -> None:
        while True:
            try:
                changes = await self.hall.db.run(self.hall.store.finish_game, *args)
            except StoreUnavailable:
                self._store_retrying()
                await asyncio.sleep(retry_delay(attempt))
                attempt += 1
                continue
            if self.game_id == args[1]:  # still this game's table (no rematch started since)
                self.rating_changes = changes
            self.saving_record = False
            self._store_ok()
            return

    def _store_retrying(self) -> None:
        if self.store_state is not StoreState.RETRYING:
            self.store_state = StoreState.RETRYING
            self.broadcast_table()

    def _store_ok(self) -> None:
        """A write went through: the table is no longer waiting for the store (unless its
        finished game's record still is)."""
        if self.store_state is not StoreState.OK and not self.saving_record:
            self.store_state = StoreState.OK
            self.broadcast_table()

    # ---------------------------------------------------------- bots, timers, stand-ins

    def _later(
        self, delay: float, job: Callable[..., Awaitable[None]], *args: Any
    ) -> asyncio.TimerHandle:
        """Run ``job(*args)`` as a task of the hall in ``delay`` seconds."""
        return self.hall.loop.call_later(delay, lambda: self.hall.spawn(job(*args)))

    def schedule(self) -> None:
        """Arrange the next automatic move: a bot's, or the timer of a human to move."""
        for handle in (self._timer, self._bot_turn):
            if handle is not None:
                handle.cancel()
        self._timer = self._bot_turn = None
        self.deadline = None
        game = self.game
        if game is None or self.status is not TableStatus.PLAYING or game.is_over:
            return
        turn = len(game.history)
        mover = game.to_move
        automatic = self._automatic(mover)
        callers = self.rules.cruzado and any(p != mover for p in self.bots)
        # While the reveal is shown nothing automatic happens and no clock runs.
        pause = max(0.0, self.reveal_until - time.time())
        if automatic is not None or callers:
            self._bot_turn = self._later(
                pause + self.settings.bot_seconds, self._bots_move, turn, 0
            )
        if automatic is None and self.settings.turn_seconds > 0:
            self.deadline = time.time() + pause + self.settings.turn_seconds
            self._timer = self._later(pause + self.settings.turn_seconds, self._timed_out, turn, 0)

    def _automatic(self, player: int) -> Bot | None:
        """The bot playing ``player`` now, if a bot plays that seat."""
        seat = self.seats[self.players[player]]
        if player in self.bots:
            return self.bots[player]
        if seat.autoplay:
            bot = self._make_bot(STAND_IN_LEVEL)
            self.bots[player] = bot
            return bot
        return None

    def _current(self, turn: int) -> Game | None:
        """The game, if it is still in play at ``turn``."""
        game = self.game
        if game is None or game.is_over or self.status is not TableStatus.PLAYING:
            return None
        return game if len(game.history) == turn else None

    async def _bots_move(self, turn: int, attempt: int) -> None:
        async with self.lock:
            game = self._current(turn)
            if game is None:
                return
            mover = game.to_move
            chosen: tuple[int, Action] | None = None
            if self.rules.cruzado:
                for p, caller in self.bots.items():
                    if p != mover:
                        call = out_of_turn_call(caller, game.view(p))
                        if call is not None and self.problem(p, call) is None:
                            chosen = (p, call)
                            break
            bot = self._automatic(mover)
            if chosen is None and bot is not None:
                chosen = (mover, bot.choose(game.view(mover)))
            if chosen is None:  # a human is to move: their timer (if any) is already running
                return
            player, action = chosen
            # A human's seat a bot plays (after the grace period, or a kick) is a stand-in.
            stand_in = player in self.humans
            why = AutoWhy.STAND_IN if stand_in else None
            if not await self._stored_unasked(self._commit(player, action, why)):
                self._bot_turn = self._later(
                    retry_delay(attempt), self._bots_move, turn, attempt + 1
                )

    async def _timed_out(self, turn: int, attempt: int) -> None:
        async with self.lock:
            game = self._current(turn)
            if game is None:
                return
            mover = game.to_move
            chooser = self._make_bot(STAND_IN_LEVEL)
            move = self._commit(mover, chooser.choose(game.view(mover)), AutoWhy.TIMER)
            if not await self._stored_unasked(move):
                self._timer = self._later(retry_delay(attempt), self._timed_out, turn, attempt + 1)

    async def _stored_unasked(self, write: Awaitable[None]) -> bool:
        """A write no person is waiting for (an automatic move, a stand-in): True once the
        store took it. False when it did not: the table then says it is retrying, and the
        caller schedules the next try."""
        try:
            await write
        except StoreUnavailable:
            self._store_retrying()
            return False
        self._store_ok()
        return True

    def admits_spectator(self) -> bool:
        return self.spectators < self.hall.limits.max_spectators

    def connected(self, client: Outbox) -> None:
        """A connection said hello: it gets the table, and the others hear of a player (a
        spectator is counted in the next table frame, so a crowd arriving costs each other
        connection nothing)."""
        self.clients.add(client)
        self.active = time.monotonic()
        if client.seat is None:
            self.spectators += 1
            client.send(dumps({"type": "table", "table": self.to_json()}))
            self._table_news_soon()
            return
        self.seat_clients.setdefault(client.seat, set()).add(client)
        self._cancel_grace(self.seats[client.seat])
        if client.seat == self.host:
            self.host_away_since = None
            if self._host_away is not None:
                self._host_away.cancel()
                self._host_away = None
        elif (
            self.host is not None
            and self.host_away_since is not None
            and self._host_away is None
            and time.monotonic() - self.host_away_since >= self._host_wait()
        ):
            # The host has been away longer than the grace period, and nobody was here to
            # take the role then: this person is.
            self.hall.spawn(self._host_away_over(0))
        self.broadcast_table()

    def disconnected(self, client: Outbox) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        self.active = time.monotonic()
        if client.seat is None:
            self.spectators = max(0, self.spectators - 1)
            self._table_news_soon()
            return
        seat = self.seats[client.seat]
        mine = self.seat_clients.get(client.seat, set())
        mine.discard(client)
        if not mine:
            self.seat_clients.pop(client.seat, None)
            if seat.kind is SeatKind.HUMAN:
                self._start_grace(seat)
            if client.seat == self.host:
                self._host_left()
        self.broadcast_table()

    def watch(self, client: Outbox) -> None:
        """``client``'s seat was taken from it (a kick): it goes on as a spectator."""
        if client.seat is not None and client in self.clients:
            self.seat_clients.get(client.seat, set()).discard(client)
            self.spectators += 1
        client.seat = None

    def _table_news_soon(self) -> None:
        if self._table_news is None:
            self._table_news = self.hall.loop.call_later(1.0, self._table_news_now)

    def _table_news_now(self) -> None:
        self._table_news = None
        self.broadcast_table()

    def _start_absent_graces(self) -> None:
        """Every human in the game nobody is connected for (never came, or left in the lobby)
        gets the grace period, then a stand-in, like one who disconnects."""
        for index in self.players:
            seat = self.seats[index]
            if seat.kind is SeatKind.HUMAN and not seat.autoplay and not self.present(seat):
                self._start_grace(seat)

    def _start_grace(self, seat: Seat) -> None:
        grace = self.settings.grace_seconds
        if grace is None or self.status is not TableStatus.PLAYING or seat.autoplay:
            return
        if seat.seat not in self.players:
            return
        self._cancel_grace(seat)
        seat.grace = self._later(grace, self._grace_over, seat.seat, 0)

    def _cancel_grace(self, seat: Seat) -> None:
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None

    async def _grace_over(self, index: int, attempt: int) -> None:
        async with self.lock:
            seat = self.seats[index]
            seat.grace = None
            if (
                self.present(seat)
                or self.status is not TableStatus.PLAYING
                or seat.kind is not SeatKind.HUMAN
                or seat.autoplay
            ):
                return
            stored = seat.stored(autoplay=True)
            left = self._left(self.players.index(index), True)
            write = self.hall.db.run(self.hall.store.save_seat, self.code, stored, KEEP_HOST, left)
            if not await self._stored_unasked(write):
                seat.grace = self._later(retry_delay(attempt), self._grace_over, index, attempt + 1)
                return
            seat.take(stored)
            self._stand_in(self.players.index(index))
            self.broadcast_table()
            self.schedule()

    def _left(self, player: int | None, left: bool) -> tuple[int, int, bool] | None:
        """What :meth:`Store.save_seat` keeps of the person of ``player`` leaving the game in
        play (``left``) or coming back: leaving counts only with dice left, as in
        :meth:`_stand_in`."""
        if player is None or self.game is None or self.game_id is None:
            return None
        return self.game_id, player, left and self.game.counts[player] > 0

    def _stand_in(self, player: int) -> None:
        """A bot plays for the person of engine player ``player`` from now on."""
        self.stood_in.add(player)
        if self.game is not None and self.game.counts[player] > 0:
            self.left_early.add(player)

    async def take_back(self, seat: Seat | None) -> None:
        if seat is None or seat.kind is not SeatKind.HUMAN:
            raise ActionRefused(E.NOT_A_PLAYER, "only a player can take a seat back")
        async with self.lock:
            if not seat.autoplay:
                raise ActionRefused(
                    E.NOT_STANDING_IN, "no bot is playing for you: your seat is yours to play"
                )
            stored = seat.stored(autoplay=False)
            left = self._left(self.player_of(seat), False)
            try:
                await self.hall.db.run(
                    self.hall.store.save_seat, self.code, stored, KEEP_HOST, left
                )
            except StoreUnavailable:
                raise ActionRefused(
                    E.STORE_UNAVAILABLE,
                    "your seat could not be taken back (the database is not answering): "
                    "try again in a moment",
                ) from None
            seat.take(stored)
            player = self.player_of(seat)
            if player is not None:
                self.bots.pop(player, None)
                self.left_early.discard(player)  # back in time: they did not leave
            self.broadcast_table()
            self.schedule()
            self.broadcast()

    def _changed(self) -> None:
        self.active = time.monotonic()

    def stop(self) -> None:
        """Cancel every timer (the server is stopping, or the table leaves memory)."""
        for handle in (self._timer, self._bot_turn, self._table_news, self._host_away, self._fill):
            if handle is not None:
                handle.cancel()
        for seat in self.seats:
            self._cancel_grace(seat)

    # ------------------------------------------------------------------ broadcasting

    def broadcast_table(self) -> None:
        self.version = max(self.version + 1, int(time.time() * 1000))
        text = dumps({"type": "table", "table": self.to_json()})
        for client in self.clients:
            client.send(text)
        self.hall.table_changed(self)

    def broadcast(self, auto: dict[str, Any] | None = None) -> None:
        """Send every connection the events it has not had and its seat's view; ``auto``
        names the human's seat the last action was played for automatically, and why."""
        self._send_updates(list(self.clients), auto)

    def send_update(self, client: Outbox) -> None:
        """Bring one connection up to date (after it says hello)."""
        self._send_updates([client])

    def _send_updates(self, clients: list[Outbox], auto: dict[str, Any] | None = None) -> None:
        game = self.game
        if game is None:
            return
        # Connections of the same seat, up to date to the same event, get the same frame, so
        # each distinct frame is built once per broadcast. Its parts are encoded once and
        # joined (wire.update_frame): the frame's head and new events (public) for each
        # starting event, the view's fields every viewer shares (the engine's PublicPart),
        # and each seat's own fields (wire.VIEWER_FIELDS, from its ViewerPart). No whole
        # view is built.
        frames: dict[tuple[int | None, int], str] = {}
        heads: dict[int, str] = {}
        events = game.events
        last = len(events) - 1
        shown: dict[int, dict[str, Any]] = {}
        shared: str | None = None
        for client in clients:
            if client.game_id != self.game_id:
                client.game_id, client.since = self.game_id, -1
            player = self.player_of(self.seats[client.seat]) if client.seat is not None else None
            start = max(client.since + 1, 0)
            key = (player, start)
            text = frames.get(key)
            if text is None:
                head = heads.get(start)
                if head is None:
                    for i in range(start, len(events)):
                        if i not in shown:
                            shown[i] = event_json(i, events[i], game.rules)
                    new = [shown[i] for i in range(start, len(events))]
                    head = heads[start] = self._update_head(new, auto)
                if shared is None:
                    names = [self.name_of(p) for p in range(len(self.players))]
                    public = game.public_part()
                    shared = shared_part(public, names, self.players, len(game.history))
                text = frames[key] = update_frame(head, shared, game.viewer_part(player))
            client.since = last
            client.send(text)

    def _update_head(self, events: list[dict[str, Any]], auto: dict[str, Any] | None = None) -> str:
        """An update frame's fields but its view, encoded (wire.update_frame adds the view)."""
        return dumps(
            {
                "type": "update",
                "game": self.game_id,
                "events": events,
                "deadline": None if self.deadline is None else int(self.deadline * 1000),
                "auto": auto,
            }
        )

    # ------------------------------------------------------------------ from the store

    @classmethod
    def restore(cls, hall: Hall, stored: StoredTable) -> Table:
        """A stored table as it was: its game replayed from the seed and every stored action,
        its automatic moves and grace periods scheduled again."""
        s = stored.settings
        # Tables stored before a setting existed get its default.
        settings = Settings(
            s["seats"],
            s["turn_seconds"],
            s["grace_seconds"],
            s["bot_seconds"],
            s.get("reveal_seconds", Settings.reveal_seconds),
            bool(s.get("hints", False)),
            int(s.get("fill_seconds", 0)),
            str(s.get("fill_level", STAND_IN_LEVEL)),
            bool(s.get("rated", False)),
        )
        if settings.rated:  # the site's fill, also at a rated table stored before it was
            settings.fill_level = RATED_FILL_LEVEL
        seats = [Seat(x.seat) for x in stored.seats]
        for seat, x in zip(seats, stored.seats, strict=True):
            seat.take(x)
        table = cls(
            hall, stored.code, stored.preset, stored.options, settings, seats, host=stored.host
        )
        table.public = stored.public
        table.chat = Chat(stored.chat_off, stored.chat)
        if table.host is not None:
            table._host_left()  # nobody is connected yet: the host's absence counts from now
        table.next_secret = stored.next_secret
        game = stored.game
        if game is None:
            table.arm_fill()  # a countdown cut by a restart counts again from the start
            if table.next_secret is None:  # a table from before provably fair dice
                table._new_next_secret()
            return table
        table.game_id, table.game_number = game.id, game.number
        table.seed = game.fair if game.fair is not None else game.seed
        table.players = [p["seat"] for p in game.players]
        table.humans = {i for i, p in enumerate(game.players) if p.get("kind") == SeatKind.HUMAN}
        # Who was played by a bot when the server stopped (a stand-in taken back before the
        # stop is not known after it).
        table.stood_in = {
            p
            for p in table.humans
            if seats[table.players[p]].autoplay or seats[table.players[p]].kind is SeatKind.BOT
        }
        table._set_game(table._replay(table.seed, game.actions))
        # Who left with dice is stored with their stand-in (a stand-in that went out since must
        # not place its person where it went out); games stored before that kept nothing, and
        # those who left among them are known while they still have dice.
        assert table.game is not None
        table.left_early = set(game.left_early) | {
            p for p in table.stood_in if table.game.counts[p] > 0
        }
        table.acted = set(game.acted)
        table.status = TableStatus.OVER if game.finished else TableStatus.PLAYING
        table.rating_changes = dict(game.rating_changes)
        assert table.game is not None
        if table.game.is_over and not game.finished:
            # Stopped between the last action and storing the record: store it now.
            table.status = TableStatus.PLAYING
            hall.spawn(table._finish())
        if table.status is TableStatus.PLAYING:
            table._start_absent_graces()
            table.schedule()
        elif table.next_secret is None:
            table._new_next_secret()
        return table

    @classmethod
    def set_aside(cls, hall: Hall, stored: StoredTable, why: str) -> Table:
        """A stored table that could not be restored: kept in memory as broken, so its players
        are told so, and nothing of it runs."""
        try:
            rules = table_rules(stored.preset, stored.options)
        except TableError:
            rules = PRESETS.get(stored.preset, PRESETS[DEFAULT_PRESET])
        seats = []
        for x in stored.seats:
            seat = Seat(x.seat)
            try:
                seat.take(x)
            except ValueError:
                seat = Seat(x.seat)
            seats.append(seat)
        try:
            fields = Settings.__dataclass_fields__
            settings = Settings(**{k: v for k, v in stored.settings.items() if k in fields})
        except (KeyError, TypeError):
            settings = Settings(seats=len(seats))
        table = cls(
            hall, stored.code, stored.preset, stored.options, settings, seats, rules, stored.host
        )
        table.status = TableStatus.BROKEN
        table.problem_text = why
        table.public = stored.public
        if stored.game is not None:
            table.game_id, table.game_number = stored.game.id, stored.game.number
        return table


@dataclass
class Hall:
    """Every live table of one server process, and the store behind them. With several
    processes (:mod:`dudo.server.cluster`), the tables this process owns."""

    store: Store
    loop: asyncio.AbstractEventLoop
    limits: Limits = field(default_factory=Limits)
    tables: dict[str, Table] = field(default_factory=dict)
    #: Where each game's dice seed and each bot's generator come from: the operating system's
    #: randomness, unless a caller (a test replaying games) gives a seeded generator.
    dice: random.Random = field(default_factory=random.SystemRandom)
    metrics: Metrics = field(default_factory=Metrics)

    def __post_init__(self) -> None:
        self.db = AsyncStore(self.store, observe=self.metrics.store_call)
        self.metrics.count_tables(lambda: len(self.tables))
        #: Set when the server begins to stop (``/readyz`` then answers 503).
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()
        #: Told of every change of a table anyone may hear of, and of a table leaving memory
        #: (the lobby's listing follows them).
        self.watchers: list[Callable[[str], None]] = []
        #: This process's part in a site of several (None: it is the only process).
        self.cluster: Cluster | None = None
        self.db.fenced = self._fenced

    def join_cluster(self, cluster: Cluster) -> None:
        """Serve as one of several processes: tables are owned under a lease and written
        under a fence; tables nobody owns are taken over (instead of all loaded at start)."""
        self.cluster = cluster
        self.store.fences = {}
        cluster.on_broadcast(
            "player_deleted", lambda message: self.spawn(self._player_deleted(message["p"]))
        )

    async def check_name(self, display: str, player: PlayerKey | None) -> None:
        """Refuse to seat anyone under a registered player's name but that player."""
        owner = await self.answer(name_owner, self.store, name_key(display))
        if owner is not None and (player is None or owner != player.id):
            raise name_owned(display)

    async def drop_player(self, player_id: str) -> None:
        """A player is deleting their account: each seat of theirs at a table here is given
        up as its player would (:meth:`Table.drop_player`)."""
        for table in list(self.tables.values()):
            if any(seat.player_id == player_id for seat in table.seats):
                await table.drop_player(player_id)

    async def _player_deleted(self, player_id: str) -> None:
        """Another process deleted a player: their seats at the tables here are given up."""
        try:
            await self.drop_player(player_id)
        finally:
            self.forget_player(player_id)

    def forget_player(self, player_id: str, everywhere: bool = False) -> None:
        """A player deleted their account: their seats at the tables here are given up (with
        ``everywhere``, in the other processes' tables too). Any seat still marked theirs in
        memory (a give-up the store did not take) keeps no player and no token."""
        for table in self.tables.values():
            for seat in table.seats:
                if seat.player_id == player_id:
                    seat.player_id = seat.token_hash = None
            table.chat.forget(player_id)
        if everywhere and self.cluster is not None:
            self.cluster.post("dudo:all", {"k": "player_deleted", "p": player_id})

    def _fenced(self, code: str) -> None:
        """A write of table ``code`` was refused: another process has taken it over."""
        if code in self.tables:
            self.spawn(self.let_go(code, reason="taken over by another process"))

    async def adopt(self, code: str) -> bool:
        """Take table ``code`` over from the store (this process holds its lease): raise its
        fence, then load it and resume its game. False: no such table, or it is closed."""
        fence = await self.db.run(self.store.claim_table, code)
        if fence is None:
            return False
        try:
            stored = await self.db.run(self.store.load_table, code)
        except BaseException:
            self.store.release_table(code)
            raise
        if stored is None:
            self.store.release_table(code)
            return False
        table = self._restore(stored)
        self.tables[code] = table
        if self.cluster is not None:
            self.cluster.handed_over.discard(code)
        self.table_changed(table)
        log.info(
            "table %s: taken over (%s, fence %d)",
            code,
            table.status,
            fence,
            extra=table_context(code, table.game_id),
        )
        return True

    async def let_go(self, code: str, reason: str) -> None:
        """Stop serving table ``code`` here: after the write under way (if any), cancel its
        timers, give up its fence and lease, and close its connections with 1012 so their
        clients reconnect to its next owner."""
        table = self.tables.get(code)
        if table is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(table.lock.acquire(), 5.0)
        try:
            table.stop()
            if self.tables.get(code) is table:
                del self.tables[code]
            self.store.release_table(code)
        finally:
            if table.lock.locked():
                table.lock.release()
        if self.cluster is not None:
            self.cluster.handed_over.add(code)
            await self.cluster.release(code)
        for client in list(table.clients):
            client.end(1012)
        self.table_changed(code)
        log.info("table %s: let go (%s)", code, reason, extra=table_context(code, table.game_id))

    def table_changed(self, table: Table | str) -> None:
        code = table if isinstance(table, str) else table.code
        for watcher in self.watchers:
            watcher(code)

    async def answer(self, method: Callable[..., T], *args: Any) -> T:
        """A store call a request waits for: if the store does not answer, the request gets a
        503 that says nothing was changed (:data:`STORE_DOWN`)."""
        try:
            return await self.db.run(method, *args)
        except StoreUnavailable:
            raise TableError(503, STORE_DOWN, E.STORE_DOWN) from None

    def spawn(self, job: Awaitable[None]) -> None:
        """Run ``job`` as a task the hall keeps (and cancels when the server stops); its
        failure is logged in one line, never lost."""

        async def run() -> None:
            try:
                await job
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("table task failed: %s: %s", type(exc).__name__, exc)

        task = self.loop.create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def find(self, code: str) -> Table | None:
        """The table with this code: live, or a finished one loaded again from the store.
        Raises StoreUnavailable (or RedisError) when that cannot be known now: a table that
        exists must not be called missing because the database or Redis did not answer."""
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None or not code.isalnum() or len(code) > 16:
            return table
        if self.cluster is not None:
            owner = await where(self.cluster, code)
            if owner is None and code not in self.tables:
                # No process holds it: if it is live, its owner is gone and a takeover will
                # adopt it within a beat, so it is moving, not missing.
                stored = await self.db.run(self.store.load_table, code)
                if stored is not None and stored.status in LIVE_STATUSES:
                    owner = ""
            # Owned here but not yet in ``tables``: this process is adopting it (its lease
            # is taken before the table is loaded), so it is moving too.
            if owner is not None and (owner != self.cluster.node or code not in self.tables):
                raise TableError(
                    503,
                    "this table is moving to another server process: try again in a moment",
                    E.TABLE_MOVING,
                )
            return self.tables.get(code)
        stored = await self.db.run(self.store.load_table, code)
        if stored is None:
            return None
        table = self.tables.get(code)  # loaded meanwhile by another request
        if table is None:
            table = self._restore(stored)
            self.tables[code] = table
        return table

    async def new_code(self) -> str:
        for _ in range(100):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code in self.tables:
                continue
            if not await self.answer(self.store.code_taken, code):
                return code
        raise TableError(503, "could not find a free table code; try again", E.NO_FREE_CODE)

    async def create(
        self,
        name: object,
        preset: str,
        options: dict[str, Any],
        settings: Settings,
        bots: list[str],
        public: bool = False,
        player: PlayerKey | None = None,
    ) -> tuple[Table, str]:
        display = clean_name(name)
        check_level(settings.fill_level)
        if not MIN_SEATS <= settings.seats <= MAX_SEATS:
            raise TableError(
                400,
                f"seats: from {MIN_SEATS} to {MAX_SEATS}, not {settings.seats}",
                E.SEATS_RANGE,
                least=MIN_SEATS,
                most=MAX_SEATS,
            )
        if len(bots) > settings.seats - 1:
            raise TableError(
                400,
                f"bots: at most {settings.seats - 1} with {settings.seats} seats",
                E.TOO_MANY_BOTS,
                count=settings.seats - 1,
            )
        levels = [check_level(level) for level in bots]
        rules = table_rules(preset, options)
        if rules.max_players is not None and settings.seats > rules.max_players:
            raise TableError(
                400,
                f"seats: {preset} with these options allows at most {rules.max_players} players",
                E.SEATS_ABOVE_RULES,
                count=rules.max_players,
            )
        if settings.seats < rules.min_players:
            raise TableError(
                400,
                f"seats: these rules need at least {rules.min_players} players, so the table "
                f"needs at least {rules.min_players} seats",
                E.SEATS_BELOW_RULES,
                count=rules.min_players,
            )
        if settings.rated:
            check_rated(preset, rules, settings, public, player)
            check_rated_bots(levels)
            settings = replace(settings, fill_level=RATED_FILL_LEVEL)
        await self.check_name(display, player)
        code = await self.new_code()
        if self.cluster is not None and not await self.cluster.lease(code):
            raise TableError(503, "could not find a free table code; try again", E.NO_FREE_CODE)
        token = secrets.token_urlsafe(24) if player is None else player.seat_token(code, 0)
        # The first game's secret: its commitment is in the table from the first moment.
        secret = self.dice.getrandbits(SECRET_BYTES * 8).to_bytes(SECRET_BYTES, "big")
        seats = [Seat(i) for i in range(settings.seats)]
        seats[0].take(
            seats[0].as_human(display, token_hash(token), None if player is None else player.id)
        )
        for seat, level in zip(seats[1:], levels, strict=False):
            seat.take(seat.as_bot(level, bot_name(seats, seat.seat)))
        await self.answer(
            self.store.create_table,
            code,
            preset,
            options,
            settings.to_dict(),
            [s.stored() for s in seats],
            public,
            secret,
        )
        table = Table(self, code, preset, options, settings, seats, rules)
        table.public = public
        table.next_secret = secret
        self.tables[code] = table
        table.arm_fill()
        self.table_changed(table)
        return table, token

    def resume(self) -> int:
        """Load every table in play or in its lobby from the store; unfinished games continue
        where they were. A table that cannot be restored is set aside as broken, with its
        reason logged, and the others are served. The number of tables restored."""
        count = 0
        if self.cluster is not None:
            return 0  # the tables nobody owns are taken over by the cluster's beat
        # Lobbies left idle past their time are closed first, so a start never loads them.
        self.store.close_idle_lobbies(time.time() - self.limits.idle_lobby_hours * 3600, set())
        for stored in self.store.load_tables():
            table = self._restore(stored)
            self.tables[table.code] = table
            count += table.status is not TableStatus.BROKEN
        return count

    def _restore(self, stored: StoredTable) -> Table:
        try:
            return Table.restore(self, stored)
        except Exception as exc:  # whatever is wrong with one table must not stop the server
            why = f"{type(exc).__name__}: {exc}"
            log.warning(
                "table %s could not be resumed and is set aside: %s",
                stored.code,
                why,
                extra=table_context(stored.code),
            )
            return Table.set_aside(self, stored, why)

    async def sweep(self) -> None:
        """Let go of what nobody uses: finished tables nobody watches leave memory (they load
        again when opened), idle lobbies are closed, unused dice cups deleted. Finished games
        are kept."""
        limits = self.limits
        now = time.monotonic()
        for code, table in list(self.tables.items()):
            idle = now - table.active
            if (
                table.status is TableStatus.OVER
                and not table.clients
                and not table.saving_record
                and idle > limits.finished_table_minutes * 60
            ):
                table.stop()
                del self.tables[code]
                self.table_changed(code)
                await self._released(code)
        busy = {
            code
            for code, table in self.tables.items()
            if table.clients or now - table.active < limits.idle_lobby_hours * 3600
        }
        try:
            closed = await self.db.run(
                self.store.close_idle_lobbies,
                time.time() - limits.idle_lobby_hours * 3600,
                busy,
                # With several processes, each closes only the tables it owns.
                None if self.cluster is None else set(self.tables),
            )
            await self.db.run(
                self.store.delete_cups_unused_since, time.time() - limits.cup_days * 86400
            )
        except StoreUnavailable:
            return  # the next sweep tries again
        for code in closed:
            gone = self.tables.pop(code, None)
            if gone is not None:
                gone.stop()
                self.table_changed(code)
                await self._released(code)

    async def _released(self, code: str) -> None:
        """A table left memory here: with several processes, its fence and lease go too."""
        self.store.release_table(code)
        if self.cluster is not None:
            await self.cluster.release(code)

    async def sweep_forever(self) -> None:
        while True:
            await self.sweep()
            await asyncio.sleep(self.limits.sweep_seconds)

    async def close(self) -> None:
        self.stopping = True
        if self.cluster is not None:
            await self.cluster.stop()  # hands every table over first
        for table in self.tables.values():
            table.stop()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.to_thread(self.db.close)
