"""What a player can infer of the dice it cannot see, from the bids made this round.

Each other player's unseen dice are a hand drawn from a known distribution (a multinomial
over the multisets of faces). Every bid they make this round is evidence: under the bidding
model (:class:`BidModel`) a player is likelier to make a bid the more their own dice support
it, likelier to bid a face they hold many of, and less likely to raise (rather than call) a
standing bid their dice make unlikely. Bayes' rule turns the prior over each player's hands
into a posterior; the chance of a bid is then exact under those posteriors (independent
players convolved, plus the dice this player sees).

Everything comes from the engine's :class:`~dudo.engine.view.PlayerView` of one seat; the
counting (wild aces, aces never wild in an obliging round, ``wild_needs_natural``) follows
:func:`dudo.probability.counting_for`. Numeric work is numpy over all hands of a player at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from dudo.engine.actions import Bid, Pass, RevealBid, placed_bid
from dudo.engine.chance import hand_rolls
from dudo.engine.counting import pass_hand
from dudo.engine.rules import PassHand
from dudo.engine.view import PlayerView
from dudo.probability import Counting, Odds, counting_for

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class BidModel:
    """How players are assumed to bid (a noisy best response to their own dice alone).

    A player whose dice give bid ``b`` the chance ``P`` of being true makes it with weight
    ``sigmoid(sharpness * (P - bid_threshold))``; raising a standing bid ``s`` rather than
    calling it has weight ``sigmoid(sharpness * (P(s) - call_threshold))``; the face is
    chosen with weight ``exp(face_preference * dice counting for it)`` among all faces.
    A pass comes from a pass hand, or is a bluff with chance ``pass_bluff``.
    """

    sharpness: float = 8.0
    bid_threshold: float = 0.45
    call_threshold: float = 0.35
    face_preference: float = 0.6
    pass_bluff: float = 0.15


@lru_cache(maxsize=128)
def hand_table(dice: int, faces: int) -> tuple[Ints, Floats]:
    """Every hand of ``dice`` dice (:func:`~dudo.engine.chance.hand_rolls` order) as face counts
    (``counts[h, f]``, column 0 unused) and the chance of rolling it."""
    hands = hand_rolls(dice, faces)
    counts = np.zeros((len(hands), faces + 1), dtype=np.int64)
    for row, (hand, _) in enumerate(hands):
        for face in hand:
            counts[row, face] += 1
    prior = np.array([ways for _, ways in hands], dtype=np.float64) / float(faces**dice)
    counts.setflags(write=False)
    prior.setflags(write=False)
    return counts, prior


@lru_cache(maxsize=128)
def _pass_hands(dice: int, faces: int, allowed: frozenset[PassHand]) -> Floats:
    """1.0 for the hands (:func:`hand_table` rows) that make a pass hand, else 0.0."""
    return np.array(
        [pass_hand(hand, allowed) is not None for hand, _ in hand_rolls(dice, faces)],
        dtype=np.float64,
    )


@lru_cache(maxsize=4096)
def binomial_tail(unknown: int, chance: float) -> Floats:
    """``tail[m]`` = P(Binomial(unknown, chance) >= m) for m = 0..unknown+1."""
    pmf = np.array(
        [comb(unknown, k) * chance**k * (1 - chance) ** (unknown - k) for k in range(unknown + 1)]
    )
    tail = np.zeros(unknown + 2)
    tail[: unknown + 1] = np.cumsum(pmf[::-1])[::-1]
    tail[0] = 1.0
    tail.setflags(write=False)
    return tail


def sigmoid(x: Floats) -> Floats:
    """The logistic function, elementwise: how the bidding model turns a margin into a chance
    (here and in the lookahead's prediction of a call, :mod:`dudo.bots.lookahead`)."""
    out: Floats = 1.0 / (1.0 + np.exp(-x))
    return out


class Beliefs:
    """A posterior over each player's unseen dice, from one player's view.

    ``weights[p]`` is a probability vector over :func:`hand_table` rows for ``unseen[p]``
    dice (None when all of ``p``'s dice are seen). The viewer's own unseen dice (in an
    obliging round that hides them) keep their prior.
    """

    def __init__(self, view: PlayerView, model: BidModel | None = None) -> None:
        self.view = view
        self.model = model = model if model is not None else BidModel()
        self.counting: Counting = counting_for(view)
        self.faces = faces = view.rules.faces
        self.unseen = tuple(
            n - len(seen or ()) for n, seen in zip(view.dice_counts, view.seen_dice, strict=True)
        )
        self.weights: list[Floats | None] = [
            hand_table(u, faces)[1].copy() if u > 0 else None for u in self.unseen
        ]
        self.known: tuple[int, ...] = view.known_dice
        public = [d for dice in view.set_aside for d in dice]  # dice everyone sees
        self.public = len(public)
        self.public_counts: Ints = np.bincount(
            np.array(public, dtype=np.int64), minlength=faces + 1
        )
        if not view.obliging:  # an obliging round changes what players see: no inference there
            self._infer()

    # ------------------------------------------------------------------ inference

    def _infer(self) -> None:
        view = self.view
        actions = view.round_actions
        last_reveal: dict[int, int] = {}
        for index, (player, action) in enumerate(actions):
            if isinstance(action, RevealBid):
                last_reveal[player] = index  # the dice held before it were rerolled
        standing: Bid | None = None
        for index, (player, action) in enumerate(actions):
            bid = placed_bid(action)
            informative = (
                player != view.viewer
                and self.weights[player] is not None
                and index > last_reveal.get(player, -1)
            )
            if informative and bid is not None:
                self._update_bid(player, bid, standing)
            elif informative and isinstance(action, Pass):
                self._update_pass(player)
            if bid is not None:
                standing = bid

    def own_counts(self, player: int, face: int) -> Ints:
        """Dice counting for ``face`` in each possible unseen hand of ``player``."""
        counts, _ = hand_table(self.unseen[player], self.faces)
        if face != 1 and self.counting.wild:
            own: Ints = counts[:, face] + counts[:, 1]
            return own
        return counts[:, face]

    def judged_by(self, player: int, face: int, quantities: Ints) -> Floats:
        """``out[h, i]``: the chance that ``quantities[i]`` × ``face`` is true as ``player``
        would judge it holding hand ``h`` (their dice, the dice set aside, fair dice else)."""
        wild = self.counting.wild and face != 1
        p_match = (2.0 if wild else 1.0) / self.faces
        unknown = max(self.view.dice_in_play - self.unseen[player] - self.public, 0)
        tail = binomial_tail(unknown, p_match)
        known = int(self.public_counts[face]) + (int(self.public_counts[1]) if wild else 0)
        need = quantities[None, :] - known - self.own_counts(player, face)[:, None]
        out: Floats = tail[np.clip(need, 0, unknown + 1)]
        return out

    def _chance_true(self, player: int, bid: Bid) -> Floats:
        return self.judged_by(player, bid.face, np.array([bid.quantity]))[:, 0]

    def _update_bid(self, player: int, bid: Bid, standing: Bid | None) -> None:
        model = self.model
        likelihood = sigmoid(
            model.sharpness * (self._chance_true(player, bid) - model.bid_threshold)
        )
        if standing is not None:
            likelihood = likelihood * sigmoid(
                model.sharpness * (self._chance_true(player, standing) - model.call_threshold)
            )
        likelihood = likelihood * self._face_choice(player, bid.face)
        self._multiply(player, likelihood)

    def _face_choice(self, player: int, face: int) -> Floats:
        """The chance of choosing ``face`` (among all faces) from each possible hand."""
        counts, _ = hand_table(self.unseen[player], self.faces)
        support = counts[:, 1:].astype(np.float64)
        if self.counting.wild:
            aces = support[:, 0].copy()
            support[:, 1:] += aces[:, None]
            support[:, 0] = 2.0 * aces  # an ace bid needs about half the quantity
        scores = np.exp(self.model.face_preference * support)
        share: Floats = scores[:, face - 1] / scores.sum(axis=1)
        return share

    def _update_pass(self, player: int) -> None:
        rules = self.view.rules
        if self.view.seen_dice[player]:
            return  # part of the hand is set aside: leave the posterior alone
        backed = _pass_hands(self.unseen[player], self.faces, rules.pass_hands)
        self._multiply(player, backed + (1.0 - backed) * self.model.pass_bluff)

    def _multiply(self, player: int, likelihood: Floats) -> None:
        weights = self.weights[player]
        assert weights is not None
        posterior = weights * likelihood
        total = posterior.sum()
        if total > 0.0 and np.isfinite(total):
            self.weights[player] = posterior / total
        # else: the model cannot explain the bids; keep what was believed before

    # ------------------------------------------------------------------- the count

    def count_distribution(self, face: int, without: int | None = None) -> Floats:
        """P(exactly k dice count for ``face``), k = 0..dice in play; ``without``: leaving
        out that player's unseen dice (as if they counted zero)."""
        counting = self.counting
        wild = counting.wild and face != 1
        known_naturals = self.known.count(face)
        known_aces = self.known.count(1) if wild else 0
        if wild and counting.needs_natural:
            return self._needs_natural_distribution(face, known_naturals, known_aces, without)
        total = np.zeros(1)
        total[0] = 1.0
        for player, weights in enumerate(self.weights):
            if weights is None or player == without:
                continue
            pmf = np.bincount(
                self.own_counts(player, face), weights=weights, minlength=self.unseen[player] + 1
            )
            total = np.convolve(total, pmf)
        shift = known_naturals + known_aces
        out = np.zeros(self.view.dice_in_play + 1)
        out[shift : shift + len(total)] = total[: len(out) - shift]
        return out

    def _needs_natural_distribution(
        self, face: int, naturals: int, aces: int, without: int | None
    ) -> Floats:
        """As :meth:`count_distribution` when aces count only beside a natural: the joint
        distribution of (naturals, aces) is convolved, then read as a count."""
        joint = np.zeros((1, 1))
        joint[0, 0] = 1.0
        for player, weights in enumerate(self.weights):
            if weights is None or player == without:
                continue
            counts, _ = hand_table(self.unseen[player], self.faces)
            n = self.unseen[player] + 1
            pmf = np.bincount(
                counts[:, face] * n + counts[:, 1], weights=weights, minlength=n * n
            ).reshape(n, n)
            grown = np.zeros((joint.shape[0] + n - 1, joint.shape[1] + n - 1))
            for (i, j), chance in np.ndenumerate(pmf):
                if chance > 0.0:
                    grown[i : i + joint.shape[0], j : j + joint.shape[1]] += chance * joint
            joint = grown
        out = np.zeros(self.view.dice_in_play + 1)
        for (i, j), mass in np.ndenumerate(joint):
            if mass > 0.0:
                natural_total = i + naturals
                count = natural_total + j + aces if natural_total > 0 else 0
                out[count] += mass
        return out


class BeliefOdds(Odds):
    """:class:`~dudo.probability.Odds` whose unseen dice follow :class:`Beliefs` instead of
    being fair dice (``given`` still treats the rest as fair dice)."""

    __slots__ = ("beliefs",)

    def __init__(self, beliefs: Beliefs) -> None:
        super().__init__(beliefs.known, beliefs.view.unknown_count, beliefs.counting)
        self.beliefs = beliefs

    def tails(self, face: int) -> tuple[float, ...]:
        found = self._tails.get(face)
        if found is None:
            self._key(face)  # checks the face
            pmf = self.beliefs.count_distribution(face)
            tail = np.cumsum(pmf[::-1])[::-1]
            found = self._tails[face] = (*(float(t) for t in tail), 0.0)
        return found


def likeliest_hands(
    beliefs: Beliefs, player: int, top: int = 3
) -> Sequence[tuple[tuple[int, ...], float]]:
    """The ``top`` likeliest unseen hands of ``player`` with their posterior chance (for
    explanations and tests)."""
    weights = beliefs.weights[player]
    if weights is None:
        return ()
    counts, _ = hand_table(beliefs.unseen[player], beliefs.faces)
    order = np.argsort(-weights)[:top]
    return tuple(
        (
            tuple(f for f in range(1, beliefs.faces + 1) for _ in range(int(counts[row, f]))),
            float(weights[row]),
        )
        for row in order
    )
