"""The passes over a round's tree that CFR and evaluation share, a few numpy calls per layer
(:class:`~dudo.solver.round.Layer`): normalising weights into a behaviour strategy, pushing
one player's reach probabilities down the tree, the payoff of every call, and folding
values back up.

Arrays are ``(nodes, H)``: one row per node, one column per private signal of the player
they belong to (``H`` is the larger signal count; the other player's extra columns stay 0).
An "in" array at node ``n`` belongs to the edge from ``parent[n]`` into ``n`` (so to the
actor at the parent, ``1 - actor[n]``); a "call" array at ``n`` to the call made there
(``actor[n]``). Both players' nodes share a layer, so a player's part is chosen by a mask.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from dudo.solver.round import Round

Array = npt.NDArray[np.floating]


class Fold(Enum):
    """How the player's own decisions fold child values into a node's value."""

    EXPECT = "expect"  # weight by the player's strategy
    BEST = "best"  # best response: the best action per signal


def layer_buffer(round_: Round, like: Array, rows: int) -> Array:
    """A work array of ``rows`` rows shaped like ``like``'s rows, reused across calls: big
    temporaries are fresh memory each time, and page faults cost more than the arithmetic."""
    key = (like.dtype.str, like.shape[1])
    found = round_.buffers.get(key)
    if found is None:
        largest = max((layer.stop - layer.start for layer in round_.layers), default=1)
        found = round_.buffers[key] = np.empty((largest, like.shape[1]), like.dtype)
    return found[:rows]


def normalise(
    round_: Round,
    player: int,
    weight_in: Array,
    weight_call: Array,
    out_in: Array,
    out_call: Array,
    scratch: Array,
    positive_part: bool = False,
) -> None:
    """Turn ``player``'s non-negative action weights into their behaviour strategy (uniform
    where a node's weights sum to 0), written into ``out_in`` / ``out_call`` (the other
    player's entries are left as they are). ``scratch`` is overwritten. With
    ``positive_part`` the weights are regrets, of which only the positive part counts
    (taken layer by layer: no full-size copies)."""

    def weights(array: Array, rows: slice) -> Array:
        part = array[rows]
        if not positive_part:
            return part
        return np.maximum(part, 0, out=layer_buffer(round_, array, len(part)))

    mine = round_.region(player)
    total = scratch[mine]
    np.copyto(total, weight_call[mine])
    if positive_part:
        np.maximum(total, 0, out=total)
    if player == 0:
        total[0] = 0.0  # the root has no call
    for layer in round_.layers:
        if layer.actor != player:  # edges into the other player's nodes are mine
            scratch[layer.parents] += weights(weight_in, layer.nodes)
    nodes = np.arange(mine.start, mine.stop)
    actions = round_.child_count[mine] + (nodes > 0)
    uniform = (1.0 / np.maximum(actions, 1)).astype(scratch.dtype)[:, None]
    positive = total > 0
    np.copyto(total, 1.0, where=~positive)
    np.divide(weight_call[mine], total, out=out_call[mine])
    if positive_part:
        np.maximum(out_call[mine], 0, out=out_call[mine])  # negative regret: probability 0
    np.copyto(out_call[mine], uniform, where=~positive)
    if player == 0:
        out_call[0] = 0.0
    for layer in round_.layers:
        if layer.actor == player:
            continue
        rows, parents = layer.nodes, layer.parents
        np.divide(weights(weight_in, rows), scratch[parents], out=out_in[rows])
        if isinstance(parents, slice):
            local = slice(parents.start - mine.start, parents.stop - mine.start)
        else:
            local = parents - mine.start
        np.copyto(out_in[rows], uniform[local], where=~positive[local])


class Averaging(NamedTuple):
    """The average-strategy sums that :func:`reach` adds to, the player's call probabilities,
    and the weight of this iteration."""

    avg_in: Array
    avg_call: Array
    sigma_call: Array
    weight: float


def reach(
    round_: Round,
    player: int,
    sigma_in: Array,
    out: Array,
    accumulate: Averaging | None = None,
) -> None:
    """``player``'s reach probability of every node under ``sigma_in`` into ``out``.

    With ``accumulate`` it also adds the player's reach-weighted strategy (times the
    iteration's weight) to the average-strategy sums.
    """
    out[0] = 0.0
    out[0, : round_.hands(player)] = 1.0
    for layer in round_.layers:
        rows = layer.nodes
        if layer.actor != player:  # the bid into these nodes was the player's
            np.multiply(out[layer.parents], sigma_in[rows], out=out[rows])
            if accumulate is not None:
                work = layer_buffer(round_, out, layer.stop - layer.start)
                np.multiply(out[rows], accumulate.weight, out=work)
                accumulate.avg_in[rows] += work
        else:
            out[rows] = out[layer.parents]
    if accumulate is not None:
        _, avg_call, sigma_call, weight = accumulate
        for layer in round_.layers:
            if layer.actor == player:  # the player's own nodes, where they may call
                rows = layer.nodes
                work = layer_buffer(round_, out, layer.stop - layer.start)
                np.multiply(out[rows], weight, out=work)  # (weight * reach) * call, as ever
                work *= sigma_call[rows]
                avg_call[rows] += work


def call_matrices(payoff: Array) -> Array:
    """Per bid and caller, the payoff matrix transposed for a product with the opponent's
    reach: ``(bids, 2, H_other, H_player)`` from ``(bids, 2, H_player, H_other)``."""
    return np.ascontiguousarray(payoff.transpose(0, 1, 3, 2))


def call_values(
    round_: Round,
    player: int,
    matrices: Array,
    opponent_reach: Array,
    sigma_call: Array,
    out: Array,
) -> None:
    """The counterfactual value for ``player`` of the call at every node (0 at the root):
    the opponent's reach of the call times the payoff matrix of its bid and caller.
    ``matrices`` is :func:`call_matrices` of the player's payoffs. ``out`` may be
    ``opponent_reach`` itself (each layer is read before it is written)."""
    h_other, h_player = matrices.shape[2], matrices.shape[3]
    padded = h_player < out.shape[1]
    for layer in round_.layers:
        rows = layer.nodes
        x = layer_buffer(round_, opponent_reach, layer.stop - layer.start)[:, :h_other]
        if layer.actor != player:  # the opponent calls here: times their call probability
            np.multiply(opponent_reach[rows, :h_other], sigma_call[rows, :h_other], out=x)
        else:
            np.copyto(x, opponent_reach[rows, :h_other])  # ``out`` may be this very array
        if padded:
            out[rows, :h_player] = x @ matrices[layer.bid, layer.actor]
        else:
            np.matmul(x, matrices[layer.bid, layer.actor], out=out[rows])
    if padded:  # ``out`` may hold the opponent's reach there: the player has no such signal
        out[:, h_player:] = 0.0
    out[0] = 0.0


def fold_up(
    round_: Round,
    player: int,
    term: Array,
    values: Array,
    fold: Fold,
    sigma_in: Array | None = None,
    sigma_call: Array | None = None,
    regrets: tuple[Array, Array] | None = None,
) -> Array:
    """Fold the call values ``term`` (from :func:`call_values`) up the tree into ``values``:
    each node's value for ``player`` of playing on from it. At the player's own nodes,
    EXPECT weights by ``sigma_*`` (and with ``regrets`` adds the instantaneous regrets
    into them); BEST takes the best action per signal. Returns the root's values."""
    mine = round_.region(player)
    np.copyto(values, term)
    if fold is Fold.EXPECT:
        assert sigma_in is not None and sigma_call is not None
        values[mine] *= sigma_call[mine]
        values[0] = 0.0
        for layer in reversed(round_.layers):
            rows = layer.nodes
            if layer.actor != player:
                work = layer_buffer(round_, values, layer.stop - layer.start)
                np.multiply(sigma_in[rows], values[rows], out=work)
                values[layer.parents] += work
            else:
                values[layer.parents] += values[rows]
    else:
        values[0] = -np.inf if player == 0 else 0.0
        for layer in reversed(round_.layers):
            rows, parents = layer.nodes, layer.parents
            if layer.actor != player and isinstance(parents, slice):
                np.maximum(values[parents], values[rows], out=values[parents])
            elif layer.actor != player:
                values[parents] = np.maximum(values[parents], values[rows])
            else:
                values[parents] += values[rows]
    if regrets is not None:
        regret_in, regret_call = regrets
        for layer in round_.layers:
            if layer.actor != player:
                rows = layer.nodes
                regret_in[rows] += values[rows]
                regret_in[rows] -= values[layer.parents]
        regret_call[mine] += term[mine]
        regret_call[mine] -= values[mine]
        regret_call[0] = 0.0
    root: Array = values[0]
    return root
