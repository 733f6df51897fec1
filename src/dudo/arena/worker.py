"""Playing arena games where the work is done (a local worker process or a Ray task): a
chunk of games in, compact picklable outcomes out, each with its game record."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dudo.arena.deals import DealChance
from dudo.arena.pairs import deal_key, pair_of, pair_seats
from dudo.arena.setup import bot_seed, chance_seed, seats_of_game
from dudo.bots import Bot, is_outside_bot, make_bot
from dudo.bots.base import DECISION_TIMEOUT
from dudo.bots.external import ExternalBot
from dudo.bots.match import MatchResult, Timings, play_game
from dudo.engine.events import Eliminated
from dudo.engine.game import Game
from dudo.engine.rules import from_mapping
from dudo.records import PlayerInfo, record_of


class ArenaGameError(Exception):
    """A game could not be played (a bot failed); the message names the game and the bot."""


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """Games ``first``..``last`` (inclusive) of a run. Rules travel as their option values."""

    rules: dict[str, Any]
    preset: str
    lineup: tuple[str, ...]
    seed: int
    first: int
    last: int
    max_rounds: int
    common_deals: bool = False  # games in pairs on the same dice (dudo.arena.pairs)
    baseline: str | None = None
    bot_timeout: float = DECISION_TIMEOUT  # seconds an outside program (cmd:) has per decision


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One arena game, played.

    ``ranks[seat]`` is the finishing place (1 = the winner, then the players in reverse
    order of elimination); ``winner`` and ``ranks`` are None for a game stopped at the
    round cap. ``decision_seconds[seat]`` lists how long that seat's bot took per decision.
    """

    number: int
    seats: tuple[str, ...]
    winner: int | None
    ranks: tuple[int, ...] | None
    rounds: int
    decision_seconds: tuple[tuple[float, ...], ...]
    record: dict[str, Any]
    #: Each seat's bot by its own name: the spec, or the name an outside program (cmd:)
    #: gave in its hello.
    names: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def summary(self) -> dict[str, Any]:
        """The game as JSON data, without the record and the timings."""
        return {
            "game": self.number,
            "seats": list(self.seats),
            "finished": self.finished,
            "winner": self.winner,
            "winner_bot": None if self.winner is None else self.seats[self.winner],
            "ranks": None if self.ranks is None else list(self.ranks),
            "rounds": self.rounds,
            "decisions": [len(times) for times in self.decision_seconds],
        }


def finishing_ranks(game: Game) -> tuple[int, ...] | None:
    """Each seat's place in a finished game: the winner 1, the last player eliminated 2, and
    so on (one player loses per round, so places never tie). None if not finished."""
    if game.winner is None:
        return None
    ranks = [0] * game.players
    ranks[game.winner] = 1
    out = [e.player for e in game.events if isinstance(e, Eliminated)]
    for place, player in enumerate(reversed(out), start=2):
        ranks[player] = place
    return tuple(ranks)


def _close(bots: Sequence[Bot]) -> None:
    for bot in bots:
        close = getattr(bot, "close", None)
        if callable(close):
            close()


