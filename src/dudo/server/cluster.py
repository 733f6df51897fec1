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
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import random
import secrets
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dudo.server.errors import ErrorCode, Refused
from dudo.server.retry import refuse_request, refuse_socket, retry_messages, unavailable
from dudo.server.storage import StoreUnavailable

if TYPE_CHECKING:
    from dudo.server.tables import Hall

log = logging.getLogger("dudo.server")

#: A lease not renewed for this long is free: another process may take the table over.
LEASE_SECONDS = 3.0
#: How often a process renews its leases and its own liveness, and looks for tables nobody
#: owns (a dead owner's tables are taken over within LEASE_SECONDS plus one beat).
BEAT_SECONDS = 1.0
#: How long a relayed HTTP request waits for the owner's answer.
RELAY_SECONDS = 10.0
#: How long a carried WebSocket waits for the owner to accept it (it takes milliseconds): the
#: open may have been lost with Redis, and a handshake must not wait for ever.
OPEN_SECONDS = 5.0
#: The refusal's words when the owner did not answer.
NO_ANSWER = "the server process holding this table did not answer in time: try again in a moment"
PREFIX = "dudo:"
ALL = PREFIX + "all"

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


def lease_key(code: str) -> str:
    return f"{PREFIX}lease:{code}"


def node_key(node: str) -> str:
    return f"{PREFIX}node:{node}"


def node_channel(node: str) -> str:
    return f"{PREFIX}to:{node}"


def _scope_out(scope: Scope) -> dict[str, Any]:
    """What the owner needs of a request's scope, as JSON."""
    return {
        "type": scope["type"],
        "path": scope["path"],
        "raw_path": scope.get("raw_path", scope["path"].encode()).decode("latin-1"),
        "query_string": scope.get("query_string", b"").decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
        "client": list(scope["client"]) if scope.get("client") else None,
        "server": list(scope["server"]) if scope.get("server") else None,
        "scheme": scope.get("scheme", "http"),
        "http_version": scope.get("http_version", "1.1"),
        "method": scope.get("method"),
        "root_path": scope.get("root_path", ""),
        "subprotocols": list(scope.get("subprotocols", [])),
    }


def _scope_in(data: dict[str, Any], app: Any) -> Scope:
    scope: dict[str, Any] = {
        "type": data["type"],
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "path": data["path"],
        "raw_path": data["raw_path"].encode("latin-1"),
        "query_string": data["query_string"].encode("latin-1"),
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in data["headers"]],
        "client": tuple(data["client"]) if data["client"] else None,
        "server": tuple(data["server"]) if data["server"] else None,
        "scheme": data["scheme"],
        "http_version": data["http_version"],
        "root_path": data["root_path"],
        "app": app,
        "state": {},
        RELAYED: True,
    }
    if data["type"] == "http":
        scope["method"] = data["method"]
    else:
        scope["subprotocols"] = data["subprotocols"]
    return scope


def _message_out(message: Message) -> dict[str, Any]:
    """An ASGI message as JSON (bytes as base64)."""
    out = dict(message)
    for key in ("bytes", "body"):
        if isinstance(out.get(key), bytes | bytearray):
            out[key] = base64.b64encode(out[key]).decode()
    if "headers" in out:
        out["headers"] = [
            [bytes(k).decode("latin-1"), bytes(v).decode("latin-1")] for k, v in out["headers"]
        ]
    return out


def _message_in(data: dict[str, Any]) -> Message:
    message = dict(data)
    for key in ("bytes", "body"):
        if isinstance(message.get(key), str):
            message[key] = base64.b64decode(message[key])
    if "headers" in message:
        message["headers"] = [
            (k.encode("latin-1"), v.encode("latin-1")) for k, v in message["headers"]
        ]
    return message


#: The messages on every relayed move's path travel as bytes, not JSON: a kind byte, the
#: sending time, the tunnel's id (16 characters), then the WebSocket text frame as it is.
_TEXT_OUT, _TEXT_IN = b"T", b"R"
_STAMP = struct.Struct("<d")
_HEAD = 1 + _STAMP.size + 16


#: Several messages for one process sent as one: this byte, then each message after its length.
_BATCH = b"B"
_LENGTH = struct.Struct("<I")


def _batch(messages: list[bytes]) -> bytes:
    parts = [_BATCH]
    for message in messages:
        parts.append(_LENGTH.pack(len(message)))
        parts.append(message)
    return b"".join(parts)


