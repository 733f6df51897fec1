"""docs/rules.md section 2 and 6: seating, direction and next_opener."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from dudo.engine import (
    ChanceOutcome,
    Game,
    RandomChance,
    Rules,
    ScriptedChance,
    SeatingDecided,
    SeatingRolled,
    preset,
)

from .conftest import PRESET_NAMES, deal, of_type, only, play

SEATING = {name: "random" if name in ("perudo", "liars-dice") else "roll" for name in PRESET_NAMES}
ROLL_PRESETS = tuple(n for n in PRESET_NAMES if SEATING[n] == "roll")


def seated(
    rules: Rules | str, players: int, script: Sequence[Sequence[int] | ChanceOutcome]
) -> Game:
    r = preset(rules) if isinstance(rules, str) else rules
    return Game(r, players, chance=ScriptedChance(list(script), then=RandomChance(7)))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_seating(name: str) -> None:
    assert preset(name).seating == SEATING[name]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_seating_of_each_preset(name: str) -> None:
    if SEATING[name] == "roll":
        g = seated(name, 3, [(2, 5, 4)])
        assert g.chance_log[0] == ChanceOutcome("roll", (2, 5, 4))
        assert g.order == (1, 2, 0)
    else:
        g = seated(name, 3, [ChanceOutcome("order", (2, 0, 1))])
        assert g.chance_log[0] == ChanceOutcome("order", (2, 0, 1))
        assert of_type(g.events, SeatingRolled) == []
        assert g.order == (2, 0, 1)
    assert only(g.events, SeatingDecided).order == g.order
    # The first in the order opens, then play follows the order.
    first, second, third = g.order
    assert g.opener == first and g.to_move == first
    play(g, "1x2")
    assert g.to_move == second
    play(g, "2x2")
    assert g.to_move == third


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_seating_roll_highest_first_then_descending(name: str) -> None:
    g = seated(name, 4, [(3, 6, 1, 5)])
    assert g.order == (1, 3, 0, 2)
    assert only(g.events, SeatingRolled) == SeatingRolled(((0, 3), (1, 6), (2, 1), (3, 5)))


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_seating_roll_ties_reroll_among_the_tied_only(name: str) -> None:
    g = seated(name, 3, [(5, 5, 3), (2, 6)])
    assert g.order == (1, 0, 2)
    rolls = of_type(g.events, SeatingRolled)
    assert rolls == [
        SeatingRolled(((0, 5), (1, 5), (2, 3))),
        SeatingRolled(((0, 2), (1, 6))),
    ]
    assert [c.values for c in g.chance_log[:2]] == [(5, 5, 3), (2, 6)]


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_seating_roll_tied_players_reroll_until_untied(name: str) -> None:
    g = seated(name, 4, [(6, 6, 6, 2), (2, 2, 1), (3, 3), (1, 4)])
    assert g.order == (1, 0, 2, 3)
    groups = [tuple(p for p, _ in e.rolls) for e in of_type(g.events, SeatingRolled)]
    assert groups == [(0, 1, 2, 3), (0, 1, 2), (0, 1), (0, 1)]


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_seating_roll_every_tied_group_rerolls(name: str) -> None:
    # Two separate ties; each group re-rolls on its own (same values, so either order works).
    g = seated(name, 4, [(4, 4, 2, 2), (3, 1), (3, 1)])
    assert g.order == (0, 1, 2, 3)
    groups = sorted(tuple(p for p, _ in e.rolls) for e in of_type(g.events, SeatingRolled))
    assert groups == [(0, 1), (0, 1, 2, 3), (2, 3)]


def test_fixed_seating_uses_no_chance() -> None:
    g = seated(preset("dudo", seating="fixed"), 3, [])
    assert g.order == (0, 1, 2)
    assert of_type(g.events, SeatingRolled) == []
    assert all(c.kind == "roll" and len(c.values) == 5 for c in g.chance_log)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_direction_is_clockwise_by_default(name: str) -> None:
    assert preset(name).direction == "clockwise"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_counterclockwise_follows_the_order_backwards(name: str) -> None:
    rules = preset(name, direction="counterclockwise", seating="random")
    g = seated(rules, 4, [ChanceOutcome("order", (2, 0, 3, 1))])
    assert only(g.events, SeatingDecided) == SeatingDecided((2, 0, 3, 1), "counterclockwise")
    assert g.to_move == 2
    seen = []
    for q in range(1, 4):
        play(g, f"{q}x2")
        seen.append(g.to_move)
    assert seen == [1, 3, 0]


# --- seating by roll in either direction (section 6) ---------------------------------------


def turns(g: Game, bids: int) -> list[int]:
    """Who acts first, then after each of ``bids`` raises (1x2, 2x2, ...)."""
    seen = [g.to_move]
    for q in range(1, bids + 1):
        play(g, f"{q}x2")
        seen.append(g.to_move)
    return seen


def ccw(name: str) -> Rules:
    return preset(name, direction="counterclockwise")


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_counterclockwise_play_runs_in_roll_order(name: str) -> None:
    g = seated(ccw(name), 3, [(6, 5, 4)])
    assert only(g.events, SeatingRolled) == SeatingRolled(((0, 6), (1, 5), (2, 4)))
    # The seats, clockwise from the opener: the 4 sits on the 6's clockwise side, so that
    # play going counterclockwise meets the 5 first.
    assert only(g.events, SeatingDecided) == SeatingDecided((0, 2, 1), "counterclockwise")
    assert g.order == g.view(None).order == (0, 2, 1)
    view = g.view(0)
    assert [view.next_player(p) for p in range(3)] == [1, 2, 0]
    assert turns(g, 3) == [0, 1, 2, 0]


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_counterclockwise_roll_order_with_four_players(name: str) -> None:
    g = seated(ccw(name), 4, [(3, 6, 1, 5)])
    assert only(g.events, SeatingDecided) == SeatingDecided((1, 2, 0, 3), "counterclockwise")
    assert turns(g, 4) == [1, 3, 0, 2, 1]


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_counterclockwise_ties_reroll_and_play_follows_the_rerolls(name: str) -> None:
    g = seated(ccw(name), 3, [(5, 5, 3), (2, 6)])
    assert of_type(g.events, SeatingRolled) == [
        SeatingRolled(((0, 5), (1, 5), (2, 3))),
        SeatingRolled(((0, 2), (1, 6))),
    ]
    assert [c.values for c in g.chance_log[:2]] == [(5, 5, 3), (2, 6)]
    assert turns(g, 3) == [1, 0, 2, 1]


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_counterclockwise_nested_ties_reroll_until_untied(name: str) -> None:
    g = seated(ccw(name), 4, [(6, 6, 6, 2), (2, 2, 1), (3, 3), (1, 4)])
    groups = [tuple(p for p, _ in e.rolls) for e in of_type(g.events, SeatingRolled)]
    assert groups == [(0, 1, 2, 3), (0, 1, 2), (0, 1), (0, 1)]
    assert turns(g, 4) == [1, 0, 2, 3, 1]


@pytest.mark.parametrize("name", ROLL_PRESETS)
@pytest.mark.parametrize(
    ("players", "rolls", "order"),
    [
        (3, [(6, 5, 4)], (0, 1, 2)),
        (4, [(3, 6, 1, 5)], (1, 3, 0, 2)),
        (3, [(5, 5, 3), (2, 6)], (1, 0, 2)),
    ],
)
def test_clockwise_roll_seating_is_the_roll_order(
    name: str, players: int, rolls: list[tuple[int, ...]], order: tuple[int, ...]
) -> None:
    g = seated(name, players, rolls)
    assert only(g.events, SeatingDecided) == SeatingDecided(order, "clockwise")
    assert turns(g, players) == [*order, order[0]]


@pytest.mark.parametrize("name", ROLL_PRESETS)
def test_counterclockwise_next_opener_after_an_elimination_follows_the_rolls(name: str) -> None:
    hands = [(2, 3, 3, 4, 5), (4,), (4, 4, 5, 6, 6)]
    script = [(6, 5, 4), *hands]
    g = Game(ccw(name), 3, chance=ScriptedChance(script, then=RandomChance(7)), dice=(5, 1, 5))
    assert g.hidden == tuple(hands)
    play(g, "2x3")  # the 6 opens, then the 5 (one die) bids
    assert g.to_move == 1
    play(g, "3x6", "call")  # two sixes: the 5 loses its last die to the 4's call
    assert g.counts == (5, 0, 5)
    # The next in roll order after the eliminated 5 opens: the 4; then the 6.
    assert g.opener == g.to_move == 2
    assert turns(g, 2) == [2, 0, 2]


# --- next_opener ---------------------------------------------------------------------------

THREES = [[2, 3, 3, 4, 5], [3, 5, 6, 6, 2], [4, 4, 5, 6, 6]]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_next_opener_is_loser(name: str) -> None:
    assert preset(name).next_opener == "loser"


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(("bid", "winner"), [("4x3", 2), ("3x3", 1)], ids=["bid-false", "bid-true"])
def test_next_opener_winner_after_a_call(name: str, bid: str, winner: int) -> None:
    g = deal(preset(name, next_opener="winner"), THREES)
    play(g, "2x3", bid, "call")  # player 1 bids, player 2 calls
    assert g.opener == winner and g.to_move == winner


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_next_opener_winner_when_the_loser_is_eliminated(name: str) -> None:
    g = deal(preset(name, next_opener="winner"), [[2, 3, 3, 4, 5], [4], [4, 4, 5, 6, 6]])
    play(g, "2x3", "3x6", "call")  # player 1 bids, is wrong and eliminated
    assert g.counts[1] == 0
    assert g.opener == 2
