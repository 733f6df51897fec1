"""Brute-force oracles for the solver, read from the engine alone.

Nothing here uses the solver's tree: every deal is enumerated die by die, every history is
found by a depth-first walk over ``Game.legal_actions()`` with ``push`` / ``pop``, what a
player knows is what ``Game.view`` shows them, and every call is resolved by pushing it.
Policies are functions of an information set (player, signal, public bid history), and
values and best responses are computed state by state over that explicit tree.

Bids are named by their index in a given tuple of bids (the round's ``bids``), only so that
histories can be compared with the solver's; the call is :data:`CALL_CODE`. Players are named
by their role, as in the solver: role 0 opens the round, whichever seat that is (a seat's
role is ``(seat + opener) % 2``, heads-up), and ``seen_dice`` is put in role order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from dudo.engine import CALL, Bid, DiceLost, Event, Game, Rules
from dudo.solver.cfr import Strategy
from dudo.solver.position import Position, start_game
from dudo.solver.round import Round

History = tuple[int, ...]
Signal = object  # (view.my_dice, view.seen_dice)
CALL_CODE = -1

Policy = Callable[[int, Signal, History, tuple[int, ...]], Sequence[float]]
"""(player, signal, history, actions) -> the probability of each action, in order.
``actions`` are the legal bids (indices, ascending) then :data:`CALL_CODE` if a call is legal."""

CallValue = Callable[[Game, tuple[Event, ...], int], float]
"""The opener's payoff of a call, from the game just after it, the events it caused and
the seat that opened the round."""


def call_winner_value(game: Game, events: tuple[Event, ...], opener: int) -> float:
    """+1 to the opener if the other player lost dice on the call, -1 if the opener did."""
    losers = [e.player for e in events if isinstance(e, DiceLost)]
    assert len(losers) == 1, events
    return -1.0 if losers[0] == opener else 1.0


@dataclass(frozen=True)
class Deal:
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    prob: float


def all_deals(faces: int, dice: tuple[int, int]) -> list[Deal]:
    """Every deal as sorted hands, with its probability, counted die by die."""
    total = faces ** (dice[0] + dice[1])
    ways: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    for rolls in product(range(1, faces + 1), repeat=dice[0] + dice[1]):
        ways[(tuple(sorted(rolls[: dice[0]])), tuple(sorted(rolls[dice[0] :])))] += 1
    return [Deal(hands, count / total) for hands, count in sorted(ways.items())]


@dataclass(frozen=True)
class PublicNode:
    actor: int
    actions: tuple[int, ...]  # legal bids (ascending indices), then CALL_CODE if legal

    @property
    def bids(self) -> tuple[int, ...]:
        return tuple(a for a in self.actions if a != CALL_CODE)


@dataclass
class BruteRound:
    """A round walked out in full on the engine, deal by deal."""

    deals: list[Deal]
    nodes: dict[History, PublicNode] = field(default_factory=dict)
    signal: dict[History, list[Signal]] = field(default_factory=dict)  # the actor's, per deal
    call: dict[History, list[float]] = field(default_factory=dict)  # the opener's, per deal
    outcome: dict[History, list[Position | int]] = field(default_factory=dict)  # per deal
    root_signals: list[tuple[Signal, Signal]] = field(default_factory=list)  # per deal

    @property
    def order(self) -> list[History]:
        """Every history, parents before children."""
        return sorted(self.nodes, key=len)


def _signal(game: Game, role: int, opener: int) -> Signal:
    view = game.view((role + opener) % 2)
    seen = view.seen_dice
    return (view.my_dice, (seen[opener], seen[1 - opener]))


def _outcome(game: Game, opener: int) -> Position | int:
    """Where a call left the game, read off the engine's fields (roles for seats)."""
    if game.winner is not None:
        return (game.winner + opener) % 2
    return Position(
        (game.counts[opener], game.counts[1 - opener]),
        (game.opener + opener) % 2,
        frozenset((p + opener) % 2 for p in game.obliged),
        game.obliging,
        None,
    )


