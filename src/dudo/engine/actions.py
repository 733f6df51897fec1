"""The actions a player can take: bids, calls, spot-on, pass, doubting a pass, the
obliger's open/closed choice, a bid with reveal-and-reroll, and (at a real table) the bids
said aloud rather than entered.

Actions are small immutable values. Their ``str`` is the canonical, language-neutral
notation used in game records (``5x3``, ``call``, ``spot-on``, ``pass``, ``doubt-pass``,
``open``, ``closed``, ``5x3 reveal 3,3``, ``said 5x3``, ``said 5x3 pass``); :mod:`dudo.notation` reads and writes the
spoken forms in English, Spanish and Italian.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Bid(NamedTuple):
    """A claim that at least ``quantity`` dice on the table show ``face``.

    A named tuple because bids are hashed and compared on every engine step; its tuple
    ordering is not the bid order (ask :mod:`dudo.engine.bids` which bid raises which).
    """

    quantity: int
    face: int

    def __str__(self) -> str:
        return f"{self.quantity}x{self.face}"


@dataclass(frozen=True, slots=True)
class RevealBid:
    """A raise with reveal-and-reroll: set ``reveal`` aside face up, re-roll the other hidden dice."""

    bid: Bid
    reveal: tuple[int, ...]

    def __post_init__(self) -> None:
        # One canonical form per multiset of dice, so equal reveals compare equal.
        object.__setattr__(self, "reveal", tuple(sorted(self.reveal)))

    def __str__(self) -> str:
        return f"{self.bid} reveal {','.join(str(v) for v in self.reveal)}"


@dataclass(frozen=True, slots=True)
class Call:
    """Dudo: doubt the standing bid. ``by`` names an out-of-turn caller under ``cruzado``;
    ``None`` (or the player to act) is the ordinary in-turn call."""

    by: int | None = None

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class SpotOn:
    """Calzo: claim the standing bid is exactly right."""

    def __str__(self) -> str:
        return "spot-on"


@dataclass(frozen=True, slots=True)
class Pass:
    """Paso: claim a special hand and pass the standing bid on."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class DoubtPass:
    """Dudo el paso: doubt that the previous player's pass was backed by a special hand."""

    def __str__(self) -> str:
        return "doubt-pass"


@dataclass(frozen=True, slots=True)
class ObligeChoice:
    """The obliger's choice under ``oblige_visibility=obliger_chooses``: an open or closed round."""

    open: bool

    def __str__(self) -> str:
        return "open" if self.open else "closed"


@dataclass(frozen=True, slots=True)
class Spoken:
    """At a real table, where bids may be said aloud instead of entered: the round went on by
    voice up to player ``by`` bidding ``bid`` (with ``passed``: passing on the standing bid
    ``bid``). It stands for every action said since the last one entered, so a call can follow
    it; only a game set up with ``Setup(spoken=True)`` takes it (see :mod:`dudo.engine.spoken`).
    ``by`` is None only as read from the notation, before a record names the player."""

    bid: Bid
    by: int | None = None
    passed: bool = False

    def __str__(self) -> str:
        return f"said {self.bid}{' pass' if self.passed else ''}"


Action = Bid | RevealBid | Call | SpotOn | Pass | DoubtPass | ObligeChoice | Spoken

CALL = Call()
SPOT_ON = SpotOn()
PASS = Pass()
DOUBT_PASS = DoubtPass()
OPEN = ObligeChoice(True)
CLOSED = ObligeChoice(False)


def placed_bid(action: Action) -> Bid | None:
    """The bid an action places on the table, if it is a bid."""
    if isinstance(action, Bid):
        return action
    if isinstance(action, RevealBid):
        return action.bid
    return None
