"""The arena: many games between bots, to measure how strong and how fast they are.

It owns the lineup at the table and its seat rotation, the seeding of a run, playing chunks
of games in local worker processes or as Ray tasks (:mod:`.worker`, :mod:`.run`), the
records and summary written for a run, and its numbers: win rates with Wilson intervals,
openskill ratings and decision latency (:mod:`.stats`), the chart (:mod:`.chart`) and the
``dudo arena`` command (:mod:`.command`). With ``common_deals`` (``--common-deals``) games
come in pairs on the same dice (:mod:`.pairs`: who sits where, the paired difference and
its interval; :mod:`.deals`: the chance source keyed by pair, round, seat and re-roll). Games are played by
:func:`dudo.bots.match.play_game`; the rules are the engine's.

From Python::

    from dudo.arena import ArenaConfig, run_arena

    result = run_arena(ArenaConfig(bots=("hard", "easy"), players=4, games=1000, save=False))
    result.bot("hard").win_rate, result.bot("hard").latency.p99

Local workers are started with multiprocessing's ``spawn``: a script that calls
:func:`run_arena` with more than one worker needs the ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dudo.arena.run import ArenaResult, BotResult, record_path, run_arena, run_plan, summarize
    from dudo.arena.setup import (
        ArenaConfig,
        ArenaError,
        ArenaPlan,
        default_arena_dir,
        lineup,
        plan,
        seats_of_game,
    )
    from dudo.arena.stats import (
        LatencyStats,
        Rating,
        latency_stats,
        rate_games,
        wilson_interval,
    )
    from dudo.arena.worker import ArenaGameError, GameOutcome, finishing_ranks


def __getattr__(name: str) -> Any:
    # The names are imported when first used, so that the command line can read
    # ArenaConfig (the options of ``dudo arena``) without loading the run and its workers.
    if name in __all__:
        for module in ("setup", "stats", "worker", "run"):
            found = importlib.import_module(f"{__name__}.{module}")
            if hasattr(found, name):
                return getattr(found, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaGameError",
    "ArenaPlan",
    "ArenaResult",
    "BotResult",
    "GameOutcome",
    "LatencyStats",
    "Rating",
    "default_arena_dir",
    "finishing_ranks",
    "latency_stats",
    "lineup",
    "plan",
    "rate_games",
    "record_path",
    "run_arena",
    "run_plan",
    "seats_of_game",
    "summarize",
    "wilson_interval",
]
