"""Running an arena: chunks of games on local worker processes or a Ray cluster, records and
the summary written as results come in, and the per-bot results (:class:`ArenaResult`)."""

from __future__ import annotations

import contextlib
import json
import logging
import math
import multiprocessing
import os
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dudo.arena.chart import chart_missing
from dudo.arena.pairs import PAIRING_NOTE, PairedResult, paired_result
from dudo.arena.setup import ArenaConfig, ArenaError, ArenaPlan, plan
from dudo.arena.stats import LatencyStats, Rating, latency_stats, rate_games, wilson_interval
from dudo.arena.worker import ArenaGameError, ChunkTask, GameOutcome, play_chunk
from dudo.engine.errors import DudoError
from dudo.records import parse_record, write_record

#: Called as games complete, with (games done, games asked for).
ProgressHook = Callable[[int, int], None]

#: Most games in one chunk of work: small enough for a smooth progress bar and little lost
#: work on Ctrl-C, large enough that handing out chunks costs nothing next to playing them.
MAX_CHUNK = 50

RAY_MISSING = "install the ray extra: pip install 'dudo[ray]'"

SEATING_NOTE = (
    "Game n seats the lineup rotated by n - 1, and the games of each block of `players` "
    "games share one dice seed: every lineup entry gets the same seat roll and dice from "
    "every seat, so seat order and luck of the deal even out. Games in a block are "
    "negatively correlated for a bot, which makes the binomial 95% intervals conservative."
)


@dataclass(frozen=True, slots=True)
class BotResult:
    """The numbers of one bot spec over a run (its copies at the table pooled).

    ``wins`` counts finished games won by any of its ``copies``; ``equal_share`` is the win
    rate it would have if every seat were equally strong (copies / players).
    ``seat_games[s]``/``seat_wins[s]``: games it sat in seat ``s`` and won from there.
    ``mean_place`` averages the finishing place of its seats (equal strength: (players+1)/2).
    ``latency``: wall-clock seconds per decision, after each worker's uncounted warm-up game
    (on a machine busier than its cores, the tail includes waiting for a core).
    """

    bot: str
    copies: int
    games: int
    finished: int
    wins: int
    win_rate: float | None
    ci_low: float
    ci_high: float
    equal_share: float
    mean_place: float | None
    seat_games: tuple[int, ...]
    seat_wins: tuple[int, ...]
    rating: Rating
    latency: LatencyStats
    #: The bot's own name: the spec, or the name an outside program (cmd:) gave itself.
    name: str = ""

    @property
    def label(self) -> str:
        """How results show the bot: its spec, after its own name when that differs."""
        return self.bot if self.name in ("", self.bot) else f"{self.name} ({self.bot})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "name": self.name or self.bot,
            "copies": self.copies,
            "games": self.games,
            "finished": self.finished,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [self.ci_low, self.ci_high],
            "equal_share": self.equal_share,
            "mean_place": self.mean_place,
            "seat_games": list(self.seat_games),
            "seat_wins": list(self.seat_wins),
            "rating": self.rating.to_dict(),
            "latency_seconds": self.latency.to_dict(),
        }


@dataclass(frozen=True)
class ArenaResult:
    """What a run played and found. ``outcomes`` are in game order; a run stopped early
    (``interrupted`` by Ctrl-C, or ``error`` when a game failed) holds the games done."""

    plan: ArenaPlan
    outcomes: tuple[GameOutcome, ...]
    bots: tuple[BotResult, ...]
    interrupted: bool
    error: str | None
    seconds: float
    summary_path: Path | None
    chart_path: Path | None
    paired: PairedResult | None = None  # with --common-deals
    chart_note: str | None = None  # why no chart was drawn though one was asked for

    @property
    def unfinished(self) -> tuple[int, ...]:
        """Numbers of the games stopped at the round cap."""
        return tuple(o.number for o in self.outcomes if not o.finished)

    def bot(self, spec: str) -> BotResult:
        for result in self.bots:
            if result.bot == spec:
                return result
        raise KeyError(spec)

    def to_dict(self) -> dict[str, Any]:
        """Every number of the run as JSON data (what ``summary.json`` holds)."""
        p, config = self.plan, self.plan.config
        return {
            "program": "dudo arena",
            "bots": list(p.bots),
            "lineup": list(p.lineup),
            "players": p.players,
            "preset": p.preset,
            "settings": list(config.settings),
            "dice": config.dice,
            "rules": p.rules.to_dict(),
            "seed": p.seed,
            "games_requested": p.games,
            "games_played": len(self.outcomes),
            "games_finished": len(self.outcomes) - len(self.unfinished),
            "unfinished_games": list(self.unfinished),
            "max_rounds": config.max_rounds,
            "interrupted": self.interrupted,
            "error": self.error,
            "seconds": self.seconds,
            "workers": p.workers,
            "ray_address": config.ray_address,
            "seating": PAIRING_NOTE if config.common_deals else SEATING_NOTE,
            "results": [b.to_dict() for b in self.bots],
            "common_deals": None if self.paired is None else self.paired.to_dict(),
            "games": [o.summary() for o in self.outcomes],
        }


