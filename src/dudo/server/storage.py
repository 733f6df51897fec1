"""What the server keeps on disk: tables, seats, games, every accepted action, dice cups.

SQLAlchemy Core over SQLite (default: a file in the data folder) or PostgreSQL (by URL). The
schema is created and upgraded by Alembic (:mod:`dudo.server.migrations`), never by
``create_all``, so a database made by an older version is migrated forward on start.

The store is synchronous and small on purpose: the game loop commits each accepted action
before anyone hears of it, so a crash at any moment loses nothing that was broadcast, and the
primary key ``(game_id, seq)`` makes applying an action twice impossible. :class:`AsyncStore`
runs every call in a worker thread, so a slow or locked database holds up only the tables that
are writing, and turns every failure into :class:`StoreUnavailable`. Each call gives up in
bounded time (SQLite's busy timeout, PostgreSQL's connect and statement timeouts), so a worker
is never stuck for good.

One write is cheaper than a trip to a thread: on SQLite, the actions accepted in one turn of the
event loop are committed together on the loop itself, in one transaction that never waits
(:meth:`Store.try_add_actions`): a few tens of microseconds, where handing a write to a worker
and back costs the server several times that. When SQLite's lock is taken, or anything else
goes wrong, those actions take the worker path like every other write.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, NoReturn, ParamSpec, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dudo.engine.fair import FairSeed
from dudo.server import ratings

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

#: How many of a table's latest messages a table loaded from the store brings back.
CHAT_RECENT = 50

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

#: The statuses of a table that needs an owner: in its lobby, or in play.
LIVE_STATUSES: tuple[str, ...] = ("lobby", "playing")

_INSERT_ACTION = actions_table.insert()
# The same, only while this process holds the table's fence, in one statement (several
# processes): the check shares the table's row until the commit, so a takeover's fence raise
# waits for it, and an insert after the raise finds the new fence and inserts nothing.
_INSERT_FENCED_ACTION = (
    actions_table.insert()
    .from_select(
        ["game_id", "seq", "player", "action", "at"],
        sa.select(
            sa.bindparam("game_id", type_=sa.Integer),
            sa.bindparam("seq", type_=sa.Integer),
            sa.bindparam("player", type_=sa.Integer),
            sa.bindparam("action", type_=sa.String),
            sa.bindparam("at", type_=sa.Float),
        ).where(
            sa.exists(
                sa.select(tables_table.c.code)
                .where(
                    tables_table.c.code == sa.bindparam("code"),
                    tables_table.c.fence == sa.bindparam("fence"),
                )
                .with_for_update(read=True)
            )
        ),
    )
    .returning(actions_table.c.seq)
)


class ActionWrite(NamedTuple):
    """One accepted action to commit: the arguments of :meth:`Store.add_action`."""

    code: str
    game_id: int
    seq: int
    player: int
    action: str


sa.Index("games_finished", games_table.c.finished)
sa.Index("games_code", games_table.c.code)
sa.Index("game_players_rater", game_players_table.c.rater)
sa.Index("tables_status", tables_table.c.status)
sa.Index("cups_updated", cups_table.c.updated)
sa.Index("fair_dice_code", fair_table.c.code)
sa.Index("chat_game", chat_table.c.game, chat_table.c.seq)
sa.Index("chat_player", chat_table.c.player)
sa.Index("rating_history_rater", rating_history_table.c.rater, rating_history_table.c.family)

log = logging.getLogger("dudo.server")

#: How many of the latest finished games and of the raters met most often a profile gives.
PROFILE_RECENT = 20
PROFILE_OPPONENTS = 5

#: ``save_seat``'s ``host`` when the host does not change.
KEEP_HOST = -1

#: How long one database call may wait for a lock or an answer before it fails (and the server
#: retries or tells the player), in seconds.
DB_TIMEOUT = 3.0


def token_hash(token: str) -> str:
    """Tokens are stored only as their SHA-256, so a copy of the database cannot act for anyone."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / 'dudo.sqlite3'}"


def make_engine(url: str, timeout: float = DB_TIMEOUT) -> Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            # WAL + NORMAL: a commit survives the process being killed (not a power cut),
            # at a fraction of the cost of a full sync per action.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            cursor.close()

        return engine
    try:
        milliseconds = int(timeout * 1000)
        return sa.create_engine(
            url,
            pool_pre_ping=True,
            connect_args={
                "connect_timeout": max(1, round(timeout)),
                "options": f"-c statement_timeout={milliseconds} -c lock_timeout={milliseconds}",
            },
        )
    except ModuleNotFoundError as exc:  # the PostgreSQL driver is an optional extra
        raise RuntimeError(
            f"the database driver {exc.name!r} is not installed (for PostgreSQL: "
            "pip install 'dudo[postgresql]', or pip install -e '.[postgresql]' in a checkout)"
        ) from None


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several processes starting at once on one database migrate one after the other
            # (the lock ends with the transaction).
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATE_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


#: The PostgreSQL advisory lock key that serializes migrations (any constant of our own).
MIGRATE_LOCK = 0x64756430


@dataclass
class StoredSeat:
    seat: int
    kind: str
    name: str | None
    level: str | None
    token_hash: str | None
    autoplay: bool
    ready: bool = False
    wins: int = 0
    played: int = 0
    player_id: str | None = None


@dataclass(frozen=True)
class Place:
    """Where one player of a game finished: ``place`` 1 is the winner; players who left the
    game before its end share the last place (``left_early``)."""

    player: int
    place: int
    left_early: bool = False
    #: The person made at least one move of the game themselves (only they are rated).
    acted: bool = False


@dataclass
class StoredPlayer:
    id: str
    name: str
    created: float
    has_password: bool


@dataclass
class StoredGame:
    id: int
    number: int
    seed: int
    rules: dict[str, Any]
    players: list[dict[str, Any]]
    actions: list[tuple[int, str]]
    finished: bool
    #: The secret and locked client seeds that decide the dice (None: a game from before
    #: provably fair dice, dealt from ``seed``).
    fair: FairSeed | None = None
    #: The players who left the game while they still had dice.
    left_early: frozenset[int] = frozenset()
    #: The players whose person made a move of the game themselves (kept in rated games).
    acted: frozenset[int] = frozenset()
    #: A finished rated game: each rated player's displayed rating before and after it.
    rating_changes: dict[int, tuple[float, float]] = field(default_factory=dict)


@dataclass
class StoredTable:
    code: str
    status: str
    preset: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seats: list[StoredSeat]
    game: StoredGame | None
    host: int | None = 0
    public: bool = False
    #: The secret drawn for the table's next game (None: none stored yet).
    next_secret: bytes | None = None
    #: The host turned the table's chat off; its latest messages, oldest first.
    chat_off: bool = False
    chat: list[dict[str, Any]] = field(default_factory=list)


