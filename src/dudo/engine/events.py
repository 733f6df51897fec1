"""Events: what each action (and each chance outcome the engine draws) makes happen.

Every event is public — it is what the whole table sees or hears. Hidden dice are never in
an event until a reveal shows them to everyone, so the event log can go to any player or
spectator unfiltered.
"""

from __future__ import annotations

from dataclasses import dataclass

from dudo.engine.actions import Bid
from dudo.engine.rules import PassHand


@dataclass(frozen=True, slots=True)
class SeatingRolled:
    """A seating roll (or a re-roll among tied players): (player, value) pairs."""

    rolls: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class SeatingDecided:
    """The play order: ``order[0]`` opens the first round, then play goes round in ``direction``."""

    order: tuple[int, ...]
    direction: str


@dataclass(frozen=True, slots=True)
class RoundStarted:
    number: int
    opener: int
    obliging: bool
    dice_counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ObligingRound:
    """``player`` obliges this round; ``visibility`` is normal, closed, open or None (to be chosen)."""

    player: int
    visibility: str | None


@dataclass(frozen=True, slots=True)
class VisibilityChosen:
    player: int
    open: bool


@dataclass(frozen=True, slots=True)
class BidMade:
    player: int
    bid: Bid
    revealed: tuple[int, ...] = ()  # dice set aside face up (reveal_reroll)
    rerolled: int = 0  # how many hidden dice were re-rolled


@dataclass(frozen=True, slots=True)
class Passed:
    player: int


@dataclass(frozen=True, slots=True)
class Called:
    player: int
    bid: Bid
    bidder: int
    out_of_turn: bool = False


@dataclass(frozen=True, slots=True)
class SpotOnClaimed:
    player: int
    bid: Bid
    bidder: int


@dataclass(frozen=True, slots=True)
class PassDoubted:
    player: int
    passer: int


@dataclass(frozen=True, slots=True)
class Revealed:
    """All dice shown. For a call or spot-on, ``count`` dice matched ``bid``; for a doubted
    pass, ``pass_hand`` is the passer's qualifying hand (None if the pass was a bluff)."""

    hands: tuple[tuple[int, ...], ...]
    bid: Bid | None
    count: int | None
    wild_aces: bool
    passer: int | None = None
    pass_hand: PassHand | None = None


@dataclass(frozen=True, slots=True)
class DiceLost:
    player: int
    count: int
    remaining: int


@dataclass(frozen=True, slots=True)
class DieWon:
    player: int
    remaining: int


@dataclass(frozen=True, slots=True)
class RoundCancelled:
    """A right spot-on under ``spot_on_reward=cancel``: nobody gains or loses, the round is re-dealt."""

    player: int


@dataclass(frozen=True, slots=True)
class Eliminated:
    player: int


@dataclass(frozen=True, slots=True)
class GameOver:
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
