"""An imperfect-recall abstraction for rounds too big for the whole tree: a player remembers
only the last ``k`` bids of the round (and whose turn it is), as Neller & Hnath did for
5-vs-5 Dudo.

Histories with the same last ``k`` bids merge into one abstract node, so the public tree
becomes a directed acyclic graph with far fewer nodes (``C(bids, k)`` instead of
``2^bids``). It is solved by fixed-strategy-iteration CFR (FSICFR): each iteration pushes
the reach probabilities of both players forward through the graph (summed where histories
merge), then folds expected utilities back, conditioned on each player's signal and on the
merged belief about the other's; regrets and averages are those of discounted CFR. All of
it is numpy over edges and signals, one layer (standing bid) at a time.

The abstract strategy plays in the real game by looking at the last ``k`` bids only;
:func:`lift` turns it into a strategy on the whole tree where that fits in memory, so its
exploitability can be measured exactly there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dudo.engine import Bid, Rules
from dudo.solver.cfr import DCFR_ALPHA, DCFR_BETA, DCFR_GAMMA, Strategy
from dudo.solver.position import Position, SolverError, check_heads_up
from dudo.solver.round import Continuation, Moves, Round, call_payoffs, move_rank, passed_flags

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

AbstractKey = tuple[tuple[int, ...], int, int]
"""(the last k moves, who acts, flags): flag bit 0 says whether those are all the round's
moves, bit 1 + p that player p has passed in the round (what the rules need remembered)."""

WHOLE = 1


def abstract_key(history: tuple[int, ...], k: int, nbids: int) -> AbstractKey:
    """What a player remembers of a round's ``history`` of moves (see
    :class:`~dudo.solver.round.MoveKind`; ``nbids`` bids in the round)."""
    flags = passed_flags(history, nbids) << 1 | (WHOLE if len(history) <= k else 0)
    return (history[-k:] if k else (), len(history) % 2, flags)


def child_key(key: AbstractKey, move: int, recall: int, nbids: int) -> AbstractKey:
    """The key after ``move`` is played at a node of key ``key``."""
    history, who, flags = key
    whole = flags & WHOLE and len(history) + 1 <= recall
    passed = flags >> 1 | (1 << who if nbids <= move < 2 * nbids else 0)
    return ((*history, move)[-recall:], 1 - who, passed << 1 | (WHOLE if whole else 0))


@dataclass
class AbstractRound:
    """The abstract graph of a round: nodes (what a player remembers), edges (bids)."""

    rules: Rules
    position: Position
    recall: int
    window: int | None
    bids: tuple[Bid, ...]
    moves: int  # bids, then passes and spot-on claims if the round has them (MoveKind)
    keys: list[AbstractKey]  # node -> key (node 0 is the start of the round)
    index: dict[AbstractKey, int]
    actor: IntArray  # (M,)
    last_bid: IntArray  # (M,) -1 at the start
    source: IntArray  # (E,) edges, grouped by the layer of their target
    target: IntArray  # (E,)
    layer_edges: list[tuple[int, int, int]]  # (first edge, end edge, layer's bid) in order
    signals: tuple[tuple[object, ...], tuple[object, ...]]
    joint: Array  # (S0, S1) probability of each pair of signals
    payoff: Array  # (moves, caller, S0, S1) player 0's payoff times probability

    @property
    def nodes(self) -> int:
        return len(self.keys)

    @property
    def edges(self) -> int:
        return len(self.source)

    def hands(self, player: int) -> int:
        return len(self.signals[player])


def build_abstract_round(
    rules: Rules,
    position: Position,
    recall: int,
    continuation: Continuation | None = None,
    window: int | None = None,
) -> AbstractRound:
    """The round at ``position`` (player 0 opens) with players recalling the last
    ``recall`` bids and, if ``window`` is given, raising only to one of the ``window``
    lowest bids above the standing one (any opening bid stays allowed)."""
    if recall < 1:
        raise SolverError(f"recall: {recall} must be at least 1 bid")
    if window is not None and window < 1:
        raise SolverError(f"window: {window} must be at least 1 bid")
    position = position.canonical()
    check_heads_up(rules, position)
    moves = Moves(rules, position)
    graph = _Walk(moves, recall, window)
    edges = list(graph.edges())
    keys, index, path_of = graph.keys, graph.index, graph.path_of
    actor = np.array([k[1] for k in keys], dtype=np.int64)
    last_bid = np.array([k[0][-1] if k[0] else -1 for k in keys], dtype=np.int64)
    # Topological layers: by last move (in move_rank's order), after the round's first bids
    # when a second bid may go down (free_transform).
    full = np.array([bool(k[2] & WHOLE) for k in keys])
    depth = np.array([len(k[0]) if k[2] & WHOLE else recall + 1 for k in keys])
    src, dst, bid = (np.array(c, dtype=np.int64) for c in zip(*edges, strict=True))
    rank = move_rank(last_bid, moves.nbids)
    goes_up = bool(np.all(rank[dst] > rank[src]))
    stage = np.zeros(len(keys), dtype=np.int64) if goes_up else ((depth >= 2) | ~full)
    layer_of = stage * 3 * moves.nbids + rank
    order = np.lexsort((dst, layer_of[dst]))
    src, dst, bid = src[order], dst[order], bid[order]
    edge_layer = layer_of[dst]
    bounds = np.flatnonzero(np.diff(edge_layer)) + 1
    starts = np.concatenate([[0], bounds])
    ends = np.concatenate([bounds, [len(src)]])
    layer_edges = [
        (int(a), int(e), int(last_bid[dst[a]])) for a, e in zip(starts, ends, strict=True)
    ]
    # Edges must only leave nodes of earlier layers (or the start).
    assert all(
        np.all((layer_of[src[a:e]] < layer_of[dst[a]]) | (src[a:e] == 0)) for a, e, _ in layer_edges
    ), "the abstract graph is not layered"
    representative: dict[tuple[int, int], tuple[int, ...]] = {}
    for node in range(1, len(keys)):
        representative.setdefault((int(last_bid[node]), int(actor[node])), path_of[node])
    signals, joint, payoff, _ = call_payoffs(rules, position, representative, continuation, moves)
    return AbstractRound(
        rules=rules,
        position=position,
        recall=recall,
        window=window,
        bids=moves.bids,
        moves=moves.count,
        keys=keys,
        index=index,
        actor=actor,
        last_bid=last_bid,
        source=src,
        target=dst,
        layer_edges=layer_edges,
        signals=signals,
        joint=joint,
        payoff=payoff,
    )


Runs = list[tuple[int, int, int, "slice | IntArray"]]
"""Consecutive rows summed ``d`` at a time: (first row, end row, d, where the sums go)."""


def _runs(owner: IntArray, first_row: int = 0) -> Runs:
    """How to sum rows into their owners, where rows of one owner are consecutive and
    owners with the same number of rows are next to each other: one reshape-and-sum per
    run of equal counts (numpy's ``reduceat`` is many times slower on short segments)."""
    if not len(owner):
        return []
    starts = np.flatnonzero(np.diff(owner, prepend=owner[0] - 1))
    counts = np.diff(np.append(starts, len(owner)))
    owners = owner[starts]
    out: Runs = []
    breaks = np.flatnonzero(np.diff(counts)) + 1
    for lo, hi in zip([0, *breaks.tolist()], [*breaks.tolist(), len(counts)], strict=True):
        at = owners[lo:hi]
        where: slice | IntArray = at
        if np.array_equal(at, np.arange(at[0], at[0] + len(at))):
            where = slice(int(at[0]), int(at[0]) + len(at))
        row = int(starts[lo])
        out.append(
            (first_row + row, first_row + row + int(counts[lo]) * len(at), int(counts[lo]), where)
        )
    return out


def _add_runs(rows: Array, runs: Runs, out: Array, offset: int = 0) -> None:
    """``out[owner] += sum of the owner's rows`` for every run."""
    cols = rows.shape[1]
    for r0, r1, d, where in runs:
        part = rows[r0 - offset : r1 - offset]
        out[where] += part if d == 1 else part.reshape(-1, d, cols).sum(axis=1)


def _node_order(g: AbstractRound) -> tuple[IntArray, IntArray, IntArray]:
    """The nodes' new order (new -> old: the root first, then by topological level, actor
    and number of actions), each node's level (the index of the layer of its incoming
    edges) and its number of out-edges."""
    level = np.zeros(g.nodes, dtype=np.int64)
    for i, (a, e, _) in enumerate(g.layer_edges):
        level[g.target[a:e]] = i + 1
    if not np.all(level[g.source] < level[g.target]):
        raise SolverError("the abstract graph is not layered")
    out_count = np.bincount(g.source, minlength=g.nodes)
    order = np.lexsort((np.arange(g.nodes), out_count, g.actor, level))
    return order, level, out_count


class AbstractSolver:
    """Discounted CFR over the abstract graph, both players updated each iteration.

    The arrays are laid out for the passes over the graph: nodes are renumbered into
    groups of one topological level and one actor each (contiguous ranges, nodes with
    the same number of actions together), and each player keeps regrets and averages only
    for the edges leaving their own nodes, sorted by source. So every sum over a node's
    actions, or over the edges into a node, is a few reshape-and-sums over contiguous
    blocks, and the backward pass updates a group's regrets as soon as its values are known
    (no array of every edge's value is kept).

    ``dtype`` is the storage and arithmetic type: float64 by default; float32 halves
    memory and much of the time, its average strategies within about 1e-2 of float64's
    after a few dozen iterations (closer as play settles).
    """

    def __init__(self, graph: AbstractRound, dtype: type[np.floating] = np.float64) -> None:
        self.graph = g = graph
        self.dtype = dtype
        self.h = h = (g.hands(0), g.hands(1))
        self.iteration = 0
        self._noise = 64 * float(np.finfo(dtype).eps)
        order, level, out_count = _node_order(g)
        self._order = order
        new_of = np.empty_like(order)
        new_of[order] = np.arange(g.nodes)
        actor = g.actor[order]
        src, dst = new_of[g.source], new_of[g.target]
        key = level[order] * 2 + actor
        bounds = np.flatnonzero(np.diff(key)) + 1
        starts = np.concatenate([[0], bounds]).tolist()
        ends = [*bounds.tolist(), g.nodes]
        self._actor = actor
        self._new_of = new_of
        self._bid = g.last_bid[order]
        self._groups = list(zip(starts, ends, strict=True))
        actions = out_count[order] + (np.arange(g.nodes) > 0)
        self._uniform = (1.0 / np.maximum(actions, 1))[:, None].astype(dtype)
        # Per player q: q's edges sorted by source (stable, so by the graph's order within).
        self._edge_ids: list[IntArray] = []  # graph edge index of each of q's edges
        self._src: list[IntArray] = []
        self._dst: list[IntArray] = []
        for q in (0, 1):
            ids = np.flatnonzero(actor[src] == q)
            ids = ids[np.argsort(src[ids], kind="stable")]
            self._edge_ids.append(ids)
            self._src.append(src[ids])
            self._dst.append(dst[ids])
        self._out, self._in = self._blocks(np.bincount(dst, minlength=g.nodes))
        self._lay_out_payoffs()
        ne = (len(self._src[0]), len(self._src[1]))
        self.regret_edge = [np.zeros((ne[q], h[q]), dtype) for q in (0, 1)]
        self.regret_call = [np.zeros((g.nodes, h[q]), dtype) for q in (0, 1)]
        self.avg_edge = [np.zeros((ne[q], h[q]), dtype) for q in (0, 1)]
        self.avg_call = [np.zeros((g.nodes, h[q]), dtype) for q in (0, 1)]
        self._sigma_edge = [np.zeros((ne[q], h[q]), dtype) for q in (0, 1)]
        self._sigma_call = [np.zeros((g.nodes, h[q]), dtype) for q in (0, 1)]
        blocks = [len(src) for _, src, _ in self._in] + [e - a for a, e, _ in self._out]
        size = max([1, *blocks]) * max(h)
        self._scratch = [np.zeros(size, dtype) for _ in range(3)]
        self._node_scratch = [np.zeros(g.nodes * max(h), dtype) for _ in range(5)]
        self._mine = [actor == q for q in (0, 1)]

    def _blocks(
        self, in_count: IntArray
    ) -> tuple[list[tuple[int, int, Runs]], list[tuple[IntArray, IntArray, Runs]]]:
        """Per group: its block of out-edges (in its actor's edge list) with the runs that
        sum them by source; and its in-edges (the other's) by number of edges in
        (``in_count``, by node) and target, with the runs that sum them by target."""
        out: list[tuple[int, int, Runs]] = []
        into: list[tuple[IntArray, IntArray, Runs]] = []
        for n0, n1 in self._groups:
            q = int(self._actor[n0])
            qs = self._src[q]
            a, e = int(np.searchsorted(qs, n0)), int(np.searchsorted(qs, n1))
            out.append((a, e, _runs(qs[a:e], a)))
            o = 1 - q  # the edges into q's nodes are the other player's bids
            targets = self._dst[o]
            incoming = np.flatnonzero((targets >= n0) & (targets < n1)) if n0 else qs[:0]
            incoming = incoming[
                np.lexsort((incoming, targets[incoming], in_count[targets[incoming]]))
            ]
            into.append((incoming, self._src[o][incoming], _runs(targets[incoming])))
        return out, into

    def _lay_out_payoffs(self) -> None:
        """Per player p, laid out for ``x @ m`` with x over the other's signals (BLAS is
        several times slower on a transposed right-hand side): joint (S_o, S_p), and p's
        payoff (bids, caller, S_o, S_p)."""
        g, dtype = self.graph, self.dtype
        u0 = g.payoff.astype(dtype)
        self._joint_t = (np.ascontiguousarray(g.joint.T, dtype), g.joint.astype(dtype))
        self._payoff_t = (np.ascontiguousarray(u0.transpose(0, 1, 3, 2)), -u0)
        # When the players' signals are independent (each sees only their own dice) the
        # joint is the product of its marginals, and mixing the opponent's signals through
        # it is a dot product with their marginal instead of a matrix product.
        marginal = (g.joint.sum(axis=1), g.joint.sum(axis=0))
        product = np.outer(*marginal)
        self._independent = bool(np.all(np.abs(g.joint - product) <= 1e-12 * product))
        self._marginal = (marginal[0].astype(dtype), marginal[1].astype(dtype))

    def _work(self, slot: int, rows: int, cols: int) -> Array:
        """Scratch space for one block (reused, so no pass pays for fresh memory)."""
        return self._scratch[slot][: rows * cols].reshape(rows, cols)

    def _node_work(self, slot: int, cols: int) -> Array:
        """Scratch space over every node (slots: 0 reach, 1 mass, 2 utility, 3 value,
        4 normalising totals)."""
        return self._node_scratch[slot][: self.graph.nodes * cols].reshape(-1, cols)

    def _normalise(
        self,
        player: int,
        edge_weight: Array,
        call_weight: Array,
        edge_out: Array,
        call_out: Array,
    ) -> None:
        """Writes ``player``'s strategy at their edges into ``edge_out`` (which may be
        ``edge_weight``) and at their nodes' calls into ``call_out`` (uniform where all
        weights are 0; the other's nodes get 0)."""
        h = self.h[player]
        total = self._node_work(4, h)
        np.copyto(total, call_weight)
        total[0] = 0.0
        src = self._src[player]
        mine = [
            runs
            for (n0, _), (_, _, runs) in zip(self._groups, self._out, strict=True)
            if self._actor[n0] == player
        ]
        for runs in mine:
            _add_runs(edge_weight, runs, total)
        positive = total > 0
        scale = np.divide(1.0, total, out=total, where=positive)
        scale[~positive] = 0.0
        call = np.multiply(call_weight, scale, out=call_out)
        for runs in mine:
            for r0, r1, d, where in runs:
                np.multiply(
                    edge_weight[r0:r1].reshape(-1, d, h),
                    scale[where][:, None, :],
                    out=edge_out[r0:r1].reshape(-1, d, h),
                )
        # Where a node's weights are all 0 for a signal, its actions are uniform.
        empty = np.flatnonzero(~positive.all(axis=1) & self._mine[player])
        if len(empty):
            fill = np.where(positive[empty], 0.0, self._uniform[empty]).astype(self.dtype)
            call[empty] += fill
            row_of = np.full(self.graph.nodes, -1)
            row_of[empty] = np.arange(len(empty))
            edges = np.flatnonzero(row_of[src] >= 0)
            edge_out[edges] += fill[row_of[src[edges]]]
        call[0] = 0.0  # the round's first move is a bid

    def _full(self, player: int, edge: Array, call: Array) -> tuple[Array, Array]:
        """Internal per-player arrays as the graph's (every edge, every node, in its order;
        the other player's edges uniform)."""
        g = self.graph
        full_edge = np.empty((g.edges, self.h[player]), self.dtype)
        full_edge[:] = self._uniform[self._new_of[g.source]]
        full_edge[self._edge_ids[player]] = edge
        full_call = np.where(self._mine[player][:, None], call, self._uniform)
        full_call[0] = 0.0
        return full_edge, full_call[self._new_of]

    def current(self) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
        """Each player's regret-matching strategy: (per edge, per node's call), in the
        graph's order."""
        out = []
        for p in (0, 1):
            edge = np.maximum(self.regret_edge[p], 0)
            call = np.maximum(self.regret_call[p], 0)
            self._normalise(p, edge, call, edge, call)
            out.append(self._full(p, edge, call))
        return out[0], out[1]

    def average(self) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
        """Each player's average strategy, laid out as :meth:`current`'s."""
        out = []
        for p in (0, 1):
            edge, call = np.empty_like(self.avg_edge[p]), np.empty_like(self.avg_call[p])
            self._normalise(p, self.avg_edge[p], self.avg_call[p], edge, call)
            out.append(self._full(p, edge, call))
        return out[0], out[1]

    def _match(self, player: int) -> None:
        """Regret matching: ``player``'s current strategy into the sigma buffers."""
        edge = np.maximum(self.regret_edge[player], 0, out=self._sigma_edge[player])
        call = np.maximum(self.regret_call[player], 0, out=self._sigma_call[player])
        self._normalise(player, edge, call, edge, call)

    def _reach(self, player: int) -> Array:
        """``player``'s reach of each abstract node, summed over merged histories."""
        reach = self._node_work(0, self.h[player])
        reach.fill(0.0)
        reach[0] = 1.0
        sigma = self._sigma_edge[player]
        cols = self.h[player]
        for (n0, _), (edges, src, runs) in zip(self._groups, self._in, strict=True):
            if not n0:
                continue
            flow = np.take(reach, src, axis=0, out=self._work(0, len(src), cols))
            if self._actor[n0] != player:  # the edges in are the player's own bids
                flow *= np.take(sigma, edges, axis=0, out=self._work(1, len(src), cols))
            _add_runs(flow, runs, reach)
        return reach

    def step(self) -> None:
        """One iteration: player 0 is updated against player 1, then 1 against 0 (the
        other's average grows as its reach is computed, as in :class:`RoundSolver`)."""
        self.iteration = t = self.iteration + 1
        weight = float(t) ** DCFR_GAMMA
        up, down = t**DCFR_ALPHA / (t**DCFR_ALPHA + 1), t**DCFR_BETA / (t**DCFR_BETA + 1)
        self._match(0)
        self._match(1)
        for p in (0, 1):
            if p == 1:
                self._match(0)  # player 0's regrets just changed
            self._update(p, weight, up, down)

    def _snap(self, gain: Array, mass: Array, work: Array) -> None:
        """Sets to 0 the regret gains that are rounding noise: below a few ulps of the
        opponent mass at the node (which bounds the values compared, payoffs being at most
        1). Actions of exactly equal value then stay tied whatever the order of the sums,
        instead of one of them winning by 1e-18."""
        np.abs(gain, out=work)
        np.putmask(gain, work <= self._noise * mass, 0.0)

    def _fold_own(
        self,
        p: int,
        a: int,
        runs: Runs,
        edge_value: Array,
        work: Array,
        mass: Array,
        value: Array,
        discount: tuple[float, float],
    ) -> None:
        """The backward pass over a group of ``p``'s own nodes, whose out-edges start at
        ``a`` and hold the utility of their targets in ``edge_value``: values, then regrets.
        Run by run (nodes with ``d`` actions each), so a node's mass and value broadcast
        over its edges instead of being gathered for each."""
        h = self.h[p]
        sigma, regret = self._sigma_edge[p], self.regret_edge[p]
        for r0, r1, d, where in runs:
            ev = edge_value[r0 - a : r1 - a].reshape(-1, d, h)
            reached = mass[where][:, None, :]
            ev *= reached
            weighted = work[r0 - a : r1 - a].reshape(-1, d, h)
            np.multiply(sigma[r0:r1].reshape(-1, d, h), ev, out=weighted)
            value[where] += weighted.sum(axis=1)
            ev -= value[where][:, None, :]
            self._snap(ev, reached, weighted)
            _discounted_add(regret[r0:r1].reshape(-1, d, h), ev, *discount)

    def _update(self, player: int, weight: float, up: float, down: float) -> None:
        """Counterfactual values for ``player`` against the other's current strategy,
        folded back group by group (last level first); each group's regrets are updated
        (and discounted) as soon as its values are known, and the other's average grows
        by their reach times their strategy. A node's value is its expected utility (given
        the merged belief there) times the opponent mass reaching it."""
        p, o = player, 1 - player
        hp, ho = self.h[p], self.h[o]
        reach = self._reach(o)
        joint_t = self._joint_t[p]  # (S_o, S_p)
        independent = self._independent
        if independent:
            # einsum, not BLAS: a matrix-vector product is one pass over memory either
            # way, and BLAS threads only wait on a busy machine.
            mass = np.multiply.outer(
                np.einsum("nj,j->n", reach, self._marginal[o]),
                self._marginal[p],
                out=self._node_work(1, hp),
            )
        else:  # (M, S_p): weight of reaching each node, per signal
            mass = np.matmul(reach, joint_t, out=self._node_work(1, hp))
        utility = self._node_work(2, hp)
        utility.fill(0.0)
        value = self._node_work(3, hp)
        value[0] = 0.0  # the others are set group by group
        sigma_call = self._sigma_call
        payoff = self._payoff_t[p]
        for g_index in range(len(self._groups) - 1, -1, -1):
            n0, n1 = self._groups[g_index]
            a, e, runs = self._out[g_index]
            q = int(self._actor[n0])
            rows = e - a
            # What calling here is worth to the player, times the opponent's mass.
            if n0:
                call_reach = reach[n0:n1]
                if q == o:
                    call_reach = call_reach * sigma_call[o][n0:n1]
                    self.avg_call[o][n0:n1] += weight * call_reach
                term = call_reach @ payoff[self._bid[n0], q]
                value[n0:n1] = sigma_call[p][n0:n1] * term if q == p else term
            if rows:
                src, dst = self._src[q][a:e], self._dst[q][a:e]
                edge_value = np.take(utility, dst, axis=0, out=self._work(0, rows, hp))
                work = self._work(1, rows, hp)
                if q == p:
                    self._fold_own(p, a, runs, edge_value, work, mass, value, (up, down))
                else:
                    carried = np.take(reach, src, axis=0, out=self._work(2, rows, ho))
                    carried *= self._sigma_edge[o][a:e]
                    grown = np.multiply(carried, weight, out=self._work(1, rows, ho))
                    self.avg_edge[o][a:e] += grown
                    if independent:
                        share = np.einsum("ej,j->e", carried, self._marginal[o])
                        edge_value *= share[:, None]
                        edge_value *= self._marginal[p]
                    else:
                        edge_value *= np.matmul(carried, joint_t, out=work)
                    _add_runs(edge_value, runs, value, a)
            if q == p and n0:
                gain = term - value[n0:n1]
                self._snap(gain, mass[n0:n1], np.empty_like(gain))
                _discounted_add(self.regret_call[p][n0:n1], gain, up, down)
            here = mass[n0:n1]
            np.divide(value[n0:n1], here, out=utility[n0:n1], where=here > 0)


def _discounted_add(regret: Array, gain: Array, up: float, down: float) -> None:
    """DCFR: adds this iteration's regrets, then scales positive ones by ``up`` and
    negative ones by ``down``."""
    regret += gain
    regret *= np.where(regret > 0, up, down)


def lift(
    graph: AbstractRound, sigma: tuple[tuple[Array, Array], tuple[Array, Array]], round_: Round
) -> Strategy:
    """The abstract strategy as a strategy on the whole tree of the same round (each node
    plays what its last ``recall`` bids say), for exact evaluation."""
    if round_.position != graph.position or round_.bids != graph.bids:
        raise SolverError("lift: the round and the abstract round differ")
    if graph.moves != len(graph.bids):
        raise SolverError("lift: whole trees with passes or spot-on claims are not built")
    n = round_.nodes
    k = graph.recall
    width = len(graph.bids) + 1
    # Encode each node's abstract key as one integer: last k bids (most recent first),
    # who acts and whether the history is whole.
    code = np.zeros(n, dtype=np.int64)
    depth = np.zeros(n, dtype=np.int64)
    walker = np.arange(n)
    for i in range(k + 1):
        alive = walker > 0
        if i < k:
            code = code * width + np.where(alive, round_.bid[np.maximum(walker, 0)] + 1, 0)
        depth += alive
        walker = np.where(alive, round_.parent[np.maximum(walker, 0)], 0)
    whole = depth <= k
    code = (code * 2 + round_.actor) * 8 + whole  # nobody passes in a whole tree

    def encode(key: AbstractKey) -> int:
        history, actor, flags = key
        value = 0
        recent = list(reversed(history)) + [-1] * (k - len(history))
        for b in recent:
            value = value * width + b + 1
        return (value * 2 + actor) * 8 + flags

    table = np.array([encode(key) for key in graph.keys])
    order = np.argsort(table)
    found = np.searchsorted(table[order], code)
    node_of = order[np.minimum(found, len(order) - 1)]
    if not np.array_equal(table[node_of], code):
        raise SolverError("lift: a history of the round has no abstract node")
    # Each tree edge (parent's abstract node, bid) to its abstract edge.
    edge_code = graph.source * width + graph.last_bid[graph.target]
    edge_order = np.argsort(edge_code)
    tree_code = node_of[np.maximum(round_.parent, 0)] * width + round_.bid
    at = np.minimum(np.searchsorted(edge_code[edge_order], tree_code), len(edge_order) - 1)
    edge_index = np.where(edge_code[edge_order][at] == tree_code, edge_order[at], -1)
    edge_index[0] = -1
    h = max(round_.hands(0), round_.hands(1))
    sigma_in = np.zeros((n, h))
    sigma_call = np.zeros((n, h))
    for p in (0, 1):
        edge_sigma, call_sigma = sigma[p]
        hp = graph.hands(p)
        mine_in = (round_.actor != p) & (edge_index >= 0)
        sigma_in[mine_in, :hp] = edge_sigma[edge_index[mine_in]]
        mine_call = round_.actor == p
        sigma_call[mine_call, :hp] = call_sigma[node_of[mine_call]]
    sigma_call[0] = 0.0
    return Strategy(sigma_in, sigma_call)


def abstract_size(
    rules: Rules, position: Position, recall: int, window: int | None = None
) -> tuple[int, int]:
    """(nodes, edges) of the abstract graph :func:`build_abstract_round` would build, found
    without the payoffs (cheap), to choose a recall that fits a budget."""
    walk = _Walk(Moves(rules, position.canonical()), recall, window)
    edges = sum(1 for _ in walk.edges())
    return len(walk.keys), edges


class _Walk:
    """The abstract graph's nodes, found breadth first from the start of the round: each
    node's key, its number and a real history reaching it (to ask the engine what may
    follow); :meth:`edges` yields the edges (node, child, move) as it finds them."""

    def __init__(self, moves: Moves, recall: int, window: int | None) -> None:
        self.moves, self.recall, self.window = moves, recall, window
        root: AbstractKey = ((), 0, WHOLE)
        self.keys = [root]
        self.index = {root: 0}
        self.path_of: list[tuple[int, ...]] = [()]

    def edges(self) -> Iterator[tuple[int, int, int]]:
        keys, index, path_of = self.keys, self.index, self.path_of
        frontier = [0]
        while frontier:
            nxt = []
            for node in frontier:
                _, who, flags = keys[node]
                path = path_of[node]
                after = self.moves.after(path, len(path) if flags & WHOLE else 2 + who)
                if self.window is not None and path:
                    after = sorted(after)[: self.window]
                for move in after:
                    key = child_key(keys[node], move, self.recall, self.moves.nbids)
                    child = index.get(key)
                    if child is None:
                        child = index[key] = len(keys)
                        keys.append(key)
                        path_of.append((*path, move))
                        nxt.append(child)
                    yield node, child, move
            frontier = nxt
