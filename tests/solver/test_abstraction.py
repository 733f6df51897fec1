"""The last-k-bids abstraction: with enough recall it is the whole tree and its solver is
CFR exactly; with less it is smaller, and the lifted strategy is a strategy of the real round."""

from __future__ import annotations

import numpy as np
import pytest

from dudo.engine import preset
from dudo.solver import Position, SolverError, build_round
from dudo.solver.abstraction import AbstractSolver, abstract_key, build_abstract_round, lift
from dudo.solver.cfr import Algorithm, RoundSolver
from dudo.solver.evaluate import evaluate

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
        groups.setdefault(abstract_key(round_.history(node), recall), []).append(node)
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
