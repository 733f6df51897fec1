"""docs/rules.md section 2 and 6, spot-on: reward, cost, thresholds, minimum players, next
opener."""

from __future__ import annotations

import pytest

from dudo.engine import (
    SPOT_ON,
    DiceLost,
    DieWon,
    Eliminated,
    Revealed,
    RoundCancelled,
    SpotOnClaimed,
    preset,
)

from .conftest import PRESET_NAMES, assert_illegal, deal, legal, of_type, only, play

# (spot_on, reward, threshold, min players) per preset: docs/rules.md section 3.
SPOT_ON_TABLE: dict[str, tuple[bool, str, str, int]] = {
    "dudo": (True, "gain", "more_than_half", 2),
    "dudo-legacy": (True, "gain", "none", 2),
    "dudo-equalize": (True, "gain", "none", 2),
    "dudo-app": (True, "cancel", "none", 2),
    "perudo": (True, "gain", "none", 3),
    "cacho": (True, "gain", "half_or_single", 3),
    "liars-dice": (False, "gain", "more_than_half", 2),
}
SPOT_ON_PRESETS = tuple(n for n in PRESET_NAMES if SPOT_ON_TABLE[n][0])

# Count of threes: two natural threes and one ace = 3 under every preset.
HANDS = [[3, 3, 1, 4, 5], [2, 4, 5, 6], [2, 2, 4, 5, 6]]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_spot_on_options(name: str) -> None:
    rules = preset(name)
    on, reward, threshold, minimum = SPOT_ON_TABLE[name]
    assert rules.spot_on is on
    if on:
        assert rules.spot_on_reward == reward
        assert rules.spot_on_threshold == threshold
        assert rules.spot_on_min_players == minimum


def test_no_spot_on_in_liars_dice() -> None:
    g = deal("liars-dice", HANDS)
    play(g, "3x3")
    assert_illegal(g, SPOT_ON, "spot-on is not played")


@pytest.mark.parametrize("name", SPOT_ON_PRESETS)
def test_right_spot_on(name: str) -> None:
    g = deal(name, HANDS)
    events = play(g, "3x3", "spot-on")
    claimed = only(events, SpotOnClaimed)
    assert (claimed.player, claimed.bidder) == (1, 0)
    assert only(events, Revealed).count == 3
    assert of_type(events, DiceLost) == []  # the bidder never loses on a spot-on
    if SPOT_ON_TABLE[name][1] == "gain":
        assert only(events, DieWon) == DieWon(1, 5)
        assert of_type(events, RoundCancelled) == []
        assert g.counts == (5, 5, 5)
    else:
        assert only(events, RoundCancelled) == RoundCancelled(1)
        assert of_type(events, DieWon) == []
        assert g.counts == (5, 4, 5)
    # The claimant opens the next round; it is dealt afresh.
    assert g.round_number == 2
    assert g.opener == 1 and g.to_move == 1
    assert g.bid is None


def test_cancelled_round_is_re_dealt() -> None:
    later = [[6, 6, 6, 6, 6], [2, 2, 2, 2], [4, 4, 4, 4, 4]]
    g = deal("dudo-app", HANDS, later=later)
    play(g, "3x3", "spot-on")
    assert [sorted(h) for h in g.hidden] == later
    assert not g.obliging


@pytest.mark.parametrize("name", SPOT_ON_PRESETS)
def test_right_spot_on_gain_never_above_five(name: str) -> None:
    hands = [[3, 3, 1, 4, 5], [2, 4, 5, 6, 6], [2, 2, 4, 5, 6]]
    g = deal(name, hands)
    events = play(g, "3x3", "spot-on")
    assert of_type(events, DieWon) == []
    assert g.counts == (5, 5, 5)


@pytest.mark.parametrize("name", SPOT_ON_PRESETS)
@pytest.mark.parametrize("bid", ["5x3", "2x3"], ids=["count-below", "count-above"])
def test_wrong_spot_on_costs_the_claimant_one_die(name: str, bid: str) -> None:
    g = deal(name, HANDS)
    events = play(g, bid, "spot-on")
    lost = only(events, DiceLost)
    assert (lost.player, lost.count, lost.remaining) == (1, 1, 3)
    assert of_type(events, DieWon) == [] and of_type(events, RoundCancelled) == []
    assert g.counts == (5, 3, 5)
    assert g.opener == 1  # the claimant opens, right or wrong


