"""The OpenSpiel game ``python_dudo``: OpenSpiel's random simulation test (with serialisation)
over presets, house rules and 2 to 8 players; every rule option a game parameter; chance nodes; information states that hide other players'
dice; and OpenSpiel's CFR on a tiny game, whose value must match our own solver's and
OpenSpiel's built-in ``liars_dice``."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, gambit

from dudo.engine import ChanceOutcome, Game, ScriptedChance, preset
from dudo.engine.errors import DudoError, RulesError
from dudo.research.openspiel_game import GAME_NAME, load_game, seating_rolls
from dudo.solver import Position, build_round
from dudo.solver.cfr import Algorithm, RoundSolver
from dudo.solver.evaluate import evaluate

TINY = "dice_per_player=1 faces=3 seating=fixed"


@pytest.mark.parametrize(
    ("rules", "players", "settings"),
    [
        ("liars-dice", 2, "dice_per_player=1 faces=3"),
        ("dudo", 2, ""),
        ("dudo", 3, "cruzado=true reveal_reroll=true"),
        ("perudo", 6, "dice_per_player=2 spot_on_reward=cancel"),
        ("cacho", 8, "dice_per_player=1 pass_hands=none"),
        ("dudo-app", 4, "dice_per_player=3 oblige_visibility=obliger_chooses loss=difference"),
    ],
)
def test_random_sim_test(rules: str, players: int, settings: str) -> None:
    game = load_game(rules, players, settings)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_and_info() -> None:
    game = pyspiel.load_game(GAME_NAME, {"preset": "perudo", "players": 4})
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 20 * 6 + 7  # bids, then call .. no-call
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_chance_outcomes() == 6


@pytest.mark.parametrize(
    ("rules", "players", "settings", "longest"),
    [
        ("liars-dice", 2, "dice_per_player=1", 16),  # one round: 12 bids, 2 passes, oblige, call
        ("liars-dice", 3, "dice_per_player=2", 5 * (1 + 36 + 3 + 1)),
        ("perudo", 2, "", 1000 * (1 + 60 + 2 + 1)),  # a right spot-on wins a die back
    ],
)
def test_max_game_length_bounds_the_rounds_a_game_can_last(
    rules: str, players: int, settings: str, longest: int
) -> None:
    game = load_game(rules, players, settings)
    assert game.max_game_length() == longest
    rng = random.Random(players)
    for _ in range(20):
        state, decisions = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        assert decisions <= longest


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(DudoError, match=r"2\.\.8"):
        load_game("dudo", 9)
    with pytest.raises(DudoError, match="max_players=6"):
        load_game("perudo", 7)
    with pytest.raises(RulesError, match="unknown preset"):
        load_game("bluff", 2)
    with pytest.raises(RulesError, match="faces"):
        load_game("dudo", 2, "faces=9")


@pytest.mark.parametrize(
    ("rules", "players", "settings"),
    [
        ("liars-dice", 2, "faces=3"),
        ("perudo", 3, "pass_hands=full_house,five_kind cruzado=true max_players=none"),
        ("dudo", 2, "pass_hands=none spot_on_reward=cancel dice_per_player=2"),
    ],
)
def test_a_game_with_house_rules_prints_and_loads_again(
    rules: str, players: int, settings: str
) -> None:
    game = load_game(rules, players, settings)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.rules == game.rules
    assert "settings" not in str(game)  # every option is a parameter of its own


def test_every_rule_option_is_a_game_parameter() -> None:
    game = pyspiel.load_game(
        "python_dudo(preset=liars-dice,faces=3,cruzado=1,pass_hands=five_kind+full_house,"
        "max_players=0,raise_mode=any_face)"
    )
    rules = game.rules
    assert (rules.faces, rules.cruzado, rules.max_players, str(rules.raise_mode)) == (
        3,
        True,
        None,
        "any_face",
    )
    assert sorted(str(h) for h in rules.pass_hands) == ["five_kind", "full_house"]
    # Left out, an option is as the preset has it.
    assert pyspiel.load_game("python_dudo(preset=perudo)").rules == preset("perudo")
    with pytest.raises(DudoError, match=r"cruzado: 2; give 1 \(true\), 0 \(false\)"):
        pyspiel.load_game("python_dudo(cruzado=2)")
    with pytest.raises(pyspiel.SpielError, match=r"parameter cruzado\. Expected type: kInt"):
        pyspiel.load_game("python_dudo(cruzado=true)")
    with pytest.raises(RulesError, match="raise_mode='bogus' is not valid"):
        pyspiel.load_game("python_dudo(raise_mode=bogus)")


def _dealt(game: Any, dice: list[int]) -> Any:
    """A new game's state after the chance nodes deal ``dice`` (one die each, in seat order)."""
    state = game.new_initial_state()
    for face in dice:
        assert state.is_chance_node()
        outcomes = dict(state.chance_outcomes())
        assert outcomes == {f: pytest.approx(1 / 3) for f in range(3)}
        state.apply_action(face - 1)
    assert not state.is_chance_node()
    return state


