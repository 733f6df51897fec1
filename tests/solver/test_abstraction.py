"""The last-k-bids abstraction: with enough recall it is the whole tree and its solver is
CFR exactly; with less it is smaller, and the lifted strategy is a strategy of the real round."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import numpy as np
import pytest

from dudo.engine import CALL, Game, Rules, preset
from dudo.engine.bids import bid_table
from dudo.solver import Position, SolverError, build_round
from dudo.solver.abstraction import (
    AbstractRound,
    AbstractSolver,
    abstract_key,
    build_abstract_round,
    lift,
)
from dudo.solver.cfr import Algorithm, RoundSolver
from dudo.solver.evaluate import evaluate
from dudo.solver.position import position_after, start_game
from dudo.solver.round import Outcome, call_payoffs, hands_of

RULES = preset("liars-dice", faces=4, aces_rank="high")


def test_full_recall_is_the_tree_and_its_solver_is_cfr() -> None:
    round_ = build_round(RULES, Position((1, 1)))
    graph = build_abstract_round(RULES, Position((1, 1)), recall=len(round_.bids))
    assert graph.nodes == round_.nodes and graph.edges == round_.nodes - 1
    tree, abstract = RoundSolver(round_, Algorithm.DCFR), AbstractSolver(graph)
    for _ in range(30):
        tree.step()
        abstract.step()
    exact = evaluate(round_, tree.average())
    lifted = evaluate(round_, lift(graph, abstract.average(), round_))
    assert lifted.exploitability == pytest.approx(exact.exploitability, abs=1e-12)
    assert lifted.value == pytest.approx(exact.value, abs=1e-12)


@pytest.mark.parametrize("recall", [1, 2, 3])
def test_short_recall_gives_a_smaller_graph_and_a_real_strategy(recall: int) -> None:
    position = Position((2, 1))
    round_ = build_round(RULES, position)
    graph = build_abstract_round(RULES, position, recall)
    assert graph.nodes < round_.nodes
    solver = AbstractSolver(graph)
    for _ in range(20):
        solver.step()
    strategy = lift(graph, solver.average(), round_)
    # Every node's actions (its bids and its call) sum to 1 for every signal of its actor.
    for node in (0, 1, round_.nodes // 2, round_.nodes - 1):
        player = int(round_.actor[node])
        total = strategy.sigma_call[node, : round_.hands(player)].copy()
        for child in round_.children(node):
            total += strategy.sigma_in[child, : round_.hands(player)]
        assert np.allclose(total, 1.0)
    # Nodes that remember the same bids play the same.
    groups: dict[object, list[int]] = {}
    for node in range(round_.nodes):
        key = abstract_key(round_.history(node), recall, len(round_.bids))
        groups.setdefault(key, []).append(node)
    merged = [nodes for nodes in groups.values() if len(nodes) > 1]
    assert merged
    for nodes in merged[:50]:
        for other in nodes[1:]:
            assert np.array_equal(strategy.sigma_call[other], strategy.sigma_call[nodes[0]])
    result = evaluate(round_, strategy)
    assert 0 <= result.exploitability < 1


def test_recall_must_be_positive() -> None:
    with pytest.raises(SolverError, match="recall"):
        build_abstract_round(RULES, Position((1, 1)), 0)


def test_rounds_too_big_for_the_whole_tree_point_to_the_abstraction() -> None:
    with pytest.raises(SolverError, match=r"more than 100 bid histories.*abstraction"):
        build_round(RULES, Position((1, 1)), max_nodes=100)
    assert build_abstract_round(RULES, Position((1, 1)), 2).nodes < 100


def test_a_window_keeps_only_the_lowest_raises_and_every_opening() -> None:
    position = Position((2, 2))
    whole = build_abstract_round(RULES, position, 2)
    narrow = build_abstract_round(RULES, position, 2, window=3)
    assert narrow.edges < whole.edges
    for graph in (whole, narrow):
        openings = {
            int(graph.last_bid[t])
            for s, t in zip(graph.source, graph.target, strict=True)
            if s == 0
        }
        assert openings == set(range(len(graph.bids)))  # any first bid of the round
    raises: dict[int, list[int]] = {}
    for s, t in zip(narrow.source, narrow.target, strict=True):
        if s != 0:
            raises.setdefault(int(s), []).append(int(narrow.last_bid[t]))
    for node, bids in raises.items():
        above = int(narrow.last_bid[node])
        assert sorted(bids) == list(range(above + 1, min(above + 4, len(narrow.bids))))
    with pytest.raises(SolverError, match="window"):
        build_abstract_round(RULES, position, 2, window=0)


# --- the solver against a plain per-node implementation of the same iteration -------------


class _ReferenceSolver:
    """Fixed-strategy-iteration DCFR written node by node with dicts, as the method reads:
    slow, but with nothing of the solver's array layout. Regret gains within rounding noise
    of zero (a few ulps of the opponent mass at the node) count as zero, as in the solver,
    so that exactly tied actions stay tied whatever the order of the sums."""

    def __init__(self, graph: AbstractRound) -> None:
        self.g = g = graph
        self.out: dict[int, list[int]] = {n: [] for n in range(g.nodes)}
        indegree = [0] * g.nodes
        for e, (s, t) in enumerate(zip(g.source.tolist(), g.target.tolist(), strict=True)):
            self.out[s].append(e)
            indegree[t] += 1
        self.topo: list[int] = []
        ready = [0]
        while ready:
            n = ready.pop()
            self.topo.append(n)
            for e in self.out[n]:
                t = int(g.target[e])
                indegree[t] -= 1
                if indegree[t] == 0:
                    ready.append(t)
        assert len(self.topo) == g.nodes
        zeros = [np.zeros(g.hands(p)) for p in (0, 1)]
        self.r_edge = [zeros[int(g.actor[s])].copy() for s in g.source]
        self.r_call = [zeros[int(a)].copy() for a in g.actor]
        self.a_edge = [zeros[int(g.actor[s])].copy() for s in g.source]
        self.a_call = [zeros[int(a)].copy() for a in g.actor]
        self.t = 0

    def _normalised(
        self, edge_w: list[np.ndarray], call_w: list[np.ndarray]
    ) -> tuple[list[np.ndarray], list[np.ndarray]]:
        g = self.g
        edge = [np.zeros(0)] * g.edges
        call = [np.zeros(0)] * g.nodes
        for n in range(g.nodes):
            h = g.hands(int(g.actor[n]))
            weights = [np.maximum(call_w[n], 0) if n else np.zeros(h)]
            weights += [np.maximum(edge_w[e], 0) for e in self.out[n]]
            total = sum(weights, np.zeros(h))
            count = len(self.out[n]) + (1 if n else 0)
            uniform = np.full(h, 1.0 / max(count, 1))
            share = [
                np.where(total > 0, w / np.where(total > 0, total, 1), uniform) for w in weights
            ]
            call[n] = share[0] if n else np.zeros(h)
            for e, s in zip(self.out[n], share[1:], strict=True):
                edge[e] = s
        return edge, call

    def average(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        return self._normalised(self.a_edge, self.a_call)

    def step(self) -> None:
        from dudo.solver.cfr import DCFR_ALPHA, DCFR_BETA, DCFR_GAMMA

        g = self.g
        self.t = t = self.t + 1
        weight = float(t) ** DCFR_GAMMA
        up, down = t**DCFR_ALPHA / (t**DCFR_ALPHA + 1), t**DCFR_BETA / (t**DCFR_BETA + 1)
        noise = 64 * float(np.finfo(np.float64).eps)
        for p in (0, 1):
            o = 1 - p
            edge, call = self._normalised(self.r_edge, self.r_call)
            joint = g.joint if p == 0 else g.joint.T  # (S_p, S_o)
            reach = [np.zeros(g.hands(o)) for _ in range(g.nodes)]
            reach[0] = np.ones(g.hands(o))
            for n in self.topo:
                for e in self.out[n]:
                    flow = reach[n] * edge[e] if g.actor[n] == o else reach[n]
                    reach[int(g.target[e])] = reach[int(g.target[e])] + flow
            for n in range(g.nodes):
                if g.actor[n] == o:
                    self.a_call[n] += weight * reach[n] * call[n]
                    for e in self.out[n]:
                        self.a_edge[e] += weight * reach[n] * edge[e]
            mass = [joint @ r for r in reach]
            value = [np.zeros(g.hands(p)) for _ in range(g.nodes)]
            term = [np.zeros(g.hands(p)) for _ in range(g.nodes)]
            edge_value: dict[int, np.ndarray] = {}
            for n in reversed(self.topo):
                actor = int(g.actor[n])
                if n:
                    called = reach[n] * call[n] if actor == o else reach[n]
                    matrix = g.payoff[g.last_bid[n], actor]  # player 0's, (S0, S1)
                    term[n] = matrix @ called if p == 0 else -(matrix.T @ called)
                    value[n] = call[n] * term[n] if actor == p else term[n].copy()
                for e in self.out[n]:
                    target = int(g.target[e])
                    utility = np.where(
                        mass[target] > 0,
                        value[target] / np.where(mass[target] > 0, mass[target], 1),
                        0,
                    )
                    carried = mass[n] if actor == p else joint @ (reach[n] * edge[e])
                    edge_value[e] = utility * carried
                    value[n] = value[n] + (edge[e] if actor == p else 1.0) * edge_value[e]
            for n in range(g.nodes):
                if g.actor[n] != p:
                    continue
                gains = [(self.r_edge, e, edge_value[e] - value[n]) for e in self.out[n]]
                if n:
                    gains.append((self.r_call, n, term[n] - value[n]))
                for store, i, gain in gains:
                    gain = np.where(np.abs(gain) <= noise * mass[n], 0.0, gain)
                    regret = store[i] + gain
                    store[i] = regret * np.where(regret > 0, up, down)


CASES = [
    (Position((1, 1)), 2, None),
    (Position((2, 1)), 2, None),
    (Position((2, 1)), 3, 3),
    (Position((2, 2)), 2, 3),
]


@pytest.mark.parametrize(("position", "recall", "window"), CASES)
def test_the_solver_is_the_per_node_iteration(
    position: Position, recall: int, window: int | None
) -> None:
    graph = build_abstract_round(RULES, position, recall, window=window)
    _same_iterates(graph, steps=20)


def test_the_solver_is_the_per_node_iteration_with_correlated_signals() -> None:
    # Dealt dice are independent, so every real round's joint is a product; the general
    # path (the opponent's signals mixed through the whole joint) is checked on a joint
    # correlated on purpose, the payoffs reweighted to match.
    graph = build_abstract_round(RULES, Position((2, 1)), 2, window=3)
    s0, s1 = graph.joint.shape
    tilt = 1 + 0.5 * np.cos(np.add.outer(np.arange(s0), 2 * np.arange(s1)))
    joint = graph.joint * tilt
    joint /= joint.sum()
    correlated = replace(graph, joint=joint, payoff=graph.payoff * (joint / graph.joint))
    product = np.outer(joint.sum(axis=1), joint.sum(axis=0))
    assert not np.allclose(joint, product)
    _same_iterates(correlated, steps=15)


def _same_iterates(graph: AbstractRound, steps: int) -> None:
    solver, reference = AbstractSolver(graph), _ReferenceSolver(graph)
    for _ in range(steps):
        solver.step()
        reference.step()
    assert solver.iteration == steps
    ref_edge, ref_call = reference.average()
    average = solver.average()
    for n in range(graph.nodes):
        p = int(graph.actor[n])
        assert np.allclose(average[p][1][n], ref_call[n], rtol=0, atol=1e-9)
    for e in range(graph.edges):
        p = int(graph.actor[graph.source[e]])
        assert np.allclose(average[p][0][e], ref_edge[e], rtol=0, atol=1e-9)
    # The other player's entries are uniform, as before (nothing of theirs is played).
    for p in (0, 1):
        theirs = graph.actor[graph.source] != p
        counts = np.bincount(graph.source, minlength=graph.nodes) + (np.arange(graph.nodes) > 0)
        assert np.allclose(average[p][0][theirs], 1 / counts[graph.source[theirs]][:, None])


def test_float32_plays_as_float64() -> None:
    graph = build_abstract_round(RULES, Position((2, 2)), 2, window=3)
    wide, narrow = AbstractSolver(graph), AbstractSolver(graph, dtype=np.float32)
    for _ in range(40):
        wide.step()
        narrow.step()
    assert narrow.regret_edge[0].dtype == np.float32
    for p in (0, 1):
        for part in (0, 1):
            assert np.abs(wide.average()[p][part] - narrow.average()[p][part]).max() < 1e-2


# --- the payoffs of the calls: one replay per count, as every deal replayed ---------------


def _replayed_payoffs(
    rules: Rules, position: Position, representative: dict[tuple[int, int], tuple[int, ...]]
) -> tuple[np.ndarray, np.ndarray, dict[Outcome, float]]:
    """Every deal replayed on the engine for every (standing bid, caller): the plain way."""
    bids = bid_table(rules, sum(position.dice), position.obliging).bids
    classes = sorted(representative)
    ids: tuple[dict[object, int], dict[object, int]] = ({}, {})
    cells: list[tuple[int, int, float, list[float]]] = []
    outcomes: dict[Outcome, float] = {}
    dealt = [hands_of(rules, d) for d in position.dice]
    for (h0, p0), (h1, p1) in product(*(zip(*d, strict=True) for d in dealt)):
        game = start_game(rules, position, (h0, h1))
        sig = [ids[p].setdefault(_seen(game, p), len(ids[p])) for p in (0, 1)]
        values = []
        for k in classes:
            for b in representative[k]:
                game.push(bids[b])
            game.push(CALL)
            outcome = position_after(game)
            outcomes[outcome] = outcomes.get(outcome, 0.0) + p0 * p1 / len(classes)
            values.append(_continuation(outcome, game))
            for _ in range(len(representative[k]) + 1):
                game.pop()
        cells.append((sig[0], sig[1], p0 * p1, values))
    joint = np.zeros((len(ids[0]), len(ids[1])))
    payoff = np.zeros((len(bids), 2, *joint.shape))
    for s0, s1, prob, values in cells:
        joint[s0, s1] += prob
        for (b, caller), value in zip(classes, values, strict=True):
            payoff[b, caller, s0, s1] += prob * value
    return joint, payoff, outcomes


def _seen(game: Game, player: int) -> object:
    view = game.view(player)
    return (view.my_dice, view.seen_dice)


def _continuation(outcome: object, game: Game) -> float:
    # Any value of the outcome will do; this one tells the positions apart.
    if isinstance(outcome, int):
        return 1.0 if outcome == 0 else -1.0
    assert isinstance(outcome, Position)
    return (outcome.dice[0] - 2 * outcome.dice[1]) / 16 + (0.25 if outcome.opener else 0.0)


PLAIN = {"spot_on": False, "pass_hands": "none"}  # rounds of bids and calls only
OBLIGER = Position((1, 2), obliged=frozenset({0}), obliging=True)


@pytest.mark.parametrize(
    ("rules", "position"),
    [
        (RULES, Position((2, 2))),
        (preset("liars-dice", faces=4), Position((2, 1))),
        (preset("perudo", faces=3, **PLAIN), Position((2, 2))),
        (preset("perudo", faces=3, loss="difference", **PLAIN), Position((3, 2))),
        (preset("dudo", faces=3, **PLAIN), Position((2, 1), obliged=frozenset({1}))),
        (preset("dudo", faces=3, oblige_visibility="closed", **PLAIN), OBLIGER),
        (preset("dudo", faces=3, **PLAIN), replace(OBLIGER, visibility="open")),
    ],
)
def test_call_payoffs_replay_one_deal_per_count(rules: Rules, position: Position) -> None:
    round_ = build_round(rules, position, _continuation)
    joint, payoff, outcomes = _replayed_payoffs(rules, round_.position, round_.representative)
    assert np.array_equal(round_.payoff, payoff)
    assert np.array_equal(round_.signal_prob[0], joint.sum(axis=1))
    assert round_.outcomes.keys() == outcomes.keys()
    for outcome, prob in outcomes.items():
        assert round_.outcomes[outcome] == pytest.approx(prob, rel=1e-12)
    direct = call_payoffs(rules, round_.position, round_.representative, None)
    assert np.array_equal(direct[1], joint)
