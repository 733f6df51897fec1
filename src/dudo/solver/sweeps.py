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

from collections.abc import Callable, Iterator
from enum import Enum
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from dudo.solver.round import IntArray, Layer, Round

Array = npt.NDArray[np.floating]

BLOCK = 1 << 15
"""Cells per block: a layer is swept in row blocks of about this many cells, so that the
several numpy passes of a fused update run over data still in the cache (a 2v2 layer is
tens of MB; a block is 128 kB in float32) and main memory is read and written once."""

PRODUCT_ROWS = 1024
"""Rows per matrix product in :func:`call_values`, counted from each layer's first row.
BLAS may round a row of a product differently with the number of rows it is given
(OpenBLAS's Haswell and Zen kernels do for odd counts; numpy hands a single row to another
routine), so the products are cut in the same runs whatever :data:`BLOCK` is: the
iterates then do not depend on the block size, bit for bit, on any CPU (the other passes
are elementwise, and add into each parent in the same order)."""


class Fold(Enum):
    """How the player's own decisions fold child values into a node's value."""

    EXPECT = "expect"  # weight by the player's strategy
    BEST = "best"  # best response: the best action per signal


def block_buffer(round_: Round, like: Array, slot: int = 0) -> Array:
    """A work array of one block (:func:`blocks`) shaped like ``like``'s rows; ``slot``
    tells apart buffers used at the same time."""
    rows = max(1, BLOCK // max(like.shape[1], 1))
    key = (f"{like.dtype.str}/block{slot}/{rows}", like.shape[1])
    found = round_.buffers.get(key)
    if found is None:
        found = round_.buffers[key] = np.empty((rows, like.shape[1]), like.dtype)
    return found


def product_buffer(round_: Round, like: Array) -> Array:
    """The work array of :func:`call_values`: :data:`PRODUCT_ROWS` rows shaped like
    ``like``'s."""
    key = (f"{like.dtype.str}/product{PRODUCT_ROWS}", like.shape[1])
    found = round_.buffers.get(key)
    if found is None:
        found = round_.buffers[key] = np.empty((PRODUCT_ROWS, like.shape[1]), like.dtype)
    return found


def uniform_strategy(round_: Round, player: int, like: Array) -> Array:
    """``(nodes of the player, 1)``: 1 / the number of actions at each of the player's nodes
    (its bids, and the call but at the root), in ``like``'s dtype; made once a round."""
    key = (f"{like.dtype.str}/uniform{player}", 1)
    found = round_.buffers.get(key)
    if found is None:
        mine = round_.region(player)
        nodes = np.arange(mine.start, mine.stop)
        actions = round_.child_count[mine] + (nodes > 0)
        found = (1.0 / np.maximum(actions, 1)).astype(like.dtype)[:, None]
        round_.buffers[key] = found
    return found


def blocks(layer: Layer, width: int) -> Iterator[tuple[slice, slice | IntArray]]:
    """The layer's rows in blocks of about :data:`BLOCK` cells, each with its parents."""
    step = max(1, BLOCK // max(width, 1))
    parents = layer.parents
    for start in range(layer.start, layer.stop, step):
        stop = min(start + step, layer.stop)
        if isinstance(parents, slice):
            shift = parents.start - layer.start
            yield slice(start, stop), slice(start + shift, stop + shift)
        else:
            yield slice(start, stop), parents[start - layer.start : stop - layer.start]


def row_blocks(rows: slice, width: int) -> Iterator[slice]:
    """A run of rows in blocks of about :data:`BLOCK` cells."""
    step = max(1, BLOCK // max(width, 1))
    for start in range(rows.start, rows.stop, step):
        yield slice(start, min(start + step, rows.stop))


def normalise(
    round_: Round,
    player: int,
    weight_in: Array,
    weight_call: Array,
    out_in: Array,
    out_call: Array,
    scratch: Array,
    positive_part: bool = False,
    totals_ready: bool = False,
) -> None:
    """Turn ``player``'s non-negative action weights into their behaviour strategy (uniform
    where a node's weights sum to 0), written into ``out_in`` / ``out_call`` (the other
    player's entries are left as they are). ``scratch`` is overwritten. With
    ``positive_part`` the weights are regrets, of which only the positive part counts
    (taken block by block: no full-size copies). With ``totals_ready`` the player's rows
    of ``scratch`` already hold each node's sum of weights (as :func:`fold_up` leaves
    them)."""
    width = scratch.shape[1]
    buffer = block_buffer(round_, weight_in)

    def weights(rows: slice) -> Array:
        part = weight_in[rows]
        if not positive_part:
            return part
        return np.maximum(part, 0, out=buffer[: len(part)])

    mine = round_.region(player)
    total = scratch[mine]
    if not totals_ready:
        if positive_part:
            np.maximum(weight_call[mine], 0, out=total)
        else:
            np.copyto(total, weight_call[mine])
        if player == 0:
            total[0] = 0.0  # the root has no call
        for layer in round_.layers:
            if layer.actor != player:  # edges into the other player's nodes are mine
                for rows, parents in blocks(layer, width):
                    scratch[parents] += weights(rows)
    uniform = uniform_strategy(round_, player, scratch)
    blank = total <= 0  # no positive weight: play uniformly
    for rows in row_blocks(mine, width):
        local = slice(rows.start - mine.start, rows.stop - mine.start)
        np.copyto(total[local], 1.0, where=blank[local])
        np.divide(weight_call[rows], total[local], out=out_call[rows])
        if positive_part:  # negative regret: probability 0
            np.maximum(out_call[rows], 0, out=out_call[rows])
        np.copyto(out_call[rows], uniform[local], where=blank[local])
    if player == 0:
        out_call[0] = 0.0
    for layer in round_.layers:
        if layer.actor == player:
            continue
        for rows, parents in blocks(layer, width):
            np.divide(weights(rows), scratch[parents], out=out_in[rows])
            if isinstance(parents, slice):
                local_parents: slice | IntArray = slice(
                    parents.start - mine.start, parents.stop - mine.start
                )
            else:
                local_parents = parents - mine.start
            np.copyto(out_in[rows], uniform[local_parents], where=blank[local_parents])


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
    iteration's weight) to the average-strategy sums, block by block while the reach is
    still in the cache.
    """
    out[0] = 0.0
    out[0, : round_.hands(player)] = 1.0
    width = out.shape[1]
    work = block_buffer(round_, out)
    for layer in round_.layers:
        mine = layer.actor != player  # the bid into these nodes was the player's
        for rows, parents in blocks(layer, width):
            if mine:
                np.multiply(out[parents], sigma_in[rows], out=out[rows])
            else:
                out[rows] = out[parents]
            if accumulate is None:
                continue
            added = work[: rows.stop - rows.start]
            np.multiply(out[rows], accumulate.weight, out=added)
            if mine:
                accumulate.avg_in[rows] += added
            else:  # the player's own nodes, where they may call: (weight * reach) * call
                added *= accumulate.sigma_call[rows]
                accumulate.avg_call[rows] += added


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
    ``opponent_reach`` itself (each run of rows is read before it is written)."""
    h_other, h_player = matrices.shape[2], matrices.shape[3]
    padded = h_player < out.shape[1]
    buffer = product_buffer(round_, opponent_reach)
    for layer in round_.layers:
        matrix = matrices[layer.bid, layer.actor]
        for start in range(layer.start, layer.stop, PRODUCT_ROWS):
            rows = slice(start, min(start + PRODUCT_ROWS, layer.stop))
            x = buffer[: rows.stop - rows.start, :h_other]
            if layer.actor != player:  # the opponent calls here: times their call probability
                np.multiply(opponent_reach[rows, :h_other], sigma_call[rows, :h_other], out=x)
            else:
                np.copyto(x, opponent_reach[rows, :h_other])  # ``out`` may be this very array
            np.matmul(x, matrix, out=out[rows, :h_player])
    if padded:  # ``out`` may hold the opponent's reach there: the player has no such signal
        out[:, h_player:] = 0.0
    out[0] = 0.0


RegretUpdate = Callable[[Array], None]
"""What happens to a block of a player's regrets right after this iteration's are added
(a discount, a floor at 0), in place while the block is in the cache."""


def fold_up(
    round_: Round,
    player: int,
    term: Array,
    values: Array,
    fold: Fold,
    sigma_in: Array | None = None,
    sigma_call: Array | None = None,
    regrets: tuple[Array, Array] | None = None,
    update: RegretUpdate | None = None,
    totals: bool = False,
) -> Array:
    """Fold the call values ``term`` (from :func:`call_values`) up the tree into ``values``:
    each node's value for ``player`` of playing on from it. At the player's own nodes,
    EXPECT weights by ``sigma_*`` (and with ``regrets`` adds the instantaneous regrets
    into them, then applies ``update`` to them; with ``totals`` it also leaves in ``term``,
    at each of the player's nodes, the sum of its updated positive regrets, for
    :func:`normalise` with ``totals_ready``, while they are in the cache); BEST takes the
    best action per signal. Returns the root's values."""
    mine = round_.region(player)
    width = values.shape[1]
    if fold is Fold.EXPECT:
        assert sigma_in is not None and sigma_call is not None
        other = round_.region(1 - player)
        np.copyto(values[other], term[other])
        np.multiply(term[mine], sigma_call[mine], out=values[mine])
        values[0] = 0.0
        work = block_buffer(round_, values)
        for layer in reversed(round_.layers):
            own = layer.actor != player
            for rows, parents in blocks(layer, width):
                if own:
                    added = work[: rows.stop - rows.start]
                    np.multiply(sigma_in[rows], values[rows], out=added)
                    values[parents] += added
                else:
                    values[parents] += values[rows]
    else:
        np.copyto(values, term)
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
        # The calls first: with ``totals`` the sums of positive regrets start from them.
        for rows in row_blocks(mine, width):
            part = regret_call[rows]
            part += term[rows]
            part -= values[rows]
            if rows.start == 0:
                part[0] = 0.0  # the root has no call
            if update is not None:
                update(part)
            if totals:  # ``term`` is read for the last time here: it becomes the sums
                np.maximum(part, 0, out=term[rows])
        buffer = block_buffer(round_, values)
        for layer in round_.layers:
            if layer.actor != player:
                for rows, parents in blocks(layer, width):
                    part = regret_in[rows]
                    part += values[rows]
                    part -= values[parents]
                    if update is not None:
                        update(part)
                    if totals:
                        term[parents] += np.maximum(part, 0, out=buffer[: len(part)])
    root: Array = values[0]
    return root
