"""A solved abstract round, ready to play and to store: what each player does at each node
of an imperfect-recall abstraction (:mod:`dudo.solver.abstraction`), looked up by the
moves a real round has seen so far.

:class:`AbstractStrategy` keeps the graph's nodes by key (the last ``recall`` moves, who acts,
whether those are all the moves and who has passed), the moves leaving each node (its edges,
sorted by node) and, per node and hand of the player acting there, the probability of each
move and of calling (or doubting a pass).
Tiny probabilities are dropped when it is made (:data:`THRESHOLD`): they are noise of the
averaging, cost space and invite no gain. A real history whose key has no node (an opponent
raised past the abstraction's window) has no answer: the player falls back to its own
judgement there.

Its game value is estimated by playing the stored strategy against itself on sampled deals
(:func:`sample_value`): an imperfect-recall graph cannot give it exactly without the whole
tree, where histories that merge in the graph stay apart.

Files (``.npz``, format ``dudo-abstract-strategy``) hold the metadata as JSON (rules,
position, recall, window, bids, signals, value and its standard error, iterations, seconds)
and the arrays below; probabilities are stored as bytes (multiples of 1/255, renormalised
when read), which is plenty for play and keeps a 5 v 5 round to a few megabytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dudo.engine import Bid, Rules
from dudo.solver.abstraction import AbstractRound, abstract_key
from dudo.solver.cfr import Strategy
from dudo.solver.position import Position, SolverError
from dudo.solver.round import Round
from dudo.solver.store import (
    ABSTRACT_FORMAT,
    VERSION,
    atomic_file,
    read_archive,
    rules_from_metadata,
)

THRESHOLD = 2e-3
"""Actions below this probability (for a hand at a node) are dropped and the rest
renormalised."""

Array = npt.NDArray[np.float64]
Profile = tuple[tuple[Array, Array], tuple[Array, Array]]
"""Per player: (probability of each edge, probability of calling at each node), by hand."""


@dataclass
class AbstractStrategy:
    """One abstract round's strategy for both players (see the module docstring)."""

    rules: Rules
    position: Position
    recall: int
    window: int | None
    bids: tuple[Bid, ...]
    moves: int  # bids, then passes and spot-on claims if the round has them (MoveKind)
    signals: tuple[tuple[object, ...], tuple[object, ...]]
    keys: npt.NDArray[np.int16]  # (M, recall) last moves, most recent last, -1 padded in front
    key_actor: npt.NDArray[np.int8]  # (M,)
    key_flags: npt.NDArray[np.uint8]  # (M,) abstraction.AbstractKey's flags
    edge_start: npt.NDArray[np.int64]  # (M+1,) node n's edges are edge_start[n]:edge_start[n+1]
    edge_bid: npt.NDArray[np.int16]  # (E,)
    edge_target: npt.NDArray[np.int32]  # (E,)
    edge_prob: npt.NDArray[np.uint8]  # (E, H) the acting player's weight (of 255), by hand
    call_prob: npt.NDArray[np.uint8]  # (M, H) the acting player's weight of calling
    value: float = 0.0  # for the opener, estimated by sample_value
    value_error: float = 0.0  # its standard error
    iterations: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        # Nodes are found by an integer code of their key, in a sorted array: a dict of
        # tuples would cost more memory than the strategy itself in the big rounds.
        codes = self._codes(self.keys, self.key_actor, self.key_flags)
        self._order = np.argsort(codes, kind="stable")
        self._sorted_codes = codes[self._order]
        self._hand_of: tuple[dict[str, int], dict[str, int]] = (
            {_signal_text(s): i for i, s in enumerate(self.signals[0])},
            {_signal_text(s): i for i, s in enumerate(self.signals[1])},
        )

    def _codes(
        self,
        keys: npt.NDArray[np.integer[Any]],
        actor: npt.NDArray[np.integer[Any]],
        flags: npt.NDArray[np.integer[Any]],
    ) -> npt.NDArray[np.int64]:
        """One integer per key: its moves in base (moves + 1), then who acts, then flags."""
        code = np.zeros(len(actor), dtype=np.int64)
        for column in range(keys.shape[1]):
            code = code * (self.moves + 1) + keys[:, column].astype(np.int64) + 1
        return (code * 2 + actor.astype(np.int64)) * 8 + flags.astype(np.int64)

    @property
    def nodes(self) -> int:
        return len(self.key_actor)

    @property
    def edges(self) -> int:
        return len(self.edge_bid)

    def hand(self, player: int, signal: object) -> int | None:
        """The index of ``player``'s private signal (as the engine's view shows it)."""
        return self._hand_of[player].get(_signal_text(signal))

    def node(self, history: Sequence[int]) -> int | None:
        """The abstract node a round with these moves (see ``round.MoveKind``) is at."""
        moves, actor, flags = abstract_key(tuple(history), self.recall, len(self.bids))
        row = np.full((1, self.recall), -1, dtype=np.int64)
        if moves:
            row[0, self.recall - len(moves) :] = moves
        code = self._codes(row, np.array([actor]), np.array([flags]))[0]
        at = int(np.searchsorted(self._sorted_codes, code))
        if at >= len(self._sorted_codes) or self._sorted_codes[at] != code:
            return None
        return int(self._order[at])

    def options(self, history: Sequence[int], hand: int) -> list[tuple[int | None, float]] | None:
        """What the player to act after ``history`` plays with ``hand``: (move, or None for
        the call or the doubt of a pass, probability), or None where the abstraction has no
        node."""
        node = self.node(history)
        if node is None:
            return None
        a, e = int(self.edge_start[node]), int(self.edge_start[node + 1])
        weights = self.edge_prob[a:e, hand].astype(np.float64)
        call = float(self.call_prob[node, hand]) if node > 0 else 0.0
        total = float(weights.sum()) + call
        if not total > 0:
            return None
        out: list[tuple[int | None, float]] = [
            (int(b), float(w) / total) for b, w in zip(self.edge_bid[a:e], weights, strict=True)
        ]
        if node > 0:
            out.append((None, call / total))
        return out

    # ----------------------------------------------------------------------- storing

    def save(self, path: Path, extra: Mapping[str, Any] | None = None) -> None:
        """Write the strategy file atomically (see the module docstring)."""
        meta = {
            "format": ABSTRACT_FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "position": self.position.to_dict(),
            "label": self.position.label(),
            "recall": self.recall,
            "window": self.window,
            "bids": [str(b) for b in self.bids],
            "moves": self.moves,
            "signals": [list(self.signals[0]), list(self.signals[1])],
            "nodes": self.nodes,
            "edges": self.edges,
            "value": self.value,
            "value_error": self.value_error,
            "iterations": self.iterations,
            "seconds": self.seconds,
            **(extra or {}),
        }
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "keys": self.keys,
            "key_actor": self.key_actor,
            "key_flags": self.key_flags,
            "edge_start": self.edge_start.astype(np.int32),
            "edge_bid": self.edge_bid,
            "edge_target": self.edge_target,
            "edge_prob": self.edge_prob,
            "call_prob": self.call_prob,
        }
        with atomic_file(path) as out:
            np.savez_compressed(out, allow_pickle=False, meta=np.array(json.dumps(meta)), **arrays)

    @classmethod
    def load(cls, path: Path) -> tuple[AbstractStrategy, dict[str, Any]]:
        """Read a strategy file (and its metadata), or a clear :class:`SolverError`."""
        meta, arrays = read_archive(path, (ABSTRACT_FORMAT,))
        try:
            rules = rules_from_metadata(meta)
            position = Position.from_dict(meta["position"])
            recall, window = int(meta["recall"]), meta["window"]
            signals = tuple(tuple(_signal_from_json(s) for s in side) for side in meta["signals"])
            names = ("keys", "key_actor", "edge_start", "edge_bid", "edge_target")
            keys, actor, start, bid, target = (arrays[n] for n in names)
            # Books written before passes were solved stored a "whole" flag alone.
            flags = arrays["key_flags"] if "key_flags" in arrays else arrays["key_whole"]
            moves = int(meta.get("moves", len(meta["bids"])))
            edge_prob, call_prob = arrays["edge_prob"], arrays["call_prob"]
        except (KeyError, TypeError, ValueError) as error:
            raise SolverError(f"{path}: not a complete abstract strategy ({error})") from None
        from dudo.engine.bids import bid_table

        bids = bid_table(rules, sum(position.dice), position.obliging).bids
        if [str(b) for b in bids] != meta.get("bids"):
            raise SolverError(f"{path}: its bids differ from the ones these rules allow now")
        m, e = len(actor), len(bid)
        if keys.shape != (m, recall) or len(start) != m + 1 or len(target) != e:
            raise SolverError(f"{path}: its arrays do not fit together")
        if edge_prob.shape[0] != e or call_prob.shape[0] != m:
            raise SolverError(f"{path}: its arrays do not fit together")
        if edge_prob.dtype != np.uint8 or call_prob.dtype != np.uint8:
            raise SolverError(f"{path}: its probabilities are not stored as bytes")
        totals = _row_totals(start.astype(np.int64), edge_prob, call_prob)
        hands = np.array([len(signals[0]), len(signals[1])])[actor.astype(np.int64)]
        valid = np.arange(totals.shape[1])[None, :] < hands[:, None]
        if np.any(valid & (totals <= 0)):
            raise SolverError(f"{path}: some hand has no action at some node (damaged file)")
        strategy = cls(
            rules=rules,
            position=position,
            recall=recall,
            window=None if window is None else int(window),
            bids=bids,
            moves=moves,
            signals=(signals[0], signals[1]),
            keys=keys.astype(np.int16),
            key_actor=actor.astype(np.int8),
            key_flags=flags.astype(np.uint8),
            edge_start=start.astype(np.int64),
            edge_bid=bid.astype(np.int16),
            edge_target=target.astype(np.int32),
            edge_prob=edge_prob.astype(np.uint8),
            call_prob=call_prob.astype(np.uint8),
            value=float(meta.get("value", 0.0)),
            value_error=float(meta.get("value_error", 0.0)),
            iterations=int(meta.get("iterations", 0)),
            seconds=float(meta.get("seconds", 0.0)),
        )
        return strategy, meta


