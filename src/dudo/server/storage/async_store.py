"""The store as the event loop uses it: every call in one of a few worker threads, every
failure turned into :class:`~.database.StoreUnavailable`, and the actions of one turn of the
loop committed together (:class:`CommitPacing` says when).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import time
from collections.abc import Callable, Sequence
from typing import ParamSpec, TypeVar

from dudo.server.storage.actions import ActionWrite
from dudo.server.storage.database import FencedOut, StoreUnavailable
from dudo.server.storage.store import Store

log = logging.getLogger("dudo.server")

P = ParamSpec("P")
T = TypeVar("T")


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


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
