"""Whole heads-up games solved bottom-up: the published values of Lanctot's "Bluff" setting
(short runs: each value is checked to within the run's exploitability)."""

from __future__ import annotations

import pytest

from dudo.engine import preset
from dudo.engine.rules import Rules
from dudo.solver import Position, SolverError
from dudo.solver.game import BLUFF, Budget, GameSolver, starting_positions


def bluff() -> Rules:
    return preset("dudo", **BLUFF)


@pytest.fixture(scope="module")
def bluff_solver() -> GameSolver:
    """One solver for both positions: they rest on the same 1v1 round, solved once."""
    return GameSolver(bluff(), Budget(target=2e-3, every=40))


@pytest.mark.parametrize(("dice", "published"), [((2, 1), 0.6189), ((1, 2), -0.5883)])
def test_bluff_values_match_the_published_ones(
    bluff_solver: GameSolver, dice: tuple[int, int], published: float
) -> None:
    solver = bluff_solver
    value = solver.value(Position(dice))
    solved = solver.rounds[Position(dice)]
    # The 1v1 round it rests on is solved to 2e-3 as well; errors add up along the way.
    slack = (
        solved.evaluation.exploitability + solver.rounds[Position((1, 1))].evaluation.exploitability
    )
    assert abs(value - published) <= slack + 5e-5  # published to four decimals
    assert solved.evaluation.exploitability <= 2e-3


def test_one_die_each_is_the_tutorial_game() -> None:
    solver = GameSolver(bluff(), Budget(target=1e-4, every=100))
    assert solver.value(Position((1, 1))) == pytest.approx(-7 / 258, abs=2e-4)


def test_values_are_for_the_opener_and_swap_with_the_seats() -> None:
    solver = GameSolver(preset("liars-dice", faces=3), Budget(target=1e-5, every=100))
    value = solver.value(Position((2, 1)))
    assert solver.value(Position((1, 2), opener=1)) == value
    # A call in the 2v1 round leads to 1v1 positions (or ends the game): both were solved.
    assert set(solver.values) == {Position((1, 1)), Position((2, 1))}


def test_obliging_rounds_and_the_obligers_choice() -> None:
    rules = preset("dudo", faces=3, spot_on=False, pass_hands="none")  # obliger_chooses
    solver = GameSolver(rules, Budget(target=1e-5, every=100))
    solver.value(Position((2, 2)))
    chosen = [p for p in solver.values if p.obliging and p.visibility is None]
    assert chosen, "a 2v2 game under dudo rules reaches an obliging round"
    for position in chosen:
        open_value = solver.values[_with(position, "open")]
        closed_value = solver.values[_with(position, "closed")]
        assert solver.values[position] == max(open_value, closed_value)


def _with(position: Position, visibility: str) -> Position:
    return Position(position.dice, position.opener, position.obliged, True, visibility)


def test_starting_positions_and_unsupported_rules() -> None:
    rules = preset("liars-dice")
    assert [p.dice for p in starting_positions(rules, 2)] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    with pytest.raises(SolverError, match="dice_per_player"):
        starting_positions(rules, 6)
    with pytest.raises(SolverError, match="reveal_reroll=false"):
        GameSolver(preset("dudo", reveal_reroll=True)).value(Position((1, 1)))
    # Passes and spot-on claims are solved under the abstraction only.
    with pytest.raises(SolverError, match="only the last-k-bids abstraction"):
        spot_on_always = preset("dudo", faces=3, pass_hands="none", spot_on_threshold="none")
        GameSolver(spot_on_always).value(Position((1, 1)))