def summarize(plan: ArenaPlan, outcomes: Sequence[GameOutcome]) -> tuple[BotResult, ...]:
    """The per-bot results of ``outcomes`` (in game order: ratings depend on it). A bot's
    numbers count the games it sits in: all of them, except a bot that sits out half the
    games of a common-deals run (the first bot or the baseline)."""
    ratings = rate_games(plan.bots, ((o.seats, o.ranks or ()) for o in outcomes if o.finished))
    players = plan.players
    results = []
    for spec in plan.bots:
        played = [o for o in outcomes if spec in o.seats]
        finished = [o for o in played if o.finished]
        seats_held = sum(o.seats.count(spec) for o in finished)
        wins = sum(1 for o in finished if o.winner is not None and o.seats[o.winner] == spec)
        places = [
            o.ranks[seat]
            for o in finished
            if o.ranks is not None
            for seat, s in enumerate(o.seats)
            if s == spec
        ]
        times = (
            t
            for o in outcomes
            for seat, s in enumerate(o.seats)
            if s == spec
            for t in o.decision_seconds[seat]
        )
        low, high = wilson_interval(wins, len(finished))
        results.append(
            BotResult(
                bot=spec,
                copies=max((o.seats.count(spec) for o in played), default=plan.lineup.count(spec)),
                games=len(played),
                finished=len(finished),
                wins=wins,
                win_rate=wins / len(finished) if finished else None,
                ci_low=low,
                ci_high=high,
                # exact ratio of integers: for a plain run it is lineup copies / players
                equal_share=(
                    seats_held / (players * len(finished))
                    if finished
                    else plan.lineup.count(spec) / players
                ),
                mean_place=sum(places) / len(places) if places else None,
                seat_games=tuple(
                    sum(1 for o in outcomes if o.seats[seat] == spec) for seat in range(players)
                ),
                seat_wins=tuple(
                    sum(1 for o in finished if o.winner == seat and o.seats[seat] == spec)
                    for seat in range(players)
                ),
                rating=ratings[spec],
                latency=latency_stats(times),
                name=next((o.names[o.seats.index(spec)] for o in played if o.names), spec),
            )
        )
    return tuple(results)


def paired(plan: ArenaPlan, outcomes: Sequence[GameOutcome]) -> PairedResult | None:
    """The paired comparison of a common-deals run (None for an ordinary run)."""
    if not plan.config.common_deals:
        return None
    return paired_result(
        plan.lineup, plan.baseline, [(o.number, o.seats, o.winner) for o in outcomes]
    )


# ------------------------------------------------------------------------------ executing


def _chunks(plan: ArenaPlan, parallel: int) -> list[ChunkTask]:
    size = max(1, min(MAX_CHUNK, math.ceil(plan.games / (parallel * 8))))
    rules = plan.rules.to_dict()
    return [
        ChunkTask(
            rules=rules,
            preset=plan.preset,
            lineup=plan.lineup,
            seed=plan.seed,
            first=first,
            last=min(first + size - 1, plan.games),
            max_rounds=plan.config.max_rounds,
            common_deals=plan.config.common_deals,
            baseline=plan.baseline,
            bot_timeout=plan.config.bot_timeout,
        )
        for first in range(1, plan.games + 1, size)
    ]


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group: the parent alone decides what to stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local(plan: ArenaPlan) -> Generator[list[GameOutcome], None, None]:
    """Chunks played in ``plan.workers`` processes (in this process when 1)."""
    tasks = _chunks(plan, plan.workers)
    if plan.workers == 1:
        for task in tasks:
            yield play_chunk(task)
        return
    # spawn: a fresh interpreter, safe whatever threads this process runs (the progress bar)
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(processes=min(plan.workers, len(tasks)), initializer=_ignore_sigint)
    try:
        yield from pool.imap_unordered(play_chunk, tasks)
        pool.close()
        pool.join()
    finally:
        pool.terminate()
        pool.join()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ArenaError(RAY_MISSING) from None
    return ray


