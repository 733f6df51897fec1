"""Whether a table waits for the store: a write nobody is waiting for (an automatic move, a
stand-in, the host passing on, a finished game's record) that the store did not take makes
the table say it is retrying, until a write goes through."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING

from dudo.server.storage import StoreUnavailable
from dudo.server.tables.model import StoreState

if TYPE_CHECKING:
    from dudo.server.tables.table import Table


class Saving:
    """The table's store state (the table frame's ``store``)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.store_state = StoreState.OK

    def retrying(self) -> None:
        if self.store_state is not StoreState.RETRYING:
            self.store_state = StoreState.RETRYING
            self.table.audience.broadcast_table()

    def ok(self) -> None:
        """A write went through: the table is no longer waiting for the store (unless its
        finished game's record still is)."""
        if self.store_state is not StoreState.OK and not self.table.results.saving_record:
            self.store_state = StoreState.OK
            self.table.audience.broadcast_table()

    async def unasked(self, write: Awaitable[None]) -> bool:
        """A write no person is waiting for (an automatic move, a stand-in): True once the
        store took it. False when it did not: the table then says it is retrying, and the
        caller schedules the next try."""
        try:
            await write
        except StoreUnavailable:
            self.retrying()
            return False
        self.ok()
        return True
