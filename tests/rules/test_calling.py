"""docs/rules.md section 2, Calling: loss=one and loss=difference, for every preset."""

from __future__ import annotations

import pytest

from dudo.engine import DiceLost, Eliminated, Revealed, preset

from .conftest import PRESET_NAMES, deal, of_type, only, play

# Three natural threes, no aces: a count of 3 under every preset.
THREES = [[2, 3, 3, 4, 5], [3, 5, 6, 6, 2]]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_loss_is_one(name: str) -> None:
    assert preset(name).loss == "one"


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(("bid", "loser"), [("7x3", 0), ("4x3", 0), ("3x3", 1), ("1x3", 1)])
def test_loss_one_costs_one_die_however_wrong(name: str, bid: str, loser: int) -> None:
    g = deal(name, THREES)
    events = play(g, bid, "call")
    lost = only(events, DiceLost)
    assert (lost.player, lost.count, lost.remaining) == (loser, 1, 4)


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(
    ("bid", "loser", "dice"),
    [("7x3", 0, 4), ("4x3", 0, 1), ("3x3", 1, 1), ("2x3", 1, 1), ("1x3", 1, 2)],
    ids=["bid-4-too-high", "bid-1-too-high", "exact", "count-1-above", "count-2-above"],
)
def test_loss_difference(name: str, bid: str, loser: int, dice: int) -> None:
    g = deal(preset(name, loss="difference"), THREES)
    events = play(g, bid, "call")
    assert only(events, Revealed).count == 3
    lost = only(events, DiceLost)
    assert (lost.player, lost.count) == (loser, dice)
    assert g.counts[loser] == 5 - dice


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_loss_difference_never_takes_more_dice_than_held(name: str) -> None:
    g = deal(preset(name, loss="difference"), [[2, 3], [4, 4, 4, 4, 4]])
    events = play(g, "6x3", "call")  # count 1: five short, but player 0 holds two dice
    lost = only(events, DiceLost)
    assert (lost.player, lost.count, lost.remaining) == (0, 2, 0)
    assert [e.player for e in of_type(events, Eliminated)] == [0]
    assert g.counts == (0, 5)
    assert g.is_over and g.winner == 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_loss_difference_caller_can_be_eliminated(name: str) -> None:
    g = deal(preset(name, loss="difference"), [[3, 3, 3, 3, 3], [4, 5]])
    events = play(g, "1x3", "call")  # count 5: four above, caller holds two
    lost = only(events, DiceLost)
    assert (lost.player, lost.count, lost.remaining) == (1, 2, 0)
    assert g.winner == 0
