"""The oracle of Neller & Lanctot's CFR tutorial: heads-up, one die each, one round of
liars-dice with aces ranked high is worth -7/258 to the opener."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dudo.solver import Round
from dudo.solver.cfr import Algorithm, RoundSolver
from dudo.solver.evaluate import evaluate

from .shared_runs import DcfrRun

TUTORIAL_VALUE = float(Fraction(-7, 258))


@pytest.mark.parametrize("algorithm", list(Algorithm))
def test_exploitability_falls_and_value_converges(
    tutorial_round: Round, dcfr_run: DcfrRun, algorithm: Algorithm
) -> None:
    solver = RoundSolver(tutorial_round, algorithm)
    seen = []
    for stop in (10, 100, 1000):
        if algorithm is Algorithm.DCFR:  # the shared run (conftest.py)
            seen.append(evaluate(tutorial_round, dcfr_run.average(stop)))
            continue
        while solver.iteration < stop:
            solver.step()
        seen.append(evaluate(tutorial_round, solver.average()))
    exploitability = [e.exploitability for e in seen]
    assert exploitability[0] > exploitability[1] > exploitability[2] >= 0
    # Linear CFR (no regret floor, linear discount) is the slow baseline of the variants;
    # predictive CFR+ is slower than CFR+ on this small round.
    slower = {Algorithm.LINEAR: 2e-3, Algorithm.PCFR_PLUS: 1e-3}
    assert exploitability[2] < slower.get(algorithm, 2e-4)
    last = seen[-1]
    low, high = last.value_bounds
    # The equilibrium value always lies between the two best-response values.
    assert low - 1e-12 <= TUTORIAL_VALUE <= high + 1e-12
    assert abs(last.value - TUTORIAL_VALUE) <= 2 * last.exploitability


def test_converged_run_pins_the_value(tutorial_round: Round, dcfr_run: DcfrRun) -> None:
    result = evaluate(tutorial_round, dcfr_run.average(6000))  # 6000 iterations of DCFR
    low, high = result.value_bounds
    assert high - low < 1e-5
    assert low - 1e-12 <= TUTORIAL_VALUE <= high + 1e-12


@pytest.mark.parametrize("algorithm", list(Algorithm))
def test_a_restored_state_goes_on_exactly(tutorial_round: Round, algorithm: Algorithm) -> None:
    """Saving and restoring mid-run changes nothing, whatever the variant keeps (predictive
    CFR+ keeps its prediction)."""
    straight = RoundSolver(tutorial_round, algorithm)
    for _ in range(40):
        straight.step()
    first = RoundSolver(tutorial_round, algorithm)
    for _ in range(20):
        first.step()
    state = {k: v.copy() for k, v in first.state().items()}
    resumed = RoundSolver(tutorial_round, algorithm)
    resumed.restore(state)
    for _ in range(20):
        resumed.step()
    assert np.array_equal(resumed.average().sigma_in, straight.average().sigma_in)
    assert np.array_equal(resumed.current().sigma_call, straight.current().sigma_call)


def test_reading_the_average_does_not_change_the_run(tutorial_round: Round) -> None:
    """What lets tests share one DCFR run and read it at several iterations (conftest.py):
    the average after 100 iterations is the same, bit for bit, whether or not it was read
    on the way."""
    read = RoundSolver(tutorial_round, Algorithm.DCFR)
    straight = RoundSolver(tutorial_round, Algorithm.DCFR)
    for _ in range(100):
        read.step()
        straight.step()
        if read.iteration % 10 == 0:
            read.average()
    assert np.array_equal(read.average().sigma_in, straight.average().sigma_in)
    assert np.array_equal(read.average().sigma_call, straight.average().sigma_call)
    assert np.array_equal(read.regret_in, straight.regret_in)
    assert np.array_equal(read.regret_call, straight.regret_call)
