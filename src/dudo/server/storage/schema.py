"""The database's schema: every table and index, as SQLAlchemy Core objects.

Alembic creates and upgrades the schema (:mod:`dudo.server.migrations`, which compares against
:data:`metadata`); nothing here runs ``create_all``.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

tables_table = sa.Table(
    "tables",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # lobby | playing | over | closed
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("options", sa.Text, nullable=False),  # JSON: the house rules given at creation
    sa.Column("settings", sa.Text, nullable=False),  # JSON: seats, timers
    sa.Column("game_id", sa.Integer, nullable=True),
    sa.Column("updated", sa.Float, nullable=True),  # the last change: idle lobbies are closed
    sa.Column("host", sa.Integer, nullable=True),  # the host's seat; NULL: no person is left
    # Listed in the lobby (True) or reached by its link only (False).
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    # Raised by each process that takes the table over (several processes, docs/cluster.md);
    # every write of the owner checks it, so a process that lost the table cannot commit.
    sa.Column("fence", sa.Integer, nullable=False, server_default=sa.text("0")),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("tables.code"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # open | human | bot
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("level", sa.String(16), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("autoplay", sa.Boolean, nullable=False, default=False),
    # Said ready for the rematch (after a game); games won and played at this table.
    sa.Column("ready", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
    sa.Column("wins", sa.Integer, nullable=False, default=0, server_default="0"),
    sa.Column("played", sa.Integer, nullable=False, default=0, server_default="0"),
    # The player who sits here (NULL: a seat taken without a player key, or a bot).
    sa.Column("player_id", sa.String(32), nullable=True),
)

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), sa.ForeignKey("tables.code"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),  # secret: it decides every die
    sa.Column("rules", sa.Text, nullable=False),  # JSON: the full option set
    sa.Column("players", sa.Text, nullable=False),  # JSON: [{"seat", "name", "kind", "level"}]
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("rounds", sa.Integer, nullable=True),
    sa.Column("record", sa.Text, nullable=True),  # the dudo-record once the game is over
    sa.Column("rated", sa.String(16), nullable=True),  # the rule family of a rated game
    # JSON: the setup beyond the players, as a record writes it ({} for a fresh game)
    sa.Column("setup", sa.Text, nullable=False, server_default=sa.text("'{}'")),
)

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("player", sa.Integer, nullable=False),
    sa.Column("action", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

cups_table = sa.Table(
    "cups",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("state", sa.Text, nullable=False),  # the dudo-cup JSON form
    sa.Column("updated", sa.Float, nullable=False),
)

fair_table = sa.Table(
    "fair_dice",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), sa.ForeignKey("tables.code"), nullable=False),
    # NULL: the secret drawn for the table's next game (its commitment is shown already).
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=True, unique=True),
    sa.Column("secret", sa.String(64), nullable=False),  # hex; secret until the game is over
    sa.Column("seeds", sa.Text, nullable=True),  # JSON: the client seeds, in player order
)

#: Table chat (:mod:`dudo.server.chat`): each message with its game (0: before the first) and
#: the number of actions played when it was said, so the replay shows it at that moment.
chat_table = sa.Table(
    "chat",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("game", sa.Integer, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("turn", sa.Integer, nullable=False),
    sa.Column("channel", sa.String(16), nullable=False),  # players | spectators
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("text", sa.String(256), nullable=True),
    sa.Column("phrase", sa.String(32), nullable=True),
    sa.Column("at", sa.Float, nullable=False),
    # The speaker's player id (NULL: a spectator, a seat without a player key): never sent.
    sa.Column("player", sa.String(32), nullable=True),
    # The speaker's opaque identity at the table, what a reader mutes (chat.speaker).
    sa.Column("who", sa.String(16), nullable=True),
)

chat_settings_table = sa.Table(
    "chat_settings",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("off", sa.Boolean, nullable=False, server_default=sa.false()),
)

players_table = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=True),  # NULL once deleted
    sa.Column("name_key", sa.String(256), nullable=True, unique=True),
    sa.Column("key_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("password_hash", sa.String(256), nullable=True),
    sa.Column("key_sealed", sa.String(256), nullable=True),  # the key, sealed by the password
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("deleted", sa.Float, nullable=True),
)

player_codes_table = sa.Table(
    "player_codes",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
    sa.Column("key_sealed", sa.String(256), nullable=False),  # the key, sealed by the code
    sa.Column("expires", sa.Float, nullable=False),
)

#: The devices that used a player's key (:mod:`dudo.server.devices`): a random id each browser
#: makes, its browser and system ("Firefox|Android"; no address, no full User-Agent), first and
#: last use.
player_devices_table = sa.Table(
    "player_devices",
    metadata,
    sa.Column("player", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("device", sa.String(32), primary_key=True),
    sa.Column("label", sa.String(64), nullable=False),
    sa.Column("first_seen", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=False),
)

ratings_table = sa.Table(
    "ratings",
    metadata,
    sa.Column("rater", sa.String(40), primary_key=True),  # a player id or "bot:<level>"
    sa.Column("family", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

rating_history_table = sa.Table(
    "rating_history",
    metadata,
    sa.Column("game_id", sa.Integer, primary_key=True),
    sa.Column("rater", sa.String(40), primary_key=True),
    sa.Column("family", sa.String(16), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

game_players_table = sa.Table(
    "game_players",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("player", sa.Integer, primary_key=True),  # the player's number in the game
    sa.Column("rater", sa.String(40), nullable=True),  # a player id, "bot:<level>" or NULL
    sa.Column("place", sa.Integer, nullable=True),  # 1: the winner; NULL until the end
    sa.Column("left_early", sa.Boolean, nullable=False, server_default=sa.false()),
    # The person made a move of the game themselves (a bot's row: never set, not needed).
    sa.Column("acted", sa.Boolean, nullable=False, server_default=sa.false()),
)

sa.Index("games_finished", games_table.c.finished)
sa.Index("games_code", games_table.c.code)
sa.Index("game_players_rater", game_players_table.c.rater)
sa.Index("tables_status", tables_table.c.status)
sa.Index("cups_updated", cups_table.c.updated)
sa.Index("fair_dice_code", fair_table.c.code)
sa.Index("chat_game", chat_table.c.game, chat_table.c.seq)
sa.Index("chat_player", chat_table.c.player)
sa.Index("rating_history_rater", rating_history_table.c.rater, rating_history_table.c.family)

#: The statuses of a table that needs an owner: in its lobby, or in play.
LIVE_STATUSES: tuple[str, ...] = ("lobby", "playing")
