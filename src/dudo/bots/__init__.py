"""Computer players. A bot sees only the engine's view for its seat and returns one of the
legal actions in it.

Every bot implements :class:`Bot` (``name`` and ``choose(view)``); the ones here also answer
``wants_out_of_turn_call(view)`` for out-of-turn calls under ``cruzado``
(:class:`OutOfTurnCaller`, :func:`out_of_turn_call`). A bot draws its randomness from the
``random.Random`` it is built with, so a seeded game between bots replays exactly.

Bot classes and modules are named by how they play (:data:`METHODS`): ``random``
(:class:`RandomBot`), ``probability`` (:class:`ProbabilityBot`, exact odds on fair dice),
``inferring`` (:mod:`dudo.bots.inferring`: the same decisions on beliefs inferred from the
bids, :mod:`dudo.bots.beliefs`), ``lookahead`` (:mod:`dudo.bots.lookahead`: one round ahead
on those beliefs), ``search`` (:mod:`dudo.bots.search`: decision-time search on sampled
deals with three or more players, else the lookahead), ``book`` (:mod:`dudo.bots.book`: a
solver book's equilibrium where one applies, else its fallback) and the sparring styles
``caller`` and ``bluffer`` (:mod:`dudo.bots.sparring`).

Players choose a level, and :data:`LEVELS` says what each plays, weakest first: ``random``,
``easy`` (alias ``probability``), ``medium``, ``hard`` (alias ``solver``: the book, with the
search behind it). A bot built for a level carries the level's name, which is what results,
records, seats and the bot protocol show. The sparring partners (:data:`SPARRING_BOTS`:
``caller`` doubts far more readily than the odds warrant, ``bluffer`` bids well above its
dice and calls rarely) are arena and terminal opponents to check constants against, not
server table levels. :func:`make_bot` builds either by name, or ``cmd:COMMAND`` for an
outside program speaking the JSON-lines protocol (:mod:`dudo.bots.protocol`). The
numpy-based methods are imported on first use. The built-in bots also say how they play:
``policy(view)`` gives the probability of every action ``choose`` may return
(:class:`PolicyBot`, :func:`policy_of`), which exact exploitability reads
(:mod:`dudo.exploit`). :mod:`dudo.bots.match` is the loop that lets bots play a game.
:mod:`dudo.bots.opponent` judges an opponent's revealed answers, for the book player's
``exploit`` option (heads-up: lean toward the fallback as far as the opponent looks
exploitable).
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from dudo.bots.base import Bot, OutOfTurnCaller, PolicyBot, out_of_turn_call, policy_of
from dudo.bots.probability import ProbabilityBot
from dudo.bots.random_bot import RandomBot
from dudo.engine.errors import DudoError

__all__ = [
    "BOT_ALIASES",
    "BOT_NAMES",
    "LEVELS",
    "METHODS",
    "SPARRING_BOTS",
    "Bot",
    "Method",
    "OutOfTurnCaller",
    "PolicyBot",
    "ProbabilityBot",
    "RandomBot",
    "build",
    "is_outside_bot",
    "make_adviser",
    "make_bot",
    "out_of_turn_call",
    "policy_of",
]

METHODS: dict[str, str] = {
    "random": "dudo.bots.random_bot:RandomBot",
    "probability": "dudo.bots.probability:ProbabilityBot",
    "inferring": "dudo.bots.inferring:InferringBot",
    "lookahead": "dudo.bots.lookahead:LookaheadBot",
    "search": "dudo.bots.search:SearchBot",
    "book": "dudo.bots.book:BookBot",
    "caller": "dudo.bots.sparring:CallerBot",
    "bluffer": "dudo.bots.sparring:BlufferBot",
}
"""Each way of playing and its bot class (``module:Class``, imported when first built); the
class's ``name`` is the method's."""


@dataclass(frozen=True)
class Method:
    """A configured bot: the method it plays (a key of :data:`METHODS`), the keyword
    arguments its class is built with, and the bot it leaves what it does not cover to
    (built on the same generator and passed as ``fallback``)."""

    name: str
    params: Mapping[str, object] = field(default_factory=dict)
    fallback: Method | None = None


LEVELS: dict[str, Method] = {
    "random": Method("random"),
    "easy": Method("probability"),
    "medium": Method("inferring"),
    "hard": Method("book", fallback=Method("search")),
}
"""The bot levels, weakest first (the levels a server table offers and rates), and what each
plays."""

_SPARRING: dict[str, Method] = {"caller": Method("caller"), "bluffer": Method("bluffer")}

BOT_NAMES: tuple[str, ...] = tuple(LEVELS)
"""The bot levels, weakest first."""

SPARRING_BOTS: tuple[str, ...] = tuple(_SPARRING)
"""Bots of a deliberate, exploitable style, for the arena and the terminal: not levels."""

BOT_ALIASES: dict[str, str] = {"probability": "easy", "solver": "hard"}
"""Other names accepted by :func:`make_bot`."""

#: Methods with a time budget for each decision (``budget``, in seconds).
_TIMED = frozenset({"search"})


def build(method: Method, rng: random.Random) -> Bot:
    """A new bot playing ``method``, drawing its randomness from ``rng``; its ``name`` is the
    method's (:func:`make_bot` names it after the level)."""
    module, _, attribute = METHODS[method.name].partition(":")
    bot_class: Callable[..., Bot] = getattr(importlib.import_module(module), attribute)
    params = dict(method.params)
    if method.fallback is not None:
        params["fallback"] = build(method.fallback, rng)
    return bot_class(rng, **params)


