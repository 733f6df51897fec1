"""Bots playing games: the one loop that lets bots act in a :class:`~dudo.engine.Game`.

Everything that runs bots without a person (the arena, the research environments, tests,
benchmarks) drives them through :func:`advance` or :func:`play_game`, so out-of-turn calls,
round caps and timing are handled the same way everywhere. A bot only ever gets
``game.view(seat)``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from dudo.bots.base import Bot, out_of_turn_call
from dudo.engine.actions import Action
from dudo.engine.errors import DudoError
from dudo.engine.game import Game

#: A game with more rounds than this is stopped unfinished. Real games end far sooner (each
#: round but a cancelled one costs a die); the cap stops house rules under which two bots
#: could cancel rounds for ever.
MAX_ROUNDS = 1000

#: Called after each bot decision with (seat, action, seconds the bot took).
DecisionHook = Callable[[int, Action, float], None]


class IllegalBotAction(DudoError):
    """A bot answered with an action the engine refused."""


@dataclass
class Timings:
    """Seconds each seat's bot took per decision, in order."""

    by_seat: dict[int, list[float]] = field(default_factory=dict)

    def __call__(self, seat: int, action: Action, seconds: float) -> None:
        self.by_seat.setdefault(seat, []).append(seconds)


def _decide(bot: Bot, game: Game, seat: int, hook: DecisionHook | None) -> Action:
    view = game.view(seat)
    start = time.perf_counter()
    action = bot.choose(view)
    took = time.perf_counter() - start
    if action not in view.legal_actions:
        raise IllegalBotAction(
            f"bot {bot.name!r} in seat {seat} chose {action}, which is not legal now"
            f" ({game.problem(action) or 'not among the legal actions'})"
        )
    if hook is not None:
        hook(seat, action, took)
    return action


def _out_of_turn(game: Game, bots: Mapping[int, Bot]) -> tuple[int, Action] | None:
    """The first bot (in seat order) that calls out of turn now, under ``cruzado``."""
    if not game.rules.cruzado or game.bid is None:
        return None
    mover = game.to_move
    for seat, bot in sorted(bots.items()):
        if seat == mover:
            continue
        call = out_of_turn_call(bot, game.view(seat))
        if call is not None and game.problem(call) is None:
            return seat, call
    return None


def advance(
    game: Game,
    bots: Mapping[int, Bot],
    *,
    max_rounds: int = MAX_ROUNDS,
    on_decision: DecisionHook | None = None,
) -> bool:
    """Let the bots in ``bots`` (seat → bot) act until a seat without a bot is to move, the
    game is over, or it reaches ``max_rounds`` rounds. Returns True if the game can go on
    (a seat without a bot is to move)."""
    while not game.is_over and game.round_number <= max_rounds:
        early = _out_of_turn(game, bots)
        if early is not None:
            game.push(early[1])
            continue
        mover = game.to_move
        if mover is None:  # pragma: no cover - a game that is not over has a mover
            raise DudoError("the game has no player to move")
        bot = bots.get(mover)
        if bot is None:
            return True
        game.push(_decide(bot, game, mover, on_decision))
    return False


@dataclass(frozen=True)
class MatchResult:
    """A finished (or capped) game between bots."""

    game: Game
    winner: int | None  # None: stopped at the round cap

    @property
    def finished(self) -> bool:
        return self.winner is not None


def play_game(
    game: Game,
    bots: Sequence[Bot],
    *,
    max_rounds: int = MAX_ROUNDS,
    on_decision: DecisionHook | None = None,
) -> MatchResult:
    """Play ``game`` to its end with ``bots[seat]`` in every seat."""
    if len(bots) != game.players:
        raise DudoError(f"{len(bots)} bots for a game of {game.players} players")
    advance(game, dict(enumerate(bots)), max_rounds=max_rounds, on_decision=on_decision)
    return MatchResult(game, game.winner)