class Store:
    """The database behind one server. Every method is one transaction, and may be called from
    several threads at once."""

    def __init__(self, url: str, timeout: float = DB_TIMEOUT) -> None:
        self.url = url
        self.timeout = timeout
        self.engine = make_engine(url, timeout)
        migrate(self.engine)
        self._local = threading.local()  # each thread's writing connection
        self._writers: list[Connection] = []
        self._writers_lock = threading.Lock()
        #: The fence this process holds for each table it owns, when several processes share
        #: the database (None: this is the only process, and nothing is fenced). Every write
        #: of a table's state checks it in its own transaction (:meth:`claim_table`).
        self.fences: dict[str, int] | None = None
        #: SQLite: actions may be committed on the caller's thread (:meth:`try_add_actions`).
        self.writes_inline = self.engine.dialect.name == "sqlite"
        self._inline: sqlite3.Connection | None = None  # that connection, opened on first use
        self._inline_sql = _positional(_INSERT_ACTION, self.engine)
        # On SQLite its parameters are an ActionWrite's fields but the table's code, then
        # the time (try_add_actions passes them so).
        assert not self.writes_inline or self._inline_sql[1] == (*ActionWrite._fields[1:], "at")
        self._inline_fenced_sql = _positional(_INSERT_FENCED_ACTION, self.engine)

    def close(self) -> None:
        with self._writers_lock:
            for writer in self._writers:
                with contextlib.suppress(Exception):
                    writer.close()
            self._writers.clear()
        if self._inline is not None:
            with contextlib.suppress(Exception):
                self._inline.close()
            self._inline = None
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database something trivial (readiness: does it answer?)."""
        with self.engine.connect() as c:
            c.execute(sa.text("SELECT 1"))

    # ---------------------------------------------------------------- fencing

    def claim_table(self, code: str) -> int | None:
        """Take the table over for this process: raise its fence and keep the new value, so
        that from now on every write of a process holding an older fence fails. A write of the
        old owner that is under way finishes first (it holds the table's row), so what is
        loaded after this includes it. None: no such table, or it is closed."""
        with self.engine.begin() as c:
            fence = c.execute(
                tables_table.update()
                .where(tables_table.c.code == code, tables_table.c.status != "closed")
                .values(fence=tables_table.c.fence + 1)
                .returning(tables_table.c.fence)
            ).scalar()
        if fence is None:
            return None
        if self.fences is not None:
            self.fences[code] = int(fence)
        return int(fence)

    def release_table(self, code: str) -> None:
        """Forget this process's fence of the table: it writes to it no more."""
        if self.fences is not None:
            self.fences.pop(code, None)

    def _fenced(self, c: Connection, code: str) -> None:
        """Check, in the write's own transaction, that this process still owns the table, and
        hold its row until the write commits (a takeover waits for it). Raises FencedOut."""
        if self.fences is None:
            return
        fence = self._fence(code)
        done = c.execute(
            tables_table.update()
            .where(tables_table.c.code == code, tables_table.c.fence == fence)
            .values(fence=fence)
        )
        if done.rowcount != 1:
            self._fenced_out(code)

    def _fence(self, code: str) -> int:
        """This process's fence of the table (FencedOut: it holds none)."""
        assert self.fences is not None
        fence = self.fences.get(code)
        if fence is None:
            raise FencedOut(code)
        return fence

    def _fenced_out(self, code: str) -> NoReturn:
        """Another process raised the table's fence: forget ours, and refuse the write."""
        self.release_table(code)
        raise FencedOut(code)

    # ---------------------------------------------------------------- tables and seats

    def code_taken(self, code: str) -> bool:
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(tables_table.c.code).where(tables_table.c.code == code)
            ).first()
        return row is not None

    def create_table(
        self,
        code: str,
        preset: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        seats: list[StoredSeat],
        public: bool = False,
        next_secret: bytes | None = None,
    ) -> None:
        """Store a new table; ``next_secret``: the secret of its first game's dice."""
        with self.engine.begin() as c:
            now = time.time()
            c.execute(
                tables_table.insert().values(
                    code=code,
                    created=now,
                    updated=now,
                    status="lobby",
                    preset=preset,
                    options=json.dumps(options),
                    settings=json.dumps(settings),
                    game_id=None,
                    host=0,
                    public=public,
                    fence=1,
                )
            )
            if self.fences is not None:
                self.fences[code] = 1
            for seat in seats:
                c.execute(seats_table.insert().values(code=code, **_seat_values(seat)))
            if next_secret is not None:
                c.execute(
                    fair_table.insert().values(code=code, game_id=None, secret=next_secret.hex())
                )

    def save_seat(
        self,
        code: str,
        seat: StoredSeat,
        host: int | None = KEEP_HOST,
        left: tuple[int, int, bool] | None = None,
    ) -> None:
        """Store one seat and, unless ``host`` is :data:`KEEP_HOST`, who is host now (one
        transaction: a host leaving hands the role on in the same write). ``left``: (game id,
        player, left early) of the game in play when a bot takes the seat over or its person
        takes it back."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            c.execute(
                seats_table.update()
                .where(seats_table.c.code == code, seats_table.c.seat == seat.seat)
                .values(**_seat_values(seat))
            )
            if left is not None:
                # Kept with the stand-in, not only at the end: a restart after the stand-in
                # went out cannot tell from the dice that its person had left with dice.
                game_id, player, left_early = left
                c.execute(
                    game_players_table.update()
                    .where(
                        game_players_table.c.game_id == game_id,
                        game_players_table.c.player == player,
                    )
                    .values(left_early=left_early)
                )
            if host != KEEP_HOST:
                c.execute(
                    tables_table.update().where(tables_table.c.code == code).values(host=host)
                )
            _touch(c, code)

    def set_host(self, code: str, host: int | None) -> None:
        with self.engine.begin() as c:
            self._fenced(c, code)
            c.execute(tables_table.update().where(tables_table.c.code == code).values(host=host))

    def set_status(self, code: str, status: str) -> None:
        with self.engine.begin() as c:
            self._fenced(c, code)
            c.execute(
                tables_table.update()
                .where(tables_table.c.code == code)
                .values(status=status, updated=time.time())
            )

    def start_game(
        self,
        code: str,
        number: int,
        seed: int,
        rules: dict[str, Any],
        players: list[dict[str, Any]],
        fair: FairSeed | None = None,
        rated: str | None = None,
    ) -> int:
        """Record a new game at the table and make it the table's current game (no seat is on
        autoplay in a new game). ``fair``: the secret and locked client seeds of its dice, in
        the same transaction (the table's next-game secret is used up). ``rated``: the rule
        family the game's result rates its players in (None: not rated)."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            result = c.execute(
                games_table.insert().values(
                    code=code,
                    number=number,
                    seed=seed,
                    rules=json.dumps(rules),
                    players=json.dumps(players),
                    started=time.time(),
                    rated=rated,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            game_id = int(key[0])
            if players:
                c.execute(
                    game_players_table.insert(),
                    [
                        {
                            "game_id": game_id,
                            "player": number,
                            "rater": ratings.rater(
                                p.get("kind"), p.get("level"), p.get("player_id")
                            ),
                            "place": None,
                            "left_early": False,
                            "acted": False,
                        }
                        for number, p in enumerate(players)
                    ],
                )
            if fair is not None:
                _clear_next_secret(c, code)
                c.execute(
                    fair_table.insert().values(
                        code=code,
                        game_id=game_id,
                        secret=fair.secret.hex(),
                        seeds=json.dumps(list(fair.seeds)),
                    )
                )
            c.execute(
                tables_table.update()
                .where(tables_table.c.code == code)
                .values(status="playing", game_id=game_id, updated=time.time())
            )
            # A new game starts with every seat played by its own player again, and nobody
            # ready for the game after it yet.
            c.execute(
                seats_table.update()
                .where(seats_table.c.code == code)
                .values(autoplay=False, ready=False)
            )
        return game_id

    def _writer(self) -> Connection:
        """This thread's connection for actions, kept open: they are on every move's path."""
        writer: Connection | None = getattr(self._local, "writer", None)
        if writer is None or writer.closed or writer.invalidated:
            writer = self._local.writer = self.engine.connect()
            with self._writers_lock:
                self._writers.append(writer)
        return writer

    def add_action(self, code: str, game_id: int, seq: int, player: int, action: str) -> None:
        """Commit one accepted action. A second action with the same ``seq`` fails.

        The same action again (a retry after a commit whose answer was lost) is not an error:
        the row is there already.

        This is on every move's path, so each thread reuses one connection and one prepared
        statement instead of checking a connection out and building the insert each time."""
        writer = self._writer()
        values = {"game_id": game_id, "seq": seq, "player": player, "action": action}
        values["at"] = time.time()
        try:
            if self.fences is None:
                writer.execute(_INSERT_ACTION, values)
            else:
                fenced = {**values, "code": code, "fence": self._fence(code)}
                if writer.execute(_INSERT_FENCED_ACTION, fenced).first() is None:
                    self._fenced_out(code)
            writer.commit()
        except BaseException as exc:
            with contextlib.suppress(Exception):
                writer.rollback()
            if writer.invalidated:  # the database went away: reconnect next time
                self._local.writer = None
            if isinstance(exc, sa.exc.IntegrityError) and self._stored_action(game_id, seq) == (
                player,
                action,
            ):
                return
            raise

    def add_actions(self, writes: Sequence[ActionWrite]) -> list[bool] | None:
        """Commit these actions in one transaction (on a worker thread: it may wait for the
        database). Returns, for each, whether it was stored (False: another process has taken
        its table over, :class:`FencedOut`); None: nothing was written (an action is there
        already, the database failed), and each action should go through :meth:`add_action`,
        which explains, and accepts a retry, as every other write does."""
        writer = self._writer()
        now = time.time()
        fences = self.fences
        stored: list[bool] = []
        try:
            rows = [{**write._asdict(), "at": now} for write in writes]
            if fences is None:  # one process: every action is stored, in one statement
                writer.execute(_INSERT_ACTION, rows)
                stored = [True] * len(writes)
            else:  # each only while this process holds its table's fence
                for write, row in zip(writes, rows, strict=True):
                    fence = fences.get(write.code)
                    done = fence is not None and (
                        writer.execute(_INSERT_FENCED_ACTION, {**row, "fence": fence}).first()
                        is not None
                    )
                    stored.append(done)
            writer.commit()
        except Exception:
            with contextlib.suppress(Exception):
                writer.rollback()
            if writer.invalidated:  # the database went away: reconnect next time
                self._local.writer = None
            return None
        for write, done in zip(writes, stored, strict=True):
            if not done:  # another process took the table over
                self.release_table(write.code)
        return stored

    def try_add_actions(self, writes: Sequence[ActionWrite]) -> list[bool] | None:
        """Commit these actions in one transaction on the calling thread, if that needs no
        waiting: only on SQLite, and only while no other connection holds its write lock.

        Returns, for each, whether it was stored (False: another process has taken its table
        over, :class:`FencedOut`). None: nothing was written (the lock was taken, an action is
        there already, PostgreSQL, any failure), and each action should go through
        :meth:`add_action`, which waits, retries and explains as every other write does."""
        if not self.writes_inline:
            return None
        db = self._inline_connection()
        now = time.time()
        fences = self.fences
        sql, names = self._inline_sql if fences is None else self._inline_fenced_sql
        stored: list[bool] = []
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error:
            return None  # another connection is writing: never wait for it here
        try:
            if fences is None:  # the only process: every row goes in, in one call
                db.executemany(sql, [(*write[1:], now) for write in writes])
                db.execute("COMMIT")
                return [True] * len(writes)
            for write in writes:
                values = {**write._asdict(), "at": now}
                values["fence"] = fences.get(write.code)
                done = values["fence"] is not None and (
                    db.execute(sql, [values[k] for k in names]).fetchone() is not None
                )
                if not done:  # another process took the table over
                    self.release_table(write.code)
                stored.append(done)
            db.execute("COMMIT")
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            return None
        return stored

    def _inline_connection(self) -> sqlite3.Connection:
        if self._inline is None:
            # A connection of its own, out of the pool: its settings are not for other writes.
            proxy = self.engine.raw_connection()
            proxy.detach()
            db = proxy.dbapi_connection
            assert isinstance(db, sqlite3.Connection)
            db.isolation_level = None  # transactions are begun and ended explicitly
            db.execute("PRAGMA busy_timeout=0")
            # Copying the log back into the database may take milliseconds and sync the
            # disk: a worker thread does it (checkpoint), never the caller of this one.
            db.execute("PRAGMA wal_autocheckpoint=0")
            self._inline = db
        return self._inline

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log back into the database (the actions committed by
        :meth:`try_add_actions` leave that to this call), holding writes off only for its
        last few milliseconds, and at most :data:`CHECKPOINT_WAIT` for others to finish."""
        if not self.writes_inline:
            return
        with self.engine.connect() as c:
            # The bulk of the log, while actions go on being committed.
            c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            # Then the little written meanwhile, with new writes held off (a commit on the
            # loop that meets this takes the worker path): only a checkpoint that catches
            # up with the log lets the next write start it again from its beginning. With
            # passive ones alone, under a steady stream of actions the log never restarted
            # and grew by every action's pages for as long as the server ran.
            c.exec_driver_sql(f"PRAGMA busy_timeout={int(CHECKPOINT_WAIT * 1000)}")
            try:
                c.exec_driver_sql("PRAGMA wal_checkpoint(RESTART)")
            finally:
                c.exec_driver_sql(f"PRAGMA busy_timeout={int(self.timeout * 1000)}")

    def _stored_action(self, game_id: int, seq: int) -> tuple[int, str] | None:
        with contextlib.suppress(Exception), self.engine.connect() as c:
            row = c.execute(
                sa.select(actions_table.c.player, actions_table.c.action).where(
                    actions_table.c.game_id == game_id, actions_table.c.seq == seq
                )
            ).first()
            return None if row is None else (int(row.player), str(row.action))
        return None

    def mark_acted(self, game_id: int, player: int) -> None:
        """The person of ``player`` made a move of game ``game_id`` themselves."""
        with self.engine.begin() as c:
            c.execute(
                game_players_table.update()
                .where(
                    game_players_table.c.game_id == game_id,
                    game_players_table.c.player == player,
                )
                .values(acted=True)
            )

    def finish_game(
        self,
        code: str,
        game_id: int,
        winner: int,
        rounds: int,
        record: dict[str, Any],
        scores: tuple[tuple[int, int, int], ...] = (),
        places: tuple[Place, ...] = (),
    ) -> dict[int, tuple[float, float]]:
        """Store a finished game's result and record, and the table's running score with it:
        ``scores`` are (seat, wins, played), the totals after this game (so a retry of the same
        write counts nothing twice); ``places`` where each player finished. A rated game's
        ratings change in this same transaction, once however often the write is retried.
        Returns each rated player's displayed rating before and after the game (by player
        number; empty for an unrated game)."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            for place in places:
                # Who acted is never unset: a restart forgets it in memory, not in the store.
                acted = {"acted": True} if place.acted else {}
                c.execute(
                    game_players_table.update()
                    .where(
                        game_players_table.c.game_id == game_id,
                        game_players_table.c.player == place.player,
                    )
                    .values(place=place.place, left_early=place.left_early, **acted)
                )
            family = c.execute(
                sa.select(games_table.c.rated).where(games_table.c.id == game_id)
            ).scalar()
            if family is not None and places:
                _rate_game(c, game_id, family)
            for seat, wins, played in scores:
                c.execute(
                    seats_table.update()
                    .where(seats_table.c.code == code, seats_table.c.seat == seat)
                    .values(wins=wins, played=played)
                )
            row = c.execute(
                sa.select(games_table.c.players).where(games_table.c.id == game_id)
            ).first()
            # A player who deleted their account during the game is not named by its record.
            if row is not None:
                gone = [i for i, p in enumerate(json.loads(row.players)) if p.get("deleted")]
                if gone:
                    record = _unnamed(json.loads(json.dumps(record)), gone)
            c.execute(
                games_table.update()
                .where(games_table.c.id == game_id)
                .values(
                    finished=time.time(), winner=winner, rounds=rounds, record=json.dumps(record)
                )
            )
            # The list of games says who had a bot play for them, without reading records.
            stood_in = record.get("meta", {}).get("stood_in", [])
            if stood_in and row is not None:
                players = json.loads(row.players)
                for p in stood_in:
                    if 0 <= p < len(players):
                        players[p]["stood_in"] = True
                c.execute(
                    games_table.update()
                    .where(games_table.c.id == game_id)
                    .values(players=json.dumps(players))
                )
            # Only if this game is still the table's: a late retry must not end a rematch.
            c.execute(
                tables_table.update()
                .where(tables_table.c.code == code, tables_table.c.game_id == game_id)
                .values(status="over", updated=time.time())
            )
            return _rating_changes(c, game_id)

    def set_next_secret(self, code: str, secret: bytes) -> None:
        """Keep the secret of the table's next game (replacing any earlier one)."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            _clear_next_secret(c, code)
            c.execute(fair_table.insert().values(code=code, game_id=None, secret=secret.hex()))

    def load_tables(self, statuses: tuple[str, ...] = LIVE_STATUSES) -> list[StoredTable]:
        """Every table whose status is one of ``statuses`` (by default the ones a server holds
        in memory from its start: lobbies and games in play), with its current game's
        actions. Finished tables are loaded one by one when someone opens them
        (:meth:`load_table`)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(tables_table)
                .where(tables_table.c.status.in_(statuses))
                .order_by(tables_table.c.created)
            ).all()
            return [_stored_table(c, row) for row in rows]

    def load_table(self, code: str) -> StoredTable | None:
        """One table that is not closed, with its current game's actions (None: no such
        table, or it was closed)."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(tables_table).where(
                    tables_table.c.code == code, tables_table.c.status != "closed"
                )
            ).first()
            return None if row is None else _stored_table(c, row)

    def live_codes(self) -> list[str]:
        """The codes of the tables in their lobby or in play (each needs an owner)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(tables_table.c.code).where(tables_table.c.status.in_(LIVE_STATUSES))
            ).all()
        return [str(row.code) for row in rows]

    def close_idle_lobbies(
        self, idle_since: float, keep: set[str], only: set[str] | None = None
    ) -> list[str]:
        """Close the lobbies (tables with no game in play) unchanged since ``idle_since``
        (time.time()), except those in ``keep`` (and, if given, of those in ``only``); their
        codes. Finished games stay."""
        with self.engine.begin() as c:
            rows = c.execute(
                sa.select(tables_table.c.code).where(
                    tables_table.c.status.in_(("lobby", "over")),
                    sa.func.coalesce(tables_table.c.updated, tables_table.c.created) < idle_since,
                )
            ).all()
            codes = [
                row.code
                for row in rows
                if row.code not in keep and (only is None or row.code in only)
            ]
            if codes:
                c.execute(
                    tables_table.update()
                    .where(tables_table.c.code.in_(codes))
                    .values(status="closed", updated=time.time())
                )
        return codes

    def delete_cups_unused_since(self, since: float) -> int:
        """Delete the dice cups not used since ``since`` (time.time()); how many."""
        with self.engine.begin() as c:
            result = c.execute(cups_table.delete().where(cups_table.c.updated < since))
        return int(result.rowcount or 0)

    # ---------------------------------------------------------------------- past games

    def recent_games(self, limit: int) -> list[dict[str, Any]]:
        """The newest finished games, for everyone to see: no table codes (a code is the
        invitation to a table)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(
                    games_table.c.id,
                    games_table.c.code,
                    games_table.c.finished,
                    games_table.c.players,
                    games_table.c.winner,
                    games_table.c.rounds,
                    tables_table.c.preset,
                )
                .join(tables_table, tables_table.c.code == games_table.c.code)
                .where(games_table.c.finished.is_not(None))
                .order_by(games_table.c.finished.desc(), games_table.c.id.desc())
                .limit(limit)
            ).all()
        games = []
        for row in rows:
            players = json.loads(row.players)
            names = [p["name"] for p in players]
            games.append(
                {
                    "id": row.id,
                    # Who had a bot play for them at some point: not a plain result of theirs.
                    "stood_in": [p["name"] for p in players if p.get("stood_in")],
                    "finished": row.finished,
                    "players": names,
                    "winner": names[row.winner] if row.winner is not None else None,
                    # Seats whose player deleted their account (their name is gone: null).
                    "deleted": [i for i, p in enumerate(players) if p.get("deleted")],
                    "rounds": row.rounds,
                    "preset": row.preset,
                }
            )
        return games

    def game_record(self, game_id: int) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(games_table.c.record).where(games_table.c.id == game_id)
            ).first()
        if row is None or row.record is None:
            return None
        record: dict[str, Any] = json.loads(row.record)
        meta = record.get("meta")
        if isinstance(meta, dict):  # records stored before codes were kept out of them
            meta.pop("table", None)
        return record

    # ---------------------------------------------------------------------------- chat

    def add_chat(self, code: str, message: dict[str, Any]) -> None:
        """Keep one chat message (the fields of :meth:`dudo.server.chat.Message.stored`)."""
        with self.engine.begin() as c:
            self._fenced(c, code)
            c.execute(
                chat_table.insert().values(
                    code=code,
                    game=message["game"] or 0,
                    seq=message["seq"],
                    turn=message["turn"],
                    channel=message["channel"],
                    seat=message["seat"],
                    name=message["name"],
                    text=message["text"],
                    phrase=message["phrase"],
                    at=message["at"],
                    player=message.get("player"),
                    who=message.get("who"),
                )
            )

    def set_chat_off(self, code: str, off: bool) -> None:
        with self.engine.begin() as c:
            self._fenced(c, code)
            done = c.execute(
                chat_settings_table.update()
                .where(chat_settings_table.c.code == code)
                .values(off=off)
            )
            if not done.rowcount:
                c.execute(chat_settings_table.insert().values(code=code, off=off))
            _touch(c, code)

    def game_chat(self, game_id: int) -> list[dict[str, Any]]:
        """Every message said during a game and after it, in order (the game is over: the
        spectators' messages too)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(chat_table).where(chat_table.c.game == game_id).order_by(chat_table.c.seq)
            ).all()
        return [_chat_json(row) for row in rows]

    # ------------------------------------------------------------------------- players

    def create_player(self, player_id: str, name: str, name_key: str, key_hash: str) -> bool:
        """A new player; False (nothing stored) when another player has the name."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    players_table.insert().values(
                        id=player_id,
                        name=name,
                        name_key=name_key,
                        key_hash=key_hash,
                        created=time.time(),
                    )
                )
        except sa.exc.IntegrityError:
            return False
        return True

    def player_by_key(self, key_hash: str) -> StoredPlayer | None:
        """The (not deleted) player whose key has this hash."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(players_table).where(
                    players_table.c.key_hash == key_hash, players_table.c.deleted.is_(None)
                )
            ).first()
        return None if row is None else _stored_player(row)

    def player(self, player_id: str) -> StoredPlayer | None:
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(players_table).where(
                    players_table.c.id == player_id, players_table.c.deleted.is_(None)
                )
            ).first()
        return None if row is None else _stored_player(row)

    def rename_player(self, player_id: str, name: str, name_key: str) -> bool:
        """False (nothing changed) when another player has the name."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    players_table.update()
                    .where(players_table.c.id == player_id)
                    .values(name=name, name_key=name_key)
                )
        except sa.exc.IntegrityError:
            return False
        return True

    def set_password(self, player_id: str, password_hash: str, key_sealed: str) -> None:
        with self.engine.begin() as c:
            c.execute(
                players_table.update()
                .where(players_table.c.id == player_id)
                .values(password_hash=password_hash, key_sealed=key_sealed)
            )

    def password_of(self, name_key: str) -> tuple[str, str, str] | None:
        """(player id, password hash, sealed key) of the player with this name and a password."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(
                    players_table.c.id, players_table.c.password_hash, players_table.c.key_sealed
                ).where(
                    players_table.c.name_key == name_key,
                    players_table.c.deleted.is_(None),
                    players_table.c.password_hash.is_not(None),
                )
            ).first()
        if row is None or row.key_sealed is None:
            return None
        return str(row.id), str(row.password_hash), str(row.key_sealed)

    def add_code(self, code_hash: str, player_id: str, key_sealed: str, expires: float) -> None:
        """A one-time code for the player; any code of theirs given before stops working."""
        with self.engine.begin() as c:
            c.execute(player_codes_table.delete().where(player_codes_table.c.player == player_id))
            c.execute(player_codes_table.delete().where(player_codes_table.c.expires < time.time()))
            c.execute(
                player_codes_table.insert().values(
                    code_hash=code_hash, player=player_id, key_sealed=key_sealed, expires=expires
                )
            )

    def take_code(self, code_hash: str) -> tuple[str, str] | None:
        """(player id, sealed key) of a code still valid, which is used up by this call."""
        with self.engine.begin() as c:
            row = c.execute(
                sa.select(player_codes_table).where(player_codes_table.c.code_hash == code_hash)
            ).first()
            if row is None:
                return None
            # Deleted whatever the answer: single use, and an expired code is gone for good.
            c.execute(
                player_codes_table.delete().where(player_codes_table.c.code_hash == code_hash)
            )
            if row.expires < time.time():
                return None
            return str(row.player), str(row.key_sealed)

    def player_tables(self, player_id: str) -> list[dict[str, Any]]:
        """The tables (not closed) where the player has a seat as a person: code and seat."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(seats_table.c.code, seats_table.c.seat)
                .join(tables_table, tables_table.c.code == seats_table.c.code)
                .where(
                    seats_table.c.player_id == player_id,
                    seats_table.c.kind == "human",
                    tables_table.c.status != "closed",
                )
                .order_by(tables_table.c.created)
            ).all()
        return [{"code": row.code, "seat": row.seat} for row in rows]

    def player_games(self, player_id: str) -> list[dict[str, Any]]:
        """The games the player sat in (finished or not), oldest first, with their seat, player
        number and place (None until the game ends)."""
        gp = game_players_table
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(
                    games_table.c.id,
                    games_table.c.players,
                    games_table.c.started,
                    games_table.c.finished,
                    games_table.c.rounds,
                    games_table.c.rated,
                    tables_table.c.preset,
                    gp.c.player,
                    gp.c.place,
                    gp.c.left_early,
                )
                .join(games_table, games_table.c.id == gp.c.game_id)
                .join(tables_table, tables_table.c.code == games_table.c.code)
                .where(gp.c.rater == player_id)
                .order_by(games_table.c.id, gp.c.player)
            ).all()
        games = []
        for row in rows:
            players = json.loads(row.players)
            seat = players[row.player]
            games.append(
                {
                    "game": row.id,
                    "preset": row.preset,
                    "rated": row.rated,
                    "started": row.started,
                    "finished": row.finished,
                    "seat": seat["seat"],
                    "player": row.player,
                    "players": len(players),
                    "name": seat["name"],
                    "place": row.place,
                    "left_early": bool(row.left_early),
                    "won": None if row.finished is None else row.place == 1,
                    "rounds": row.rounds,
                }
            )
        return games

    def delete_player(self, player_id: str) -> list[int]:
        """Forget the player: their name, key, password and codes go, their seats are given up
        (:func:`_release_seats`; a live table's owner gives them up first, as a leave), and
        the games they played stay with the seat named as a deleted player (their ids are
        returned)."""
        changed = []
        with self.engine.begin() as c:
            c.execute(player_codes_table.delete().where(player_codes_table.c.player == player_id))
            _release_seats(c, player_id)
            c.execute(
                player_devices_table.delete().where(player_devices_table.c.player == player_id)
            )
            gp = game_players_table
            rows = c.execute(
                sa.select(games_table.c.id, games_table.c.players, games_table.c.record).where(
                    games_table.c.id.in_(sa.select(gp.c.game_id).where(gp.c.rater == player_id))
                )
            ).all()
            for row in rows:
                players = json.loads(row.players)
                gone = [i for i, p in enumerate(players) if p.get("player_id") == player_id]
                for i in gone:
                    players[i].update(name=None, player_id=None, deleted=True)
                values: dict[str, Any] = {"players": json.dumps(players)}
                if row.record is not None:
                    values["record"] = json.dumps(_unnamed(json.loads(row.record), gone))
                c.execute(games_table.update().where(games_table.c.id == row.id).values(**values))
                changed.append(int(row.id))
            # The games stay, rated and placed, with nobody's id in them; the player's own
            # ratings go (the others' ratings are theirs and stay as they are).
            c.execute(gp.update().where(gp.c.rater == player_id).values(rater=None))
            _delete_chat_of(c, player_id)
            c.execute(ratings_table.delete().where(ratings_table.c.rater == player_id))
            c.execute(
                rating_history_table.delete().where(rating_history_table.c.rater == player_id)
            )
            c.execute(
                players_table.update()
                .where(players_table.c.id == player_id)
                .values(
                    name=None,
                    name_key=None,
                    key_hash=None,
                    password_hash=None,
                    key_sealed=None,
                    deleted=time.time(),
                )
            )
        return changed

    # ---------------------------------------------------------------------------- cups

    def leaderboard(self, family: str, limit: int = 100) -> list[dict[str, Any]]:
        """The best raters of a rule family by displayed rating (mu - 3 sigma), with names."""
        shown = ratings_table.c.mu - 3 * ratings_table.c.sigma
        query = (
            sa.select(ratings_table, players_table.c.name)
            .outerjoin(players_table, players_table.c.id == ratings_table.c.rater)
            .where(ratings_table.c.family == family)
            .order_by(shown.desc(), ratings_table.c.rater)
            .limit(limit)
        )
        with self.engine.connect() as c:
            return [
                {
                    "rater": r.rater,
                    "name": r.name,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "rating": ratings.ordinal(r.mu, r.sigma),
                    "games": r.games,
                }
                for r in c.execute(query)
            ]

    def rater_ratings(self, rater: str) -> dict[str, dict[str, Any]]:
        """A rater's rating in each family played, with its history (oldest game first)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(ratings_table).where(ratings_table.c.rater == rater))
            out = {
                r.family: {
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "rating": ratings.ordinal(r.mu, r.sigma),
                    "games": r.games,
                    "history": [],
                }
                for r in rows
            }
            history = c.execute(
                sa.select(rating_history_table)
                .where(rating_history_table.c.rater == rater)
                .order_by(rating_history_table.c.at, rating_history_table.c.game_id)
            )
            for h in history:
                if h.family in out:
                    out[h.family]["history"].append(
                        {
                            "game": h.game_id,
                            "place": h.place,
                            "mu_before": h.mu_before,
                            "sigma_before": h.sigma_before,
                            "mu_after": h.mu_after,
                            "sigma_after": h.sigma_after,
                            "at": h.at,
                        }
                    )
            return out

    def profile(self, rater: str) -> dict[str, Any] | None:
        """What anyone may see of a rater (a player id or ``bot:<level>``): the name, finished
        games and wins in all and by preset, the latest finished games, the raters met most
        often and the ratings with their history; None for a player id that is nobody's (or
        whose account was deleted). Only finished games count, and no table code is given (a
        code is the invitation to a table). Several bots of one level in a game are one rater,
        placed at the best of their places."""
        gp = game_players_table
        other = gp.alias("other")
        with self.engine.connect() as c:
            name = None
            if not rater.startswith(ratings.BOT_PREFIX):
                name = c.execute(
                    sa.select(players_table.c.name).where(
                        players_table.c.id == rater, players_table.c.deleted.is_(None)
                    )
                ).scalar()
                if name is None:
                    return None
            # One row per finished game of the rater: its place and whether it left early.
            mine = (
                sa.select(
                    gp.c.game_id,
                    sa.func.min(gp.c.place).label("place"),
                    sa.func.max(sa.case((gp.c.left_early, 1), else_=0)).label("left_early"),
                )
                .join(games_table, games_table.c.id == gp.c.game_id)
                .where(gp.c.rater == rater, games_table.c.finished.is_not(None))
                .group_by(gp.c.game_id)
                .subquery("mine")
            )
            won = sa.func.sum(sa.case((mine.c.place == 1, 1), else_=0))
            played = sa.func.count()
            by_preset = c.execute(
                sa.select(tables_table.c.preset, played.label("games"), won.label("wins"))
                .select_from(mine)
                .join(games_table, games_table.c.id == mine.c.game_id)
                .join(tables_table, tables_table.c.code == games_table.c.code)
                .group_by(tables_table.c.preset)
                .order_by(played.desc(), tables_table.c.preset)
            ).all()
            seats = (
                sa.select(sa.func.count())
                .select_from(other)
                .where(other.c.game_id == mine.c.game_id)
                .scalar_subquery()
            )
            recent = c.execute(
                sa.select(
                    mine.c.game_id,
                    mine.c.place,
                    mine.c.left_early,
                    games_table.c.finished,
                    games_table.c.rated,
                    tables_table.c.preset,
                    seats.label("players"),
                )
                .join(games_table, games_table.c.id == mine.c.game_id)
                .join(tables_table, tables_table.c.code == games_table.c.code)
                .order_by(games_table.c.finished.desc(), mine.c.game_id.desc())
                .limit(PROFILE_RECENT)
            ).all()
            # The other raters of those games, one row per (game, rater).
            theirs = (
                sa.select(other.c.game_id, other.c.rater, sa.func.min(other.c.place).label("place"))
                .where(
                    other.c.rater.is_not(None),
                    other.c.rater != rater,
                    other.c.game_id.in_(sa.select(gp.c.game_id).where(gp.c.rater == rater)),
                )
                .group_by(other.c.game_id, other.c.rater)
                .subquery("theirs")
            )
            # Above them: a better place, or a place where they have none (a game stored before
            # places were kept gives the winner's alone).
            above = sa.case(
                (
                    sa.and_(
                        mine.c.place.is_not(None),
                        sa.or_(theirs.c.place.is_(None), mine.c.place < theirs.c.place),
                    ),
                    1,
                ),
                else_=0,
            )
            met = sa.func.count()
            opponents = c.execute(
                sa.select(
                    theirs.c.rater,
                    players_table.c.name,
                    met.label("games"),
                    sa.func.sum(above).label("wins_against"),
                )
                .select_from(mine)
                .join(theirs, theirs.c.game_id == mine.c.game_id)
                .outerjoin(players_table, players_table.c.id == theirs.c.rater)
                .group_by(theirs.c.rater, players_table.c.name)
                .order_by(met.desc(), theirs.c.rater)
                .limit(PROFILE_OPPONENTS)
            ).all()
        games = sum(int(r.games) for r in by_preset)
        wins = sum(int(r.wins or 0) for r in by_preset)
        rated = self.rater_ratings(rater)
        for family in rated.values():
            for point in family["history"]:
                # The rating shown after that game, so a chart needs no formula of its own.
                point["rating"] = ratings.ordinal(point["mu_after"], point["sigma_after"])
        return {
            "rater": rater,
            "name": name,
            "games": games,
            "wins": wins,
            "by_preset": [
                {
                    "preset": r.preset,
                    "games": int(r.games),
                    "wins": int(r.wins or 0),
                    "win_rate": int(r.wins or 0) / int(r.games),
                }
                for r in by_preset
            ],
            "ratings": rated,
            "recent": [
                {
                    "game": r.game_id,
                    "preset": r.preset,
                    "rated": r.rated,
                    "finished": r.finished,
                    "place": r.place,
                    "players": int(r.players),
                    "left_early": bool(r.left_early),
                }
                for r in recent
            ],
            "opponents": [
                {
                    "rater": r.rater,
                    "name": r.name,
                    "games": int(r.games),
                    "wins_against": int(r.wins_against or 0),
                }
                for r in opponents
            ],
        }

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


def _rate_game(c: Connection, game_id: int, family: str) -> None:
    """Rate a finished game's players from their places (in ``game_players``)."""
    # A history row means this game was rated already: a retried write changes nothing.
    done = c.execute(
        sa.select(rating_history_table.c.rater).where(rating_history_table.c.game_id == game_id)
    ).first()
    if done is not None:
        return
    gp = game_players_table
    finished = c.execute(
        sa.select(gp.c.rater, gp.c.place, gp.c.acted).where(
            gp.c.game_id == game_id, gp.c.rater.is_not(None), gp.c.place.is_not(None)
        )
    ).all()
    standings = ratings.standings(
        ratings.counted([(r.rater, r.place, bool(r.acted)) for r in finished])
    )
    if len(standings) < 2:
        return
    rows = c.execute(
        sa.select(ratings_table).where(
            ratings_table.c.family == family, ratings_table.c.rater.in_(list(standings))
        )
    ).all()
    known = {r.rater: r for r in rows}
    before = {
        r: (known[r].mu, known[r].sigma) if r in known else ratings.default() for r in standings
    }
    after = ratings.rate(standings, before)
    now = time.time()
    # One statement per kind of row, each with every rater's values: the statements, not the
    # openskill update, are what rating adds to storing a result (bench/rating_update.py).
    changed = [
        {"b_rater": r, "b_mu": after[r][0], "b_sigma": after[r][1], "b_games": known[r].games + 1}
        for r in standings
        if r in known
    ]
    if changed:
        c.execute(
            ratings_table.update()
            .where(
                ratings_table.c.rater == sa.bindparam("b_rater"),
                ratings_table.c.family == family,
            )
            .values(
                mu=sa.bindparam("b_mu"),
                sigma=sa.bindparam("b_sigma"),
                games=sa.bindparam("b_games"),
                updated=now,
            ),
            changed,
        )
    new = [
        {"rater": r, "family": family, "mu": mu, "sigma": sigma, "games": 1, "updated": now}
        for r, (mu, sigma) in after.items()
        if r not in known
    ]
    if new:
        c.execute(ratings_table.insert(), new)
    c.execute(
        rating_history_table.insert(),
        [
            {
                "game_id": game_id,
                "rater": rater,
                "family": family,
                "place": round(rank),  # several bots of one level: their mean place
                "mu_before": before[rater][0],
                "sigma_before": before[rater][1],
                "mu_after": after[rater][0],
                "sigma_after": after[rater][1],
                "at": now,
            }
            for rater, rank in standings.items()
        ],
    )


def _rating_changes(c: Connection, game_id: int) -> dict[int, tuple[float, float]]:
    """Each rated player's displayed rating before and after the game (by player number)."""
    gp, h = game_players_table, rating_history_table
    rows = c.execute(
        sa.select(gp.c.player, h.c.mu_before, h.c.sigma_before, h.c.mu_after, h.c.sigma_after)
        .join(h, sa.and_(h.c.game_id == gp.c.game_id, h.c.rater == gp.c.rater))
        .where(gp.c.game_id == game_id)
    ).all()
    return {
        int(r.player): (
            ratings.ordinal(r.mu_before, r.sigma_before),
            ratings.ordinal(r.mu_after, r.sigma_after),
        )
        for r in rows
    }


def _clear_next_secret(c: Connection, code: str) -> None:
    c.execute(fair_table.delete().where(fair_table.c.code == code, fair_table.c.game_id.is_(None)))


def _next_secret(c: Connection, code: str) -> bytes | None:
    row = c.execute(
        sa.select(fair_table.c.secret)
        .where(fair_table.c.code == code, fair_table.c.game_id.is_(None))
        .order_by(fair_table.c.id.desc())
    ).first()
    return None if row is None else bytes.fromhex(row.secret)


def _game_fair(c: Connection, game_id: int) -> FairSeed | None:
    row = c.execute(
        sa.select(fair_table.c.secret, fair_table.c.seeds).where(fair_table.c.game_id == game_id)
    ).first()
    if row is None:
        return None
    return FairSeed(bytes.fromhex(row.secret), tuple(json.loads(row.seeds or "[]")))


def _touch(c: Connection, code: str) -> None:
    c.execute(tables_table.update().where(tables_table.c.code == code).values(updated=time.time()))


def _stored_table(c: Connection, row: Any) -> StoredTable:
    seats = [
        StoredSeat(
            s.seat,
            s.kind,
            s.name,
            s.level,
            s.token_hash,
            bool(s.autoplay),
            bool(s.ready),
            int(s.wins or 0),
            int(s.played or 0),
            s.player_id,
        )
        for s in c.execute(
            sa.select(seats_table)
            .where(seats_table.c.code == row.code)
            .order_by(seats_table.c.seat)
        ).all()
    ]
    game = None if row.game_id is None else _load_game(c, row.game_id)
    return StoredTable(
        row.code,
        row.status,
        row.preset,
        json.loads(row.options),
        json.loads(row.settings),
        seats,
        game,
        row.host,
        bool(row.public),
        _next_secret(c, row.code),
        *_stored_chat(c, row.code),
    )


def _chat_json(row: Any) -> dict[str, Any]:
    """A stored message as readers get it (the speaker's player id stays on the server)."""
    return {
        "game": row.game or None,
        "seq": row.seq,
        "turn": row.turn,
        "channel": row.channel,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "phrase": row.phrase,
        "at": row.at,
        "who": row.who,
    }


def _stored_chat(c: Connection, code: str) -> tuple[bool, list[dict[str, Any]]]:
    off = c.execute(
        sa.select(chat_settings_table.c.off).where(chat_settings_table.c.code == code)
    ).scalar()
    rows = c.execute(
        sa.select(chat_table)
        .where(chat_table.c.code == code)
        .order_by(chat_table.c.at.desc(), chat_table.c.seq.desc())
        .limit(CHAT_RECENT)
    ).all()
    # With the speaker's player id: the table's memory of them goes if they delete the account.
    return bool(off), [_chat_json(row) | {"player": row.player} for row in reversed(rows)]


def _delete_chat_of(c: Connection, player_id: str) -> None:
    """A player deleted their account: their chat messages go, words and name (what they
    wrote is theirs; the conversation keeps its numbering, with their lines missing)."""
    c.execute(chat_table.delete().where(chat_table.c.player == player_id))


def _release_seats(c: Connection, player_id: str) -> None:
    """The seats still the player's in the store (of tables no process holds in memory, or
    whose owner has yet to hear): no token of theirs works any more, and at a table between
    games the seat opens, the host role passing to the next person seated."""
    rows = c.execute(
        sa.select(
            seats_table.c.code, seats_table.c.seat, tables_table.c.status, tables_table.c.host
        )
        .join(tables_table, tables_table.c.code == seats_table.c.code)
        .where(seats_table.c.player_id == player_id)
    ).all()
    for row in rows:
        mine = (seats_table.c.code == row.code) & (seats_table.c.seat == row.seat)
        if row.status not in ("lobby", "over"):
            c.execute(seats_table.update().where(mine).values(token_hash=None, player_id=None))
            continue
        c.execute(
            seats_table.update()
            .where(mine)
            .values(**_seat_values(StoredSeat(row.seat, "open", None, None, None, False)))
        )
        if row.host == row.seat:
            heir = c.execute(
                sa.select(sa.func.min(seats_table.c.seat)).where(
                    seats_table.c.code == row.code, seats_table.c.kind == "human"
                )
            ).scalar()
            c.execute(
                tables_table.update().where(tables_table.c.code == row.code).values(host=heir)
            )


def _unnamed(record: dict[str, Any], gone: list[int]) -> dict[str, Any]:
    """A game's record without the names of players ``gone`` (who deleted their account)."""
    for i in gone:
        with contextlib.suppress(IndexError, KeyError, TypeError):
            record["players"][i]["name"] = ""
    meta = record.setdefault("meta", {})
    meta["deleted"] = sorted(set(meta.get("deleted", [])) | set(gone))
    return record


def _stored_player(row: Any) -> StoredPlayer:
    return StoredPlayer(
        str(row.id), str(row.name), float(row.created), row.password_hash is not None
    )


def _seat_values(seat: StoredSeat) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "kind": seat.kind,
        "name": seat.name,
        "level": seat.level,
        "token_hash": seat.token_hash,
        "autoplay": seat.autoplay,
        "ready": seat.ready,
        "wins": seat.wins,
        "played": seat.played,
        "player_id": seat.player_id,
    }


