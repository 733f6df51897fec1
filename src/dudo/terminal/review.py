"""The odds on the terminal game's screen: the ``hint`` command and the after-game review.

Both read a :class:`~dudo.engine.view.PlayerView` only (what the player knows) and print
through a :class:`~dudo.terminal.narration.Narrator`, so bids and call words are in the
game's language and the rest is English, like the rest of the screen. The numbers come from
:mod:`dudo.odds` and :mod:`dudo.review`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dudo.bots import make_bot
from dudo.bots.odds import Counting
from dudo.engine.actions import CALL, Action, Bid, Call, DoubtPass, Pass, RevealBid, SpotOn
from dudo.engine.view import PlayerView
from dudo.notation import face_name, format_action
from dudo.odds import format_chance, safest_bids, view_odds
from dudo.review import REVIEWER, ActionOdds, ReviewedDecision, hand_chance
from dudo.terminal.narration import Narrator

__all__ = ["HINT_RAISES", "counting_text", "show_hint", "show_review"]

#: How many of the safest bids the hint lists.
HINT_RAISES = 3


def counting_text(counting: Counting, obliging: bool = False) -> str:
    """How dice count this round, in a few words."""
    if counting.wild:
        if counting.needs_natural:
            return "aces are wild, but only for a face with a natural die on the table"
        return "aces are wild"
    if obliging:
        return "obliging round: aces are not wild"
    return "aces are not wild"


def show_hint(screen: Narrator, view: PlayerView, adviser: str | None = REVIEWER) -> None:
    """The odds from ``view``: the standing bid's chances, the expected count of each face
    and the safest bids; then what the ``adviser`` bot level would play in this view."""
    odds = view_odds(view, view.standing_bid)
    known, unknown = len(odds.known), odds.unknown
    screen.line(
        f"Odds from what you see ({known} dice known, {unknown} unknown; "
        f"{counting_text(odds.counting, view.obliging)}):",
        style="bold",
    )
    if view.standing_bid is not None and odds.probability is not None:
        assert odds.spot_on is not None
        screen.line(
            f"Standing bid {screen.say(view.standing_bid)}: true {format_chance(odds.probability)}"
            f", exactly right {format_chance(odds.spot_on)}"
        )
    expected = ", ".join(
        f"{face_name(face, screen.lang, plural=True)} {float(odds.expected[face]):.1f}"
        for face in odds.faces
    )
    screen.line(f"Expected counts: {expected}")
    safest = safest_bids(view, HINT_RAISES)
    if safest:
        label = "Safest openings" if view.standing_bid is None else "Safest raises"
        shown = ", ".join(f"{screen.say(bid)} {format_chance(p)}" for bid, p in safest)
        screen.line(f"{label}: {shown}")
    passer = view.passer
    if passer is not None and any(isinstance(a, DoubtPass) for a in view.legal_actions):
        seen = len(view.seen_dice[passer] or ())
        note = f", {seen} of them seen" if seen else ""
        screen.line(
            f"{screen.possessive(passer)} pass: a random hand of "
            f"{view.dice_counts[passer]} dice{note} is a pass hand "
            f"{format_chance(hand_chance(view, passer))} of the time"
        )
    if adviser is not None and view.my_turn and view.legal_actions:
        advice = make_bot(adviser, random.Random(view.round_number)).choose(view)
        screen.line(f"{adviser} would play {_what(screen, advice, view)}.")


def show_review(screen: Narrator, reviewed: Sequence[ReviewedDecision], decisions: int) -> None:
    """The riskiest of ``decisions`` decisions: what you did with its odds, and what the
    reviewer bot would have done. Nothing when there were no decisions."""
    if decisions == 0:
        return
    screen.console.print()
    if not reviewed:
        screen.line("Review: none of your decisions risked a die.", style="bold", indent=0)
        return
    level = reviewed[0].reviewer_level
    screen.line(
        f"Review: your riskiest decisions, with the odds you faced and what {level} would "
        "have done",
        style="bold",
        indent=0,
    )
    for item in reviewed:
        view = item.decision.view
        yours = item.yours
        screen.line(
            f"Round {view.round_number}, you: {_what(screen, yours.action, view)}; "
            f"{_chance(yours, view)}. Risk of losing a die: {_risk(yours)}."
        )
        if item.reviewer is None:
            screen.line(f"{level} would not have called out of turn.", indent=4)
        elif item.same:
            screen.line(f"{level} would have done the same.", indent=4)
        else:
            theirs = item.reviewer
            screen.line(
                f"{level} would have played {_what(screen, theirs.action, view)}; "
                f"{_chance(theirs, view)}.",
                indent=4,
            )


def _what(screen: Narrator, action: Action, view: PlayerView) -> str:
    if isinstance(action, Bid | RevealBid):
        return screen.say(action)
    standing = view.standing_bid
    if isinstance(action, Call | SpotOn) and standing is not None:
        late = (
            " out of turn"
            if isinstance(action, Call) and action.by not in (None, view.to_move)
            else ""
        )
        word = format_action(CALL if isinstance(action, Call) else action, screen.lang)
        return f"{word} on {screen.say(standing)}{late}"
    return format_action(action, screen.lang)


def _chance(odds: ActionOdds, view: PlayerView) -> str:
    action, chance = odds.action, odds.chance
    if chance is None:
        return "no odds to weigh"
    shown = format_chance(chance)
    if isinstance(action, Bid | RevealBid):
        return f"true {shown}"
    if isinstance(action, Call):
        return f"the bid was true {shown}"
    if isinstance(action, SpotOn):
        return f"exactly right {shown}"
    if isinstance(action, Pass):
        return "your hand was a pass hand" if chance == 1 else "your hand was no pass hand"
    return f"a hand like the passer's is a pass hand {shown}"


def _risk(odds: ActionOdds) -> str:
    shown = format_chance(odds.risk)
    if isinstance(odds.action, Bid | RevealBid):
        return f"{shown} (if called)"
    if isinstance(odds.action, Pass):
        return f"{shown} (if doubted)"
    return shown
