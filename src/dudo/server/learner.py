"""Hints for learners at a table with ``hints`` on: the odds a seated player faces, what the
``hard`` bot would play, and after the game a review of that player's riskiest decisions.

Every number is computed from the engine's view for the asking player's own seat
(:meth:`~dudo.engine.game.Game.view`) by :mod:`dudo.odds`, :mod:`dudo.review` and
:mod:`dudo.bots`, never from the game itself, so no hidden die can shape an answer. The
frames carry numbers and actions in notation only: clients word them in their language.

The bot's suggestion and the review run in a worker thread, one at a time per table, and are
kept per player and turn (per game for the review), so asking again costs nothing.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dudo.bots import make_adviser, out_of_turn_call
from dudo.engine.actions import Action, Bid, Call, RevealBid
from dudo.engine.fair import FairSeed, chance_for
from dudo.engine.game import Game
from dudo.engine.view import PlayerView
from dudo.notation import parse_action
from dudo.odds import view_odds
from dudo.review import REVIEWER, ActionOdds, Decision, ReviewedDecision, action_odds, review
from dudo.server.frames import BidOdds, HintOdds, Reviewed

__all__ = [
    "ADVISER",
    "Learner",
    "decisions_of",
    "hints_json",
    "odds_json",
    "review_json",
    "suggestion",
    "suggestion_seed",
]

#: The bot level whose move a learner may ask for.
ADVISER = "hard"
#: How many of a player's riskiest decisions the review lists.
REVIEW_COUNT = 3
#: Suggestions kept per table (one per player and turn; old turns go first).
KEPT_SUGGESTIONS = 64


def hints_json(view: PlayerView) -> HintOdds:
    """The odds from ``view``: the standing bid's chance of being true and of being exactly
    right, each face's expected count and, per face, the chance that at least q dice count
    (``at_least[face][q - 1]``, q = 1 .. every die in play), so a bid picker can show any
    bid's chance without asking again."""
    odds = view_odds(view, view.standing_bid)
    at_least: dict[str, list[float]] = {}
    for face in odds.faces:
        dist = odds.distributions[face]
        # Exact tails summed from the top, each rounded once: what odds.at_least gives.
        tail, tails = Fraction(0), []
        for quantity in range(len(dist) - 1, 0, -1):
            tail += dist[quantity]
            tails.append(float(tail))
        at_least[str(face)] = tails[::-1]
    return {
        "standing": None if view.standing_bid is None else str(view.standing_bid),
        "chance": odds.probability_float,
        "spot_on": odds.spot_on_float,
        "expected": {str(face): float(odds.expected[face]) for face in odds.faces},
        "at_least": at_least,
        "known": len(odds.known),
        "unknown": odds.unknown,
        "wild": odds.counting.wild,
    }


def odds_json(view: PlayerView, action: Action) -> BidOdds:
    """The chance that ``action`` (a bid, or a raise with reveal-and-reroll) is true, and
    that it is exactly right (None for a reveal: its re-rolled dice are not known yet)."""
    if isinstance(action, Bid):
        odds = view_odds(view, action)
        return {"chance": odds.probability_float, "spot_on": odds.spot_on_float}
    chance = action_odds(view, action).chance
    return {"chance": None if chance is None else float(chance), "spot_on": None}


def suggestion_seed(game: int, turn: int, player: int) -> str:
    """The seed of the adviser bot's generator for one player at one turn of one game."""
    return f"dudo-hint:{game}:{turn}:{player}"


def suggestion(view: PlayerView, seed: str, level: str = ADVISER) -> Action | None:
    """What a ``level`` bot would play in ``view``: its move when the viewer is to move; out
    of turn, a call or None (it would let play go on)."""
    bot = make_adviser(level, random.Random(seed))
    if view.my_turn:
        return bot.choose(view) if view.legal_actions else None
    if view.viewer is not None and Call(by=view.viewer) in view.legal_actions:
        return out_of_turn_call(bot, view)
    return None


def decisions_of(game: Game, seed: int | FairSeed, player: int) -> list[Decision]:
    """Every action ``player`` took in ``game`` (dealt from ``seed``), each with the view they
    had when taking it: the game is played again from its seed."""
    again = Game(game.rules, setup=game.setup, chance=chance_for(seed))
    decisions = []
    for who, action in game.history:
        if who == player:
            decisions.append(Decision(again.view(player), action))
        again.push(action)
    return decisions


def _odds(odds: ActionOdds) -> dict[str, Any]:
    return {
        "action": str(odds.action),
        "bid": None if odds.bid is None else str(odds.bid),
        "chance": None if odds.chance is None else float(odds.chance),
        "risk": float(odds.risk),
    }


def review_json(reviewed: Sequence[ReviewedDecision], decisions: int) -> Reviewed:
    """The review as sent: how many decisions there were and the riskiest, each with its
    odds and the reviewer's choice in the same view (null: no out-of-turn call)."""
    return {
        "level": REVIEWER,
        "decisions": decisions,
        "riskiest": [
            {
                "number": r.number,
                "round": r.decision.view.round_number,
                **_odds(r.yours),
                "reviewer": None if r.reviewer is None else _odds(r.reviewer),
                "same": r.same,
            }
            for r in reviewed
        ],
    }


def _review(game: Game, seed: int | FairSeed, player: int, game_id: int) -> Reviewed:
    decisions = decisions_of(game, seed, player)
    return review_json(review(decisions, count=REVIEW_COUNT, seed=game_id), len(decisions))


@dataclass
class Learner:
    """One table's hint work: the answers kept, and one slow job at a time."""

    suggestions: dict[tuple[int, int, int], Action | None] = field(default_factory=dict)
    reviews: dict[tuple[int, int], Reviewed] = field(default_factory=dict)
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def suggest(self, game: int, turn: int, view: PlayerView) -> Action | None:
        assert view.viewer is not None
        key = (game, turn, view.viewer)
        async with self.busy:
            if key not in self.suggestions:
                seed = suggestion_seed(game, turn, view.viewer)
                chosen = await asyncio.to_thread(suggestion, view, seed)
                while len(self.suggestions) >= KEPT_SUGGESTIONS:
                    self.suggestions.pop(next(iter(self.suggestions)))
                self.suggestions[key] = chosen
            return self.suggestions[key]

    async def review(self, game_id: int, game: Game, seed: int | FairSeed, player: int) -> Reviewed:
        """The review of ``player``'s decisions in the finished ``game`` (never changed
        again: a rematch plays a new Game), worked out once."""
        key = (game_id, player)
        async with self.busy:
            if key not in self.reviews:
                self.reviews = {k: v for k, v in self.reviews.items() if k[0] == game_id}
                self.reviews[key] = await asyncio.to_thread(_review, game, seed, player, game_id)
            return self.reviews[key]


def parse_hint_action(text: str, faces: int) -> Action:
    """The bid an ``odds`` frame asks about (any notation); raises ValueError naming what
    else it is."""
    action = parse_action(text, faces)
    if not isinstance(action, Bid | RevealBid):
        raise ValueError(f"{text!r} is not a bid: odds are for bids such as 5x3")
    return action
