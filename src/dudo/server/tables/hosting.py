"""The host and the next game: the seat whose token gives the host's commands, the role passing
on when its person leaves or stays away, and the rematch once everyone is ready."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from dudo.server.errors import ErrorCode as E
from dudo.server.tables.model import (
    Seat,
    SeatKind,
    TableError,
    TableStatus,
    Timer,
    retry_delay,
    seat_token_needed,
)

if TYPE_CHECKING:
    from dudo.server.tables.table import Table

#: Seconds nobody may be connected to the host's seat, while another person is, before the
#: host role passes to that person, when the table has no grace period of its own.
HOST_AWAY_SECONDS = 30


class Hosting:
    """Who hosts the table, and since when nobody is connected to the host's seat."""

    def __init__(self, table: Table, host: int | None) -> None:
        self.table = table
        #: The seat whose token may give the host's commands (None: no person is seated; the
        #: next one to join becomes host).
        self.host = host
        #: Since when (time.monotonic()) nobody has been connected to the host's seat (None:
        #: someone is, or nobody has been since the table was made or loaded).
        self.away_since: float | None = None
        self._away: Timer | None = None

    def require_host(self, token: str | None) -> Seat:
        seat = self.table.seating.seat_for_token(token)
        if seat is None:
            raise seat_token_needed()
        if seat.seat != self.host:
            raise TableError(403, "only the table's host can do that", E.HOST_ONLY)
        return seat

    def seated(self, host: int) -> None:
        """The first person to sit down at a table no person was left at is its host (stored
        already)."""
        self.host = host

    def next_host(self, after: int, connected_only: bool) -> int | None:
        """Who takes the host role from seat ``after``: the next person in seat order who is
        connected (and not played by a stand-in), else (unless ``connected_only``) the next
        person; None: nobody."""
        seats = self.table.seats
        count = len(seats)
        people = [
            seat
            for seat in (seats[(after + step) % count] for step in range(1, count))
            if seat.kind is SeatKind.HUMAN
        ]
        here = [seat for seat in people if self.table.audience.present(seat) and not seat.autoplay]
        if here:
            return here[0].seat
        if connected_only or not people:
            return None
        return people[0].seat

    def take(self, host: int | None) -> None:
        """The host role is ``host``'s now (stored already)."""
        if host == self.host:
            return
        self.host = host
        self.away_since = None
        if self._away is not None:
            self._away.cancel()
            self._away = None
        if host is not None and not self.table.audience.present(self.table.seats[host]):
            self.left()

    def _wait(self) -> float:
        grace = self.table.settings.grace_seconds
        return HOST_AWAY_SECONDS if grace is None else grace

    def left(self) -> None:
        """Nobody is connected to the host's seat: if that lasts the grace period while
        someone else is here, the role passes on."""
        self.away_since = time.monotonic()
        if self._away is not None:
            self._away.cancel()
        self._away = self.table.later(self._wait(), self._away_over, 0)

    def arrived(self, seat: int) -> None:
        """Someone connected to ``seat``: the host is back, or, if the host has been away
        longer than the grace period with nobody here to take the role then, this person is."""
        if seat == self.host:
            self.away_since = None
            if self._away is not None:
                self._away.cancel()
                self._away = None
        elif (
            self.host is not None
            and self.away_since is not None
            and self._away is None
            and time.monotonic() - self.away_since >= self._wait()
        ):
            self.table.hall.spawn(self._away_over(0))

    async def _away_over(self, attempt: int) -> None:
        table = self.table
        async with table.lock:
            self._away = None
            host = self.host
            if host is None or table.audience.present(table.seats[host]) or self.away_since is None:
                return
            if table.status is TableStatus.BROKEN:
                return
            heir = self.next_host(host, connected_only=True)
            if heir is None:
                return  # nobody else here: checked again when someone comes
            write = table.hall.db.run(table.hall.store.set_host, table.code, heir)
            if not await table.saving.unasked(write):
                self._away = table.later(retry_delay(attempt), self._away_over, attempt + 1)
                return
            self.take(heir)
            table.changed()
            table.audience.broadcast_table()

    def stop(self) -> None:
        if self._away is not None:
            self._away.cancel()

    # ------------------------------------------------------------------ the rematch

    async def rematch(self) -> None:
        table = self.table
        async with table.lock:
            table.refuse_if_broken()
            if table.status is not TableStatus.OVER:
                raise TableError(
                    409, "a rematch can be offered once the game is over", E.REMATCH_AFTER_GAME
                )
            if table.results.saving_record:
                raise TableError(
                    503,
                    "the last game is still being saved; offer the rematch in a moment",
                    E.RECORD_SAVING,
                )
            self.refuse_unready()
            await table.play.begin()

    def refuse_unready(self) -> None:
        """After a game, the next starts only once every person seated has said ready."""
        waiting = [
            s.name or f"seat {s.seat + 1}"
            for s in self.table.seats
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
