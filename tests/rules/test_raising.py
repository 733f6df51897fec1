"""docs/rules.md section 2, Raising: raise_mode, aces_rank and ace arithmetic, for every preset."""

from __future__ import annotations

import pytest

from dudo.engine import CALL, Bid, Game, Rules, preset
from dudo.engine.bids import RaiseContext, bid_table

from .conftest import PRESET_NAMES, assert_illegal, deal, legal, play

ANY_FACE = ("dudo", "perudo")
NONDECREASING = ("dudo-legacy", "dudo-equalize", "dudo-app", "cacho")
ACE_ARITHMETIC = ANY_FACE + NONDECREASING  # aces wild and raise_mode is not index

PLAIN = [2, 3, 4, 5, 6]  # hands do not matter for legality


def after(rules: Rules | str, *bids: str, players: int = 2) -> Game:
    """A game of ``players`` five-dice players where ``bids`` have been made in turn."""
    g = deal(rules, [PLAIN] * players)
    play(g, *bids)
    return g


def bids_of(rules: Rules, dice: int) -> list[Bid]:
    return [Bid(q, f) for q in range(1, dice + 1) for f in range(1, rules.faces + 1)]


# --- from 5x3, every preset ----------------------------------------------------------------

# (candidate, legal?) from a standing 5x3 for each raise mode.
FROM_5X3: dict[str, dict[str, bool]] = {
    "any_face": {
        "6x2": True,
        "6x3": True,
        "5x4": True,
        "7x6": True,
        "5x2": False,
        "4x6": False,
        "5x3": False,
    },
    "nondecreasing": {
        "6x3": True,
        "5x4": True,
        "7x6": True,
        "6x2": False,
        "5x2": False,
        "4x6": False,
        "4x4": False,
        "5x3": False,
    },
    "index": {
        "6x2": True,
        "6x3": True,
        "5x4": True,
        "7x6": True,
        "6x1": True,
        "5x2": False,
        "4x6": False,
        "5x1": False,
        "5x3": False,
    },
}
MODE = {name: ("any_face" if name in ANY_FACE else "nondecreasing") for name in ACE_ARITHMETIC}
MODE["liars-dice"] = "index"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_raise_mode(name: str) -> None:
    assert preset(name).raise_mode == MODE[name]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_raises_from_5x3(name: str) -> None:
    for candidate, ok in FROM_5X3[MODE[name]].items():
        g = after(name, "5x3")
        if ok:
            assert legal(g, candidate), candidate
            play(g, candidate)
            assert g.bid == play_bid(candidate)
        else:
            assert_illegal(g, candidate, "5x3")


def play_bid(text: str) -> Bid:
    q, f = text.split("x")
    return Bid(int(q), int(f))


@pytest.mark.parametrize("name", ANY_FACE)
def test_any_face_messages_say_why(name: str) -> None:
    g = after(name, "5x3")
    assert_illegal(g, "5x2", "face must go up")
    assert_illegal(g, "4x6", "quantity may not go down")
    assert_illegal(g, "5x3", "same bid")


@pytest.mark.parametrize("name", NONDECREASING)
def test_nondecreasing_messages_say_why(name: str) -> None:
    g = after(name, "5x3")
    assert_illegal(g, "6x2", "face may not go down")
    assert_illegal(g, "4x4", "quantity may not go down")
    assert_illegal(g, "5x3", "same bid")


# --- index mode ----------------------------------------------------------------------------

LOW_ORDER_2 = [Bid(q, f) for q in (1, 2) for f in (1, 2, 3, 4, 5, 6)]
HIGH_ORDER_2 = [Bid(q, f) for q in (1, 2) for f in (2, 3, 4, 5, 6, 1)]


