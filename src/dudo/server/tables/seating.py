"""Who sits where: the seats of a table, the tokens that prove a seat, and every change of
who holds one (a person joining, a bot added, a seat removed or given up, ready for the
rematch), each stored before it is taken in memory."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dudo.server.errors import ErrorCode as E
from dudo.server.names import name_key
from dudo.server.rated import check_rated_bots, rated_kick
from dudo.server.storage import KEEP_HOST, StoredSeat, token_hash
from dudo.server.tables.checks import bot_name, check_level, check_rated_seat, clean_name
from dudo.server.tables.model import (
    PlayerKey,
    Seat,
    SeatKind,
    TableError,
    TableStatus,
    seat_token_needed,
)

if TYPE_CHECKING:
    from dudo.server.tables.table import Table


class Seating:
    """The seats of one table (the one owner of :class:`Seat` in memory)."""

    def __init__(self, table: Table, seats: list[Seat]) -> None:
        self.table = table
        self.seats = seats

    # ------------------------------------------------------------------ identities

    def seat_for_token(self, token: str | None) -> Seat | None:
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def require_seat(self, token: str | None) -> Seat:
        """The human seat whose token this is."""
        seat = self.seat_for_token(token)
        if seat is None or seat.kind is not SeatKind.HUMAN:
            raise seat_token_needed()
        return seat

    def seat_of_player(self, player_id: str) -> Seat | None:
        """The seat a player holds here as a person."""
        return next(
            (s for s in self.seats if s.kind is SeatKind.HUMAN and s.player_id == player_id),
            None,
        )

    def is_ready(self, seat: Seat) -> bool:
        """Ready for the next game: a bot always is, a person once they said so."""
        return seat.kind is SeatKind.BOT or (seat.kind is SeatKind.HUMAN and seat.ready)

    def to_json(self) -> list[dict[str, Any]]:
        table = self.table
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": str(s.kind),
                "level": s.level,
                "host": s.seat == table.hosting.host,
                "connected": table.audience.present(s),
                "autoplay": s.autoplay,
                "player": table.play.player_of(s),
                "ready": self.is_ready(s),
                "wins": s.wins,
                "played": s.played,
            }
            for s in self.seats
        ]

    # ------------------------------------------------------------------ sitting down

    async def join(self, name: object, player: PlayerKey | None = None) -> tuple[Seat, str]:
        """Sit a person down; with a player, the seat is theirs (a player who has a seat here
        already gets that seat back)."""
        table = self.table
        display = clean_name(name)
        async with table.lock:
            table.refuse_if_broken()
            if player is not None:
                mine = self.seat_of_player(player.id)
                if mine is not None:
                    return mine, await self._player_token(mine, player)
            if table.status is TableStatus.PLAYING:
                raise TableError(
                    409,
                    "the game has started: you can watch it, and join the next one",
                    E.GAME_STARTED,
                )
            if table.settings.rated:
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
            self.open_seat()  # a full table says so before the name is looked up
            await table.hall.check_name(display, player)
            seat = self.open_seat()
            token = (
                secrets.token_urlsafe(24)
                if player is None
                else player.seat_token(table.code, seat.seat)
            )
            stored = seat.as_human(
                display, token_hash(token), None if player is None else player.id
            )
            # At a table no person was left at, the first to sit down is its host.
            host = seat.seat if table.hosting.host is None else KEEP_HOST
            await table.hall.answer(table.hall.store.save_seat, table.code, stored, host)
            seat.take(stored)
            if host != KEEP_HOST:
                table.hosting.seated(host)
            table.changed()
            table.countdown.arm()
            table.audience.broadcast_table()
            table.countdown.start_when_full()
            return seat, token

    async def claim_seat(self, player: PlayerKey) -> tuple[Seat, str] | None:
        """The seat a player holds here, and its token: any device holding the player's key
        takes the seat's control (the devices that had it keep it). None: no seat here."""
        async with self.table.lock:
            seat = self.seat_of_player(player.id)
            if seat is None:
                return None
            return seat, await self._player_token(seat, player)

    async def _player_token(self, seat: Seat, player: PlayerKey) -> str:
        table = self.table
        token = player.seat_token(table.code, seat.seat)
        digest = token_hash(token)
        if seat.token_hash != digest:  # a seat linked before its token came from the key
            stored = seat.stored(token_hash=digest)
            await table.hall.answer(table.hall.store.save_seat, table.code, stored)
            seat.take(stored)
        return token

    async def add_bot(self, level: object) -> None:
        table = self.table
        checked = check_level(level)
        if table.settings.rated:
            check_rated_bots([checked])
        async with table.lock:
            table.refuse_if_broken()
            if table.status is TableStatus.PLAYING:
                raise TableError(
                    409, "bots can be added between games, not during one", E.BOTS_BETWEEN_GAMES
                )
            seat = self.open_seat()
            stored = seat.as_bot(checked, bot_name(self.seats, seat.seat))
            await table.hall.answer(table.hall.store.save_seat, table.code, stored)
            seat.take(stored)
            table.changed()
            table.audience.broadcast_table()
            table.countdown.start_when_full()

    def open_seat(self) -> Seat:
        seat = next((s for s in self.seats if s.kind is SeatKind.OPEN), None)
        if seat is None:
            raise TableError(
                409,
                "the table is full: ask the host to free a seat, or watch the game",
                E.TABLE_FULL,
            )
        return seat

    async def set_ready(self, seat: Seat, ready: object) -> None:
        """A person says they are ready for the rematch (or no longer are)."""
        if not isinstance(ready, bool):
            raise TableError(400, "ready: give true or false", E.INVALID_REQUEST)
        table = self.table
        async with table.lock:
            table.refuse_if_broken()
            if table.status is not TableStatus.OVER:
                raise TableError(
                    409,
                    "you can say you are ready for a rematch once the game is over",
                    E.READY_AFTER_GAME,
                )
            if seat.kind is not SeatKind.HUMAN:
                raise seat_token_needed()
            stored = seat.stored(ready=ready)
            await table.hall.answer(table.hall.store.save_seat, table.code, stored)
            seat.take(stored)
            table.changed()
            table.audience.broadcast_table()

    # ------------------------------------------------------------------ giving a seat up

    async def remove_seat(self, index: int) -> None:
        table = self.table
        if not 0 <= index < len(self.seats):
            raise TableError(
                404,
                f"there is no seat {index}: seats are 0 to {len(self.seats) - 1}",
                E.NO_SUCH_SEAT,
                seat=index + 1,
                last=len(self.seats),
            )
        if index == table.hosting.host:
            raise TableError(
                400,
                "the host cannot remove their own seat: leave the table to give it up",
                E.HOST_SEAT,
            )
        async with table.lock:
            table.refuse_if_broken()
            seat = self.seats[index]
            if seat.kind is SeatKind.OPEN:
                raise TableError(
                    409,
                    f"seat {index} is already open: nobody to remove",
                    E.SEAT_OPEN,
                    seat=index + 1,
                )
            in_game = table.status is TableStatus.PLAYING and index in table.play.players
            if in_game and seat.kind is SeatKind.BOT:
                raise TableError(
                    409, "a bot in the game plays on until the game ends", E.BOT_PLAYS_ON
                )
            if in_game and table.settings.rated:
                raise rated_kick()  # a kick would place the person last: theirs to choose
            # A kicked player's seat in a game is played by a bot until the game ends.
            stored = seat.as_stand_in() if in_game else seat.as_open()
            player = table.play.players.index(index) if in_game else None
            await self._vacate(seat, stored, KEEP_HOST, player)
            table.audience.broadcast_table()
            table.auto.schedule()
            table.audience.broadcast()

    async def _vacate(
        self, seat: Seat, stored: StoredSeat, host: int | None, stand_in: int | None
    ) -> None:
        """A person's seat is given up by a kick or a deleted account: it becomes ``stored``, the
        host role goes to ``host`` (KEEP_HOST: stays), a bot plays on for ``stand_in``."""
        table = self.table
        left = None if stand_in is None else table.play.left(stand_in, True)
        await table.hall.answer(table.hall.store.save_seat, table.code, stored, host, left)
        table.graces.cancel(seat)
        seat.take(stored)
        if host != KEEP_HOST:
            table.hosting.take(host)
        if stand_in is not None:
            table.auto.stand_in(stand_in)
            table.play.stand_in(stand_in)
        table.audience.unseat(seat.seat)
        table.changed()

    async def leave(self, seat: Seat) -> None:
        """A person gives up their seat (in the lobby, or after a game): it opens, their score
        at the table goes with them, and if they were host the role passes on."""
        table = self.table
        async with table.lock:
            table.refuse_if_broken()
            if seat.kind is not SeatKind.HUMAN:
                raise seat_token_needed()
            if table.status is TableStatus.PLAYING:
                raise TableError(
                    409,
                    "you can leave the table before or after a game, not during one: if you go, "
                    "a bot plays for you after the grace period",
                    E.LEAVE_DURING_GAME,
                )
            host = table.hosting.host
            if seat.seat == host:
                host = table.hosting.next_host(seat.seat, connected_only=False)
            stored = seat.as_open()
            await table.hall.answer(table.hall.store.save_seat, table.code, stored, host)
            seat.take(stored)
            table.hosting.take(host)
            table.audience.unseat(seat.seat)  # the connections of who left go on watching
            table.changed()
            table.countdown.arm()
            table.audience.broadcast_table()

    async def drop_player(self, player_id: str) -> None:
        """The player deleted their account: their seat here is given up. Between games it
        opens, as when they leave; in a game being played a bot plays it to the end, as when
        the host removes a seat. The host role passes on, and no token of theirs works."""
        table = self.table
        async with table.lock:
            seat = next((s for s in self.seats if s.player_id == player_id), None)
            if seat is None or table.status is TableStatus.BROKEN:
                return  # a broken table runs nothing: the store forgets the seat's token
            in_game = table.status is TableStatus.PLAYING and seat.seat in table.play.players
            host = table.hosting.host
            if seat.seat == host:
                host = table.hosting.next_host(seat.seat, connected_only=False)
            stand_in = None
            if in_game:
                # Named as any bot: the deleted player's name is not shown on for them.
                stored = replace(
                    seat.as_stand_in(), name=bot_name(self.seats, seat.seat), player_id=None
                )
                if seat.kind is SeatKind.HUMAN:  # else a stand-in plays it already
                    stand_in = table.play.players.index(seat.seat)
            else:
                stored = seat.as_open()
            await self._vacate(seat, stored, host, stand_in)
            table.countdown.arm()
            table.audience.broadcast_table()
            table.auto.schedule()
            table.audience.broadcast()

    def forget(self, player_id: str) -> None:
        """A player deleted their account: a seat still marked theirs in memory (a give-up the
        store did not take) keeps no player and no token."""
        for seat in self.seats:
            if seat.player_id == player_id:
                seat.player_id = seat.token_hash = None

    # ------------------------------------------------------------------ games

    def game_begins(self) -> None:
        """A game starts: nobody is played by a stand-in, nobody is ready for the next yet."""
        for seat in self.seats:
            seat.autoplay = seat.ready = False

    def game_over(self, players: list[int], winner: int) -> tuple[tuple[int, int, int], ...]:
        """The game of ``players`` (seats by engine player) is over: no seat is played by a
        stand-in now, and each player's seat counts it in its running score. The totals, by
        seat, so storing them again (a retry, a restart) counts once."""
        for seat in self.seats:
            self.table.graces.cancel(seat)
            seat.autoplay = False
        scores = []
        for p, index in enumerate(players):
            seat = self.seats[index]
            seat.played += 1
            seat.wins += p == winner
            scores.append((index, seat.wins, seat.played))
        return tuple(scores)
