"""Solver runs that several tests read: one discounted CFR run, advanced only as far as the
furthest iteration asked for."""

from __future__ import annotations

from dudo.solver import Round
from dudo.solver.cfr import Algorithm, RoundSolver, Strategy


class DcfrRun:
    """Discounted CFR on a round, run once as far as any test asks: DCFR is deterministic,
    so the average strategy after ``n`` iterations is the same whichever test asks first
    (and reading it does not change the run: tests/solver/test_tutorial_value.py)."""

    CHECKPOINTS = frozenset({10, 100, 500, 1000, 6000})
    """The iterations tests read: averages there are kept on the way past them."""

    def __init__(self, round_: Round) -> None:
        self.round = round_
        self.solver = RoundSolver(round_, Algorithm.DCFR)
        self.averages: dict[int, Strategy] = {}

    def average(self, iterations: int) -> Strategy:
        """A copy of the average strategy after ``iterations`` iterations."""
        if iterations not in self.averages:
            if iterations < self.solver.iteration:  # not kept on the way: run again
                self.solver = RoundSolver(self.round, Algorithm.DCFR)
            while self.solver.iteration < iterations:
                self.solver.step()
                if self.solver.iteration in self.CHECKPOINTS:
                    self.averages[self.solver.iteration] = self.solver.average()
            self.averages.setdefault(iterations, self.solver.average())
        found = self.averages[iterations]
        return Strategy(found.sigma_in.copy(), found.sigma_call.copy())