def explore(
    rules: Rules,
    position: Position,
    bids: Sequence[Bid],
    call_value: CallValue = call_winner_value,
) -> BruteRound:
    """Walk every history of the round at ``position`` for every deal. Deals, histories
    and payoffs are in roles (the opener is 0), as the solver's round has them."""
    opener = position.opener
    index = {b: i for i, b in enumerate(bids)}
    roles = (position.dice[opener], position.dice[1 - opener])
    out = BruteRound(all_deals(rules.faces, roles))
    for d, deal in enumerate(out.deals):
        seats = (deal.hands[opener], deal.hands[1 - opener])
        game = start_game(rules, position, seats)
        assert (game.hand(0), game.hand(1)) == seats
        out.root_signals.append((_signal(game, 0, opener), _signal(game, 1, opener)))
        _visit(game, (), d, out, index, call_value, opener)
    size = len(out.deals)
    for history, values in out.signal.items():
        assert len(values) == size, f"history {history} is not reached by every deal"
    return out


def _visit(
    game: Game,
    history: History,
    d: int,
    out: BruteRound,
    index: dict[Bid, int],
    call_value: CallValue,
    opener: int,
) -> None:
    actor = (game.to_move + opener) % 2
    codes: list[int] = []
    for action in game.legal_actions():
        if action == CALL:
            events = game.push(action)
            out.call.setdefault(history, []).append(call_value(game, events, opener))
            out.outcome.setdefault(history, []).append(_outcome(game, opener))
            game.pop()
            codes.append(CALL_CODE)
        elif type(action) is Bid:
            game.push(action)
            _visit(game, (*history, index[action]), d, out, index, call_value, opener)
            game.pop()
            codes.append(index[action])
        else:
            raise AssertionError(f"unexpected action {action} at {history}")
    assert (game.to_move + opener) % 2 == actor
    bids = sorted(c for c in codes if c != CALL_CODE)
    node = PublicNode(actor, (*bids, *([CALL_CODE] if CALL_CODE in codes else [])))
    seen = out.nodes.setdefault(history, node)
    assert seen == node, f"the public tree depends on the deal at {history}"
    signals = out.signal.setdefault(history, [])
    assert len(signals) == d, history
    signals.append(_signal(game, actor, opener))


class CachedPolicy:
    """A policy evaluated once per information set (and checked to be a distribution)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.cache: dict[tuple[int, Signal, History], tuple[float, ...]] = {}

    def __call__(
        self, player: int, signal: Signal, history: History, actions: tuple[int, ...]
    ) -> tuple[float, ...]:
        key = (player, signal, history)
        found = self.cache.get(key)
        if found is None:
            found = tuple(float(p) for p in self.policy(player, signal, history, actions))
            assert len(found) == len(actions) and abs(sum(found) - 1.0) < 1e-12, found
            assert min(found) >= 0.0
            self.cache[key] = found
        return found


def _fold(brute: BruteRound, policy: Policy, responder: int | None) -> float:
    """With ``responder`` None: the opener's (role 0's) expected payoff when both play ``policy``.
    Otherwise what ``responder`` gets by best-responding to the other's ``policy``: at each
    of the responder's information sets (their signal at a history) the one action with
    the highest chance-and-opponent-weighted value over the set's states, bottom-up."""
    cached = policy if isinstance(policy, CachedPolicy) else CachedPolicy(policy)
    deals = range(len(brute.deals))
    sign = -1.0 if responder == 1 else 1.0

    def probs(history: History) -> list[tuple[float, ...]]:
        node = brute.nodes[history]
        return [cached(node.actor, s, history, node.actions) for s in brute.signal[history]]

    order = brute.order
    reach: dict[History, list[float]] = {(): [deal.prob for deal in brute.deals]}
    if responder is not None:
        for history in order:
            node = brute.nodes[history]
            here = reach[history]
            if node.actor == responder:
                for b in node.bids:
                    reach[(*history, b)] = here
                continue
            p = probs(history)
            for i, b in enumerate(node.bids):
                reach[(*history, b)] = [here[d] * p[d][i] for d in deals]

    values: dict[History, list[float]] = {}
    for history in reversed(order):
        node = brute.nodes[history]
        q: list[list[float]] = []
        for a in node.actions:
            if a == CALL_CODE:
                q.append([sign * v for v in brute.call[history]])
            else:
                q.append(values[(*history, a)])
        if node.actor == responder:
            groups: dict[Signal, list[int]] = {}
            for d in deals:
                groups.setdefault(brute.signal[history][d], []).append(d)
            value = [0.0] * len(brute.deals)
            for members in groups.values():
                totals = [sum(reach[history][d] * qa[d] for d in members) for qa in q]
                best = q[max(range(len(q)), key=totals.__getitem__)]
                for d in members:
                    value[d] = best[d]
        else:
            p = probs(history)
            value = [sum(pa * qa[d] for pa, qa in zip(p[d], q, strict=True)) for d in deals]
        values[history] = value
    return sum(deal.prob * v for deal, v in zip(brute.deals, values[()], strict=True))


