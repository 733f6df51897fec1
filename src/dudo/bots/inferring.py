"""The inferring player (the ``medium`` level): the probability player's decisions, made on
beliefs inferred from the bids (:mod:`dudo.bots.beliefs`) instead of on fair dice."""

from __future__ import annotations

import random

from dudo.bots.beliefs import BeliefOdds, Beliefs, BidModel
from dudo.bots.probability import ProbabilityBot
from dudo.engine.view import PlayerView
from dudo.probability import Odds


class InferringBot(ProbabilityBot):
    """Judges every legal action like :class:`~dudo.bots.probability.ProbabilityBot`, with
    the chance of each bid computed from a posterior over what every other player holds,
    given their bids this round (Bayesian updating under :class:`BidModel`). It needs no
    fixed credit for the bidder: the bids themselves say what the bidders hold."""

    name: str = "inferring"

    def __init__(self, rng: random.Random, *, model: BidModel | None = None) -> None:
        super().__init__(rng, credit_bidder=0)
        self.model = model if model is not None else BidModel()

    def _odds(self, view: PlayerView) -> Odds:
        return BeliefOdds(Beliefs(view, self.model))
