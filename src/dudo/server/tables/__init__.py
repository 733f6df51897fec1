"""Live tables: seats, the game in play, bots, turn timers, stand-ins, and who hears what.

A :class:`Table` is a few facts of its own (code, rules, settings, status, lock) and the parts
it is made of, each a small class that is the one owner of its state; the parts reach each
other through the table, and callers reach them through the table's methods. The modules:

- :mod:`.model`: the shared words (limits, :class:`SeatKind`, :class:`TableStatus`,
  :class:`TableError`, :class:`ActionRefused`, :class:`Settings`, :class:`Seat`, the
  :class:`PlayerKey` and :class:`Outbox` a table meets); no state.
- :mod:`.checks`: what a request must be (a display name, a bot level, a preset's rules with
  house rules, a rated table) and the names bots sit down with; no state.
- :mod:`.table`: :class:`Table`, its own facts, the composition of its parts, its JSON.
- :mod:`.seating`: ``Seating`` owns the seats: tokens, joining, bots added, a seat removed,
  left or given up with a deleted account, ready for the rematch, the running score.
- :mod:`.presence`: ``Graces`` owns the grace periods of people away from a game, after which a
  stand-in plays their seat, and taking a seat back.
- :mod:`.hosting`: ``Hosting`` owns the host role and its hand-over when the host leaves or
  stays away; the rematch.
- :mod:`.countdown`: ``Countdown`` owns the lobby's countdown that fills open seats with bots
  and starts the game.
- :mod:`.fair`: ``FairDice`` owns the current game's seed, the next game's secret and the
  client seeds sent for it.
- :mod:`.game`: ``Play`` owns the game in play and its players: starting it, each person's
  action checked and refused in words, every action stored, applied and told, a restart's
  replay.
- :mod:`.autoplay`: ``Autoplay`` owns the bots and the timers of the next automatic move (a
  bot's, a stand-in's, the turn timer's) and the pause while a reveal is shown.
- :mod:`.results`: ``Results`` owns a finished game's rating changes and the saving of its
  record, places and running score.
- :mod:`.saving`: ``Saving`` owns the table's store state (``retrying`` while a write nobody
  waits for is tried again).
- :mod:`.audience`: ``Audience`` owns the connections (seats' and spectators'), presence, and
  the table and update frames broadcast to them.
- :mod:`.realtable`: ``Cups`` owns a real table's cups: which rolled this round (a round is
  played once all have), the call tapped after bids said aloud, the host playing on for a
  phone that is away.
- :mod:`.restore`: a stored table as it was after a restart, or set aside as broken.
- :mod:`.hall`: :class:`Hall`, every live table of a process: find, create, resume, adopt,
  let go, sweep.

The chat of a table lives in :mod:`dudo.server.chat` and :mod:`dudo.server.chatstore`.

Everything runs on the server's one event loop, and every change to a table happens under the
table's lock in one order: the engine checks it, the store writes it, and only then does
memory change and anyone hear of it (:mod:`.table`).
"""

from dudo.server.tables.checks import (
    BOT_NAMES_POOL,
    bot_name,
    check_level,
    check_rated,
    check_rated_seat,
    clean_name,
    table_rules,
)
from dudo.server.tables.game import action_for
from dudo.server.tables.hall import STORE_DOWN, Hall
from dudo.server.tables.hosting import HOST_AWAY_SECONDS
from dudo.server.tables.model import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_NAME,
    MAX_SEATS,
    MIN_SEATS,
    RETRY_FIRST,
    RETRY_LAST,
    STAND_IN_LEVEL,
    ActionRefused,
    AutoWhy,
    Outbox,
    PlayerKey,
    Seat,
    SeatKind,
    Settings,
    StoreState,
    TableError,
    TableStatus,
    retry_delay,
)
from dudo.server.tables.table import Table

__all__ = [
    "BOT_NAMES_POOL",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "HOST_AWAY_SECONDS",
    "MAX_NAME",
    "MAX_SEATS",
    "MIN_SEATS",
    "RETRY_FIRST",
    "RETRY_LAST",
    "STAND_IN_LEVEL",
    "STORE_DOWN",
    "ActionRefused",
    "AutoWhy",
    "Hall",
    "Outbox",
    "PlayerKey",
    "Seat",
    "SeatKind",
    "Settings",
    "StoreState",
    "Table",
    "TableError",
    "TableStatus",
    "action_for",
    "bot_name",
    "check_level",
    "check_rated",
    "check_rated_seat",
    "clean_name",
    "retry_delay",
    "table_rules",
]
