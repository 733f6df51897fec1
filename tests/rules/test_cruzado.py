"""docs/rules.md section 2 and 6, cruzado: out-of-turn calls."""

from __future__ import annotations

import pytest

from dudo.engine import (
    CALL,
    Call,
    Called,
    DiceLost,
    DieWon,
    Game,
    preset,
)

from .conftest import PRESET_NAMES, assert_illegal, deal, legal, of_type, only, play

# Player 0 holds three threes; nobody holds aces. Count of threes: 3.
HANDS = [[3, 3, 3, 4, 5], [2, 4, 5, 6, 6], [2, 2, 4, 5, 6], [4, 5, 6, 6, 2]]
PASS_PRESETS = ("dudo", "dudo-legacy", "dudo-equalize", "cacho")


def cruzado(name: str, hands: list[list[int]] | None = None, **options: str) -> Game:
    return deal(preset(name, cruzado="true", **options), hands or HANDS)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_cruzado_is_off_in_every_preset(name: str) -> None:
    g = deal(name, HANDS)
    play(g, "2x3")
    assert g.legal_actions(2) == []
    assert_illegal(g, Call(by=2), "cruzado")


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_who_may_call_out_of_turn(name: str) -> None:
    g = cruzado(name)
    # No standing bid: nobody may call.
    for p in range(4):
        assert_illegal(g, Call(by=p))
    play(g, "2x3")
    # Player 1 is to act; 2 and 3 may call out of turn, the bidder may not.
    assert g.legal_actions(2) == [Call(by=2)]
    assert g.legal_actions(3) == [Call(by=3)]
    assert g.legal_actions(0) == []
    assert_illegal(g, Call(by=0), "own bid")
    assert (2, Call(by=2)) in g.all_legal_actions()
    assert (3, Call(by=3)) in g.all_legal_actions()
    assert (1, CALL) in g.all_legal_actions()
    assert not any(p == 0 for p, _ in g.all_legal_actions())


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_eliminated_seat_may_not_call_out_of_turn(name: str) -> None:
    g = cruzado(name, [[3, 3, 3], [2, 4], [], [4, 5]])
    play(g, "2x3")
    assert g.legal_actions(2) == []
    assert_illegal(g, Call(by=2), "out of the game")
    assert legal(g, Call(by=3))


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_correct_out_of_turn_caller_earns_a_die(name: str) -> None:
    hands = [[3, 3, 3, 4, 5], [2, 4, 5, 6, 6], [2, 2, 4, 5], [4, 5, 6, 6, 2]]
    g = cruzado(name, hands)
    events = play(g, "4x3", "call by 2")
    called = only(events, Called)
    assert (called.player, called.bidder, called.out_of_turn) == (2, 0, True)
    assert only(events, DiceLost).player == 0
    assert only(events, DieWon) == DieWon(2, 5)
    assert g.counts == (4, 5, 5, 5)
    assert g.opener == 0  # the loser opens


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_correct_out_of_turn_caller_never_goes_above_five(name: str) -> None:
    g = cruzado(name)
    events = play(g, "4x3", "call by 3")
    assert only(events, DiceLost).player == 0
    assert of_type(events, DieWon) == []
    assert g.counts == (4, 5, 5, 5)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_out_of_turn_caller_earns_one_die_even_if_the_bidder_lost_several(name: str) -> None:
    hands = [[3, 3, 3, 4, 5], [2, 4, 5, 6, 6], [2, 2], [4, 5, 6, 6, 2]]
    g = cruzado(name, hands, loss="difference")
    events = play(g, "6x3", "call by 2")  # count 3: the bidder loses 3
    lost = only(events, DiceLost)
    assert (lost.player, lost.count) == (0, 3)
    assert only(events, DieWon) == DieWon(2, 3)
    assert g.counts == (2, 5, 3, 5)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_wrong_out_of_turn_caller_loses_one_die(name: str) -> None:
    g = cruzado(name)
    events = play(g, "2x3", "call by 3")  # count 3 >= 2
    lost = only(events, DiceLost)
    assert (lost.player, lost.count) == (3, 1)
    assert of_type(events, DieWon) == []
    assert g.counts == (5, 5, 5, 4)
    assert g.opener == 3


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_wrong_out_of_turn_caller_loses_per_loss_difference(name: str) -> None:
    g = cruzado(name, loss="difference")
    events = play(g, "1x3", "call by 3")  # count 3: two above the bid
    lost = only(events, DiceLost)
    assert (lost.player, lost.count) == (3, 2)
    assert g.counts == (5, 5, 5, 3)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_in_turn_call_is_an_ordinary_call(name: str) -> None:
    hands = [[3, 3, 3, 4, 5], [2, 4, 5, 6], [2, 2, 4, 5, 6], [4, 5, 6, 6, 2]]
    for action in (CALL, Call(by=1)):
        g = cruzado(name, hands)
        events = play(g, "4x3", action)
        called = only(events, Called)
        assert (called.player, called.out_of_turn) == (1, False)
        assert of_type(events, DieWon) == []  # an in-turn winner earns nothing
        assert g.counts == (4, 4, 5, 5)


@pytest.mark.parametrize("name", PASS_PRESETS)
def test_out_of_turn_call_while_a_pass_is_pending(name: str) -> None:
    g = cruzado(name)
    play(g, "3x3", "pass")
    assert g.passer == 1 and g.to_move == 2
    # The player to act may not call the standing bid after a pass ...
    assert_illegal(g, CALL, "pass")
    assert_illegal(g, Call(by=2), "pass")
    # ... but anyone else still in the game other than the bidder may, out of turn.
    assert g.legal_actions(3) == [Call(by=3)]
    assert g.legal_actions(1) == [Call(by=1)]
    assert g.legal_actions(0) == []
    events = play(g, "call by 3")
    assert only(events, Called).out_of_turn is True
    assert only(events, DiceLost).player == 3  # count 3 >= 3


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_views_offer_the_out_of_turn_call(name: str) -> None:
    g = cruzado(name)
    play(g, "2x3")
    assert g.view(2).legal_actions == (Call(by=2),)
    assert g.view(0).legal_actions == ()
    assert g.view(None).legal_actions == ()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_heads_up_there_is_nobody_to_call_out_of_turn(name: str) -> None:
    g = cruzado(name, [[3, 3, 3, 4, 5], [2, 4, 5, 6, 6]])
    play(g, "2x3")
    assert g.legal_actions(0) == []
    assert g.all_legal_actions() == [(1, a) for a in g.legal_actions()]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_correct_out_of_turn_caller_opens_under_next_opener_winner(name: str) -> None:
    g = cruzado(name, next_opener="winner")
    play(g, "4x3", "call by 3")  # count 3: the bidder loses, player 3 wins
    assert g.opener == 3 and g.to_move == 3
