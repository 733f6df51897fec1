"""Several server processes serving one site, through Redis and the shared database.

Each live table is owned by exactly one process at a time. Ownership is a lease in Redis
(``dudo:lease:<code>``, renewed every beat, lost after :data:`LEASE_SECONDS` without renewal)
together with a fence in the database (``tables.fence``): a process that takes a table over
raises the fence before loading the table, and every write of the owner checks it in the same
transaction (:meth:`dudo.server.storage.Store.claim_table`). So a process that lost its lease
(paused, cut off from Redis) can never commit to the table again, and the new owner's copy
includes everything that was committed.

A request or a WebSocket may arrive at any process. :class:`Relay` (ASGI middleware) sends
those of a table owned elsewhere through Redis to the owner, which runs them through its own
application as if they had come to it, and sends back what the application answers: the
per-seat updates a player receives are the owner's, computed from the engine's view of that
seat, as for a direct connection. When an owner goes away (killed, or stopping), the other
processes find its tables without a lease and take them over from the database within a few
seconds; relayed connections to it are closed with 1012 and the clients reconnect, to any
process, and receive every event they missed.

Messages between processes travel on Redis pub/sub: one channel per process
(``dudo:to:<name>``) and one for all (``dudo:all``). Without ``--redis-url`` none of this runs,
and one process serves everything from memory as before.

This module holds a process's membership, its leases and the message bus (:class:`Cluster`);
:mod:`dudo.server.relay` the relayed requests and WebSockets, :mod:`dudo.server.clusterwire`
what the messages look like.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson
import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.types import ASGIApp

from dudo.server.clusterwire import (
    ALL,
    BATCH,
    TEXT_IN,
    TEXT_OUT,
    lease_key,
    node_channel,
    node_key,
    pack,
    text_of,
    unbatch,
)

# Relay and where are imported from here by the application and the tables.
from dudo.server.relay import Relay as Relay
from dudo.server.relay import Tunnels
from dudo.server.relay import where as where
from dudo.server.storage import StoreUnavailable

if TYPE_CHECKING:
    from dudo.server.tables import Hall

log = logging.getLogger("dudo.server")

#: A lease not renewed for this long is free: another process may take the table over.
LEASE_SECONDS = 3.0
#: How often a process renews its leases and its own liveness, and looks for tables nobody
#: owns (a dead owner's tables are taken over within LEASE_SECONDS plus one beat).
BEAT_SECONDS = 1.0

# Renew a lease only if this process still holds it (atomic in Redis).
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
# Let go of a lease only if this process holds it.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class Cluster:
    """This process's part in a site of several: its leases, its messages, its relays."""

    def __init__(
        self,
        url: str,
        hall: Hall,
        node: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
        beat_seconds: float = BEAT_SECONDS,
    ) -> None:
        self.url = url
        self.hall = hall
        # Named for operators: the machine and process id, and a random part (a restarted
        # process with the same id is another member).
        self.node = node or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.lease_ms = int(lease_seconds * 1000)
        self.beat_seconds = beat_seconds
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url)
        #: The application below the relay (set by :class:`Relay`): what relayed requests run.
        self.inner: ASGIApp | None = None
        self.app: Any = None
        self.tunnels = Tunnels(self)
        #: Takeovers under way, by code (two requests for one table wait for one load).
        self.taking: dict[str, asyncio.Future[bool]] = {}
        self.outgoing: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.stopping = False
        #: Tables this process let go of (their next owner lists them in the lobby).
        self.handed_over: set[str] = set()
        self._release = self.redis.register_script(_RELEASE)
        self.on_broadcast("takeover", lambda _message: self.scan_soon())

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Join the site: be known as alive, listen, and take the tables nobody owns."""
        await self.redis.set(node_key(self.node), "1", px=self.lease_ms)
        self.pubsub = self.redis.pubsub()
        await self.pubsub.subscribe(node_channel(self.node), ALL)
        self._scan_now = asyncio.Event()
        loop = asyncio.get_running_loop()
        for job in (self._listen(), self._send(), self._beat()):
            self.tasks.append(loop.create_task(job))
        self._keeping = threading.Event()
        self._keeper = threading.Thread(
            target=self._keep_alive, args=(loop,), name="dudo-leases", daemon=True
        )
        self._keeper.start()
        log.info("cluster: process %s joined through %s", self.node, safe_url(self.url))

    async def stop(self) -> None:
        """Leave the site: hand every table over (each after its write under way), tell the
        others to take them now, and close the relayed connections so that their clients
        reconnect elsewhere."""
        self.stopping = True
        codes = list(self.hall.tables)
        for code in codes:  # the leases not yet let go stay renewed meanwhile
            await self.hall.let_go(code, reason="stopping")
        self._keeping.set()
        await asyncio.to_thread(self._keeper.join, 5.0)
        with contextlib.suppress(RedisError, OSError):
            if codes:
                await self.publish(ALL, {"k": "takeover", "codes": codes})
            await self.redis.delete(node_key(self.node))
        for tunnel_id in list(self.tunnels.carrying):
            self.tunnels.end_carried(tunnel_id, 1012)
        await self._drain()
        for task in self.tasks:
            task.cancel()
        # Bounded: the Redis client may take a cancelled read for a broken connection.
        await asyncio.wait(self.tasks, timeout=2.0)
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _drain(self) -> None:
        for _ in range(50):
            if self.outgoing.empty():
                return
            await asyncio.sleep(0.01)

    def scan_soon(self) -> None:
        self._scan_now.set()

    # ------------------------------------------------------------------ leases

    async def owner(self, code: str) -> str | None:
        return text_of(await self.redis.get(lease_key(code)))

    async def take(self, code: str) -> bool:
        """Own the table of ``code`` if nobody does: the lease, then the fence and the load
        (:meth:`Hall.adopt`). False: another process owns it, or there is no such table."""
        if code in self.hall.tables:
            return True
        if self.stopping:
            return False
        waiting = self.taking.get(code)
        if waiting is not None:
            return await asyncio.shield(waiting)
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.taking[code] = done
        result = False
        try:
            result = await self._take(code)
            return result
        finally:
            del self.taking[code]
            done.set_result(result)  # those waiting with it learn only whether it is here

    async def _take(self, code: str) -> bool:
        if not await self.lease(code):
            return False
        adopted = False
        try:
            adopted = await self.hall.adopt(code)
            return adopted
        finally:
            if not adopted:
                await self._release(keys=[lease_key(code)], args=[self.node])

    async def lease(self, code: str) -> bool:
        """Hold the lease of ``code`` if nobody does (a table to take over, or about to be
        created here)."""
        return bool(await self.redis.set(lease_key(code), self.node, nx=True, px=self.lease_ms))

    async def release(self, code: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self._release(keys=[lease_key(code)], args=[self.node])

    async def _beat(self) -> None:
        """End relays whose other end went away; take tables nobody owns (the leases are
        renewed by :meth:`_keep_alive`)."""
        while not self.stopping:
            started = time.monotonic()
            try:
                await self._beat_once()
            except (RedisError, OSError) as exc:
                log.warning("cluster: Redis did not answer: %s", exc)
            except StoreUnavailable as exc:  # an outage: one line (the store logged why)
                log.warning("cluster: the database did not answer: %s", exc)
            except Exception:
                log.exception("cluster: a beat failed")
            wait = max(0.0, self.beat_seconds - (time.monotonic() - started))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._scan_now.wait(), wait)
            self._scan_now.clear()

    def _keep_alive(self, loop: asyncio.AbstractEventLoop) -> None:
        """In a thread of its own: renew this process's liveness and its leases every beat,
        so that a busy event loop (a burst of connections, a long collection) does not cost
        the tables a needless move. A lease found lost is let go on the loop."""
        client = redis.Redis.from_url(self.url, socket_timeout=self.lease_ms / 2000)
        renew = client.register_script(_RENEW)
        try:
            while not self._keeping.wait(self.beat_seconds):
                try:
                    codes = self._owned()
                    with client.pipeline(transaction=False) as pipe:
                        pipe.set(node_key(self.node), "1", px=self.lease_ms)
                        for code in codes:
                            renew(
                                keys=[lease_key(code)], args=[self.node, self.lease_ms], client=pipe
                            )
                        results = pipe.execute()
                    lost = [c for c, kept in zip(codes, results[1:], strict=True) if not kept]
                    if lost:
                        loop.call_soon_threadsafe(self._lost, lost)
                except (RedisError, OSError) as exc:
                    log.warning("cluster: renewing leases failed: %s", exc)
        finally:
            client.close()

    def _owned(self) -> list[str]:
        """The codes of this process's tables, read from another thread."""
        while True:
            try:
                return list(self.hall.tables)
            except RuntimeError:  # changed while being read: read again
                continue

    def _lost(self, codes: list[str]) -> None:
        # Lost (a pause longer than the lease): another process may hold it now, and this
        # one's writes are fenced out anyway. Let it go; it is taken again if it is free.
        for code in codes:
            if code in self.hall.tables and code not in self.taking:
                self.hall.spawn(self.hall.let_go(code, reason="lease lost"))

    async def _beat_once(self) -> None:
        await self.tunnels.check_peers()
        if not self.stopping:
            await self._adopt_orphans()

    async def _adopt_orphans(self) -> None:
        """Take over live tables without an owner: a fair share each beat, in random order,
        so that the processes left after a failure split them."""
        codes = await self.hall.db.run(self.hall.store.live_codes)
        codes = [c for c in codes if c not in self.hall.tables]
        if not codes:
            return
        owners = await self.redis.mget([lease_key(c) for c in codes])
        orphans = [c for c, o in zip(codes, owners, strict=True) if o is None]
        if not orphans:
            return
        random.shuffle(orphans)
        nodes = max(1, len([k async for k in self.redis.scan_iter(match=node_key("*"))]))
        share = -(-len(orphans) // nodes)
        for code in orphans[:share]:
            try:
                await self.take(code)
            except (StoreUnavailable, RedisError, OSError) as exc:
                log.warning("cluster: taking table %s over failed: %s", code, exc)
            except Exception:
                log.exception("cluster: taking table %s over failed", code)

    # ------------------------------------------------------------------ messages

    def on_broadcast(self, kind: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self.handlers[kind] = handler

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self.redis.publish(channel, orjson.dumps(message))

    def post(self, channel: str, message: dict[str, Any]) -> None:
        """Queue a message for ``channel`` (sent in order, batched by the sender task)."""
        message["at"] = time.time()
        self.outgoing.put_nowait((channel, orjson.dumps(message)))

    def post_bytes(self, channel: str, data: bytes) -> None:
        self.outgoing.put_nowait((channel, data))

    async def _send(self) -> None:
        """Send what is queued: everything queued for one channel meanwhile goes as one
        message (under load, one per other process and loop turn, however many moves)."""
        while True:
            first = await self.outgoing.get()
            # A moment for the rest of this burst (the other seats' frames, other tables'
            # moves) to join it: under load, one message per other process per millisecond.
            await asyncio.sleep(0.0005)
            by_channel: dict[str, list[bytes]] = {first[0]: [first[1]]}
            count = 1
            while not self.outgoing.empty() and count < 2000:
                channel, data = self.outgoing.get_nowait()
                by_channel.setdefault(channel, []).append(data)
                count += 1
            try:
                if len(by_channel) == 1:
                    channel, messages = next(iter(by_channel.items()))
                    await self.redis.publish(channel, pack(messages))
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, messages in by_channel.items():
                            pipe.publish(channel, pack(messages))
                        await pipe.execute()
            except (RedisError, OSError) as exc:
                log.warning("cluster: %d messages not sent: %s", count, exc)

    async def _listen(self) -> None:
        while not self.stopping:
            try:
                message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except (RedisError, OSError) as exc:
                log.warning("cluster: listening failed: %s", exc)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            data: bytes = message["data"]
            for one in unbatch(data) if data[:1] == BATCH else [data]:
                try:
                    kind = one[:1]
                    if kind in (TEXT_OUT, TEXT_IN):
                        self.tunnels.receive_text(kind, one)
                    else:
                        self._receive(orjson.loads(one))
                except Exception:
                    log.exception("cluster: a message could not be handled")

    def _receive(self, message: dict[str, Any]) -> None:
        at = message.get("at")
        if at is not None:
            self.hall.metrics.relay_seconds.observe(max(0.0, time.time() - float(at)))
        kind = message["k"]
        if not self.tunnels.receive(kind, message):
            handler = self.handlers.get(kind)
            if handler is not None:
                handler(message)


def safe_url(url: str) -> str:
    """A Redis URL without its password, for the log."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    return f"{scheme}://…@{rest.split('@', 1)[1]}"
