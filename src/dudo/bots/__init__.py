"""Computer players. A bot sees only the engine's view for its seat and returns one of the
legal actions in it.

Every bot implements :class:`Bot` (``name`` and ``choose(view)``); the ones here also answer
``wants_out_of_turn_call(view)`` for out-of-turn calls under ``cruzado``
(:class:`OutOfTurnCaller`, :func:`out_of_turn_call`). A bot draws its randomness from the
``random.Random`` it is built with, so a seeded game between bots replays exactly.
:func:`make_bot` builds a bot by level name, weakest first: ``random``, ``easy`` (alias
``probability``: :class:`ProbabilityBot`, exact odds on fair dice), ``medium``
(:class:`~dudo.bots.medium.MediumBot`: the same decisions on beliefs inferred from the bids,
:mod:`dudo.bots.beliefs`), ``hard`` (alias ``solver``: :class:`~dudo.bots.hard.HardBot`, a
solver book's equilibrium where one applies, decision-time search on those beliefs with three
or more players, :mod:`dudo.bots.search`, else a one-round lookahead on them);
the sparring partners ``caller`` (doubts far more readily than the odds warrant) and
``bluffer`` (bids well above its dice, on faces it does not hold, and calls rarely):
:mod:`dudo.bots.sparring`, arena and terminal opponents to check constants against, not
server table levels (:data:`SPARRING_BOTS`, apart from :data:`BOT_NAMES`);
or ``cmd:COMMAND`` for an outside program speaking the JSON-lines protocol
(:mod:`dudo.bots.protocol`). The numpy-based levels are imported on first use. The built-in
bots also say how they play: ``policy(view)`` gives the probability of every action
``choose`` may return (:class:`PolicyBot`, :func:`policy_of`), which exact exploitability
reads (:mod:`dudo.exploit`).
:mod:`dudo.bots.match` is the loop that lets bots play a game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from dudo.bots.base import Bot, OutOfTurnCaller, PolicyBot, out_of_turn_call, policy_of
from dudo.bots.probability import ProbabilityBot
from dudo.bots.random_bot import RandomBot
from dudo.engine.errors import DudoError

__all__ = [
    "BOT_ALIASES",
    "BOT_NAMES",
    "SPARRING_BOTS",
    "Bot",
    "OutOfTurnCaller",
    "PolicyBot",
    "ProbabilityBot",
    "RandomBot",
    "is_outside_bot",
    "make_adviser",
    "make_bot",
    "out_of_turn_call",
    "policy_of",
]


def _medium_bot(rng: random.Random) -> Bot:
    from dudo.bots.medium import MediumBot

    return MediumBot(rng)


def _hard_bot(rng: random.Random) -> Bot:
    from dudo.bots.hard import HardBot

    return HardBot(rng)


def _caller_bot(rng: random.Random) -> Bot:
    from dudo.bots.sparring import CallerBot

    return CallerBot(rng)


def _bluffer_bot(rng: random.Random) -> Bot:
    from dudo.bots.sparring import BlufferBot

    return BlufferBot(rng)


_LEVELS: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "easy": ProbabilityBot,
    "medium": _medium_bot,
    "hard": _hard_bot,
}

_SPARRING: dict[str, Callable[[random.Random], Bot]] = {
    "caller": _caller_bot,
    "bluffer": _bluffer_bot,
}

_FACTORIES = {**_LEVELS, **_SPARRING}

BOT_NAMES: tuple[str, ...] = tuple(_LEVELS)
"""The bot levels, weakest first (the levels a server table offers and rates)."""

SPARRING_BOTS: tuple[str, ...] = tuple(_SPARRING)
"""Bots of a deliberate, exploitable style, for the arena and the terminal: not levels."""

BOT_ALIASES: dict[str, str] = {"probability": "easy", "solver": "hard"}
"""Other names accepted by :func:`make_bot`."""


def is_outside_bot(name: str) -> bool:
    """Is ``name`` a ``cmd:COMMAND`` spec, a bot played by an outside program?"""
    return isinstance(name, str) and name.strip()[:4].lower() == "cmd:"


def make_bot(name: str, rng: random.Random, *, timeout: float | None = None) -> Bot:
    """A new bot of level ``name`` drawing its randomness from ``rng``.

    ``cmd:COMMAND ARGS`` (split like a shell would, ``NAME=value`` settings first allowed:
    :func:`~dudo.bots.external.split_command`) is a bot played by that program through
    the JSON-lines protocol (:class:`~dudo.bots.external.ExternalBot`, ``docs/bot-protocol.md``),
    which has ``timeout`` seconds for each decision (None: the driver's default).
    An unknown name raises :class:`DudoError` listing the available bots.
    """
    if is_outside_bot(name):
        from dudo.bots.external import ExternalBot

        command = name.strip()[4:].strip()
        if not command:
            raise DudoError("cmd: needs a command to run, e.g. cmd:python3 my_bot.py")
        # An ExternalBotError (a DudoError) says what went wrong.
        if timeout is None:
            return ExternalBot(command)
        return ExternalBot(command, timeout=timeout)
    key = name.strip().lower() if isinstance(name, str) else ""
    key = BOT_ALIASES.get(key, key)
    factory = _FACTORIES.get(key)
    if factory is None:
        names = ", ".join(BOT_NAMES + SPARRING_BOTS)
        aliases = ", ".join(f"{alias} = {target}" for alias, target in BOT_ALIASES.items())
        raise DudoError(
            f"unknown bot {name!r}; available bots: {names} (aliases: {aliases}),"
            " or cmd:COMMAND for a program speaking the bot protocol"
        )
    return factory(rng)


def make_adviser(name: str, rng: random.Random) -> Bot:
    """A bot of level ``name`` to advise a player (hints, reviews): as :func:`make_bot`, but
    ``hard`` searches without a time budget, so the same view and generator always get the
    same advice, however busy the machine is."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if BOT_ALIASES.get(key, key) == "hard":
        from dudo.bots.hard import HardBot

        return HardBot(rng, budget=math.inf)
    return make_bot(name, rng)
