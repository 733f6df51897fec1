"""Bid odds for learners: how likely a bid is, from the dice you know and the rules in play.

    >>> from dudo.engine import Bid, preset
    >>> from dudo.odds import bid_odds
    >>> odds = bid_odds(preset("dudo"), [1, 3, 3, 5, 6], unknown=20, bid=Bid(10, 3))
    >>> odds.probability_float  # doctest: +ELLIPSIS
    0.5206...
    >>> float(odds.expected[3])  # your 3 threes + 20 unknown dice * 2/6 (threes and aces)
    9.666666666666666

:func:`bid_odds` takes the rules, your dice, how many dice you cannot see (or the other
players' dice counts), dice you can see besides your own (set aside face up by
reveal-and-reroll, or other hands in an open obliging round), whether the round is an
obliging one (aces are not wild there) and an optional bid. :func:`view_odds` reads the same
from a :class:`~dudo.engine.view.PlayerView`, i.e. exactly what a player in a game knows;
:func:`safest_bids` ranks a view's legal bids by their chance of being true.

Every number is exact (:class:`~fractions.Fraction`; ``*_float`` properties round once). The
counting itself (wild aces, ``wild_needs_natural``, fewer faces) is done by
:mod:`dudo.probability`, which enumerates the unknown dice exactly rather than assuming a plain
binomial: under ``wild_needs_natural`` the aces count only if a natural die of the face is on
the table, which no single binomial describes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from dudo.engine.actions import Bid
from dudo.engine.errors import DudoError
from dudo.engine.rules import Rules
from dudo.engine.view import PlayerView
from dudo.probability import Counting, count_distribution, counting_for, counting_of

__all__ = [
    "EVEN",
    "BidOdds",
    "bid_odds",
    "format_chance",
    "safest_bids",
    "view_odds",
]

#: The chance a "likeliest true" bid must reach: more likely true than not, or even.
EVEN = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class BidOdds:
    """The odds from one state of knowledge, for one bid (or none).

    ``known`` are the dice whose faces you know (yours and any you can see) and ``unknown``
    how many dice in play you cannot see. ``distributions[f][k]`` (k = 0 .. all dice) is the
    exact chance that exactly ``k`` dice count for a bid on face ``f`` (aces included where
    they are wild) and ``expected[f]`` the expected count. With a bid, ``probability`` is the chance it is true
    (at least that many dice count) and ``spot_on`` the chance it is exactly right; both are
    None without a bid.
    """

    counting: Counting
    known: tuple[int, ...]
    unknown: int
    bid: Bid | None
    probability: Fraction | None
    spot_on: Fraction | None
    expected: Mapping[int, Fraction]
    distributions: Mapping[int, tuple[Fraction, ...]]

    @property
    def faces(self) -> range:
        """The faces of a die under these rules, 1 first."""
        return range(1, self.counting.faces + 1)

    @property
    def probability_float(self) -> float | None:
        """:attr:`probability` as a float (None without a bid)."""
        return None if self.probability is None else float(self.probability)

    @property
    def spot_on_float(self) -> float | None:
        """:attr:`spot_on` as a float (None without a bid)."""
        return None if self.spot_on is None else float(self.spot_on)

    @property
    def distribution(self) -> tuple[Fraction, ...]:
        """The count distribution of the bid's face."""
        if self.bid is None:
            raise DudoError("no bid given, so there is no bid face: use distributions[face]")
        return self.distributions[self.bid.face]

    def at_least(self, bid: Bid) -> Fraction:
        """Chance that ``bid`` is true (any bid on these dice, not only :attr:`bid`)."""
        dist = self._distribution(bid)
        return sum(dist[max(bid.quantity, 0) :], Fraction(0))

    def exactly(self, bid: Bid) -> Fraction:
        """Chance that exactly ``bid.quantity`` dice count for ``bid.face``."""
        dist = self._distribution(bid)
        return dist[bid.quantity] if 0 <= bid.quantity < len(dist) else Fraction(0)

    def likeliest(self, face: int, at_least: Fraction = EVEN) -> tuple[Bid, Fraction] | None:
        """The highest bid on ``face`` whose chance of being true is still ``at_least``
        (default: even or better), with that chance; None when even one die is less likely."""
        dist = self._distribution(Bid(1, face))
        best: tuple[Bid, Fraction] | None = None
        tail = Fraction(0)
        for quantity in range(len(dist) - 1, 0, -1):
            tail += dist[quantity]
            if tail >= at_least:
                best = (Bid(quantity, face), tail)
                break
        return best

    def _distribution(self, bid: Bid) -> tuple[Fraction, ...]:
        found = self.distributions.get(bid.face)
        if found is None:
            raise DudoError(
                f"bid {bid}: there is no face {bid.face} (faces are 1..{len(self.faces)})"
            )
        return found