def from_profile(graph: AbstractRound, sigma: Profile) -> AbstractStrategy:
    """The strategy of a solved abstract round (``sigma``: the solver's average), with
    probabilities under :data:`THRESHOLD` dropped."""
    order = np.argsort(graph.source, kind="stable")
    source, target = graph.source[order], graph.target[order]
    hands = max(graph.hands(0), graph.hands(1))
    edge_prob = np.zeros((graph.edges, hands), dtype=np.float32)
    call_prob = np.zeros((graph.nodes, hands), dtype=np.float32)
    for p in (0, 1):
        edge_sigma, call_sigma = sigma[p]
        h = graph.hands(p)
        mine_edges = graph.actor[source] == p
        edge_prob[mine_edges, :h] = edge_sigma[order][mine_edges]
        mine_nodes = graph.actor == p
        call_prob[mine_nodes, :h] = call_sigma[mine_nodes]
    call_prob[0] = 0.0
    start = np.searchsorted(source, np.arange(graph.nodes + 1)).astype(np.int64)
    edge_prob[edge_prob < THRESHOLD] = 0.0
    call_prob[call_prob < THRESHOLD] = 0.0
    _renormalise(start, graph.actor, edge_prob, call_prob, graph.signals)
    keys = np.full((graph.nodes, graph.recall), -1, dtype=np.int16)
    for node, (history, _, _) in enumerate(graph.keys):
        if history:
            keys[node, graph.recall - len(history) :] = history
    return AbstractStrategy(
        rules=graph.rules,
        position=graph.position,
        recall=graph.recall,
        window=graph.window,
        bids=graph.bids,
        moves=graph.moves,
        signals=graph.signals,
        keys=keys,
        key_actor=graph.actor.astype(np.int8),
        key_flags=np.array([k[2] for k in graph.keys], dtype=np.uint8),
        edge_start=start,
        edge_bid=graph.last_bid[target].astype(np.int16),
        edge_target=target.astype(np.int32),
        edge_prob=_to_bytes(edge_prob),
        call_prob=_to_bytes(call_prob),
    )


