"""Common deals: the dice of an arena pair's two games drawn by what they are for, not by
the order in which they are drawn (scheme ``dudo-deal-1``).

Both games of a pair (:mod:`dudo.arena.pairs`) play on a :class:`DealChance` of the same
pair key. Each draw takes its numbers from its own byte stream

    HMAC-SHA256(key=pair key, msg="dudo-deal-1|" + what + "|" + str(counter))

for counter = 0, 1, 2, ..., where ``what`` names the draw:

- ``setup:i``: the i-th draw made while the game is set up (the seating, by order or by
  rolls, and the first round's deal). Setting up asks the same questions in both games of a
  pair, so keying these by their index gives both the same seating and round-1 dice;
- ``round:r:seat:s``: the deal of seat ``s`` in round ``r`` (r >= 2, or a deal the first
  round makes after setup);
- ``round:r:seat:s:reroll:k``: the k-th reveal-and-reroll of seat ``s`` in round ``r``.

A die takes the next byte ``b`` and, unless ``b`` falls in the uneven tail, is
``b % faces + 1`` (as in :mod:`dudo.engine.fair`). A seat with fewer dice takes a prefix of
the same stream, so in round ``r`` a seat gets the same dice in both games as far as its
dice count allows, however differently the two games went before. Drawing by order
instead would make the deals drift apart at the first re-roll or lost die that differs.

Which round and seat a draw is for is read from the game (:meth:`DealChance.attach`): the
round number, the dice counts at the round's start (the engine deals the seats with dice in
seat order) and the player to move (who re-rolls). Pure and deterministic.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Protocol

from dudo.engine.errors import DudoError

SCHEME = "dudo-deal-1"


class _Table(Protocol):
    """What a :class:`DealChance` reads from the game it deals for."""

    @property
    def round_number(self) -> int: ...

    @property
    def counts(self) -> tuple[int, ...]: ...

    @property
    def to_move(self) -> int | None: ...


class _Stream:
    """Uniform numbers from one keyed HMAC-SHA256 byte stream."""

    def __init__(self, key: bytes, what: str) -> None:
        self._key = key
        self._prefix = f"{SCHEME}|{what}|".encode("ascii")
        self._counter = 0
        self._block = b""
        self._at = 0

    def below(self, n: int) -> int:
        limit = 256 - 256 % n  # bytes at or above it would favour the low values: skipped
        while True:
            if self._at >= len(self._block):
                message = self._prefix + str(self._counter).encode("ascii")
                self._block = hmac.new(self._key, message, hashlib.sha256).digest()
                self._counter += 1
                self._at = 0
            b = self._block[self._at]
            self._at += 1
            if b < limit:
                return b % n


class DealChance:
    """A :class:`~dudo.engine.chance.ChanceSource` keyed by the pair and by what each draw
    is for (see the module's documentation). Build it, build the game on it, then
    :meth:`attach` the game before the first action."""

    def __init__(self, key: str) -> None:
        self.key = key.encode("utf-8")
        self._game: _Table | None = None
        self._setup = 0
        self._round = 0
        self._to_deal: list[int] = []
        self._rerolls: dict[int, int] = {}

    def attach(self, game: _Table) -> None:
        """Key the draws from now on by the round and seat of ``game`` (already set up:
        its first round's deal, if made, was a setup draw)."""
        self._game = game
        self._round = game.round_number
        self._to_deal = []  # the first round was dealt during setup
        self._rerolls = {}

    def _stream(self, what: str) -> _Stream:
        return _Stream(self.key, what)

    def _what(self, count: int) -> str:
        game = self._game
        if game is None:
            self._setup += 1
            return f"setup:{self._setup - 1}"
        number = game.round_number
        if number != self._round:  # a new round: its first draws are the deal, seat by seat
            self._round = number
            self._to_deal = [seat for seat, dice in enumerate(game.counts) if dice]
            self._rerolls = {}
        if self._to_deal:
            seat = self._to_deal.pop(0)
            if game.counts[seat] != count:
                raise DudoError(
                    f"deal of round {number}: seat {seat} holds {game.counts[seat]} dice,"
                    f" but {count} were asked for"
                )
            return f"round:{number}:seat:{seat}"
        mover = game.to_move
        if mover is None:
            raise DudoError(f"a roll in round {number} with nobody to move")
        k = self._rerolls.get(mover, 0)
        self._rerolls[mover] = k + 1
        return f"round:{number}:seat:{mover}:reroll:{k}"

    def roll(self, count: int, faces: int) -> tuple[int, ...]:
        stream = self._stream(self._what(count))
        return tuple(stream.below(faces) + 1 for _ in range(count))

    def order(self, players: int) -> tuple[int, ...]:
        if self._game is not None:
            raise DudoError("a seating order asked for after the game was set up")
        stream = self._stream(f"setup:{self._setup}")
        self._setup += 1
        seats = list(range(players))
        for i in range(players - 1, 0, -1):
            j = stream.below(i + 1)
            seats[i], seats[j] = seats[j], seats[i]
        return tuple(seats)