def _load_game(c: Connection, game_id: int) -> StoredGame | None:
    row = c.execute(sa.select(games_table).where(games_table.c.id == game_id)).first()
    if row is None:
        return None
    actions = [
        (a.player, a.action)
        for a in c.execute(
            sa.select(actions_table.c.player, actions_table.c.action)
            .where(actions_table.c.game_id == game_id)
            .order_by(actions_table.c.seq)
        ).all()
    ]
    gp = game_players_table
    marks = c.execute(
        sa.select(gp.c.player, gp.c.left_early, gp.c.acted).where(
            gp.c.game_id == game_id, sa.or_(gp.c.left_early, gp.c.acted)
        )
    ).all()
    return StoredGame(
        row.id,
        row.number,
        int(row.seed),
        json.loads(row.rules),
        json.loads(row.players),
        actions,
        row.finished is not None,
        _game_fair(c, game_id),
        frozenset(int(m.player) for m in marks if m.left_early),
        frozenset(int(m.player) for m in marks if m.acted),
        _rating_changes(c, game_id) if row.finished is not None and row.rated else {},
    )


# ------------------------------------------------------------------- off the event loop

P = ParamSpec("P")
T = TypeVar("T")


class StoreUnavailable(Exception):
    """The database did not answer, or refused, in time: nothing was changed by the call."""