def sample_value(
    strategy: AbstractStrategy, graph: AbstractRound, samples: int, seed: int = 0
) -> tuple[float, float]:
    """Player 0's expected payoff when both players play ``strategy`` (the graph gives the
    deals and the payoffs of calls), estimated on ``samples`` deals: (mean, standard error).

    Every sample walks the graph from the start, each player drawing its action from its
    own row; all samples step together."""
    rng = np.random.default_rng(seed)
    joint = graph.joint
    flat = joint.ravel() / joint.sum()
    pair = rng.choice(flat.size, size=samples, p=flat)
    s0, s1 = np.divmod(pair, joint.shape[1])
    safe = np.where(joint > 0, joint, 1.0)
    node = np.zeros(samples, dtype=np.int64)
    total = np.zeros(samples)
    alive = np.arange(samples)
    start, actor = strategy.edge_start, strategy.key_actor.astype(np.int64)
    totals = _row_totals(start, strategy.edge_prob, strategy.call_prob)
    while len(alive):
        n = node[alive]
        who = actor[n]
        hand = np.where(who == 0, s0[alive], s1[alive])
        u = rng.random(len(alive)) * totals[n, hand]  # the weights are bytes, not summing to 1
        calls = u < strategy.call_prob[n, hand]
        if np.any(calls):
            done = alive[calls]
            nd = node[done]
            bid = strategy.keys[nd, -1]
            a, b0, b1 = actor[nd], s0[done], s1[done]
            total[done] = graph.payoff[bid, a, b0, b1] / safe[b0, b1]
        rest = ~calls
        alive, n, hand, u = alive[rest], n[rest], hand[rest], u[rest]
        u = u - strategy.call_prob[n, hand]
        first, count = start[n], start[n + 1] - start[n]
        chosen = first + count - 1  # rounding leftovers go to the last edge
        open_ = np.ones(len(alive), dtype=bool)
        cumulative = np.zeros(len(alive))
        for j in range(int(count.max(initial=0))):
            has = open_ & (j < count)
            if not np.any(has):
                break
            e = np.where(has, first + j, 0)
            cumulative += np.where(has, strategy.edge_prob[e, hand], 0.0)
            hit = has & (cumulative > u)
            chosen = np.where(hit, e, chosen)
            open_ &= ~hit
        node[alive] = strategy.edge_target[chosen]
    mean = float(total.mean())
    error = float(total.std(ddof=1) / np.sqrt(samples)) if samples > 1 else 0.0
    return mean, error