def _unbatch(data: bytes) -> list[bytes]:
    messages, at = [], 1
    while at < len(data):
        (length,) = _LENGTH.unpack_from(data, at)
        at += _LENGTH.size
        messages.append(data[at : at + length])
        at += length
    return messages


def _pack(messages: list[bytes]) -> bytes:
    return messages[0] if len(messages) == 1 else _batch(messages)


def _text_message(kind: bytes, tunnel_id: str, text: str) -> bytes:
    return kind + _STAMP.pack(time.time()) + tunnel_id.encode() + text.encode()


#: Marks a scope the owner runs for another process (never relayed again).
RELAYED = "dudo.relayed"


@dataclass
class _Tunnel:
    """One relayed WebSocket, on either side: the messages from the other process, in order."""

    code: str
    peer: str  # the other process
    inbox: asyncio.Queue[Message] = field(default_factory=asyncio.Queue)


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
        #: Relayed WebSockets by id: those this process serves as owner, and those it carries
        #: for its own clients to another owner.
        self.serving: dict[str, _Tunnel] = {}
        self.carrying: dict[str, _Tunnel] = {}
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
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
        for tunnel_id in list(self.carrying):
            self._end_carried(tunnel_id, 1012)
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
        return _text(await self.redis.get(lease_key(code)))

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
        await self._check_peers()
        if not self.stopping:
            await self._adopt_orphans()

    async def _check_peers(self) -> None:
        """End the relays whose other process is gone, or whose table moved."""
        serving, carried = list(self.serving.values()), list(self.carrying.items())
        peers = {t.peer for t in serving} | {t.peer for _id, t in carried}
        if peers:
            peer_list = list(peers)
            alive = await self.redis.mget([node_key(p) for p in peer_list])
            gone = {p for p, up in zip(peer_list, alive, strict=True) if up is None}
            for tunnel in serving:
                if tunnel.peer in gone:
                    tunnel.inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})
            for tunnel_id, tunnel in carried:
                if tunnel.peer in gone:
                    self._end_carried(tunnel_id, 1012)
        # Only the relays that exist before the lookup: one opened during it is not in it.
        carried = list(self.carrying.items())
        codes = sorted({t.code for _id, t in carried})
        if codes:
            found = await self.redis.mget([lease_key(c) for c in codes])
            owners = {c: _text(o) for c, o in zip(codes, found, strict=True)}
            for tunnel_id, tunnel in carried:
                if owners[tunnel.code] != tunnel.peer:  # the table moved, or is moving
                    self._end_carried(tunnel_id, 1012)

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
                    await self.redis.publish(channel, _pack(messages))
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, messages in by_channel.items():
                            pipe.publish(channel, _pack(messages))
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
            for one in _unbatch(data) if data[:1] == _BATCH else [data]:
                try:
                    kind = one[:1]
                    if kind in (_TEXT_OUT, _TEXT_IN):
                        self._receive_text(kind, one)
                    else:
                        self._receive(orjson.loads(one))
                except Exception:
                    log.exception("cluster: a message could not be handled")

    def _receive_text(self, kind: bytes, data: bytes) -> None:
        (at,) = _STAMP.unpack_from(data, 1)
        self.hall.metrics.relay_seconds.observe(max(0.0, time.time() - at))
        tunnel_id = data[1 + _STAMP.size : _HEAD].decode()
        tunnels = self.carrying if kind == _TEXT_OUT else self.serving
        tunnel = tunnels.get(tunnel_id)
        if tunnel is not None:
            kind_name = "websocket.send" if kind == _TEXT_OUT else "websocket.receive"
            tunnel.inbox.put_nowait({"type": kind_name, "text": data[_HEAD:].decode()})

    def _receive(self, message: dict[str, Any]) -> None:
        at = message.get("at")
        if at is not None:
            self.hall.metrics.relay_seconds.observe(max(0.0, time.time() - float(at)))
        kind = message["k"]
        if kind == "ws_in":  # to the owner: a message from a client of another process
            tunnel = self.serving.get(message["c"])
            if tunnel is not None:
                tunnel.inbox.put_nowait(_message_in(message["m"]))
        elif kind == "ws_out":  # to the carrier: a message for its client
            tunnel = self.carrying.get(message["c"])
            if tunnel is not None:
                tunnel.inbox.put_nowait(_message_in(message["m"]))
        elif kind == "ws_open":
            self._serve_socket(message)
        elif kind == "http":
            self.hall.spawn(self._serve_http(message))
        elif kind == "http_reply":
            waiting = self.replies.pop(message["r"], None)
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
        else:
            handler = self.handlers.get(kind)
            if handler is not None:
                handler(message)

    # ------------------------------------------------------------------ the owner's side

    def _serve_socket(self, message: dict[str, Any]) -> None:
        tunnel_id, peer = message["c"], message["e"]
        tunnel = _Tunnel(message["code"], peer)
        self.serving[tunnel_id] = tunnel
        channel = node_channel(peer)

        async def send(out: Message) -> None:
            text = out.get("text") if out["type"] == "websocket.send" else None
            if text is not None:
                self.post_bytes(channel, _text_message(_TEXT_OUT, tunnel_id, text))
            else:
                self.post(channel, {"k": "ws_out", "c": tunnel_id, "m": _message_out(out)})

        async def run() -> None:
            try:
                assert self.inner is not None
                await self.inner(_scope_in(message["s"], self.app), tunnel.inbox.get, send)
            finally:
                self.serving.pop(tunnel_id, None)
                await send({"type": "websocket.close", "code": 1012})

        self.hall.spawn(run())

    async def _serve_http(self, message: dict[str, Any]) -> None:
        body = base64.b64decode(message["b"])
        sent = False
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # the relayed client never disconnects from here
            raise AssertionError("unreachable")

        async def send(out: Message) -> None:
            if out["type"] == "http.response.start":
                start.update(_message_out(out))
            elif out["type"] == "http.response.body":
                chunks.append(bytes(out.get("body", b"")))

        assert self.inner is not None
        await self.inner(_scope_in(message["s"], self.app), receive, send)
        self.post(
            node_channel(message["e"]),
            {
                "k": "http_reply",
                "r": message["r"],
                "start": start,
                "b": base64.b64encode(b"".join(chunks)).decode(),
            },
        )

    # ------------------------------------------------------------------ the carrier's side

    def _end_carried(self, tunnel_id: str, code: int) -> None:
        tunnel = self.carrying.get(tunnel_id)
        if tunnel is not None:
            tunnel.inbox.put_nowait({"type": "websocket.close", "code": code})

    async def carry_socket(
        self, code: str, owner: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Carry a client's WebSocket to the table's owner and back, until either side ends."""
        tunnel_id = secrets.token_hex(8)
        tunnel = _Tunnel(code, owner)
        self.carrying[tunnel_id] = tunnel
        channel = node_channel(owner)
        self.post(
            channel,
            {"k": "ws_open", "c": tunnel_id, "e": self.node, "code": code, "s": _scope_out(scope)},
        )
        accepted = False

        async def upstream() -> None:
            while True:
                message = await receive()
                text = message.get("text") if message["type"] == "websocket.receive" else None
                if text is not None:
                    self.post_bytes(channel, _text_message(_TEXT_IN, tunnel_id, text))
                else:
                    self.post(channel, {"k": "ws_in", "c": tunnel_id, "m": _message_out(message)})
                if message["type"] == "websocket.disconnect":
                    return

        pump = asyncio.get_running_loop().create_task(upstream())
        try:
            while True:
                if accepted:  # (the path of every relayed frame: no timer)
                    out = await tunnel.inbox.get()
                else:
                    try:
                        out = await asyncio.wait_for(tunnel.inbox.get(), OPEN_SECONDS)
                    except TimeoutError:  # the owner never answered: the client tries again
                        moving = Refused(ErrorCode.TABLE_MOVING, NO_ANSWER, 503)
                        for message in retry_messages(moving):
                            with contextlib.suppress(Exception):
                                await send(message)
                        return
                if out["type"] == "websocket.close" and not accepted:
                    # The owner went away before accepting: accept, so the client is told
                    # to come back (1012) instead of seeing a refused handshake.
                    await send({"type": "websocket.accept"})
                with contextlib.suppress(Exception):
                    await send(out)
                accepted = accepted or out["type"] == "websocket.accept"
                if out["type"] == "websocket.close":
                    return
        finally:
            self.carrying.pop(tunnel_id, None)
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
            # The owner hears the client has gone, however the carrier ended.
            self.post(
                channel,
                {"k": "ws_in", "c": tunnel_id, "m": {"type": "websocket.disconnect", "code": 1001}},
            )

    async def relay_request(
        self, owner: str, code: str, scope: Scope, body: bytes
    ) -> dict[str, Any] | None:
        """Send an HTTP request to the table's owner: its answer (``start`` and ``b``), or
        None if the owner went away (or lost the table) before answering."""
        request_id = secrets.token_hex(8)
        waiting: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[request_id] = waiting
        self.post(
            node_channel(owner),
            {
                "k": "http",
                "r": request_id,
                "e": self.node,
                "s": _scope_out(scope),
                "b": base64.b64encode(body).decode(),
            },
        )
        deadline = time.monotonic() + RELAY_SECONDS
        try:
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(waiting), 0.25)
                except TimeoutError:
                    pass
                # Slow: is the owner still there, and still the table's?
                if time.monotonic() > deadline or await self.owner(code) != owner:
                    return None
        finally:
            self.replies.pop(request_id, None)
            waiting.cancel()

    async def request(
        self,
        owner: str,
        code: str,
        method: str,
        path: str,
        body: dict[str, Any],
        headers: dict[str, str],
    ) -> tuple[int, dict[str, Any]]:
        """Make a request of another process's application (e.g. joining a table it owns):
        its status and JSON answer."""
        scope: Scope = {
            "type": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]
            + [(b"content-type", b"application/json")],
            "client": None,
            "server": None,
            "scheme": "http",
            "http_version": "1.1",
            "method": method,
            "root_path": "",
        }
        reply = await self.relay_request(owner, code, scope, orjson.dumps(body))
        if reply is None:
            return 503, {"code": ErrorCode.TABLE_MOVING}
        data = base64.b64decode(reply["b"])
        return int(reply["start"]["status"]), orjson.loads(data) if data else {}


def table_code(scope: Scope) -> str | None:
    """The table code a request or WebSocket is about (None: it is about no one table)."""
    path: str = scope["path"]
    if scope["type"] == "websocket":
        if path.startswith("/ws/") and path.count("/") == 2 and path != "/ws/lobby":
            return path[4:].strip().upper()
        return None
    if path.startswith("/api/tables/"):
        code = path[len("/api/tables/") :].split("/", 1)[0]
        return code.strip().upper() or None
    return None


class Relay:
    """ASGI middleware: requests and WebSockets about a table another process owns go to
    that process (:class:`Cluster`); everything else is served here. A table nobody owns is
    taken over here first (it was its owner's, which went away)."""

    def __init__(self, app: ASGIApp, state: Any) -> None:
        self.app = app
        self.state = state
        state.relayed = app  # what the owner runs relayed requests through

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster: Cluster | None = getattr(self.state, "cluster", None)
        if scope["type"] not in ("http", "websocket"):
            cluster = None
        code = None if cluster is None or scope.get(RELAYED) else table_code(scope)
        if cluster is None or code is None or not code.isalnum() or len(code) > 16:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            try:
                owner = await where(cluster, code)
            except Exception as exc:  # Redis or the database down: "try again", no traceback
                refused = unavailable(exc)
                if refused is None:
                    raise
                await refuse_socket(refused, receive, send)
                return
            if owner is None or owner == cluster.node:
                await self.app(scope, receive, send)
            else:
                await cluster.carry_socket(code, owner, scope, receive, send)
            return
        body = await _whole_body(receive)
        if body is None:
            return  # the client went away
        # An owner that goes away before answering: a read is asked again of the next owner,
        # a change is answered "try again" (it may or may not have been made).
        tries = 3 if scope["method"] in ("GET", "HEAD") else 1
        for _ in range(tries):
            reply: dict[str, Any] | None = None
            try:
                owner = await where(cluster, code)
                if owner is not None and owner != cluster.node:
                    reply = await cluster.relay_request(owner, code, scope, body)
            except Exception as exc:  # Redis or the database down: 503, no traceback
                refused = unavailable(exc)
                if refused is None:
                    raise
                await refuse_request(refused, send)
                return
            if owner is None or owner == cluster.node:
                await self.app(scope, _replay(body, receive), send)
                return
            if reply is not None:
                await send(_message_in(reply["start"]))
                await send({"type": "http.response.body", "body": base64.b64decode(reply["b"])})
                return
        await refuse_request(Refused(ErrorCode.TABLE_MOVING, NO_ANSWER, 503), send)


async def _whole_body(receive: Receive) -> bytes | None:
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        body.extend(message.get("body", b""))
        if not message.get("more_body", False):
            return bytes(body)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` (already read) again, then the client's own."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def where(cluster: Cluster, code: str) -> str | None:
    """The process that owns the table (taking it over here if nobody does)."""
    if code in cluster.hall.tables:
        return cluster.node
    for _ in range(3):
        owner = await cluster.owner(code)
        if owner is not None:
            return owner
        if await cluster.take(code):
            return cluster.node
        if await cluster.owner(code) is None:
            return None  # no such table (or closed): the application says so
    return None


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def safe_url(url: str) -> str:
    """A Redis URL without its password, for the log."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    return f"{scheme}://…@{rest.split('@', 1)[1]}"