def _untimed(method: Method) -> Method:
    """``method`` with no time budget anywhere in it: its choices then depend only on the
    view and the generator, however busy the machine is."""
    params = {**method.params, "budget": math.inf} if method.name in _TIMED else method.params
    fallback = None if method.fallback is None else _untimed(method.fallback)
    return replace(method, params=params, fallback=fallback)


def is_outside_bot(name: str) -> bool:
    """Is ``name`` a ``cmd:COMMAND`` spec, a bot played by an outside program?"""
    return isinstance(name, str) and name.strip()[:4].lower() == "cmd:"


def _level(name: str) -> tuple[str, Method]:
    """The level (or sparring bot) ``name`` stands for, aliases resolved, and what it plays;
    a :class:`DudoError` listing the bots for an unknown name."""
    key = name.strip().lower() if isinstance(name, str) else ""
    key = BOT_ALIASES.get(key, key)
    method = LEVELS.get(key) or _SPARRING.get(key)
    if method is None:
        names = ", ".join(BOT_NAMES + SPARRING_BOTS)
        aliases = ", ".join(f"{alias} = {target}" for alias, target in BOT_ALIASES.items())
        raise DudoError(
            f"unknown bot {name!r}; available bots: {names} (aliases: {aliases}),"
            " or cmd:COMMAND for a program speaking the bot protocol"
        )
    return key, method


def _named(bot: Bot, level: str) -> Bot:
    bot.name = level  # what players see and records keep is the level, not the method
    return bot


def make_bot(name: str, rng: random.Random, *, timeout: float | None = None) -> Bot:
    """A new bot of level ``name`` (or a sparring bot) drawing its randomness from ``rng``,
    named after the level.

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
    level, method = _level(name)
    return _named(build(method, rng), level)


def make_adviser(name: str, rng: random.Random) -> Bot:
    """A bot of level ``name`` to advise a player (hints, reviews): as :func:`make_bot`, but
    without a time budget (``hard`` searches all its samples), so the same view and
    generator always get the same advice, however busy the machine is."""
    if is_outside_bot(name):
        return make_bot(name, rng)
    level, method = _level(name)
    return _named(build(_untimed(method), rng), level)
