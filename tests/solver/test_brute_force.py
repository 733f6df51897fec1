"""The solver checked against brute force on the engine (:mod:`.brute`).

For tiny rule sets of every shape the solver supports, the round's public tree, signals and
call payoffs are compared with a depth-first walk of ``dudo.engine.Game`` over every deal,
and ``evaluate`` (value and exact best responses) with a state-by-state best response over
that walk, for uniform, pure and random mixed policies and for CFR's own average strategy.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dudo.engine import Bid, Game, Rules, preset
from dudo.solver import Round, build_round
from dudo.solver.cfr import Algorithm, RoundSolver
from dudo.solver.evaluate import best_response_value as solver_best_response
from dudo.solver.evaluate import evaluate
from dudo.solver.position import Position
from dudo.solver.round import Continuation, Outcome

from .brute import (
    CALL_CODE,
    BruteRound,
    CachedPolicy,
    Policy,
    best_response_value,
    call_winner_value,
    explore,
    mixed_policy,
    policy_from_strategy,
    policy_value,
    pure_policy,
    strategy_from_policy,
    uniform_policy,
)

TOLERANCE = 1e-12


# --- a continuation that tells outcomes apart --------------------------------------------
# The same number computed twice: by the solver from the outcome it derives, and by the
# brute force from the engine's fields after the call.


def _score(
    winner: int | None, dice: tuple[int, int], opener: int, obliging: bool, obliged: int
) -> float:
    if winner is not None:
        return 8.0 if winner == 0 else -8.0
    return (
        1.5 * dice[0]
        - 1.25 * dice[1]
        + (0.375 if opener == 0 else -0.125)
        + (0.0625 if obliging else 0.0)
        + 0.03125 * obliged
    )


def solver_continuation(outcome: Outcome, game: Game) -> float:
    if isinstance(outcome, int):
        return _score(outcome, (0, 0), 0, False, 0)
    return _score(None, outcome.dice, outcome.opener, outcome.obliging, len(outcome.obliged))


def brute_continuation(game: Game, events: object, opener: int) -> float:
    """The same score from the engine's fields (seats turned into roles: the opener is 0)."""
    winner = None if game.winner is None else (game.winner + opener) % 2
    counts = (game.counts[opener], game.counts[1 - opener])
    role = (game.opener + opener) % 2
    return _score(winner, counts, role, game.obliging, len(game.obliged))


# --- the rule sets ------------------------------------------------------------------------

NO_EXTRAS = {"spot_on": False, "pass_hands": "none"}
LEGACY = {**NO_EXTRAS, "pass_allows_spot_on": False}


@dataclass(frozen=True)
class Case:
    rules: Rules
    position: Position
    scored: bool = False  # use the outcome-scoring continuation instead of +-1


def _obliging(**options: object) -> Rules:
    return preset("dudo", faces=3, **NO_EXTRAS, **options)


OBLIGER_0 = Position((1, 2), opener=0, obliged=frozenset({0}), obliging=True)

