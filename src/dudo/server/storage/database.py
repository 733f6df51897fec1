"""The connection every part of the store shares: the engine, the migrations, the failures, and
the table fence that keeps a process that lost a table from writing to it.

:class:`Database` is the base of each aggregate's store (:mod:`.tables`, :mod:`.players`, ...):
it holds the engine and this process's fences, and :meth:`Database._fenced` is the one check a
write of a table's state makes (the fenced insert of an action, :data:`FENCE_HELD`, is its
form inside one statement).
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any, NoReturn

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from dudo.server.storage.schema import tables_table

#: How long one database call may wait for a lock or an answer before it fails (and the server
#: retries or tells the player), in seconds.
DB_TIMEOUT = 3.0

#: The PostgreSQL advisory lock key that serializes migrations (any constant of our own).
MIGRATE_LOCK = 0x64756430

#: Where Alembic's migrations of this schema are.
MIGRATIONS = Path(__file__).parent.parent / "migrations"


class StoreUnavailable(Exception):
    """The database did not answer, or refused, in time: nothing was changed by the call."""


class FencedOut(StoreUnavailable):
    """Another process has taken the table over: this one may no longer write to it, and
    nothing was changed by the call."""

    def __init__(self, code: str) -> None:
        super().__init__(f"table {code} is now served by another process")
        self.code = code


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


def newest_revision() -> str:
    """The newest migration's revision: migrations are numbered in order, each file named after
    its revision (``0015_game_setup.py`` is revision ``"0015"``; a test checks the chain)."""
    return max(path.name.split("_", 1)[0] for path in (MIGRATIONS / "versions").glob("0*.py"))


def _at_newest(engine: Engine) -> bool:
    """Is the schema already at the newest migration? Asked first, so that a start on an
    up-to-date database does not load every migration script (a third of a start's time)."""
    try:
        with engine.connect() as connection:
            found = connection.execute(sa.text("SELECT version_num FROM alembic_version")).all()
    except SQLAlchemyError:
        return False  # a new database: no version table yet
    return [row[0] for row in found] == [newest_revision()]


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration."""
    if _at_newest(engine):
        return
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several processes starting at once on one database migrate one after the other
            # (the lock ends with the transaction).
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATE_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


#: The fence check inside one statement (an action's insert, :mod:`.actions`), with the
#: parameters ``code`` and ``fence``: the table's fence is still this process's. It shares the
#: table's row until the commit, so a takeover's fence raise waits for it, and a statement
#: after the raise finds the new fence.
FENCE_HELD = sa.exists(
    sa.select(tables_table.c.code)
    .where(
        tables_table.c.code == sa.bindparam("code"),
        tables_table.c.fence == sa.bindparam("fence"),
    )
    .with_for_update(read=True)
)


def touch(c: Connection, code: str) -> None:
    """Note a change of the table (idle lobbies are closed by the time of their last one)."""
    c.execute(tables_table.update().where(tables_table.c.code == code).values(updated=time.time()))


class Database:
    """The engine and this process's table fences; the base of every aggregate's store. Every
    method is one transaction, and may be called from several threads at once."""

    def __init__(self, url: str, timeout: float = DB_TIMEOUT) -> None:
        self.url = url
        self.timeout = timeout
        self.engine = make_engine(url, timeout)
        migrate(self.engine)
        #: The fence this process holds for each table it owns, when several processes share
        #: the database (None: this is the only process, and nothing is fenced). Every write
        #: of a table's state checks it in its own transaction (:meth:`claim_table`).
        self.fences: dict[str, int] | None = None

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database something trivial (readiness: does it answer?)."""
        with self.engine.connect() as c:
            c.execute(sa.text("SELECT 1"))

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
