"""How a game starts: the engine's Setup value, its one check, and the games that keep it."""

from __future__ import annotations

from typing import Any

import pytest

import dudo
from dudo.engine import DudoError, Game, RulesError, Setup, preset

from .conftest import play


def test_a_game_keeps_its_setup_as_given() -> None:
    rules = preset("dudo")
    setup = Setup(4, order=(2, 3, 0, 1), dice=(3, 0, 5, 2), start_total=20, obliged=frozenset({1}))
    game = Game(rules, setup=setup, seed=3)
    assert game.setup is setup
    assert game.order == (2, 3, 0, 1) and game.counts == (3, 0, 5, 2)
    assert game.start_total == 20 and game.obliged == {1}
    assert dudo.Setup is Setup


def test_the_keywords_build_the_same_setup() -> None:
    rules = preset("dudo")
    keywords = Game(rules, 3, order=[1, 2, 0], dice=[2, 1, 4], obliger=1, seed=5)
    whole = Game(rules, setup=Setup(3, (1, 2, 0), (2, 1, 4), None, frozenset(), 1), seed=5)
    assert keywords.setup == whole.setup
    assert keywords.events == whole.events and keywords.hidden == whole.hidden
    assert Game(rules, 3, seed=1).setup == Setup(3)
    assert Game(rules).setup == Setup()


def test_lists_are_kept_as_tuples_and_a_setup_is_a_value() -> None:
    listed = Setup(3, order=[2, 0, 1], dice=[1, 2, 3], obliged={0})  # type: ignore[arg-type]
    assert listed == Setup(3, (2, 0, 1), (1, 2, 3), None, frozenset({0}))
    assert listed.order == (2, 0, 1) and listed.dice == (1, 2, 3)
    assert hash(listed) == hash(Setup(3, (2, 0, 1), (1, 2, 3), None, frozenset({0})))
    with pytest.raises(AttributeError):
        listed.players = 4  # type: ignore[misc]


def test_what_a_setup_starts_with() -> None:
    rules = preset("liars-dice", dice_per_player=3)
    assert Setup(3).start_dice(rules) == (3, 3, 3)
    assert Setup(3).start_total_of(rules) == 9
    assert Setup(3, dice=(1, 0, 2)).start_total_of(rules) == 3
    assert Setup(3, dice=(1, 0, 2), start_total=7).start_total_of(rules) == 7


PROBLEMS: list[tuple[dict[str, Any], tuple[str, str]]] = [
    ({"players": 1}, ("players", "1 is below min_players=2")),
    ({"players": "3"}, ("players", "'3' is not a whole number")),
    ({"players": True}, ("players", "True is not a whole number")),
    ({"order": (0, 0, 1)}, ("order", "[0, 0, 1] is not an order of players 0..2")),
    ({"order": (0, 1)}, ("order", "[0, 1] is not an order of players 0..2")),
    ({"order": 5}, ("order", "5 is not an order of players 0..2")),
    ({"dice": (5, 5)}, ("dice", "2 counts given for 3 players")),
    ({"dice": (5, 6, 5)}, ("dice[1]", "6 dice; a hand holds 0..5")),
    ({"dice": (5, "x", 5)}, ("dice[1]", "'x' dice; a hand holds 0..5")),
    ({"dice": (5, 0, 0)}, ("dice", "at least two players need dice to play")),
    ({"obliged": frozenset({3})}, ("obliged", "3 is not a player (players are 0..2)")),
    ({"obliger": 3}, ("obliger", "3 is not a player (players are 0..2)")),
    ({"obliger": 1, "dice": (5, 0, 5)}, ("obliger", "player 1 has no dice")),
    ({"start_total": 2.5}, ("start_total", "2.5 is not a whole number")),
    (
        {"dice": (1, 2, 3), "start_total": 5},
        ("start_total", "5 is below the 6 dice in play; it counts the dice the game began with"),
    ),
]


@pytest.mark.parametrize(("fields", "problem"), PROBLEMS)
def test_one_check_names_the_field_at_fault(
    fields: dict[str, Any], problem: tuple[str, str]
) -> None:
    rules = preset("dudo")
    setup = Setup(**{"players": 3, **fields})
    assert setup.problem(rules) == problem
    with pytest.raises(DudoError) as info:
        Game(rules, setup=setup)
    assert str(info.value) == f"{problem[0]}: {problem[1]}"
    with pytest.raises(DudoError) as info:
        Game(rules, **{"players": 3, **fields})
    assert str(info.value) == f"{problem[0]}: {problem[1]}"


def test_the_check_reads_the_rules() -> None:
    assert Setup(7).problem(preset("perudo")) == ("players", "7 is above max_players=6")
    no_oblige = preset("liars-dice")
    assert Setup(3, obliger=0).problem(no_oblige) == (
        "obliger",
        "these rules have no obliging rounds (oblige is false)",
    )
    assert Setup(3, dice=(2, 2, 2)).problem(preset("liars-dice", dice_per_player=2)) is None
    assert Setup(3, dice=(3, 2, 2)).problem(preset("liars-dice", dice_per_player=2)) == (
        "dice[0]",
        "3 dice; a hand holds 0..2",
    )


def test_the_setup_is_given_once() -> None:
    rules = preset("dudo")
    with pytest.raises(DudoError, match="give the setup either whole"):
        Game(rules, 3, setup=Setup(3))
    with pytest.raises(DudoError, match="give the setup either whole"):
        Game(rules, setup=Setup(3), dice=(5, 5, 5))
    with pytest.raises(DudoError, match="is not a Setup"):
        Game(rules, setup=(3,))  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="is not a Rules value"):
        Game("dudo", 3)  # type: ignore[arg-type]


def test_with_hands_and_from_view_set_their_game_up() -> None:
    rules = preset("dudo")
    game = Game.with_hands(rules, [(1, 1, 2), (), (3, 4, 5, 6, 6), (2, 2)], opener=2, seed=3)
    assert game.setup == Setup(4, (2, 3, 0, 1), (3, 0, 5, 2))
    play(game, "1x2")
    view = game.view(game.to_move)
    again = Game.from_view(view, [game.hidden[p] for p in range(4)], seed=1)
    assert again.setup.players == 4 and again.setup.dice == (3, 0, 5, 2)
    assert again.setup.order == (2, 3, 0, 1)  # the round's opener sits first
