"""docs/rules.md section 2, pass (paso) and doubting the pass (dudo el paso)."""

from __future__ import annotations

import pytest

from dudo.engine import (
    CALL,
    DOUBT_PASS,
    PASS,
    SPOT_ON,
    Bid,
    DiceLost,
    DieWon,
    PassDoubted,
    Passed,
    PassHand,
    Revealed,
    pass_hand,
    preset,
)
from dudo.engine.counting import may_hold_pass_hand

from .conftest import PRESET_NAMES, assert_illegal, deal, legal, only, play

FH, FK, FD = PassHand.FULL_HOUSE, PassHand.FIVE_KIND, PassHand.FIVE_DIFFERENT
ALL = frozenset({FH, FK, FD})

# (pass hands, min players, spot-on allowed after a pass) per preset: docs/rules.md section 3.
PASS_TABLE: dict[str, tuple[frozenset[PassHand], int, bool]] = {
    "dudo": (ALL, 2, False),
    "dudo-legacy": (frozenset({FD}), 2, True),
    "dudo-equalize": (ALL, 2, False),
    "dudo-app": (frozenset(), 2, False),
    "perudo": (frozenset(), 2, False),
    "cacho": (ALL, 3, False),
    "liars-dice": (frozenset(), 2, False),
}
PASS_PRESETS = tuple(n for n in PRESET_NAMES if PASS_TABLE[n][0])
NO_PASS_PRESETS = tuple(n for n in PRESET_NAMES if not PASS_TABLE[n][0])

# A hand, and the pattern it makes (aces are their own face, five dice needed).
HANDS_AND_PATTERNS: list[tuple[list[int], PassHand | None]] = [
    ([2, 2, 3, 3, 3], FH),
    ([4, 1, 4, 1, 4], FH),  # aces are their own face: a pair of aces
    ([1, 1, 1, 6, 6], FH),
    ([6, 6, 6, 6, 6], FK),
    ([1, 1, 1, 1, 1], FK),
    ([2, 3, 4, 5, 6], FD),
    ([1, 2, 3, 4, 6], FD),  # one ace is accepted as different
    ([1, 1, 2, 3, 4], None),  # two aces are not five different
    ([1, 3, 3, 3, 3], None),  # aces are not wild: not five of a kind
    ([1, 2, 2, 3, 3], None),  # nor a full house
    ([2, 2, 3, 4, 5], None),
    ([2, 2, 3, 3, 4], None),
    ([2, 2, 2, 2, 3], None),
]
SHORT_HANDS: list[list[int]] = [[2, 3, 4, 5], [6, 6, 6, 6], [2, 2, 3, 3]]  # four dice: never

OTHER = [2, 3, 5, 5, 6]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_pass_options(name: str) -> None:
    rules = preset(name)
    hands, minimum, spot_after = PASS_TABLE[name]
    assert rules.pass_hands == hands
    if hands:
        assert rules.pass_min_players == minimum
        assert rules.pass_allows_spot_on is spot_after


@pytest.mark.parametrize(("hand", "pattern"), HANDS_AND_PATTERNS)
def test_pass_hand_patterns(hand: list[int], pattern: PassHand | None) -> None:
    assert pass_hand(hand, ALL) == pattern
    for allowed in (frozenset({FD}), frozenset({FH}), frozenset({FK})):
        assert pass_hand(hand, allowed) == (pattern if pattern in allowed else None)


@pytest.mark.parametrize("hand", SHORT_HANDS)
def test_pass_hand_needs_five_dice(hand: list[int]) -> None:
    assert pass_hand(hand, ALL) is None


@pytest.mark.parametrize("name", PASS_PRESETS)
@pytest.mark.parametrize(
    ("hand", "pattern"),
    HANDS_AND_PATTERNS + [(h, None) for h in SHORT_HANDS],
    ids=lambda v: "".join(map(str, v)) if isinstance(v, list) else str(v),
)
def test_doubting_a_pass(name: str, hand: list[int], pattern: PassHand | None) -> None:
    g = deal(name, [OTHER, hand, OTHER])
    play(g, "2x6", "pass")
    assert g.passer == 1
    events = play(g, "doubt-pass")
    assert only(events, PassDoubted) == PassDoubted(2, 1)
    qualifies = pattern is not None and pattern in PASS_TABLE[name][0]
    reveal = only(events, Revealed)
    assert reveal.passer == 1
    assert reveal.pass_hand == (pattern if qualifies else None)
    loser = 2 if qualifies else 1
    lost = only(events, DiceLost)
    assert (lost.player, lost.count) == (loser, 1)
    assert g.opener == loser and g.to_move == loser


@pytest.mark.parametrize("name", PASS_PRESETS)
@pytest.mark.parametrize(("hand", "qualifies"), [([2, 3, 4, 5, 6], True), ([2, 2, 4, 5, 6], False)])
def test_doubted_pass_costs_one_die_under_loss_difference(
    name: str, hand: list[int], qualifies: bool
) -> None:
    g = deal(preset(name, loss="difference"), [OTHER, hand, OTHER])
    events = play(g, "9x6", "pass", "doubt-pass")
    lost = only(events, DiceLost)
    assert (lost.player, lost.count) == ((2, 1) if qualifies else (1, 1))


