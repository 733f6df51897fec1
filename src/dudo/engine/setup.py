"""How a game starts beyond its rules: the players, the seating, the dice, the obliged.

:class:`Setup` is one value. :class:`~dudo.engine.game.Game` keeps it as given
(``game.setup``), the batched simulator takes the same value, and a game record writes it
whole, so that the rules, the setup and the chance outcomes rebuild a game exactly. Its one
check, :meth:`Setup.problem`, says what is wrong with it under given rules; the game, the
simulator and the record reader all use it.

Chance is not part of the setup: a chance source is drawn from as the game goes (a seed or
a :class:`~dudo.engine.chance.ChanceSource` is given to the game beside its setup).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from dudo.engine.errors import DudoError
from dudo.engine.rules import Rules

_NOBODY: frozenset[int] = frozenset()

#: The default of ``obliged`` where a setup's fields are keywords: not given.
NOT_GIVEN: tuple[int, ...] = ()


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Setup:
    """The start of a game, beyond its rules. Every field but ``players`` defaults to a
        fresh game.

        ``players`` are numbered 0..players-1. ``order`` fixes the seating (the seats clockwise
        from ``order[0]``, who opens the first round); None lets the rules' ``seating`` decide
        (by chance, unless it is ``fixed``). ``dice`` gives each player's starting dice (0: out
        from the start); None gives ``dice_per_player`` each. ``start_total`` is the dice the
        game began with, for positions set up mid-game (spot-on thresholds count from it);
        None is the dice dealt. ``obliged`` lists the players who have had their obliging round
        already; ``obliger`` makes round 1 that player's obliging round. ``spoken`` marks a game
    at a real table, where bids may be said aloud rather than entered (a
    :class:`~dudo.engine.actions.Spoken` action then stands for them).

        Sequences given as lists (or any iterable) are kept as tuples, and ``obliged`` as a
        frozenset, so that a setup is a hashable value that compares by content.
    """

    players: int = 2
    order: tuple[int, ...] | None = None
    dice: tuple[int, ...] | None = None
    start_total: int | None = None
    obliged: frozenset[int] = _NOBODY
    obliger: int | None = None
    spoken: bool = False

    def __post_init__(self) -> None:
        # (type() tests first: search makes a setup per deal it tries, with tuples.)
        order, dice, obliged = self.order, self.dice, self.obliged
        if order is not None and type(order) is not tuple and isinstance(order, Iterable):
            object.__setattr__(self, "order", tuple(order))
        if dice is not None and type(dice) is not tuple and isinstance(dice, Iterable):
            object.__setattr__(self, "dice", tuple(dice))
        if type(obliged) is not frozenset and isinstance(obliged, Iterable):
            object.__setattr__(self, "obliged", frozenset(obliged))

    def start_dice(self, rules: Rules) -> tuple[int, ...]:
        """Each player's dice at the start."""
        if self.dice is not None:
            return self.dice
        return (rules.dice_per_player,) * self.players

    def start_total_of(self, rules: Rules) -> int:
        """The dice the game counts as its start (``start_total``, or the dice dealt)."""
        if self.start_total is not None:
            return self.start_total
        if self.dice is not None:
            return sum(self.dice)
        return rules.dice_per_player * self.players

    def problem(self, rules: Rules) -> tuple[str, str] | None:
        """The first thing wrong with this setup under ``rules``, as (field, why), or None.

        ``field`` names the field, with an index where one entry is at fault (``dice[2]``);
        ``why`` says what is wrong. :meth:`check` words them as ``"field: why"``."""
        n = self.players
        if type(n) is not int and not _whole(n):
            return "players", f"{n!r} is not a whole number"
        if n < rules.min_players:
            return "players", f"{n} is below min_players={rules.min_players}"
        if rules.max_players is not None and n > rules.max_players:
            return "players", f"{n} is above max_players={rules.max_players}"
        order, dice = self.order, self.dice
        if order is not None and not _is_order(order, n):
            shown = list(order) if isinstance(order, tuple) else order
            return "order", f"{shown!r} is not an order of players 0..{n - 1}"
        if dice is not None:
            found = _dice_problem(dice, n, rules.dice_per_player)
            if found is not None:
                return found
        if not isinstance(self.obliged, frozenset):
            return "obliged", f"{self.obliged!r} is not a set of players"
        if self.obliged:
            odd = [p for p in self.obliged if not _whole(p)]
            for p in odd or sorted(self.obliged):
                if not _whole(p) or not 0 <= p < n:
                    return "obliged", f"{p!r} is not a player (players are 0..{n - 1})"
        obliger = self.obliger
        if obliger is not None:
            if not _whole(obliger) or not 0 <= obliger < n:
                return "obliger", f"{obliger!r} is not a player (players are 0..{n - 1})"
            if not rules.oblige:
                return "obliger", "these rules have no obliging rounds (oblige is false)"
            if dice is not None and not dice[obliger]:
                return "obliger", f"player {obliger} has no dice"
        if type(self.spoken) is not bool:
            return "spoken", f"{self.spoken!r} is not true or false"
        total = self.start_total
        if total is not None:
            if not _whole(total):
                return "start_total", f"{total!r} is not a whole number"
            in_play = sum(dice) if dice is not None else n * rules.dice_per_player
            if total < in_play:
                return (
                    "start_total",
                    f"{total} is below the {in_play} dice in play; "
                    "it counts the dice the game began with",
                )
        return None

    def check(self, rules: Rules) -> None:
        """Raise :class:`DudoError` ("field: why") if :meth:`problem` finds anything."""
        found = self.problem(rules)
        if found is not None:
            raise DudoError(f"{found[0]}: {found[1]}")


