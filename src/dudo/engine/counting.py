"""Counting dice: how many match a bid, and which pass hand a set of dice makes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from dudo.engine.rules import PassHand


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


def pass_hand(dice: Iterable[int], allowed: frozenset[PassHand]) -> PassHand | None:
    """The special hand these dice make among ``allowed`` (aces are their own face), or None.

    Every pattern needs exactly five dice.
    """
    values = list(dice)
    if len(values) != 5:
        return None
    shape = sorted(Counter(values).values())
    if shape == [5] and PassHand.FIVE_KIND in allowed:
        return PassHand.FIVE_KIND
    if shape == [2, 3] and PassHand.FULL_HOUSE in allowed:
        return PassHand.FULL_HOUSE
    if shape == [1, 1, 1, 1, 1] and PassHand.FIVE_DIFFERENT in allowed:
        return PassHand.FIVE_DIFFERENT
    return None
