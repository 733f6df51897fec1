"""Our solver against OpenSpiel's ``liars_dice``: the bridge's mapping of faces, bids and
calls, and the same policies scored by both (exploitability and value) on the 1v1 round."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as os_policy

from dudo.engine import preset
from dudo.solver import Position, Round, SolverError, build_round
from dudo.solver.cfr import Algorithm, RoundSolver, Strategy
from dudo.solver.evaluate import evaluate
from dudo.solver.openspiel_bridge import (
    bridge_problem,
    from_openspiel,
    openspiel_action,
    openspiel_call,
    openspiel_face,
    openspiel_game,
    to_openspiel,
)

from .shared_runs import DcfrRun

TUTORIAL_VALUE = float(Fraction(-7, 258))
TOLERANCE = 1e-9


@pytest.fixture(scope="module")
def round_(tutorial_round: Round) -> Round:
    return tutorial_round  # the session's (conftest.py), which the shared DCFR run is on


@pytest.fixture(scope="module")
def game(round_: Round) -> Any:
    return openspiel_game(round_)


class BestResponses:
    """OpenSpiel's exploitability of policies of one game, in C++: what
    ``pyspiel.exploitability`` computes (each player's ``TabularBestResponse`` value at the
    root, summed, less the game's utility sum, over the players), with the two best
    responders' history trees built once for all the policies scored, not once per policy
    (test_the_shared_best_responses_are_openspiels_exploitability checks it is the same
    number)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.root = game.new_initial_state()
        self.responders: list[Any] = []
        self.policy: Any = None  # the C++ responders point at it: it must stay alive

    def exploitability(self, policy: Any) -> float:
        """Of a C++ policy (``pyspiel``), or of a Python tabular one (converted)."""
        if not isinstance(policy, pyspiel.Policy):
            policy = os_policy.python_policy_to_pyspiel_policy(policy)
        self.policy = policy
        if not self.responders:
            players = range(self.game.num_players())
            self.responders = [pyspiel.TabularBestResponse(self.game, p, policy) for p in players]
        else:
            for responder in self.responders:
                responder.set_policy(policy)
        total = 0.0
        for responder in self.responders:
            total += responder.value_from_state(self.root)
        return float((total - self.game.utility_sum()) / self.game.num_players())


@pytest.fixture(scope="module")
def best_responses(game: Any) -> BestResponses:
    return BestResponses(game)


def openspiel_exploitability(best_responses: BestResponses, policy: Any) -> float:
    """OpenSpiel's exploitability (NashConv / players) of a tabular policy, in C++."""
    return best_responses.exploitability(policy)


def same_table(a: Any, b: Any) -> bool:
    """Whether two tabular policies give every information state the same probabilities."""
    if a.state_lookup.keys() != b.state_lookup.keys():
        return False
    rows_a = [a.state_lookup[k] for k in a.state_lookup]
    rows_b = [b.state_lookup[k] for k in a.state_lookup]
    return bool(
        np.array_equal(a.action_probability_array[rows_a], b.action_probability_array[rows_b])
    )


def same_strategy(a: Strategy, b: Strategy) -> bool:
    return bool(
        np.array_equal(a.sigma_in, b.sigma_in) and np.array_equal(a.sigma_call, b.sigma_call)
    )


def own_dice(signal: object) -> tuple[int, ...]:
    assert isinstance(signal, tuple) and isinstance(signal[0], tuple)
    return tuple(int(d) for d in signal[0])


@pytest.mark.parametrize(("faces", "dice"), [(6, 1), (3, 2)])
def test_bids_keep_their_order_and_calls_pay_alike(faces: int, dice: int) -> None:
    """Our bid order is OpenSpiel's action order, and every call, on every deal, is won by
    the same player in both (two dice of three faces check hands of several dice)."""
    rules = preset("liars-dice", aces_rank="high", faces=faces, dice_per_player=max(dice, 2))
    round_ = build_round(rules, Position((dice, dice)))
    game = openspiel_game(round_)
    actions = [openspiel_action(rules, b) for b in round_.bids]
    assert actions == list(range(openspiel_call(round_)))
    assert game.num_distinct_actions() == openspiel_call(round_) + 1
    hands = [[own_dice(sig) for sig in round_.signals[p]] for p in (0, 1)]
    checked = 0
    for s0, h0 in enumerate(hands[0]):
        for s1, h1 in enumerate(hands[1]):
            deal = game.new_initial_state()
            for hand in (h0, h1):
                for face in hand:
                    deal.apply_action(openspiel_face(rules, face) - 1)
            for p, hand in enumerate((h0, h1)):  # player 0's dice are dealt first
                seen = deal.information_state_string(p)
                assert seen == "".join(sorted(str(openspiel_face(rules, f)) for f in hand))
            weight = round_.signal_prob[0][s0] * round_.signal_prob[1][s1]
            for (bid, caller), history in round_.representative.items():
                state = deal.clone()
                for b in history:
                    state.apply_action(actions[b])
                assert state.current_player() == caller
                state.apply_action(openspiel_call(round_))
                ours = round_.payoff[bid, caller, s0, s1] / weight
                assert state.returns()[0] == pytest.approx(ours, abs=1e-12)
                checked += 1
    assert checked == round_.hands(0) * round_.hands(1) * len(round_.representative)


@pytest.fixture(scope="module")
def uniform(round_: Round, game: Any) -> tuple[Strategy, Any]:
    """Our uniform strategy and its OpenSpiel tabular policy."""
    ours = RoundSolver(round_).current()  # no regrets yet: uniform
    return ours, to_openspiel(round_, ours, game)


def test_the_shared_best_responses_are_openspiels_exploitability() -> None:
    """The module's exploitability (best responders built once, given each policy in turn)
    is ``pyspiel.exploitability``, to the last bit, for one policy after another (on a
    small round: three faces)."""
    small = build_round(preset("liars-dice", aces_rank="high", faces=3), Position((1, 1)))
    game = openspiel_game(small)
    shared = BestResponses(game)
    uniform = to_openspiel(small, RoundSolver(small).current(), game)
    for seed in (None, 5, 6):
        policy = (
            uniform
            if seed is None
            else uniform.copy_with_noise(
                alpha=1.0, beta=1.0, random_state=np.random.RandomState(seed)
            )
        )
        cpp = os_policy.python_policy_to_pyspiel_policy(policy)
        assert shared.exploitability(policy) == pyspiel.exploitability(game, cpp)


def test_uniform_policy(
    round_: Round, game: Any, uniform: tuple[Strategy, Any], best_responses: BestResponses
) -> None:
    ours, mapped = uniform
    assert same_strategy(from_openspiel(round_, os_policy.UniformRandomPolicy(game), game), ours)
    mask = mapped.legal_actions_mask
    assert np.array_equal(mapped.action_probability_array, mask / mask.sum(axis=1, keepdims=True))
    theirs = openspiel_exploitability(best_responses, mapped)
    assert evaluate(round_, ours).exploitability == pytest.approx(theirs, abs=TOLERANCE)


def test_random_policy(
    round_: Round, game: Any, uniform: tuple[Strategy, Any], best_responses: BestResponses
) -> None:
    """A random policy made by OpenSpiel, carried to ours and back."""
    theirs = uniform[1].copy_with_noise(alpha=1.0, beta=1.0, random_state=np.random.RandomState(5))
    ours = from_openspiel(round_, theirs, game)
    assert same_table(to_openspiel(round_, ours, game), theirs)
    expected = openspiel_exploitability(best_responses, theirs)
    assert evaluate(round_, ours).exploitability == pytest.approx(expected, abs=TOLERANCE)


def test_converged_strategy(
    round_: Round, game: Any, dcfr_run: DcfrRun, best_responses: BestResponses
) -> None:
    """Our average strategy after a short DCFR run (500 iterations, of the shared run:
    conftest.py): the same exploitability and value in OpenSpiel, and the tutorial's
    -7/258 within its bounds."""
    assert dcfr_run.round is round_
    ours = dcfr_run.average(500)
    result = evaluate(round_, ours)
    mapped = os_policy.python_policy_to_pyspiel_policy(to_openspiel(round_, ours, game))
    assert same_strategy(from_openspiel(round_, mapped, game), ours)  # through a C++ policy
    assert result.exploitability == pytest.approx(
        openspiel_exploitability(best_responses, mapped), abs=TOLERANCE
    )
    returns = pyspiel.expected_returns(game.new_initial_state(), mapped, -1, True)
    assert result.value == pytest.approx(returns[0], abs=TOLERANCE)
    low, high = result.value_bounds
    assert low - 1e-12 <= TUTORIAL_VALUE <= high + 1e-12
    assert abs(result.value - TUTORIAL_VALUE) <= result.exploitability


def test_two_dice_round_trip() -> None:
    """Hands of two dice (three faces keep it small): a random strategy goes to OpenSpiel
    and back unchanged, and keeps its value there."""
    rules = preset("liars-dice", aces_rank="high", faces=3, dice_per_player=2)
    round_ = build_round(rules, Position((2, 2)))
    game = openspiel_game(round_)
    solver = RoundSolver(round_)
    rng = np.random.default_rng(7)
    state = solver.state()
    for name in ("regret_in", "regret_call"):
        state[name][...] = rng.random(state[name].shape)
    solver.restore(state)  # the current strategy is now the random regrets, normalised
    ours = solver.current()
    mapped = to_openspiel(round_, ours, game)
    assert same_strategy(from_openspiel(round_, mapped, game), ours)
    cpp = os_policy.python_policy_to_pyspiel_policy(mapped)
    returns = pyspiel.expected_returns(game.new_initial_state(), cpp, -1, True)
    assert evaluate(round_, ours).value == pytest.approx(returns[0], abs=TOLERANCE)


def test_cfr_plus_iterates_match_openspiel(round_: Round, game: Any) -> None:
    """Our CFR+ and OpenSpiel's C++ CFRPlusSolver (both alternating, regret matching+)
    play the same current strategy, iteration by iteration."""
    theirs = pyspiel.CFRPlusSolver(game)
    ours = RoundSolver(round_, Algorithm.CFR_PLUS)
    for _ in range(2):
        theirs.evaluate_and_update_policy()
        ours.step()
    current = from_openspiel(round_, theirs.current_policy(), game)
    assert np.allclose(current.sigma_in, ours.sigma_in, rtol=0, atol=1e-12)
    assert np.allclose(current.sigma_call, ours.sigma_call, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    ("options", "position", "problem"),
    [
        ({}, Position((1, 1)), "aces_rank=high"),  # aces lowest: another bid order
        ({"aces_rank": "high", "faces": 3}, Position((2, 1)), "same number of dice"),
        ({"aces_rank": "high", "aces_wild": False}, Position((1, 1)), "aces_wild=true"),
    ],
)
def test_other_rounds_are_refused(
    options: dict[str, object], position: Position, problem: str
) -> None:
    round_ = build_round(preset("liars-dice", **options), position)
    assert problem in (bridge_problem(round_) or "")
    with pytest.raises(SolverError, match=problem):
        openspiel_game(round_)