def policy_value(brute: BruteRound, policy: Policy) -> float:
    """The opener's (role 0's) expected payoff when both players follow ``policy``."""
    return _fold(brute, policy, None)


def best_response_value(brute: BruteRound, policy: Policy, player: int) -> float:
    """What ``player`` gets by best-responding to the other player's ``policy``."""
    return _fold(brute, policy, player)


# --- policies --------------------------------------------------------------------------


def uniform_policy(
    player: int, signal: Signal, history: History, actions: tuple[int, ...]
) -> tuple[float, ...]:
    return (1.0 / len(actions),) * len(actions)


def _rng(seed: int, player: int, signal: Signal, history: History) -> random.Random:
    return random.Random(f"{seed}|{player}|{signal!r}|{history!r}")


def pure_policy(seed: int) -> Policy:
    """One action per information set, picked by a seeded hash of the set."""

    def policy(
        player: int, signal: Signal, history: History, actions: tuple[int, ...]
    ) -> tuple[float, ...]:
        pick = _rng(seed, player, signal, history).randrange(len(actions))
        return tuple(1.0 if i == pick else 0.0 for i in range(len(actions)))

    return policy


def mixed_policy(seed: int, zero_share: float = 0.25) -> Policy:
    """Random weights per information set; about ``zero_share`` of the actions get none
    (never all of them), so some states are out of reach."""

    def policy(
        player: int, signal: Signal, history: History, actions: tuple[int, ...]
    ) -> tuple[float, ...]:
        rng = _rng(seed, player, signal, history)
        weights = [0.0 if rng.random() < zero_share else rng.random() for _ in actions]
        if sum(weights) == 0.0:
            weights[rng.randrange(len(actions))] = 1.0
        total = sum(weights)
        return tuple(w / total for w in weights)

    return policy


def strategy_from_policy(round_: Round, policy: Policy) -> Strategy:
    """The solver's arrays for ``policy``: ``sigma_in[n, s]`` is the probability that the
    actor at ``parent[n]`` with signal ``s`` bids ``bid[n]``; ``sigma_call[n, s]`` that the
    actor at ``n`` calls."""
    size = max(round_.hands(0), round_.hands(1))
    sigma_in = np.zeros((round_.nodes, size))
    sigma_call = np.zeros((round_.nodes, size))
    children: list[list[int]] = [[] for _ in range(round_.nodes)]
    for node in range(1, round_.nodes):
        children[int(round_.parent[node])].append(node)
    for node in range(round_.nodes):
        actor = int(round_.actor[node])
        history = round_.history(node)
        kids = sorted(children[node], key=lambda c: int(round_.bid[c]))
        actions = (*(int(round_.bid[c]) for c in kids), *([CALL_CODE] if node else []))
        for s, signal in enumerate(round_.signals[actor]):
            p = policy(actor, signal, history, actions)
            for child, prob in zip(kids, p, strict=False):
                sigma_in[child, s] = prob
            if node:
                sigma_call[node, s] = p[-1]
    return Strategy(sigma_in, sigma_call)


def policy_from_strategy(round_: Round, strategy: Strategy) -> Policy:
    """The per-information-set policy that the solver's arrays describe."""
    node_of = {round_.history(n): n for n in range(round_.nodes)}
    child_of = {(int(round_.parent[n]), int(round_.bid[n])): n for n in range(1, round_.nodes)}
    signal_index = [{s: i for i, s in enumerate(round_.signals[p])} for p in (0, 1)]

    def policy(
        player: int, signal: Signal, history: History, actions: tuple[int, ...]
    ) -> tuple[float, ...]:
        node, s = node_of[history], signal_index[player][signal]
        return tuple(
            float(strategy.sigma_call[node, s])
            if a == CALL_CODE
            else float(strategy.sigma_in[child_of[(node, a)], s])
            for a in actions
        )

    return policy
