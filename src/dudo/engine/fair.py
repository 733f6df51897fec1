"""Provably fair dice: every chance outcome of a game drawn from a committed secret and the
players' own random strings, by a scheme anyone can recompute (scheme ``dudo-fair-1``).

The server draws a 32-byte secret and shows its commitment, SHA-256(secret) in hex, before any
player sends a client seed; the seeds (lower-case hex, one per player in player order, ``""``
for a bot or a player who sent none) are locked when the game starts. The byte stream is

    HMAC-SHA256(key=secret, msg="dudo-fair-1|" + ",".join(seeds) + "|" + str(counter))

for counter = 0, 1, 2, ..., each block's 32 bytes in order. A number in 0..n-1 takes the next
byte ``b`` and, unless ``b`` falls in the uneven tail (``b >= 256 - 256 % n``, then the byte is
skipped), is ``b % n``: no value is likelier than another. A die of ``faces`` faces is that
number for n = faces, plus one; a seating order is a Fisher-Yates shuffle of 0..players-1 (for
i from players-1 down to 1, swap i with the number for n = i + 1). Every roll and order of the
game takes its values from the one stream, in the order the engine asks for them.

Pure and deterministic: no I/O, no clock, no global generator.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dudo.engine.chance import ChanceOutcome, ChanceSource, RandomChance

SCHEME = "dudo-fair-1"
SECRET_BYTES = 32
#: A client seed: lower-case hex, from 16 to 64 characters (8 to 32 random bytes).
CLIENT_SEED = re.compile(r"[0-9a-f]{16,64}")


def commitment(secret: bytes) -> str:
    """What a seat is shown before the game: the SHA-256 of the secret, in hex."""
    return hashlib.sha256(secret).hexdigest()


def valid_client_seed(seed: object) -> bool:
    return isinstance(seed, str) and CLIENT_SEED.fullmatch(seed) is not None


class FairChance:
    """A :class:`~dudo.engine.chance.ChanceSource` whose every outcome follows from ``secret``
    and ``seeds`` (see the module's documentation for the scheme)."""

    def __init__(self, secret: bytes, seeds: Sequence[str]) -> None:
        for seed in seeds:
            if seed and not valid_client_seed(seed):
                raise ValueError(f"client seed {seed!r} is not 16 to 64 lower-case hex digits")
        self.secret = bytes(secret)
        self.seeds = tuple(seeds)
        self._prefix = f"{SCHEME}|{','.join(self.seeds)}|".encode("ascii")
        self._counter = 0
        self._block = b""
        self._at = 0

    def _byte(self) -> int:
        if self._at >= len(self._block):
            message = self._prefix + str(self._counter).encode("ascii")
            self._block = hmac.digest(self.secret, message, "sha256")  # (OpenSSL's one-shot)
            self._counter += 1
            self._at = 0
        value = self._block[self._at]
        self._at += 1
        return value

    def below(self, n: int) -> int:
        """A number in 0..n-1 (n from 1 to 256), each equally likely."""
        if not 1 <= n <= 256:
            raise ValueError(f"n must be 1..256, not {n}")
        limit = 256 - 256 % n  # bytes at or above it would favour the low values: skipped
        while True:
            b = self._byte()
            if b < limit:
                return b % n

    def roll(self, count: int, faces: int) -> tuple[int, ...]:
        return tuple(self.below(faces) + 1 for _ in range(count))

    def order(self, players: int) -> tuple[int, ...]:
        seats = list(range(players))
        for i in range(players - 1, 0, -1):
            j = self.below(i + 1)
            seats[i], seats[j] = seats[j], seats[i]
        return tuple(seats)


@dataclass(frozen=True)
class FairSeed:
    """Everything that decides a fair game's dice: the secret and the locked client seeds."""

    secret: bytes
    seeds: tuple[str, ...]

    def chance(self) -> FairChance:
        return FairChance(self.secret, self.seeds)

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    def to_json(self, reveal: bool) -> dict[str, Any]:
        """The record's ``meta.fair`` (the secret only if ``reveal``: once the game is over)."""
        return {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "seeds": list(self.seeds),
            "secret": self.secret.hex() if reveal else None,
        }


@dataclass(frozen=True)
class Difference:
    """One way a record's dice do not follow from its fairness data."""

    index: int | None  # the chance entry (None: the commitment itself)
    expected: str
    found: str


def verify(fair: dict[str, Any], chance: Sequence[ChanceOutcome], faces: int) -> list[Difference]:
    """Check a record's ``meta.fair`` against its chance outcomes: the secret's SHA-256 must be
    the commitment, and each outcome the one the scheme gives. Every difference (none: fair).
    Raises ValueError when ``fair`` is not fairness data of this scheme."""
    if fair.get("scheme") != SCHEME:
        raise ValueError(f"unknown scheme {fair.get('scheme')!r} (this program knows {SCHEME})")
    secret_hex, committed, seeds = fair.get("secret"), fair.get("commitment"), fair.get("seeds")
    if not isinstance(secret_hex, str) or not re.fullmatch(r"[0-9a-f]{64}", secret_hex):
        raise ValueError("the secret is not revealed (64 lower-case hex digits)")
    if not isinstance(committed, str):
        raise ValueError("the commitment is missing")
    if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
        raise ValueError("the client seeds are not a list of strings")
    secret = bytes.fromhex(secret_hex)
    found: list[Difference] = []
    if commitment(secret) != committed:
        found.append(Difference(None, committed, commitment(secret)))
    source = FairChance(secret, seeds)
    for index, outcome in enumerate(chance):
        if outcome.kind == "order":
            expected = source.order(len(outcome.values))
        else:
            expected = source.roll(len(outcome.values), faces)
        if expected != tuple(outcome.values):
            found.append(Difference(index, _shown(expected), _shown(outcome.values)))
    return found


def _shown(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def chance_for(seed: int | FairSeed) -> ChanceSource:
    """The chance source of a stored game: its fair secret and seeds, or (a game from before
    provably fair dice) its seeded generator."""
    if isinstance(seed, FairSeed):
        return seed.chance()
    return RandomChance(seed)
