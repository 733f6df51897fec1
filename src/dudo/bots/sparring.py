"""Sparring partners ("caller" and "bluffer"): two bots with a recognisable, exploitable
style, so that a bot's constants are checked against opponents that call often and bluff
often, not only against our own weaker levels.

Both judge bids by the exact odds on fair dice (:class:`~dudo.probability.Odds`, as ``easy``
does) and pick among the view's legal actions only. They are arena and terminal opponents,
not server table levels (:data:`dudo.bots.SPARRING_BOTS`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dudo.bots.probability import ProbabilityBot
from dudo.engine.actions import Action, Bid, Call
from dudo.engine.view import PlayerView
from dudo.probability import Odds

#: ``caller`` doubts every standing bid less likely than this from its own dice, with the
#: bidder credited with none of the bid's face (``easy`` credits one die): it calls whatever
#: looks less likely than not on fair dice, though bidders mostly hold what they bid, i.e.
#: too often (heads-up ``dudo`` against ``easy``, 65% of the rounds that end in a call end
#: in its call; three answers in four to a bid are a call).
CALLER_CALL_BELOW = 0.5

#: Dice of the bid's face ``caller`` credits the bidder with (``easy``: 1).
CALLER_CREDIT = 0

#: ``caller`` calls out of turn (``cruzado``) below this chance; ``easy`` uses 0.1.
CALLER_OUT_OF_TURN_BELOW = 0.3

#: ``bluffer`` only doubts a standing bid less likely than this (with the bidder credited
#: with :data:`BLUFFER_CREDIT` dice of its face): it calls rarely and keeps raising instead
#: (heads-up against ``easy`` 18% of the rounds that end in a call end in its call).
BLUFFER_CALL_BELOW = 0.12

#: Dice of the bid's face ``bluffer`` credits the bidder with (``easy``: 1): trusting the
#: others' bids is part of why it seldom calls.
BLUFFER_CREDIT = 2

#: ``bluffer`` raises to bids at least this likely from its own dice; ``easy`` opens at 0.6
#: and raises to the likeliest bid. So low a floor makes it bid well above its dice.
BLUFFER_RAISE_FLOOR = 0.3

#: ``bluffer`` picks at random among this many of the highest bids above its floor: its
#: raises jump in quantity rather than creep up by one.
BLUFFER_TOP_BIDS = 3

#: Chance that ``bluffer`` bids on a face it holds none of (when such a bid clears its
#: floor): the classic bluff that sends the others after the wrong face.
BLUFFER_FOREIGN_FACE = 0.4


def _bids(legal: Sequence[Action]) -> list[Bid]:
    return [a for a in legal if isinstance(a, Bid)]


def _own_call(view: PlayerView, legal: Sequence[Action]) -> Call | None:
    """The in-turn call among the legal actions, if any."""
    for action in legal:
        if isinstance(action, Call) and action.by in (None, view.viewer):
            return action
    return None


class CallerBot(ProbabilityBot):
    """Doubts much more readily than the odds warrant: whenever the standing bid is less
    likely than :data:`CALLER_CALL_BELOW` given its own dice and fair dice elsewhere (the
    bidder credited with :data:`CALLER_CREDIT` dice of the face); otherwise it plays like
    ``easy``."""

    name: str = "caller"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(
            rng, out_of_turn_below=CALLER_OUT_OF_TURN_BELOW, credit_bidder=CALLER_CREDIT
        )

    def _answer_policy(
        self, view: PlayerView, odds: Odds, standing: Bid, legal: Sequence[Action]
    ) -> dict[Action, float]:
        call = _own_call(view, legal)
        if call is not None and (
            self._standing_odds(view, odds).at_least(standing) < CALLER_CALL_BELOW
        ):
            return {call: 1.0}
        return super()._answer_policy(view, odds, standing, legal)


class BlufferBot(ProbabilityBot):
    """Bids well above what its dice support and calls rarely: it opens and raises to one
    of the :data:`BLUFFER_TOP_BIDS` highest bids at least :data:`BLUFFER_RAISE_FLOOR`
    likely, often on a face it does not hold (:data:`BLUFFER_FOREIGN_FACE`), and calls only
    below :data:`BLUFFER_CALL_BELOW`. When it neither calls nor bluffs (no bid clears even
    the call threshold, an obliging choice, a pass hand under ``dudo``...) it plays like
    ``easy``."""

    name: str = "bluffer"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, credit_bidder=BLUFFER_CREDIT)

    def choose(self, view: PlayerView) -> Action:
        bids = _bids(view.legal_actions)
        if view.standing_bid is None and bids:  # opening: its own hand decides the face
            choice = self._bluff(self._odds(view), bids, view.my_dice)
            if choice is not None:
                return choice
        return super().choose(view)

    def policy(self, view: PlayerView) -> dict[Action, float]:
        bids = _bids(view.legal_actions)
        if view.standing_bid is None and bids:
            found = self._bluff_policy(self._odds(view), bids, view.my_dice)
            if found is not None:
                return found
        return super().policy(view)

    def _answer_policy(
        self, view: PlayerView, odds: Odds, standing: Bid, legal: Sequence[Action]
    ) -> dict[Action, float]:
        # The same branches as ``_answer``, as a distribution; where ``_answer`` defers to
        # ``easy`` so does this (its own branches did not apply there).
        call = _own_call(view, legal)
        if call is not None:
            if self._standing_odds(view, odds).at_least(standing) < BLUFFER_CALL_BELOW:
                return {call: 1.0}
            found = self._bluff_policy(odds, _bids(legal), view.my_dice)
            if found is not None:
                return found
            bids = _bids(legal)
            if bids:
                best = max(bids, key=odds.at_least)
                if odds.at_least(best) >= BLUFFER_CALL_BELOW:
                    return {best: 1.0}
        return super()._answer_policy(view, odds, standing, legal)

    def _bluff_policy(
        self, odds: Odds, bids: list[Bid], hand: Sequence[int] | None
    ) -> dict[Action, float] | None:
        """What :meth:`_bluff` draws from: a uniform pick among the top bids, of a foreign
        face with chance :data:`BLUFFER_FOREIGN_FACE` when there is one."""
        fit = [b for b in bids if odds.at_least(b) >= BLUFFER_RAISE_FLOOR]
        if not fit:
            return None
        parts = [(1.0, fit)]
        if hand is not None:
            foreign = [b for b in fit if b.face not in hand]
            if foreign:
                parts = [(BLUFFER_FOREIGN_FACE, foreign), (1.0 - BLUFFER_FOREIGN_FACE, fit)]
        out: dict[Action, float] = {}
        for share, listed in parts:
            top = listed[-BLUFFER_TOP_BIDS:]
            for bid in top:
                out[bid] = out.get(bid, 0.0) + share / len(top)
        return out

    def _answer(
        self, view: PlayerView, odds: Odds, standing: Bid, legal: Sequence[Action]
    ) -> Action:
        call = _own_call(view, legal)
        if call is not None:
            if self._standing_odds(view, odds).at_least(standing) < BLUFFER_CALL_BELOW:
                return call
            choice = self._bluff(odds, _bids(legal), view.my_dice)
            if choice is not None:
                return choice
            # Nothing clears the floor: the least unlikely raise, unless it is hopeless.
            bids = _bids(legal)
            if bids:
                best = max(bids, key=odds.at_least)
                if odds.at_least(best) >= BLUFFER_CALL_BELOW:
                    return best
        return super()._answer(view, odds, standing, legal)

    def _bluff(self, odds: Odds, bids: list[Bid], hand: Sequence[int] | None) -> Bid | None:
        """A high bid at least :data:`BLUFFER_RAISE_FLOOR` likely, or None."""
        fit = [b for b in bids if odds.at_least(b) >= BLUFFER_RAISE_FLOOR]
        if not fit:
            return None
        if hand is not None and self.rng.random() < BLUFFER_FOREIGN_FACE:
            foreign = [b for b in fit if b.face not in hand]
            if foreign:
                fit = foreign
        top = fit[-BLUFFER_TOP_BIDS:]  # legal bids come lowest first
        return top[self.rng.randrange(len(top))]
