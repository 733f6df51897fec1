"""The lobby's countdown: at a table with one, before its first game and once a person is
seated, bots take the open seats when it runs out (or as soon as the table is full) and the
game starts."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from dudo.server.logs import table_context
from dudo.server.storage import StoreUnavailable
from dudo.server.tables.checks import bot_name
from dudo.server.tables.model import SeatKind, TableError, TableStatus, Timer, retry_delay

if TYPE_CHECKING:
    from dudo.server.tables.table import Table

log = logging.getLogger("dudo.server")


class Countdown:
    """When the countdown runs out, and its timer."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: When (time.time()) the lobby's countdown fills the open seats with bots and starts
        #: the game (None: no countdown runs).
        self.fill_at: float | None = None
        self._fill: Timer | None = None

    def arm(self) -> None:
        """Run the lobby's countdown while it applies (a table with one, before its first
        game, with a person seated), and stop it when it no longer does."""
        table = self.table
        applies = (
            table.settings.fill_seconds > 0
            and table.status is TableStatus.LOBBY
            and any(s.kind is SeatKind.HUMAN for s in table.seats)
        )
        if not applies:
            if self._fill is not None:
                self._fill.cancel()
                self._fill = None
            self.fill_at = None
        elif self.fill_at is None:
            self.fill_at = time.time() + table.settings.fill_seconds
            self._fill = table.later(table.settings.fill_seconds, self._over, 0)

    def start_when_full(self) -> None:
        """A table with a countdown starts as soon as it is full: nobody waits for nothing."""
        if self.fill_at is not None and not any(s.kind is SeatKind.OPEN for s in self.table.seats):
            self.table.hall.spawn(self._over(0))

    def stop(self) -> None:
        if self._fill is not None:
            self._fill.cancel()

    async def _over(self, attempt: int) -> None:
        """The countdown ran out (or the table filled): bots take the open seats and the
        game starts. A write the store did not take is tried again with backoff."""
        table = self.table
        async with table.lock:
            if self.fill_at is None or table.status is not TableStatus.LOBBY:
                return
            if self._fill is not None:
                self._fill.cancel()
                self._fill = None
            try:
                for seat in table.seats:
                    if seat.kind is SeatKind.OPEN:
                        stored = seat.as_bot(
                            table.settings.fill_level, bot_name(table.seats, seat.seat)
                        )
                        await table.hall.db.run(table.hall.store.save_seat, table.code, stored)
                        seat.take(stored)
                await table.play.begin()
            except (StoreUnavailable, TableError) as exc:
                if isinstance(exc, TableError) and exc.status != 503:
                    # The rules refuse this game (no store trouble): the host decides now.
                    log.warning(
                        "table %s: the countdown could not start: %s",
                        table.code,
                        exc,
                        extra=table_context(table.code),
                    )
                    self.fill_at = None
                    table.audience.broadcast_table()
                    return
                table.saving.retrying()
                self._fill = table.later(retry_delay(attempt), self._over, attempt + 1)
                table.audience.broadcast_table()
                return
            table.saving.ok()