def _reachable(address: str, seconds: float = 5.0) -> str | None:
    """Why ``HOST:PORT`` (or ``ray://HOST:PORT``) takes no connection, or None if it does.
    Checked first because Ray itself keeps retrying an address nobody listens on."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return None  # "auto" and the like: Ray finds the cluster itself
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds):
            return None
    except OSError as exc:
        return exc.strerror or str(exc)


def _connect_ray(address: str) -> Any:
    ray = _import_ray()
    unreachable = _reachable(address)
    if unreachable is not None:
        raise ArenaError(f"cannot reach the Ray cluster at {address}: {unreachable}")
    try:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    except Exception as exc:  # Ray raises many kinds; all mean the cluster is not there
        raise ArenaError(f"cannot connect to the Ray cluster at {address}: {exc}") from None
    return ray


def _on_ray(plan: ArenaPlan, ray: Any) -> Generator[list[GameOutcome], None, None]:
    """Chunks played as Ray tasks on the connected cluster."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
    pending = [remote.remote(task) for task in _chunks(plan, cpus)]
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    chunk = ray.get(ref)
                except Exception as exc:  # a failed game, or a lost worker or node
                    # Ray's error also carries the remote traceback; the cause says enough.
                    cause = getattr(exc, "cause", None) or exc
                    text = str(cause).strip() or type(cause).__name__
                    raise ArenaGameError(text.splitlines()[0]) from None
                yield chunk
    finally:
        for ref in pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        ray.shutdown()


# ------------------------------------------------------------------------------ writing


def _write_json(path: Path, data: Any) -> None:
    """Write ``data`` to ``path`` atomically (a reader never sees half a file)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(data, file, indent=1, allow_nan=False)
            file.write("\n")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C until the block is done (then raise it), so that the records written and
    the games counted in the summary always agree."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread handles signals
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
    if received:
        raise KeyboardInterrupt


def record_path(out: Path, number: int) -> Path:
    """Where the record of game ``number`` is written."""
    return out / "games" / f"game-{number:06d}.json"


# ------------------------------------------------------------------------------ the run


def run_arena(config: ArenaConfig, *, progress: ProgressHook | None = None) -> ArenaResult:
    """Play the games of ``config`` and return the results.

    Bad input raises :class:`ArenaError` (or the engine's ``DudoError``) before anything
    is written. Records go to ``<out>/games/`` as games come in, then ``summary.json`` and
    ``results.png`` (see :class:`ArenaConfig`). Ctrl-C stops the run: the games done are
    kept, summarized and returned with ``interrupted`` set. A game that fails (a bot error)
    stops the run likewise, with ``error`` set.
    """
    return run_plan(plan(config), progress=progress)


def run_plan(checked: ArenaPlan, *, progress: ProgressHook | None = None) -> ArenaResult:
    """:func:`run_arena` for a plan already checked by :func:`~dudo.arena.setup.plan`."""
    config = checked.config
    ray = _connect_ray(config.ray_address) if config.ray_address is not None else None
    out = checked.out
    if out is not None:
        try:
            (out / "games").mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            if ray is not None:
                ray.shutdown()
            raise ArenaError(f"cannot create {out}: {exc.strerror or exc}") from None
    if progress is not None:
        progress(0, checked.games)  # set up: the games begin
    started = time.perf_counter()
    outcomes: list[GameOutcome] = []
    interrupted, error = False, None
    stream = _on_ray(checked, ray) if ray is not None else _local(checked)
    try:
        for chunk in stream:
            with _ctrl_c_held():
                if out is not None:
                    for outcome in chunk:
                        record = parse_record(outcome.record)
                        write_record(record, record_path(out, outcome.number))
                outcomes.extend(chunk)
            if progress is not None:
                progress(len(outcomes), checked.games)
    except KeyboardInterrupt:
        interrupted = True
    except ArenaGameError as exc:
        error = str(exc)
    except (OSError, DudoError) as exc:  # a record could not be written (e.g. a full disk)
        error = f"cannot write a record: {exc}"
    finally:
        stream.close()
    outcomes.sort(key=lambda o: o.number)
    wants_chart = out is not None and config.chart
    # The numbers are the point of a run: a missing plotting library only costs the chart.
    chart_note = chart_missing() if wants_chart else None
    result = ArenaResult(
        plan=checked,
        outcomes=tuple(outcomes),
        bots=summarize(checked, outcomes),
        interrupted=interrupted,
        error=error,
        seconds=time.perf_counter() - started,
        summary_path=None if out is None else out / "summary.json",
        chart_path=None if out is None or not wants_chart or chart_note else out / "results.png",
        paired=paired(checked, outcomes),
        chart_note=chart_note,
    )
    if result.summary_path is not None:
        _write_json(result.summary_path, result.to_dict())
    if result.chart_path is not None:
        from dudo.arena.chart import draw_chart

        draw_chart(result, result.chart_path)
    return result
