"""``solve_until``: each stopping rule, the evaluations it records, and its checkpoints (the
``dudo solve`` command's own tests run it from the terminal; here it is called as a library)."""

from __future__ import annotations

import numpy as np

from dudo.engine import preset
from dudo.solver import Position, build_round
from dudo.solver.cfr import Algorithm, RoundSolver
from dudo.solver.evaluate import evaluate
from dudo.solver.loop import StopReason, StopRule, solve_until
from dudo.solver.store import History, HistoryRow

ROUND = build_round(preset("liars-dice", dice_per_player=1), Position((1, 1)))


def fresh() -> tuple[RoundSolver, History]:
    return RoundSolver(ROUND, Algorithm.CFR_PLUS), History()


def test_it_runs_the_iterations_and_evaluates_on_the_cadence() -> None:
    solver, history = fresh()
    steps: list[tuple[int, HistoryRow | None]] = []
    solved = solve_until(
        solver,
        history,
        StopRule(iterations=25),
        eval_every=10,
        seconds_before=100.0,
        on_step=lambda i, _s, row: steps.append((i, row)),
    )
    assert solved.reason is StopReason.ITERATIONS and solver.iteration == 25
    assert [i for i, _ in steps] == list(range(1, 26))
    assert [i for i, row in steps if row is not None] == [10, 20]
    # The history ends with the last iteration, evaluated from the average returned.
    assert [row.iteration for row in history.rows] == [10, 20, 25]
    final = evaluate(ROUND, solved.average)
    assert history.rows[-1].exploitability == final.exploitability
    assert solved.seconds >= 100.0 and history.rows[0].seconds >= 100.0
    np.testing.assert_array_equal(solved.average.sigma_call, solver.average().sigma_call)


def test_it_stops_at_the_target() -> None:
    solver, history = fresh()
    solved = solve_until(solver, history, StopRule(target=0.05), eval_every=5)
    assert solved.reason is StopReason.TARGET
    assert history.rows[-1].exploitability <= 0.05
    assert all(row.exploitability > 0.05 for row in history.rows[:-1])
    assert solver.iteration % 5 == 0


def test_an_interruption_stops_before_the_next_iteration() -> None:
    solver, history = fresh()
    asked = []

    def interrupted() -> bool:
        asked.append(solver.iteration)
        return solver.iteration == 7

    solved = solve_until(solver, history, StopRule(), eval_every=100, interrupted=interrupted)
    assert solved.reason is StopReason.INTERRUPTED and solver.iteration == 7
    assert asked == list(range(8))
    assert [row.iteration for row in history.rows] == [7]


def test_the_time_limit_and_checkpoints() -> None:
    solver, history = fresh()
    taken: list[float] = []
    solved = solve_until(
        solver,
        history,
        StopRule(time_limit=0.3),
        eval_every=1000,
        checkpoint=taken.append,
        checkpoint_every=0.05,
    )
    assert solved.reason is StopReason.TIME
    assert 0.3 <= solved.seconds < 5.0
    assert taken and taken == sorted(taken) and taken[-1] <= solved.seconds
