"""docs/rules.md section 2 and 6, the obliging round (obligo / palo fijo / palifico)."""

from __future__ import annotations

import pytest

from dudo.engine import (
    CALL,
    CLOSED,
    OPEN,
    PASS,
    SPOT_ON,
    Bid,
    Game,
    ObligeChoice,
    ObligingRound,
    Revealed,
    RoundStarted,
    Rules,
    VisibilityChosen,
    preset,
)

from .conftest import PRESET_NAMES, assert_illegal, deal, legal, of_type, only, play

# (oblige, min players, face change, visibility) per preset: docs/rules.md section 3.
OBLIGE_TABLE: dict[str, tuple[bool, int, str, str]] = {
    "dudo": (True, 2, "single_die", "obliger_chooses"),
    "dudo-legacy": (True, 2, "single_die_veteran", "normal"),
    "dudo-equalize": (True, 2, "nobody", "closed"),
    "dudo-app": (True, 3, "single_die_veteran", "normal"),
    "perudo": (True, 3, "single_die_veteran", "normal"),
    "cacho": (True, 3, "nobody", "obliger_chooses"),
    "liars-dice": (False, 2, "single_die", "obliger_chooses"),
}
OBLIGE_PRESETS = tuple(n for n in PRESET_NAMES if OBLIGE_TABLE[n][0])
CHOOSING = tuple(n for n in OBLIGE_PRESETS if OBLIGE_TABLE[n][3] == "obliger_chooses")

FIVE_DICE = [2, 3, 4, 5, 6]

# Player 0 holds two dice and no threes; nobody holds aces or threes: 5x3 is a bad bid.
TRIGGER = [[2, 4], [2, 4, 5, 6, 6], [2, 4, 5, 5, 6]]


def start(
    rules: Rules | str, hands: list[list[int]], *, obliger: int, obliged: tuple[int, ...] = ()
) -> Game:
    """An obliging round set up directly, the obliger's visibility choice made if needed."""
    g = deal(rules, hands, obliger=obliger, obliged=obliged)
    assert g.obliging and g.obliger == obliger and g.opener == obliger
    finish_choice(g)
    return g


def finish_choice(g: Game, choice: ObligeChoice = CLOSED) -> None:
    if g.phase == "choose_visibility":
        play(g, choice)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_oblige_options(name: str) -> None:
    rules = preset(name)
    on, minimum, face_change, visibility = OBLIGE_TABLE[name]
    assert rules.oblige is on
    if on:
        assert rules.oblige_min_players == minimum
        assert rules.oblige_face_change == face_change
        assert rules.oblige_visibility == visibility


# --- when an obliging round happens ---------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_going_from_two_dice_to_one_triggers_an_obliging_round(name: str) -> None:
    g = deal(name, TRIGGER)
    events = play(g, "5x3", "call")
    assert g.counts == (1, 5, 5)
    started = of_type(events, RoundStarted)[-1]
    if not OBLIGE_TABLE[name][0]:
        assert not g.obliging and not started.obliging
        assert of_type(events, ObligingRound) == []
        return
    assert g.obliging and started.obliging
    assert g.obliger == 0 and g.opener == 0 and g.to_move == 0
    assert 0 in g.obliged
    visibility = OBLIGE_TABLE[name][3]
    expected = None if visibility == "obliger_chooses" else visibility
    assert only(events, ObligingRound) == ObligingRound(0, expected)


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_the_obliger_opens_whatever_next_opener_says(name: str) -> None:
    g = deal(preset(name, next_opener="winner"), TRIGGER)
    play(g, "5x3", "call")  # player 1 wins the call, player 0 obliges
    assert g.obliging and g.opener == 0 and g.to_move == 0


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_a_losing_caller_obliges(name: str) -> None:
    g = deal(name, [[2, 4, 5, 6, 6], [2, 4], [2, 4, 5, 5, 6]])
    play(g, "1x2", "call")
    assert g.counts == (5, 1, 5)
    assert g.obliging and g.obliger == 1 and g.opener == 1


@pytest.mark.parametrize("name", [n for n in OBLIGE_PRESETS if preset(n).spot_on])
def test_a_wrong_spot_on_can_trigger_it(name: str) -> None:
    g = deal(name, [[2, 4, 5, 6, 6], [2, 4], [2, 4, 5, 5, 6]], start_total=12)
    play(g, "5x3", "spot-on")
    assert g.counts == (5, 1, 5)
    assert g.obliging and g.obliger == 1 and g.opener == 1