class Sessions:
    """Outside programs (``cmd:`` bots) kept running from one game to the next, so that a
    program that loads a model at its start pays for it once, not every game. In each game
    the k-th seat holding a spec plays through that spec's k-th program (the protocol lets
    one session cover several games)."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.running: dict[tuple[str, int], Bot] = {}

    def bot(self, spec: str, copy: int, rng: random.Random) -> Bot:
        key = (spec, copy)
        bot = self.running.get(key)
        if bot is None:
            bot = self.running[key] = make_bot(spec, rng, timeout=self.timeout)
        return bot

    def close(self) -> None:
        bots, self.running = list(self.running.values()), {}
        _close(bots)


def _play(
    task: ChunkTask,
    number: int,
    seats: Sequence[str],
    game: Game,
    timings: Timings,
    sessions: Sessions | None = None,
) -> tuple[MatchResult, tuple[str, ...]]:
    """Play ``game`` with the bots of ``seats``; the result and each bot's own name. Outside
    programs come from ``sessions`` when given (and stay running), else start for this game."""
    bots: list[Bot] = []
    kept: set[int] = set()  # seats whose bot belongs to the sessions
    try:
        copies: dict[str, int] = {}
        for seat, spec in enumerate(seats):
            rng = random.Random(bot_seed(task.seed, number, seat))
            if sessions is not None and is_outside_bot(spec):
                copies[spec] = copies.get(spec, 0) + 1
                bots.append(sessions.bot(spec, copies[spec], rng))
                kept.add(seat)
            else:
                bots.append(make_bot(spec, rng, timeout=task.bot_timeout))
        names = tuple(
            bot.name if isinstance(bot, ExternalBot) else spec
            for bot, spec in zip(bots, seats, strict=True)
        )
        return play_game(game, bots, max_rounds=task.max_rounds, on_decision=timings), names
    except Exception as exc:  # a bot failed: say which game, keep it picklable
        which = f"game {number}" if number else "the warm-up game"
        raise ArenaGameError(f"{which}: {type(exc).__name__}: {exc}") from None
    finally:
        _close([bot for seat, bot in enumerate(bots) if seat not in kept])


#: The runs (rules and lineup) this process has warmed up for.
_warmed: set[str] = set()


def warm_up(task: ChunkTask, sessions: Sessions | None = None) -> None:
    """Play one uncounted game (number 0) with the lineup, once per process and run, so that
    the decision times measured afterwards do not include filling caches (bid tables,
    imports, a bot's precomputation)."""
    key = json.dumps([task.rules, task.lineup, task.seed, task.baseline], sort_keys=True)
    if key in _warmed:
        return
    players = len(task.lineup)
    game = Game(from_mapping(task.rules), players, seed=f"dudo-arena-warm-up:{task.seed}")
    _play(task, 0, task.lineup, game, Timings(), sessions)
    if task.baseline is not None:  # the baseline plays too: warm it up the same way
        game = Game(from_mapping(task.rules), players, seed=f"dudo-arena-warm-up:{task.seed}")
        _play(task, 0, (task.baseline, *task.lineup[1:]), game, Timings(), sessions)
    _warmed.add(key)


def play_one(task: ChunkTask, number: int, sessions: Sessions | None = None) -> GameOutcome:
    """Play game ``number`` of the run ``task`` belongs to (outside programs from
    ``sessions`` when given)."""
    rules = from_mapping(task.rules)
    meta: dict[str, Any] = {}
    if task.common_deals:
        seats = pair_seats(task.lineup, task.baseline, number)
        players = len(seats)
        deals = DealChance(deal_key(task.seed, number))
        game = Game(rules, players, chance=deals)
        deals.attach(game)
        pair, which = pair_of(number)
        meta = {"pair": pair, "pair_game": which}
    else:
        seats = seats_of_game(task.lineup, number)
        players = len(seats)
        game = Game(rules, players, seed=chance_seed(task.seed, number, players))
    timings = Timings()
    result, own_names = _play(task, number, seats, game, timings, sessions)
    record = record_of(
        game,
        players=[
            PlayerInfo(name, "bot", bot=spec)
            for name, spec in zip(_seat_names(own_names), seats, strict=True)
        ],
        meta={
            "program": "dudo arena",
            "game": number,
            "seed": task.seed,
            "status": "finished" if result.finished else "stopped at the round cap",
            **meta,
        },
        preset=task.preset,
    )
    return GameOutcome(
        number=number,
        seats=seats,
        winner=result.winner,
        ranks=finishing_ranks(game),
        rounds=game.round_number,
        decision_seconds=tuple(tuple(timings.by_seat.get(s, ())) for s in range(players)),
        record=record,
        names=own_names,
    )


def _seat_names(names: Sequence[str]) -> list[str]:
    """Display names: the bots' own names, numbered when several seats share one."""
    total = {name: names.count(name) for name in names}
    seen: dict[str, int] = {}
    shown = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        shown.append(name if total[name] == 1 else f"{name} {seen[name]}")
    return shown


def play_chunk(task: ChunkTask) -> list[GameOutcome]:
    """Play the games of ``task`` in order (the unit of work of a worker or Ray task),
    after this process's warm-up game, each outside program running through all of them."""
    sessions = Sessions(task.bot_timeout)
    try:
        warm_up(task, sessions)
        return [play_one(task, n, sessions) for n in range(task.first, task.last + 1)]
    finally:
        sessions.close()
