"""Counting dice: how dice count in a round (:class:`Counting`), how many match a bid, and
which pass hand a set of dice makes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from dudo.engine.errors import DudoError
from dudo.engine.rules import PassHand, Rules


@dataclass(frozen=True, slots=True)
class Counting:
    """How dice count for a bid in one round.

    ``wild``: aces count for every other face (a bid on aces counts aces only);
    ``needs_natural`` (only with ``wild``): aces count for a face only if at least one
    natural of it is on the table; ``faces``: faces per die.
    """

    wild: bool = True
    needs_natural: bool = False
    faces: int = 6

    def __post_init__(self) -> None:
        if not 2 <= self.faces <= 6:
            raise DudoError(f"faces: {self.faces} is outside 2..6")
        if self.wild and self.faces < 3:
            raise DudoError(f"wild aces need at least 3 faces, not {self.faces}")


@lru_cache(maxsize=256)
def counting_of(rules: Rules, obliging: bool = False) -> Counting:
    """How dice count under ``rules`` in an ordinary round, or in an obliging round
    (``obliging``: aces are never wild there; docs/rules.md, obliging round)."""
    wild = rules.aces_wild and not obliging
    return Counting(wild, wild and rules.wild_needs_natural, rules.faces)


def count_matching(
    hands: Iterable[Sequence[int]], face: int, wild: bool, needs_natural: bool
) -> int:
    """Dice on the table that count for a bid on ``face``.

    ``wild``: aces count for every other face; ``needs_natural``: only if at least one
    natural ``face`` is on the table (over all hands). A bid on aces counts aces only.
    """
    naturals = 0
    aces = 0
    for hand in hands:
        naturals += hand.count(face)
        aces += hand.count(1)
    if not wild or face == 1 or (needs_natural and naturals == 0):
        return naturals
    return naturals + aces  # face != 1 here, so no die was counted twice


def counting_dice(
    hands: Sequence[Sequence[int]], face: int, wild: bool, needs_natural: bool
) -> tuple[tuple[bool, ...], ...]:
    """Which dice count for a bid on ``face``, hand by hand (the dice :func:`count_matching`
    counts), so a reveal can mark them."""
    aces_count = wild and face != 1 and (not needs_natural or any(face in h for h in hands))
    return tuple(tuple(d == face or (aces_count and d == 1) for d in hand) for hand in hands)


PASS_HAND_DICE = 5
"""Every pass hand is a pattern of exactly this many dice."""


def may_hold_pass_hand(dice: int, allowed: frozenset[PassHand]) -> bool:
    """Can a player holding ``dice`` dice make one of the ``allowed`` pass hands? If not,
    any pass of theirs is a bluff, and doubting it wins."""
    return dice == PASS_HAND_DICE and bool(allowed)


def pass_hand(dice: Iterable[int], allowed: frozenset[PassHand]) -> PassHand | None:
    """The special hand these dice make among ``allowed`` (aces are their own face), or None.

    Every pattern needs exactly :data:`PASS_HAND_DICE` dice.
    """
    values = list(dice)
    if len(values) != PASS_HAND_DICE:
        return None
    shape = sorted(Counter(values).values())
    if shape == [5] and PassHand.FIVE_KIND in allowed:
        return PassHand.FIVE_KIND
    if shape == [2, 3] and PassHand.FULL_HOUSE in allowed:
        return PassHand.FULL_HOUSE
    if shape == [1, 1, 1, 1, 1] and PassHand.FIVE_DIFFERENT in allowed:
        return PassHand.FIVE_DIFFERENT
    return None
