"""Printing actions in English, Spanish or Italian, in short (``5x3``) or long (words) style."""

from __future__ import annotations

from typing import Final

from dudo.engine.actions import (
    Action,
    Bid,
    Call,
    DoubtPass,
    ObligeChoice,
    Pass,
    RevealBid,
    Spoken,
    SpotOn,
)
from dudo.engine.errors import NotationError
from dudo.notation._words import (
    CALL_TEXT,
    FACE_GENDERS,
    MAX_WORD_QUANTITY,
    REVEAL_TEXT,
    check_language,
    face_name,
    number_words,
)

STYLES: Final = ("short", "long")


def long_bid(bid: Bid, lang: str, naming: str = "usual") -> str:
    """A bid in words: "five threes" (or "five trains"), "un as", "veintiuna quinas", "tre assi"."""
    name = face_name(bid.face, lang, plural=bid.quantity != 1, naming=naming)
    if bid.quantity < 1:
        raise NotationError(f"{bid}: the quantity must be at least 1")
    if bid.quantity > MAX_WORD_QUANTITY:
        return f"{bid.quantity} {name}"
    return f"{number_words(bid.quantity, lang, FACE_GENDERS[lang][bid.face - 1])} {name}"


def format_action(
    action: Action, lang: str = "en", style: str = "short", naming: str = "usual"
) -> str:
    """``action`` as a player would write (short) or say (long) it in ``lang``.

    Short bids are ``5x3`` in every language; long bids use number words and face names (the
    usual ones, or with ``naming="traditional"`` the English nicknames: see :func:`face_name`).
    Calls read the same in both styles (en "spot on", es "calzo", it "calza"). A call's ``by``
    (an out-of-turn caller) is not part of the text.
    """
    check_language(lang)
    if style not in STYLES:
        raise NotationError(f"unknown style {style!r}; styles are {', '.join(STYLES)}")
    long = style == "long"
    if isinstance(action, Bid):
        return long_bid(action, lang, naming) if long else str(action)
    if isinstance(action, RevealBid):
        word = REVEAL_TEXT[lang][1 if long else 0]
        if long:
            return f"{long_bid(action.bid, lang, naming)} ({word} {', '.join(map(str, action.reveal))})"
        return f"{action.bid} {word} {','.join(map(str, action.reveal))}"
    if isinstance(action, Call | SpotOn | Pass | DoubtPass | ObligeChoice):
        return CALL_TEXT[lang][str(action)]
    if isinstance(action, Spoken):  # said aloud: the bid, and the pass that followed it
        said = format_action(action.bid, lang, style, naming)
        return f"{said}, {CALL_TEXT[lang]['pass']}" if action.passed else said
    raise NotationError(f"{action!r} is not an action")
