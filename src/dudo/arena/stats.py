"""The arena's numbers: win-rate intervals, decision latency and ratings.

Pure functions over plain data, so they serve the arena and anyone measuring bots alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from openskill.models import PlackettLuce

#: The standard normal quantile of a two-sided 95% interval.
Z_95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a win rate of ``wins`` out of ``games`` (95% by default).

    Unlike the normal approximation it stays within 0..1 and is sensible at 0 or all wins.
    No games give the whole range (0, 1).
    """
    if games < 0 or not 0 <= wins <= games:
        raise ValueError(f"{wins} wins out of {games} games is not a count")
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    z2 = z * z
    scale = 1 + z2 / games
    center = (rate + z2 / (2 * games)) / scale
    half = z * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / scale
    # Clamp: at 0 or all wins the bound is exactly 0 or 1, up to rounding.
    return max(0.0, center - half), min(1.0, center + half)


@dataclass(frozen=True, slots=True)
class LatencyStats:
    """How long a bot took per decision, in seconds (None when it made no decision)."""

    decisions: int
    mean: float | None
    p50: float | None
    p90: float | None
    p99: float | None
    max: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "mean": self.mean,
            "p50": self.p50,
            "p90": self.p90,
            "p99": self.p99,
            "max": self.max,
        }


def latency_stats(seconds: Iterable[float]) -> LatencyStats:
    """Count, mean, median, 90th and 99th percentile (linear interpolation) and maximum of
    the decision times ``seconds``."""
    values = np.fromiter(seconds, dtype=np.float64)
    if values.size == 0:
        return LatencyStats(0, None, None, None, None, None)
    p50, p90, p99 = (float(v) for v in np.percentile(values, [50, 90, 99]))
    return LatencyStats(int(values.size), float(values.mean()), p50, p90, p99, float(values.max()))


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill (Plackett-Luce) rating: skill estimate ``mu``, its uncertainty ``sigma``,
    and the conservative ``ordinal`` = mu - 3 sigma used to rank."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


def rate_games(
    bots: Sequence[str], games: Iterable[tuple[Sequence[str], Sequence[int]]]
) -> dict[str, Rating]:
    """Openskill ratings of the bots named in ``bots`` after ``games``, in order: each game
    is (bot of each seat, finishing rank of each seat, 1 = the winner).

    Every seat is rated as a player holding its bot's rating. When a bot has several seats
    (copies) in a game, the changes of its copies' mu add up and its sigma becomes the
    smallest of the copies' new sigmas: comparisons of copies with each other cancel out in
    mu, and counting them as knowledge would shrink sigma too fast.
    """
    model = PlackettLuce()
    current = {bot: (model.mu, model.sigma) for bot in bots}
    for seats, ranks in games:
        teams = [[model.rating(mu=current[bot][0], sigma=current[bot][1])] for bot in seats]
        rated = model.rate(teams, ranks=[float(rank) for rank in ranks])
        updates: dict[str, list[tuple[float, float]]] = {}
        for bot, team in zip(seats, rated, strict=True):
            updates.setdefault(bot, []).append((team[0].mu, team[0].sigma))
        for bot, changes in updates.items():
            mu, _ = current[bot]
            current[bot] = (
                mu + sum(new_mu - mu for new_mu, _ in changes),
                min(new_sigma for _, new_sigma in changes),
            )
    return {bot: Rating(mu, sigma) for bot, (mu, sigma) in current.items()}


# Student's t 0.975 quantiles for 1..10 degrees of freedom (a table: the expansion below is
# off in the third decimal there).
_T975 = (
    12.706204736174694,
    4.302652729749462,
    3.1824463052837078,
    2.7764451051977934,
    2.5705818356363146,
    2.4469118511449786,
    2.364624251592784,
    2.306004135204166,
    2.262157162798205,
    2.228138851986274,
)


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (the half-width
    factor of a two-sided 95% interval): a table up to 10, then the Cornish-Fisher
    expansion around the normal quantile (error below 1e-5 from 11 on)."""
    if df < 1:
        raise ValueError(f"degrees of freedom: {df} is not 1 or more")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z_95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """The mean of paired scores with its t interval (95%). ``sd`` is the sample standard
    deviation; ``ci_low``/``ci_high`` are None with fewer than two pairs."""

    pairs: int
    mean: float | None
    sd: float | None
    ci_low: float | None
    ci_high: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "pairs": self.pairs,
            "mean": self.mean,
            "sd": self.sd,
            "ci95": None if self.ci_low is None else [self.ci_low, self.ci_high],
        }


def paired_difference(
    scores: Sequence[float], bounds: tuple[float, float] = (-1.0, 1.0)
) -> PairedDifference:
    """Mean of ``scores`` (one per pair of games) and its 95% interval, mean ± t·sd/√n
    (Student's t with n - 1 degrees of freedom: pairs are independent, the two games of a
    pair are not, which is why the score is taken per pair), cut to ``bounds``, the range
    a score can take (few pairs can give a wider interval)."""
    n = len(scores)
    if n == 0:
        return PairedDifference(0, None, None, None, None)
    mean = math.fsum(scores) / n
    if n == 1:
        return PairedDifference(1, mean, None, None, None)
    sd = math.sqrt(math.fsum((s - mean) ** 2 for s in scores) / (n - 1))
    half = t_quantile_975(n - 1) * sd / math.sqrt(n)
    low, high = bounds
    return PairedDifference(n, mean, sd, max(low, mean - half), min(high, mean + half))
