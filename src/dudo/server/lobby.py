"""The lobby: the open public tables and the public games in progress as cards, kept up to date
for everyone watching; "Play now", which seats a person at the fullest waiting public table of a
preset or opens one; and a game against bots at once.

A card says only what the table's own page shows anyone who has its code (preset, seats, the
bots' levels, the host's name, the countdown): private tables are never listed. Changes are
gathered for :data:`DEBOUNCE_SECONDS` and sent as one diff frame (the cards that changed and
the codes that left) with a version number that grows by one per frame, so a watcher that
misses a version asks for the whole list again. A change no card shows (a connection, a
spectator) costs one card comparison and sends nothing.

With several processes (:mod:`dudo.server.cluster`) each process lists every process's tables:
an owner sends its cards' changes to the others through Redis, and keeps them in a Redis hash
that a process starting reads first. "Play now" then picks among all of them, one at a time
for the whole site, and joins a table owned elsewhere through its owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

import orjson

from dudo.engine.rules import PRESETS, Rules
from dudo.server.errors import ErrorCode as E
from dudo.server.frames import lobby_frame, lobby_full_frame
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

#: How long changes are gathered before watchers hear of them: a burst of joins at many
#: tables is one frame, and a watcher's update comes at most this late.
DEBOUNCE_SECONDS = 0.1
#: The seats of a table "Play now" opens (fewer when the preset allows fewer players).
PLAY_NOW_SEATS = 4
#: The countdown of a table "Play now" opens, unless the request chooses another.
PLAY_NOW_FILL_SECONDS = 60
#: The turn timer of a rated game against bots: a player who walks away cannot hold their
#: rating still (an unrated game waits for its player as long as they like).
BOTS_RATED_TURN_SECONDS = 60
#: Several processes: the Redis hash of every listed card, and the lock "Play now" takes.
CARDS_KEY = "dudo:lobby"
PLAY_NOW_LOCK = "dudo:play-now"


class Watcher(Protocol):
    """One lobby connection as the lobby sees it: somewhere to put frames."""

    def send(self, text: str) -> None: ...


def waiting(table: Table) -> bool:
    """A table someone may sit at from the lobby: public, waiting for its first game, a person
    seated and a seat free."""
    return (
        table.public
        and table.status is TableStatus.LOBBY
        and any(s.kind is SeatKind.HUMAN for s in table.seats)
        and any(s.kind is SeatKind.OPEN for s in table.seats)
    )


def watchable(table: Table) -> bool:
    """A game anyone may watch from the lobby: a public table whose game is being played."""
    return table.public and table.status is TableStatus.PLAYING and table.play.game is not None


def listed(table: Table) -> bool:
    """Shown in the lobby: a table waiting for players, or a public game in progress."""
    return waiting(table) or watchable(table)


def card(table: Table) -> dict[str, Any]:
    """What the lobby shows of a listed table: a waiting table's seats, or the players and
    dice of a game in progress (``status`` says which)."""
    if table.status is TableStatus.PLAYING:
        return live_card(table)
    seats = table.seats
    host = seats[table.host].name if table.host is not None else None
    return {
        "code": table.code,
        "status": "waiting",
        "preset": table.preset,
        "seats": len(seats),
        "taken": sum(s.kind is not SeatKind.OPEN for s in seats),
        "free": sum(s.kind is SeatKind.OPEN for s in seats),
        "humans": sum(s.kind is SeatKind.HUMAN for s in seats),
        "bots": [s.level for s in seats if s.kind is SeatKind.BOT],
        "host": host,
        "house_rules": house_rules(table),
        "hints": table.settings.hints,
        "rated": table.settings.rated,
        "turn_seconds": table.settings.turn_seconds,
        "fill_deadline": None if table.fill_at is None else int(table.fill_at * 1000),
        "fill_level": table.settings.fill_level if table.fill_at is not None else None,
    }


def live_card(table: Table) -> dict[str, Any]:
    """What the lobby shows of a game in progress: who plays and the dice each holds, from the
    engine's public part of the moment (what every spectator sees), and the round."""
    game = table.play.game
    assert game is not None
    public = game.public_part()
    players = []
    for player, dice in enumerate(public.dice_counts):
        seat = table.seats[table.play.players[player]]
        players.append(
            {
                "name": table.play.name_of(player),
                "dice": dice,
                "bot": seat.level if seat.kind is SeatKind.BOT else None,
            }
        )
    return {
        "code": table.code,
        "status": "playing",
        "preset": table.preset,
        "players": players,
        "round": public.round_number,
        "game": table.play.game_number,
        "house_rules": house_rules(table),
        "rated": table.settings.rated,
    }


