"""Provably fair dice at a table: the secret of the next game (committed to before any client
seed is taken, revealed once that game is over), the client seeds its people send, and what
everyone may see of both."""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any

from dudo.engine.fair import SCHEME, SECRET_BYTES, FairSeed, valid_client_seed
from dudo.server.errors import ErrorCode as E
from dudo.server.storage import StoredTable, StoreUnavailable
from dudo.server.tables.model import ActionRefused, Seat, SeatKind, TableStatus, retry_delay

if TYPE_CHECKING:
    from dudo.server.tables.table import Table


def draw_secret(dice: random.Random) -> bytes:
    """A new secret for a game's dice, from ``dice``: the hall's generator."""
    return dice.getrandbits(SECRET_BYTES * 8).to_bytes(SECRET_BYTES, "big")


class FairDice:
    """The current game's seed, the next game's secret, and the client seeds sent for it."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: What decides the current game's dice: its fair secret and client seeds (a game from
        #: before provably fair dice: an int seed). A review plays it again to see each view.
        self.seed: int | FairSeed | None = None
        #: The secret of the next game's dice: its commitment is shown before any client seed
        #: is taken, and it is revealed only once that game is over.
        self.next_secret: bytes | None = None
        #: The client seeds sent for the next game: seat -> (the seat's token hash, seed), so
        #: a seed counts only for the person who sent it.
        self.client_seeds: dict[int, tuple[str, str]] = {}

    def to_json(self) -> dict[str, Any]:
        """The fair-dice data everyone may see: the next game's commitment and who has sent a
        client seed for it; the current (or last) game's commitment and locked seeds, and its
        secret once that game is over, never before."""
        table = self.table
        upcoming = None
        if self.next_secret is not None and table.status in (TableStatus.LOBBY, TableStatus.OVER):
            upcoming = {
                "commitment": FairSeed(self.next_secret, ()).commitment,
                "seeded": sorted(s for s in self.client_seeds if self._counts(s)),
            }
        current = None
        if isinstance(self.seed, FairSeed):
            over = table.status is TableStatus.OVER
            current = {"game": table.play.game_id, **self.seed.to_json(reveal=over)}
        return {"scheme": SCHEME, "next": upcoming, "game": current}

    def _counts(self, seat: int) -> bool:
        """The seed sent from ``seat`` is its present person's."""
        sent = self.client_seeds.get(seat)
        person = self.table.seats[seat]
        return sent is not None and person.kind is SeatKind.HUMAN and sent[0] == person.token_hash

    async def set_client_seed(self, seat: Seat | None, seed: object) -> None:
        """A seated person's client seed for the next game: taken (or changed) until it
        starts, then locked."""
        table = self.table
        async with table.lock:
            if table.status is TableStatus.BROKEN:
                raise ActionRefused(E.TABLE_BROKEN, "this table's game could not be resumed")
            if seat is None or seat.kind is not SeatKind.HUMAN or seat.token_hash is None:
                raise ActionRefused(
                    E.SEED_NOT_SEATED, "only a person seated at the table sends a client seed"
                )
            if table.status is TableStatus.PLAYING or self.next_secret is None:
                raise ActionRefused(
                    E.SEED_LOCKED,
                    "the game has started: its client seeds are locked; send yours for the "
                    "next game once this one is over",
                )
            if not valid_client_seed(seed):
                raise ActionRefused(
                    E.SEED_INVALID, "seed: give 16 to 64 lower-case hex digits (0-9, a-f)"
                )
            assert isinstance(seed, str)
            self.client_seeds[seat.seat] = (seat.token_hash, seed)
            table.changed()
            table.audience.broadcast_table()

    def deal(self, filled: list[Seat]) -> FairSeed:
        """The dice of a game of the seats ``filled``: from the secret committed to before any
        client seed was taken, and the seeds of the people seated now (a bot's, or a missing
        one, is "")."""
        secret = self.next_secret
        if secret is None:
            secret = draw_secret(self.table.hall.dice)
        seeds = tuple(self.client_seeds[s.seat][1] if self._counts(s.seat) else "" for s in filled)
        return FairSeed(secret, seeds)

    def dealt(self, fair: FairSeed) -> None:
        """The game of ``fair`` is stored: its secret is used, and the next game gets a new
        one when this one is over."""
        self.seed = fair
        self.next_secret = None
        self.client_seeds.clear()

    def committed(self, secret: bytes) -> None:
        """The next game's secret is ``secret`` (stored already with the new table)."""
        self.next_secret = secret

    def new_next_secret(self) -> None:
        """Draw the next game's secret (its commitment is shown at once) and store it."""
        self.next_secret = draw_secret(self.table.hall.dice)
        self.client_seeds.clear()
        self.table.hall.spawn(self._keep_next_secret(self.next_secret, 0))

    async def _keep_next_secret(self, secret: bytes, attempt: int) -> None:
        """Store the next game's secret, trying again until the store takes it (unless a game
        has used it meanwhile, or another replaced it)."""
        table = self.table
        while True:
            async with table.lock:
                if self.next_secret != secret:
                    return
                try:
                    await table.hall.db.run(table.hall.store.set_next_secret, table.code, secret)
                    return
                except StoreUnavailable:
                    pass
            await asyncio.sleep(retry_delay(attempt))
            attempt += 1

    def resume(self, stored: StoredTable) -> None:
        """The next game's secret, and the stored game's seed, as the store kept them."""
        self.next_secret = stored.next_secret
        game = stored.game
        if game is not None:
            self.seed = game.fair if game.fair is not None else game.seed
