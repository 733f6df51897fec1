"""What the server keeps on disk: tables, seats, games, every accepted action, players,
ratings, chat, dice cups.

SQLAlchemy Core over SQLite (default: a file in the data folder) or PostgreSQL (by URL). The
schema is created and upgraded by Alembic (:mod:`dudo.server.migrations`), never by
``create_all``, so a database made by an older version is migrated forward on start.

The store is synchronous and small on purpose: the game loop commits each accepted action
before anyone hears of it, so a crash at any moment loses nothing that was broadcast.
:class:`AsyncStore` runs every call in a worker thread, so a slow or locked database holds up
only the tables that are writing, and turns every failure into :class:`StoreUnavailable`. Each
call gives up in bounded time (SQLite's busy timeout, PostgreSQL's connect and statement
timeouts), so a worker is never stuck for good.

The modules, one aggregate each, all on one :class:`~.database.Database`:

- :mod:`.schema`: every table and index (:data:`metadata`, which the migrations compare to).
- :mod:`.database`: the engine, the migrations, the failures (:class:`StoreUnavailable`,
  :class:`FencedOut`), token hashes, and the table fence every write of a table checks.
- :mod:`.tables`: tables and seats, loaded again with their game and chat.
- :mod:`.games`: games from start to record, their fair dice, the list of finished games.
- :mod:`.actions`: every accepted action, committed one by one or together.
- :mod:`.players`: accounts, names, passwords, one-time codes, a player's seats and games,
  the deletion of an account.
- :mod:`.devices`: a player's devices, and the new key that signs the others out.
- :mod:`.ratings`: ratings and their history, the leaderboard, a rater's profile.
- :mod:`.chat`: chat messages, whether a table's chat is off, who may read a game's chat.
- :mod:`.cups`: dice cups.
- :mod:`.store`: :class:`Store`, all of them in one object.
- :mod:`.async_store`: :class:`AsyncStore`, the store off the event loop.
"""

from dudo.server.storage.actions import ActionWrite
from dudo.server.storage.async_store import AsyncStore, CommitPacing
from dudo.server.storage.chat import CHAT_RECENT, ChatLine, ChatMessage
from dudo.server.storage.cups import StoredCup
from dudo.server.storage.database import (
    DB_TIMEOUT,
    MIGRATIONS,
    FencedOut,
    StoreUnavailable,
    default_url,
    make_engine,
    migrate,
    newest_revision,
    token_hash,
)
from dudo.server.storage.devices import MAX_DEVICES, Device, SeatHashes
from dudo.server.storage.games import GameFilter, GameSummary, Place, StoredGame
from dudo.server.storage.players import Password, PlayerGame, PlayerSeat, StoredPlayer, TakenCode
from dudo.server.storage.ratings import (
    LeaderboardRow,
    Opponent,
    PresetRecord,
    Profile,
    RaterRating,
    RatingChange,
    RatingPoint,
    RecentGame,
)
from dudo.server.storage.schema import (
    LIVE_STATUSES,
    chat_table,
    games_table,
    metadata,
    player_codes_table,
    player_devices_table,
    players_table,
    seats_table,
)
from dudo.server.storage.store import Store
from dudo.server.storage.tables import KEEP_HOST, StoredSeat, StoredTable

__all__ = [
    "CHAT_RECENT",
    "DB_TIMEOUT",
    "KEEP_HOST",
    "LIVE_STATUSES",
    "MAX_DEVICES",
    "MIGRATIONS",
    "ActionWrite",
    "AsyncStore",
    "ChatLine",
    "ChatMessage",
    "CommitPacing",
    "Device",
    "FencedOut",
    "GameFilter",
    "GameSummary",
    "LeaderboardRow",
    "Opponent",
    "Password",
    "Place",
    "PlayerGame",
    "PlayerSeat",
    "PresetRecord",
    "Profile",
    "RaterRating",
    "RatingChange",
    "RatingPoint",
    "RecentGame",
    "SeatHashes",
    "Store",
    "StoreUnavailable",
    "StoredCup",
    "StoredGame",
    "StoredPlayer",
    "StoredSeat",
    "StoredTable",
    "TakenCode",
    "chat_table",
    "default_url",
    "games_table",
    "make_engine",
    "metadata",
    "migrate",
    "newest_revision",
    "player_codes_table",
    "player_devices_table",
    "players_table",
    "seats_table",
    "token_hash",
]