CASES: dict[str, Case] = {
    # index raises (classic Liar's Dice), aces high and low, wild aces
    "liars-dice-f3-high-1v1": Case(
        preset("liars-dice", faces=3, aces_rank="high"), Position((1, 1))
    ),
    "liars-dice-f3-2v1": Case(preset("liars-dice", faces=3), Position((2, 1))),
    "liars-dice-f3-high-1v2": Case(
        preset("liars-dice", faces=3, aces_rank="high"), Position((1, 2))
    ),
    "liars-dice-f2-tame-2v2": Case(
        preset("liars-dice", faces=2, aces_wild=False), Position((2, 2))
    ),
    # any_face with ace arithmetic, never open on aces
    "perudo-f4-1v1": Case(preset("perudo", faces=4, spot_on=False), Position((1, 1))),
    "perudo-f3-2v1": Case(preset("perudo", faces=3, spot_on=False), Position((2, 1))),
    # the other ace arithmetic, and opening on aces always allowed
    "floor-double-f3-2v1": Case(
        preset(
            "dudo",
            faces=3,
            **NO_EXTRAS,
            aces_to="floor_half_plus_one",
            aces_from="double",
            open_on_aces="always",
        ),
        Position((2, 1)),
    ),
    # nondecreasing, spot-on, pass and obliging rounds only from three players up
    "cacho-f3-1v2": Case(
        preset("cacho", faces=3, pass_hands="full_house,five_kind"), Position((1, 2))
    ),
    # nondecreasing, wild only beside a natural, free_transform (the second bid may go down)
    "legacy-f3-1v1": Case(preset("dudo-legacy", faces=3, **LEGACY), Position((1, 1))),
    "legacy-f3-2v1": Case(preset("dudo-legacy", faces=3, **LEGACY), Position((2, 1))),
    # losses by the difference, the winner opens next: outcomes scored one by one
    "difference-winner-2v1": Case(
        preset("dudo", faces=3, **NO_EXTRAS, loss="difference", next_opener="winner"),
        Position((2, 1)),
        scored=True,
    ),
    "difference-winner-1v2": Case(
        preset("dudo", faces=3, **NO_EXTRAS, loss="difference", next_opener="winner"),
        Position((1, 2)),
        scored=True,
    ),
    "one-loss-loser-2v1-scored": Case(
        preset("dudo", faces=3, **NO_EXTRAS), Position((2, 1)), scored=True
    ),
    # obliging rounds: aces plain and lowest, only one-die players may change the face
    "oblige-closed": Case(_obliging(oblige_visibility="closed"), OBLIGER_0),
    "oblige-normal": Case(_obliging(oblige_visibility="normal"), OBLIGER_0),
    "oblige-chooses-open": Case(
        _obliging(oblige_visibility="obliger_chooses"),
        Position((1, 2), 0, frozenset({0}), True, "open"),
    ),
    "oblige-chooses-closed": Case(
        _obliging(oblige_visibility="obliger_chooses"),
        Position((1, 2), 0, frozenset({0}), True, "closed"),
    ),
    # seat 1 opens: the solver relabels the players so that the opener is player 0
    "liars-dice-f3-seat1-opens": Case(preset("liars-dice", faces=3), Position((1, 2), opener=1)),
    "difference-winner-seat1-opens": Case(
        preset("dudo", faces=3, **NO_EXTRAS, loss="difference", next_opener="winner"),
        Position((1, 2), opener=1),
        scored=True,
    ),
    "oblige-chooses-open-seat1-opens": Case(
        _obliging(oblige_visibility="obliger_chooses"),
        Position((2, 1), 1, frozenset({1}), True, "open"),
        scored=True,
    ),
    "oblige-veteran-1v1-scored": Case(
        preset("dudo-legacy", faces=3, **LEGACY),
        Position((1, 1), 0, frozenset({0, 1}), True),
        scored=True,
    ),
}


@cache
def prepared(name: str) -> tuple[Round, BruteRound]:
    case = CASES[name]
    continuation: Continuation | None = solver_continuation if case.scored else None
    round_ = build_round(case.rules, case.position, continuation)
    assert round_.position == case.position.canonical()
    brute = explore(
        case.rules,
        case.position,
        round_.bids,
        brute_continuation if case.scored else call_winner_value,
    )
    return round_, brute


def _check_policy(name: str, policy: Policy) -> None:
    round_, brute = prepared(name)
    policy = CachedPolicy(policy)
    strategy = strategy_from_policy(round_, policy)
    result = evaluate(round_, strategy)
    assert result.value == pytest.approx(policy_value(brute, policy), abs=TOLERANCE)
    for player in (0, 1):
        expected = best_response_value(brute, policy, player)
        assert result.best_response[player] == pytest.approx(expected, abs=TOLERANCE)
        alone = solver_best_response(round_, strategy, player)
        assert alone == pytest.approx(expected, abs=TOLERANCE)


# --- the tree, the signals and the payoffs -----------------------------------------------


@pytest.mark.parametrize("name", list(CASES))
def test_tree_is_the_engines(name: str) -> None:
    round_, brute = prepared(name)
    histories = [round_.history(n) for n in range(round_.nodes)]
    assert len(set(histories)) == round_.nodes
    assert set(histories) == set(brute.nodes)
    child_bids: list[list[int]] = [[] for _ in range(round_.nodes)]
    for node in range(1, round_.nodes):
        child_bids[int(round_.parent[node])].append(int(round_.bid[node]))
    for node, history in enumerate(histories):
        public = brute.nodes[history]
        assert int(round_.actor[node]) == public.actor, history
        assert sorted(child_bids[node]) == list(public.bids), history
        assert int(round_.child_count[node]) == len(public.bids)
        assert [int(round_.bid[c]) for c in round_.children(node)] == list(public.bids)
        assert round_.node_of(history) == node
        # The opening must be a bid; every later player may call.
        assert (CALL_CODE in public.actions) == (node > 0)
    # Player 0's nodes come first (the root first of all).
    assert all(int(round_.actor[n]) == 0 for n in range(round_.second))
    assert all(int(round_.actor[n]) == 1 for n in range(round_.second, round_.nodes))


