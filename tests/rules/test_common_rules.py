"""docs/rules.md section 1: rules common to every preset."""

from __future__ import annotations

import pytest

from dudo.engine import (
    CALL,
    DOUBT_PASS,
    PASS,
    SPOT_ON,
    Bid,
    Called,
    DiceLost,
    DudoError,
    Eliminated,
    GameOver,
    IllegalActionError,
    Revealed,
    RoundStarted,
    preset,
)

from .conftest import PRESET_NAMES, assert_illegal, deal, legal, of_type, only, play

# Three natural threes and no aces: the count is 3 under every preset's counting.
THREES = [[2, 3, 3, 4, 5], [3, 5, 6, 6, 2]]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_opener_must_bid(name: str) -> None:
    g = deal(name, THREES)
    for action in (CALL, SPOT_ON, PASS, DOUBT_PASS):
        assert_illegal(g, action)
    assert "must bid" in (g.problem(CALL) or "")
    assert g.legal_actions()
    assert all(isinstance(a, Bid) for a in g.legal_actions())


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_play_goes_clockwise(name: str) -> None:
    g = deal(name, [[2, 3], [4, 5], [6, 6]])
    assert g.to_move == 0
    play(g, "1x2")
    assert g.to_move == 1
    play(g, "2x2")
    assert g.to_move == 2
    play(g, "3x2")
    assert g.to_move == 0


def test_play_goes_counterclockwise_when_the_preset_says_so() -> None:
    g = deal(preset("dudo", direction="counterclockwise"), [[2, 3], [4, 5], [6, 6]])
    play(g, "1x2")
    assert g.to_move == 2
    play(g, "2x2")
    assert g.to_move == 1
    play(g, "3x2")
    assert g.to_move == 0


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
def test_eliminated_players_are_skipped(direction: str) -> None:
    g = deal(preset("dudo", direction=direction), [[2, 3], [], [4, 5], []])
    play(g, "1x2")
    assert g.to_move == 2
    play(g, "2x2")
    assert g.to_move == 0
    assert g.legal_actions(1) == [] and g.legal_actions(3) == []


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_bid_quantity_is_one_to_dice_in_play(name: str) -> None:
    g = deal(name, [[2, 3, 4], [4, 5]])
    assert g.dice_in_play == 5
    assert_illegal(g, Bid(0, 3), "quantity")
    assert_illegal(g, Bid(6, 3), "quantity")
    assert legal(g, "5x6")
    assert legal(g, "1x3")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_bid_faces_are_one_to_six(name: str) -> None:
    g = deal(name, [[2, 3, 4], [4, 5]])
    assert_illegal(g, Bid(2, 0), "face")
    assert_illegal(g, Bid(2, 7), "face")
    play(g, "2x6")
    assert_illegal(g, Bid(3, 7), "face")


def test_raise_quantity_bound_is_the_dice_in_play() -> None:
    g = deal("dudo", [[2, 3, 4], [4, 5]])
    play(g, "5x5")
    assert_illegal(g, "6x6", "quantity")
    assert legal(g, "5x6")


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(
    ("bid", "bidder_loses"),
    [("4x3", True), ("3x3", False), ("2x3", False)],
    ids=["fewer-than-q", "exactly-q", "more-than-q"],
)
def test_call_outcome(name: str, bid: str, bidder_loses: bool) -> None:
    g = deal(name, THREES)
    events = play(g, bid, "call")
    reveal = only(events, Revealed)
    assert reveal.count == 3
    lost = only(events, DiceLost)
    assert lost.player == (0 if bidder_loses else 1)
    assert lost.count == 1
    assert g.counts == ((4, 5) if bidder_loses else (5, 4))
    called = only(events, Called)
    assert (called.player, called.bidder, called.out_of_turn) == (1, 0, False)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_player_without_dice_is_eliminated_and_last_player_wins(name: str) -> None:
    g = deal(name, [[4], [3, 3]])
    events = play(g, "2x4", "call")
    assert only(events, Eliminated).player == 0
    assert only(events, GameOver).winner == 1
    assert g.is_over and g.winner == 1
    assert g.counts == (0, 2)
    assert g.legal_actions() == [] and g.all_legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        g.push(Bid(1, 2))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_elimination_with_players_left_continues_without_the_eliminated(name: str) -> None:
    g = deal(name, [[4], [3, 3, 3], [5, 5, 5]], later=[[2, 2, 3], [4, 4, 6]])
    events = play(g, "2x4", "call")
    assert only(events, Eliminated).player == 0
    assert not g.is_over and g.winner is None
    # The eliminated loser cannot open: the next player after them does.
    assert g.opener == 1 and g.to_move == 1
    play(g, "1x2")
    assert g.to_move == 2
    play(g, "2x2")
    assert g.to_move == 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_places_are_the_winner_then_the_eliminated_latest_first(name: str) -> None:
    # Player 0 is out first, then player 2 (a lone 5, calling player 1's true bid): 1, 2, 0.
    g = deal(name, [[4], [3, 3, 3], [5]], later=[[2, 2, 3], [5]])
    with pytest.raises(DudoError, match="not over"):
        g.finishing_order()
    play(g, "2x4", "call")
    assert not g.is_over
    play(g, "2x2", "call")
    assert g.is_over and g.winner == 1
    assert g.finishing_order() == (1, 2, 0)


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize(("bid", "loser"), [("4x3", 1), ("3x3", 2)])
def test_loser_opens_next_round(name: str, bid: str, loser: int) -> None:
    # Player 1 bids, player 2 calls; three players so the loser is never the next in turn.
    g = deal(name, [[2, 3, 3, 4, 5], [3, 5, 6, 6, 2], [4, 4, 5, 6, 6]])
    play(g, "2x3", bid, "call")
    assert g.round_number == 2
    assert g.opener == loser and g.to_move == loser
    started = of_type(g.events, RoundStarted)[-1]
    assert (started.number, started.opener) == (2, loser)


