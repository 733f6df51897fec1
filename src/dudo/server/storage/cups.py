"""Dice cups: the state of each cup of the cup page, reached by its id and token."""

from __future__ import annotations

import json
import time
from typing import Any

import sqlalchemy as sa

from dudo.server.storage.database import Database, token_hash
from dudo.server.storage.schema import cups_table


class CupStore(Database):
    """Dice cups."""

    def create_cup(self, cup_id: str, token: str, state: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            c.execute(
                cups_table.insert().values(
                    id=cup_id,
                    token_hash=token_hash(token),
                    state=json.dumps(state),
                    updated=time.time(),
                )
            )

    def load_cup(self, cup_id: str) -> tuple[str, dict[str, Any]] | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(cups_table).where(cups_table.c.id == cup_id)).first()
        if row is None:
            return None
        state: dict[str, Any] = json.loads(row.state)
        return row.token_hash, state

    def save_cup(self, cup_id: str, state: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            c.execute(
                cups_table.update()
                .where(cups_table.c.id == cup_id)
                .values(state=json.dumps(state), updated=time.time())
            )

    def delete_cups_unused_since(self, since: float) -> int:
        """Delete the dice cups not used since ``since`` (time.time()); how many."""
        with self.engine.begin() as c:
            result = c.execute(cups_table.delete().where(cups_table.c.updated < since))
        return int(result.rowcount or 0)
