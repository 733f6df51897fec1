"""The random player: any legal action, uniformly."""

from __future__ import annotations

import random

from dudo.engine.actions import Action
from dudo.engine.errors import DudoError
from dudo.engine.view import PlayerView


class RandomBot:
    """Picks uniformly among ``view.legal_actions``. A baseline and a fuzzer for the engine.

    Out of turn (``cruzado``) it calls with chance ``out_of_turn_rate`` whenever it may.
    """

    name: str = "random"

    def __init__(self, rng: random.Random, *, out_of_turn_rate: float = 0.05) -> None:
        self.rng = rng
        self.out_of_turn_rate = out_of_turn_rate

    def choose(self, view: PlayerView) -> Action:
        if not view.legal_actions:
            raise DudoError(f"player {view.viewer} has no legal action now")
        return self.rng.choice(view.legal_actions)

    def policy(self, view: PlayerView) -> dict[Action, float]:
        """Uniform over the legal actions."""
        legal = view.legal_actions
        if not legal:
            raise DudoError(f"player {view.viewer} has no legal action now")
        return {a: 1.0 / len(legal) for a in legal}

    def wants_out_of_turn_call(self, view: PlayerView) -> bool:
        return bool(view.legal_actions) and self.rng.random() < self.out_of_turn_rate
