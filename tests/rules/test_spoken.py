"""docs/rules.md, "Bids said aloud": at a real table a Spoken action stands for the bids said
since the last one entered; the call, spot-on or doubt of the pass that follows is an ordinary
action. Scenarios on fixed dice."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dudo.engine import (
    CALL,
    DOUBT_PASS,
    OPEN,
    SPOT_ON,
    BidMade,
    Call,
    Called,
    DiceLost,
    Game,
    IllegalActionError,
    PassDoubted,
    Passed,
    RandomChance,
    ReasonCode,
    Revealed,
    ScriptedChance,
    Setup,
    Spoken,
    preset,
)
from dudo.engine.actions import Bid
from dudo.engine.spoken import speaker_before, speech_calls
from dudo.records import game_record, parse_record, record_of, replay

from .conftest import assert_illegal, of_type, only, snapshot


def said(bid: str, by: int, passed: bool = False) -> Spoken:
    q, f = bid.split("x")
    return Spoken(Bid(int(q), int(f)), by, passed)


def table(
    rules: str, hands: Sequence[Sequence[int]], *, opener: int = 0, spoken: bool = True
) -> Game:
    return Game.with_hands(
        preset(rules),
        hands,
        opener=opener,
        then=ScriptedChance([], then=RandomChance(7)),
        spoken=spoken,
    )


THREE = [[3, 3, 1, 5, 6], [3, 2, 2, 4, 4], [3, 6, 6, 1, 2]]  # threes: 4 natural + 2 aces


def code_of(g: Game, action: Spoken) -> ReasonCode:
    reason = g.problem(action)
    assert reason is not None, f"{action} should be refused"
    return reason.code


def test_a_game_not_at_a_real_table_takes_no_bid_said_aloud() -> None:
    g = table("dudo", THREE, spoken=False)
    assert code_of(g, said("4x3", 1)) is ReasonCode.NOT_SPOKEN
    assert_illegal(g, said("4x3", 1), "real table")


def test_a_bid_said_aloud_then_called_by_the_next_player() -> None:
    g = table("dudo", THREE)
    events = [*g.push(said("7x3", 1)), *g.push(CALL)]
    assert g.history[-2:] == [(1, said("7x3", 1)), (2, CALL)]
    assert only(events, BidMade).player == 1
    called = only(events, Called)
    assert (called.player, called.bidder, called.bid) == (2, 1, Bid(7, 3))
    assert only(events, Revealed).count == 6  # four threes and two wild aces
    assert only(events, DiceLost).player == 1  # 7 threes claimed, 6 there: the bidder loses


def test_entered_bids_then_spoken_ones() -> None:
    g = table("dudo", THREE)
    g.push(Bid(2, 3))  # player 0 enters a bid; the rest is said aloud
    g.push(said("6x3", 2))
    assert (g.bid, g.bidder, g.to_move) == (Bid(6, 3), 2, 0)
    events = g.push(CALL)
    assert only(events, DiceLost).player == 0  # six are there: the caller loses


def test_a_bid_said_aloud_must_be_a_raise_of_the_standing_bid() -> None:
    g = table("dudo", THREE)
    g.push(Bid(4, 4))
    assert code_of(g, said("3x5", 2)) is ReasonCode.QUANTITY_DOWN
    assert_illegal(g, said("4x3", 2))
    assert code_of(g, said("4x4", 0)) is ReasonCode.SPOKEN_STANDS


def test_a_bid_said_first_by_the_opener_is_an_opening() -> None:
    g = table("dudo", THREE)
    # The dudo preset opens on aces with one die only: the opener's first word cannot be aces.
    assert code_of(g, said("2x1", 0)) is ReasonCode.OPEN_ACES_ONE_DIE
    # Said by another player, bids came before it: aces are reachable.
    g.push(said("2x1", 1))
    assert (g.bid, g.bidder, g.to_move) == (Bid(2, 1), 1, 2)


def test_a_bid_said_aloud_is_within_the_dice_in_play_and_by_a_player_in_the_game() -> None:
    g = table("dudo", [[3, 3], [2, 2], [], [5]])
    assert code_of(g, said("6x3", 1)) is ReasonCode.QUANTITY_RANGE
    assert code_of(g, said("2x7", 1)) is ReasonCode.NO_SUCH_FACE
    assert code_of(g, said("2x3", 2)) is ReasonCode.PLAYER_OUT
    assert code_of(g, said("2x3", 9)) is ReasonCode.NO_SUCH_PLAYER
    assert code_of(g, Spoken(Bid(2, 3))) is ReasonCode.SPOKEN_WHO


def test_the_call_after_a_spoken_bid_is_the_next_players_unless_cruzado() -> None:
    g = table("dudo", THREE)
    g.push(said("5x3", 0))
    assert g.to_move == 1
    assert code_of(g, said("5x3", 0)) is ReasonCode.SPOKEN_STANDS
    with pytest.raises(IllegalActionError, match="cruzado"):
        g.push(Call(by=2))


def test_a_pass_said_aloud_then_doubted() -> None:
    # Player 2 holds a full house; the bid passed on was player 1's, said aloud.
    g = table("dudo", [[3, 3, 1, 5, 6], [3, 2, 2, 4, 4], [6, 6, 2, 2, 2]])
    g.push(said("5x3", 2, passed=True))
    assert (g.bid, g.bidder, g.passer, g.to_move) == (Bid(5, 3), 1, 2, 0)
    assert g.problem(CALL) is not None  # after a pass the standing bid cannot be called
    events = g.push(DOUBT_PASS)
    assert only(events, PassDoubted).passer == 2
    assert only(events, DiceLost).player == 0  # the pass was real: the doubter loses


def test_a_pass_said_right_after_an_entered_bid_keeps_its_bidder() -> None:
    g = table("dudo", [[3, 3, 1, 5, 6], [3, 2, 2, 4, 4], [6, 6, 2, 2, 3]])
    g.push(Bid(3, 3))
    events = g.push(said("3x3", 1, passed=True))
    assert not of_type(events, BidMade) and only(events, Passed).player == 1
    assert (g.bidder, g.passer, g.to_move) == (0, 1, 2)
    assert code_of(g, said("3x3", 2, passed=True)) is ReasonCode.PASS_TWICE
    assert only(g.push(DOUBT_PASS), DiceLost).player == 1  # a bluff: the passer loses


def test_passes_said_aloud_follow_the_rules_of_passing() -> None:
    g = table("perudo", THREE)
    assert code_of(g, said("3x3", 1, passed=True)) is ReasonCode.PASS_NOT_PLAYED
    g = table("dudo", THREE)
    g.push(said("3x3", 1, passed=True))
    g.push(said("4x3", 2))
    assert code_of(g, said("5x3", 1, passed=True)) is ReasonCode.PASS_ONCE_PER_ROUND


def test_spot_on_after_a_spoken_bid() -> None:
    g = table("dudo", THREE)
    assert speech_calls(g, 2) == (CALL, SPOT_ON, DOUBT_PASS)
    g.push(said("6x3", 1))
    events = g.push(SPOT_ON)
    assert only(events, Revealed).count == 6


def test_what_a_player_could_tap() -> None:
    assert speech_calls(table("perudo", THREE), 0) == (CALL, SPOT_ON)
    assert speech_calls(table("perudo", THREE, spoken=False), 0) == ()
    assert speech_calls(table("perudo", [[1], [2], []]), 2) == ()


def test_the_player_before() -> None:
    g = table("dudo", [[3, 3], [], [2], [5]])
    assert [speaker_before(g, p) for p in (0, 2, 3)] == [3, 0, 2]


def test_pop_undoes_a_spoken_bid() -> None:
    g = table("dudo", THREE)
    before = snapshot(g)
    g.push(said("5x3", 2, passed=True))
    g.pop()
    assert snapshot(g) == before


def test_a_real_table_game_records_replays_and_verifies() -> None:
    g = Game(preset("dudo"), setup=Setup(3, spoken=True), seed=11)
    while not g.is_over:
        p = g.to_move
        if g.phase == "choose_visibility":
            g.push(OPEN)
        elif g.bid is None or g.round_bids < 2:
            quantity = (g.bid.quantity + 1) if g.bid is not None else 1
            g.push(Spoken(Bid(min(quantity, g.dice_in_play), 6), p))
        else:
            g.push(CALL)
    record = record_of(g)
    assert record["setup"] == {"spoken": True}
    assert any(a["action"].startswith("said ") for a in record["actions"])
    again = parse_record(record)
    assert again == game_record(g)
    final = replay(again)
    assert final.winner == g.winner


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["dudo", "perudo", "cacho", "dudo-legacy"]))
def test_spoken_actions_are_accepted_exactly_when_problem_finds_nothing(
    seed: int, name: str
) -> None:
    """Over random games mixing entered actions and random Spoken ones: push accepts a Spoken
    action exactly when problem() finds nothing, a refused one changes nothing, and pop
    undoes an accepted one."""
    rng = random.Random(seed)
    g = Game(preset(name), setup=Setup(4, spoken=True), seed=seed)
    for _ in range(200):
        if g.is_over:
            break
        action = Spoken(
            Bid(rng.randint(0, g.dice_in_play + 1), rng.randint(1, 7)),
            rng.randint(0, 4),
            rng.random() < 0.3,
        )
        before = snapshot(g)
        if g.problem(action) is None:
            g.push(action)
            g.pop()
            assert snapshot(g) == before
            g.push(action)
        else:
            with pytest.raises(IllegalActionError):
                g.push(action)
            assert snapshot(g) == before
            g.push(rng.choice(g.legal_actions()))
