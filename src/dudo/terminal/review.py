"""The odds on the terminal game's screen: the ``hint`` command and the after-game review.

Both read a :class:`~dudo.engine.view.PlayerView` only (what the player knows) and print
through a :class:`~dudo.terminal.narration.Narrator`, so every word is in the game's
language, like the rest of the screen; bot levels stay as typed (``hard``). The numbers come
from :mod:`dudo.odds` and :mod:`dudo.review`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dudo.bots import make_adviser
from dudo.engine.actions import CALL, Action, Bid, Call, DoubtPass, Pass, RevealBid, SpotOn
from dudo.engine.view import PlayerView
from dudo.notation import face_name, format_action
from dudo.odds import safest_bids, view_odds
from dudo.probability import Counting
from dudo.review import REVIEWER, ActionOdds, ReviewedDecision, hand_chance
from dudo.terminal.narration import Narrator
from dudo.terminal.texts import chance as chance_text
from dudo.terminal.texts import counted, decimal
from dudo.terminal.texts import dice as dice_words
from dudo.terminal.texts import text as message

__all__ = ["HINT_RAISES", "counting_text", "show_hint", "show_review"]

#: How many of the safest bids the hint lists.
HINT_RAISES = 3


def counting_text(counting: Counting, obliging: bool = False, lang: str = "en") -> str:
    """How dice count this round, in a few words in ``lang``."""
    if counting.wild:
        key = "counting_wild_natural" if counting.needs_natural else "counting_wild"
    else:
        key = "counting_obliging" if obliging else "counting_not_wild"
    return message(lang, key)


def show_hint(screen: Narrator, view: PlayerView, adviser: str | None = REVIEWER) -> None:
    """The odds from ``view``: the standing bid's chances, the expected count of each face
    and the safest bids; then what the ``adviser`` bot level would play in this view."""
    lang = screen.lang
    odds = view_odds(view, view.standing_bid)
    screen.line(
        screen.t(
            "hint_title",
            known=counted(lang, "known", len(odds.known)),
            unknown=counted(lang, "unknown", odds.unknown),
            counting=counting_text(odds.counting, view.obliging, lang),
        ),
        style="bold",
    )
    if view.standing_bid is not None and odds.probability is not None:
        assert odds.spot_on is not None
        screen.line(
            screen.t(
                "hint_standing",
                bid=screen.say(view.standing_bid),
                true=chance_text(screen.lang, odds.probability),
                exact=chance_text(screen.lang, odds.spot_on),
            )
        )
    expected = ", ".join(
        f"{face_name(face, lang, plural=True, naming=screen.naming)} "
        f"{decimal(lang, odds.expected[face])}"
        for face in odds.faces
    )
    screen.line(screen.t("expected_counts", counts=expected))
    safest = safest_bids(view, HINT_RAISES)
    if safest:
        label = "safest_openings" if view.standing_bid is None else "safest_raises"
        shown = ", ".join(f"{screen.say(bid)} {chance_text(screen.lang, p)}" for bid, p in safest)
        screen.line(screen.t(label, bids=shown))
    passer = view.passer
    if passer is not None and any(isinstance(a, DoubtPass) for a in view.legal_actions):
        seen = len(view.seen_dice[passer] or ())
        screen.line(
            screen.about(
                "hint_pass",
                passer,
                dice=dice_words(lang, view.dice_counts[passer]),
                seen=counted(lang, "seen", seen) if seen else "",
                chance=chance_text(screen.lang, hand_chance(view, passer)),
            )
        )
    if adviser is not None and view.my_turn and view.legal_actions:
        advice = make_adviser(adviser, random.Random(view.round_number)).choose(view)
        screen.line(screen.t("would_play", level=adviser, action=_what(screen, advice, view)))


def show_review(screen: Narrator, reviewed: Sequence[ReviewedDecision], decisions: int) -> None:
    """The riskiest of ``decisions`` decisions: what you did with its odds, and what the
    reviewer bot would have done. Nothing when there were no decisions."""
    if decisions == 0:
        return
    screen.console.print()
    if not reviewed:
        screen.line(screen.t("review_none"), style="bold", indent=0)
        return
    level = reviewed[0].reviewer_level
    screen.line(screen.t("review_title", level=level), style="bold", indent=0)
    for item in reviewed:
        view = item.decision.view
        yours = item.yours
        screen.line(
            screen.t(
                "review_item",
                round=view.round_number,
                what=_what(screen, yours.action, view),
                chance=_chance(screen, yours),
                risk=_risk(screen, yours),
            )
        )
        if item.reviewer is None:
            screen.line(screen.t("review_no_call", level=level), indent=4)
        elif item.same:
            screen.line(screen.t("review_same", level=level), indent=4)
        else:
            theirs = item.reviewer
            what = _what(screen, theirs.action, view)
            screen.line(
                screen.t("review_other", level=level, what=what, chance=_chance(screen, theirs)),
                indent=4,
            )


def _what(screen: Narrator, action: Action, view: PlayerView) -> str:
    if isinstance(action, Bid | RevealBid):
        return screen.say(action)
    standing = view.standing_bid
    if isinstance(action, Call | SpotOn) and standing is not None:
        late = (
            screen.t("out_of_turn")
            if isinstance(action, Call) and action.by not in (None, view.to_move)
            else ""
        )
        word = format_action(CALL if isinstance(action, Call) else action, screen.lang)
        return screen.t("claim_on", word=word, bid=screen.say(standing)) + late
    return format_action(action, screen.lang)


def _chance(screen: Narrator, odds: ActionOdds) -> str:
    action, chance = odds.action, odds.chance
    if chance is None:
        return screen.t("no_odds")
    shown = chance_text(screen.lang, chance)
    if isinstance(action, Bid | RevealBid):
        return screen.t("chance_true", chance=shown)
    if isinstance(action, Call):
        return screen.t("chance_call", chance=shown)
    if isinstance(action, SpotOn):
        return screen.t("chance_exact", chance=shown)
    if isinstance(action, Pass):
        return screen.t("pass_hand_yes" if chance == 1 else "pass_hand_no")
    return screen.t("chance_doubt_pass", chance=shown)


def _risk(screen: Narrator, odds: ActionOdds) -> str:
    shown = chance_text(screen.lang, odds.risk)
    if isinstance(odds.action, Bid | RevealBid):
        return screen.t("risk_called", risk=shown)
    if isinstance(odds.action, Pass):
        return screen.t("risk_doubted", risk=shown)
    return shown
