"""Dice cups: the state of each cup of the cup page, reached by its id and token."""

from __future__ import annotations

import json
import time
from typing import NamedTuple

import sqlalchemy as sa

from dudo.cup import Cup
from dudo.server.storage.database import Database, token_hash
from dudo.server.storage.schema import cups_table


class StoredCup(NamedTuple):
    """A cup, and the hash of the token that may change it."""

    token_hash: str
    cup: Cup


class CupStore(Database):
    """Dice cups."""

    def create_cup(self, cup_id: str, token: str, cup: Cup) -> None:
        with self.engine.begin() as c:
            c.execute(
                cups_table.insert().values(
                    id=cup_id,
                    token_hash=token_hash(token),
                    state=json.dumps(cup.to_dict()),
                    updated=time.time(),
                )
            )

    def load_cup(self, cup_id: str) -> StoredCup | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(cups_table).where(cups_table.c.id == cup_id)).first()
        if row is None:
            return None
        return StoredCup(row.token_hash, Cup.from_dict(json.loads(row.state)))

    def save_cup(self, cup_id: str, cup: Cup) -> None:
        with self.engine.begin() as c:
            c.execute(
                cups_table.update()
                .where(cups_table.c.id == cup_id)
                .values(state=json.dumps(cup.to_dict()), updated=time.time())
            )

    def delete_cups_unused_since(self, since: float) -> int:
        """Delete the dice cups not used since ``since`` (time.time()); how many."""
        with self.engine.begin() as c:
            result = c.execute(cups_table.delete().where(cups_table.c.updated < since))
        return int(result.rowcount or 0)
