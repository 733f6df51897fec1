"""docs/rules.md section 2, open_on_aces: never, one_die_only, free_transform, always."""

from __future__ import annotations

import pytest

from dudo.engine import Bid, preset

from .conftest import PRESET_NAMES, assert_illegal, deal, legal, play

OPEN_ON_ACES = {
    "dudo": "one_die_only",
    "dudo-legacy": "free_transform",
    "dudo-equalize": "free_transform",
    "dudo-app": "never",
    "perudo": "never",
    "cacho": "one_die_only",
    "liars-dice": "always",
}
FREE_TRANSFORM = ("dudo-legacy", "dudo-equalize")
FIVE = [2, 3, 4, 5, 6]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_open_on_aces(name: str) -> None:
    assert preset(name).open_on_aces == OPEN_ON_ACES[name]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_opening_on_aces_with_five_dice(name: str) -> None:
    g = deal(name, [FIVE, FIVE])
    if OPEN_ON_ACES[name] in ("free_transform", "always"):
        play(g, "2x1")
        assert g.bid == Bid(2, 1)
    else:
        assert_illegal(g, "2x1", "aces", "open_on_aces")
        assert_illegal(g, "1x1", "open_on_aces")
        assert not any(isinstance(a, Bid) and a.face == 1 for a in g.legal_actions())


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_opening_on_aces_with_two_dice(name: str) -> None:
    g = deal(name, [[3, 4], FIVE])
    if OPEN_ON_ACES[name] in ("free_transform", "always"):
        assert legal(g, "1x1")
    else:
        assert_illegal(g, "1x1", "open_on_aces")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_opening_on_aces_with_one_die(name: str) -> None:
    g = deal(name, [[4], FIVE])
    if OPEN_ON_ACES[name] == "never":
        assert_illegal(g, "1x1", "open_on_aces=never")
    else:
        play(g, "1x1")
        assert g.bid == Bid(1, 1)


@pytest.mark.parametrize("name", FREE_TRANSFORM)
def test_free_transform_next_player_may_bid_any_non_ace_bid(name: str) -> None:
    for candidate in ("1x2", "1x3", "2x2", "3x6", "10x2", "1x6"):
        g = deal(name, [FIVE, FIVE])
        play(g, "2x1", candidate)
        assert g.bid is not None and str(g.bid) == candidate


@pytest.mark.parametrize("name", FREE_TRANSFORM)
def test_free_transform_aces_must_be_raised_normally(name: str) -> None:
    g = deal(name, [FIVE, FIVE])
    play(g, "2x1")
    assert_illegal(g, "2x1", "quantity")
    assert_illegal(g, "1x1", "quantity")
    assert legal(g, "3x1")


@pytest.mark.parametrize("name", FREE_TRANSFORM)
def test_free_transform_then_normal_rules_after_a_transform(name: str) -> None:
    g = deal(name, [FIVE, FIVE, FIVE])
    play(g, "2x1", "1x3")
    # Player 2 is back under nondecreasing raises with ace arithmetic.
    assert_illegal(g, "1x2", "face may not go down")
    assert legal(g, "2x3")
    assert legal(g, "1x1")  # ceil(1/2) = 1 ace


@pytest.mark.parametrize("name", FREE_TRANSFORM)
def test_free_transform_ends_when_the_aces_are_raised(name: str) -> None:
    g = deal(name, [FIVE, FIVE, FIVE])
    play(g, "2x1", "3x1")
    assert_illegal(g, "1x3")
    assert_illegal(g, "6x4", "at least 7")
    assert legal(g, "7x4")


@pytest.mark.parametrize("name", FREE_TRANSFORM)
def test_free_transform_survives_a_pass(name: str) -> None:
    g = deal(name, [FIVE, FIVE, FIVE])
    play(g, "2x1", "pass")
    assert g.bid == Bid(2, 1)
    assert legal(g, "1x3")
    play(g, "1x3")
    assert g.bid == Bid(1, 3)


@pytest.mark.parametrize("name", FREE_TRANSFORM)
def test_no_free_transform_after_a_non_ace_opening(name: str) -> None:
    g = deal(name, [FIVE, FIVE, FIVE])
    play(g, "2x3")
    assert_illegal(g, "1x4")
    play(g, "1x1")  # ceil(2/2) = 1 ace: a normal raise, not the round's opening bid
    assert_illegal(g, "2x4", "at least 3")


@pytest.mark.parametrize("name", FREE_TRANSFORM)
def test_free_transform_from_a_one_die_opener(name: str) -> None:
    g = deal(name, [[4], FIVE])
    play(g, "1x1", "1x2")
    assert g.bid == Bid(1, 2)


@pytest.mark.parametrize("name", [n for n in PRESET_NAMES if n not in FREE_TRANSFORM])
def test_free_transform_as_a_house_rule(name: str) -> None:
    g = deal(preset(name, open_on_aces="free_transform"), [FIVE, FIVE, FIVE])
    play(g, "3x1", "1x2")
    assert g.bid == Bid(1, 2)


def test_always_opens_on_aces_then_normal_index_raises() -> None:
    g = deal("liars-dice", [FIVE, FIVE])
    play(g, "1x1")
    assert legal(g, "1x2")
    assert_illegal(g, "1x1", "fixed order")


@pytest.mark.parametrize("name", ["dudo", "cacho"])
def test_one_die_only_aces_by_raise_are_fine(name: str) -> None:
    g = deal(name, [FIVE, FIVE])
    play(g, "2x3", "1x1")
    assert g.bid == Bid(1, 1)
