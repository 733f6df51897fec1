"""Ratings: which rule family a preset belongs to, the openskill (Plackett–Luce) update of one
finished game, and the number people are shown for a rating (:func:`shown`, on a lichess-like
scale where a new rater is 1500) with its provisional mark (:func:`provisional`). Storage
applies the update in the transaction that stores the result."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

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


_MU0 = _MODEL.rating().mu
_SIGMA0 = _MODEL.rating().sigma

#: The shown scale: a new rater shows 1500, and a new rater's sigma (25/3) spans 350 points,
#: the deviation Glicko gives a new player, so each point of mu is 42 shown points.
SHOWN_START = 1500
SHOWN_PER_MU = 350 / _SIGMA0
#: The lowest number shown: a rating is never negative, nor a silly handful of points.
SHOWN_FLOOR = 100
#: A rating is provisional (shown with "?") until this many rated games in its family. A count,
#: not sigma: openskill's sigma falls slowly in games of many players (still about 210 shown
#: points after 30 four-player games), so a deviation threshold would keep almost everyone
#: provisional, and "fewer than 10 rated games" is a rule a person can check.
PROVISIONAL_GAMES = 10


def shown(mu: float) -> int:
    """The rating people see, from openskill's mu: 1500 + 42 (mu - 25), a whole number, never
    below :data:`SHOWN_FLOOR`. Monotone in mu, so ordering by mu orders by what is shown."""
    return max(SHOWN_FLOOR, round(SHOWN_START + SHOWN_PER_MU * (mu - _MU0)))


def deviation(sigma: float) -> int:
    """Openskill's sigma on the shown scale (a new rater's is 350, Glicko's start)."""
    return round(SHOWN_PER_MU * sigma)


def provisional(games: int) -> bool:
    """Whether a rating with this many rated games in its family is still provisional (the
    same rule for people and bot levels: a level's first games say as little as anyone's)."""
    return games < PROVISIONAL_GAMES


def rater(kind: object, level: object, player_id: object) -> str | None:
    """Who a game's player is for ratings: a bot's level, a person's player id, or None (a
    person who sat down with a seat token alone)."""
    if kind == "bot" and isinstance(level, str):
        return BOT_PREFIX + level
    return player_id if isinstance(player_id, str) and player_id else None


def places(order: Sequence[int], left_early: Collection[int]) -> dict[int, int]:
    """Each player's place from the engine's finishing order (winner first): players who left
    before the end share the last place, below everyone who played on, whatever their stand-in
    bot did."""
    stayed = [p for p in order if p not in left_early]
    last = len(stayed) + 1
    return {p: (stayed.index(p) + 1 if p not in left_early else last) for p in order}


def counted(finished: Sequence[tuple[str, int, bool]]) -> list[tuple[str, int]]:
    """The (rater, place) pairs a rated game's update counts, from (rater, place, acted): every
    bot, and each person who made at least one move of the game themselves. A seat only its
    stand-in or the turn timer played is left out, so an account that never plays can neither
    lose rating nor hand a win to anyone; a game no person played in counts for nobody."""
    kept = [(who, place) for who, place, acted in finished if acted or who.startswith(BOT_PREFIX)]
    if all(who.startswith(BOT_PREFIX) for who, _ in kept):
        return []
    return kept


def standings(finished: Sequence[tuple[str, int]]) -> dict[str, float]:
    """Each rater's rank from (rater, place) pairs. Several bots of one level in a game are one
    rater: they rank at their mean place, so a level is neither helped nor hurt by its count."""
    by_rater: dict[str, list[int]] = {}
    for who, place in finished:
        by_rater.setdefault(who, []).append(place)
    return {who: sum(p) / len(p) for who, p in by_rater.items()}


def rate(
    ranks: Mapping[str, float], before: Mapping[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """New (mu, sigma) of each rater from their ranks (1: the winner; equal ranks tie)."""
    raters = list(ranks)
    teams = [[_MODEL.rating(mu=before[r][0], sigma=before[r][1])] for r in raters]
    result = _MODEL.rate(teams, ranks=[ranks[r] for r in raters])
    return {r: (team[0].mu, team[0].sigma) for r, team in zip(raters, result, strict=True)}