@pytest.mark.parametrize("name", [n for n in OBLIGE_PRESETS if preset(n).pass_hands])
def test_a_doubted_bluff_pass_can_trigger_it(name: str) -> None:
    g = deal(name, [[2, 4, 5, 6, 6], [2, 4], [2, 4, 5, 5, 6]])
    play(g, "2x6", "pass", "doubt-pass")
    assert g.counts == (5, 1, 5)
    assert g.obliging and g.obliger == 1 and g.opener == 1


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_going_from_three_dice_to_two_does_not(name: str) -> None:
    g = deal(name, [[2, 4, 6], [2, 4, 5, 6, 6], [2, 4, 5, 5, 6]])
    play(g, "5x3", "call")
    assert g.counts == (2, 5, 5)
    assert not g.obliging and g.obliged == frozenset()


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
@pytest.mark.parametrize(
    ("held", "bid", "triggers"),
    [(5, "4x3", True), (3, "2x3", True), (4, "2x3", False), (2, "2x3", False)],
    ids=["5-to-1", "3-to-1", "4-to-2", "2-to-0"],
)
def test_loss_difference_first_drop_to_exactly_one(
    name: str, held: int, bid: str, triggers: bool
) -> None:
    hands = [[2, 4, 5, 6, 6][:held], [2, 4, 5, 6, 6], [2, 4, 5, 5, 6]]
    g = deal(preset(name, loss="difference"), hands)
    play(g, bid, "call")  # no threes, no aces: the bidder loses the whole quantity
    assert g.obliging is triggers
    assert (g.obliger == 0) is triggers


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_each_player_obliges_at_most_once(name: str) -> None:
    g = deal(name, TRIGGER, obliged=(0,))
    play(g, "5x3", "call")
    assert g.counts == (1, 5, 5)
    assert not g.obliging
    assert g.opener == 0  # the ordinary loser opens


@pytest.mark.parametrize("name", [n for n in OBLIGE_PRESETS if preset(n).spot_on_reward == "gain"])
def test_regaining_a_die_and_dropping_again_does_not_oblige_again(name: str) -> None:
    later = [
        [2],  # round 2 (obliging): player 0
        [2, 4, 5, 6, 6],
        [3, 4, 5, 5, 6],
        [3],  # round 3: two threes on the table, no aces
        [2, 4, 5, 6],
        [2, 3, 5, 5, 6],
        [2, 4],  # round 4: player 0 holds two dice again, no threes
        [2, 4, 5, 6],
        [2, 4, 5, 5, 6],
    ]
    g = deal(name, TRIGGER, later=later, start_total=12)
    play(g, "5x3", "call")  # 2 -> 1: obliging round
    assert g.obliging and g.obliger == 0
    finish_choice(g)
    play(g, "1x2", "call")  # a natural two: the caller loses
    assert not g.obliging and g.counts == (1, 4, 5) and g.opener == 1
    play(g, "1x3", "2x3", "spot-on")  # player 0 is right and wins a die back
    assert g.counts == (2, 4, 5)
    assert g.opener == 0
    play(g, "5x3", "call")  # 2 -> 1 again
    assert g.counts == (1, 4, 5)
    assert not g.obliging


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_oblige_min_players_is_checked_after_the_resolution(name: str) -> None:
    # Three seats, one already out: two players remain.
    g = deal(name, [[2, 4], [2, 4, 5, 6, 6], []], start_total=15)
    play(g, "5x3", "call")
    assert g.counts == (1, 5, 0)
    assert g.obliging is (OBLIGE_TABLE[name][1] == 2)


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_oblige_min_players_three_with_three_players(name: str) -> None:
    g = deal(name, TRIGGER)
    play(g, "5x3", "call")
    assert g.obliging


# --- the obliging round's bidding -----------------------------------------------------------


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_aces_are_not_wild(name: str) -> None:
    g = start(name, [[1], [3, 1, 1], [3, 4, 5]], obliger=0)
    assert g.obliging
    assert g.count(Bid(2, 3)) == 2
    assert g.count(Bid(3, 1)) == 3
    events = play(g, "3x3", "call")
    reveal = only(events, Revealed)
    assert (reveal.count, reveal.wild_aces) == (2, False)
    assert g.counts[0] == 0  # the bidder lost


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
@pytest.mark.parametrize("bid", ["1x1", "2x1", "3x1", "1x2", "4x6"])
def test_the_obliger_may_open_on_any_face(name: str, bid: str) -> None:
    g = start(name, [[2], [3, 4, 5], [3, 4, 5]], obliger=0)
    assert legal(g, bid)
    play(g, bid)


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_no_spot_on_and_no_pass(name: str) -> None:
    g = start(name, [[2], [2, 3, 4, 5, 6], [3, 4, 5, 6, 6]], obliger=0)
    play(g, "2x4")
    assert_illegal(g, SPOT_ON, "obliging")
    assert_illegal(g, PASS, "obliging" if preset(name).pass_hands else "not played")
    assert [a for a in g.legal_actions() if not isinstance(a, Bid)] == [CALL]


