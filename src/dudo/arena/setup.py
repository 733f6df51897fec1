"""What an arena run is asked to do (:class:`ArenaConfig`), the lineup of bots at the table,
the seeds, and the checked plan (:class:`ArenaPlan`) built before anything is played or
written."""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import platformdirs

from dudo.bots import make_bot
from dudo.bots.base import DECISION_TIMEOUT
from dudo.bots.match import MAX_ROUNDS
from dudo.engine.errors import DudoError, RulesError
from dudo.engine.rules import Rules, rules_from_settings
from dudo.engine.setup import Setup

#: Environment variable naming the program's data directory (arena runs go in ``arena/``).
HOME_ENV = "DUDO_HOME"


class ArenaError(DudoError):
    """Bad arena input (bots, options, output folder, Ray), found before anything is played."""


@dataclass(frozen=True)
class ArenaConfig:
    """An arena run as asked for: each ``dudo arena`` option once, with its type, default and
    help (a field's ``metadata``: ``help``, and ``flags``, ``metavar`` or ``argument`` where
    the command line shows it otherwise than by its name), from which the command line is
    built. Fields without help (``save``) are set from Python only.

    ``bots`` are bot specs for :func:`dudo.bots.make_bot`. ``players`` defaults to the
    number of bots; with fewer bots than players see :func:`lineup`. ``dice`` sets the
    rules' ``dice_per_player``. ``seed`` None draws one (kept in the result). ``workers``
    None uses every core. ``out`` None writes to a new folder under
    ``$DUDO_HOME/arena``; ``save`` False writes nothing. ``ray_address`` runs the games on
    that Ray cluster instead of local processes. ``common_deals`` plays pairs of games on the
    same dice (:mod:`dudo.arena.pairs`), ``baseline`` being the bot compared in the first's
    seat; ``bot_timeout`` is the seconds an outside program (``cmd:``) has per decision.
    """

    bots: tuple[str, ...] = field(
        metadata={
            "argument": True,
            "metavar": "BOT",
            "help": "Bot specs (random, easy, ..., caller, bluffer). With fewer bots than "
            "--players the first takes one seat and the others fill the rest in turn: "
            "`hard easy --players 4` is hard against three easy.",
        }
    )
    games: int = field(default=100, metadata={"help": "Games to play."})
    rules: str = field(
        default="dudo", metadata={"flags": ("--rules",), "help": "Preset: see `dudo rules`."}
    )
    settings: tuple[str, ...] = field(
        default=(), metadata={"flags": ("--set",), "help": "House rule OPTION=VALUE (repeatable)."}
    )
    players: int | None = field(
        default=None, metadata={"help": "Seats at the table (default: one per bot given)."}
    )
    dice: int | None = field(
        default=None, metadata={"help": "Dice per player (the rules' dice_per_player)."}
    )
    seed: int | None = field(
        default=None, metadata={"help": "Seed of the whole run (default: drawn and printed)."}
    )
    workers: int | None = field(
        default=None, metadata={"help": "Worker processes (default: one per core)."}
    )
    out: Path | None = field(
        default=None,
        metadata={
            "help": "Folder for records, summary.json and results.png "
            "(default: a new folder under $DUDO_HOME/arena)."
        },
    )
    save: bool = True
    ray_address: str | None = field(
        default=None,
        metadata={
            "flags": ("--ray",),
            "metavar": "ADDRESS",
            "help": "Play on this Ray cluster (needs the ray extra).",
        },
    )
    max_rounds: int = field(
        default=MAX_ROUNDS,
        metadata={"help": "Stop a game after this many rounds; it counts as unfinished."},
    )
    chart: bool = field(
        default=True, metadata={"flags": ("--chart/--no-chart",), "help": "Draw results.png."}
    )
    common_deals: bool = field(
        default=False,
        metadata={
            "flags": ("--common-deals",),
            "help": "Play games in pairs on the same dice and report the paired difference: "
            "heads-up the two bots swap seats; with more players give --baseline.",
        },
    )
    baseline: str | None = field(
        default=None,
        metadata={
            "metavar": "BOT",
            "help": "With --common-deals: the bot that takes the first bot's seat in the "
            "other game of each pair, against the same opponents on the same dice.",
        },
    )
    bot_timeout: float = field(
        default=DECISION_TIMEOUT,
        metadata={
            "metavar": "SECONDS",
            "help": "Seconds an outside bot (cmd:COMMAND) has for each decision; a late bot "
            "stops its game with an error.",
        },
    )


@dataclass(frozen=True)
class ArenaPlan:
    """A checked :class:`ArenaConfig`: everything a run needs, nothing yet played or written."""

    config: ArenaConfig
    rules: Rules
    preset: str
    lineup: tuple[str, ...]  # the bot of each seat in game 1; game n rotates it by n - 1
    bots: tuple[str, ...]  # the distinct bots, in lineup order (then the baseline)
    seed: int
    workers: int
    out: Path | None  # None: nothing is written
    baseline: str | None = None  # common deals against a baseline (see dudo.arena.pairs)

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def games(self) -> int:
        return self.config.games


