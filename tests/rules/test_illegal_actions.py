"""Illegal actions raise IllegalActionError, say why, and leave the game unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dudo.engine import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    Call,
    Game,
    RevealBid,
    preset,
)

from .conftest import assert_illegal, deal, play

FIVE = [2, 3, 4, 5, 6]


def opening() -> Game:
    return deal("dudo", [FIVE, FIVE, FIVE])


def after_bid() -> Game:
    g = deal(preset("dudo", cruzado="true", reveal_reroll="true"), [FIVE, [3, 3, 1, 5, 6], FIVE])
    play(g, "3x3")
    return g


def after_pass() -> Game:
    g = deal("dudo", [FIVE, FIVE, FIVE])
    play(g, "3x3", "pass")
    return g


def choosing() -> Game:
    return deal(preset("dudo", cruzado="true"), [[3], FIVE, FIVE], obliger=0)


def obliging() -> Game:
    g = deal(preset("dudo", reveal_reroll="true"), [[3], [3, 3, 4, 5, 6], FIVE], obliger=0)
    play(g, "closed", "1x3")
    return g


def over() -> Game:
    g = deal("dudo", [[4], [3, 3]])
    play(g, "2x4", "call")
    assert g.is_over
    return g


CASES: list[tuple[str, Callable[[], Game], Action, str]] = [
    ("opening-call", opening, CALL, "must bid"),
    ("opening-spot-on", opening, SPOT_ON, "must bid"),
    ("opening-pass", opening, PASS, "must bid"),
    ("opening-doubt-pass", opening, DOUBT_PASS, "must bid"),
    ("opening-choice", opening, OPEN, "no open or closed choice"),
    ("opening-zero", opening, Bid(0, 2), "quantity"),
    ("opening-too-many", opening, Bid(16, 2), "quantity"),
    ("opening-face-7", opening, Bid(2, 7), "face"),
    ("opening-aces", opening, Bid(2, 1), "open_on_aces"),
    ("opening-reveal", opening, RevealBid(Bid(2, 2), (2,)), "reveal"),
    ("out-of-turn-without-cruzado", opening, Call(by=1), "cruzado"),
    ("no-such-player", after_bid, Call(by=7), "no player"),
    ("bidder-calls-own-bid", after_bid, Call(by=0), "own bid"),
    ("lower-bid", after_bid, Bid(2, 3), "3x3"),
    ("same-bid", after_bid, Bid(3, 3), "same bid"),
    ("too-few-aces", after_bid, Bid(1, 1), "aces"),
    ("no-pass-to-doubt", after_bid, DOUBT_PASS, "no pass"),
    ("reveal-wrong-face", after_bid, RevealBid(Bid(4, 3), (5,)), "face"),
    ("reveal-not-held", after_bid, RevealBid(Bid(4, 4), (4,)), "do not hold"),
    ("call-after-pass", after_pass, CALL, "pass"),
    ("pass-after-pass", after_pass, PASS, "two passes"),
    ("spot-on-after-pass", after_pass, SPOT_ON, "pass"),
    ("bid-before-choice", choosing, Bid(1, 3), "choose"),
    ("call-before-choice", choosing, CALL, "choose"),
    ("out-of-turn-before-choice", choosing, Call(by=1), "no bid"),
    ("spot-on-in-obliging", obliging, SPOT_ON, "obliging"),
    ("pass-in-obliging", obliging, PASS, "obliging"),
    ("reveal-in-obliging", obliging, RevealBid(Bid(2, 3), (3,)), "obliging"),
    ("face-change-in-obliging", obliging, Bid(2, 4), "may not change the face"),
    ("choice-after-choice", obliging, CLOSED, "no open or closed choice"),
    ("bid-when-over", over, Bid(1, 2), "over"),
    ("call-when-over", over, CALL, "over"),
    ("choice-when-over", over, OPEN, "over"),
]


@pytest.mark.parametrize(
    ("build", "action", "why"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_illegal_action_changes_nothing(
    build: Callable[[], Game], action: Action, why: str
) -> None:
    g = build()
    assert_illegal(g, action, why)
    # Refused twice in a row, same answer: nothing was half applied.
    assert_illegal(g, action, why)
    if not g.is_over:
        legal = g.legal_actions()
        assert legal
        g.push(legal[0])  # the game goes on normally


def test_illegal_action_leaves_chance_untouched() -> None:
    g = deal("dudo", [FIVE, FIVE], later=[[6, 6, 6, 6], [5, 5, 5, 5, 5]])
    play(g, "3x3")
    assert_illegal(g, "2x2")
    play(g, "call")  # two threes and no aces: the bidder loses
    # The scripted dice were not consumed by the refused action.
    assert [sorted(h) for h in g.hidden] == [[6, 6, 6, 6], [5, 5, 5, 5, 5]]
