"""Decision-time search for three or more players: sampled lookahead on the beliefs.

With three or more players holding dice, the search (:class:`SearchBot`, which the ``hard``
level plays: :data:`dudo.bots.LEVELS`) judges its candidate actions by playing out the rest
of the round on sampled deals, information-set Monte Carlo in spirit:

1. **Deals.** Every other player's unseen dice are drawn from the posterior that
   :class:`~dudo.bots.beliefs.Beliefs` infers from this round's bids (and this player's own
   unseen dice, in an obliging round that hides them, from the prior). Each draw becomes a
   full game through the engine (:meth:`dudo.engine.Game.from_view`), so every rule of the
   round (spot-on, passes, obliging rounds, revealed dice) applies as at the table.
2. **Candidates.** The call, spot-on, doubting a pass and passing where legal, and a few
   raises: per face the lowest legal raise and the highest one the beliefs make at least
   even odds, the likeliest :data:`SEARCH_RAISES` of them (reveal-and-reroll raises are
   left out: the search has no model of the re-rolled dice).
3. **Rollouts.** After each candidate the round is played to its end by a fast stochastic
   policy for everyone (:class:`RolloutModel`, the bidding model the beliefs assume, judged
   from the dice each player can see): call a bid that looks unlikely, claim spot-on when
   the count looks exact, otherwise raise to the lowest bid of a face chosen by how well it
   is supported. How readily each opponent calls is their own: a call margin fitted to the
   answers the reveals so far exposed (:func:`call_margins`), so that a player who calls
   only absurd bids is not expected to call a merely unlikely one.
4. **Value.** This player's share of the dice in play after the round (1 or 0 when the
   game ends), a proxy for its chance to win: losing a die costs, gaining one under
   spot-on pays, another player's loss helps a little. Every candidate is played on the
   same deals with the same rollout randomness (common random numbers), and the best mean
   wins (ties: the earlier candidate).

**Budget.** ``samples`` caps the deals; ``budget`` (seconds) stops drawing deals once spent,
checked after every :data:`SEARCH_BATCH` deals. Which action is chosen depends only on the
view, the bot's generator and the number of deals searched, so with a budget that never
binds the choice is reproducible; a binding budget trades that for speed (a slower or busier
machine searches fewer deals, in whole batches). The defaults keep a decision under 100 ms
at the 99th percentile (``bench/decision_time.py``).

**Constants.** Compared on common deals, 1 against 3 under ``dudo``, against ``medium``,
``caller`` and ``bluffer`` alike, with the lookahead as baseline: the rollouts' call rule
(better than the bidding model's fixed threshold), their credit of one die to the bidder
(two did a little better against ``medium`` and ``bluffer`` but 14 points worse against
``caller``), and trust in bids (it turned every difference positive). The other rollout
constants are the bidding model's (:class:`~dudo.bots.beliefs.BidModel`). Crediting a bidder
in the rollouts only as far as their trust (so that a bluffer's bids get no die) was tried
and changed nothing measurable, 1,000 games a cell: 1 against 5 ``bluffer`` -4.8 -> -4.6,
``medium`` -1.8 -> -1.4, 1 against 3 ``bluffer`` -1.2 -> -2.0 (intervals about ±4.5).
Fitted call margins (the prior's spread :data:`MARGIN_PRIOR_SD`, by judgement: a margin
moves about 0.1 per answer that contradicts it) changed every cell by -0.4 to +3.6 points,
seven of eight up (1 against 3: ``medium`` +4.6 -> +5.6, ``caller`` +34.4 -> +37.0,
``bluffer`` -1.2 -> -0.2, ``easy`` +26.6 -> +26.2; 1 against 5: ``medium`` -1.8 -> +1.8,
``caller`` +34.2 -> +35.0, ``bluffer`` -4.8 -> -4.6, ``easy`` +19.2 -> +20.6), none beyond
its interval. The fits
read ``caller`` about -0.15, ``easy`` about 0, ``bluffer`` and ``medium`` +0.3 to +0.8.

**Calibration is not the target.** Against ``medium`` and ``bluffer`` the beliefs are
overconfident in bids (those they give 0.7 to 0.9 were true about half the time against
``medium``, 0.4 against ``bluffer``: ``medium`` bids on what it infers from the others'
bids, so its bids repeat theirs), and ``bench/belief_calibration.py`` scores them by log
loss over a pool (``easy``, ``medium``, ``caller``, ``bluffer``; 4 and 6 players; 0.693 is
a coin): 0.415 to 0.517 against ``easy`` and ``caller``, 0.70 to 0.80 against the other
two. Two better-calibrated variants were played, 1 against 5 on common deals (1,000 games,
seed 14, two workers), each beside the beliefs as they are in the same run, and neither is
used: every likelihood raised to 0.5 (pool log loss 0.606 -> 0.520) went from -5.6 to +0.6
against ``bluffer`` but from +1.2 to -12.4 against ``medium``: while all six held dice it
called in 48% of the rounds instead of 22%, wrong in 30% of its calls. Trust raised to the
4th power (0.606 -> 0.564) went -5.6 -> -3.8 and +1.2 -> -3.4. A call that is right costs
one of several opponents a die, one that is wrong costs this player one, so calling more on
truer odds loses at a full table.

Anything the search does not cover (heads-up play, the obliging round's visibility choice,
a single legal action) is decided by :class:`~dudo.bots.lookahead.LookaheadBot`.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dudo.bots.beliefs import BeliefOdds, Beliefs, BidModel, Floats, binomial_tail
from dudo.bots.lookahead import LookaheadBot
from dudo.bots.probability import holds_pass_hand
from dudo.engine.actions import (
    CALL,
    DOUBT_PASS,
    SPOT_ON,
    Action,
    Bid,
    Call,
    DoubtPass,
    Pass,
    SpotOn,
)
from dudo.engine.bids import BidTable, RaiseContext, bid_table
from dudo.engine.chance import RandomChance, hand_rolls
from dudo.engine.errors import DudoError
from dudo.engine.events import BidMade, Called, Revealed, RoundStarted
from dudo.engine.game import Game
from dudo.engine.view import PlayerView

#: Seconds a decision may spend drawing deals (the first batch is always searched).
SEARCH_BUDGET = 0.05

#: Most deals searched per decision.
SEARCH_SAMPLES = 96

#: Deals are searched in batches of this many; the budget is checked between batches, so
#: two searches of one view agree unless the budget stops them in different batches.
SEARCH_BATCH = 16

#: Raises searched besides the call, spot-on and pass actions.
SEARCH_RAISES = 6

#: Spot-on is searched only when the beliefs give the exact count at least this chance.
SEARCH_SPOT_ON_MIN = 0.35

#: The mean excess of dice backing a player's bids (over a random face) that earns full
#: trust in them; players who bid their strongest face show about 0.8 (measured in
#: 4-player ``dudo``: ``easy`` 0.73, ``caller`` 0.80, ``medium`` 0.82, ``bluffer`` 0.34).
TRUSTED_EXCESS = 0.8

#: Bids of full trust every player starts with.
TRUST_PRIOR = 4

#: The call margins fitted to a player's revealed decisions (:func:`call_margins`): the
#: grid searched, and the spread of the prior around the rollout model's own margin.
MARGIN_GRID = tuple(round(-0.3 + 0.05 * i, 2) for i in range(23))
MARGIN_PRIOR_SD = 0.15

#: Rollout steps after which a round is scored as it stands (rounds end far sooner).
_MAX_STEPS = 200


@dataclass(frozen=True, slots=True)
class RolloutModel:
    """How every player acts in a rollout, from the dice they can see (fair dice else).

    A standing bid that is ``P`` likely is called with chance
    ``sigmoid(sharpness * (1 - P - B - call_margin))``, ``B`` the chance of the likeliest
    lowest raise of a face (the inferring player's rule, made noisy) and ``P`` crediting
    the bidder with ``credit_bidder`` dice of the face (as ``easy`` does); spot-on is
    claimed when the exact count is at least ``spot_on_min`` likely; a pass is doubted with
    chance ``doubt_pass``.
    Otherwise the player raises to the lowest legal bid of a face drawn with weight
    ``sigmoid(sharpness * (P - bid_threshold)) * exp(face_preference * dice of the face
    it sees)``. Nobody passes or reveals in a rollout.
    """

    sharpness: float = 8.0
    call_margin: float = 0.0
    credit_bidder: int = 1
    bid_threshold: float = 0.45
    face_preference: float = 0.6
    spot_on_min: float = 0.35
    doubt_pass: float = 0.3


@lru_cache(maxsize=4096)
def _tail(unknown: int, faces: int, wild: bool) -> tuple[float, ...]:
    """P(at least m of ``unknown`` fair dice count for a face), m = 0..unknown+1, as floats."""
    return tuple(float(t) for t in binomial_tail(unknown, (2.0 if wild else 1.0) / faces))


def _sigmoid(x: float) -> float:
    if x < -60.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class _Knowledge:
    """What one player sees in a sampled deal: dice counting per face, and unseen dice."""

    __slots__ = ("counts", "sees", "unknown")

    def __init__(self, counts: list[int], unknown: int, sees: tuple[int, ...]) -> None:
        self.counts = counts
        self.unknown = unknown
        self.sees = sees  # whose hidden dice they see


class TrustingBeliefs(Beliefs):
    """:class:`~dudo.bots.beliefs.Beliefs` that weigh each player's bids by how far that
    player's bids were backed by their dice in the rounds shown so far.

    A bid's likelihood under the bidding model is mixed with an uninformative one:
    ``trust * L(hand) + (1 - trust) * mean L``. ``trust`` is the player's mean excess of
    dice counting for the faces they bid (over what a random face gets from their hand), in
    every reveal of the game, as a share of :data:`TRUSTED_EXCESS` (clipped to 0..1), with
    :data:`TRUST_PRIOR` bids of full trust to start from: a player who bids faces they do
    not hold soon counts for less.
    """

    def __init__(self, view: PlayerView, model: BidModel | None = None) -> None:
        self.trust = bid_trust(view)
        super().__init__(view, model)

    def _multiply(self, player: int, likelihood: Floats) -> None:
        trust = self.trust[player]
        if trust < 1.0:
            weights = self.weights[player]
            assert weights is not None
            likelihood = trust * likelihood + (1.0 - trust) * float(weights @ likelihood)
        super()._multiply(player, likelihood)


def bid_trust(view: PlayerView) -> list[float]:
    """Each player's trust (:class:`TrustingBeliefs`) from the reveals in ``view.events``."""
    faces = view.rules.faces
    excess = [TRUSTED_EXCESS * TRUST_PRIOR] * view.players
    bids = [float(TRUST_PRIOR)] * view.players
    made: list[tuple[int, Bid]] = []
    for event in view.events:
        kind = type(event)
        if kind is RoundStarted:
            made = []
        elif kind is BidMade:
            assert isinstance(event, BidMade)
            made.append((event.player, event.bid))
        elif kind is Revealed:
            assert isinstance(event, Revealed)
            for player, bid in made:
                hand = event.hands[player]
                wild = event.wild_aces and bid.face != 1
                held = hand.count(bid.face) + (hand.count(1) if wild else 0)
                excess[player] += held - len(hand) * (2.0 if wild else 1.0) / faces
                bids[player] += 1.0
            made = []
    return [min(max(e / (b * TRUSTED_EXCESS), 0.0), 1.0) for e, b in zip(excess, bids, strict=True)]


class SearchBot(LookaheadBot):
    """Sampled lookahead with 3+ players holding dice (module docstring), else
    :class:`~dudo.bots.lookahead.LookaheadBot`. ``budget`` is in seconds; ``samples`` caps the
    deals, ``raises`` the raises searched; ``rollout`` is everyone's policy in a rollout;
    ``temperature`` is the lookahead's, where it decides."""

    name: str = "search"

    def __init__(
        self,
        rng: random.Random,
        *,
        budget: float = SEARCH_BUDGET,
        samples: int = SEARCH_SAMPLES,
        raises: int = SEARCH_RAISES,
        rollout: RolloutModel | None = None,
        model: BidModel | None = None,
        spot_on_min: float = SEARCH_SPOT_ON_MIN,
        temperature: float | None = None,
    ) -> None:
        super().__init__(rng, model=model, temperature=temperature)
        if samples < 1 or raises < 1 or budget <= 0:
            raise DudoError("search needs a positive budget, samples and raises")
        self.budget = budget
        self.samples = samples
        self.raises = raises
        self.rollout = rollout if rollout is not None else RolloutModel()
        self.spot_on_min = spot_on_min
        self._seed: int | None = None  # drawn from rng at the first search
        self.last_samples = 0  # deals searched by the last search (for benchmarks)

    # ---------------------------------------------------------------------- interface

    def choose(self, view: PlayerView) -> Action:
        found = self._search(view)
        return found if found is not None else super().choose(view)

    def policy(self, view: PlayerView) -> dict[Action, float]:
        """The searched action (a point mass: the search is determined by the view and
        the bot's generator), else the lookahead's policy."""
        found = self._search(view)
        return {found: 1.0} if found is not None else super().policy(view)

    def wants_out_of_turn_call(self, view: PlayerView) -> bool:
        """Under ``cruzado`` with 3+ players: call out of turn when that searches better
        than letting the round go on; only bids the beliefs make unlikely are searched."""
        me = view.viewer
        mine = [a for a in view.legal_actions if isinstance(a, Call) and a.by == me]
        bid = view.standing_bid
        if me is None or not mine or bid is None or _live(view) < 3:
            return super().wants_out_of_turn_call(view)
        beliefs = TrustingBeliefs(view, self.model)
        if BeliefOdds(beliefs).at_least(bid) >= 0.5:
            return False
        values = self._evaluate(view, beliefs, [mine[0], None])
        return values[0] > values[1]

    # ------------------------------------------------------------------------ search

    def _search(self, view: PlayerView) -> Action | None:
        """The best candidate on sampled deals, or None where the search does not apply."""
        legal = view.legal_actions
        if not legal:
            raise DudoError(f"player {view.viewer} has no legal action now")
        if (
            view.viewer is None
            or not view.my_turn
            or len(legal) == 1
            or view.phase != "bidding"
            or _live(view) < 3
        ):
            return None
        beliefs = TrustingBeliefs(view, self.model)
        candidates = self._candidates(view, beliefs)
        if len(candidates) < 2:
            return candidates[0] if candidates else None
        values = self._evaluate(view, beliefs, list(candidates))
        best = max(range(len(candidates)), key=lambda i: (values[i], -i))
        return candidates[best]

    def _candidates(self, view: PlayerView, beliefs: Beliefs) -> list[Action]:
        """The actions worth searching (module docstring, step 2), all legal."""
        odds = BeliefOdds(beliefs)
        out: list[Action] = []
        lowest: dict[int, Bid] = {}
        highest: dict[int, Bid] = {}
        for action in view.legal_actions:
            kind = type(action)
            if kind is Bid:
                assert isinstance(action, Bid)
                face = action.face
                if face not in lowest:  # legal bids come lowest first
                    lowest[face] = action
                if odds.at_least(action) >= 0.5:
                    highest[face] = action
            elif kind is SpotOn:
                # Exact counts are where the beliefs are least sure: only a likely one.
                bid = view.standing_bid
                if bid is not None and odds.exactly(bid) >= self.spot_on_min:
                    out.append(action)
            elif kind in (Call, DoubtPass) or (kind is Pass and holds_pass_hand(view)):
                out.append(action)  # a bluffed pass is left to the lookahead's rules
        low = sorted(lowest.values(), key=lambda b: -odds.at_least(b))
        high = sorted(highest.values(), key=lambda b: -odds.at_least(b))
        picked: list[Bid] = []
        for bid in _interleave(high, low):
            if bid not in picked:
                picked.append(bid)
            if len(picked) == self.raises:
                break
        return [*picked, *out]

    def _evaluate(
        self, view: PlayerView, beliefs: Beliefs, candidates: Sequence[Action | None]
    ) -> list[float]:
        """Each candidate's mean value over the sampled deals (None: act not at all)."""
        me = view.viewer
        assert me is not None
        if self._seed is None:
            self._seed = self.rng.getrandbits(63)
        gen = np.random.Generator(np.random.PCG64([self._seed, _view_key(view)]))
        faces = view.rules.faces
        draws: list[list[tuple[int, ...]] | None] = []
        for player, weights in enumerate(beliefs.weights):
            if weights is None:
                draws.append(None)
                continue
            rows = gen.choice(len(weights), size=self.samples, p=weights / weights.sum())
            table = hand_rolls(beliefs.unseen[player], faces)
            draws.append([table[int(r)][0] for r in rows])
        known_hidden = [_hidden_seen(view, p) for p in range(view.players)]
        seeds = gen.integers(0, 2**62, size=self.samples)
        later = RandomChance(int(seeds[0]))
        totals = [0.0] * len(candidates)
        margins = call_margins(view, self.rollout)
        margins[me] = self.rollout.call_margin  # this player's own play is not modelled
        sees: list[tuple[int, ...]] | None = None
        deadline = time.perf_counter() + self.budget
        done = 0
        for sample in range(self.samples):
            hidden: list[tuple[int, ...]] = []
            for player in range(view.players):
                drawn = draws[player]
                hidden.append(drawn[sample] if drawn is not None else known_hidden[player])
            game = Game.from_view(view, hidden, then=later)
            if sees is None:
                sees = _who_sees(game, view)
            know = _knowledge(view, hidden, sees, faces)
            round_number = game.round_number
            for index, action in enumerate(candidates):
                rng = random.Random(int(seeds[sample]))
                pushed = 0
                if action is not None:
                    game.push(action)
                    pushed = 1
                pushed += self._play_out(
                    game, round_number, know, beliefs.counting.wild, margins, rng
                )
                totals[index] += _value(game, me)
                for _ in range(pushed):
                    game.pop()
            done += 1
            if done % SEARCH_BATCH == 0 and time.perf_counter() >= deadline:
                break
        self.last_samples = done
        return [t / done for t in totals]

    def _play_out(
        self,
        game: Game,
        round_number: int,
        know: list[_Knowledge],
        wild: bool,
        margins: Sequence[float],
        rng: random.Random,
    ) -> int:
        """Play the round to its end with the rollout policy; the number of actions pushed."""
        pushed = 0
        faces = game.rules.faces
        model = self.rollout
        while not game.is_over and game.round_number == round_number and pushed < _MAX_STEPS:
            legal = game.legal_actions()
            mover = game.to_move
            action = _rollout_action(
                game, legal, know[mover], wild, faces, model, margins[mover], rng
            )
            game.push(action)
            pushed += 1
        return pushed


def _rollout_action(
    game: Game,
    legal: list[Action],
    know: _Knowledge,
    wild: bool,
    faces: int,
    model: RolloutModel,
    margin: float,
    rng: random.Random,
) -> Action:
    """The rollout policy's action (:class:`RolloutModel`, with the mover's call
    ``margin``) for the player to move."""
    counts, unknown, sees = know.counts, know.unknown, know.sees
    extras: set[Action] = set()
    for action in reversed(legal):  # the raises come first, other actions after them
        if type(action) is Bid:
            break
        extras.add(action)
    lowest: dict[int, Bid] = {}
    for action in legal:
        if type(action) is Bid:
            assert isinstance(action, Bid)
            if action.face not in lowest:
                lowest[action.face] = action
                if len(lowest) == faces:
                    break
    options = list(lowest.values())
    chances: list[float] = []
    weights: list[float] = []
    for option in options:
        face = option.face
        wild_face = wild and face != 1
        tail = _tail(unknown, faces, wild_face)
        support = counts[face] + (counts[1] if wild_face else 0)
        chance = tail[min(max(option.quantity - support, 0), unknown + 1)]
        chances.append(chance)
        weights.append(
            _sigmoid(model.sharpness * (chance - model.bid_threshold))
            * math.exp(model.face_preference * support)
        )
    bid = game.bid
    if bid is not None:
        # The bidder is credited with a few dice of the face (players mostly bid what
        # they hold), unless the mover sees their dice.
        credit = 0 if game.bidder in sees else min(model.credit_bidder, unknown)
        standing, exact = _bid_chances(counts, unknown, faces, wild, bid, credit)
        if SPOT_ON in extras and exact is not None and exact >= model.spot_on_min:
            return SPOT_ON
        # Call when the bid looks likelier false than the best raise looks true.
        best = max(chances, default=0.0)
        doubt = _sigmoid(model.sharpness * (1.0 - standing - best - margin))
        if CALL in extras:
            if rng.random() < doubt:
                return CALL
        elif DOUBT_PASS in extras and rng.random() < model.doubt_pass:
            return DOUBT_PASS
    if not options:
        for fallback in (CALL, DOUBT_PASS):
            if fallback in extras:
                return fallback
        return legal[0]
    total = sum(weights)
    if total <= 0.0:
        return options[0]
    pick = rng.random() * total
    for option, weight in zip(options, weights, strict=True):
        pick -= weight
        if pick < 0.0:
            return option
    return options[-1]


def call_margins(view: PlayerView, model: RolloutModel) -> list[float]:
    """Each player's call margin for the rollouts, fitted to how they answered standing bids
    in the rounds whose dice were revealed.

    At a reveal every hand is known, so each earlier answer (a call, or a raise) can be
    judged as the player saw it: ``x = 1 - P - B`` with ``P`` the standing bid's chance and
    ``B`` the best lowest raise's, from their own dice and fair dice elsewhere, as the
    rollout policy judges (:func:`_rollout_action`). The margin ``m`` is the grid value of
    greatest posterior, calls being ``sigmoid(sharpness * (x - m))`` likely, under a normal
    prior around the model's ``call_margin``: a player who calls only absurd bids (a
    bluffer) gets a high margin, one who calls readily a low one."""
    rules = view.rules
    faces = rules.faces
    judged: list[list[tuple[float, bool]]] = [[] for _ in range(view.players)]
    pending: list[tuple[int, Bid, bool]] = []  # (player, bid they answered, called?)
    standing: Bid | None = None
    bidder: int | None = None
    dice_in_play = 0
    plain = False
    for event in view.events:
        kind = type(event)
        if kind is RoundStarted:
            assert isinstance(event, RoundStarted)
            pending, standing, bidder = [], None, None
            dice_in_play = sum(event.dice_counts)
            plain = not event.obliging
        elif kind is BidMade:
            assert isinstance(event, BidMade)
            if standing is not None and bidder != event.player:
                pending.append((event.player, standing, False))
            standing, bidder = event.bid, event.player
        elif kind is Called:
            assert isinstance(event, Called)
            if not event.out_of_turn:
                pending.append((event.player, event.bid, True))
        elif kind is Revealed:
            assert isinstance(event, Revealed)
            if plain:
                table = bid_table(rules, dice_in_play, False)
                for player, bid, called in pending:
                    x = answer_margin(event, table, player, bid, faces, model)
                    if x is not None:
                        judged[player].append((x, called))
            pending = []
    prior = model.call_margin
    out: list[float] = []
    for decisions in judged:
        if not decisions:
            out.append(prior)
            continue
        xs = np.array([x for x, _ in decisions])
        calls = np.array([c for _, c in decisions])
        grid = np.array(MARGIN_GRID)
        chance = 1.0 / (1.0 + np.exp(-model.sharpness * (xs[None, :] - grid[:, None])))
        chance = np.clip(chance, 1e-9, 1.0 - 1e-9)
        fit = np.where(calls[None, :], np.log(chance), np.log1p(-chance)).sum(axis=1)
        fit -= (grid - prior) ** 2 / (2.0 * MARGIN_PRIOR_SD**2)
        out.append(float(grid[int(np.argmax(fit))]))
    return out


def answer_margin(
    reveal: Revealed,
    table: BidTable,
    player: int,
    bid: Bid,
    faces: int,
    model: RolloutModel,
) -> float | None:
    """``1 - P - B`` of one answer to ``bid``, as ``player`` saw it (see :func:`call_margins`)."""
    hand = reveal.hands[player]
    if not hand:
        return None
    unknown = table.dice_in_play - len(hand)
    counts = [0] * (faces + 1)
    for die in hand:
        counts[die] += 1
    wild = reveal.wild_aces
    credit = min(model.credit_bidder, unknown)
    standing = _bid_chances(counts, unknown, faces, wild, bid, credit)[0]
    best = 0.0
    seen: set[int] = set()
    for option in table.raises(RaiseContext.NORMAL, bid):
        if option.face in seen:
            continue
        seen.add(option.face)
        best = max(best, _bid_chances(counts, unknown, faces, wild, option, 0)[0])
        if len(seen) == faces:
            break
    return 1.0 - standing - best


def _bid_chances(
    counts: list[int], unknown: int, faces: int, wild: bool, bid: Bid, credit: int
) -> tuple[float, float | None]:
    """The chance that ``bid`` is true, and that its count is exact (None where the dice
    cannot make it exact), for a player who sees ``counts`` (dice counting per face) and
    takes ``credit`` of the ``unknown`` dice to show the bid's face. (The rollout's raises
    compute the first inline: they also need the support for their weights.)"""
    wild_face = wild and bid.face != 1
    tail = _tail(unknown - credit, faces, wild_face)
    need = bid.quantity - counts[bid.face] - (counts[1] if wild_face else 0) - credit
    at_least = tail[min(max(need, 0), unknown - credit + 1)]
    exact = tail[need] - tail[need + 1] if 0 <= need <= unknown - credit else None
    return at_least, exact


def _live(view: PlayerView) -> int:
    return sum(1 for n in view.dice_counts if n > 0)


def _interleave(first: Sequence[Bid], second: Sequence[Bid]) -> list[Bid]:
    out: list[Bid] = []
    for i in range(max(len(first), len(second))):
        out.extend(seq[i] for seq in (first, second) if i < len(seq))
    return out


def _hidden_seen(view: PlayerView, player: int) -> tuple[int, ...]:
    """``player``'s hidden dice as the view shows them (``()`` where it shows none)."""
    seen = view.seen_dice[player]
    if seen is None:
        return ()
    return seen[: len(seen) - len(view.set_aside[player])]


def _who_sees(game: Game, view: PlayerView) -> list[tuple[int, ...]]:
    """For each player, whose hidden dice they see this round (asked of the engine)."""
    out: list[tuple[int, ...]] = []
    for player in range(view.players):
        if not view.dice_counts[player]:
            out.append(())
            continue
        seen = game.view(player).seen_dice
        out.append(
            tuple(
                owner
                for owner, dice in enumerate(seen)
                if dice is not None and len(dice) > len(view.set_aside[owner])
            )
        )
    return out


def _knowledge(
    view: PlayerView,
    hidden: Sequence[tuple[int, ...]],
    sees: Sequence[tuple[int, ...]],
    faces: int,
) -> list[_Knowledge]:
    public = [0] * (faces + 1)
    shown = 0
    for aside in view.set_aside:
        shown += len(aside)
        for die in aside:
            public[die] += 1
    total = view.dice_in_play
    out: list[_Knowledge] = []
    for player in range(view.players):
        counts = public.copy()
        seen = shown
        for owner in sees[player]:
            seen += len(hidden[owner])
            for die in hidden[owner]:
                counts[die] += 1
        out.append(_Knowledge(counts, total - seen, sees[player]))
    return out


def _value(game: Game, me: int) -> float:
    """This player's share of the dice in play (1 or 0 once the game is over)."""
    if game.winner is not None:
        return 1.0 if game.winner == me else 0.0
    return game.counts[me] / sum(game.counts)


def _view_key(view: PlayerView) -> int:
    """A stable number for the decision point (Python's own hash of text is salted)."""
    text = repr(
        (
            view.viewer,
            view.round_number,
            view.dice_counts,
            view.seen_dice,
            view.round_actions,
            len(view.events),
            view.to_move,
        )
    )
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


__all__ = ["SEARCH_BUDGET", "SEARCH_RAISES", "SEARCH_SAMPLES", "RolloutModel", "SearchBot"]
