"""Bids said aloud at a real table, where every phone is a cup and the players speak.

Entering a bid is optional there: the round goes on by voice, and only the call is tapped.
A :class:`~dudo.engine.actions.Spoken` action then stands for everything said since the last
action entered: "player ``by`` bid ``bid``" (or, with ``passed``, "player ``by`` passed on the
standing bid ``bid``"), after which the call, spot-on or doubt of the pass is an ordinary
action of the next player. Only a game set up with ``Setup(spoken=True)`` takes it.

What cannot be known is not checked: the bids said in between are not recorded, so a bid said
aloud must only be one the round could have reached: a legal raise of the standing bid (in the
context of its speaker when nobody spoke in between, else in the widest context the round
allows), a legal opening when the opener says it first, and within the dice in play. A pass
said aloud follows the rules of passing; the bid it passes on was made by the player before the
passer (two passes never follow each other), so its bidder is known.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dudo.engine.actions import CALL, DOUBT_PASS, SPOT_ON, Action, Bid, Spoken
from dudo.engine.bids import RaiseContext, opening_problem, raise_problem
from dudo.engine.errors import Reason
from dudo.engine.errors import ReasonCode as R
from dudo.engine.events import BidMade, Event, Passed
from dudo.engine.refusals import pass_problem
from dudo.engine.rules import ObligeFaceChange, OpenOnAces

if TYPE_CHECKING:
    from dudo.engine.game import Game


def spoken_problem(game: Game, action: Spoken) -> Reason | None:
    """Why ``action`` cannot stand for what was said now, or None."""
    if not game.setup.spoken:
        return Reason(
            R.NOT_SPOKEN,
            "bids are entered in this game; bids said aloud are for a game at a real table",
        )
    if game.phase != "bidding":
        if game.is_over:
            return Reason(R.GAME_OVER, "the game is over")
        return Reason(R.SPOKEN_NOT_NOW, "nothing can be said before the obliger chooses")
    by = action.by
    if by is None:
        return Reason(R.SPOKEN_WHO, "say whose bid it was")
    if type(by) is not int or not 0 <= by < game.players:
        return Reason(R.NO_SUCH_PLAYER, f"there is no player {by!r}", player=repr(by))
    if not game.counts[by]:
        return Reason(R.PLAYER_OUT, f"player {by} is out of the game", player=by)
    bid = action.bid
    if not isinstance(bid, Bid):
        return Reason(R.NOT_AN_ACTION, f"{bid!r} is not a bid", action=repr(bid))
    found = game.bid_shape_problem(bid)
    if found is not None:
        return found
    if action.passed:
        return _pass_problem(game, by, bid)
    if bid == game.bid and by == game.bidder:
        return Reason(
            R.SPOKEN_STANDS, f"{bid} by player {by} stands already", bid=str(bid), player=by
        )
    return _reached_problem(game, by, bid)


def _pass_problem(game: Game, by: int, bid: Bid) -> Reason | None:
    if not game.round_setup.pass_ok or by in game.passed:
        return pass_problem(game, by)
    if bid == game.bid:  # passed on as entered: the pass itself follows the bid
        return pass_problem(game, by) if game.passer is not None else None
    return _reached_problem(game, speaker_before(game, by), bid)


def _reached_problem(game: Game, by: int, bid: Bid) -> Reason | None:
    """Whether the round could have reached ``bid``, said by ``by``."""
    rules, standing = game.rules, game.bid
    if standing is None:
        if by == game.opener:  # nothing was said before it: the opening itself
            return opening_problem(rules, bid, game.counts[by], game.obliging)
        return None
    if game.bidder is not None and game.round_setup.after[game.bidder] == by:
        context = game.raise_context(by)  # the raise straight after the standing bid
    else:
        context = _widest_context(game)
    return raise_problem(rules, context, standing, bid, game.obliging)


def _widest_context(game: Game) -> RaiseContext:
    """The most a raise could do here, whoever made the raises said in between."""
    rules = game.rules
    if game.obliging:
        if rules.oblige_face_change is ObligeFaceChange.NOBODY:
            return RaiseContext.OBLIGE_SAME_FACE
        return RaiseContext.OBLIGE_FACE_CHANGE
    standing = game.bid
    first_aces = game.round_bids == 1 and standing is not None and standing.face == 1
    if first_aces and rules.open_on_aces is OpenOnAces.FREE_TRANSFORM:
        return RaiseContext.FREE_TRANSFORM
    return RaiseContext.NORMAL


def say(game: Game, action: Spoken, events: list[Event]) -> int:
    """Apply a checked ``action``; return its player (``by``)."""
    by = action.by
    assert by is not None
    after = game.round_setup.after
    if not (action.passed and action.bid == game.bid):
        bidder = speaker_before(game, by) if action.passed else by
        events.append(BidMade(bidder, action.bid, (), 0))
        game.bid = action.bid
        game.bidder = bidder
        game.passer = None
        game.round_bids += 1
        game.to_move = after[bidder]
    if action.passed:
        events.append(Passed(by))
        game.passer = by
        game.passed = game.passed | {by}
        game.to_move = after[by]
    return by


def speaker_before(game: Game, player: int) -> int:
    """The player in the game who speaks just before ``player``."""
    after, counts = game.round_setup.after, game.counts
    for p in range(game.players):
        if p != player and counts[p] and after[p] == player:
            return p
    raise AssertionError(f"nobody in the game speaks before player {player}")


def speech_calls(game: Game, player: int) -> tuple[Action, ...]:
    """What ``player`` could tap once bids were said aloud up to them: the call, spot-on
    where this round allows it to them, the doubt of a pass where passing is played. (Which
    of them is legal then depends on what was said, which the engine checks when it is.)"""
    if not game.setup.spoken or game.phase != "bidding" or not game.counts[player]:
        return ()
    calls: tuple[Action, ...] = (CALL,)
    if game.round_setup.spot_on_ok[player]:
        calls += (SPOT_ON,)
    if game.round_setup.pass_ok:
        calls += (DOUBT_PASS,)
    return calls