@pytest.mark.parametrize("name", PASS_PRESETS)
@pytest.mark.parametrize(("hand", "winner"), [([2, 3, 4, 5, 6], 1), ([2, 2, 4, 5, 6], 2)])
def test_doubted_pass_winner_opens_under_next_opener_winner(
    name: str, hand: list[int], winner: int
) -> None:
    g = deal(preset(name, next_opener="winner"), [OTHER, hand, OTHER])
    play(g, "2x6", "pass", "doubt-pass")
    assert g.opener == winner and g.to_move == winner


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_a_bluff_pass_is_allowed(name: str) -> None:
    g = deal(name, [OTHER, [2, 2, 4, 5, 6], OTHER])
    play(g, "2x6")
    assert legal(g, PASS)
    events = play(g, "pass")
    assert only(events, Passed) == Passed(1)
    assert g.bid == Bid(2, 6) and g.bidder == 0  # the standing bid is passed on


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_opener_may_not_pass(name: str) -> None:
    g = deal(name, [[2, 3, 4, 5, 6], OTHER, OTHER])
    assert_illegal(g, PASS, "must bid")


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_no_two_consecutive_passes(name: str) -> None:
    g = deal(name, [OTHER, OTHER, [2, 3, 4, 5, 6]])
    play(g, "2x6", "pass")
    assert_illegal(g, PASS, "two passes")


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_each_player_passes_at_most_once_per_round(name: str) -> None:
    g = deal(name, [OTHER, [2, 3, 4, 5, 6], OTHER])
    play(g, "2x6", "pass", "3x6", "4x6")
    assert g.to_move == 1
    assert_illegal(g, PASS, "once per round")
    # Another player may still pass, once the pass is no longer the last action.
    play(g, "5x6")
    assert legal(g, PASS)
    # In the next round player 1 may pass again.
    g = deal(name, [OTHER, [2, 3, 4, 5, 6], OTHER])
    play(g, "2x6", "pass", "doubt-pass")  # a real five different: player 2 loses, opens
    assert g.opener == 2 and g.passed == frozenset()
    play(g, "2x6", "3x6")
    assert g.to_move == 1
    assert legal(g, PASS)


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_after_a_pass_raise_or_doubt_but_never_call(name: str) -> None:
    g = deal(name, [OTHER, [2, 3, 4, 5, 6], OTHER])
    play(g, "3x4", "pass")
    actions = g.legal_actions()
    assert DOUBT_PASS in actions
    assert CALL not in actions
    assert_illegal(g, CALL, "pass")
    assert (SPOT_ON in actions) is PASS_TABLE[name][2]
    # A raise must raise the standing (pre-pass) bid.
    assert_illegal(g, "3x3", "3x4")
    assert legal(g, "3x5")
    play(g, "4x4")
    # The pass is over: the next player may call, and there is no pass to doubt.
    assert g.passer is None
    assert legal(g, CALL)
    assert_illegal(g, DOUBT_PASS, "no pass")


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_no_pass_to_doubt_without_a_pass(name: str) -> None:
    g = deal(name, [OTHER, OTHER, OTHER])
    play(g, "3x4")
    assert_illegal(g, DOUBT_PASS, "no pass")


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_spot_on_after_a_pass_only_with_pass_allows_spot_on(name: str) -> None:
    # Count of sixes: 1 + 1 = 2 (no aces anywhere).
    hands = [OTHER, [2, 3, 4, 5, 6], [2, 3, 4, 4]]
    g = deal(name, hands)
    play(g, "2x6", "pass")
    if PASS_TABLE[name][2]:
        events = play(g, "spot-on")
        assert only(events, Revealed).count == 2
        assert only(events, DieWon) == DieWon(2, 5)
    else:
        assert_illegal(g, SPOT_ON, "pass")
    # As a house rule, every pass preset can allow it.
    g = deal(preset(name, pass_allows_spot_on="true"), hands)
    play(g, "2x6", "pass")
    events = play(g, "spot-on")
    assert only(events, Revealed).bid == Bid(2, 6)


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_pass_min_players(name: str) -> None:
    g = deal(name, [OTHER, [2, 3, 4, 5, 6], []])
    play(g, "2x6")
    if PASS_TABLE[name][1] == 3:
        assert_illegal(g, PASS, "at least 3 players")
    else:
        assert legal(g, PASS)


@pytest.mark.parametrize("name", NO_PASS_PRESETS)
def test_no_pass_in_presets_without_pass(name: str) -> None:
    g = deal(name, [OTHER, [2, 3, 4, 5, 6], OTHER])
    play(g, "2x6")
    assert_illegal(g, PASS, "not played")
    assert_illegal(g, DOUBT_PASS)


def test_only_a_player_on_five_dice_may_hold_a_pass_hand() -> None:
    # Every pass hand is a pattern of five dice: on fewer, a pass can only be a bluff.
    allowed = preset("dudo").pass_hands
    assert may_hold_pass_hand(5, allowed)
    assert not any(may_hold_pass_hand(n, allowed) for n in (1, 2, 3, 4, 6))
    assert not may_hold_pass_hand(5, frozenset())  # rules without pass hands
    assert pass_hand((2, 3, 4, 5), allowed) is None
