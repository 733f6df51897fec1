"""What one player, or a spectator, may know now: the only way interfaces read a game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from dudo.engine.actions import Action, Bid
from dudo.engine.events import Event, Revealed
from dudo.engine.rules import Direction, Rules


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``viewer`` may know (``viewer`` None: a spectator). Nothing more.

    ``seen_dice[p]`` are player p's dice this viewer can see now: their own hidden dice
    (unless a closed or open obliging round hides them), every other player's in an open
    obliging round, and dice set aside face up by reveal-and-reroll (which everyone sees).
    ``None`` means nothing of that hand is visible; ``()`` an empty hand. ``order`` lists
    the seats clockwise from the first round's opener; play goes round them in
    ``rules.direction`` (see :func:`successors`).
    """

    rules: Rules
    viewer: int | None
    players: int
    order: tuple[int, ...]
    dice_counts: tuple[int, ...]
    start_total: int
    obliged: frozenset[int]
    phase: str
    round_number: int
    obliging: bool
    obliger: int | None
    visibility: str | None
    opener: int
    to_move: int | None
    standing_bid: Bid | None
    bidder: int | None
    passer: int | None
    passed: frozenset[int]
    round_actions: tuple[tuple[int, Action], ...]
    my_dice: tuple[int, ...] | None
    seen_dice: tuple[tuple[int, ...] | None, ...]
    set_aside: tuple[tuple[int, ...], ...]
    legal_actions: tuple[Action, ...]
    events: tuple[Event, ...]
    winner: int | None

    @property
    def dice_in_play(self) -> int:
        return sum(self.dice_counts)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def my_turn(self) -> bool:
        return self.viewer is not None and self.viewer == self.to_move

    @property
    def known_dice(self) -> tuple[int, ...]:
        """Every die whose face this viewer knows now."""
        return tuple(d for hand in self.seen_dice if hand for d in hand)

    @property
    def unknown_count(self) -> int:
        """Dice in play whose faces this viewer does not know."""
        return self.dice_in_play - len(self.known_dice)

    def next_player(self, player: int) -> int:
        """Who acts after ``player`` bids: the next seat with dice in the rules' direction."""
        succ = successors(self.order, self.rules.direction is Direction.CLOCKWISE)
        nxt = succ[player]
        while not self.dice_counts[nxt] and nxt != player:
            nxt = succ[nxt]
        return nxt

    @property
    def reveals(self) -> tuple[Revealed, ...]:
        """Every reveal of the game so far, oldest first."""
        return tuple(e for e in self.events if isinstance(e, Revealed))


class PublicPart(NamedTuple):
    """The fields of a :class:`PlayerView` that are the same for every viewer of one moment
    (all but :class:`ViewerPart`'s), as :meth:`Game.public_part
    <dudo.engine.game.Game.public_part>` gives them. A view is its moment's public part and
    its viewer's part: a server that sends one moment to many viewers takes the public part
    once and a viewer's part for each, and never builds a whole view."""

    rules: Rules
    players: int
    order: tuple[int, ...]
    dice_counts: tuple[int, ...]
    start_total: int
    obliged: frozenset[int]
    phase: str
    round_number: int
    obliging: bool
    obliger: int | None
    visibility: str | None
    opener: int
    to_move: int | None
    standing_bid: Bid | None
    bidder: int | None
    passer: int | None
    passed: frozenset[int]
    round_actions: tuple[tuple[int, Action], ...]
    set_aside: tuple[tuple[int, ...], ...]
    events: tuple[Event, ...]
    winner: int | None


class ViewerPart(NamedTuple):
    """The fields of a :class:`PlayerView` that depend on who is looking, as
    :meth:`Game.viewer_part <dudo.engine.game.Game.viewer_part>` gives them: a viewer's view
    is any other view of the same moment with these four fields replaced (its
    :class:`PublicPart` and this)."""

    viewer: int | None
    my_dice: tuple[int, ...] | None
    seen_dice: tuple[tuple[int, ...] | None, ...]
    legal_actions: tuple[Action, ...]


def successors(order: tuple[int, ...], clockwise: bool) -> tuple[int, ...]:
    """Who plays after each player (eliminated players included): the next seat of
    ``order``, which lists the seats clockwise, in the direction of play."""
    step = 1 if clockwise else -1
    n = len(order)
    succ = [0] * n
    for i, p in enumerate(order):
        succ[p] = order[(i + step) % n]
    return tuple(succ)
