"""The lobby: the open public tables as cards, kept up to date for everyone watching, and
"Play now", which seats a person at the fullest waiting public table of a preset or opens one.

A card says only what the table's own page shows anyone who has its code (preset, seats, the
bots' levels, the host's name, the countdown): private tables are never listed. Changes are
gathered for :data:`DEBOUNCE_SECONDS` and sent as one diff frame (the cards that changed and
the codes that left) with a version number that grows by one per frame, so a watcher that
misses a version asks for the whole list again. A change no card shows (a connection, a
spectator) costs one card comparison and sends nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from dudo.engine.rules import PRESETS
from dudo.server.errors import ErrorCode as E
from dudo.server.tables import (
    MIN_SEATS,
    Hall,
    PlayerKey,
    SeatKind,
    Settings,
    Table,
    TableError,
    TableStatus,
    clean_name,
    table_rules,
)
from dudo.server.wire import dumps

#: How long changes are gathered before watchers hear of them: a burst of joins at many
#: tables is one frame, and a watcher's update comes at most this late.
DEBOUNCE_SECONDS = 0.1
#: The seats of a table "Play now" opens (fewer when the preset allows fewer players).
PLAY_NOW_SEATS = 4
#: The countdown of a table "Play now" opens, unless the request chooses another.
PLAY_NOW_FILL_SECONDS = 60


class Watcher(Protocol):
    """One lobby connection as the lobby sees it: somewhere to put frames."""

    def send(self, text: str) -> None: ...


def listed(table: Table) -> bool:
    """Shown in the lobby: public, waiting for its first game, a person seated and a seat free."""
    return (
        table.public
        and table.status is TableStatus.LOBBY
        and any(s.kind is SeatKind.HUMAN for s in table.seats)
        and any(s.kind is SeatKind.OPEN for s in table.seats)
    )


def card(table: Table) -> dict[str, Any]:
    """What the lobby shows of a listed table."""
    seats = table.seats
    host = seats[table.host].name if table.host is not None else None
    base = PRESETS.get(table.preset)
    changed = 0 if base is None else len(table.rules.differences(base))
    return {
        "code": table.code,
        "preset": table.preset,
        "seats": len(seats),
        "taken": sum(s.kind is not SeatKind.OPEN for s in seats),
        "free": sum(s.kind is SeatKind.OPEN for s in seats),
        "humans": sum(s.kind is SeatKind.HUMAN for s in seats),
        "bots": [s.level for s in seats if s.kind is SeatKind.BOT],
        "host": host,
        "house_rules": changed,
        "hints": table.settings.hints,
        "rated": table.settings.rated,
        "turn_seconds": table.settings.turn_seconds,
        "fill_deadline": None if table.fill_at is None else int(table.fill_at * 1000),
        "fill_level": table.settings.fill_level if table.fill_at is not None else None,
    }


class Lobby:
    """The listing of one server's hall, and the connections watching it."""

    def __init__(self, hall: Hall, debounce: float = DEBOUNCE_SECONDS) -> None:
        self.hall = hall
        self.debounce = debounce
        #: The cards every watcher has, by code (in the order tables were first listed).
        self.cards: dict[str, dict[str, Any]] = {}
        self.version = 0
        self.watchers: set[Watcher] = set()
        self._dirty: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None
        #: One "Play now" at a time, so two people arriving together sit at one table.
        self.lock = asyncio.Lock()
        for code, table in hall.tables.items():
            if listed(table):
                self.cards[code] = card(table)
        hall.watchers.append(self.changed)

    # ------------------------------------------------------------------ the listing

    def changed(self, code: str) -> None:
        """A table changed (or left memory): watchers hear of it within the debounce."""
        self._dirty.add(code)
        if self._flush is None:
            self._flush = self.hall.loop.call_later(self.debounce, self.flush)

    def flush(self) -> None:
        """Compare the changed tables' cards with what watchers have; send one diff frame."""
        self._flush = None
        dirty, self._dirty = self._dirty, set()
        changed: list[dict[str, Any]] = []
        removed: list[str] = []
        for code in sorted(dirty):
            table = self.hall.tables.get(code)
            new = card(table) if table is not None and listed(table) else None
            old = self.cards.get(code)
            if new == old:
                continue
            if new is None:
                del self.cards[code]
                removed.append(code)
            else:
                self.cards[code] = new
                changed.append(new)
        if not changed and not removed:
            return
        self.version += 1
        text = dumps(
            {"type": "lobby", "version": self.version, "changed": changed, "removed": removed}
        )
        for watcher in list(self.watchers):
            watcher.send(text)

    def listing(self, preset: str | None = None) -> list[dict[str, Any]]:
        """The listed cards (of one preset, if given): fullest first, then the longest
        waiting. Changes still gathered go out first, so a request sees every change made
        before it."""
        if self._flush is not None:
            self._flush.cancel()
            self.flush()
        cards = [c for c in self.cards.values() if preset is None or c["preset"] == preset]
        order = {code: i for i, code in enumerate(self.cards)}
        return sorted(cards, key=lambda c: (-c["taken"], order[c["code"]]))

    def snapshot(self) -> str:
        tables = self.listing()  # first: it sends the gathered changes, and counts a version
        return dumps({"type": "lobby_full", "version": self.version, "tables": tables})

    def watch(self, watcher: Watcher) -> None:
        """A new watcher gets the whole list (after any gathered change has gone out to the
        others), then every diff."""
        text = self.snapshot()
        self.watchers.add(watcher)
        watcher.send(text)

    def unwatch(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def stop(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None

    # ------------------------------------------------------------------ play now

    async def play_now(
        self,
        name: object,
        preset: str,
        fill_seconds: int,
        fill_level: str,
        on_create: Callable[[], None],
        player: PlayerKey | None = None,
    ) -> tuple[Table, int, str, bool]:
        """Seat ``name`` at the fullest waiting public table of ``preset`` (the longest
        waiting among equals), or open a public one with a countdown of ``fill_seconds``
        (``on_create`` runs first: it counts the new table against the address's limit).
        The table, the seat, its token, and whether the table is new. With ``player`` the
        seat is that player's, as when joining or creating a table."""
        display = clean_name(name)
        rules = table_rules(preset, {})
        async with self.lock:
            order = {code: i for i, code in enumerate(self.cards)}
            candidates = sorted(
                (t for t in self.hall.tables.values() if t.preset == preset and listed(t)),
                key=lambda t: (
                    -sum(s.kind is not SeatKind.OPEN for s in t.seats),
                    order.get(t.code, len(order)),
                ),
            )
            for table in candidates:
                try:
                    seat, token = await table.join(display, player)
                except TableError as exc:
                    # Filled, started, holding this name since it was chosen, or rated (and
                    # this is no player): the next one.
                    skip = (
                        E.TABLE_FULL,
                        E.GAME_STARTED,
                        E.NAME_TAKEN,
                        E.TABLE_BROKEN,
                        E.RATED_NEEDS_PLAYER,
                    )
                    if exc.code in skip:
                        continue
                    raise
                return table, seat.seat, token, False
            on_create()
            seats = PLAY_NOW_SEATS
            if rules.max_players is not None:
                seats = min(seats, rules.max_players)
            seats = max(seats, rules.min_players, MIN_SEATS)
            settings = Settings(
                seats=seats,
                turn_seconds=60,
                grace_seconds=30,
                bot_seconds=max(Settings.bot_seconds, self.hall.limits.min_bot_seconds),
                fill_seconds=fill_seconds,
                fill_level=fill_level,
                rated=player is not None,  # a quick game between players counts
            )
            table, token = await self.hall.create(
                display, preset, {}, settings, [], public=True, player=player
            )
            return table, 0, token, True
