"""The moves nobody types: the bots' (seated bots, stand-ins, out-of-turn calls under
cruzado), and the move the turn timer plays for a person whose time ran out; when each is
due, and the pause while a round's reveal is shown."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from dudo.bots import Bot, make_bot, out_of_turn_call
from dudo.engine.actions import Action
from dudo.engine.game import Game
from dudo.server.tables.model import (
    STAND_IN_LEVEL,
    AutoWhy,
    SeatKind,
    TableStatus,
    Timer,
    retry_delay,
)

if TYPE_CHECKING:
    from dudo.server.tables.table import Table


class Autoplay:
    """The bots of the game in play, and the timers of the next automatic move."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.bots: dict[int, Bot] = {}  # engine player -> the bot that plays it
        #: When (time.time()) the person to move runs out of time (None: no timer runs).
        self.deadline: float | None = None
        #: Until when (time.time()) the last round's reveal is being shown: no automatic move
        #: and no turn timer starts before.
        self.reveal_until = 0.0
        self._timer: Timer | None = None
        self._bot_turn: Timer | None = None

    def make_bot(self, level: str) -> Bot:
        return make_bot(level, random.Random(self.table.hall.dice.getrandbits(64)))

    def seat_bots(self) -> None:
        """A game begins (or is resumed): a bot for each engine player whose seat is a bot's."""
        table = self.table
        self.bots = {}
        for p, seat_index in enumerate(table.play.players):
            seat = table.seats[seat_index]
            if seat.kind is SeatKind.BOT:
                self.bots[p] = self.make_bot(seat.level or STAND_IN_LEVEL)

    def stand_in(self, player: int) -> None:
        """A bot plays for engine player ``player`` from now on (a kick, a deleted account)."""
        self.bots[player] = self.make_bot(STAND_IN_LEVEL)

    def taken_back(self, player: int) -> None:
        """The person of ``player`` plays again: their stand-in goes."""
        self.bots.pop(player, None)

    def revealed(self) -> None:
        """A round's dice were revealed: they are shown before anything automatic happens."""
        self.reveal_until = time.time() + self.table.settings.reveal_seconds

    def schedule(self) -> None:
        """Arrange the next automatic move: a bot's, or the timer of a human to move."""
        table = self.table
        for handle in (self._timer, self._bot_turn):
            if handle is not None:
                handle.cancel()
        self._timer = self._bot_turn = None
        self.deadline = None
        game = table.play.game
        if game is None or table.status is not TableStatus.PLAYING or game.is_over:
            return
        turn = len(game.history)
        mover = game.to_move
        automatic = self._automatic(mover)
        callers = table.rules.cruzado and any(p != mover for p in self.bots)
        # While the reveal is shown nothing automatic happens and no clock runs.
        pause = max(0.0, self.reveal_until - time.time())
        settings = table.settings
        if automatic is not None or callers:
            self._bot_turn = table.later(pause + settings.bot_seconds, self._bots_move, turn, 0)
        if automatic is None and settings.turn_seconds > 0:
            self.deadline = time.time() + pause + settings.turn_seconds
            self._timer = table.later(pause + settings.turn_seconds, self._timed_out, turn, 0)

    def stop(self) -> None:
        for handle in (self._timer, self._bot_turn):
            if handle is not None:
                handle.cancel()

    def _automatic(self, player: int) -> Bot | None:
        """The bot playing ``player`` now, if a bot plays that seat."""
        table = self.table
        seat = table.seats[table.play.players[player]]
        if player in self.bots:
            return self.bots[player]
        if seat.autoplay:
            bot = self.make_bot(STAND_IN_LEVEL)
            self.bots[player] = bot
            return bot
        return None

    def _current(self, turn: int) -> Game | None:
        """The game, if it is still in play at ``turn``."""
        table = self.table
        game = table.play.game
        if game is None or game.is_over or table.status is not TableStatus.PLAYING:
            return None
        return game if len(game.history) == turn else None

    async def _bots_move(self, turn: int, attempt: int) -> None:
        table = self.table
        async with table.lock:
            game = self._current(turn)
            if game is None:
                return
            mover = game.to_move
            chosen: tuple[int, Action] | None = None
            if table.rules.cruzado:
                for p, caller in self.bots.items():
                    if p != mover:
                        call = out_of_turn_call(caller, game.view(p))
                        if call is not None and table.play.problem(p, call) is None:
                            chosen = (p, call)
                            break
            bot = self._automatic(mover)
            if chosen is None and bot is not None:
                chosen = (mover, bot.choose(game.view(mover)))
            if chosen is None:  # a human is to move: their timer (if any) is already running
                return
            player, action = chosen
            # A human's seat a bot plays (after the grace period, or a kick) is a stand-in.
            stand_in = player in table.play.humans
            why = AutoWhy.STAND_IN if stand_in else None
            if not await table.saving.unasked(table.play.commit(player, action, why)):
                self._bot_turn = table.later(
                    retry_delay(attempt), self._bots_move, turn, attempt + 1
                )

    async def _timed_out(self, turn: int, attempt: int) -> None:
        table = self.table
        async with table.lock:
            game = self._current(turn)
            if game is None:
                return
            mover = game.to_move
            chooser = self.make_bot(STAND_IN_LEVEL)
            move = table.play.commit(mover, chooser.choose(game.view(mover)), AutoWhy.TIMER)
            if not await table.saving.unasked(move):
                self._timer = table.later(retry_delay(attempt), self._timed_out, turn, attempt + 1)
