"""The hall: every live table of one server process and the store behind them; finding a table
(live, or loaded again), creating one, resuming them all at start, taking one over from another
process and letting one go, and sweeping away what nobody uses."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from dudo.server.cluster import where
from dudo.server.errors import ErrorCode as E
from dudo.server.limits import Limits
from dudo.server.logs import table_context
from dudo.server.metrics import Metrics
from dudo.server.names import name_key, name_owned
from dudo.server.rated import RATED_FILL_LEVEL, check_rated_bots
from dudo.server.storage import (
    LIVE_STATUSES,
    AsyncStore,
    Store,
    StoredTable,
    StoreUnavailable,
    token_hash,
)
from dudo.server.tables.checks import (
    bot_name,
    check_level,
    check_rated,
    check_real,
    clean_name,
    table_rules,
)
from dudo.server.tables.fair import draw_secret
from dudo.server.tables.model import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_SEATS,
    MIN_SEATS,
    PlayerKey,
    Seat,
    Settings,
    TableError,
    TableStatus,
)
from dudo.server.tables.restore import restore, set_aside
from dudo.server.tables.table import Table

if TYPE_CHECKING:
    from dudo.server.cluster import Cluster

log = logging.getLogger("dudo.server")

#: The answer to a request whose write the store did not take.
STORE_DOWN = (
    "the database is not answering right now, so nothing was changed; try again in a moment"
)

T = TypeVar("T")


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
        owner = await self.answer(self.store.name_owner, name_key(display))
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
            table.seating.forget(player_id)
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
        if settings.real:
            settings = check_real(settings, bots, public)
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
        secret = draw_secret(self.dice)
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
        table.fair.committed(secret)
        self.tables[code] = table
        table.countdown.arm()
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
            return restore(self, stored)
        except Exception as exc:  # whatever is wrong with one table must not stop the server
            why = f"{type(exc).__name__}: {exc}"
            log.warning(
                "table %s could not be resumed and is set aside: %s",
                stored.code,
                why,
                extra=table_context(stored.code),
            )
            return set_aside(self, stored, why)

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
                and not table.results.saving_record
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
