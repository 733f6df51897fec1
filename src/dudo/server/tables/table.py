"""One live table: what it is (its code, rules, settings, status) and the parts it is made of,
each the one owner of its state; the requests and frames of a table reach those parts here.

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
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from dudo.engine.errors import Reason
from dudo.engine.fair import FairSeed
from dudo.engine.game import Game
from dudo.engine.rules import DEFAULT_PRESET, PRESETS, Rules
from dudo.server.chat import Chat
from dudo.server.errors import ErrorCode as E
from dudo.server.learner import Learner
from dudo.server.tables.audience import Audience
from dudo.server.tables.autoplay import Autoplay
from dudo.server.tables.checks import table_rules
from dudo.server.tables.countdown import Countdown
from dudo.server.tables.fair import FairDice
from dudo.server.tables.game import Play
from dudo.server.tables.hosting import Hosting
from dudo.server.tables.model import Outbox, PlayerKey, Seat, Settings, TableError, TableStatus
from dudo.server.tables.presence import Graces
from dudo.server.tables.realtable import Cups
from dudo.server.tables.results import Results
from dudo.server.tables.saving import Saving
from dudo.server.tables.seating import Seating

if TYPE_CHECKING:
    from dudo.server.tables.hall import Hall


class Table:
    """A table: its own few facts, and its parts. :attr:`seating` (who sits where),
    :attr:`graces` (who is away), :attr:`hosting` (the host, the rematch), :attr:`countdown`
    (the lobby's), :attr:`fair` (the dice's secrets and seeds), :attr:`play` (the game),
    :attr:`auto` (bots and timers), :attr:`results` (a finished game's), :attr:`saving` (the
    store's state), :attr:`audience` (connections and what they are told), :attr:`cups` (a
    real table's: which cups rolled, the calls after bids said aloud), and the chat and
    hints of :mod:`dudo.server.chat` and :mod:`dudo.server.learner`."""

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
        #: Listed in the lobby (a public table) or reached by its link only.
        self.public = False
        self.status = TableStatus.LOBBY
        #: Why a broken table could not be resumed (for the log and the curious).
        self.problem_text: str | None = None
        self.lock = asyncio.Lock()
        #: When the table last had a change or a connection (time.monotonic()).
        self.active = time.monotonic()
        self.seating = Seating(self, seats)
        self.graces = Graces(self)
        self.hosting = Hosting(self, host)
        self.countdown = Countdown(self)
        self.fair = FairDice(self)
        self.play = Play(self)
        self.auto = Autoplay(self)
        self.results = Results(self)
        self.saving = Saving(self)
        self.audience = Audience(self)
        self.cups = Cups(self)
        self.learner = Learner()
        self.chat = Chat()

    # ------------------------------------------------------------------ the table itself

    def changed(self) -> None:
        self.active = time.monotonic()

    def playing_now(self) -> bool:
        """A game is being played (spectators' chat does not reach the players)."""
        return self.status is TableStatus.PLAYING

    def refuse_if_broken(self) -> None:
        if self.status is TableStatus.BROKEN:
            raise TableError(
                409,
                "this table's game could not be resumed when the server restarted, so the "
                "table is closed; its finished games are kept. Please start a new table.",
                E.TABLE_BROKEN,
            )

    def later(
        self, delay: float, job: Callable[..., Awaitable[None]], *args: Any
    ) -> asyncio.TimerHandle:
        """Run ``job(*args)`` as a task of the hall in ``delay`` seconds."""
        return self.hall.loop.call_later(delay, lambda: self.hall.spawn(job(*args)))

    def stop(self) -> None:
        """Cancel every timer (the server is stopping, or the table leaves memory)."""
        self.auto.stop()
        self.audience.stop()
        self.hosting.stop()
        self.countdown.stop()
        self.graces.stop()

    def to_json(self) -> dict[str, Any]:
        """The table as everyone at it (and the lobby) sees it: the table frame's ``table``."""
        base = PRESETS.get(self.preset, PRESETS[DEFAULT_PRESET])
        fill_at = self.countdown.fill_at
        return {
            "code": self.code,
            "version": self.audience.version,
            "status": str(self.status),
            "problem": self.problem_text,
            # The client words a broken table by this code, not by the English log line.
            "problem_code": None if self.problem_text is None else str(E.CANNOT_RESUME),
            "store": str(self.saving.store_state),
            "game": self.play.game_id,
            "game_number": self.play.game_number,
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "house_rules": {name: mine for name, (mine, _) in self.rules.differences(base).items()},
            **self.settings.to_dict(),
            "seats": self.seating.to_json(),
            "host": self.hosting.host,
            "spectators": self.audience.spectators,
            "public": self.public,
            "fill_deadline": None if fill_at is None else int(fill_at * 1000),
            "fair": self.fair.to_json(),
            "chat": not self.chat.off,
            "rating_changes": self.results.to_json(),
            "real": self.cups.to_json(),
        }

    # ------------------------------------------------------------------ what callers read

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def host(self) -> int | None:
        return self.hosting.host

    @property
    def fill_at(self) -> float | None:
        return self.countdown.fill_at

    @property
    def game(self) -> Game | None:
        return self.play.game

    @property
    def game_id(self) -> int | None:
        return self.play.game_id

    @property
    def seed(self) -> int | FairSeed | None:
        return self.fair.seed

    @property
    def clients(self) -> set[Outbox]:
        return self.audience.clients

    @property
    def seat_clients(self) -> dict[int, set[Outbox]]:
        return self.audience.seat_clients

    @property
    def spectators(self) -> int:
        return self.audience.spectators

    # ------------------------------------------------------------------ what callers ask

    def seat_for_token(self, token: str | None) -> Seat | None:
        return self.seating.seat_for_token(token)

    def require_seat(self, token: str | None) -> Seat:
        return self.seating.require_seat(token)

    def require_host(self, token: str | None) -> Seat:
        return self.hosting.require_host(token)

    def player_of(self, seat: Seat | None) -> int | None:
        return self.play.player_of(seat)

    async def join(self, name: object, player: PlayerKey | None = None) -> tuple[Seat, str]:
        return await self.seating.join(name, player)

    async def claim_seat(self, player: PlayerKey) -> tuple[Seat, str] | None:
        return await self.seating.claim_seat(player)

    async def add_bot(self, level: object) -> None:
        await self.seating.add_bot(level)

    async def remove_seat(self, index: int) -> None:
        await self.seating.remove_seat(index)

    async def set_ready(self, seat: Seat, ready: object) -> None:
        await self.seating.set_ready(seat, ready)

    async def leave(self, seat: Seat) -> None:
        await self.seating.leave(seat)

    async def drop_player(self, player_id: str) -> None:
        await self.seating.drop_player(player_id)

    async def start(self, order: list[int] | None = None) -> None:
        await self.play.start(order)

    async def rematch(self) -> None:
        await self.hosting.rematch()

    async def act(self, seat: Seat | None, text: str, turn: int | None) -> None:
        await self.play.act(seat, text, turn)

    def explain(self, seat: Seat | None, text: str) -> Reason | None:
        return self.play.explain(seat, text)

    async def take_back(self, seat: Seat | None) -> None:
        await self.graces.take_back(seat)

    async def set_client_seed(self, seat: Seat | None, seed: object) -> None:
        await self.fair.set_client_seed(seat, seed)

    def admits_spectator(self) -> bool:
        return self.audience.admits_spectator()

    def connected(self, client: Outbox) -> None:
        self.audience.connected(client)

    def disconnected(self, client: Outbox) -> None:
        self.audience.disconnected(client)

    def watch(self, client: Outbox) -> None:
        self.audience.watch(client)

    def send_update(self, client: Outbox) -> None:
        self.audience.send_update(client)

    def broadcast_table(self) -> None:
        self.audience.broadcast_table()
