"""Running a round's solver until a stopping rule: a number of iterations, an exploitability
target, a time limit, or an interruption; exact evaluations at a fixed cadence go into the
run's :class:`~dudo.solver.store.History`, and a checkpoint is taken at a fixed interval.

It prints nothing: whoever runs it (``dudo solve`` in :mod:`dudo.terminal.solve`, a notebook,
a benchmark) watches each iteration through ``on_step``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple

from dudo.solver.cfr import RoundSolver, Strategy
from dudo.solver.evaluate import evaluate
from dudo.solver.store import History, HistoryRow


class StopReason(StrEnum):
    ITERATIONS = "iterations"  # the iterations asked for were run
    TARGET = "target"  # an evaluation reached the exploitability target
    TIME = "time"  # the time limit was reached
    INTERRUPTED = "interrupted"  # ``interrupted()`` said so


class StopRule(NamedTuple):
    """When to stop; a rule left None does not apply (with none at all, only an interruption
    stops the run)."""

    iterations: int | None = None  # stop once the solver has run this many in all
    target: float | None = None  # stop at an evaluation this exploitable or less
    time_limit: float | None = None  # seconds of this run


class Solved(NamedTuple):
    reason: StopReason
    seconds: float  # of solving in all: the seconds before this run, and this run's
    average: Strategy  # the average strategy at the last iteration


def solve_until(
    solver: RoundSolver,
    history: History,
    stop: StopRule,
    *,
    eval_every: int,
    seconds_before: float = 0.0,
    interrupted: Callable[[], bool] = lambda: False,
    on_step: Callable[[int, float, HistoryRow | None], None] | None = None,
    checkpoint: Callable[[float], None] | None = None,
    checkpoint_every: float = 60.0,
) -> Solved:
    """Step ``solver`` until ``stop`` says so. Every ``eval_every`` iterations the average
    strategy is evaluated exactly and added to ``history``; after each iteration ``on_step``
    hears the iteration, this run's seconds so far and that evaluation (None between them);
    ``checkpoint`` is called with the seconds of solving in all at most every
    ``checkpoint_every`` seconds. The history always ends with the last iteration's
    evaluation. ``interrupted`` is asked before each iteration."""
    round_ = solver.round
    started = time.perf_counter()
    last_checkpoint = started

    def elapsed() -> float:
        return seconds_before + time.perf_counter() - started

    while True:
        if stop.iterations is not None and solver.iteration >= stop.iterations:
            reason = StopReason.ITERATIONS
            break
        if interrupted():
            reason = StopReason.INTERRUPTED
            break
        solver.step()
        row = None
        if solver.iteration % eval_every == 0:
            history.add(
                solver.iteration, elapsed(), evaluate(round_, solver.average(), solver.scratch())
            )
            row = history.last
        now = time.perf_counter()
        if on_step is not None:
            on_step(solver.iteration, now - started, row)
        if row is not None and stop.target is not None and row.exploitability <= stop.target:
            reason = StopReason.TARGET
            break
        if stop.time_limit is not None and now - started >= stop.time_limit:
            reason = StopReason.TIME
            break
        if checkpoint is not None and now - last_checkpoint >= checkpoint_every:
            checkpoint(elapsed())
            last_checkpoint = time.perf_counter()
    average = solver.average()
    last = history.last
    if last is None or last.iteration != solver.iteration:
        history.add(solver.iteration, elapsed(), evaluate(round_, average, solver.scratch()))
    return Solved(reason, elapsed(), average)
