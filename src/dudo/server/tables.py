"""Live tables: seats, the game in play, bots, turn timers, stand-ins, and who hears what.

All of it runs on the server's one event loop, so a table changes only between awaits and
needs no locks. The engine decides every rule: an intent becomes an engine action, the engine
says whether it is legal, the accepted action is committed to the store, and only then is it
applied and broadcast. Each connection receives the engine's view for its own seat.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Protocol

from dudo.bots import Bot, make_bot, out_of_turn_call
from dudo.engine.actions import Action, Call
from dudo.engine.chance import RandomChance
from dudo.engine.errors import DudoError
from dudo.engine.game import Game
from dudo.engine.rules import PRESETS, Rules, from_mapping
from dudo.notation import parse_action
from dudo.records import PlayerInfo, record_of
from dudo.server.storage import Store, StoredGame, StoredSeat, StoredTable, token_hash
from dudo.server.wire import dumps, event_json, view_json

#: Letters of invite codes: no 0/O, 1/I/L, so a code read aloud or off a screen is not misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MIN_SEATS, MAX_SEATS = 2, 8
MAX_NAME = 24
#: The level of the bot that stands in for a disconnected or kicked player, and that picks
#: the automatic move when a turn timer runs out (a sensible move, never a random one).
STAND_IN_LEVEL = "easy"


class TableError(Exception):
    """A request the table refuses. ``status`` is the HTTP status that fits it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Outbox(Protocol):
    """One connection as the table sees it: somewhere to put frames, and who is behind it."""

    seat: int | None
    since: int  # the last event seq this connection has of ``game_id``
    game_id: int | None

    def send(self, text: str) -> None: ...


@dataclass
class Settings:
    seats: int = 4
    turn_seconds: int = 0  # 0: no turn timer
    grace_seconds: int | None = 30  # None: no stand-in bot, the seat waits (the timer still runs)
    bot_seconds: float = 1.0  # how long a bot waits before acting, so people can follow

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "turn_seconds": self.turn_seconds,
            "grace_seconds": self.grace_seconds,
            "bot_seconds": self.bot_seconds,
        }


@dataclass
class Seat:
    seat: int
    kind: str = "open"  # open | human | bot
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    autoplay: bool = False
    connections: int = 0
    grace: asyncio.TimerHandle | None = None

    def stored(self) -> StoredSeat:
        return StoredSeat(
            self.seat, self.kind, self.name, self.level, self.token_hash, self.autoplay
        )


def clean_name(name: object) -> str:
    """A display name: 1 to 24 printable characters once spaces are trimmed."""
    if not isinstance(name, str):
        raise TableError(400, "name: give a display name as text")
    text = " ".join(name.split())
    if not text:
        raise TableError(400, "name: a display name is needed")
    if len(text) > MAX_NAME:
        raise TableError(400, f"name: at most {MAX_NAME} characters, not {len(text)}")
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise TableError(400, "name: control characters are not allowed")
    return text


def check_level(level: object) -> str:
    from dudo.bots import BOT_NAMES

    if not isinstance(level, str) or level not in BOT_NAMES:
        raise TableError(400, f"bot level {level!r} is unknown; levels are: {', '.join(BOT_NAMES)}")
    return level


def table_rules(preset: str, options: dict[str, Any]) -> Rules:
    """The rules of a table: a preset plus house rules, checked by the engine."""
    if preset not in PRESETS:
        raise TableError(400, f"preset {preset!r} is unknown; presets are: {', '.join(PRESETS)}")
    try:
        return from_mapping(options, base=PRESETS[preset])
    except DudoError as exc:
        raise TableError(400, f"options: {exc}") from None


