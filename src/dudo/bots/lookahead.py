"""The one-round lookahead (part of the ``hard`` level: :data:`dudo.bots.LEVELS`), on
inferred beliefs.

The lookahead (:class:`LookaheadBot`) judges each action by the chance that it costs this
player a die:

- calling the standing bid loses if the bid is true;
- a raise loses if the next player calls it and it is false. The next player's answer is
  predicted from the same bidding model the beliefs use (:class:`~dudo.bots.beliefs.BidModel`:
  a player calls a bid that their own dice make unlikely), over the posterior of what they
  hold, and jointly with whether the bid is then false. If they raise instead, the round
  goes on: that costs ``continuation`` (a tuned constant, smaller with more players, who
  may call each other first);
- spot-on loses if the count is not exactly right, doubting a pass if the pass was honest,
  and passing with a real pass hand only costs the continuation.

It takes the action with the smallest expected loss (``temperature`` > 0 mixes instead,
weighting each action by exp(-(loss - least) / temperature); measured weaker, see
:data:`LOOKAHEAD_TEMPERATURE`). Rules it has no model for (revealing
and rerolling, choosing the obliging round's visibility, bluffed passes, out-of-turn calls)
are decided as the inferring player (:class:`~dudo.bots.inferring.InferringBot`) decides them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np

from dudo.bots.beliefs import BeliefOdds, Beliefs, BidModel, Ints, sigmoid
from dudo.bots.inferring import InferringBot
from dudo.bots.probability import holds_pass_hand, pass_credibility
from dudo.engine.actions import Action, Bid, Call, DoubtPass, Pass, SpotOn
from dudo.engine.errors import DudoError
from dudo.engine.view import PlayerView
from dudo.probability import Odds

LOOKAHEAD_TEMPERATURE = 0.0
"""How far the lookahead mixes: an action is played with weight exp(-(loss - least) / T);
0 plays the least expected loss alone. Mixing was measured and not adopted
(``bench/lookahead_temperature.py``): at T = 0.02 the exact exploitability of small rounds
fell (mean 0.889 -> 0.784), but at 5v5, where ``hard`` plays the lookahead, a local best
response won 0.544 ± 0.052 a round against it, where it wins nothing against T = 0, and
``hard``'s paired margin over ``medium`` heads-up under ``liars-dice`` fell from +23.0 to
+16.4 points (more mixing lost more: T = 0.1 trails ``medium`` by 16 points)."""

MIN_WEIGHT = 1e-3
"""Actions whose weight is below this (relative to the best action's 1) are never played."""


class LookaheadBot(InferringBot):
    """One-round lookahead against the inferred bidding model (see the module docstring).

    ``continuation`` is the expected loss charged when the next player raises rather than
    calls, heads-up; with more players it is divided by the other players still in.
    ``predicted_call_threshold`` is where the predicted answer turns from raising to calling:
    the chance of the bid, as the next player's own dice make it. It is not the bidding
    model's ``call_threshold`` (0.35), which reads what a raise says about the raiser's dice
    when inferring beliefs; this one predicts whether a raise of ours is called, which is
    what a best-responding opponent decides. It was 0.2, tuned
    against the lower levels, which seldom call: a 100,000-step MaskablePPO run
    (``bench/exploiter_trial.py``, ``dudo`` heads-up) then called its raises and won 94% of
    its games. At 0.5 (a player calls what is less likely than not), with spot-on judged on
    fair dice too, it wins 8%, and this player's paired results against ``medium``, the
    bluffer and the caller all rose.
    """

    name: str = "lookahead"

    def __init__(
        self,
        rng: random.Random,
        *,
        model: BidModel | None = None,
        continuation: float = 0.0,
        predicted_call_threshold: float = 0.5,
        temperature: float | None = None,
    ) -> None:
        super().__init__(rng, model=model)
        if temperature is None:
            temperature = LOOKAHEAD_TEMPERATURE
        if not temperature >= 0:  # also refuses NaN
            raise DudoError(f"the lookahead's temperature must be at least 0, not {temperature}")
        self.continuation = continuation
        self.predicted_call_threshold = predicted_call_threshold
        self.temperature = temperature

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise DudoError(f"player {view.viewer} has no legal action now")
        mixed = self._lookahead(view)
        if mixed is None:
            return super().choose(view)
        if len(mixed) == 1:
            return next(iter(mixed))
        actions = list(mixed)
        return self.rng.choices(actions, weights=[mixed[a] for a in actions])[0]

    def policy(self, view: PlayerView) -> dict[Action, float]:
        """The lookahead's mixed strategy, else the inferring player's policy."""
        if not view.legal_actions:
            raise DudoError(f"player {view.viewer} has no legal action now")
        mixed = self._lookahead(view)
        return mixed if mixed is not None else super().policy(view)

    def _lookahead(self, view: PlayerView) -> dict[Action, float] | None:
        """Each action's probability from its expected loss, or None where the inferring
        player decides."""
        losses = self._losses(view)
        if not losses:
            return None
        best = min(losses.values())
        if self.temperature <= 0.0:
            return {next(a for a, loss in losses.items() if loss == best): 1.0}
        # A softmax over the losses; actions far worse than the best are dropped so that
        # the strategy stays small (and an exploiter learns nothing from them).
        weights = {
            action: weight
            for action, loss in losses.items()
            if (weight := math.exp((best - loss) / self.temperature)) >= MIN_WEIGHT
        }
        total = sum(weights.values())
        return {action: weight / total for action, weight in weights.items()}

    def _losses(self, view: PlayerView) -> dict[Action, float] | None:
        """The expected loss of each action the lookahead judges, in legal order; None
        where it judges none (the inferring player decides)."""
        legal = view.legal_actions
        me = view.viewer
        if len(legal) == 1 or me is None or not view.my_turn:
            return None
        beliefs = Beliefs(view, self.model)
        nxt = view.next_player(me)
        if nxt == me or beliefs.weights[nxt] is None:
            return None  # nobody to predict (their dice are all seen)
        odds = BeliefOdds(beliefs)
        live = sum(1 for n in view.dice_counts if n > 0)
        later = self.continuation / max(live - 1, 1)
        bids = [a for a in legal if type(a) is Bid]
        raises = self._raise_losses(beliefs, nxt, bids, later)
        losses: dict[Action, float] = {}
        for action in legal:
            loss: float | None
            if type(action) is Bid:
                loss = raises[action]
            elif isinstance(action, Call):
                loss = odds.at_least(view.standing_bid) if view.standing_bid else None
            elif isinstance(action, SpotOn) and view.standing_bid is not None:
                # As the inferring player: exactly right on fair dice too, or a bluffed bid looks exact.
                fair = Odds.from_view(view).exactly(view.standing_bid)
                loss = 1.0 - min(odds.exactly(view.standing_bid), fair)
            elif isinstance(action, DoubtPass) and view.passer is not None:
                loss = pass_credibility(view, view.passer)
            elif isinstance(action, Pass) and holds_pass_hand(view):
                loss = later * (1.0 - self.model.pass_bluff)
            else:
                loss = None  # reveal-and-reroll, bluffed passes: not modelled here
            if loss is not None:
                losses[action] = loss
        return losses or None

    def _raise_losses(
        self, beliefs: Beliefs, nxt: int, bids: Sequence[Bid], later: float
    ) -> dict[Bid, float]:
        """The expected loss of each raise, all bids on one face at once."""
        weights = beliefs.weights[nxt]
        assert weights is not None
        model = self.model
        by_face: dict[int, list[int]] = {}
        for bid in bids:
            by_face.setdefault(bid.face, []).append(bid.quantity)
        out: dict[Bid, float] = {}
        for face, listed in by_face.items():
            quantities: Ints = np.array(listed, dtype=np.int64)
            # The next player's call, as the model predicts it from each hand they may hold.
            judged = beliefs.judged_by(nxt, face, quantities)
            calls = sigmoid(model.sharpness * (self.predicted_call_threshold - judged))
            # Whether the bid is false given that hand: everyone else's dice convolved.
            rest = beliefs.count_distribution(face, without=nxt)
            below = np.concatenate(([0.0], np.cumsum(rest)))  # below[m] = P(rest < m)
            need = quantities[None, :] - beliefs.own_counts(nxt, face)[:, None]
            false = below[np.clip(need, 0, len(below) - 1)]
            call_and_false = weights @ (calls * false)
            call = weights @ calls
            loss = call_and_false + (1.0 - call) * later
            for quantity, value in zip(listed, loss, strict=True):
                out[Bid(quantity, face)] = float(value)
        return out


__all__ = ["LookaheadBot"]
