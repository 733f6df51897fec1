"""Exact evaluation of a strategy on a round's whole tree: the game value for the opener,
each player's best-response value, and exploitability (NashConv / 2)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dudo.solver.cfr import Strategy, payoff_matrices
from dudo.solver.round import Round
from dudo.solver.sweeps import Array, Fold, call_values, fold_up, reach


@dataclass(frozen=True)
class Evaluation:
    """``value``: the opener's expected payoff when both play the strategy;
    ``best_response[p]``: what player ``p`` gets by best-responding to the other's part;
    ``exploitability``: NashConv / 2 = (best_response[0] + best_response[1]) / 2.
    The equilibrium value lies in [-best_response[1], best_response[0]]."""

    value: float
    best_response: tuple[float, float]

    @property
    def nash_conv(self) -> float:
        return self.best_response[0] + self.best_response[1]

    @property
    def exploitability(self) -> float:
        return self.nash_conv / 2

    @property
    def value_bounds(self) -> tuple[float, float]:
        return -self.best_response[1], self.best_response[0]


def evaluate(
    round_: Round, strategy: Strategy, scratch: tuple[Array, Array] | None = None
) -> Evaluation:
    """Value and exact best responses of ``strategy`` (computed in the strategy's dtype).
    ``scratch``: two arrays shaped like the strategy's to work in (saves memory)."""
    sigma_in, sigma_call = strategy.sigma_in, strategy.sigma_call
    payoff = payoff_matrices(round_, sigma_in.dtype)
    if scratch is None:
        work, values = np.zeros_like(sigma_in), np.zeros_like(sigma_in)
    else:
        work, values = scratch
    best = []
    value = 0.0
    for p in (0, 1):
        reach(round_, 1 - p, sigma_in, work)
        call_values(round_, p, payoff[p], work, sigma_call, work)
        best.append(float(fold_up(round_, p, work, values, Fold.BEST).sum(dtype=np.float64)))
        if p == 0:
            root = fold_up(round_, p, work, values, Fold.EXPECT, sigma_in, sigma_call)
            value = float(root.sum(dtype=np.float64))
    return Evaluation(value, (best[0], best[1]))


def best_response_value(round_: Round, strategy: Strategy, player: int) -> float:
    """What ``player`` gets by best-responding to the other player's part of ``strategy``."""
    sigma_in, sigma_call = strategy.sigma_in, strategy.sigma_call
    payoff = payoff_matrices(round_, sigma_in.dtype)
    work = np.zeros_like(sigma_in)
    values = np.zeros_like(sigma_in)
    reach(round_, 1 - player, sigma_in, work)
    call_values(round_, player, payoff[player], work, sigma_call, work)
    return float(fold_up(round_, player, work, values, Fold.BEST).sum(dtype=np.float64))
