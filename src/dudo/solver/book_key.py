"""Which book serves which rules: positions are looked up by what decides them.

A book's folder is named by :func:`rules_id` of the rules it was solved for. One option,
``dice_per_player``, is both the hand a game starts with and the most dice a hand may hold;
between two players it changes a position only where a right spot-on can happen
(``spot_on`` with ``spot_on_min_players`` 2): its ``gain`` is capped by it, and a
``spot_on_threshold`` other than ``none`` compares the dice in play with the start total.
Everywhere else dice never rise (``cruzado`` needs a third player, ``oblige`` and ``loss``
only take dice away), so the round at 3v2 is the same situation whatever hand the game
started with: a game of 3 dice each plays the rounds of a book solved for 5.

:func:`book_rules` gives the rules a book for such a game is kept under (``dice_per_player``
5, the most there is, so one book serves every smaller hand); where the hand does matter the
rules stay as they are. Books are solved as games begun heads-up with ``dice_per_player``
dice each; :func:`start_fits` tells where a game begun with more players still meets the
same positions.
"""

from __future__ import annotations

import functools
import hashlib
import json

from dudo.engine import Rules
from dudo.engine.rules import OPTIONS, SpotOnReward, SpotOnThreshold

#: Options that cannot change a heads-up round or what follows it: left out of
#: :func:`rules_id`, so a book serves every table that differs from it only in these.
SEATING_OPTIONS = ("seating", "direction", "min_players", "max_players")

#: The largest hand (``dice_per_player``) there is: a book kept for it holds every smaller one.
MOST_DICE = OPTIONS["dice_per_player"].high or 5


@functools.lru_cache(maxsize=64)
def rules_id(rules: Rules) -> str:
    """A short stable name for ``rules``: 12 hex digits of the SHA-256 of its options
    (except :data:`SEATING_OPTIONS`) as sorted JSON."""
    options = {k: v for k, v in rules.to_dict().items() if k not in SEATING_OPTIONS}
    text = json.dumps(options, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def heads_up_spot_on(rules: Rules) -> bool:
    """Can a spot-on be claimed with two players left?"""
    return rules.spot_on and rules.spot_on_min_players <= 2


def start_matters(rules: Rules) -> bool:
    """Does a heads-up position under ``rules`` depend on the dice the game started with?"""
    return heads_up_spot_on(rules) and rules.spot_on_threshold is not SpotOnThreshold.NONE


def hand_matters(rules: Rules) -> bool:
    """Does a heads-up position under ``rules`` depend on ``dice_per_player``: can dice rise
    back towards it, or is the start total part of the rules?"""
    gain = heads_up_spot_on(rules) and rules.spot_on_reward is SpotOnReward.GAIN
    return gain or start_matters(rules)


@functools.lru_cache(maxsize=64)
def book_rules(rules: Rules) -> Rules:
    """The rules the book for a game under ``rules`` is kept under: ``dice_per_player`` made
    :data:`MOST_DICE` where it cannot change a heads-up position, else ``rules``."""
    if hand_matters(rules) or rules.dice_per_player == MOST_DICE:
        return rules
    return rules.with_options(dice_per_player=MOST_DICE)


def book_id(rules: Rules) -> str:
    """The :func:`rules_id` of :func:`book_rules`: the folder of the book that serves
    ``rules`` when no book was built for exactly these rules."""
    return rules_id(book_rules(rules))


def serves(solved: Rules, rules: Rules) -> bool:
    """Do the heads-up positions of a book solved under ``solved`` stand for those of a game
    under ``rules`` (dice counts alike, whatever the start where it cannot matter)?"""
    return book_id(solved) == book_id(rules)


def start_fits(rules: Rules, start_total: int, in_play: int) -> bool:
    """Does a book's position of ``in_play`` dice stand for the same position of a game
    under ``rules`` that began with ``start_total`` dice? Books are solved as games begun
    heads-up with ``dice_per_player`` each; another start changes nothing unless a spot-on
    allowed under one start and not the other can still come (:func:`start_matters`)."""
    solved = 2 * rules.dice_per_player
    if not start_matters(rules) or start_total == solved:
        return True
    more_than_half = rules.spot_on_threshold is SpotOnThreshold.MORE_THAN_HALF

    def allowed(dice: int, start: int) -> bool:
        # A one-die claimant's right under half_or_single is the same whatever the start.
        return 2 * dice > start if more_than_half else 2 * dice >= start

    top = in_play
    if rules.spot_on_reward is SpotOnReward.GAIN and (
        not more_than_half
        or any(allowed(d, s) for d in range(2, in_play + 1) for s in (start_total, solved))
    ):
        top = solved  # right claims may win dice back, up to full hands
    return all(allowed(d, start_total) == allowed(d, solved) for d in range(2, top + 1))
