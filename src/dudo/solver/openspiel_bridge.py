"""Strategies carried between our solver and OpenSpiel's ``liars_dice``, for cross-checks.

A heads-up round of ``preset("liars-dice", aces_rank="high")`` at ``Position((n, n))`` is
OpenSpiel's ``liars_dice`` with ``players=2, numdice=n, dice_sides=faces`` and its default
``bidding_rule="reset-face"`` (bids in one order, quantity first; its other rule,
``reset-quantity``, puts the face first and is not ours). Only the faces are
named differently: our face 1 (the wild ace, ranked highest at each quantity) is OpenSpiel's
wild face ``faces``, and our faces ``2..faces`` are its ``1..faces-1``. OpenSpiel's action
for the bid ``q x f`` is ``(q - 1) * faces + f - 1`` in its own faces; the call ("Liar") is
``2 * n * faces``.

The mapping is structural: it pairs our information sets (public node, signal) with
OpenSpiel's information-state strings (own dice, bid history) by walking both trees
together, and checks on the way that every node offers the same actions. Payoffs are not
part of it (a round built with a continuation still maps, but then OpenSpiel's +-1 returns
are a different game).

OpenSpiel is an optional extra (``pip install -e '.[open-spiel]'``), imported on first use.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from dudo.engine import Bid, Rules
from dudo.engine.rules import AcesRank, OpenOnAces, RaiseMode
from dudo.solver.cfr import Strategy
from dudo.solver.position import SolverError
from dudo.solver.round import Round

MAX_INFOSETS = 1_000_000
"""OpenSpiel's tabular policies list every information state; past this many we refuse
(``numdice=2`` with six faces has 2^24 bid histories, far beyond it)."""

_INSTALL = "OpenSpiel is not installed: pip install -e '.[open-spiel]' (or pip install open_spiel)"


def _pyspiel() -> ModuleType:
    try:
        import pyspiel
    except ImportError:
        raise SolverError(_INSTALL) from None
    module: ModuleType = pyspiel
    return module


def _policy_module() -> ModuleType:
    _pyspiel()
    from open_spiel.python import policy

    module: ModuleType = policy
    return module


def bridge_problem(round_: Round) -> str | None:
    """Why ``round_`` is not an OpenSpiel ``liars_dice`` game, or None if it is."""
    rules, position = round_.rules, round_.position
    if rules.raise_mode is not RaiseMode.INDEX or rules.aces_rank is not AcesRank.HIGH:
        return "OpenSpiel's liars_dice bids in one order with the wild face highest: use raise_mode=index, aces_rank=high"
    if not rules.aces_wild or rules.wild_needs_natural:
        return "OpenSpiel's liars_dice has a wild face that counts alone: use aces_wild=true, wild_needs_natural=false"
    if rules.open_on_aces is not OpenOnAces.ALWAYS:
        return "OpenSpiel's liars_dice may open on any face: use open_on_aces=always"
    if position.obliging:
        return "OpenSpiel's liars_dice has no obliging rounds"
    if position.dice[0] != position.dice[1]:
        return f"OpenSpiel's liars_dice deals both players the same number of dice, not {position.label()}"
    infosets = round_.nodes * max(round_.hands(0), round_.hands(1))
    if infosets > MAX_INFOSETS:
        return (
            f"{position.label()} has {infosets} information sets; OpenSpiel's tabular "
            f"policies list them all (the bridge stops at {MAX_INFOSETS})"
        )
    return None


def openspiel_game(round_: Round) -> Any:
    """OpenSpiel's ``liars_dice`` for ``round_`` (SolverError if there is none)."""
    problem = bridge_problem(round_)
    if problem is not None:
        raise SolverError(problem)
    params = {
        "players": 2,
        "numdice": round_.position.dice[0],
        "dice_sides": round_.rules.faces,
        "bidding_rule": "reset-face",
    }
    return _pyspiel().load_game("liars_dice", params)


def openspiel_face(rules: Rules, face: int) -> int:
    """OpenSpiel's name (1..faces) for our ``face``: the wild ace is its highest face."""
    return rules.faces if face == 1 else face - 1


def openspiel_action(rules: Rules, bid: Bid) -> int:
    """OpenSpiel's action for our ``bid``."""
    return (bid.quantity - 1) * rules.faces + openspiel_face(rules, bid.face) - 1


def openspiel_call(round_: Round) -> int:
    """OpenSpiel's action for the call ("Liar")."""
    return sum(round_.position.dice) * round_.rules.faces


def _children(round_: Round) -> npt.NDArray[np.int64]:
    """``(nodes, bids)``: the child reached by each bid, -1 where it is not legal."""
    table = np.full((round_.nodes, len(round_.bids)), -1, dtype=np.int64)
    for layer in round_.layers:
        table[layer.parents, layer.bid] = np.arange(layer.start, layer.stop)
    return table