@pytest.mark.parametrize(("direction", "next_opener"), [("clockwise", 3), ("counterclockwise", 1)])
def test_next_player_after_an_eliminated_loser_opens(direction: str, next_opener: int) -> None:
    # Player 2 opens on a lone 4, the next player calls, player 2 is eliminated.
    rules = preset("dudo", direction=direction)
    g = deal(rules, [[3, 3], [5, 5], [4], [6, 6]], opener=2)
    play(g, "2x4")
    play(g, "call")
    assert g.counts[2] == 0
    assert g.opener == next_opener and g.to_move == next_opener


def test_every_player_rerolls_all_dice_each_round() -> None:
    g = deal("dudo", [[2, 3, 3, 4, 5], [3, 5, 6, 6, 2]], later=[[6, 6, 6, 6], [2, 2, 2, 2, 4]])
    play(g, "4x3", "call")
    assert g.counts == (4, 5)
    assert [sorted(h) for h in g.hidden] == [[6, 6, 6, 6], [2, 2, 2, 2, 4]]
    assert sorted(g.view(1).my_dice or ()) == [2, 2, 2, 2, 4]


def test_each_player_sees_only_their_own_dice_and_every_count() -> None:
    hands = [[2, 3, 3, 4, 5], [3, 5, 6, 6, 2], [1, 1, 4]]
    g = deal("dudo", hands)
    for p, hand in enumerate(hands):
        view = g.view(p)
        assert sorted(view.my_dice or ()) == sorted(hand)
        assert view.dice_counts == (5, 5, 3)
        for q in range(3):
            seen = view.seen_dice[q]
            if q == p:
                assert seen is not None and sorted(seen) == sorted(hand)
            else:
                assert seen is None
    spectator = g.view(None)
    assert spectator.my_dice is None
    assert spectator.seen_dice == (None, None, None)
    assert spectator.dice_counts == (5, 5, 3)


def test_a_call_reveals_every_hand_with_the_count() -> None:
    hands = [[1, 3, 3, 4, 5], [3, 5, 6, 6, 2]]
    g = deal("dudo", hands)
    events = play(g, "5x3", "call")
    reveal = only(events, Revealed)
    assert reveal.hands == tuple(tuple(sorted(h)) for h in hands)
    assert reveal.bid == Bid(5, 3)
    assert reveal.count == 4
    assert reveal.wild_aces is True
    # Everyone, spectators included, gets the reveal.
    for viewer in (None, 0, 1):
        assert g.view(viewer).reveals[-1] == reveal


def test_a_spot_on_reveals_every_hand_with_the_count() -> None:
    hands = [[1, 3, 3, 4, 5], [3, 5, 6, 6, 2]]
    g = deal("dudo", hands)
    events = play(g, "4x3", "spot-on")
    reveal = only(events, Revealed)
    assert reveal.hands == tuple(tuple(sorted(h)) for h in hands)
    assert (reveal.bid, reveal.count) == (Bid(4, 3), 4)
    assert g.view(None).reveals[-1] == reveal


def test_a_doubted_pass_reveals_every_hand() -> None:
    hands = [[1, 3, 3, 4, 5], [2, 3, 4, 5, 6]]
    g = deal("dudo", hands)
    events = play(g, "4x3", "pass", "doubt-pass")
    reveal = only(events, Revealed)
    assert reveal.hands == tuple(tuple(sorted(h)) for h in hands)
    assert reveal.passer == 1
    assert g.view(None).reveals[-1] == reveal