def test_dice_are_chance_nodes_and_hidden_from_the_other_player() -> None:
    game = load_game("liars-dice", 2, TINY)
    first, second = _dealt(game, [2, 3]), _dealt(game, [2, 1])  # only player 1's die differs
    for state in (first, second):
        assert state.current_player() == 0  # fixed seating: player 0 opens
        state.apply_action(3)  # 2x1: (2 - 1) * 3 faces + (1 - 1)
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.observation_string(0) == second.observation_string(0)
    assert first.observation_tensor(0) == second.observation_tensor(0)
    assert first.information_state_string(1) != second.information_state_string(1)
    assert first.observation_tensor(1) != second.observation_tensor(1)
    assert "[2]" in first.observation_string(0) and "[?]" in first.observation_string(0)


def test_the_information_state_tensor_holds_the_whole_round() -> None:
    """One tensor per information state: the same for deals the player cannot tell apart,
    different when the player's dice or anything earlier in the round differs, even beyond
    the 16 last actions an observation keeps."""
    game = load_game("liars-dice", 2, "dice_per_player=3 faces=3 seating=fixed")
    assert game.get_type().provides_information_state_tensor
    size = game.information_state_tensor_shape()[0]
    assert size > game.observation_tensor_shape()[0]

    def dealt(dice: list[int]) -> Any:
        state = game.new_initial_state()
        for face in dice:
            state.apply_action(face - 1)
        return state

    # Player 0 holds 2, 2, 3 in two deals; player 1's dice differ between them.
    same, other_deal = dealt([2, 2, 3, 1, 1, 3]), dealt([2, 2, 3, 3, 3, 3])
    other_dice = dealt([2, 3, 3, 1, 1, 3])
    every_bid = list(range(game.num_distinct_actions() - 7))  # 1x1, 1x2, ... 6x3
    for state in (same, other_deal, other_dice):
        for bid in every_bid[1:]:  # 17 raises by the lowest step
            state.apply_action(bid)
    assert len(same.information_state_tensor(0)) == size
    assert same.information_state_tensor(0) == other_deal.information_state_tensor(0)
    assert same.information_state_tensor(1) != other_deal.information_state_tensor(1)
    assert same.information_state_tensor(0) != other_dice.information_state_tensor(0)

    # The same last actions after a different first bid: an observation keeps the last 16
    # actions only, the information state the whole round.
    late, early = dealt([2, 2, 3, 1, 1, 3]), dealt([2, 2, 3, 1, 1, 3])
    late.apply_action(every_bid[0])
    early.apply_action(every_bid[1])
    for state in (late, early):
        for bid in every_bid[2:]:
            state.apply_action(bid)
    assert late.observation_tensor(0) == early.observation_tensor(0)
    assert late.information_state_tensor(0) != early.information_state_tensor(0)


def test_the_information_state_tensor_is_sized_for_the_longest_round() -> None:
    for preset_name, players in (("dudo", 6), ("perudo", 3), ("cacho", 4)):
        game = load_game(preset_name, players)
        state = game.new_initial_state()
        rng = random.Random(players)
        size = game.information_state_tensor_shape()[0]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            player = state.current_player()
            tensor = state.information_state_tensor(player)
            assert len(tensor) == size and min(tensor) >= 0.0 and max(tensor) <= 1.0
            state.apply_action(rng.choice(state.legal_actions()))


