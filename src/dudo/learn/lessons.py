"""The tutorial's lessons, one per family of rules: what each round deals, what the bots
play and what the learner is asked to do. The coach's words are catalogue keys
(``learn.<lesson>.<step>``, in web/i18n). Their parameters are bids in the notation
(``bid`` is the one the step asks for) and, for a call, ``call``: the call asked for."""

from __future__ import annotations

from dudo.engine import CALL, DOUBT_PASS, OPEN, PASS, SPOT_ON, Action, Bid
from dudo.learn.lesson import BotMove, Lesson, Step

_YOU, _ANA, _BRUNO = 0, 1, 2


def _step(lesson: str, name: str, expect: Action, **params: str) -> Step:
    key = f"learn.{lesson}.{name}"
    return Step(key, expect, f"{key}_other", tuple(params.items()))


#: Dudo as version A plays it (the ``dudo`` preset): every move the game has. The learner
#: starts mid-game with four dice, so that a right Calzo wins one back and the full house
#: of the last round has its five dice; Bruno holds two, so the first call makes him oblige.
DUDO = Lesson(
    name="dudo",
    preset="dudo",
    bots=("Ana", "Bruno"),
    dice=(4, 5, 2),
    start_total=15,
    rounds=(
        ((1, 3, 3, 5), (2, 4, 4, 6, 6), (3, 5)),
        ((2, 2, 4, 6), (1, 2, 5, 5, 6), (5,)),
        ((1, 4, 4, 6), (2, 3, 4, 5), (2,)),
        ((2, 2, 5, 5, 5), (1, 3, 3, 6), (6,)),
    ),
    script=(
        # Round 1: a bid, a raise, wild aces, a bid on aces, Dudo.
        _step("dudo", "open", Bid(2, 3), bid="2x3"),
        BotMove(_ANA, Bid(2, 4)),
        BotMove(_BRUNO, Bid(3, 4)),
        _step("dudo", "raise", Bid(4, 3), bid="4x3", standing="3x4"),
        BotMove(_ANA, Bid(2, 1)),
        BotMove(_BRUNO, Bid(5, 3)),
        _step("dudo", "call", CALL, aces="2x1", standing="5x3", call="call"),
        # Round 2: Bruno is down to one die and obliges, in an open round.
        BotMove(_BRUNO, OPEN),
        BotMove(_BRUNO, Bid(2, 5)),
        _step("dudo", "oblige", Bid(3, 5), bid="3x5", standing="2x5"),
        BotMove(_ANA, Bid(4, 5)),
        BotMove(_BRUNO, CALL),
        # Round 3: Calzo, exactly right.
        BotMove(_ANA, Bid(3, 4)),
        BotMove(_BRUNO, Bid(4, 4)),
        _step("dudo", "spot_on", SPOT_ON, standing="4x4", call="spot-on"),
        # Round 4: a full house, and Paso.
        _step("dudo", "open_again", Bid(2, 5), bid="2x5"),
        BotMove(_ANA, Bid(3, 5)),
        BotMove(_BRUNO, Bid(3, 6)),
        _step("dudo", "pass", PASS, standing="3x6", call="pass"),
        BotMove(_ANA, DOUBT_PASS),
    ),
    title="learn.dudo.title",
    end="learn.dudo.end",
)

#: Perudo: no opening on aces, Calzo at any time with three players or more, and no Paso.
PERUDO = Lesson(
    name="perudo",
    preset="perudo",
    bots=("Ana", "Bruno"),
    dice=(4, 5, 5),
    start_total=15,
    rounds=(
        ((1, 2, 2, 6), (2, 3, 5, 5, 6), (1, 2, 4, 4, 6)),
        ((1, 3, 3, 5), (2, 4, 5, 5, 6), (3, 4, 4, 6)),
    ),
    script=(
        _step("perudo", "open", Bid(3, 2), bid="3x2"),
        BotMove(_ANA, Bid(3, 5)),
        BotMove(_BRUNO, Bid(2, 1)),
        _step("perudo", "from_aces", Bid(5, 2), bid="5x2", aces="2x1"),
        BotMove(_ANA, Bid(6, 2)),
        BotMove(_BRUNO, Bid(7, 2)),
        _step("perudo", "call", CALL, standing="7x2", call="call"),
        BotMove(_BRUNO, Bid(4, 3)),
        _step("perudo", "spot_on", SPOT_ON, standing="4x3", call="spot-on"),
    ),
    title="learn.perudo.title",
    end="learn.perudo.end",
)

#: Classic Liar's Dice: bids in one fixed order with the aces lowest, any face may open, and a
#: call is the only other move (no Calzo, no Paso, no obliging round).
LIARS_DICE = Lesson(
    name="liars-dice",
    preset="liars-dice",
    bots=("Ana", "Bruno"),
    dice=(5, 5, 5),
    start_total=15,
    rounds=(((1, 1, 4, 4, 6), (2, 3, 3, 5, 6), (1, 2, 4, 5, 6)),),
    script=(
        _step("liars-dice", "open", Bid(2, 1), bid="2x1"),
        BotMove(_ANA, Bid(2, 5)),
        BotMove(_BRUNO, Bid(3, 4)),
        _step("liars-dice", "raise", Bid(4, 4), bid="4x4", standing="3x4"),
        BotMove(_ANA, Bid(5, 4)),
        BotMove(_BRUNO, Bid(7, 4)),
        _step("liars-dice", "call", CALL, standing="7x4", call="call"),
    ),
    title="learn.liars-dice.title",
    end="learn.liars-dice.end",
)

LESSONS: dict[str, Lesson] = {one.name: one for one in (DUDO, PERUDO, LIARS_DICE)}


def lesson(name: str) -> Lesson | None:
    """The lesson called ``name``, or None."""
    return LESSONS.get(name)
