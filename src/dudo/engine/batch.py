"""Many independent games of one rule set, stepped together as numpy arrays.

:class:`BatchGame` holds ``n`` games of the same rules and number of players, from seating
to the last die, each in one row of a few arrays. ``legal_mask()`` gives every game's legal
action ids at once (the ids of :class:`~dudo.engine.encoding.ActionEncoding`), ``step(actions)``
applies one action in every game that has one, and ``observe(player)`` returns each game's
observation vector for that seat, equal to
:meth:`ObservationLayout.encode <dudo.engine.observation.ObservationLayout.encode>` of the
player's view. It is meant for reinforcement learning and Monte Carlo search, where
:class:`~dudo.engine.game.Game`'s events, undo and per-action objects are not needed.

Which bid may follow which is not written again here: the tables are filled once per rule
set from :func:`~dudo.engine.bids.raise_problem` and
:func:`~dudo.engine.bids.opening_problem`. The flow of a round (calls, spot-on, passes and
doubted passes, losses, obliging rounds and their open/closed choice, seating, who opens
next) follows :mod:`dudo.engine.game`, and the differential tests hold the two equal step
by step on random rule sets. Two options are refused: ``cruzado`` (out-of-turn calls make
several players act at once) and ``reveal_reroll`` (its actions depend on each hand);
no preset uses either.

Every game starts as the :class:`~dudo.engine.setup.Setup` given says, the same value
:class:`~dudo.engine.game.Game` takes: ``dice_per_player`` dice each or the setup's
``dice`` (a player with none is out from the start), its ``start_total`` for spot-on
thresholds, its fixed ``order`` (else a seating drawn per game), its ``obliged`` players
and its ``obliger``. A game that is over stays over (its actions are ignored) until
:meth:`BatchGame.reset` starts it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from dudo.engine import actions as engine_actions
from dudo.engine.bids import RaiseContext, opening_problem, raise_problem
from dudo.engine.counting import counting_of
from dudo.engine.encoding import ActionEncoding
from dudo.engine.errors import DudoError, IllegalActionError
from dudo.engine.observation import KINDS, ObservationLayout, action_kind
from dudo.engine.rules import (
    Direction,
    Loss,
    NextOpener,
    ObligeFaceChange,
    ObligeVisibility,
    OpenOnAces,
    PassHand,
    Rules,
    Seating,
    SpotOnReward,
    SpotOnThreshold,
)
from dudo.engine.setup import Setup, setup_from

# Phases and visibilities in the order of the observation's one-hot sections.
CHOOSING, BIDDING, OVER = 0, 1, 2
NORMAL, CLOSED, OPEN, NOT_CHOSEN = 0, 1, 2, 3

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]

# Offsets of the actions after the bids (ActionEncoding's order).
_CALL, _SPOT_ON, _PASS, _DOUBT_PASS, _OPEN, _CLOSED = range(6)
# The observation's history kind of each of those actions, as the observation defines it
# (bid is kind 0; reveal-bids never happen here; the last entry, no-call, is never played).
_KIND_OF_SPECIAL = np.array(
    [
        action_kind(a)
        for a in (
            engine_actions.CALL,
            engine_actions.SPOT_ON,
            engine_actions.PASS,
            engine_actions.DOUBT_PASS,
            engine_actions.OPEN,
            engine_actions.CLOSED,
        )
    ]
    + [0],
    dtype=np.int64,
)


@dataclass(frozen=True)
class BatchTables:
    """What the rules decide before any game starts, as arrays: the legal bids after each
    standing bid in each raise context, and the opening bids for each hand size.

    ``rows`` has one row per (context, standing bid) (``context * num_bids + bid``), then
    one per (obliging round or not, opener's dice) (``opening_row + obliging * (D + 1) +
    dice``); each row marks legal bid ids over the whole action space (specials 0). Bids
    above the dice in play are cut off at lookup.
    """

    encoding: ActionEncoding
    rows: BoolArray
    opening_row: int
    quantity: IntArray  # per bid id
    face: IntArray  # per bid id


@lru_cache(maxsize=32)
def batch_tables(rules: Rules, players: int) -> BatchTables:
    """The shared tables for these rules and players (built from the engine's raise relation)."""
    encoding = ActionEncoding(rules, players)
    nb, dice = encoding.num_bids, rules.dice_per_player
    bids = [encoding.bid(i) for i in range(nb)]
    opening_row = len(RaiseContext) * nb
    rows = np.zeros((opening_row + 2 * (dice + 1), encoding.size), dtype=np.bool_)
    used = {RaiseContext.NORMAL: False}
    if rules.open_on_aces is OpenOnAces.FREE_TRANSFORM:
        used[RaiseContext.FREE_TRANSFORM] = False
    if rules.oblige:
        used[RaiseContext.OBLIGE_FACE_CHANGE] = True
        used[RaiseContext.OBLIGE_SAME_FACE] = True
    for context, obliging in used.items():
        base = int(context) * nb
        for s, standing in enumerate(bids):
            row = rows[base + s]
            for b, new in enumerate(bids):
                row[b] = (
                    raise_problem(rules, context, standing, new, obliging, explain=False) is None
                )
    for obliging in (False, True):
        for own in range(1, dice + 1):
            row = rows[opening_row + int(obliging) * (dice + 1) + own]
            for b, bid in enumerate(bids):
                row[b] = opening_problem(rules, bid, own, obliging) is None
    quantity = np.array([b.quantity for b in bids], dtype=np.int64)
    face = np.array([b.face for b in bids], dtype=np.int64)
    rows.setflags(write=False)
    return BatchTables(encoding, rows, opening_row, quantity, face)


class BatchGame:
    """``n`` games of ``rules``, each started as ``setup`` says, as arrays (row i is game i).
    ``BatchGame(rules, players, n, dice=..., start_total=...)`` is the same with the setup's
    fields as keywords.

    The state arrays are public and read-only by convention: ``counts`` (n, players) dice
    held; ``hands`` (n, players, faces) how many of each face each player holds under the
    cup (face f at column f - 1; zeros while nothing is dealt); ``phase`` (``CHOOSING``,
    ``BIDDING``, ``OVER``); ``to_move``; ``bid`` (a bid id, -1 for none); ``bidder``,
    ``passer``, ``opener``, ``obliger`` (-1 for none); ``passed`` and ``obliged``
    (n, players) flags; ``obliging``; ``visibility`` (``NORMAL``, ``CLOSED``, ``OPEN``,
    ``NOT_CHOSEN``); ``round_number``; ``winner`` (-1 while on); ``order`` (n, players):
    the seats clockwise from the first opener, as :class:`~dudo.engine.game.Game` takes them.
    """

    def __init__(
        self,
        rules: Rules,
        players: int | None = None,
        n: int = 1,
        *,
        setup: Setup | None = None,
        seed: int | None = None,
        rng: np.random.Generator | None = None,
        dice: Sequence[int] | None = None,
        start_total: int | None = None,
        history_slots: int | None = None,
    ) -> None:
        if rules.cruzado:
            raise DudoError("the batched simulator does not play cruzado (out-of-turn calls)")
        if rules.reveal_reroll:
            raise DudoError("the batched simulator does not play reveal_reroll")
        # The same checks, and messages, as Game's.
        setup = setup_from(rules, setup, players, dice=dice, start_total=start_total)
        if not isinstance(n, int) or n < 1:
            raise DudoError(f"n: {n!r} is not a number of games (1 or more)")
        if rng is not None and seed is not None:
            raise DudoError("give either seed or rng, not both")
        self.rules = rules
        self.setup = setup
        self.players = players = setup.players
        self.n = n
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.tables = batch_tables(rules, players)
        self.encoding = self.tables.encoding
        if history_slots is None:
            self.layout = ObservationLayout(rules, players)
        else:
            self.layout = ObservationLayout(rules, players, history_slots=history_slots)
        self.num_actions = self.encoding.size
        self.num_bids = self.encoding.num_bids
        self.start_dice = setup.start_dice(rules)
        self.start_total = setup.start_total_of(rules)
        self._start_obliged = np.zeros(players, dtype=np.bool_)
        self._start_obliged[list(setup.obliged)] = True
        p, f, h = players, rules.faces, self.layout.history_slots
        self.counts = np.zeros((n, p), dtype=np.int64)
        self.hands = np.zeros((n, p, f), dtype=np.int64)
        self.last_reveal = np.zeros((n, p, f), dtype=np.int64)
        self.order = np.zeros((n, p), dtype=np.int64)
        self.succ = np.zeros((n, p), dtype=np.int64)
        self.phase = np.full(n, OVER, dtype=np.int64)
        self.to_move = np.zeros(n, dtype=np.int64)
        self.bid = np.full(n, -1, dtype=np.int64)
        self.bidder = np.full(n, -1, dtype=np.int64)
        self.passer = np.full(n, -1, dtype=np.int64)
        self.opener = np.zeros(n, dtype=np.int64)
        self.obliger = np.full(n, -1, dtype=np.int64)
        self.passed = np.zeros((n, p), dtype=np.bool_)
        self.obliged = np.zeros((n, p), dtype=np.bool_)
        self.obliging = np.zeros(n, dtype=np.bool_)
        self.visibility = np.full(n, NORMAL, dtype=np.int64)
        self.round_number = np.zeros(n, dtype=np.int64)
        self.round_bids = np.zeros(n, dtype=np.int64)
        self.round_length = np.zeros(n, dtype=np.int64)
        self.winner = np.full(n, -1, dtype=np.int64)
        # The round's last actions, oldest first, right aligned (-1: empty slot).
        self.history_actor = np.full((n, h), -1, dtype=np.int64)
        self.history_action = np.full((n, h), -1, dtype=np.int64)
        self._rows = np.arange(n)
        self._bid_ids = np.arange(self.num_bids)
        self._faces = np.arange(1, f + 1)
        self._mask: BoolArray | None = None
        self.reset()

    # ------------------------------------------------------------------------ starting

    def reset(self, games: BoolArray | IntArray | None = None) -> None:
        """Start the given games (a mask or indices; default all) again from the seating."""
        idx = self._indices(games)
        if idx.size == 0:
            return
        self._mask = None
        rules, p = self.rules, self.players
        k = idx.size
        if self.setup.order is not None:
            order = np.broadcast_to(np.array(self.setup.order, dtype=np.int64), (k, p))
        elif rules.seating is Seating.FIXED:
            order = np.broadcast_to(np.arange(p), (k, p))
        else:
            # Rolling for seats (ties re-rolled) and a random seating both give every order
            # of play the same chance: one random permutation per game.
            order = np.argsort(self.rng.random((k, p)), axis=1)
        self.order[idx] = order
        succ = np.empty((k, p), dtype=np.int64)
        step = 1 if rules.direction is Direction.CLOCKWISE else -1
        succ[np.arange(k)[:, None], order] = np.roll(order, -step, axis=1)
        self.succ[idx] = succ
        self.counts[idx] = self.start_dice
        self.last_reveal[idx] = 0
        self.obliged[idx] = self._start_obliged
        self.round_number[idx] = 0
        self.winner[idx] = -1
        obliger = self.setup.obliger
        if obliger is not None:  # round 1 is the obliger's obliging round
            self.obliged[idx, obliger] = True
            self._start_round(idx, np.full(k, obliger), np.ones(k, dtype=np.bool_))
            return
        first = order[:, 0]
        out = self.counts[idx, first] == 0
        if out.any():  # the first seat has no dice: the next seat with dice opens
            first = first.copy()
            first[out] = self._after(idx[out], first[out])
        self._start_round(idx, first, np.zeros(k, dtype=np.bool_))

    def _indices(self, games: BoolArray | IntArray | None) -> IntArray:
        if games is None:
            return self._rows
        given = np.asarray(games)
        if given.dtype == np.bool_:
            if given.shape != (self.n,):
                raise DudoError(f"games: a mask of shape {given.shape}, expected ({self.n},)")
            return np.flatnonzero(given)
        idx = given.astype(np.int64).ravel()
        if idx.size and (idx.min() < 0 or idx.max() >= self.n):
            raise DudoError(f"games: indices must be 0..{self.n - 1}")
        return idx

    def _start_round(self, idx: IntArray, opener: IntArray, obliging: BoolArray) -> None:
        self.round_number[idx] += 1
        self.obliging[idx] = obliging
        self.obliger[idx] = np.where(obliging, opener, -1)
        self.opener[idx] = opener
        self.to_move[idx] = opener
        self.bid[idx] = -1
        self.bidder[idx] = -1
        self.passer[idx] = -1
        self.passed[idx] = False
        self.round_bids[idx] = 0
        self.round_length[idx] = 0
        self.history_actor[idx] = -1
        self.history_action[idx] = -1
        self.hands[idx] = 0
        mode = self.rules.oblige_visibility
        if mode is ObligeVisibility.OBLIGER_CHOOSES:
            # The obliger picks open or closed before anyone looks: the deal waits.
            self.visibility[idx] = np.where(obliging, NOT_CHOSEN, NORMAL)
            self.phase[idx] = np.where(obliging, CHOOSING, BIDDING)
            self._deal(idx[~obliging])
            return
        closed = obliging & (mode is ObligeVisibility.CLOSED)
        self.visibility[idx] = np.where(closed, CLOSED, NORMAL)
        self.phase[idx] = BIDDING
        self._deal(idx)

    def _deal(self, idx: IntArray) -> None:
        if idx.size == 0:
            return
        dice, faces, players = self.rules.dice_per_player, self.rules.faces, self.players
        hands = idx.size * players
        rolls = self.rng.integers(0, faces, size=(hands, dice))
        rolls[np.arange(dice) >= self.counts[idx].reshape(-1, 1)] = faces  # no die: spare bin
        # One bincount over every hand at once: hand h's faces land in bins h * (faces + 1)...
        rolls += (np.arange(hands) * (faces + 1))[:, None]
        tally = np.bincount(rolls.ravel(), minlength=hands * (faces + 1))
        self.hands[idx] = tally.reshape(idx.size, players, faces + 1)[:, :, :faces]

    # ------------------------------------------------------------------------ queries

    @property
    def is_over(self) -> BoolArray:
        return np.asarray(self.phase == OVER, dtype=np.bool_)

    def dice_in_play(self) -> IntArray:
        """(n,): the dice in play in each game."""
        return np.asarray(self.counts.sum(axis=1), dtype=np.int64)

    def hand(self, game: int, player: int) -> tuple[int, ...]:
        """A player's dice under the cup in one game, sorted (as the engine holds them)."""
        return tuple(int(f) for f in np.repeat(self._faces, self.hands[game, player]))

    def _active(self, idx: IntArray) -> IntArray:
        return np.asarray((self.counts[idx] > 0).sum(axis=1), dtype=np.int64)

    def _after(self, idx: IntArray, player: IntArray) -> IntArray:
        """The next player with dice after ``player`` in each of the games ``idx``."""
        nxt = self.succ[idx, player]
        for _ in range(self.players - 2):
            out = self.counts[idx, nxt] == 0
            if not out.any():
                break
            nxt = np.where(out, self.succ[idx, nxt], nxt)
        return nxt

    def legal_mask(self) -> BoolArray:
        """(n, num_actions): the legal action ids of whoever is to move in each game (all
        false in a game that is over). Read-only: it is kept until the next step or reset."""
        if self._mask is None:
            self._mask = self._legal_mask()
            self._mask.setflags(write=False)
        return self._mask

    def is_legal(self, actions: IntArray) -> BoolArray:
        """(n,): whether ``actions[i]`` is legal in game i now (an id outside the action
        space, -1 included, is not)."""
        legal = np.zeros(self.n, dtype=np.bool_)
        known = (actions >= 0) & (actions < self.num_actions)
        rows = np.flatnonzero(known)
        legal[rows] = self.legal_mask()[rows, actions[rows]]
        return legal

    def why_illegal(self, action_id: int) -> str:
        """What is wrong with an id found illegal by :meth:`is_legal`, in words."""
        if not 0 <= action_id < self.num_actions:
            return f"action id {action_id} is outside 0..{self.num_actions - 1}"
        return f"{self.encoding.name(action_id)} (id {action_id}) is not legal now"

    def _legal_mask(self) -> BoolArray:
        rules, tables, nb = self.rules, self.tables, self.num_bids
        rows_idx = self._rows
        p = self.to_move
        own = self.counts[rows_idx, p]
        has_bid = self.bid >= 0
        obliging = self.obliging
        context = np.zeros(self.n, dtype=np.int64)
        if rules.open_on_aces is OpenOnAces.FREE_TRANSFORM:
            free = ~obliging & (self.round_bids == 1) & (self.tables.face[self.bid] == 1)
            context[free & has_bid] = int(RaiseContext.FREE_TRANSFORM)
        if rules.oblige:
            context[obliging] = np.where(
                self._may_change_face(p)[obliging],
                int(RaiseContext.OBLIGE_FACE_CHANGE),
                int(RaiseContext.OBLIGE_SAME_FACE),
            )
        dice = rules.dice_per_player
        row = np.where(
            has_bid,
            context * nb + self.bid,
            tables.opening_row + obliging * (dice + 1) + own,
        )
        mask = tables.rows[row]
        total = self.dice_in_play()
        mask[:, :nb] &= self._bid_ids < (total * rules.faces)[:, None]
        bidding = self.phase == BIDDING
        standing = has_bid & bidding
        no_pass = self.passer < 0
        mask[:, nb + _CALL] = standing & no_pass
        mask[:, nb + _DOUBT_PASS] = standing & ~no_pass
        if rules.pass_hands:
            may_pass = standing & no_pass & ~self.passed[rows_idx, p] & self._pass_ok()
            mask[:, nb + _PASS] = may_pass
        if rules.spot_on:
            may_spot = standing & self._spot_ok(p)
            if not rules.pass_allows_spot_on:
                may_spot &= no_pass
            mask[:, nb + _SPOT_ON] = may_spot
        choosing = self.phase == CHOOSING
        if choosing.any():
            mask[choosing] = False
            mask[choosing, nb + _OPEN] = True
            mask[choosing, nb + _CLOSED] = True
        mask[self.phase == OVER] = False
        return mask

    def _may_change_face(self, p: IntArray) -> BoolArray:
        rule = self.rules.oblige_face_change
        if rule is ObligeFaceChange.NOBODY:
            return np.zeros(self.n, dtype=np.bool_)
        single = self.counts[self._rows, p] == 1
        if rule is ObligeFaceChange.SINGLE_DIE:
            return np.asarray(single, dtype=np.bool_)
        veteran = single & self.obliged[self._rows, p] & (p != self.obliger)
        return np.asarray(veteran, dtype=np.bool_)

    def _pass_ok(self) -> BoolArray:
        active = self._active(self._rows)
        return ~self.obliging & (active >= self.rules.pass_min_players)

    def _spot_ok(self, p: IntArray) -> BoolArray:
        rules = self.rules
        active = self._active(self._rows)
        ok = ~self.obliging & (active >= rules.spot_on_min_players)
        in_play = 2 * self.dice_in_play()
        threshold = rules.spot_on_threshold
        if threshold is SpotOnThreshold.MORE_THAN_HALF:
            ok &= in_play > self.start_total
        elif threshold is SpotOnThreshold.HALF_OR_SINGLE:
            ok &= (in_play >= self.start_total) | (self.counts[self._rows, p] == 1)
        return ok

    # ------------------------------------------------------------------------ stepping

    def step(self, actions: npt.ArrayLike) -> FloatArray:
        """Apply ``actions[i]`` (an action id) for the player to move in game i; -1 (or any
        action in a game that is over) skips that game. Returns the rewards (n, players):
        +1 to the winner and -1 to everyone else in each game that ended with this step.

        An illegal action anywhere raises :class:`IllegalActionError` naming the game, and
        no game changes."""
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape != (self.n,):
            raise DudoError(f"actions: {acts.size} given for {self.n} games")
        live = (acts >= 0) & (self.phase != OVER)
        idx = np.flatnonzero(live)
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        if idx.size == 0:
            return rewards
        a = acts[idx]
        legal = self.is_legal(acts)[idx]
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            game, action = int(idx[bad]), int(a[bad])
            raise IllegalActionError(
                f"game {game}: {self.why_illegal(action)} for player "
                f"{int(self.to_move[game])}; nothing was applied"
            )
        self._mask = None
        p = self.to_move[idx]
        # The round's history first: the action that ends a game stays in its last round.
        self.history_actor[idx, :-1] = self.history_actor[idx, 1:]
        self.history_action[idx, :-1] = self.history_action[idx, 1:]
        self.history_actor[idx, -1] = p
        self.history_action[idx, -1] = a
        self.round_length[idx] += 1

        nb = self.num_bids
        is_bid = a < nb
        if is_bid.any():
            g, who = idx[is_bid], p[is_bid]
            self.bid[g] = a[is_bid]
            self.bidder[g] = who
            self.passer[g] = -1
            self.round_bids[g] += 1
            self.to_move[g] = self._after(g, who)
        special = a - nb
        passing = special == _PASS
        if passing.any():
            g, who = idx[passing], p[passing]
            self.passer[g] = who
            self.passed[g, who] = True
            self.to_move[g] = self._after(g, who)
        choosing = (special == _OPEN) | (special == _CLOSED)
        if choosing.any():
            g = idx[choosing]
            self.visibility[g] = np.where(special[choosing] == _OPEN, OPEN, CLOSED)
            self.phase[g] = BIDDING
            self._deal(g)
        ending = (special == _CALL) | (special == _SPOT_ON) | (special == _DOUBT_PASS)
        if ending.any():
            self._end_round(idx[ending], p[ending], special[ending], rewards)
        return rewards

    def _end_round(self, g: IntArray, p: IntArray, kind: IntArray, rewards: FloatArray) -> None:
        rules = self.rules
        k = g.size
        at = np.arange(k)
        hands = self.hands[g]
        self.last_reveal[g] = hands
        table = hands.sum(axis=1)  # (k, faces)
        bid = self.bid[g]
        quantity, face = self.tables.quantity[bid], self.tables.face[bid]
        naturals = table[at, face - 1]
        count = naturals
        usual, obliging = counting_of(rules, False), counting_of(rules, True)
        if usual.wild or obliging.wild:
            counting_wild = np.where(self.obliging[g], obliging.wild, usual.wild)
            needs = np.where(self.obliging[g], obliging.needs_natural, usual.needs_natural)
            wild = counting_wild & (face != 1) & (~needs | (naturals > 0))
            count = naturals + np.where(wild, table[:, 0], 0)
        loser = np.full(k, -1, dtype=np.int64)
        winner = np.full(k, -1, dtype=np.int64)
        lost = np.ones(k, dtype=np.int64)
        gainer = np.full(k, -1, dtype=np.int64)

        call = kind == _CALL
        bidder = self.bidder[g]
        false_bid = count < quantity
        loser[call] = np.where(false_bid, bidder, p)[call]
        winner[call] = np.where(false_bid, p, bidder)[call]
        if rules.loss is Loss.DIFFERENCE:
            lost[call] = np.maximum(1, np.abs(quantity - count))[call]

        doubt = kind == _DOUBT_PASS
        if doubt.any():
            passer = self.passer[g]
            shown = self._pass_hand(hands[at, passer])
            loser[doubt] = np.where(shown, p, passer)[doubt]
            winner[doubt] = np.where(shown, passer, p)[doubt]

        opener = np.where(rules.next_opener is NextOpener.WINNER, winner, loser)
        spot = kind == _SPOT_ON
        if spot.any():
            right = count == quantity
            loser[spot & ~right] = p[spot & ~right]
            if rules.spot_on_reward is SpotOnReward.GAIN:
                gainer[spot & right] = p[spot & right]
            opener[spot] = p[spot]

        before = self.counts[g, np.maximum(loser, 0)]
        losing = loser >= 0
        lost = np.minimum(lost, before)
        after = before - lost
        self.counts[g[losing], loser[losing]] = after[losing]
        oblige = np.zeros(k, dtype=np.bool_)
        if rules.oblige:
            veteran = self.obliged[g, np.maximum(loser, 0)]
            oblige = losing & (after == 1) & (before > 1) & ~veteran
        gaining = gainer >= 0
        if gaining.any():
            held = self.counts[g, np.maximum(gainer, 0)]
            gaining &= held < rules.dice_per_player
            self.counts[g[gaining], gainer[gaining]] += 1

        self._after_round(g, loser, opener, oblige, rewards)

    def _after_round(
        self, g: IntArray, loser: IntArray, opener: IntArray, oblige: BoolArray, rewards: FloatArray
    ) -> None:
        """After the rounds of games ``g`` were decided: a game down to one player with dice
        is over (its rewards set), the others start their next round, an obliging one where
        ``oblige`` (the loser's, if enough players are left)."""
        active = self._active(g)
        over = active == 1
        if over.any():
            done = g[over]
            last = np.argmax(self.counts[done] > 0, axis=1)
            self.winner[done] = last
            self.phase[done] = OVER
            self.bid[done] = -1
            self.bidder[done] = -1
            self.passer[done] = -1
            self.hands[done] = 0
            rewards[done] = -1.0
            rewards[done, last] = 1.0
        on = ~over
        if not on.any():
            return
        oblige &= on & (active >= self.rules.oblige_min_players)
        if oblige.any():
            self.obliged[g[oblige], loser[oblige]] = True
            opener[oblige] = loser[oblige]
        g, opener, oblige = g[on], opener[on], oblige[on]
        out = self.counts[g, opener] == 0
        if out.any():
            opener[out] = self._after(g[out], opener[out])
        self._start_round(g, opener, oblige)

    def _pass_hand(self, hand: IntArray) -> BoolArray:
        """Whether each (k, faces) hand is one of the rules' pass hands (five dice, aces as
        their own face)."""
        allowed = self.rules.pass_hands
        five = hand.sum(axis=1) == 5
        most = hand.max(axis=1)
        kinds = (hand > 0).sum(axis=1)
        shown = np.zeros(hand.shape[0], dtype=np.bool_)
        if PassHand.FIVE_KIND in allowed:
            shown |= most == 5
        if PassHand.FULL_HOUSE in allowed:
            shown |= (most == 3) & (kinds == 2)
        if PassHand.FIVE_DIFFERENT in allowed:
            shown |= kinds == 5
        return np.asarray(shown & five, dtype=np.bool_)

    # --------------------------------------------------------------------- choosing

    def random_actions(self, mask: BoolArray | None = None) -> IntArray:
        """A uniformly random legal action id in each game (-1 where the game is over)."""
        if mask is None:
            mask = self.legal_mask()
        # Running counts in the narrowest type that holds them: numpy's cumsum is several
        # times quicker on bytes than on int64 (most of a random step's time otherwise).
        small = np.uint8 if self.num_actions < 256 else np.int32
        running: npt.NDArray[np.integer[Any]] = np.cumsum(mask.view(np.uint8), axis=1, dtype=small)
        legal = running[:, -1]
        pick: npt.NDArray[np.integer[Any]] = (self.rng.random(self.n) * legal).astype(small)
        chosen = (running > pick[:, None]).argmax(axis=1)
        return np.asarray(np.where(legal > 0, chosen, -1), dtype=np.int64)

    # ---------------------------------------------------------------------- observing

    def observe(self, player: int) -> FloatArray:
        """(n, layout.size): each game's observation vector for ``player``'s seat, equal to
        ``ObservationLayout.encode(game.view(player))``."""
        if not isinstance(player, int) or not 0 <= player < self.players:
            raise DudoError(f"there is no player {player!r}")
        layout, rules = self.layout, self.rules
        n, players, dice = self.n, self.players, rules.dice_per_player
        most = players * dice
        out = np.zeros((n, layout.size), dtype=np.float32)
        sec = layout.sections

        def put(name: str, values: npt.ArrayLike) -> None:
            a, b = sec[name]
            out[:, a:b] = np.asarray(values, dtype=np.float32).reshape(n, b - a)

        seats = (np.arange(players) + player) % players  # slot k is seat (player + k) % P
        sees = self._sees(player)  # (n, players) by seat
        on = self.phase != OVER
        mine = sees[:, player]
        put("my_dice", self.hands[:, player] * mine[:, None] / dice)
        put("my_dice_visible", mine)
        seen = self.hands * sees[:, :, None] / dice
        put("seen_dice", seen[:, seats])
        put("seen_known", (sees | (self.counts == 0))[:, seats])
        put("dice_counts", self.counts[:, seats] / dice)
        put("obliged", self.obliged[:, seats])
        put("passed", self.passed[:, seats])
        self._one_hot(out, sec["to_move"], np.where(on, self.to_move, -1), player)
        self._one_hot(out, sec["bidder"], self.bidder, player)
        self._one_hot(out, sec["opener"], self.opener, player)
        self._one_hot(out, sec["obliger"], self.obliger, player)
        self._one_hot(out, sec["passer"], self.passer, player)
        has_bid = self.bid >= 0
        rows = np.flatnonzero(has_bid)
        bid = self.bid[rows]
        out[rows, sec["bid_quantity"][0] + self.tables.quantity[bid] - 1] = 1.0
        out[rows, sec["bid_face"][0] + self.tables.face[bid] - 1] = 1.0
        out[self._rows, sec["phase"][0] + self.phase] = 1.0
        out[self._rows, sec["visibility"][0] + self.visibility] = 1.0
        flags = sec["flags"][0]
        out[:, flags] = self.obliging
        out[:, flags + 1] = on & (self.to_move == player)
        put("dice_in_play", np.minimum(1.0, self.dice_in_play() / most))
        put("round", np.minimum(1.0, self.round_number / 100))
        slots = layout.history_slots
        put("round_length", np.minimum(1.0, self.round_length / max(1, 4 * slots)))
        put("last_reveal", self.last_reveal[:, seats] / dice)
        if slots:
            self._history(out, sec["history"][0], player, most)
        return out

    def _sees(self, viewer: int) -> BoolArray:
        """(n, players): whether ``viewer`` sees each player's hidden dice now."""
        counts = self.counts
        owner = np.arange(self.players)
        held = (self.phase == BIDDING)[:, None] & (counts > 0) & (counts[:, viewer] > 0)[:, None]
        vis = self.visibility[:, None]
        own = owner == viewer
        sees = held & (
            ((vis == NORMAL) & own)
            | ((vis == CLOSED) & own & (counts == 1))
            | ((vis == OPEN) & ~own)
        )
        return np.asarray(sees, dtype=np.bool_)

    def _one_hot(
        self, out: FloatArray, section: tuple[int, int], who: IntArray, viewer: int
    ) -> None:
        rows = np.flatnonzero(who >= 0)
        out[rows, section[0] + (who[rows] - viewer) % self.players] = 1.0

    def _history(self, out: FloatArray, start: int, viewer: int, most: int) -> None:
        players = self.players
        size = self.layout.slot_size
        rows, slot = np.nonzero(self.history_action >= 0)
        actor = self.history_actor[rows, slot]
        action = self.history_action[rows, slot]
        base = start + slot * size
        out[rows, base + (actor - viewer) % players] = 1.0
        nb = self.num_bids
        is_bid = action < nb
        kind = np.where(is_bid, 0, _KIND_OF_SPECIAL[np.clip(action - nb, 0, 6)])
        out[rows, base + players + kind] = 1.0
        b_rows, b_base, b_id = rows[is_bid], base[is_bid], action[is_bid]
        quantity_at = players + KINDS
        out[b_rows, b_base + quantity_at] = self.tables.quantity[b_id] / most
        out[b_rows, b_base + quantity_at + self.tables.face[b_id]] = 1.0
