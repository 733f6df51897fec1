"""What the server keeps on disk: tables, seats, games, every accepted action, dice cups.

SQLAlchemy Core over SQLite (default: a file in the data folder) or PostgreSQL (by URL). The
schema is created and upgraded by Alembic (:mod:`dudo.server.migrations`), never by
``create_all``, so a database made by an older version is migrated forward on start.

The store is synchronous and small on purpose: the game loop commits each accepted action
before anyone hears of it, so a crash at any moment loses nothing that was broadcast, and the
primary key ``(game_id, seq)`` makes applying an action twice impossible.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

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

_INSERT_ACTION = actions_table.insert()

sa.Index("games_finished", games_table.c.finished)
sa.Index("games_code", games_table.c.code)


def token_hash(token: str) -> str:
    """Tokens are stored only as their SHA-256, so a copy of the database cannot act for anyone."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / 'dudo.sqlite3'}"


def make_engine(url: str) -> Engine:
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
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    try:
        return sa.create_engine(url, pool_pre_ping=True)
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
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclass
class StoredSeat:
    seat: int
    kind: str
    name: str | None
    level: str | None
    token_hash: str | None
    autoplay: bool


@dataclass
class StoredGame:
    id: int
    number: int
    seed: int
    rules: dict[str, Any]
    players: list[dict[str, Any]]
    actions: list[tuple[int, str]]
    finished: bool


@dataclass
class StoredTable:
    code: str
    status: str
    preset: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seats: list[StoredSeat]
    game: StoredGame | None


class Store:
    """The database behind one server. Every method is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        migrate(self.engine)
        self._writer: Connection | None = None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.engine.dispose()

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
    ) -> None:
        with self.engine.begin() as c:
            c.execute(
                tables_table.insert().values(
                    code=code,
                    created=time.time(),
                    status="lobby",
                    preset=preset,
                    options=json.dumps(options),
                    settings=json.dumps(settings),
                    game_id=None,
                )
            )
            for seat in seats:
                c.execute(seats_table.insert().values(code=code, **_seat_values(seat)))

    def save_seat(self, code: str, seat: StoredSeat) -> None:
        with self.engine.begin() as c:
            c.execute(
                seats_table.update()
                .where(seats_table.c.code == code, seats_table.c.seat == seat.seat)
                .values(**_seat_values(seat))
            )

    def set_status(self, code: str, status: str) -> None:
        with self.engine.begin() as c:
            c.execute(
                tables_table.update().where(tables_table.c.code == code).values(status=status)
            )

    def start_game(
        self,
        code: str,
        number: int,
        seed: int,
        rules: dict[str, Any],
        players: list[dict[str, Any]],
    ) -> int:
        """Record a new game at the table and make it the table's current game."""
        with self.engine.begin() as c:
            result = c.execute(
                games_table.insert().values(
                    code=code,
                    number=number,
                    seed=seed,
                    rules=json.dumps(rules),
                    players=json.dumps(players),
                    started=time.time(),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            game_id = int(key[0])
            c.execute(
                tables_table.update()
                .where(tables_table.c.code == code)
                .values(status="playing", game_id=game_id)
            )
        return game_id

    def add_action(self, game_id: int, seq: int, player: int, action: str) -> None:
        """Commit one accepted action. A second action with the same ``seq`` fails.

        This is on every move's path, so it reuses one connection and one prepared statement
        instead of checking a connection out and building the insert each time."""
        writer = self._writer
        if writer is None or writer.closed or writer.invalidated:
            writer = self._writer = self.engine.connect()
        try:
            writer.execute(
                _INSERT_ACTION,
                {
                    "game_id": game_id,
                    "seq": seq,
                    "player": player,
                    "action": action,
                    "at": time.time(),
                },
            )
            writer.commit()
        except BaseException:
            with contextlib.suppress(Exception):
                writer.rollback()
            if writer.invalidated:  # the database went away: reconnect next time
                self._writer = None
            raise

    def finish_game(
        self, code: str, game_id: int, winner: int, rounds: int, record: dict[str, Any]
    ) -> None:
        with self.engine.begin() as c:
            c.execute(
                games_table.update()
                .where(games_table.c.id == game_id)
                .values(
                    finished=time.time(), winner=winner, rounds=rounds, record=json.dumps(record)
                )
            )
            c.execute(
                tables_table.update().where(tables_table.c.code == code).values(status="over")
            )

    def load_tables(self, max_age_seconds: float = 7 * 24 * 3600) -> list[StoredTable]:
        """Every table with a game in play, and every other table (lobby, or a game over and a
        rematch possible) created in the last ``max_age_seconds``, with its current game's
        actions."""
        since = time.time() - max_age_seconds
        out: list[StoredTable] = []
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(tables_table)
                .where(
                    tables_table.c.status != "closed",
                    # an unfinished game is resumed however old; idle tables only for a week
                    sa.or_(tables_table.c.status == "playing", tables_table.c.created >= since),
                )
                .order_by(tables_table.c.created)
            ).all()
            for row in rows:
                seats = [
                    StoredSeat(s.seat, s.kind, s.name, s.level, s.token_hash, bool(s.autoplay))
                    for s in c.execute(
                        sa.select(seats_table)
                        .where(seats_table.c.code == row.code)
                        .order_by(seats_table.c.seat)
                    ).all()
                ]
                game = None if row.game_id is None else _load_game(c, row.game_id)
                out.append(
                    StoredTable(
                        row.code,
                        row.status,
                        row.preset,
                        json.loads(row.options),
                        json.loads(row.settings),
                        seats,
                        game,
                    )
                )
        return out

    # ---------------------------------------------------------------------- past games

    def recent_games(self, limit: int) -> list[dict[str, Any]]:
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
            names = [p["name"] for p in json.loads(row.players)]
            games.append(
                {
                    "id": row.id,
                    "table": row.code,
                    "finished": row.finished,
                    "players": names,
                    "winner": names[row.winner] if row.winner is not None else None,
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
        return record

    # ---------------------------------------------------------------------------- cups

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


def _seat_values(seat: StoredSeat) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "kind": seat.kind,
        "name": seat.name,
        "level": seat.level,
        "token_hash": seat.token_hash,
        "autoplay": seat.autoplay,
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
    return StoredGame(
        row.id,
        row.number,
        int(row.seed),
        json.loads(row.rules),
        json.loads(row.players),
        actions,
        row.finished is not None,
    )