def _renormalise(
    start: npt.NDArray[np.int64],
    actor: npt.NDArray[np.integer[Any]],
    edge_prob: npt.NDArray[np.float32],
    call_prob: npt.NDArray[np.float32],
    signals: Sequence[Sequence[object]],
) -> None:
    """Make each (node, hand of its actor) row sum to 1, in place (an empty row plays its
    first edge, or calls where it has none)."""
    m = len(actor)
    counts = np.diff(start)
    node_of_edge = np.repeat(np.arange(m), counts)
    totals = call_prob.astype(np.float64).copy()
    np.add.at(totals, node_of_edge, edge_prob)
    hands = np.array([len(signals[0]), len(signals[1])])[actor.astype(np.int64)]
    valid = np.arange(edge_prob.shape[1])[None, :] < hands[:, None]
    empty = valid & (totals <= 0)
    if np.any(empty):
        rows, cols = np.nonzero(empty)
        has_edge = counts[rows] > 0
        edge_prob[start[rows[has_edge]], cols[has_edge]] = 1.0
        call_prob[rows[~has_edge], cols[~has_edge]] = 1.0
        totals[rows, cols] = 1.0
    totals = np.where(valid & (totals > 0), totals, 1.0)
    call_prob /= totals.astype(np.float32)
    edge_prob /= totals[node_of_edge].astype(np.float32)


