"""The database behind one server: :class:`Store`, every aggregate's store in one object.

Each aggregate's methods are written in its own module (:mod:`.tables`, :mod:`.games`,
:mod:`.actions`, :mod:`.players`, :mod:`.devices`, :mod:`.ratings`, :mod:`.chat`,
:mod:`.cups`), all on one :class:`~.database.Database`: one engine, one set of table fences,
and one name space of methods, which the server calls as ``store.save_seat(...)`` and its
metrics time by method name (``dudo_store_seconds{call="save_seat"}``).
"""

from __future__ import annotations

from dudo.server.storage.actions import ActionStore
from dudo.server.storage.chat import ChatStore
from dudo.server.storage.cups import CupStore
from dudo.server.storage.devices import DeviceStore
from dudo.server.storage.games import GameStore
from dudo.server.storage.players import PlayerStore
from dudo.server.storage.ratings import RatingStore
from dudo.server.storage.tables import TableStore


class Store(
    TableStore, GameStore, ActionStore, PlayerStore, DeviceStore, RatingStore, ChatStore, CupStore
):
    """The database behind one server. Every method is one transaction, and may be called from
    several threads at once."""
