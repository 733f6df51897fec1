"""Who is away from a game: the grace period a person in the game gets once nobody is
connected to their seat, the stand-in bot that plays it when the grace runs out, and the
person taking their seat back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dudo.server.errors import ErrorCode as E
from dudo.server.storage import KEEP_HOST, StoreUnavailable
from dudo.server.tables.model import (
    ActionRefused,
    Seat,
    SeatKind,
    TableStatus,
    Timer,
    retry_delay,
)

if TYPE_CHECKING:
    from dudo.server.tables.table import Table


class Graces:
    """The grace periods running, by seat."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.timers: dict[int, Timer] = {}

    def start_absent(self) -> None:
        """Every human in the game nobody is connected for (never came, or left in the lobby)
        gets the grace period, then a stand-in, like one who disconnects."""
        table = self.table
        for index in table.play.players:
            seat = table.seats[index]
            if (
                seat.kind is SeatKind.HUMAN
                and not seat.autoplay
                and not table.audience.present(seat)
            ):
                self.start(seat)

    def start(self, seat: Seat) -> None:
        table = self.table
        grace = table.settings.grace_seconds
        if grace is None or table.status is not TableStatus.PLAYING or seat.autoplay:
            return
        if seat.seat not in table.play.players:
            return
        self.cancel(seat)
        self.timers[seat.seat] = table.later(grace, self._over, seat.seat, 0)

    def cancel(self, seat: Seat) -> None:
        timer = self.timers.pop(seat.seat, None)
        if timer is not None:
            timer.cancel()

    def stop(self) -> None:
        for seat in self.table.seats:
            self.cancel(seat)

    async def _over(self, index: int, attempt: int) -> None:
        table = self.table
        async with table.lock:
            seat = table.seats[index]
            self.timers.pop(index, None)
            if (
                table.audience.present(seat)
                or table.status is not TableStatus.PLAYING
                or seat.kind is not SeatKind.HUMAN
                or seat.autoplay
            ):
                return
            stored = seat.stored(autoplay=True)
            left = table.play.left(table.play.players.index(index), True)
            store = table.hall.store
            write = table.hall.db.run(store.save_seat, table.code, stored, KEEP_HOST, left)
            if not await table.saving.unasked(write):
                self.timers[index] = table.later(
                    retry_delay(attempt), self._over, index, attempt + 1
                )
                return
            seat.take(stored)
            table.play.stand_in(table.play.players.index(index))
            table.audience.broadcast_table()
            table.auto.schedule()

    async def take_back(self, seat: Seat | None) -> None:
        """The person of ``seat`` plays it again themselves: their stand-in stops."""
        if seat is None or seat.kind is not SeatKind.HUMAN:
            raise ActionRefused(E.NOT_A_PLAYER, "only a player can take a seat back")
        table = self.table
        async with table.lock:
            if not seat.autoplay:
                raise ActionRefused(
                    E.NOT_STANDING_IN, "no bot is playing for you: your seat is yours to play"
                )
            stored = seat.stored(autoplay=False)
            left = table.play.left(table.play.player_of(seat), False)
            try:
                await table.hall.db.run(
                    table.hall.store.save_seat, table.code, stored, KEEP_HOST, left
                )
            except StoreUnavailable:
                raise ActionRefused(
                    E.STORE_UNAVAILABLE,
                    "your seat could not be taken back (the database is not answering): "
                    "try again in a moment",
                ) from None
            seat.take(stored)
            player = table.play.player_of(seat)
            if player is not None:
                table.auto.taken_back(player)
                table.play.back(player)  # back in time: they did not leave
            table.audience.broadcast_table()
            table.auto.schedule()
            table.audience.broadcast()