def lineup(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot of each seat: the first bot takes one seat and the other bots fill the rest
    in turn (``hard easy`` for 4 players: hard, easy, easy, easy; ``a b c``: a, b, c, b).
    A single bot fills every seat. More bots than seats is an error."""
    if not bots:
        raise ArenaError("no bots given; name at least one, e.g. `dudo arena hard easy`")
    if players < 2:
        raise ArenaError(f"players: {players}; a game needs at least 2 players")
    if len(bots) > players:
        raise ArenaError(
            f"{len(bots)} bots for {players} players: give at most {players} bots or raise --players"
        )
    first, others = bots[0], list(bots[1:]) or [bots[0]]
    return (first, *(others[i % len(others)] for i in range(players - 1)))


def seats_of_game(lineup: Sequence[str], number: int) -> tuple[str, ...]:
    """The bot of each seat in game ``number`` (1, 2, ...): the lineup rotated by
    ``number - 1``, so that over each block of ``players`` games every lineup entry sits in
    every seat once."""
    n = len(lineup)
    shift = (number - 1) % n
    return tuple(lineup[(seat - shift) % n] for seat in range(n))


def chance_seed(seed: int, number: int, players: int) -> str:
    """The dice seed of game ``number``: shared by the ``players`` games of its rotation
    block, so each bot of the lineup gets the same dice (and seat roll) from each seat."""
    return f"dudo-arena:{seed}:{(number - 1) // players}"


def bot_seed(seed: int, number: int, seat: int) -> str:
    """The seed of the bot in ``seat`` of game ``number``."""
    return f"dudo-arena-bot:{seed}:{number}:{seat}"


def default_arena_dir(now: datetime | None = None) -> Path:
    """A new folder name for a run: ``$DUDO_HOME/arena/<timestamp>`` when ``DUDO_HOME`` is
    set and not empty, else ``arena/<timestamp>`` in the user's data directory for ``dudo``
    (a ``-2``, ``-3``, ... suffix when the name is taken)."""
    home = os.environ.get(HOME_ENV, "").strip()
    base = Path(home).expanduser() if home else Path(platformdirs.user_data_dir("dudo"))
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = base / "arena" / stamp
    suffix = 2
    while path.exists():
        path = base / "arena" / f"{stamp}-{suffix}"
        suffix += 1
    return path


def _check_bot(spec: str) -> None:
    """Build the bot once, so an unknown spec fails before any game (closing it again:
    an external program is started by building it)."""
    bot = make_bot(spec, random.Random(0))
    close = getattr(bot, "close", None)
    if callable(close):
        close()


def _check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise ArenaError(f"--out {out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()):
        raise ArenaError(f"--out {out} already holds files; choose a new or empty folder")


def _positive(name: str, value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ArenaError(f"{name}: {value!r} is not a positive whole number")


def plan(config: ArenaConfig) -> ArenaPlan:
    """Check ``config`` and settle its defaults; raise :class:`ArenaError` (or the engine's
    :class:`DudoError`) naming the first problem. Nothing is written."""
    _positive("--games", config.games)
    _positive("--players", config.players)
    _positive("--workers", config.workers)
    _positive("--max-rounds", config.max_rounds)
    timeout = config.bot_timeout
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout < 1e6:
        raise ArenaError(f"--bot-timeout: {timeout!r} is not a number of seconds above 0")
    specs = tuple(spec.strip() for spec in config.bots)
    if any(not spec for spec in specs):
        raise ArenaError("a bot spec is empty")
    settings = list(config.settings)
    if config.dice is not None:
        _positive("--dice", config.dice)
        settings.append(f"dice_per_player={config.dice}")
    try:
        rules = rules_from_settings(config.rules, settings)
    except RulesError as exc:
        if config.dice is not None and str(exc).startswith("pass_hands"):
            raise ArenaError(
                f"{exc}; with --dice {config.dice} add --set pass_hands=none"
            ) from None
        raise
    seats = lineup(specs, config.players if config.players is not None else len(specs))
    Setup(len(seats)).check(rules)  # the engine says whether these rules seat this many
    baseline = _check_pairing(config, seats)
    distinct = tuple(dict.fromkeys((*seats, baseline) if baseline is not None else seats))
    for spec in distinct:
        _check_bot(spec)
    if config.seed is not None and (isinstance(config.seed, bool) or config.seed < 0):
        raise ArenaError(f"--seed: {config.seed!r} is not a whole number 0 or more")
    seed = config.seed if config.seed is not None else secrets.randbelow(10**9)
    out: Path | None = None
    if config.save:
        out = config.out if config.out is not None else default_arena_dir()
        _check_out(out)
    return ArenaPlan(
        config=config,
        rules=rules,
        preset=config.rules.strip().lower(),
        lineup=seats,
        bots=distinct,
        seed=seed,
        workers=config.workers if config.workers is not None else (os.cpu_count() or 1),
        out=out,
        baseline=baseline,
    )


def _check_pairing(config: ArenaConfig, seats: tuple[str, ...]) -> str | None:
    """The checked ``--baseline`` (None: none or not given), or why the run cannot be
    played in pairs on common deals."""
    baseline = config.baseline.strip() if config.baseline is not None else None
    if not config.common_deals:
        if baseline is not None:
            raise ArenaError("--baseline compares bots on common deals: add --common-deals")
        return None
    if baseline == "":
        raise ArenaError("--baseline is empty; name a bot, e.g. --baseline medium")
    if config.games % 2:
        raise ArenaError(
            f"--games {config.games}: --common-deals plays games in pairs on the same dice;"
            " give an even number"
        )
    if baseline is None and len(seats) != 2:
        raise ArenaError(
            f"--common-deals with {len(seats)} players needs --baseline BOT: the first bot"
            f" ({seats[0]}) and the baseline take turns in one seat against the same"
            " opponents (e.g. --baseline medium); without it, pairs swap the seats of two"
            " bots heads-up"
        )
    return baseline