@pytest.mark.parametrize(("aces_rank", "order"), [("low", LOW_ORDER_2), ("high", HIGH_ORDER_2)])
def test_index_order_is_quantity_then_face(aces_rank: str, order: list[Bid]) -> None:
    rules = preset("liars-dice", aces_rank=aces_rank)
    assert list(bid_table(rules, 2, False).bids) == order
    # In play: from every bid, the legal raises are exactly the bids above it in the order.
    for i, standing in enumerate(order):
        g = deal(rules, [[3], [5]])
        play(g, str(standing))
        raises = [a for a in g.legal_actions() if isinstance(a, Bid)]
        assert raises == order[i + 1 :], standing
        for lower in order[: i + 1]:
            assert_illegal(g, lower, "fixed order")


def test_index_low_aces_lowest_at_each_quantity() -> None:
    g = after("liars-dice", "1x6")
    assert legal(g, "2x1")
    g = after("liars-dice", "2x1")
    assert legal(g, "2x2")
    assert_illegal(g, "1x6", "1x1 < 1x2")


def test_index_high_aces_highest_at_each_quantity() -> None:
    rules = preset("liars-dice", aces_rank="high")
    g = after(rules, "1x6")
    assert legal(g, "1x1")
    g = after(rules, "1x1")
    assert legal(g, "2x2")
    assert_illegal(g, "1x6", "1x6 < 1x1")
    g = after(rules, "2x6")
    assert legal(g, "2x1")
    assert_illegal(g, "2x5")


@pytest.mark.parametrize("aces_rank", ["low", "high"])
def test_index_has_no_ace_arithmetic(aces_rank: str) -> None:
    rules = preset("liars-dice", aces_rank=aces_rank)
    g = after(rules, "4x3")
    assert_illegal(g, "2x1", "fixed order")  # would be legal with ceil_half
    assert_illegal(g, "3x1")
    assert legal(g, "5x1")
    g = after(rules, "2x1")
    assert legal(g, "3x2")  # double_plus_one would need 5
    assert legal(g, "2x3") is (aces_rank == "low")


def test_liars_dice_call_is_the_only_other_action() -> None:
    g = after("liars-dice", "3x4")
    actions = g.legal_actions()
    assert actions[-1] == CALL
    assert all(isinstance(a, Bid) for a in actions[:-1])


# --- ace arithmetic -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_ace_arithmetic_options_of_presets(name: str) -> None:
    rules = preset(name)
    assert (rules.aces_to, rules.aces_from) == ("ceil_half", "double_plus_one")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_ceil_half_six_twos_to_three_aces(name: str) -> None:
    g = after(name, "6x2")
    assert legal(g, "3x1")
    assert_illegal(g, "2x1", "at least 3 aces")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_ceil_half_five_threes_to_three_aces(name: str) -> None:
    g = after(name, "5x3")
    assert legal(g, "3x1")
    assert_illegal(g, "2x1", "at least 3 aces")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_ceil_half_eleven_fives_to_six_aces(name: str) -> None:
    g = after(name, "11x5", players=3)
    assert legal(g, "6x1")
    assert_illegal(g, "5x1", "at least 6 aces")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_double_plus_one_four_aces_to_nine_anything(name: str) -> None:
    g = after(name, "5x3", "3x1", "4x1")
    for face in (2, 3, 4, 5, 6):
        assert legal(g, Bid(9, face))
        assert_illegal(g, Bid(8, face), "at least 9")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_double_plus_one_two_aces_to_five_anything(name: str) -> None:
    g = after(name, "3x3", "2x1")
    assert legal(g, "5x2")
    assert legal(g, "5x6")
    assert_illegal(g, "4x6", "at least 5")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_three_aces_to_seven_fours(name: str) -> None:
    g = after(name, "6x2", "3x1")
    assert legal(g, "7x4")
    assert_illegal(g, "6x4")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_aces_to_aces_any_higher_quantity(name: str) -> None:
    g = after(name, "3x3", "2x1")
    assert legal(g, "3x1")
    assert legal(g, "7x1")
    assert_illegal(g, "2x1", "quantity must go up")
    assert_illegal(g, "1x1")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_floor_half_plus_one_and_double(name: str) -> None:
    rules = preset(name, aces_to="floor_half_plus_one", aces_from="double")
    g = after(rules, "6x2")
    assert legal(g, "4x1")
    assert_illegal(g, "3x1", "at least 4 aces")
    g = after(rules, "5x3")
    assert legal(g, "3x1")
    assert_illegal(g, "2x1", "at least 3 aces")
    g = after(rules, "3x3", "2x1")
    assert legal(g, "4x2")
    assert_illegal(g, "3x6", "at least 4")
    g = after(rules, "5x3", "3x1", "4x1")
    assert legal(g, "8x2")
    assert_illegal(g, "7x6", "at least 8")