@pytest.mark.parametrize("name", list(CASES))
def test_signals_payoffs_and_outcomes_are_the_engines(name: str) -> None:
    round_, brute = prepared(name)
    for player in (0, 1):
        marginal: dict[object, float] = {}
        for deal, pair in zip(brute.deals, brute.root_signals, strict=True):
            marginal[pair[player]] = marginal.get(pair[player], 0.0) + deal.prob
        assert set(round_.signals[player]) == set(marginal)
        for s, signal in enumerate(round_.signals[player]):
            assert round_.signal_prob[player][s] == pytest.approx(marginal[signal], abs=1e-15)
    # What a player sees does not change during the round.
    for history, seen in brute.signal.items():
        actor = brute.nodes[history].actor
        assert seen == [root[actor] for root in brute.root_signals]
    # Every call, at every history, for every deal: the payoff matrix of its (bid, caller).
    index = [{s: i for i, s in enumerate(round_.signals[p])} for p in (0, 1)]
    for history, values in brute.call.items():
        actor = brute.nodes[history].actor
        expected = np.zeros_like(round_.payoff[history[-1], actor])
        for deal, (s0, s1), value in zip(brute.deals, brute.root_signals, values, strict=True):
            expected[index[0][s0], index[1][s1]] += deal.prob * value
        assert round_.payoff[history[-1], actor] == pytest.approx(expected, abs=TOLERANCE)
    reached = {outcome for outcomes in brute.outcome.values() for outcome in outcomes}
    assert set(round_.outcomes) == reached
    assert sum(round_.outcomes.values()) == pytest.approx(1.0, abs=TOLERANCE)


# --- value and best responses -------------------------------------------------------------


@pytest.mark.parametrize("name", list(CASES))
def test_uniform_policy(name: str) -> None:
    _check_policy(name, uniform_policy)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", list(CASES))
def test_pure_policy(name: str, seed: int) -> None:
    _check_policy(name, pure_policy(seed))


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("name", list(CASES))
def test_mixed_policy(name: str, seed: int) -> None:
    _check_policy(name, mixed_policy(seed))


@settings(max_examples=15, deadline=None, derandomize=True)
@given(
    name=st.sampled_from(["liars-dice-f3-high-1v1", "legacy-f3-1v1", "oblige-chooses-open"]),
    seed=st.integers(0, 2**32 - 1),
    zero_share=st.sampled_from([0.0, 0.5, 0.9]),
)
def test_random_policies(name: str, seed: int, zero_share: float) -> None:
    _check_policy(name, mixed_policy(seed, zero_share))


@pytest.mark.parametrize(
    ("name", "algorithm", "iterations"),
    [
        ("liars-dice-f3-high-1v1", Algorithm.CFR_PLUS, 300),
        ("legacy-f3-2v1", Algorithm.DCFR, 100),
        ("oblige-chooses-open", Algorithm.CFR_PLUS, 100),
        ("difference-winner-1v2", Algorithm.DCFR, 50),
        ("legacy-f3-2v1", Algorithm.LINEAR, 100),
        ("liars-dice-f3-high-1v1", Algorithm.DCFR_PLUS, 300),
        ("difference-winner-1v2", Algorithm.DCFR_PLUS, 50),
        ("legacy-f3-2v1", Algorithm.PCFR_PLUS, 100),
        ("oblige-chooses-open", Algorithm.PCFR_PLUS, 100),
    ],
)
def test_cfr_average_strategy(name: str, algorithm: Algorithm, iterations: int) -> None:
    round_, brute = prepared(name)
    solver = RoundSolver(round_, algorithm)
    first = evaluate(round_, solver.average())
    for _ in range(iterations):
        solver.step()
    average = solver.average()
    result = evaluate(round_, average)
    policy = policy_from_strategy(round_, average)
    best = [best_response_value(brute, policy, p) for p in (0, 1)]
    assert result.best_response == pytest.approx(tuple(best), abs=TOLERANCE)
    assert result.value == pytest.approx(policy_value(brute, policy), abs=TOLERANCE)
    # NashConv is never negative, and CFR has cut it well down from the start.
    assert best[0] + best[1] >= -TOLERANCE
    assert best[0] + best[1] < 0.5 * first.nash_conv


def test_brute_force_on_a_policy_solved_by_hand() -> None:
    """The oracle itself on a policy worked out by hand (one die each, faces 1-3, aces wild
    and ranked high): open 1x2, always call. The opener wins the call unless both dice are
    3s: 7/9. Best responses: the opener bids what they hold (1x1 on an ace) and always wins;
    the other player does the same on a 1 or a 3, and on a 2 raises to 1x3 or 2x2, true with
    probability 2/3: (1 + 1 + 1/3) / 3 = 7/9."""

    def naive(
        player: int, signal: object, history: tuple[int, ...], actions: tuple[int, ...]
    ) -> tuple[float, ...]:
        pick = len(actions) - 1 if CALL_CODE in actions else 0
        return tuple(1.0 if i == pick else 0.0 for i in range(len(actions)))

    round_, brute = prepared("liars-dice-f3-high-1v1")
    assert round_.bids[0] == Bid(1, 2)
    assert policy_value(brute, naive) == pytest.approx(7 / 9, abs=TOLERANCE)
    assert best_response_value(brute, naive, 0) == pytest.approx(1.0, abs=TOLERANCE)
    assert best_response_value(brute, naive, 1) == pytest.approx(7 / 9, abs=TOLERANCE)