def usual_seats(rules: Rules) -> int:
    """The seats of a table the lobby opens: :data:`PLAY_NOW_SEATS`, or what the rules allow."""
    seats = PLAY_NOW_SEATS
    if rules.max_players is not None:
        seats = min(seats, rules.max_players)
    return max(seats, rules.min_players, MIN_SEATS)


def house_rules(table: Table) -> int:
    """How many options of the table differ from its preset's."""
    base = PRESETS.get(table.preset)
    return 0 if base is None else len(table.rules.differences(base))


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
        if hall.cluster is not None:
            hall.cluster.on_broadcast("lobby", self._heard)

    async def load_others(self) -> None:
        """Several processes: start with every process's cards (kept in Redis)."""
        cluster = self.hall.cluster
        if cluster is None:
            return
        found = await cluster.redis.hgetall(CARDS_KEY)
        for code, text in found.items():
            code = code.decode() if isinstance(code, bytes) else code
            if code not in self.hall.tables:
                self.cards[code] = orjson.loads(text)

    def _heard(self, message: dict[str, Any]) -> None:
        """Another process's cards changed: every watcher here hears it too."""
        cluster = self.hall.cluster
        if cluster is None or message["node"] == cluster.node:
            return
        changed = [c for c in message["changed"] if c["code"] not in self.hall.tables]
        removed = [
            code
            for code in message["removed"]
            if code not in self.hall.tables and code in self.cards
        ]
        for c in changed:
            self.cards[c["code"]] = c
        for code in removed:
            del self.cards[code]
        if changed or removed:
            self._send_diff(changed, removed)

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
        cluster = self.hall.cluster
        for code in sorted(dirty):
            table = self.hall.tables.get(code)
            if table is None and cluster is not None and code in cluster.handed_over:
                continue  # its next owner lists it
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
        if cluster is not None:
            cluster.post(
                "dudo:all",
                {"k": "lobby", "node": cluster.node, "changed": changed, "removed": removed},
            )
            self.hall.spawn(self._keep(changed, removed))
        self._send_diff(changed, removed)

    async def _keep(self, changed: list[dict[str, Any]], removed: list[str]) -> None:
        """Keep this process's card changes in Redis, for processes that start later."""
        cluster = self.hall.cluster
        assert cluster is not None
        with contextlib.suppress(Exception):
            async with cluster.redis.pipeline(transaction=False) as pipe:
                if changed:
                    pipe.hset(CARDS_KEY, mapping={c["code"]: orjson.dumps(c) for c in changed})
                if removed:
                    pipe.hdel(CARDS_KEY, *removed)
                await pipe.execute()

    def _send_diff(self, changed: list[dict[str, Any]], removed: list[str]) -> None:
        self.version += 1
        text = lobby_frame(self.version, changed, removed)
        for watcher in list(self.watchers):
            watcher.send(text)

    def listing(self, preset: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
        """The listed cards (of one preset and one status, if given): fullest first, then the
        longest listed. Changes still gathered go out first, so a request sees every change
        made before it."""
        if self._flush is not None:
            self._flush.cancel()
            self.flush()
        cards = [
            c
            for c in self.cards.values()
            if (preset is None or c["preset"] == preset)
            and (status is None or c.get("status") == status)
        ]
        order = {code: i for i, code in enumerate(self.cards)}
        return sorted(cards, key=lambda c: (-c.get("taken", 0), order[c["code"]]))

    def snapshot(self) -> str:
        tables = self.listing()  # first: it sends the gathered changes, and counts a version
        return lobby_full_frame(self.version, tables)

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
        authorization: str | None = None,
    ) -> tuple[str, int, str, bool]:
        """Seat ``name`` at the fullest waiting public table of ``preset`` (the longest
        waiting among equals), or open a public one with a countdown of ``fill_seconds``
        (``on_create`` runs first: it counts the new table against the address's limit).
        The table's code, the seat, its token, and whether the table is new. With
        ``player`` (whose ``authorization`` header this is) the seat is that player's, as when
        joining or creating a table."""
        display = clean_name(name)
        rules = table_rules(preset, {})
        # Filled, started, holding this name since it was chosen, or rated (and this is no
        # player): the next one.
        skip = (E.TABLE_FULL, E.GAME_STARTED, E.NAME_TAKEN, E.TABLE_BROKEN, E.RATED_NEEDS_PLAYER)
        async with self.lock, self._site_lock():
            order = {code: i for i, code in enumerate(self.cards)}
            local = {
                t.code: t for t in self.hall.tables.values() if t.preset == preset and waiting(t)
            }
            elsewhere = {
                code: c
                for code, c in self.cards.items()
                if c["preset"] == preset
                and c.get("status") == "waiting"
                and code not in self.hall.tables
            }
            taken = {
                code: sum(s.kind is not SeatKind.OPEN for s in t.seats) for code, t in local.items()
            }
            taken.update({code: int(c["taken"]) for code, c in elsewhere.items()})
            for code in sorted(taken, key=lambda c: (-taken[c], order.get(c, len(order)))):
                table = local.get(code)
                if table is not None:
                    try:
                        seat, token = await table.join(display, player)
                    except TableError as exc:
                        if exc.code in skip:
                            continue
                        raise
                    return code, seat.seat, token, False
                joined = await self._join_elsewhere(code, display, authorization, skip)
                if joined is not None:
                    return code, joined[0], joined[1], False
            on_create()
            settings = Settings(
                seats=usual_seats(rules),
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
            return table.code, 0, token, True

    async def play_bots(
        self,
        name: object,
        preset: str,
        level: str,
        rated: bool,
        on_create: Callable[[], None],
        player: PlayerKey | None = None,
    ) -> tuple[str, str]:
        """A game against bots of ``level`` that starts at once: a table of the preset's usual
        number of seats, the person in the first and bots in the others (the table's code and
        the seat's token). A rated one is public, so its game is listed to watch, and has a
        turn timer so it cannot stall; an unrated one is private and waits for the player."""
        display = clean_name(name)
        rules = table_rules(preset, {})
        seats = usual_seats(rules)
        settings = Settings(
            seats=seats,
            turn_seconds=BOTS_RATED_TURN_SECONDS if rated else 0,
            grace_seconds=30,
            bot_seconds=max(Settings.bot_seconds, self.hall.limits.min_bot_seconds),
            rated=rated,
        )
        on_create()
        table, token = await self.hall.create(
            display, preset, {}, settings, [level] * (seats - 1), public=rated, player=player
        )
        await table.start()
        return table.code, token

    @contextlib.asynccontextmanager
    async def _site_lock(self) -> AsyncIterator[None]:
        """Several processes: one "Play now" at a time in the whole site (a Redis lock that
        expires by itself if its holder dies)."""
        cluster = self.hall.cluster
        if cluster is None:
            yield
            return
        token = cluster.node + str(time.monotonic())
        deadline = time.monotonic() + 10
        while not await cluster.redis.set(PLAY_NOW_LOCK, token, nx=True, px=10_000):
            if time.monotonic() > deadline:
                break  # a holder that is slow or gone: go on rather than refuse
            await asyncio.sleep(0.01)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                if await cluster.redis.get(PLAY_NOW_LOCK) == token.encode():
                    await cluster.redis.delete(PLAY_NOW_LOCK)

    async def _join_elsewhere(
        self, code: str, display: str, authorization: str | None, skip: tuple[E, ...]
    ) -> tuple[int, str] | None:
        """Join a table another process owns, through that process: the seat and token
        (None: it could not take this person, for a reason in ``skip``, or it is gone)."""
        cluster = self.hall.cluster
        assert cluster is not None
        owner = await cluster.owner(code)
        if owner is None or owner == cluster.node:
            return None
        headers = {} if authorization is None else {"authorization": authorization}
        status, answer = await cluster.tunnels.request(
            owner, code, "POST", f"/api/tables/{code}/join", {"name": display}, headers
        )
        if status == 201:
            return int(answer["seat"]), str(answer["token"])
        if answer.get("code") in skip or status in (404, 503):
            return None
        raise TableError(status, str(answer.get("detail", "")), E(answer.get("code", E.REFUSED)))