def _row_totals(
    start: npt.NDArray[np.int64],
    edge_prob: npt.NDArray[Any],
    call_prob: npt.NDArray[Any],
) -> npt.NDArray[np.float64]:
    """The total weight of each (node, hand) row: its call and its edges."""
    totals = call_prob.astype(np.float64)
    has_edges = np.flatnonzero(np.diff(start) > 0)
    if len(has_edges):  # edges are sorted by node: one segment sum per node with edges
        sums = np.add.reduceat(edge_prob, start[has_edges], axis=0, dtype=np.float64)
        totals[has_edges] += sums
    return totals


def _to_bytes(probabilities: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """Probabilities as bytes: each a multiple of 1/255 (renormalised when read)."""
    scaled = np.rint(np.clip(probabilities, 0.0, 1.0) * 255.0)
    return np.asarray(scaled, dtype=np.uint8)


def _signal_text(signal: object) -> str:
    """A signal's canonical JSON text (tuples and lists alike), to look hands up by."""
    return json.dumps(signal, separators=(",", ":"))


def _signal_from_json(item: object) -> object:
    if isinstance(item, list):
        return tuple(_signal_from_json(x) for x in item)
    return item


def lift_strategy(strategy: AbstractStrategy, round_: Round) -> Strategy:
    """The stored abstract strategy as a strategy on the whole tree of the same round (each
    history plays what its node plays), to evaluate it exactly where the tree fits. Needs a
    graph without a window (else some histories have no node)."""
    if round_.position != strategy.position or round_.bids != strategy.bids:
        raise SolverError("lift: the round and the abstract strategy differ")
    if round_.signals != strategy.signals:
        raise SolverError("lift: the round deals other signals than the abstract strategy")
    n, k = round_.nodes, strategy.recall
    keys = np.full((n, k), -1, dtype=np.int64)
    length = np.zeros(n, dtype=np.int64)
    walker = np.arange(n)
    for column in range(k - 1, -2, -1):  # the last k bids, then one more to see if whole
        alive = walker > 0
        if column >= 0:
            keys[:, column] = np.where(alive, round_.bid[np.maximum(walker, 0)], -1)
        length += alive
        walker = np.where(alive, round_.parent[np.maximum(walker, 0)], 0)
    whole = (length <= k).astype(np.uint8)  # nobody passes in a whole tree
    codes = strategy._codes(keys, round_.actor, whole)  # short histories: -1 in front
    at = np.minimum(np.searchsorted(strategy._sorted_codes, codes), strategy.nodes - 1)
    if not np.array_equal(strategy._sorted_codes[at], codes):
        raise SolverError("lift: some history of the round has no abstract node (a window?)")
    node_of = strategy._order[at]
    # Each tree edge (its parent's node, its bid) to the abstract edge.
    width = len(strategy.bids)
    source = np.repeat(np.arange(strategy.nodes), np.diff(strategy.edge_start))
    edge_code = source * width + strategy.edge_bid.astype(np.int64)
    tree_code = node_of[np.maximum(round_.parent, 0)] * width + round_.bid
    found = np.minimum(np.searchsorted(edge_code, tree_code), len(edge_code) - 1)
    tree_edges = np.arange(1, n)
    if not np.array_equal(edge_code[found[tree_edges]], tree_code[tree_edges]):
        raise SolverError("lift: some bid of the round has no abstract edge (a window?)")
    totals = _row_totals(strategy.edge_start, strategy.edge_prob, strategy.call_prob)
    safe = np.where(totals > 0, totals, 1.0).astype(np.float32)  # float32 temporaries
    h = max(round_.hands(0), round_.hands(1))
    sigma_in = np.zeros((n, h), dtype=np.float32)
    sigma_call = np.zeros((n, h), dtype=np.float32)
    parent_node = node_of[np.maximum(round_.parent, 0)]
    sigma_in[1:] = strategy.edge_prob[found[1:], :h]
    sigma_in[1:] /= safe[parent_node[1:], :h]
    sigma_call[:] = strategy.call_prob[node_of, :h]
    sigma_call /= safe[node_of, :h]
    sigma_call[0] = 0.0
    return Strategy(sigma_in, sigma_call)
