"""After-game review: a player's riskiest decisions, the odds they faced, and what a bot
would have done instead. No output here; front ends print the result.

A :class:`Decision` is the view a player had and the action they took. Each gets
:class:`ActionOdds`: the chance that mattered (their own bid true; the standing bid true when
they called; exactly right when they said spot-on; a pass hand qualifying) and the *risk*,
the chance the decision cost them a die (for a bid: if someone calls it). :func:`review`
ranks the decisions by risk and asks a bot (``hard`` by default) what it would have done in
each of the riskiest views.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from dudo.bots import make_adviser, out_of_turn_call
from dudo.engine.actions import Action, Bid, Call, DoubtPass, Pass, RevealBid, SpotOn
from dudo.engine.chance import hand_rolls
from dudo.engine.counting import pass_hand
from dudo.engine.rules import PassHand
from dudo.engine.view import PlayerView
from dudo.odds import bid_odds, view_odds

__all__ = [
    "REVIEWER",
    "ActionOdds",
    "Decision",
    "ReviewedDecision",
    "action_odds",
    "hand_chance",
    "review",
    "riskiest",
]

#: The bot level that reviews a game unless told otherwise.
REVIEWER = "hard"


@dataclass(frozen=True, slots=True)
class Decision:
    """``action``, taken by the player of ``view`` (in turn, or out of turn under cruzado)."""

    view: PlayerView
    action: Action

    @property
    def out_of_turn(self) -> bool:
        return isinstance(self.action, Call) and self.action.by not in (None, self.view.to_move)


@dataclass(frozen=True, slots=True)
class ActionOdds:
    """The odds an action faced. ``bid`` is the bid they are about (the one made, or the
    standing one called or claimed exact; None for passes and obliging choices); ``chance``
    the chance that mattered (bid true, exactly right, the pass hand qualifies; None for an
    obliging choice); ``risk`` the chance the action costs its player a die."""

    action: Action
    bid: Bid | None
    chance: Fraction | None
    risk: Fraction


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One of the riskiest decisions: its number among the player's decisions (1 = first),
    its odds, and the reviewer's action in the same view with its odds (``reviewer`` None:
    the reviewer would not have called out of turn)."""

    number: int
    decision: Decision
    yours: ActionOdds
    reviewer_level: str
    reviewer: ActionOdds | None

    @property
    def same(self) -> bool:
        """Did the reviewer choose what the player chose?"""
        return self.reviewer is not None and _same_action(self.reviewer.action, self.yours.action)


def action_odds(view: PlayerView, action: Action) -> ActionOdds:
    """The odds ``action`` faced, from ``view`` alone."""
    if isinstance(action, Bid):
        true = view_odds(view, action).probability
        assert true is not None
        return ActionOdds(action, action, true, 1 - true)
    if isinstance(action, RevealBid):
        true = _after_reveal(view, action)
        return ActionOdds(action, action.bid, true, 1 - true)
    standing = view.standing_bid
    if isinstance(action, Call) and standing is not None:
        true = view_odds(view, standing).probability
        assert true is not None
        return ActionOdds(action, standing, true, true)
    if isinstance(action, SpotOn) and standing is not None:
        exact = view_odds(view, standing).spot_on
        assert exact is not None
        return ActionOdds(action, standing, exact, 1 - exact)
    if isinstance(action, Pass) and view.viewer is not None:
        qualifies = hand_chance(view, view.viewer)
        return ActionOdds(action, None, qualifies, 1 - qualifies)
    if isinstance(action, DoubtPass) and view.passer is not None:
        qualifies = hand_chance(view, view.passer)
        return ActionOdds(action, None, qualifies, qualifies)
    return ActionOdds(action, None, None, Fraction(0))  # an obliging choice risks nothing


def hand_chance(view: PlayerView, seat: int) -> Fraction:
    """Chance that ``seat``'s hand is a pass hand of the rules, from what ``view`` shows of
    it (every die unknown to the viewer counted as a fair die; the engine judges hands)."""
    seen = view.seen_dice[seat] or ()
    hidden = view.dice_counts[seat] - len(seen)
    rules = view.rules
    return _hand_chance(tuple(sorted(seen)), hidden, rules.faces, rules.pass_hands)


def riskiest(
    decisions: Sequence[Decision], count: int = 3
) -> list[tuple[int, Decision, ActionOdds]]:
    """Up to ``count`` decisions that risked a die, riskiest first (earlier first on equal
    risk), each with its number (1 = the first decision) and its odds."""
    judged = [(n, d, action_odds(d.view, d.action)) for n, d in enumerate(decisions, start=1)]
    risky = [item for item in judged if item[2].risk > 0]
    risky.sort(key=lambda item: (-item[2].risk, item[0]))
    return risky[:count]


def review(
    decisions: Sequence[Decision], *, level: str = REVIEWER, count: int = 3, seed: int = 0
) -> list[ReviewedDecision]:
    """The ``count`` riskiest ``decisions`` with what a ``level`` bot (seeded by ``seed``)
    would have done in each view. An unknown level raises :class:`DudoError`."""
    reviewed = []
    for number, decision, yours in riskiest(decisions, count):
        bot = make_adviser(level, random.Random(f"dudo-review:{seed}:{number}"))
        view = decision.view
        choice = out_of_turn_call(bot, view) if decision.out_of_turn else bot.choose(view)
        theirs = None if choice is None else action_odds(view, choice)
        reviewed.append(ReviewedDecision(number, decision, yours, bot.name, theirs))
    return reviewed


def _same_action(a: Action, b: Action) -> bool:
    if isinstance(a, Call) and isinstance(b, Call):
        return True  # in turn or out of turn, a call is a call
    return a == b


def _after_reveal(view: PlayerView, action: RevealBid) -> Fraction:
    """Chance a reveal-and-reroll raise is true: the set-aside dice are known, the rest of
    the player's hidden dice are re-rolled, so unknown again."""
    me = view.viewer
    rerolled = len(view.my_dice or ()) - len(action.reveal)
    aside = (view.set_aside[me] if me is not None else ()) + action.reveal
    others = [d for p, hand in enumerate(view.seen_dice) if p != me and hand for d in hand]
    odds = bid_odds(
        view.rules,
        aside,
        view.unknown_count + rerolled,
        revealed=others,
        obliging=view.obliging,
        bid=action.bid,
    )
    assert odds.probability is not None
    return odds.probability


@lru_cache(maxsize=256)
def _hand_chance(
    seen: tuple[int, ...], hidden: int, faces: int, allowed: frozenset[PassHand]
) -> Fraction:
    if hidden < 0:
        return Fraction(0)
    hits = sum(
        ways
        for roll, ways in hand_rolls(hidden, faces)
        if pass_hand(seen + roll, allowed) is not None
    )
    return Fraction(hits, faces**hidden)