def _hand(signal: object) -> tuple[int, ...]:
    """The sorted own dice of a signal ``(my_dice, seen_dice)``."""
    if not (isinstance(signal, tuple) and isinstance(signal[0], tuple)):
        raise SolverError(f"signal {signal!r} does not show the player's own dice")
    return tuple(sorted(int(d) for d in signal[0]))


def _walk(round_: Round, game: Any) -> Iterator[tuple[Any, int, int]]:
    """Every decision state of ``game``, with our node and the actor's signal index.

    One deal per hand, both players holding it: each player then meets each of their
    information states exactly once. Raises SolverError where the two trees differ."""
    rules = round_.rules
    hands = [{_hand(sig): s for s, sig in enumerate(round_.signals[p])} for p in (0, 1)]
    if hands[0].keys() != hands[1].keys():
        raise SolverError("the two players' hands differ; not an OpenSpiel liars_dice round")
    actions = [openspiel_action(rules, b) for b in round_.bids]
    call = openspiel_call(round_)
    # Per node: (OpenSpiel action, our child) of each bid, and the legal actions in order.
    moves = [
        [(actions[b], c) for b, c in enumerate(row) if c >= 0] for row in _children(round_).tolist()
    ]
    legal = [sorted([a for a, _ in m] + ([call] if n else [])) for n, m in enumerate(moves)]
    actor_of = round_.actor.tolist()
    for hand, s0 in hands[0].items():
        signal = (s0, hands[1][hand])
        state = game.new_initial_state()
        for _ in (0, 1):  # OpenSpiel deals player 0's dice, then player 1's
            for face in hand:
                state.apply_action(openspiel_face(rules, face) - 1)
        stack = [(state, 0)]
        while stack:
            state, node = stack.pop()
            actor = actor_of[node]
            if state.current_player() != actor or state.legal_actions() != legal[node]:
                raise SolverError(
                    f"OpenSpiel's {game} differs from this round after the bids "
                    f"{[str(round_.bids[b]) for b in round_.history(node)]}: it has player "
                    f"{state.current_player()} choose from {state.legal_actions()}, we have "
                    f"player {actor} choose from {legal[node]}"
                )
            yield state, node, signal[actor]
            stack.extend((state.child(a), c) for a, c in moves[node])


def to_openspiel(round_: Round, strategy: Strategy, game: Any = None) -> Any:
    """An OpenSpiel ``TabularPolicy`` (``open_spiel.python.policy``) playing ``strategy``.

    ``game`` is :func:`openspiel_game` of the round (made if not given)."""
    if game is None:
        game = openspiel_game(round_)
    visited = list(_walk(round_, game))
    policy = _policy_module().TabularPolicy(
        game, states={s.history_str(): s for s, _, _ in visited}
    )
    rows = np.full((round_.nodes, max(round_.hands(0), round_.hands(1))), -1, dtype=np.int64)
    for state, node, signal in visited:
        rows[node, signal] = policy.state_index(state)
    if (rows < 0).any() or len(policy.state_lookup) != rows.size:
        raise SolverError("OpenSpiel's information states do not pair one to one with ours")
    probs = policy.action_probability_array
    probs[...] = 0.0
    actions = [openspiel_action(round_.rules, b) for b in round_.bids]
    for layer in round_.layers:  # the bid into each node is a choice at its parent
        probs[rows[layer.parents], actions[layer.bid]] = strategy.sigma_in[layer.nodes]
    probs[rows[1:], openspiel_call(round_)] = strategy.sigma_call[1:]
    return policy


def from_openspiel(round_: Round, policy: Any, game: Any = None) -> Strategy:
    """Our :class:`Strategy` for an OpenSpiel policy of the round's game: any object with
    ``action_probabilities(state)`` (Python ``open_spiel.python.policy.Policy`` or C++
    ``pyspiel.Policy``, such as ``CFRPlusSolver.average_policy()``)."""
    if game is None:
        game = openspiel_game(round_)
    width = max(round_.hands(0), round_.hands(1))
    probs = np.zeros((round_.nodes, width, game.num_distinct_actions()))
    tabular = isinstance(policy, _policy_module().TabularPolicy)
    for state, node, signal in _walk(round_, game):
        if tabular:  # read the table directly: much faster than a dict per state
            probs[node, signal] = policy.action_probability_array[policy.state_index(state)]
        else:
            for action, p in policy.action_probabilities(state).items():
                probs[node, signal, action] = p
    sigma_in = np.zeros((round_.nodes, width))
    sigma_call = np.zeros((round_.nodes, width))
    actions = [openspiel_action(round_.rules, b) for b in round_.bids]
    for layer in round_.layers:
        sigma_in[layer.nodes] = probs[layer.parents, :, actions[layer.bid]]
    sigma_call[1:] = probs[1:, :, openspiel_call(round_)]
    return Strategy(sigma_in, sigma_call)