def test_random_seating_is_drawn_seat_by_seat() -> None:
    game = load_game("perudo", 3)  # random seating
    state = game.new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(2)
    assert [a for a, _ in state.chance_outcomes()] == [0, 1]
    state.apply_action(0)
    # The order is 2, 0, 1; now each player's five dice are rolled one at a time.
    assert [a for a, _ in state.chance_outcomes()] == list(range(6))
    for _ in range(15):
        state.apply_action(5)
    assert state.current_player() == 2


def test_openspiel_cfr_runs_on_the_game() -> None:
    game = load_game("liars-dice", 2, TINY)
    solver = cfr.CFRPlusSolver(game)  # OpenSpiel's Python CFR+, straight on python_dudo
    for _ in range(2):
        solver.evaluate_and_update_policy()
    average = policy_lib.python_policy_to_pyspiel_policy(solver.average_policy())
    # Uniform random play is 0.51 exploitable in this game; two iterations go well below.
    assert 0.0 < pyspiel.exploitability(game, average) < 0.3


def _value_by_cfr(game: Any, iterations: int = 400) -> float:
    """Player 0's value of ``game`` under CFR+ (OpenSpiel's C++ solver, run on the game
    tree exported once through OpenSpiel's Gambit writer)."""
    tree = pyspiel.load_efg_game(gambit.export_gambit(game))
    solver = pyspiel.CFRPlusSolver(tree)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert pyspiel.exploitability(tree, average) < 2e-4
    value: float = pyspiel.expected_returns(tree.new_initial_state(), average, -1, True)[0]
    return value


def _value_by_our_solver(settings: dict[str, Any]) -> float:
    round_ = build_round(preset("liars-dice", **settings), Position((1, 1)))
    solver = RoundSolver(round_, Algorithm.DCFR)
    for _ in range(1000):
        solver.step()
    return evaluate(round_, solver.average()).value


@pytest.mark.parametrize("aces_rank", ["high", "low"])
def test_the_game_value_matches_our_solver(aces_rank: str) -> None:
    game = load_game("liars-dice", 2, f"{TINY} aces_rank={aces_rank}")
    ours = _value_by_our_solver({"dice_per_player": 1, "faces": 3, "aces_rank": aces_rank})
    value = _value_by_cfr(game)
    assert value == pytest.approx(ours, abs=1e-3)
    if aces_rank == "high":  # then it is OpenSpiel's own liars_dice as well
        builtin = pyspiel.load_game("liars_dice", {"players": 2, "numdice": 1, "dice_sides": 3})
        assert value == pytest.approx(_value_by_cfr(builtin), abs=1e-3)


def test_seating_by_roll_is_one_finite_chance_node_with_the_rolls_distribution() -> None:
    """Seats' rolls may tie for ever; the tree draws the order of play they give instead
    (uniform, as seating=random draws it), so the whole tree is finite and the game has the
    same value as under random seating."""
    game = load_game("liars-dice", 2, "dice_per_player=1 faces=3 seating=roll")
    root = game.new_initial_state()
    assert root.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert root.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "seat player 1"
    root.apply_action(1)  # player 1 rolled highest: it opens
    for face in (0, 2):
        root.apply_action(face)
    assert root.current_player() == 1
    assert "SeatingRolled(rolls=((0, 2), (1, 3)))" in root.information_state_string(0)
    random_seating = load_game("liars-dice", 2, "dice_per_player=1 faces=3 seating=random")
    assert _value_by_cfr(game) == pytest.approx(_value_by_cfr(random_seating), abs=1e-3)


@pytest.mark.parametrize(("players", "faces"), [(2, 6), (4, 6), (5, 3), (7, 4), (6, 3)])
def test_seating_rolls_give_the_order_drawn(players: int, faces: int) -> None:
    rules = preset("liars-dice", seating="roll", faces=faces, dice_per_player=1)
    orders = list(itertools.permutations(range(players)))
    for order in random.Random(players).sample(orders, min(len(orders), 200)):
        rolls = [ChanceOutcome("roll", values) for values in seating_rolls(order, faces)]
        deals = [ChanceOutcome("roll", (1,))] * players
        game = Game(rules, players, chance=ScriptedChance(rolls + deals))
        assert game.order == order


def test_a_game_cut_off_by_the_round_cap_is_a_draw() -> None:
    game = load_game("dudo", 3, max_rounds=1)
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns() == [0.0, 0.0, 0.0]
    assert "round" in str(state)