@pytest.mark.parametrize("name", ACE_ARITHMETIC)
def test_floor_half_plus_one_with_double_plus_one(name: str) -> None:
    rules = preset(name, aces_to="floor_half_plus_one")
    g = after(rules, "4x5")
    assert legal(g, "3x1")
    assert_illegal(g, "2x1", "at least 3 aces")  # ceil_half would allow 2
    g = after(rules, "3x3", "2x1")
    assert_illegal(g, "4x6", "at least 5")


@pytest.mark.parametrize("name", ANY_FACE)
def test_any_face_aces_sit_just_above_twice_as_many_sixes(name: str) -> None:
    g = after(name, "6x2", "3x1")
    assert legal(g, "7x2")
    play(g, "7x2")
    g = after(name, "6x2", "3x1")
    assert_illegal(g, "6x6")
    g = after(name, "6x6")
    assert legal(g, "3x1")


@pytest.mark.parametrize("name", ANY_FACE)
def test_any_face_floor_double_aces_sit_just_above_2n_minus_1_sixes(name: str) -> None:
    rules = preset(name, aces_to="floor_half_plus_one", aces_from="double")
    g = after(rules, "5x6")
    assert legal(g, "3x1")
    g = after(rules, "6x6")
    assert_illegal(g, "3x1")
    g = after(rules, "5x6", "3x1")
    assert legal(g, "6x2")
    assert_illegal(g, "5x6")


def total_order(rules: Rules, dice: int) -> list[Bid]:
    """The bids sorted so that each bid's legal raises are exactly the bids after it,
    asserting that such an order exists (the raise relation is a strict total order)."""
    table = bid_table(rules, dice, False)
    every = bids_of(rules, dice)
    raises = {b: set(table.raises(RaiseContext.NORMAL, b)) for b in every}
    order = sorted(every, key=lambda b: -len(raises[b]))
    for i, b in enumerate(order):
        assert raises[b] == set(order[i + 1 :]), f"{b} breaks the total order"
    return order


@pytest.mark.parametrize("name", ANY_FACE)
@pytest.mark.parametrize(
    ("options", "offset"),
    [({}, 0), ({"aces_to": "floor_half_plus_one", "aces_from": "double"}, 1)],
    ids=["ceil_half-double_plus_one", "floor_half_plus_one-double"],
)
def test_any_face_with_ace_arithmetic_is_one_total_order(
    name: str, options: dict[str, str], offset: int
) -> None:
    # n aces sit just above 2n sixes (ceil_half/double_plus_one) or 2n-1 sixes (floor/double).
    rules = preset(name, **options)
    order = total_order(rules, 10)
    for n in range(1, 6):
        i = order.index(Bid(n, 1))
        assert order[i - 1] == Bid(2 * n - offset, 6), (n, order[i - 1])


@pytest.mark.parametrize("name", NONDECREASING)
def test_nondecreasing_with_ace_arithmetic_is_a_partial_order(name: str) -> None:
    rules = preset(name)
    table = bid_table(rules, 10, False)
    assert Bid(6, 2) not in table.raises(RaiseContext.NORMAL, Bid(5, 3))
    assert Bid(5, 3) not in table.raises(RaiseContext.NORMAL, Bid(6, 2))
    g = after(name, "5x3")
    assert_illegal(g, "6x2")
