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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dudo.engine import Bid, Rules
from dudo.solver.cfr import DCFR_ALPHA, DCFR_BETA, DCFR_GAMMA, Strategy
from dudo.solver.position import Position, SolverError, check_heads_up
from dudo.solver.round import Continuation, Moves, Round, call_payoffs

IntArray = npt.NDArray[np.int64]
Array = npt.NDArray[np.float64]

AbstractKey = tuple[tuple[int, ...], int, bool]
"""(the last k bids, who acts, whether those are all the round's bids)."""


def abstract_key(history: tuple[int, ...], k: int) -> AbstractKey:
    """What a player remembers of a round's bid ``history``."""
    return (history[-k:] if k else (), len(history) % 2, len(history) <= k)


@dataclass
class AbstractRound:
    """The abstract graph of a round: nodes (what a player remembers), edges (bids)."""

    rules: Rules
    position: Position
    recall: int
    window: int | None
    bids: tuple[Bid, ...]
    keys: list[AbstractKey]  # node -> key (node 0 is the start of the round)
    index: dict[AbstractKey, int]
    actor: IntArray  # (M,)
    last_bid: IntArray  # (M,) -1 at the start
    source: IntArray  # (E,) edges, grouped by the layer of their target
    target: IntArray  # (E,)
    layer_edges: list[tuple[int, int, int]]  # (first edge, end edge, layer's bid) in order
    signals: tuple[tuple[object, ...], tuple[object, ...]]
    joint: Array  # (S0, S1) probability of each pair of signals
    payoff: Array  # (bids, caller, S0, S1) player 0's payoff times probability

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
    root: AbstractKey = ((), 0, True)
    keys = [root]
    index = {root: 0}
    path_of: list[tuple[int, ...]] = [
        ()
    ]  # a real history for each abstract node, to ask the engine
    edges: list[tuple[int, int, int]] = []
    frontier = [0]
    while frontier:
        nxt = []
        for node in frontier:
            history, who, whole = keys[node]
            path = path_of[node]
            after = moves.after(path, len(path) if whole else 2 + who)
            if window is not None and path:
                after = sorted(after)[:window]
            for b in after:
                child_history = (*history, b)[-recall:]
                key = (child_history, 1 - who, whole and len(history) + 1 <= recall)
                child = index.get(key)
                if child is None:
                    child = index[key] = len(keys)
                    keys.append(key)
                    path_of.append((*path, b))
                    nxt.append(child)
                edges.append((node, child, b))
        frontier = nxt
    actor = np.array([k[1] for k in keys], dtype=np.int64)
    last_bid = np.array([k[0][-1] if k[0] else -1 for k in keys], dtype=np.int64)
    # Topological layers: by standing bid, after the round's first bids when a second bid
    # may go down (free_transform).
    full = np.array([k[2] for k in keys])
    depth = np.array([len(k[0]) if k[2] else recall + 1 for k in keys])
    src, dst, bid = (np.array(c, dtype=np.int64) for c in zip(*edges, strict=True))
    goes_up = bool(np.all(last_bid[dst] > last_bid[src]))
    stage = np.zeros(len(keys), dtype=np.int64) if goes_up else ((depth >= 2) | ~full)
    layer_of = stage * len(moves.bids) + last_bid
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
    signals, joint, payoff, _ = call_payoffs(rules, position, representative, continuation)
    return AbstractRound(
        rules=rules,
        position=position,
        recall=recall,
        window=window,
        bids=moves.bids,
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


class AbstractSolver:
    """Discounted CFR over the abstract graph, both players updated each iteration."""

    def __init__(self, graph: AbstractRound) -> None:
        self.graph = g = graph
        h = (g.hands(0), g.hands(1))
        self.h = h
        # Per player p: arrays over that player's signals; joint[p] is P(s_p, s_other).
        self.joint = (g.joint, g.joint.T.copy())
        u0 = g.payoff
        self.payoff = (u0, -u0.transpose(0, 1, 3, 2))
        self.regret_edge = [np.zeros((g.edges, h[p])) for p in (0, 1)]
        self.regret_call = [np.zeros((g.nodes, h[p])) for p in (0, 1)]
        self.avg_edge = [np.zeros((g.edges, h[p])) for p in (0, 1)]
        self.avg_call = [np.zeros((g.nodes, h[p])) for p in (0, 1)]
        self.iteration = 0
        self._out_count = np.bincount(g.source, minlength=g.nodes)

    def _strategy(self, player: int, edge_weight: Array, call_weight: Array) -> tuple[Array, Array]:
        """Normalise ``player``'s weights at their nodes (uniform where all are 0)."""
        g = self.graph
        total = call_weight.copy()
        total[0] = 0.0
        np.add.at(total, g.source, edge_weight)
        actions = self._out_count + (np.arange(g.nodes) > 0)
        uniform = 1.0 / np.maximum(actions, 1)[:, None]
        positive = total > 0
        safe = np.where(positive, total, 1.0)
        call = np.where(positive, call_weight / safe, uniform)
        call[0] = 0.0
        edge = np.where(positive[g.source], edge_weight / safe[g.source], uniform[g.source])
        return edge, call

    def current(self) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
        out = []
        for p in (0, 1):
            out.append(
                self._strategy(
                    p, np.maximum(self.regret_edge[p], 0), np.maximum(self.regret_call[p], 0)
                )
            )
        return out[0], out[1]

    def average(self) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
        out = []
        for p in (0, 1):
            out.append(self._strategy(p, self.avg_edge[p], self.avg_call[p]))
        return out[0], out[1]

    def _reach(self, player: int, edge_sigma: Array) -> Array:
        """``player``'s reach of each abstract node, summed over merged histories."""
        g = self.graph
        reach = np.zeros((g.nodes, self.h[player]))
        reach[0] = 1.0
        mine = (g.actor[g.source] == player)[:, None]
        for a, e, _ in g.layer_edges:
            src = g.source[a:e]
            flow = reach[src] * np.where(mine[a:e], edge_sigma[a:e], 1.0)
            np.add.at(reach, g.target[a:e], flow)
        return reach

    def step(self) -> None:
        """One iteration: player 0 is updated against player 1, then 1 against 0 (the
        other's average grows as its reach is computed, as in :class:`RoundSolver`)."""
        g = self.graph
        self.iteration = t = self.iteration + 1
        weight = float(t) ** DCFR_GAMMA
        up, down = t**DCFR_ALPHA / (t**DCFR_ALPHA + 1), t**DCFR_BETA / (t**DCFR_BETA + 1)
        for p in (0, 1):
            other = 1 - p
            sigmas = self.current()
            other_reach = self._reach(other, sigmas[other][0])
            edge_sigma, call_sigma = sigmas[other]
            theirs = (g.actor == other)[:, None]
            self.avg_edge[other] += np.where(
                theirs[g.source], weight * other_reach[g.source] * edge_sigma, 0
            )
            self.avg_call[other] += np.where(theirs, weight * other_reach * call_sigma, 0)
            edge_value, (node_value, term) = self._values(p, sigmas, other_reach)
            mine_nodes = (g.actor == p)[:, None]
            self.regret_edge[p] += np.where(
                mine_nodes[g.source], edge_value - node_value[g.source], 0
            )
            self.regret_call[p] += np.where(mine_nodes, term - node_value, 0)
            self.regret_call[p][0] = 0.0
            for regrets in (self.regret_edge[p], self.regret_call[p]):
                regrets *= np.where(regrets > 0, up, down)  # DCFR: after adding iteration t

    def _values(
        self,
        player: int,
        sigmas: tuple[tuple[Array, Array], tuple[Array, Array]],
        other_reach: Array,
    ) -> tuple[Array, tuple[Array, Array]]:
        """Counterfactual values for ``player``: of each edge taken from its source, and of
        each node (with the call's value). A node's value is its expected utility (given
        the merged belief there) times the opponent mass reaching it."""
        g = self.graph
        other = 1 - player
        joint = self.joint[player]  # (S_p, S_o)
        mass = other_reach @ joint.T  # (M, S_p): weight of reaching each node, per signal
        call_reach = np.where(
            (g.actor == other)[:, None], other_reach * sigmas[other][1], other_reach
        )
        term = np.zeros((g.nodes, self.h[player]))
        payoff = self.payoff[player]
        for caller in (0, 1):
            for b in range(len(g.bids)):
                nodes = np.flatnonzero((g.last_bid == b) & (g.actor == caller))
                if len(nodes):
                    term[nodes] = call_reach[nodes] @ payoff[b, caller].T
        value = np.where((g.actor == player)[:, None], sigmas[player][1] * term, term)
        value[0] = 0.0
        utility = np.zeros_like(value)  # expected utility given the node is reached
        edge_value = np.zeros((g.edges, self.h[player]))
        my_edges = (g.actor[g.source] == player)[:, None]
        for a, e, _ in reversed(g.layer_edges):
            targets = np.unique(g.target[a:e])
            safe = np.where(mass[targets] > 0, mass[targets], 1.0)
            utility[targets] = np.where(mass[targets] > 0, value[targets] / safe, 0.0)
            src = g.source[a:e]
            # The opponent mass carried along each edge: their reach times their choice.
            carried = np.where(
                my_edges[a:e],
                mass[src],
                (other_reach[src] * sigmas[other][0][a:e]) @ joint.T,
            )
            edge_value[a:e] = utility[g.target[a:e]] * carried
            weight = np.where(my_edges[a:e], sigmas[player][0][a:e], 1.0)
            np.add.at(value, src, weight * edge_value[a:e])
        return edge_value, (value, term)


def _edge_bid(graph: AbstractRound, edge: int) -> int:
    return int(graph.last_bid[graph.target[edge]])


def lift(
    graph: AbstractRound, sigma: tuple[tuple[Array, Array], tuple[Array, Array]], round_: Round
) -> Strategy:
    """The abstract strategy as a strategy on the whole tree of the same round (each node
    plays what its last ``recall`` bids say), for exact evaluation."""
    if round_.position != graph.position or round_.bids != graph.bids:
        raise SolverError("lift: the round and the abstract round differ")
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
    code = (code * 2 + round_.actor) * 2 + whole

    def encode(key: AbstractKey) -> int:
        history, actor, full = key
        value = 0
        recent = list(reversed(history)) + [-1] * (k - len(history))
        for b in recent:
            value = value * width + b + 1
        return (value * 2 + actor) * 2 + int(full)

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
    moves = Moves(rules, position.canonical())
    root: AbstractKey = ((), 0, True)
    seen: dict[AbstractKey, tuple[int, ...]] = {root: ()}
    frontier: list[AbstractKey] = [root]
    edges = 0
    while frontier:
        nxt = []
        for key in frontier:
            history, who, whole = key
            path = seen[key]
            after = moves.after(path, len(path) if whole else 2 + who)
            if window is not None and path:
                after = sorted(after)[:window]
            edges += len(after)
            for b in after:
                child = ((*history, b)[-recall:], 1 - who, whole and len(history) + 1 <= recall)
                if child not in seen:
                    seen[child] = (*path, b)
                    nxt.append(child)
        frontier = nxt
    return len(seen), edges