@pytest.mark.parametrize("name", SPOT_ON_PRESETS)
def test_wrong_spot_on_costs_one_die_even_under_loss_difference(name: str) -> None:
    g = deal(preset(name, loss="difference"), HANDS)
    events = play(g, "7x3", "spot-on")  # four off
    lost = only(events, DiceLost)
    assert (lost.player, lost.count) == (1, 1)
    assert g.counts == (5, 3, 5)


@pytest.mark.parametrize("name", SPOT_ON_PRESETS)
@pytest.mark.parametrize("bid", ["3x3", "4x3"], ids=["right", "wrong"])
def test_claimant_opens_even_under_next_opener_winner(name: str, bid: str) -> None:
    g = deal(preset(name, next_opener="winner"), HANDS)
    play(g, bid, "spot-on")
    assert g.opener == 1 and g.to_move == 1


@pytest.mark.parametrize("name", SPOT_ON_PRESETS)
def test_wrong_claimant_eliminated_next_player_opens(name: str) -> None:
    g = deal(name, [[3, 3, 1, 4, 5], [2], [2, 2, 4, 5, 6]], start_total=15)
    events = play(g, "4x3", "spot-on")
    assert only(events, Eliminated).player == 1
    assert g.opener == 2 and g.to_move == 2


# Thresholds with start total 20, three players (bidder 0, claimant 1, player 2).
THRESHOLD_CASES: dict[str, tuple[list[int], dict[str, bool]]] = {
    # name: (dice held per player, {threshold: spot-on allowed?})
    "above-half": (
        [4, 2, 5],
        {"none": True, "more_than_half": True, "half_or_single": True},
    ),
    "exactly-half": (
        [4, 2, 4],
        {"none": True, "more_than_half": False, "half_or_single": True},
    ),
    "below-half": (
        [4, 2, 3],
        {"none": True, "more_than_half": False, "half_or_single": False},
    ),
    "below-half-one-die": (
        [4, 1, 4],
        {"none": True, "more_than_half": False, "half_or_single": True},
    ),
}


@pytest.mark.parametrize("name", SPOT_ON_PRESETS)
@pytest.mark.parametrize("case", list(THRESHOLD_CASES))
def test_spot_on_threshold(name: str, case: str) -> None:
    sizes, allowed = THRESHOLD_CASES[case]
    hands = [[2] * n for n in sizes]
    g = deal(name, hands, start_total=20)
    play(g, "1x2")
    if allowed[SPOT_ON_TABLE[name][2]]:
        assert legal(g, SPOT_ON)
        assert SPOT_ON in g.legal_actions()
    else:
        assert_illegal(g, SPOT_ON, "half")


@pytest.mark.parametrize(
    ("threshold", "sizes", "allowed"),
    [
        ("more_than_half", [4, 4], True),  # 8 > 7.5
        ("more_than_half", [4, 3], False),  # 7 < 7.5
        ("half_or_single", [4, 4], True),  # 8 >= 7.5
        ("half_or_single", [4, 3], False),  # 7 < 7.5
        ("half_or_single", [5, 1, 1], True),  # 7 < 7.5, but the claimant holds one die
        ("more_than_half", [5, 1, 1], False),
    ],
)
def test_spot_on_threshold_odd_start_total(threshold: str, sizes: list[int], allowed: bool) -> None:
    g = deal(preset("dudo", spot_on_threshold=threshold), [[2] * n for n in sizes], start_total=15)
    play(g, "1x2")
    assert legal(g, SPOT_ON) is allowed


@pytest.mark.parametrize("name", SPOT_ON_PRESETS)
def test_spot_on_min_players(name: str) -> None:
    # Two players left in a three-seat game.
    g = deal(name, [[3, 3, 4, 5, 6], [2, 3, 4, 5, 6], []], start_total=15)
    play(g, "2x3")
    if SPOT_ON_TABLE[name][3] == 3:
        assert_illegal(g, SPOT_ON, "at least 3 players")
    else:
        assert legal(g, SPOT_ON)
    # With three players in the game spot-on is allowed in every spot-on preset.
    g = deal(name, [[3, 3, 4, 5, 6], [2, 3, 4, 5, 6], [2, 4, 5, 6, 6]])
    play(g, "2x3")
    assert legal(g, SPOT_ON)


def test_right_spot_on_gain_never_above_dice_per_player() -> None:
    rules = preset("dudo-legacy", dice_per_player=3, pass_hands="none", pass_allows_spot_on="no")
    g = deal(rules, [[3, 1, 4], [3, 5, 6], [2, 4, 5]])
    events = play(g, "3x3", "spot-on")
    assert only(events, Revealed).count == 3
    assert of_type(events, DieWon) == []
    assert g.counts == (3, 3, 3)
