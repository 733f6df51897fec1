"""Events: what each action (and each chance outcome the engine draws) makes happen.

Every event is public — it is what the whole table sees or hears. Hidden dice are never in
an event until a reveal shows them to everyone, so the event log can go to any player or
spectator unfiltered.

Events are named tuples (cheap to create on the engine's hot path, ``_asdict()`` for JSON)
that compare equal only to events of the same type.
"""

from __future__ import annotations

import typing
from typing import NamedTuple

from dudo.engine.actions import Bid
from dudo.engine.rules import PassHand


class SeatingRolled(NamedTuple):
    """A seating roll (or a re-roll among tied players): (player, value) pairs."""

    rolls: tuple[tuple[int, int], ...]


class SeatingDecided(NamedTuple):
    """The seating: ``order`` lists the seats clockwise from ``order[0]``, who opens the first
    round; play goes round them in ``direction`` (counterclockwise: ``order[0]``, then
    ``order[-1]``, ``order[-2]``, ...). Seated by roll, play runs in roll order either way."""

    order: tuple[int, ...]
    direction: str


class RoundStarted(NamedTuple):
    number: int
    opener: int
    obliging: bool
    dice_counts: tuple[int, ...]


class ObligingRound(NamedTuple):
    """``player`` obliges this round; ``visibility`` is normal, closed, open or None (to be chosen)."""

    player: int
    visibility: str | None


class VisibilityChosen(NamedTuple):
    player: int
    open: bool


class BidMade(NamedTuple):
    player: int
    bid: Bid
    revealed: tuple[int, ...] = ()  # dice set aside face up (reveal_reroll)
    rerolled: int = 0  # how many hidden dice were re-rolled


class Passed(NamedTuple):
    player: int


class Called(NamedTuple):
    player: int
    bid: Bid
    bidder: int
    out_of_turn: bool = False


class SpotOnClaimed(NamedTuple):
    player: int
    bid: Bid
    bidder: int


class PassDoubted(NamedTuple):
    player: int
    passer: int


class Revealed(NamedTuple):
    """All dice shown. For a call or spot-on, ``count`` dice matched ``bid``; for a doubted
    pass, ``pass_hand`` is the passer's qualifying hand (None if the pass was a bluff)."""

    hands: tuple[tuple[int, ...], ...]
    bid: Bid | None
    count: int | None  # type: ignore[assignment]  # the field hides tuple.count, on purpose
    wild_aces: bool
    passer: int | None = None
    pass_hand: PassHand | None = None


class DiceLost(NamedTuple):
    player: int
    count: int  # type: ignore[assignment]  # the field hides tuple.count, on purpose
    remaining: int


class DieWon(NamedTuple):
    player: int
    remaining: int


class RoundCancelled(NamedTuple):
    """A right spot-on under ``spot_on_reward=cancel``: nobody gains or loses, the round is re-dealt."""

    player: int


class Eliminated(NamedTuple):
    player: int


class GameOver(NamedTuple):
    winner: int


Event = (
    SeatingRolled
    | SeatingDecided
    | RoundStarted
    | ObligingRound
    | VisibilityChosen
    | BidMade
    | Passed
    | Called
    | SpotOnClaimed
    | PassDoubted
    | Revealed
    | DiceLost
    | DieWon
    | RoundCancelled
    | Eliminated
    | GameOver
)


def _same_event(self: tuple[object, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other) is True


def _different_event(self: tuple[object, ...], other: object) -> bool:
    return not _same_event(self, other)


#: Every event type, in the order of the ``Event`` union (written once, there).
EVENT_TYPES: tuple[type[tuple[object, ...]], ...] = typing.get_args(Event)

for _type in EVENT_TYPES:
    # Plain tuple equality would make Passed(1) == Eliminated(1).
    setattr(_type, "__eq__", _same_event)  # noqa: B010
    setattr(_type, "__ne__", _different_event)  # noqa: B010
    setattr(_type, "__hash__", tuple.__hash__)  # noqa: B010
