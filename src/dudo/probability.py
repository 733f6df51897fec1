"""Exact odds of a bid from what one player knows: pure functions, no game state.

A bid ``q×f`` is true when at least ``q`` dice on the table count for face ``f``. A player
knows some dice (their own, dice set aside by reveal-and-reroll, everybody else's in an
open obliging round) and not the others, which are independent fair dice. How dice count
is given by :class:`Counting`:

- ``wild``: aces count for every other face (never in an obliging round). A bid on aces
  counts aces only.
- ``needs_natural`` (only with ``wild``): aces count for ``f`` only if at least one natural
  ``f`` is on the whole table; otherwise the count is the naturals alone, i.e. zero.
- ``faces``: faces per die (6, or fewer for research games).

Every probability is exact. The engine's counting splits each unknown die into one of three
classes: a natural ``f`` (chance ``1/faces``), an ace (``1/faces``) or another face. The count
only depends on how many unknown dice fall in each class, so the outcomes are grouped by
those class counts (a multinomial) and weighted by integers out of ``faces ** unknown``:

- plain counting (a bid on aces, or aces not wild): ``C(U, x) (faces-1)^(U-x)`` outcomes have
  ``x`` matching unknown dice;
- wild aces: ``C(U, s) 2^s (faces-2)^(U-s)`` have ``s`` naturals-or-aces;
- wild aces that need a natural, when no natural is known: of those, ``C(U, s) (faces-2)^(U-s)``
  hold ``s`` aces and no natural, and count zero instead of ``known aces + s``.

Integer weights are cached per (kind, known matches, unknown count, faces); a probability is
one division. The ``*_exact`` functions return :class:`~fractions.Fraction` values for tests
and research; the float ones are correctly rounded from the same integers.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from math import comb

from dudo.engine.actions import Bid
from dudo.engine.counting import Counting, counting_of
from dudo.engine.errors import DudoError
from dudo.engine.view import PlayerView

__all__ = [
    "Counting",
    "Odds",
    "bid_probability",
    "bid_probability_exact",
    "count_distribution",
    "counting_for",
    "counting_of",
    "exactly_probability",
    "exactly_probability_exact",
    "probability_at_least",
    "view_bid_probability",
    "view_exactly_probability",
]


def counting_for(view: PlayerView) -> Counting:
    """The counting rules of the round ``view`` shows (aces are never wild while obliging)."""
    return counting_of(view.rules, view.obliging)


class _Kind(Enum):
    PLAIN = "plain"  # naturals only: a bid on aces, or aces not wild
    WILD = "wild"  # naturals + aces
    NATURAL = "natural"  # naturals + aces, but zero without a natural on the table


def _kind(face: int, counting: Counting) -> _Kind:
    if face == 1 or not counting.wild:
        return _Kind.PLAIN
    return _Kind.NATURAL if counting.needs_natural else _Kind.WILD


@lru_cache(maxsize=65536)
def _weights(kind: _Kind, naturals: int, aces: int, unknown: int, faces: int) -> tuple[int, ...]:
    """Outcomes of the unknown dice (out of ``faces ** unknown``) per final count 0..max.

    ``naturals`` and ``aces`` are the known dice showing the face and showing an ace
    (``aces`` is ignored for plain counting).
    """
    u = unknown
    if kind is _Kind.PLAIN:
        out = [0] * (naturals + u + 1)
        for x in range(u + 1):
            out[naturals + x] = comb(u, x) * (faces - 1) ** (u - x)
        return tuple(out)
    base = naturals + aces
    out = [0] * (base + u + 1)
    for s in range(u + 1):
        # s unknown dice are naturals or aces: 2^s ways to label them, faces-2 for the rest.
        out[base + s] = comb(u, s) * 2**s * (faces - 2) ** (u - s)
    if kind is _Kind.NATURAL and naturals == 0:
        # Outcomes with no natural anywhere (the s dice are all aces) count zero instead.
        for s in range(u + 1):
            no_natural = comb(u, s) * (faces - 2) ** (u - s)
            out[base + s] -= no_natural
            out[0] += no_natural
    return tuple(out)


@lru_cache(maxsize=65536)
def _tails(kind: _Kind, naturals: int, aces: int, unknown: int, faces: int) -> tuple[float, ...]:
    """``tails[q]`` = P(count >= q) for q in 0..max+1, as correctly rounded floats."""
    weights = _weights(kind, naturals, aces, unknown, faces)
    total: int = faces**unknown
    out = [0.0] * (len(weights) + 1)
    running = 0
    for q in range(len(weights) - 1, -1, -1):
        running += weights[q]
        out[q] = running / total
    return tuple(out)


def _odds(known: Iterable[int], unknown: int, wild: bool, needs_natural: bool, faces: int) -> Odds:
    return Odds(known, unknown, Counting(wild, needs_natural and wild, faces))


def count_distribution(
    face: int,
    known: Iterable[int],
    unknown: int,
    *,
    wild: bool = True,
    needs_natural: bool = False,
    faces: int = 6,
) -> tuple[Fraction, ...]:
    """Exact P(count == k) for a bid on ``face``, k = 0, 1, ... (all dice known or not)."""
    odds = _odds(known, unknown, wild, needs_natural, faces)
    total: int = faces**unknown
    return tuple(Fraction(w, total) for w in _weights(*odds._key(face), unknown, faces))


def bid_probability_exact(
    bid: Bid,
    known: Iterable[int],
    unknown: int,
    *,
    wild: bool = True,
    needs_natural: bool = False,
    faces: int = 6,
) -> Fraction:
    """Exact chance that ``bid`` is true: ``known`` dice fixed, ``unknown`` fair dice."""
    dist = count_distribution(
        bid.face, known, unknown, wild=wild, needs_natural=needs_natural, faces=faces
    )
    return sum(dist[max(bid.quantity, 0) :], Fraction(0))


def exactly_probability_exact(
    bid: Bid,
    known: Iterable[int],
    unknown: int,
    *,
    wild: bool = True,
    needs_natural: bool = False,
    faces: int = 6,
) -> Fraction:
    """Exact chance that exactly ``bid.quantity`` dice count for ``bid.face`` (a right spot-on)."""
    dist = count_distribution(
        bid.face, known, unknown, wild=wild, needs_natural=needs_natural, faces=faces
    )
    return dist[bid.quantity] if 0 <= bid.quantity < len(dist) else Fraction(0)


def bid_probability(
    bid: Bid,
    known: Iterable[int],
    unknown: int,
    *,
    wild: bool = True,
    needs_natural: bool = False,
    faces: int = 6,
) -> float:
    """Chance that ``bid`` is true (float, cached; same value as the exact one, rounded)."""
    return _odds(known, unknown, wild, needs_natural, faces).at_least(bid)


def exactly_probability(
    bid: Bid,
    known: Iterable[int],
    unknown: int,
    *,
    wild: bool = True,
    needs_natural: bool = False,
    faces: int = 6,
) -> float:
    """Chance that exactly ``bid.quantity`` dice count for ``bid.face`` (float, cached)."""
    return _odds(known, unknown, wild, needs_natural, faces).exactly(bid)


class Odds:
    """Bid odds for one state of knowledge: the known dice are counted once, and each face's
    table of chances is built once, after which a bid costs a lookup. Bots use one per
    decision to judge every legal action."""

    __slots__ = ("_tails", "counting", "face_counts", "unknown")

    def __init__(self, known: Iterable[int], unknown: int, counting: Counting | None = None):
        self.counting = counting = counting if counting is not None else Counting()
        if unknown < 0:
            raise DudoError(f"unknown dice: {unknown} is negative")
        self.unknown = unknown
        counts = [0] * (counting.faces + 1)
        for die in known:
            if not 1 <= die <= counting.faces:
                raise DudoError(f"a die shows {die!r}; faces are 1..{counting.faces}")
            counts[die] += 1
        self.face_counts: tuple[int, ...] = tuple(counts)
        self._tails: dict[int, tuple[float, ...]] = {}

    @classmethod
    def from_view(cls, view: PlayerView) -> Odds:
        """The odds as ``view``'s player sees them."""
        return cls(view.known_dice, view.unknown_count, counting_for(view))

    def given(self, dice: Iterable[int]) -> Odds:
        """These odds after ``dice`` (until now among the unknown) become known."""
        extra = list(dice)
        known = [f for f, n in enumerate(self.face_counts) for _ in range(n)]
        return Odds(known + extra, self.unknown - len(extra), self.counting)

    def _key(self, face: int) -> tuple[_Kind, int, int]:
        kind = _kind(face, self.counting)
        counts = self.face_counts
        if not 1 <= face < len(counts):
            raise DudoError(f"there is no face {face} (faces are 1..{len(counts) - 1})")
        aces = 0 if kind is _Kind.PLAIN else counts[1]
        return kind, counts[face], aces

    def tails(self, face: int) -> tuple[float, ...]:
        """``tails(face)[q]`` = chance that at least ``q`` dice count for ``face``."""
        found = self._tails.get(face)
        if found is None:
            found = self._tails[face] = _tails(*self._key(face), self.unknown, self.counting.faces)
        return found

    def at_least(self, bid: Bid) -> float:
        """Chance that ``bid`` is true."""
        tails = self._tails.get(bid.face) or self.tails(bid.face)
        q = bid.quantity
        if q <= 0:
            return 1.0
        return tails[q] if q < len(tails) else 0.0

    def exactly(self, bid: Bid) -> float:
        """Chance that ``bid`` is exactly right."""
        tails = self.tails(bid.face)
        q = bid.quantity
        return tails[q] - tails[q + 1] if 0 <= q < len(tails) - 1 else 0.0

    def expected(self, face: int) -> float:
        """Expected number of dice counting for ``face``."""
        return sum(self.tails(face)[1:])


def view_bid_probability(view: PlayerView, bid: Bid) -> float:
    """Chance that ``bid`` is true given everything ``view`` shows."""
    return Odds.from_view(view).at_least(bid)


def view_exactly_probability(view: PlayerView, bid: Bid) -> float:
    """Chance that ``bid`` is exactly right given everything ``view`` shows."""
    return Odds.from_view(view).exactly(bid)


@lru_cache(maxsize=4096)
def probability_at_least(need: int, unknown: int, p: float) -> float:
    """P(X >= need) for X ~ Binomial(unknown, p): at least ``need`` of ``unknown`` dice match."""
    if not 0.0 <= p <= 1.0:
        raise DudoError(f"p: {p} is not a probability")
    if unknown < 0:
        raise DudoError(f"unknown dice: {unknown} is negative")
    if need <= 0:
        return 1.0
    if need > unknown:
        return 0.0
    q = 1.0 - p
    total = 0.0
    for k in range(need, unknown + 1):
        total += comb(unknown, k) * float(p**k) * float(q ** (unknown - k))
    return min(1.0, total)
