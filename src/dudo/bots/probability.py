"""The probability player (the ``easy`` level): judges every legal action by the exact odds
of the bids it involves, from the dice it can see, and takes the best one.

Its model of the other players is deliberately thin: every die it cannot see is a fair
die, except that the player who made the standing bid is assumed to hold a couple of dice
of its face; and it remembers how often each player's past passes were backed by a real
pass hand (read from the public reveals).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dudo.engine.actions import (
    CLOSED,
    OPEN,
    PASS,
    Action,
    Bid,
    Call,
    DoubtPass,
    ObligeChoice,
    Pass,
    RevealBid,
    SpotOn,
)
from dudo.engine.counting import may_hold_pass_hand, pass_hand
from dudo.engine.errors import DudoError
from dudo.engine.events import Passed, Revealed, RoundCancelled, RoundStarted
from dudo.engine.rules import SpotOnReward
from dudo.engine.view import PlayerView
from dudo.probability import Odds, counting_for

# Prior belief that a pass is backed by a pass hand, as (honest passes, passes) seen.
_PASS_PRIOR = (2, 3)


class ProbabilityBot:
    """Plays the odds of the bids on the table.

    ``P(b)`` is the exact chance that bid ``b`` is true given the dice this player sees
    (:class:`~dudo.probability.Odds`), every other die being a fair die. When judging the
    *standing* bid (call, spot-on, out-of-turn call) the bidder is credited with holding
    ``credit_bidder`` dice of the bid's face among their unseen dice: players mostly bid
    what they hold, and a bot that ignores this calls far too often.

    - **Opening** a round: the highest legal bid (in the bid order) with
      ``P >= opening_confidence``; if none is that likely, the likeliest bid.
    - **Answering** a bid, every legal action gets a value and the highest wins:
      a raise ``b`` is worth ``P(b)`` (ties: the face with more expected dice, then the
      lowest bid); a raise with reveal-and-reroll is worth ``P(b)`` after the reroll minus
      ``reveal_margin`` (it gives information away and loses sight of the rerolled dice);
      a call ``1 - P(standing) - call_margin``; doubting a pass ``1 -`` the passer's
      credibility (:func:`pass_credibility`); spot-on ``P(exactly right)`` (the lower of
      this player's odds and fair dice's, so that a bluffed bid cannot make a claim look
      sure; the bidder's credit is left out), considered only
      from ``spot_on_min`` (``cancel_spot_on_min`` when a right spot-on only cancels the
      round). Under ``cancel`` it never claims spot-on in the round after a cancelled
      one: two players on one die each would otherwise re-deal for ever, since a bid
      of ``1×f`` is exactly right whenever the answering die does not match.
    - **Passing**: with a real pass hand it passes unless another action is worth at least
      ``pass_value``; without one it bluffs a pass with chance ``bluff_rate`` when nothing
      else is worth ``bluff_below``, if it holds enough dice that its pass may be real.
    - **Obliging round choice**: open (the obliger, on one die, then sees every other die).
    - **Out of turn** (``cruzado``): calls when ``P(standing) < out_of_turn_below``.

    The defaults were tuned in self-play (``dudo``, 2 and 4 players), except the credit:
    with two dice of credit a short reinforcement-learning run (``bench/exploiter_trial.py``,
    MaskablePPO, 100,000 steps, ``dudo`` heads-up) learned to bid what it did not hold, which
    this player seldom called, and won 87% of its games; with one it wins 6%. Against the
    other bots (heads-up, 4,000 games on common deals) this player then gained against the
    bluffer (+37 to +55 points of win rate) and lost against ``medium`` (-4 to -16).
    """

    name: str = "probability"

    def __init__(
        self,
        rng: random.Random,
        *,
        opening_confidence: float = 0.6,
        spot_on_min: float = 0.35,
        cancel_spot_on_min: float = 0.5,
        pass_value: float = 0.75,
        bluff_below: float = 0.35,
        bluff_rate: float = 0.1,
        out_of_turn_below: float = 0.1,
        reveal_margin: float = 0.05,
        call_margin: float = 0.0,
        credit_bidder: int = 1,
    ) -> None:
        self.rng = rng
        self.opening_confidence = opening_confidence
        self.spot_on_min = spot_on_min
        self.cancel_spot_on_min = cancel_spot_on_min
        self.pass_value = pass_value
        self.bluff_below = bluff_below
        self.bluff_rate = bluff_rate
        self.out_of_turn_below = out_of_turn_below
        self.reveal_margin = reveal_margin
        self.call_margin = call_margin
        self.credit_bidder = credit_bidder

    # ---------------------------------------------------------------------- interface

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise DudoError(f"player {view.viewer} has no legal action now")
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], ObligeChoice):
            return OPEN if OPEN in legal else CLOSED if CLOSED in legal else legal[0]
        odds = self._odds(view)
        if view.standing_bid is None:
            return self._open(odds, legal)
        return self._answer(view, odds, view.standing_bid, legal)

    def policy(self, view: PlayerView) -> dict[Action, float]:
        """The probability of each action ``choose`` plays for ``view`` (the actions it
        may return, all with positive probability)."""
        legal = view.legal_actions
        if not legal:
            raise DudoError(f"player {view.viewer} has no legal action now")
        if len(legal) == 1 or isinstance(legal[0], ObligeChoice):
            return {self.choose(view): 1.0}  # no randomness on these paths
        odds = self._odds(view)
        if view.standing_bid is None:
            return {self._open(odds, legal): 1.0}
        return self._answer_policy(view, odds, view.standing_bid, legal)

    def wants_out_of_turn_call(self, view: PlayerView) -> bool:
        """Under ``cruzado``: call out of turn when the standing bid is very likely false."""
        bid = view.standing_bid
        if bid is None or not any(
            isinstance(a, Call) and a.by == view.viewer for a in view.legal_actions
        ):
            return False
        odds = self._standing_odds(view, self._odds(view))
        return odds.at_least(bid) < self.out_of_turn_below

    # ----------------------------------------------------------------------- deciding

    def _odds(self, view: PlayerView) -> Odds:
        """What this player believes of the dice it cannot see: here, fair dice."""
        return Odds.from_view(view)

    def _open(self, odds: Odds, legal: Sequence[Action]) -> Action:
        bids = [a for a in legal if isinstance(a, Bid)]
        if not bids:  # never happens: a round's opener may only bid
            return legal[0]
        confident = [b for b in bids if odds.at_least(b) >= self.opening_confidence]
        if confident:
            return confident[-1]  # legal bids come lowest first
        ranked = enumerate(bids)
        return max(
            ranked, key=lambda ib: (odds.at_least(ib[1]), odds.expected(ib[1].face), -ib[0])
        )[1]

    def _answer(
        self, view: PlayerView, odds: Odds, standing: Bid, legal: Sequence[Action]
    ) -> Action:
        found = self._answer_policy(view, odds, standing, legal)
        if len(found) == 1:
            return next(iter(found))
        # The one random choice: a bluffed pass, drawn as it always was.
        return PASS if self.rng.random() < found[PASS] else next(a for a in found if a != PASS)

    def _answer_policy(
        self, view: PlayerView, odds: Odds, standing: Bid, legal: Sequence[Action]
    ) -> dict[Action, float]:
        """The answer to ``standing`` as a distribution: one action, or a bluffed pass
        with chance ``bluff_rate`` and the best action otherwise."""
        standing_odds = self._standing_odds(view, odds)
        p_standing = standing_odds.at_least(standing)
        expected: dict[int, float] = {}
        after_reveal: dict[tuple[int, ...], Odds] = {}
        hidden_odds: Odds | None = None
        best: tuple[float, float, int] | None = None
        choice: Action | None = None
        may_pass = False
        for index, action in enumerate(legal):
            tie = 0.0
            if isinstance(action, Bid):
                value = odds.at_least(action)
                face = action.face
                if face not in expected:
                    expected[face] = odds.expected(face)
                tie = expected[face]
            elif isinstance(action, RevealBid):
                if hidden_odds is None:
                    hidden_odds = _without_own_hidden(view)
                known = after_reveal.get(action.reveal)
                if known is None:
                    known = after_reveal[action.reveal] = hidden_odds.given(action.reveal)
                value = known.at_least(action.bid) - self.reveal_margin
            elif isinstance(action, Call):
                value = 1.0 - p_standing - self.call_margin
            elif isinstance(action, DoubtPass):
                passer = view.passer
                value = 1.0 - (pass_credibility(view, passer) if passer is not None else 0.0)
            elif isinstance(action, SpotOn):
                # Exactly right on fair dice too, not only as the bids suggest: credited with
                # the dice of the bid's face (or read from its bids), a bluffer's wild bid
                # looked exactly right for sure, and claims against bluffers were mostly lost.
                fair = odds if type(odds) is Odds else Odds.from_view(view)
                value = min(odds.exactly(standing), fair.exactly(standing))
                cancel = view.rules.spot_on_reward is SpotOnReward.CANCEL
                if value < (self.cancel_spot_on_min if cancel else self.spot_on_min):
                    continue
                if cancel and _follows_cancelled_round(view):
                    continue  # no endless re-deals: see the class docstring
            elif isinstance(action, Pass):
                may_pass = True
                continue
            else:
                continue
            key = (value, tie, -index)
            if best is None or key > best:
                best, choice = key, action
        best_value = best[0] if best is not None else -1.0
        fallback = choice if choice is not None else legal[0]
        if may_pass:
            if holds_pass_hand(view):
                if best_value < self.pass_value:
                    return {PASS: 1.0}
            elif (
                best_value < self.bluff_below
                and fallback != PASS
                and self.bluff_rate > 0
                # With too few dice for any pass hand a pass is a sure bluff, and is doubted.
                and view.viewer is not None
                and may_hold_pass_hand(view.dice_counts[view.viewer], view.rules.pass_hands)
            ):
                if self.bluff_rate >= 1:
                    return {PASS: 1.0}
                return {PASS: self.bluff_rate, fallback: 1.0 - self.bluff_rate}
        return {fallback: 1.0}

    def _standing_odds(self, view: PlayerView, odds: Odds) -> Odds:
        """The odds for judging the standing bid: its bidder is credited with holding
        ``credit_bidder`` dice of its face (when their dice are hidden from this player)."""
        credit, bidder, bid = self.credit_bidder, view.bidder, view.standing_bid
        if credit <= 0 or bidder is None or bid is None:
            return odds
        unseen = view.dice_counts[bidder] - len(view.seen_dice[bidder] or ())
        credit = min(credit, unseen, odds.unknown)
        return odds.given((bid.face,) * credit) if credit > 0 else odds


def _without_own_hidden(view: PlayerView) -> Odds:
    """The odds as if this player's hidden dice were unknown (they get rerolled by a reveal)."""
    own = view.my_dice or ()
    known = list(view.known_dice)
    for die in own:
        known.remove(die)
    return Odds(known, view.unknown_count + len(own), counting_for(view))


def _follows_cancelled_round(view: PlayerView) -> bool:
    """Was the round before this one cancelled by a right spot-on?"""
    events = view.events
    for i in range(len(events) - 1, 0, -1):
        if isinstance(events[i], RoundStarted):
            return isinstance(events[i - 1], RoundCancelled)
    return False


def holds_pass_hand(view: PlayerView) -> bool:
    """Does the viewer's own hand, as they see it, make one of the rules' pass hands?"""
    if view.viewer is None:
        return False
    hand = view.seen_dice[view.viewer]
    return hand is not None and pass_hand(hand, view.rules.pass_hands) is not None


def pass_credibility(view: PlayerView, player: int) -> float:
    """How far ``player``'s passes are believed: not at all if they hold too few dice to
    make a pass hand; else their share of passes that the game's reveals showed to be backed
    by a pass hand, starting from a prior of 2 in 3."""
    if not may_hold_pass_hand(view.dice_counts[player], view.rules.pass_hands):
        return 0.0
    honest, total = _PASS_PRIOR
    pending: list[int] = []
    allowed = view.rules.pass_hands
    for event in view.events:
        if isinstance(event, RoundStarted):
            pending = []
        elif isinstance(event, Passed):
            pending.append(event.player)
        elif isinstance(event, Revealed):
            for p in pending:
                if p != player:
                    continue
                total += 1
                if event.passer == p:
                    honest += event.pass_hand is not None
                elif p < len(event.hands):
                    honest += pass_hand(event.hands[p], allowed) is not None
            pending = []
    return honest / total