class Table:
    def __init__(
        self,
        hall: Hall,
        code: str,
        preset: str,
        options: dict[str, Any],
        settings: Settings,
        seats: list[Seat],
    ) -> None:
        self.hall = hall
        self.code = code
        self.preset = preset
        self.options = options
        self.rules = table_rules(preset, options)
        self.settings = settings
        self.seats = seats
        self.status = "lobby"
        self.game: Game | None = None
        self.game_id: int | None = None
        self.game_number = 0
        self.players: list[int] = []  # the seat of each engine player
        self.bots: dict[int, Bot] = {}  # engine player -> the bot that plays it
        self.clients: set[Outbox] = set()
        self.deadline: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._bot_turn: asyncio.TimerHandle | None = None

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
            raise TableError(401, "a valid seat token is needed (Authorization: Bearer <token>)")
        if seat.seat != 0:
            raise TableError(403, "only the host (the seat that created the table) can do that")
        return seat

    def player_of(self, seat: Seat | None) -> int | None:
        if seat is None or self.game is None:
            return None
        return self.players.index(seat.seat) if seat.seat in self.players else None

    # ---------------------------------------------------------------------- the lobby

    def to_json(self) -> dict[str, Any]:
        base = PRESETS[self.preset]
        return {
            "code": self.code,
            "status": self.status,
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
                    "kind": s.kind,
                    "level": s.level,
                    "host": s.seat == 0,
                    "connected": s.connections > 0,
                    "autoplay": s.autoplay,
                    "player": self.player_of(s),
                }
                for s in self.seats
            ],
            "spectators": sum(1 for c in self.clients if c.seat is None),
        }

    def join(self, name: object) -> tuple[Seat, str]:
        display = clean_name(name)
        if self.status == "playing":
            raise TableError(409, "the game has started: you can watch it, and join the next one")
        seat = self._open_seat()
        token = secrets.token_urlsafe(24)
        seat.kind, seat.name, seat.level = "human", display, None
        seat.token_hash, seat.autoplay = token_hash(token), False
        self.hall.store.save_seat(self.code, seat.stored())
        self.broadcast_table()
        return seat, token

    def add_bot(self, level: object) -> None:
        checked = check_level(level)
        if self.status == "playing":
            raise TableError(409, "bots can be added between games, not during one")
        seat = self._open_seat()
        seat.kind, seat.level, seat.name = "bot", checked, f"Bot {seat.seat + 1} ({checked})"
        self.hall.store.save_seat(self.code, seat.stored())
        self.broadcast_table()

    def _open_seat(self) -> Seat:
        seat = next((s for s in self.seats if s.kind == "open"), None)
        if seat is None:
            raise TableError(409, "the table is full")
        return seat

    def remove_seat(self, index: int) -> None:
        if not 0 <= index < len(self.seats):
            raise TableError(404, f"there is no seat {index}")
        if index == 0:
            raise TableError(400, "the host cannot remove their own seat")
        seat = self.seats[index]
        if seat.kind == "open":
            raise TableError(409, f"seat {index} is already open")
        in_game = self.status == "playing" and index in self.players
        if in_game and seat.kind == "bot":
            raise TableError(409, "a bot in the game plays on until the game ends")
        self._cancel_grace(seat)
        if in_game:  # a kicked player's seat is played by a bot until the game ends
            seat.kind, seat.level, seat.token_hash, seat.autoplay = (
                "bot",
                STAND_IN_LEVEL,
                None,
                False,
            )
            seat.name = f"{seat.name} (bot)"
            self.bots[self.players.index(index)] = self._make_bot(STAND_IN_LEVEL)
        else:
            seat.kind, seat.name, seat.level, seat.token_hash = "open", None, None, None
            seat.autoplay = False
        self.hall.store.save_seat(self.code, seat.stored())
        for client in list(self.clients):
            if client.seat == index:  # the kicked player's connections go on as spectators
                client.seat = None
        self.broadcast_table()
        self.schedule()
        self.broadcast()

    def start(self) -> None:
        if self.status == "playing":
            raise TableError(409, "the game is already being played")
        filled = [s for s in self.seats if s.kind != "open"]
        if len(filled) < MIN_SEATS:
            raise TableError(
                409, "at least two seats must be filled (invite a friend or add a bot)"
            )
        if self.rules.max_players is not None and len(filled) > self.rules.max_players:
            raise TableError(
                409,
                f"these rules allow at most {self.rules.max_players} players, not {len(filled)}",
            )
        self.players = [s.seat for s in filled]
        for s in filled:
            s.autoplay = False
            self.hall.store.save_seat(self.code, s.stored())
        players = [
            {"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level} for s in filled
        ]
        seed = self.hall.dice.getrandbits(62)
        self.game_number += 1
        self.game_id = self.hall.store.start_game(
            self.code, self.game_number, seed, self.rules.to_dict(), players
        )
        self._begin(seed, [])
        self.status = "playing"
        for client in self.clients:
            client.since, client.game_id = -1, self.game_id
        self.broadcast_table()
        self.schedule()
        self.broadcast()

    def rematch(self) -> None:
        if self.status != "over":
            raise TableError(409, "a rematch can be offered once the game is over")
        self.start()

    def _begin(self, seed: int, actions: list[tuple[int, str]]) -> None:
        """Set up the engine game (and replay stored actions, after a restart)."""
        game = Game(self.rules, len(self.players), chance=RandomChance(seed))
        for index, (player, text) in enumerate(actions):
            action = action_for(game, player, text)
            problem = game.problem(action)
            if problem is not None:
                raise DudoError(f"table {self.code}, stored action {index} ({text}): {problem}")
            game.push(action)
        self.game = game
        self.bots = {}
        for p, seat_index in enumerate(self.players):
            seat = self.seats[seat_index]
            if seat.kind == "bot":
                self.bots[p] = self._make_bot(seat.level or STAND_IN_LEVEL)

    def _make_bot(self, level: str) -> Bot:
        return make_bot(level, random.Random(self.hall.dice.getrandbits(64)))

    # ---------------------------------------------------------------------- play

    def intent(self, seat: Seat | None, text: str) -> tuple[int, Action]:
        """The player ``seat`` is in the game and the engine action ``text`` means for them.
        Raises :class:`ActionRefused` when there is no game, the seat is not in it, or the
        text is not an action."""
        game = self.game
        if game is None or self.status != "playing":
            raise ActionRefused("no_game", "no game is being played at this table")
        player = self.player_of(seat)
        if player is None:
            raise ActionRefused(
                "not_a_player", "you are watching: only players in the game can act"
            )
        try:
            return player, action_for(game, player, text)
        except DudoError as exc:
            raise ActionRefused("unknown_action", str(exc)) from None

    def act(self, seat: Seat | None, text: str, turn: int | None) -> None:
        """Play ``text`` for ``seat``. Raises :class:`ActionRefused` and changes nothing if
        the action is not this seat's to make now."""
        player, action = self.intent(seat, text)
        game = self.game
        assert game is not None
        if turn is not None and turn != len(game.history):
            raise ActionRefused(
                "stale",
                f"the game has moved on (you chose at turn {turn}, it is now turn {len(game.history)})",
            )
        problem = self.problem(player, action)
        if problem is not None:
            code = "not_your_turn" if self._out_of_turn(player, action) else "illegal"
            raise ActionRefused(code, problem)
        self.apply(player, action)

    def explain(self, seat: Seat | None, text: str) -> str | None:
        """Why ``seat`` may not play ``text`` now (None: it may)."""
        player, action = self.intent(seat, text)
        return self.problem(player, action)

    def _out_of_turn(self, player: int, action: Action) -> bool:
        """Acting while another player is to move (only a call may, under cruzado)."""
        game = self.game
        assert game is not None
        return player != game.to_move and not isinstance(action, Call)

    def problem(self, player: int, action: Action) -> str | None:
        """Why ``player`` may not play ``action`` now (None: they may). The engine decides."""
        game = self.game
        assert game is not None
        if game.is_over:
            return "the game is over"
        if action in game.legal_actions(player):
            return None
        if self._out_of_turn(player, action):
            return f"it is {self.name_of(game.to_move)}'s turn, not yours"
        return game.problem(action) or f"{action} is not one of your legal actions now"

    def name_of(self, player: int) -> str:
        return self.seats[self.players[player]].name or f"player {player + 1}"

    def apply(self, player: int, action: Action) -> None:
        """Commit, apply and broadcast one legal action."""
        game = self.game
        assert game is not None and self.game_id is not None
        seq = len(game.history)
        game.push(action)  # in memory only: nobody hears of it unless the commit succeeds
        try:
            self.hall.store.add_action(self.game_id, seq, player, str(action))
        except Exception:
            game.pop()
            raise
        if game.is_over:
            self._finish()
        self.schedule()  # first, so the update carries the new mover's deadline
        self.broadcast()

    def _finish(self) -> None:
        game = self.game
        assert game is not None and game.winner is not None and self.game_id is not None
        infos = []
        for seat_index in self.players:
            seat = self.seats[seat_index]
            name = seat.name or f"Seat {seat_index + 1}"
            if seat.kind == "bot":
                infos.append(PlayerInfo(name, "bot", seat.level))
            else:
                infos.append(PlayerInfo(name, "human"))
        record = record_of(
            game,
            infos,
            meta={"table": self.code, "game": self.game_number, "game_id": self.game_id},
            preset=self.preset,
        )
        self.hall.store.finish_game(self.code, self.game_id, game.winner, game.round_number, record)
        self.status = "over"
        for seat in self.seats:
            self._cancel_grace(seat)
            seat.autoplay = False
        self.broadcast_table()

    # ---------------------------------------------------------- bots, timers, stand-ins

    def schedule(self) -> None:
        """Arrange the next automatic move: a bot's, or the timer of a human to move."""
        loop = self.hall.loop
        for handle in (self._timer, self._bot_turn):
            if handle is not None:
                handle.cancel()
        self._timer = self._bot_turn = None
        self.deadline = None
        game = self.game
        if game is None or self.status != "playing" or game.is_over:
            return
        turn = len(game.history)
        mover = game.to_move
        automatic = self._automatic(mover)
        callers = self.rules.cruzado and any(p != mover for p in self.bots)
        if automatic is not None or callers:
            self._bot_turn = loop.call_later(self.settings.bot_seconds, self._bots_move, turn)
        if automatic is None and self.settings.turn_seconds > 0:
            self.deadline = time.time() + self.settings.turn_seconds
            self._timer = loop.call_later(self.settings.turn_seconds, self._timed_out, turn)

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

    def _bots_move(self, turn: int) -> None:
        game = self.game
        if game is None or game.is_over or len(game.history) != turn:
            return
        mover = game.to_move
        if self.rules.cruzado:
            for p, caller in self.bots.items():
                if p != mover:
                    call = out_of_turn_call(caller, game.view(p))
                    if call is not None and self.problem(p, call) is None:
                        self.apply(p, call)
                        return
        bot = self._automatic(mover)
        if bot is not None:  # else a human is to move: their timer (if any) is already running
            self.apply(mover, bot.choose(game.view(mover)))

    def _timed_out(self, turn: int) -> None:
        game = self.game
        if game is None or game.is_over or len(game.history) != turn:
            return
        mover = game.to_move
        chooser = self._make_bot(STAND_IN_LEVEL)
        self.apply(mover, chooser.choose(game.view(mover)))

    def connected(self, client: Outbox) -> None:
        self.clients.add(client)
        seat = self.seats[client.seat] if client.seat is not None else None
        if seat is not None:
            seat.connections += 1
            self._cancel_grace(seat)
        self.broadcast_table()

    def disconnected(self, client: Outbox) -> None:
        self.clients.discard(client)
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections = max(0, seat.connections - 1)
            if seat.connections == 0 and seat.kind == "human":
                self._start_grace(seat)
        self.broadcast_table()

    def _start_grace(self, seat: Seat) -> None:
        grace = self.settings.grace_seconds
        if grace is None or self.status != "playing" or seat.autoplay:
            return
        if seat.seat not in self.players:
            return
        self._cancel_grace(seat)
        seat.grace = self.hall.loop.call_later(grace, self._grace_over, seat)

    def _cancel_grace(self, seat: Seat) -> None:
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None

    def _grace_over(self, seat: Seat) -> None:
        seat.grace = None
        if seat.connections or self.status != "playing" or seat.kind != "human":
            return
        seat.autoplay = True
        self.hall.store.save_seat(self.code, seat.stored())
        self.broadcast_table()
        self.schedule()

    def take_back(self, seat: Seat | None) -> None:
        if seat is None or seat.kind != "human":
            raise ActionRefused("not_a_player", "only a player can take a seat back")
        if not seat.autoplay:
            return
        seat.autoplay = False
        player = self.player_of(seat)
        if player is not None:
            self.bots.pop(player, None)
        self.hall.store.save_seat(self.code, seat.stored())
        self.broadcast_table()
        self.schedule()
        self.broadcast()

    # ------------------------------------------------------------------ broadcasting

    def broadcast_table(self) -> None:
        text = dumps({"type": "table", "table": self.to_json()})
        for client in self.clients:
            client.send(text)

    def broadcast(self) -> None:
        """Send every connection the events it has not had and its seat's view."""
        self._send_updates(list(self.clients))

    def send_update(self, client: Outbox) -> None:
        """Bring one connection up to date (after it says hello)."""
        self._send_updates([client])

    def _send_updates(self, clients: list[Outbox]) -> None:
        game = self.game
        if game is None:
            return
        # Connections of the same seat, up to date to the same event, get the same frame:
        # each distinct frame is built and encoded once per broadcast.
        frames: dict[tuple[int | None, int], str] = {}
        events = game.events
        last = len(events) - 1
        for client in clients:
            if client.game_id != self.game_id:
                client.game_id, client.since = self.game_id, -1
            player = self.player_of(self.seats[client.seat]) if client.seat is not None else None
            start = max(client.since + 1, 0)
            key = (player, start)
            text = frames.get(key)
            if text is None:
                text = frames[key] = self._update_frame(game, player, start)
            client.since = last
            client.send(text)

    def _update_frame(self, game: Game, player: int | None, start: int) -> str:
        rules = game.rules
        names = [self.name_of(p) for p in range(len(self.players))]
        view = view_json(game.view(player), names, self.players, len(game.history))
        return dumps(
            {
                "type": "update",
                "game": self.game_id,
                "events": [
                    event_json(i, game.events[i], rules) for i in range(start, len(game.events))
                ],
                "view": view,
                "deadline": None if self.deadline is None else int(self.deadline * 1000),
            }
        )


class ActionRefused(Exception):
    """An intent the table refuses; ``code`` goes to the client in the error frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def action_for(game: Game, player: int, text: str) -> Action:
    """The engine action ``player`` means by ``text`` (any notation); a call by a player who is
    not to move is an out-of-turn call."""
    action = parse_action(text, game.rules.faces)
    if isinstance(action, Call) and player != game.to_move:
        return Call(by=player)
    return action


@dataclass
class Hall:
    """Every live table of one server, and the store behind them."""

    store: Store
    loop: asyncio.AbstractEventLoop
    tables: dict[str, Table] = field(default_factory=dict)
    #: Where each game's dice seed and each bot's generator come from: the operating system's
    #: randomness, unless a caller (a test replaying games) gives a seeded generator.
    dice: random.Random = field(default_factory=random.SystemRandom)

    def new_code(self) -> str:
        for _ in range(100):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables and not self.store.code_taken(code):
                return code
        raise TableError(503, "could not find a free table code; try again")

    def create(
        self,
        name: object,
        preset: str,
        options: dict[str, Any],
        settings: Settings,
        bots: list[str],
    ) -> tuple[Table, str]:
        display = clean_name(name)
        if not MIN_SEATS <= settings.seats <= MAX_SEATS:
            raise TableError(400, f"seats: from {MIN_SEATS} to {MAX_SEATS}, not {settings.seats}")
        if len(bots) > settings.seats - 1:
            raise TableError(400, f"bots: at most {settings.seats - 1} with {settings.seats} seats")
        levels = [check_level(level) for level in bots]
        rules = table_rules(preset, options)
        if rules.max_players is not None and settings.seats > rules.max_players:
            raise TableError(
                400,
                f"seats: {preset} with these options allows at most {rules.max_players} players",
            )
        code = self.new_code()
        token = secrets.token_urlsafe(24)
        seats = [Seat(i) for i in range(settings.seats)]
        seats[0] = Seat(0, "human", display, None, token_hash(token))
        for i, level in enumerate(levels, start=1):
            seats[i] = Seat(i, "bot", f"Bot {i + 1} ({level})", level)
        self.store.create_table(
            code, preset, options, settings.to_dict(), [s.stored() for s in seats]
        )
        table = Table(self, code, preset, options, settings, seats)
        self.tables[code] = table
        return table, token

    def resume(self) -> int:
        """Load every open table from the store; unfinished games continue where they were."""
        count = 0
        for stored in self.store.load_tables():
            table = self._revive(stored)
            self.tables[table.code] = table
            count += 1
        return count

    def _revive(self, stored: StoredTable) -> Table:
        s = stored.settings
        settings = Settings(s["seats"], s["turn_seconds"], s["grace_seconds"], s["bot_seconds"])
        seats = [
            Seat(x.seat, x.kind, x.name, x.level, x.token_hash, x.autoplay) for x in stored.seats
        ]
        table = Table(self, stored.code, stored.preset, stored.options, settings, seats)
        game: StoredGame | None = stored.game
        if game is not None:
            table.game_id, table.game_number = game.id, game.number
            table.players = [p["seat"] for p in game.players]
            table._begin(game.seed, game.actions)
            table.status = "over" if game.finished else "playing"
            if table.game is not None and table.game.is_over and not game.finished:
                table._finish()  # stopped between the last action and storing the record
            if table.status == "playing":
                for seat in seats:
                    if seat.kind == "human" and not seat.autoplay:
                        table._start_grace(seat)
                table.schedule()
        return table
