"""Every accepted action, committed before anyone hears of it: the hot path of a game.

The primary key ``(game_id, seq)`` makes applying an action twice impossible. Each thread keeps
one connection and one prepared statement for actions (:meth:`ActionStore.add_action`). On
SQLite, the actions accepted in one turn of the event loop are committed together on the loop
itself, in one transaction that never waits (:meth:`ActionStore.try_add_actions`): a few tens of
microseconds, where handing a write to a worker and back costs the server several times that.
When SQLite's lock is taken, or anything else goes wrong, those actions take the worker path
like every other write.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Sequence
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dudo.server.storage.database import DB_TIMEOUT, FENCE_HELD, Database
from dudo.server.storage.schema import actions_table

#: How long a checkpoint waits for the writer and the readers of older snapshots before it
#: gives up catching up with the log (the next one tries again). Writers wait meanwhile.
CHECKPOINT_WAIT = 0.05

_INSERT_ACTION = actions_table.insert()
# The same, only while this process holds the table's fence, in one statement (several
# processes): :data:`FENCE_HELD`, and an insert after a takeover inserts nothing.
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
        ).where(FENCE_HELD),
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


class ActionStore(Database):
    """Actions: committed one by one from a worker thread, or together."""

    def __init__(self, url: str, timeout: float = DB_TIMEOUT) -> None:
        super().__init__(url, timeout)
        self._local = threading.local()  # each thread's writing connection
        self._writers: list[Connection] = []
        self._writers_lock = threading.Lock()
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
        super().close()

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


def _positional(statement: sa.Insert, engine: Engine) -> tuple[str, tuple[str, ...]]:
    """A statement as SQLite runs it, with the names of its positional parameters in order."""
    compiled = statement.compile(dialect=engine.dialect)
    return str(compiled), tuple(compiled.positiontup or ())