class FencedOut(StoreUnavailable):
    """Another process has taken the table over: this one may no longer write to it, and
    nothing was changed by the call."""

    def __init__(self, code: str) -> None:
        super().__init__(f"table {code} is now served by another process")
        self.code = code


class AsyncStore:
    """The store as the event loop uses it: each call runs in one of a few worker threads, and
    any failure comes back as :class:`StoreUnavailable` (logged once, in one line)."""

    def __init__(
        self,
        store: Store,
        threads: int = 4,
        observe: Callable[[str, float, bool], None] | None = None,
    ) -> None:
        self.store = store
        self._pool = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="dudo-db")
        #: Told of every call: the method's name, its seconds in the worker thread, success.
        self.observe = observe
        #: Told of the code of a table another process has taken over (a write was fenced out).
        self.fenced: Callable[[str], None] | None = None
        #: Actions waiting for this turn of the event loop to end (SQLite), or for the
        #: transaction in flight to end (other databases), to be committed together.
        self._queued: list[tuple[ActionWrite, asyncio.Future[bool | None]]] = []
        self._committing: asyncio.Task[None] | None = None
        self._unchecked = 0  # actions committed on the loop since the last checkpoint
        self.pacing = CommitPacing()
        self._checkpointing: asyncio.Task[None] | None = None

    async def run(self, method: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        name = getattr(method, "__name__", "a database call")
        call = functools.partial(_timed, method, self.observe, name, *args, **kwargs)
        try:
            return await loop.run_in_executor(self._pool, call)
        except FencedOut as exc:
            self._tell_fenced(name, exc)
            raise
        except Exception as exc:
            log.warning("database: %s failed: %s", name, _one_line(exc))
            raise StoreUnavailable(f"{name}: {_one_line(exc)}") from exc

    def _tell_fenced(self, name: str, exc: FencedOut) -> None:
        log.warning("database: %s refused: %s", name, exc)
        if self.fenced is not None:
            self.fenced(exc.code)

    async def add_action(self, write: ActionWrite) -> None:
        """Commit one accepted action (:meth:`Store.add_action`), raising as :meth:`run` does.

        Actions are committed together, one transaction for many tables. On SQLite, on the
        loop (:meth:`Store.try_add_actions`): those asked for in one turn of the event loop,
        when the turn ends, or on a busy server those asked for within a few milliseconds
        (:class:`CommitPacing`). Elsewhere, in a worker thread, those asked for while
        the transaction before them was in flight (:meth:`Store.add_actions`): one commit and
        one thread hand-over for all of them. If that fails, each takes the worker path on its
        own after all."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool | None] = loop.create_future()
        self._queued.append((write, future))
        if self.store.writes_inline:
            if len(self._queued) == 1:
                wait = self.pacing.wait()
                if wait:
                    loop.call_later(wait, self._commit_queued)
                else:
                    loop.call_soon(self._commit_queued)
        elif self._committing is None:
            self._committing = asyncio.ensure_future(self._commit_in_turns())
        stored = await future
        if stored is None:
            await self.run(self.store.add_action, *write)
        elif not stored:
            exc = FencedOut(write.code)
            self._tell_fenced("add_action", exc)
            raise exc

    def _commit_queued(self) -> None:
        queued, self._queued = self._queued, []
        started = time.perf_counter()
        writes = [write for write, _ in queued]
        self.pacing.committing(writes, time.monotonic())
        try:
            stored = self.store.try_add_actions(writes)
        except Exception as exc:  # a bug, not the database: the worker path still stores them
            log.error("database: committing actions on the loop failed: %s", _one_line(exc))
            stored = None
        if stored is not None:
            if self.observe is not None:
                self.observe("add_actions", time.perf_counter() - started, True)
            self._unchecked += len(stored)
            if self._unchecked >= CHECKPOINT_EVERY and self._checkpointing is None:
                self._unchecked = 0
                self._checkpointing = asyncio.ensure_future(self._checkpoint())
        _answer(queued, stored)

    async def _commit_in_turns(self) -> None:
        """Commit the queued actions in one worker transaction, then those queued meanwhile,
        until none is left."""
        queued: list[tuple[ActionWrite, asyncio.Future[bool | None]]] = []
        try:
            while self._queued:
                queued, self._queued = self._queued, []
                try:
                    stored = await self.run(self.store.add_actions, [w for w, _ in queued])
                except StoreUnavailable:  # a bug (logged by run): the worker path decides
                    stored = None
                _answer(queued, stored)
                queued = []
        finally:
            self._committing = None
            # Cancelled on the way: whatever is left takes the worker path on its own.
            left, self._queued = [*queued, *self._queued], []
            _answer(left, None)

    async def _checkpoint(self) -> None:
        try:
            await self.run(self.store.checkpoint)
        except StoreUnavailable:
            pass  # logged by run; the next one tries again
        finally:
            self._checkpointing = None

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self.store.close()


def _answer(
    queued: Sequence[tuple[ActionWrite, asyncio.Future[bool | None]]], stored: list[bool] | None
) -> None:
    """Tell each queued action whether its commit together stored it (None: it was not, and
    it takes the worker path on its own)."""
    for i, (_write, future) in enumerate(queued):
        if not future.done():  # its table's task may have been cancelled meanwhile
            future.set_result(None if stored is None else stored[i])


#: How long a busy server gathers actions into one commit (:class:`CommitPacing`).
GATHER_SECONDS = 0.010


class CommitPacing:
    """When the actions asked for on the event loop (SQLite) are committed: when the loop's
    turn ends, or, on a busy server, ``gather`` seconds after the first of them.

    Each commit costs the server about 65 µs of CPU in place (where its pages are cold; an
    action costs 0.4-0.5 ms in all), whatever the number of actions in it. A loop's turn
    gathers little more than one action; waiting a few milliseconds gathers several, as a
    database's group commit does. But a wait is only worth it while other tables' actions
    are likely to come meanwhile: a table waits for its own commit before its next action,
    so one busy table, or a quiet server, would wait for nothing. So the wait is made only
    while the actions of the last second, the part of them that were other tables', bring
    at least one in ``gather`` seconds."""

    def __init__(self, gather: float = GATHER_SECONDS) -> None:
        self.gather = gather
        self._since = 0.0  # the start of the second being counted
        self._actions = 0
        self._tables: set[str] = set()
        #: The actions per second of the other tables, from the last second counted.
        self.others_per_second = 0.0

    def committing(self, writes: Sequence[ActionWrite], now: float) -> None:
        """Count the actions of a commit, made at ``now`` (time.monotonic)."""
        elapsed = now - self._since
        if elapsed >= 1.0:
            tables = len(self._tables)
            share = 1.0 - 1.0 / tables if tables else 0.0  # of each action, the others'
            self.others_per_second = self._actions * share / elapsed
            self._since, self._actions, self._tables = now, 0, set()
        self._actions += len(writes)
        self._tables.update(write.code for write in writes)

    def wait(self) -> float:
        """Seconds from the first action asked for to its commit (0: when the turn ends)."""
        return self.gather if self.others_per_second * self.gather >= 1.0 else 0.0


#: How many actions committed on the event loop between two checkpoints (SQLite's own
#: automatic checkpoint comes after about a thousand pages of log).
CHECKPOINT_EVERY = 1000
#: How long a checkpoint waits for the writer and the readers of older snapshots before it
#: gives up catching up with the log (the next one tries again). Writers wait meanwhile.
CHECKPOINT_WAIT = 0.05


def _timed(
    method: Callable[P, T],
    observe: Callable[[str, float, bool], None] | None,
    name: str,
    *args: P.args,
    **kwargs: P.kwargs,
) -> T:
    """``method(*args, **kwargs)``, timed in the worker thread (not counting the wait for
    one) and reported to ``observe``."""
    if observe is None:
        return method(*args, **kwargs)
    started = time.perf_counter()
    ok = False
    try:
        result = method(*args, **kwargs)
        ok = True
        return result
    finally:
        observe(name, time.perf_counter() - started, ok)


def _positional(statement: sa.Insert, engine: Engine) -> tuple[str, tuple[str, ...]]:
    """A statement as SQLite runs it, with the names of its positional parameters in order."""
    compiled = statement.compile(dialect=engine.dialect)
    return str(compiled), tuple(compiled.positiontup or ())


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
