"""Ratings: which rule family a preset belongs to, and the openskill (Plackett–Luce) update of
one finished game. Storage applies the update in the transaction that stores the result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

FAMILIES = ("dudo", "perudo", "cacho", "liars-dice")

# A rater is a player id or a bot level; bot levels are prefixed so they never meet a player id.
BOT_PREFIX = "bot:"

_MODEL = PlackettLuce()


def family(preset: str) -> str:
    """The rule family a preset is rated in: every ``dudo-*`` variant plays as Dudo."""
    return preset if preset in FAMILIES else "dudo"


def default() -> tuple[float, float]:
    """A new rater's (mu, sigma)."""
    r = _MODEL.rating()
    return r.mu, r.sigma


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown to people (mu minus three sigma)."""
    return mu - 3 * sigma


def rate(
    order: Sequence[str], before: Mapping[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """New (mu, sigma) of each rater, ``order`` being the finishing order (winner first)."""
    teams = [[_MODEL.rating(mu=before[r][0], sigma=before[r][1])] for r in order]
    result = _MODEL.rate(teams, ranks=[float(i + 1) for i in range(len(order))])
    return {r: (team[0].mu, team[0].sigma) for r, team in zip(order, result, strict=True)}