def bid_odds(
    rules: Rules,
    dice: Iterable[int],
    unknown: int | None = None,
    *,
    others: Sequence[int] | None = None,
    revealed: Iterable[int] = (),
    obliging: bool = False,
    bid: Bid | None = None,
) -> BidOdds:
    """The odds of ``bid`` (or of every face, without one) for a player holding ``dice``.

    Give either ``unknown``, the dice in play whose faces you cannot see, or ``others``, the
    other players' dice counts (then ``unknown`` is their total less the ``revealed`` dice).
    ``revealed`` are dice of other players you can see: set aside face up by
    reveal-and-reroll, or every other hand in an open obliging round. Your own set-aside dice
    belong in ``dice``. In an open obliging round, where you see every hand but yours, give
    no ``dice`` and count your own among the ``unknown``. ``obliging``: an obliging round,
    where aces are not wild.

    Bad input (a die off the faces, a negative count, a bid of no dice ...) raises
    :class:`DudoError` naming it.
    """
    faces = rules.faces
    hand = _dice("dice", dice, faces)
    seen = _dice("revealed", revealed, faces)
    if len(hand) > rules.dice_per_player:
        raise DudoError(
            f"dice: {len(hand)} given, but a hand holds at most {rules.dice_per_player} dice"
        )
    if (unknown is None) == (others is None):
        raise DudoError("give either the number of unknown dice or the other players' dice counts")
    if others is not None:
        counts = [_count("others", n) for n in others]
        for n in counts:
            if n > rules.dice_per_player:
                raise DudoError(
                    f"others: a player holds {n} dice; a hand holds at most {rules.dice_per_player}"
                )
        unknown = sum(counts) - len(seen)
        if unknown < 0:
            raise DudoError(
                f"revealed: {len(seen)} dice seen, but the other players hold only {sum(counts)}"
            )
    assert unknown is not None
    unknown = _count("unknown", unknown)
    if obliging and not rules.oblige:
        raise DudoError("obliging: these rules have no obliging rounds (oblige=false)")
    if bid is not None:
        _check_bid(bid, faces)
    return _odds(counting_of(rules, obliging), hand + seen, unknown, bid)


def view_odds(view: PlayerView, bid: Bid | None = None) -> BidOdds:
    """The odds as the player of ``view`` sees them: their dice, every die they can see, the
    dice they cannot, and the round's counting. ``bid`` defaults to none (pass
    ``view.standing_bid`` for the bid on the table)."""
    counting = counting_for(view)
    if bid is not None:
        _check_bid(bid, counting.faces)
    return _odds(counting, view.known_dice, view.unknown_count, bid)


def safest_bids(view: PlayerView, count: int = 3) -> list[tuple[Bid, Fraction]]:
    """Up to ``count`` of ``view``'s legal bids most likely to be true, with their chances;
    the lower bid first on equal chances. Raises with reveal-and-reroll are left out (their
    odds depend on the dice re-rolled)."""
    legal = [a for a in view.legal_actions if isinstance(a, Bid)]
    if not legal:
        return []
    odds = view_odds(view)
    chances = [(bid, odds.at_least(bid)) for bid in legal]
    ranked = sorted(enumerate(chances), key=lambda item: (-item[1][1], item[0]))
    return [chance for _, chance in ranked[:count]]


def format_chance(chance: Fraction | float) -> str:
    """A chance as a percentage for people: ``43.2%``, never rounding a possible outcome to
    0% or a doubtful one to 100% (``<0.1%``, ``>99.9%``)."""
    value = float(chance)
    if value <= 0:
        return "0%"
    if value >= 1:
        return "100%"
    if value < 0.001:
        return "<0.1%"
    if value > 0.999:
        return ">99.9%"
    return f"{value:.1%}"


def _odds(counting: Counting, known: Sequence[int], unknown: int, bid: Bid | None) -> BidOdds:
    dice = len(known) + unknown
    distributions = {}
    for face in range(1, counting.faces + 1):
        dist = count_distribution(
            face,
            known,
            unknown,
            wild=counting.wild,
            needs_natural=counting.needs_natural,
            faces=counting.faces,
        )
        # One entry per count from 0 to every die, whatever the face (impossible ones are 0).
        distributions[face] = dist + (Fraction(0),) * (dice + 1 - len(dist))
    expected = {
        face: sum((k * p for k, p in enumerate(dist)), Fraction(0))
        for face, dist in distributions.items()
    }
    result = BidOdds(counting, tuple(known), unknown, bid, None, None, expected, distributions)
    if bid is None:
        return result
    return BidOdds(
        counting,
        tuple(known),
        unknown,
        bid,
        result.at_least(bid),
        result.exactly(bid),
        expected,
        distributions,
    )


def _dice(what: str, dice: Iterable[int], faces: int) -> tuple[int, ...]:
    values = tuple(dice)
    for die in values:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= faces:
            raise DudoError(f"{what}: a die shows {die!r}; faces are 1..{faces}")
    return values


def _count(what: str, n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise DudoError(f"{what}: {n!r} is not a number of dice")
    if n < 0:
        raise DudoError(f"{what}: {n} is negative")
    return n


def _check_bid(bid: Bid, faces: int) -> None:
    if not isinstance(bid, Bid):
        raise DudoError(f"bid: {bid!r} is not a bid such as 5x3")
    if not 1 <= bid.face <= faces:
        raise DudoError(f"bid {bid}: there is no face {bid.face} (faces are 1..{faces})")
    if bid.quantity < 1:
        raise DudoError(f"bid {bid}: a bid is on at least one die")
