"""docs/rules.md section 2 and 6, reveal_reroll: set dice aside face up and re-roll the rest."""

from __future__ import annotations

import pytest

from dudo.engine import (
    Bid,
    BidMade,
    DiceLost,
    RevealBid,
    Revealed,
    Rules,
    preset,
)

from .conftest import PRESET_NAMES, assert_illegal, deal, legal, only, play

OBLIGE_PRESETS = tuple(n for n in PRESET_NAMES if preset(n).oblige)
REROLL = [2, 2, 2]  # the re-rolled dice


def rr(name: str, **options: str) -> Rules:
    return preset(name, reveal_reroll="true", **options)


def reveal(bid: str, *dice: int) -> RevealBid:
    q, f = bid.split("x")
    return RevealBid(Bid(int(q), int(f)), dice)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_reveal_reroll_is_off_in_every_preset(name: str) -> None:
    g = deal(name, [[3, 4, 5, 6, 6], [3, 3, 1, 5, 6]])
    play(g, "3x3")
    assert_illegal(g, reveal("4x3", 3, 3), "reveal_reroll")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_not_on_the_opening_bid(name: str) -> None:
    g = deal(rr(name), [[3, 3, 1, 5, 6], [3, 4, 5, 6, 6]])
    assert_illegal(g, reveal("3x3", 3, 3), "raises only")
    assert not any(isinstance(a, RevealBid) for a in g.legal_actions())


@pytest.mark.parametrize("name", OBLIGE_PRESETS)
def test_not_in_an_obliging_round(name: str) -> None:
    g = deal(rr(name), [[3], [3, 3, 1, 5, 6], [2, 4, 5, 6, 6]], obliger=0)
    if g.phase == "choose_visibility":
        play(g, "closed")
    play(g, "1x3")
    assert_illegal(g, reveal("2x3", 3, 3), "obliging")
    assert not any(isinstance(a, RevealBid) for a in g.legal_actions())


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_reveal_and_reroll_on_a_raise(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3, 3, 1, 5, 6]], later=[REROLL])
    play(g, "3x3")
    action = reveal("4x3", 3, 3)
    assert action in g.legal_actions()
    events = play(g, action)
    made = only(events, BidMade)
    assert (made.player, made.bid, made.revealed, made.rerolled) == (1, Bid(4, 3), (3, 3), 3)
    assert g.bid == Bid(4, 3) and g.bidder == 1
    assert g.set_aside[1] == (3, 3)
    assert sorted(g.hidden[1]) == REROLL
    assert sorted(g.hand(1)) == [2, 2, 2, 3, 3]
    assert g.counts[1] == 5
    assert g.chance_log[-1].values == tuple(REROLL)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_an_ace_may_be_revealed_where_aces_are_wild(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3, 3, 1, 5, 6]], later=[REROLL])
    play(g, "3x3")
    assert legal(g, reveal("4x3", 1, 3))
    assert legal(g, reveal("4x3", 1))
    assert legal(g, reveal("4x3", 1, 3, 3))


def test_an_ace_may_not_be_revealed_where_aces_are_not_wild() -> None:
    g = deal(rr("dudo", aces_wild="false"), [[3, 4, 5, 6, 6], [3, 3, 1, 5, 6]])
    play(g, "3x3")
    message = assert_illegal(g, reveal("4x3", 1, 3), "must show the bid's face 3")
    assert "or an ace" not in message
    assert legal(g, reveal("4x3", 3))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_revealed_dice_must_show_the_bids_face(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3, 3, 1, 5, 6]])
    play(g, "3x3")
    assert_illegal(g, reveal("4x3", 5), "must show the bid's face")
    assert_illegal(g, reveal("4x3", 3, 6), "must show the bid's face")
    assert_illegal(g, reveal("4x5", 3), "must show the bid's face 5")
    assert legal(g, reveal("4x5", 5))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_revealed_dice_must_be_held(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3, 3, 1, 5, 6]])
    play(g, "3x3")
    assert_illegal(g, reveal("4x3", 3, 3, 3), "do not hold")
    assert_illegal(g, reveal("4x4", 4), "do not hold")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_at_least_one_die_stays_hidden(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3, 3, 3, 3, 3]], later=[[4]])
    play(g, "3x3")
    assert_illegal(g, reveal("6x3", 3, 3, 3, 3, 3), "at least one die must stay hidden")
    assert not any(isinstance(a, RevealBid) and len(a.reveal) == 5 for a in g.legal_actions())
    play(g, reveal("6x3", 3, 3, 3, 3))
    assert len(g.hidden[1]) == 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_single_die_cannot_be_revealed(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3]])
    play(g, "3x3")
    assert_illegal(g, reveal("4x3", 3), "stay hidden")
    assert not any(isinstance(a, RevealBid) for a in g.legal_actions())


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_reveal_needs_a_die_and_a_legal_raise(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3, 3, 1, 5, 6]])
    play(g, "3x3")
    assert_illegal(g, RevealBid(Bid(4, 3), ()), "at least one")
    assert_illegal(g, reveal("3x3", 3), "3x3")
    assert_illegal(g, reveal("2x3", 3), "2x3")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_revealed_dice_are_visible_to_everyone(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3, 3, 1, 5, 6], [2, 2, 4, 4, 5]], later=[REROLL])
    play(g, "3x3", reveal("4x3", 1, 3))
    for viewer in (None, 0, 2):
        view = g.view(viewer)
        assert view.set_aside[1] == (1, 3)
        assert view.seen_dice[1] == (1, 3)  # the set-aside dice, not the hidden ones
    own = g.view(1)
    assert own.seen_dice[1] is not None and sorted(own.seen_dice[1]) == [1, 2, 2, 2, 3]
    assert own.my_dice is not None and sorted(own.my_dice) == REROLL
    # Spectators still see no hidden dice.
    assert g.view(None).seen_dice[0] is None and g.view(None).seen_dice[2] is None


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_revealed_dice_count_at_the_call_and_a_revealed_ace_is_wild(name: str) -> None:
    # Player 0 holds two threes; player 1 sets aside an ace and a three, re-rolls to 2,2,2.
    g = deal(rr(name), [[3, 3, 4, 5, 6], [3, 3, 1, 5, 6]], later=[REROLL])
    play(g, "3x3", reveal("4x3", 1, 3))
    assert g.count(Bid(4, 3)) == 4
    events = play(g, "call")
    shown = only(events, Revealed)
    assert shown.count == 4
    assert shown.hands[1] == (1, 2, 2, 2, 3)
    assert only(events, DiceLost).player == 0  # the caller


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_set_aside_dice_go_back_next_round(name: str) -> None:
    g = deal(rr(name), [[3, 3, 4, 5, 6], [3, 3, 1, 5, 6]], later=[REROLL])
    play(g, "3x3", reveal("4x3", 1, 3), "call")
    assert g.set_aside == ((), ())
    assert g.counts == (4, 5)
    assert [len(h) for h in g.hidden] == [4, 5]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_bid_on_aces_reveals_aces_only(name: str) -> None:
    g = deal(rr(name), [[3, 4, 5, 6, 6], [3, 3, 1, 1, 6]], later=[[4, 4, 4]])
    play(g, "3x3")
    bid = "4x1" if preset(name).raise_mode == "index" else "2x1"
    assert_illegal(g, reveal(bid, 3), "must show the bid's face 1")
    assert legal(g, reveal(bid, 1))
    play(g, reveal(bid, 1, 1))
    assert g.set_aside[1] == (1, 1)
