"""Sources of chance: every die the engine rolls, and random seating, come from one of these.

The engine never touches a global random generator, so a game is fully determined by its
chance source and its actions. :class:`RandomChance` is a seeded generator;
:class:`ScriptedChance` hands out outcomes given in advance (tests, puzzles, replaying a
record, the real dice of an in-person table), then optionally falls back to another source.
:func:`hand_rolls` lists every hand a roll can give, for those who weigh all of them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod
from math import floor as _floor
from typing import Literal, NamedTuple, Protocol

from dudo.engine.errors import ChanceError

ChanceKind = Literal["roll", "order"]


class ChanceOutcome(NamedTuple):
    """One chance outcome as the engine used it: a roll of ``len(values)`` dice, or a seating order."""

    kind: ChanceKind
    values: tuple[int, ...]


class ChanceSource(Protocol):
    def roll(self, count: int, faces: int) -> tuple[int, ...]:
        """``count`` dice, each 1..faces."""
        ...

    def order(self, players: int) -> tuple[int, ...]:
        """A random order of players 0..players-1."""
        ...


class RandomChance:
    """Dice from a seeded :class:`random.Random` (or one you pass in)."""

    def __init__(self, seed: int | str | None = None, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    # A die is floor(random() * faces) + 1. floor() equals int() on these non-negative
    # values and is the cheaper call: every deal of every game runs through here.

    def roll(self, count: int, faces: int) -> tuple[int, ...]:
        if count == 1:
            return (_floor(self.rng.random() * faces) + 1,)
        rand = self.rng.random
        return tuple([_floor(rand() * faces) + 1 for _ in range(count)])

    def order(self, players: int) -> tuple[int, ...]:
        # Fisher-Yates with random(): random.shuffle's bit-level draws are slower here.
        if players == 2:
            # The loop below, unrolled for heads-up: j = floor(2 * random()) is 0 (swap) below 0.5.
            return (1, 0) if self.rng.random() < 0.5 else (0, 1)
        seats = list(range(players))
        rand = self.rng.random
        for i in range(players - 1, 0, -1):
            j = _floor(rand() * (i + 1))
            seats[i], seats[j] = seats[j], seats[i]
        return tuple(seats)


class ScriptedChance:
    """Outcomes given in advance, used in order; then ``then`` (if given) takes over.

    Each scripted entry is either a sequence of die values (for a roll) or a
    :class:`ChanceOutcome`. An entry of the wrong kind or size raises :class:`ChanceError`.
    """

    def __init__(
        self,
        outcomes: Iterable[Sequence[int] | ChanceOutcome],
        then: ChanceSource | None = None,
    ) -> None:
        self._queue: list[ChanceOutcome] = [
            o if isinstance(o, ChanceOutcome) else ChanceOutcome("roll", tuple(o)) for o in outcomes
        ]
        self._next = 0
        self.then = then

    @property
    def remaining(self) -> int:
        return len(self._queue) - self._next

    def _take(self, kind: ChanceKind, what: str) -> ChanceOutcome | None:
        if self._next >= len(self._queue):
            if self.then is None:
                raise ChanceError(f"scripted chance ran out: the game needs {what}")
            return None
        outcome = self._queue[self._next]
        if outcome.kind != kind:
            raise ChanceError(
                f"scripted chance entry {self._next} is a {outcome.kind}, but the game needs {what}"
            )
        return outcome

    def roll(self, count: int, faces: int) -> tuple[int, ...]:
        what = f"a roll of {count} dice"
        outcome = self._take("roll", what)
        if outcome is None:
            assert self.then is not None
            return self.then.roll(count, faces)
        values = outcome.values
        if len(values) != count:
            raise ChanceError(
                f"scripted chance entry {self._next} has {len(values)} dice, but the game needs {what}"
            )
        for v in values:
            if not (isinstance(v, int) and 1 <= v <= faces):
                raise ChanceError(
                    f"scripted chance entry {self._next}: {v!r} is not a face 1..{faces}"
                )
        self._next += 1  # only a valid entry is used up
        return values

    def order(self, players: int) -> tuple[int, ...]:
        what = f"a seating order of {players} players"
        outcome = self._take("order", what)
        if outcome is None:
            assert self.then is not None
            return self.then.order(players)
        if sorted(outcome.values) != list(range(players)):
            raise ChanceError(
                f"scripted chance entry {self._next}: {list(outcome.values)} is not an order of "
                f"players 0..{players - 1}"
            )
        self._next += 1
        return outcome.values


@lru_cache(maxsize=128)
def hand_rolls(dice: int, faces: int = 6) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every hand of ``dice`` dice (faces in ascending order) with the number of ordered
    rolls that give it; the numbers add up to ``faces ** dice``."""
    out = []
    for hand in combinations_with_replacement(range(1, faces + 1), dice):
        ways = factorial(dice) // prod(factorial(n) for n in Counter(hand).values())
        out.append((hand, ways))
    return tuple(out)