def _is_order(order: Any, players: int) -> bool:
    if type(order) is not tuple or len(order) != players:
        return False
    try:
        return sorted(order) == list(range(players))
    except TypeError:  # not numbers
        return False


def _dice_problem(dice: Any, players: int, most: int) -> tuple[str, str] | None:
    if type(dice) is not tuple:
        return "dice", f"{dice!r} is not a list of dice counts"
    if len(dice) != players:
        return "dice", f"{len(dice)} counts given for {players} players"
    for p, count in enumerate(dice):
        if type(count) is not int or not 0 <= count <= most:
            return f"dice[{p}]", f"{count!r} dice; a hand holds 0..{most}"
    if players - dice.count(0) < 2:
        return "dice", "at least two players need dice to play"
    return None


def setup_from(
    rules: Rules,
    setup: Setup | None,
    players: int | None,
    order: Sequence[int] | None = None,
    dice: Sequence[int] | None = None,
    start_total: int | None = None,
    obliged: Iterable[int] = NOT_GIVEN,
    obliger: int | None = None,
) -> Setup:
    """The checked setup of a constructor that takes one (``Game``, ``BatchGame``): given
    whole as ``setup``, or as its fields (``players`` defaults to 2), not both."""
    keywords = (players, order, dice, start_total, obliger)
    if setup is not None:
        if not isinstance(setup, Setup):
            raise DudoError(f"setup: {setup!r} is not a Setup")
        if any(v is not None for v in keywords) or obliged is not NOT_GIVEN:
            raise DudoError("give the setup either whole (setup=...) or as its fields, not both")
        setup.check(rules)
        return setup
    # (Setup keeps any sequence as a tuple and the obliged as a set; what is not one is
    # left for check() to name.)
    setup = Setup(
        2 if players is None else players,
        cast("tuple[int, ...] | None", order),
        cast("tuple[int, ...] | None", dice),
        start_total,
        cast("frozenset[int]", () if obliged is NOT_GIVEN else obliged),
        obliger,
    )
    setup.check(rules)
    return setup


@lru_cache(maxsize=256)
def fresh_start(rules: Rules, players: int) -> tuple[Setup, tuple[int, ...], int]:
    """A fresh game's checked setup, starting dice and start total, worked out once per
    rules and player count (most games start so, by the thousand in search and simulation)."""
    setup = Setup(players)
    setup.check(rules)
    return setup, setup.start_dice(rules), setup.start_total_of(rules)
