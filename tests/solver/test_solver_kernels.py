"""The solver's kernels sweep each layer in blocks of rows (:data:`dudo.solver.sweeps.BLOCK`
cells), with the regret discount and floor applied block by block: the iterates must not
depend on the block size, bit for bit, on any CPU. The rounds of the other tests fit in one
block a layer, so here the blocks are made a few rows high. The matrix products are cut in
runs of their own (:data:`~dudo.solver.sweeps.PRODUCT_ROWS`), because BLAS rounds a row
differently with the rows it is given on some CPUs (OpenBLAS's Haswell and Zen kernels,
``OPENBLAS_CORETYPE=Haswell``): with the products cut by the block, AMD EPYC machines saw
relative differences of 7 after 6 iterations. Also: evaluating the average in the solver's
own arrays (``evaluate_average``) equals evaluating a copy, and leaves the solve as it was.
"""

from __future__ import annotations

import numpy as np
import pytest

from dudo.engine import preset
from dudo.solver import build_round, sweeps
from dudo.solver.cfr import Algorithm, RoundSolver
from dudo.solver.evaluate import evaluate, evaluate_average
from dudo.solver.position import Position

ROUNDS = {
    # every layer's parents a contiguous run (slices)
    "liars-dice-f4-high-2v1": (preset("liars-dice", faces=4, aces_rank="high"), (2, 1)),
    # parents as index arrays: the second bid may go down (free_transform)
    "legacy-f3-2v1": (
        preset("dudo-legacy", faces=3, spot_on=False, pass_hands="none", pass_allows_spot_on=False),
        (2, 1),
    ),
}


def _solve(name: str, algorithm: Algorithm, iterations: int) -> RoundSolver:
    rules, dice = ROUNDS[name]
    solver = RoundSolver(build_round(rules, Position(dice)), algorithm, dtype=np.float64)
    for _ in range(iterations):
        solver.step()
    return solver


@pytest.mark.parametrize("name", list(ROUNDS))
@pytest.mark.parametrize("algorithm", list(Algorithm))
def test_block_size_does_not_change_the_iterates(
    name: str, algorithm: Algorithm, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _solve(name, algorithm, 6)
    width = whole.regret_in.shape[1]
    assert max(layer.stop - layer.start for layer in whole.round.layers) * width < sweeps.BLOCK
    monkeypatch.setattr(sweeps, "BLOCK", 5 * width + 1)  # five rows a block
    blocked = _solve(name, algorithm, 6)
    # Equal, not close: every pass but the products is elementwise (IEEE rounds each
    # operation alike whatever the SIMD width) and the products' runs do not follow BLOCK.
    for key, expected in whole.state().items():
        np.testing.assert_array_equal(blocked.state()[key], expected, err_msg=key)
    np.testing.assert_array_equal(blocked.sigma_in, whole.sigma_in)
    np.testing.assert_array_equal(blocked.sigma_call, whole.sigma_call)


@pytest.mark.parametrize("algorithm", list(Algorithm))
def test_evaluate_average_in_place(algorithm: Algorithm) -> None:
    solver = _solve("liars-dice-f4-high-2v1", algorithm, 5)
    twin = _solve("liars-dice-f4-high-2v1", algorithm, 5)
    expected = evaluate(solver.round, solver.average())
    assert evaluate_average(solver) == expected
    assert expected.exploitability > 0
    # The current strategy is back, and the solve goes on exactly as if never evaluated.
    np.testing.assert_array_equal(solver.sigma_in, twin.sigma_in)
    np.testing.assert_array_equal(solver.sigma_call, twin.sigma_call)
    solver.step()
    twin.step()
    for key, value in twin.state().items():
        np.testing.assert_array_equal(solver.state()[key], value)