# Seats: 0 the obliger (one die, obliged), 1 a one-die veteran (obliged earlier),
# 2 a one-die player who has not obliged, 3 a three-dice player.
FACE_HANDS = [[3], [4], [5], [2, 2, 6]]
MAY_CHANGE = {
    "nobody": {0: False, 1: False, 2: False, 3: False},
    "single_die": {0: True, 1: True, 2: True, 3: False},
    "single_die_veteran": {0: False, 1: True, 2: False, 3: False},
}


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_who_may_change_the_face(name: str) -> None:
    rule = OBLIGE_TABLE[name][2]
    g = start(name, FACE_HANDS, obliger=0, obliged=(1,))
    assert g.obliged == frozenset({0, 1})
    play(g, "1x3")
    # (seat to act, a face change that is a legal raise, the same-face raise to continue)
    for seat, change, keep in [
        (1, "1x4", "2x3"),
        (2, "2x4", "3x3"),
        (3, "3x4", "4x3"),
        (0, "4x4", "5x3"),
    ]:
        assert g.to_move == seat
        if MAY_CHANGE[rule][seat]:
            assert legal(g, change), (seat, change)
        else:
            assert_illegal(g, change, "may not change the face")
        assert legal(g, keep)
        play(g, keep)


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_keeping_the_face_means_raising_the_quantity(name: str) -> None:
    g = start(name, FACE_HANDS, obliger=0, obliged=(1,))
    play(g, "2x3")
    assert_illegal(g, "2x3")
    assert_illegal(g, "1x3")
    assert legal(g, "3x3")
    assert legal(g, "6x3")


def face_changer(rules: Rules) -> Game:
    """Obliging round where seat 1 (one die, a veteran) may change the face, after 3x4."""
    g = start(rules, [[2], [3], [4, 4, 4, 4, 5]], obliger=0, obliged=(1,))
    play(g, "3x4")
    return g


@pytest.mark.parametrize("name", [n for n in OBLIGE_PRESETS if OBLIGE_TABLE[n][2] != "nobody"])
def test_a_face_change_is_a_legal_raise_with_aces_lowest(name: str) -> None:
    rules = preset(name)
    g = face_changer(rules)
    if rules.raise_mode == "any_face":
        for ok in ("4x1", "4x2", "3x5", "3x6", "7x1"):
            assert legal(g, ok), ok
        for bad in ("3x1", "3x2", "3x3", "2x6", "2x1", "1x1"):
            assert_illegal(g, bad)
    else:  # nondecreasing
        for ok in ("3x5", "4x5", "4x6", "7x6"):
            assert legal(g, ok), ok
        for bad in ("4x1", "4x3", "3x1", "2x1", "3x3", "2x6"):
            assert_illegal(g, bad)


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_any_face_face_change_3x4_to_4x1(name: str) -> None:
    g = face_changer(preset(name, raise_mode="any_face", oblige_face_change="single_die"))
    assert legal(g, "4x1")
    assert_illegal(g, "3x1")
    assert_illegal(g, "2x1")  # no ace arithmetic


@pytest.mark.parametrize("aces_rank", ["low", "high"])
def test_index_obliging_round_ranks_aces_lowest(aces_rank: str) -> None:
    g = face_changer(preset("liars-dice", oblige="true", aces_rank=aces_rank))
    assert g.obliging
    assert legal(g, "4x1")
    assert legal(g, "3x5")
    assert_illegal(g, "3x1")


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_no_ace_arithmetic_from_aces(name: str) -> None:
    g = start(preset(name, oblige_face_change="single_die"), [[2], [3], [4, 4, 4, 4, 5]], obliger=0)
    play(g, "2x1")
    # Seat 1 may change the face: a plain raise, no 2a+1 needed.
    assert legal(g, "2x2")
    assert legal(g, "3x4")


# --- visibility ----------------------------------------------------------------------------

