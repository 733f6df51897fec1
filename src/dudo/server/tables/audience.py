"""Who is connected to a table, and what they are told: each connection (a seat's, or a
spectator's), presence (a seat is present while a connection holds it), the table frame every
connection gets on each change, and the update frame of the game in play that each gets for
its own seat."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from dudo.server.frames import Auto, table_frame, update_frame, update_head
from dudo.server.tables.model import Outbox, Seat, SeatKind, Timer
from dudo.server.wire import event_json, shared_part

if TYPE_CHECKING:
    from dudo.server.tables.table import Table


class Audience:
    """The connections of one table, and the version of what they were last told."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: Every live connection, and those of each seat: presence is these, nothing else.
        self.clients: set[Outbox] = set()
        self.seat_clients: dict[int, set[Outbox]] = {}
        self.spectators = 0
        #: Grows with every change of the table anyone is told of, across restarts too (it
        #: starts from the clock), so a client can drop a snapshot older than the one it has.
        self.version = int(time.time() * 1000)
        self._news: Timer | None = None

    def present(self, seat: Seat) -> bool:
        """Someone is connected to this seat right now."""
        return bool(self.seat_clients.get(seat.seat))

    def admits_spectator(self) -> bool:
        return self.spectators < self.table.hall.limits.max_spectators

    def connected(self, client: Outbox) -> None:
        """A connection said hello: it gets the table, and the others hear of a player (a
        spectator is counted in the next table frame, so a crowd arriving costs each other
        connection nothing)."""
        table = self.table
        self.clients.add(client)
        table.changed()
        if client.seat is None:
            self.spectators += 1
            client.send(table_frame(table.to_json()))
            self._news_soon()
            return
        self.seat_clients.setdefault(client.seat, set()).add(client)
        table.graces.cancel(table.seats[client.seat])
        table.hosting.arrived(client.seat)
        self.broadcast_table()

    def disconnected(self, client: Outbox) -> None:
        if client not in self.clients:
            return
        table = self.table
        self.clients.discard(client)
        table.changed()
        if client.seat is None:
            self.spectators = max(0, self.spectators - 1)
            self._news_soon()
            return
        seat = table.seats[client.seat]
        mine = self.seat_clients.get(client.seat, set())
        mine.discard(client)
        if not mine:
            self.seat_clients.pop(client.seat, None)
            if seat.kind is SeatKind.HUMAN:
                table.graces.start(seat)
            if client.seat == table.hosting.host:
                table.hosting.left()
        self.broadcast_table()

    def watch(self, client: Outbox) -> None:
        """``client``'s seat was taken from it (a kick): it goes on as a spectator."""
        if client.seat is not None and client in self.clients:
            self.seat_clients.get(client.seat, set()).discard(client)
            self.spectators += 1
        client.seat = None

    def unseat(self, seat: int) -> None:
        """``seat`` was given up: the connections that held it go on watching."""
        for client in self.seat_clients.pop(seat, set()):
            client.seat = None
            self.spectators += 1

    def new_game(self, game_id: int) -> None:
        """A game started: every connection has none of its events yet."""
        for client in self.clients:
            client.since, client.game_id = -1, game_id

    def _news_soon(self) -> None:
        if self._news is None:
            self._news = self.table.hall.loop.call_later(1.0, self._news_now)

    def _news_now(self) -> None:
        self._news = None
        self.broadcast_table()

    def stop(self) -> None:
        if self._news is not None:
            self._news.cancel()

    # ------------------------------------------------------------------ broadcasting

    def broadcast_table(self) -> None:
        self.version = max(self.version + 1, int(time.time() * 1000))
        text = table_frame(self.table.to_json())
        for client in self.clients:
            client.send(text)
        self.table.hall.table_changed(self.table)

    def broadcast(self, auto: Auto | None = None) -> None:
        """Send every connection the events it has not had and its seat's view; ``auto``
        names the human's seat the last action was played for automatically, and why."""
        self._send_updates(list(self.clients), auto)

    def send_update(self, client: Outbox) -> None:
        """Bring one connection up to date (after it says hello)."""
        self._send_updates([client])

    def _send_updates(self, clients: list[Outbox], auto: Auto | None = None) -> None:
        play = self.table.play
        game = play.game
        if game is None:
            return
        # Connections of the same seat, up to date to the same event, get the same frame, so
        # each distinct frame is built once per broadcast. Its parts are encoded once and
        # joined (frames.update_frame): the frame's head and new events (public) for each
        # starting event, the view's fields every viewer shares (the engine's PublicPart),
        # and each seat's own fields (wire.VIEWER_FIELDS, from its ViewerPart). No whole
        # view is built.
        frames: dict[tuple[int | None, int], str] = {}
        heads: dict[int, str] = {}
        events = game.events
        last = len(events) - 1
        shown: dict[int, dict[str, Any]] = {}
        shared: str | None = None
        seats = self.table.seats
        when = self.table.auto.deadline
        deadline = None if when is None else int(when * 1000)
        for client in clients:
            if client.game_id != play.game_id:
                client.game_id, client.since = play.game_id, -1
            player = play.player_of(seats[client.seat]) if client.seat is not None else None
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
                    head = heads[start] = update_head(play.game_id, new, deadline, auto)
                if shared is None:
                    names = [play.name_of(p) for p in range(len(play.players))]
                    public = game.public_part()
                    shared = shared_part(public, names, play.players, len(game.history))
                text = frames[key] = update_frame(head, shared, game.viewer_part(player))
            client.since = last
            client.send(text)
