"""The one place argon2 runs for requests anyone can send: sign-ins, one-time codes, passwords.

argon2id is slow on purpose (about 0.15 s of one core per password), which makes it a lever: a
few hundred requests at once would keep every core busy and every table waiting. So every hash
runs here, in a small pool of threads (``hash_workers``, 1 by default: argon2 releases the GIL,
so the event loop keeps its core), behind a queue of at most ``hash_queue`` jobs; past it a
request is refused at once with 429 ``passwords_busy`` and a ``Retry-After``, before any work.
The callers spend their rate-limit tokens before they get here, so a refused guess costs the
guesser a token and the server nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from dudo.server.errors import ErrorCode
from dudo.server.limits import RateLimited

T = TypeVar("T")

#: How much less the hashing threads weigh than the event loop when the cores are busy
#: (Linux's nice: 5 is about a third of a normal thread's share). A password check waits a
#: little longer on a busy machine; a table's move does not wait behind it.
HASH_NICENESS = 5

#: Roughly how long one job takes (a password check), to tell a refused client when to come back.
JOB_SECONDS = 0.2


class HashingBusy(RateLimited):
    """The queue of hashing jobs is full."""

    code = ErrorCode.PASSWORDS_BUSY


class Hashing:
    """A pool of ``workers`` threads and a cap of ``queue`` jobs waiting or running."""

    def __init__(self, workers: int, queue: int, done: Callable[[], None] | None = None) -> None:
        self.workers = max(1, workers)
        self.queue = queue
        self.pending = 0
        self._done = done  # told of each job that ran to its end (the metrics count them)
        self._pool = ThreadPoolExecutor(
            self.workers, thread_name_prefix="dudo-hash", initializer=_yield_to_the_loop
        )

    def check(self) -> None:
        """HashingBusy if the queue is full now (a request refused before any other work)."""
        if self.pending >= self.queue:
            seconds = max(1, math.ceil(self.pending * JOB_SECONDS / self.workers))
            raise HashingBusy(
                f"the server is checking too many passwords and codes now; "
                f"try again in {seconds} s",
                seconds,
            )

    async def run(self, job: Callable[..., T], *args: object) -> T:
        """``job(*args)`` in the pool; HashingBusy (nothing run) when the queue is full."""
        self.check()
        loop = asyncio.get_running_loop()
        self.pending += 1
        future = self._pool.submit(job, *args)
        # Counted until the job itself ends, not its caller: a client that goes away while
        # its password is being checked does not free a place the work still holds.
        future.add_done_callback(lambda _done: _call_soon(loop, self._finished))
        return await asyncio.wrap_future(future)

    def _finished(self) -> None:
        self.pending -= 1
        if self._done is not None:
            self._done()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _yield_to_the_loop() -> None:
    """Lower this (hashing) thread's priority, where the system has per-thread priorities."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody counts any more
        loop.call_soon_threadsafe(callback)