VIS_HANDS = [[3], [4], [2, 5, 6]]


def assert_spectator_sees_nothing(g: Game) -> None:
    view = g.view(None)
    assert view.my_dice is None
    assert all(seen is None for seen in view.seen_dice)
    assert view.known_dice == ()


@pytest.mark.parametrize("name", [n for n in OBLIGE_PRESETS if n not in CHOOSING])
def test_normal_and_closed_visibility(name: str) -> None:
    visibility = OBLIGE_TABLE[name][3]
    g = deal(name, VIS_HANDS, obliger=0)
    assert g.visibility == visibility
    for p, hand in enumerate(VIS_HANDS):
        view = g.view(p)
        sees_own = visibility == "normal" or len(hand) == 1
        assert (view.my_dice is not None) is sees_own, p
        if sees_own:
            assert sorted(view.my_dice or ()) == sorted(hand)
        for q in range(3):
            if q != p:
                assert view.seen_dice[q] is None
    assert_spectator_sees_nothing(g)


@pytest.mark.parametrize("name", CHOOSING)
def test_obliger_chooses_before_the_dice_are_dealt(name: str) -> None:
    later = [[3], [2, 5, 6, 6, 6], [4, 4, 5, 5, 6]]
    g = deal(name, TRIGGER, later=later)
    play(g, "5x3", "call")
    assert g.phase == "choose_visibility" and g.visibility is None
    assert g.to_move == 0
    assert g.legal_actions() == [OPEN, CLOSED]
    assert g.legal_actions(1) == [] and g.legal_actions(2) == []
    chance_before = len(g.chance_log)
    assert g.hidden == ((), (), ())  # nothing dealt yet
    for p in range(3):
        assert g.view(p).my_dice is None
        assert all(seen is None for seen in g.view(p).seen_dice)
    assert_illegal(g, "1x3", "choose")
    assert_illegal(g, "call")
    events = play(g, "open")
    assert only(events, VisibilityChosen) == VisibilityChosen(0, True)
    assert len(g.chance_log) == chance_before + 3  # dealt after the choice
    assert [sorted(h) for h in g.hidden] == later
    assert g.phase == "bidding"


@pytest.mark.parametrize("name", CHOOSING)
def test_open_round_everyone_sees_everybody_but_themselves(name: str) -> None:
    g = deal(name, VIS_HANDS, obliger=0)
    play(g, "open")
    assert g.visibility == "open"
    for p in range(3):
        view = g.view(p)
        assert view.my_dice is None
        for q, hand in enumerate(VIS_HANDS):
            seen = view.seen_dice[q]
            if q == p:
                assert seen is None
            else:
                assert seen is not None and sorted(seen) == sorted(hand)
    assert_spectator_sees_nothing(g)


@pytest.mark.parametrize("name", CHOOSING)
def test_closed_round_only_one_die_players_see_their_own(name: str) -> None:
    g = deal(name, VIS_HANDS, obliger=0)
    play(g, "closed")
    assert g.visibility == "closed"
    assert g.view(0).my_dice == (3,)
    assert g.view(1).my_dice == (4,)
    assert g.view(2).my_dice is None
    for p in range(3):
        for q in range(3):
            if q != p or p == 2:
                assert g.view(p).seen_dice[q] is None
    assert_spectator_sees_nothing(g)


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_no_visibility_choice_outside_a_choosing_obliging_round(name: str) -> None:
    g = deal(name, TRIGGER)
    assert_illegal(g, OPEN, "no open or closed choice")
    if OBLIGE_TABLE[name][3] != "obliger_chooses":
        g = deal(name, VIS_HANDS, obliger=0)
        assert_illegal(g, CLOSED, "no open or closed choice")
    else:
        g = deal(name, VIS_HANDS, obliger=0)
        play(g, "open")
        assert_illegal(g, CLOSED, "no open or closed choice")


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_spectator_never_sees_hidden_dice_in_an_ordinary_round(name: str) -> None:
    g = deal(name, TRIGGER)
    assert_spectator_sees_nothing(g)


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_no_free_transform_after_an_obliging_opening_on_aces(name: str) -> None:
    # Seat 1 holds five dice, so it may never change the face in an obliging round.
    g = start(preset(name, open_on_aces="free_transform"), [[2], FIVE_DICE, FIVE_DICE], obliger=0)
    play(g, "2x1")
    assert_illegal(g, "1x3", "may not change the face")
    assert_illegal(g, "5x3", "may not change the face")
    assert legal(g, "3x1")
