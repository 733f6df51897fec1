"""Relaying to a table's owner (:mod:`dudo.server.cluster`): :class:`Relay`, the ASGI
middleware that sends a request or WebSocket about a table another process owns to that
process, and :class:`Tunnels`, both ends of each relayed connection (the owner runs it through
its own application; the carrier passes what it answers to its client).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dudo.server.clusterwire import (
    HEAD,
    RELAYED,
    STAMP,
    TEXT_IN,
    TEXT_OUT,
    lease_key,
    message_in,
    message_out,
    node_channel,
    node_key,
    scope_in,
    scope_out,
    text_message,
    text_of,
)
from dudo.server.errors import ErrorCode, Refused
from dudo.server.retry import refuse_request, refuse_socket, retry_messages, unavailable

if TYPE_CHECKING:
    from dudo.server.cluster import Cluster

#: How long a relayed HTTP request waits for the owner's answer.
RELAY_SECONDS = 10.0
#: How long a carried WebSocket waits for the owner to accept it (it takes milliseconds): the
#: open may have been lost with Redis, and a handshake must not wait for ever.
OPEN_SECONDS = 5.0
#: The refusal's words when the owner did not answer.
NO_ANSWER = "the server process holding this table did not answer in time: try again in a moment"


@dataclass
class Tunnel:
    """One relayed WebSocket, on either side: the messages from the other process, in order."""

    code: str
    peer: str  # the other process
    inbox: asyncio.Queue[Message] = field(default_factory=asyncio.Queue)


class Tunnels:
    """This process's relayed requests and WebSockets: those it serves as a table's owner for
    the clients of another process, and those it carries for its own clients to an owner."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        #: Relayed WebSockets by id: those this process serves as owner, and those it carries
        #: for its own clients to another owner.
        self.serving: dict[str, Tunnel] = {}
        self.carrying: dict[str, Tunnel] = {}
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}

    # ------------------------------------------------------------------ messages

    def receive_text(self, kind: bytes, data: bytes) -> None:
        """A relayed WebSocket text frame (:func:`text_message`), for the tunnel it names."""
        (at,) = STAMP.unpack_from(data, 1)
        self.cluster.hall.metrics.relay_seconds.observe(max(0.0, time.time() - at))
        tunnel_id = data[1 + STAMP.size : HEAD].decode()
        tunnels = self.carrying if kind == TEXT_OUT else self.serving
        tunnel = tunnels.get(tunnel_id)
        if tunnel is not None:
            kind_name = "websocket.send" if kind == TEXT_OUT else "websocket.receive"
            tunnel.inbox.put_nowait({"type": kind_name, "text": data[HEAD:].decode()})

    def receive(self, kind: str, message: dict[str, Any]) -> bool:
        """Take a message of a relayed connection; False: ``kind`` is none of theirs."""
        if kind == "ws_in":  # to the owner: a message from a client of another process
            tunnel = self.serving.get(message["c"])
            if tunnel is not None:
                tunnel.inbox.put_nowait(message_in(message["m"]))
        elif kind == "ws_out":  # to the carrier: a message for its client
            tunnel = self.carrying.get(message["c"])
            if tunnel is not None:
                tunnel.inbox.put_nowait(message_in(message["m"]))
        elif kind == "ws_open":
            self._serve_socket(message)
        elif kind == "http":
            self.cluster.hall.spawn(self._serve_http(message))
        elif kind == "http_reply":
            waiting = self.replies.pop(message["r"], None)
            if waiting is not None and not waiting.done():
                waiting.set_result(message)
        else:
            return False
        return True

    async def check_peers(self) -> None:
        """End the relays whose other process is gone, or whose table moved."""
        redis = self.cluster.redis
        serving, carried = list(self.serving.values()), list(self.carrying.items())
        peers = {t.peer for t in serving} | {t.peer for _id, t in carried}
        if peers:
            peer_list = list(peers)
            alive = await redis.mget([node_key(p) for p in peer_list])
            gone = {p for p, up in zip(peer_list, alive, strict=True) if up is None}
            for tunnel in serving:
                if tunnel.peer in gone:
                    tunnel.inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})
            for tunnel_id, tunnel in carried:
                if tunnel.peer in gone:
                    self.end_carried(tunnel_id, 1012)
        # Only the relays that exist before the lookup: one opened during it is not in it.
        carried = list(self.carrying.items())
        codes = sorted({t.code for _id, t in carried})
        if codes:
            found = await redis.mget([lease_key(c) for c in codes])
            owners = {c: text_of(o) for c, o in zip(codes, found, strict=True)}
            for tunnel_id, tunnel in carried:
                if owners[tunnel.code] != tunnel.peer:  # the table moved, or is moving
                    self.end_carried(tunnel_id, 1012)

    # ------------------------------------------------------------------ the owner's side

    def _serve_socket(self, message: dict[str, Any]) -> None:
        tunnel_id, peer = message["c"], message["e"]
        tunnel = Tunnel(message["code"], peer)
        self.serving[tunnel_id] = tunnel
        channel = node_channel(peer)

        async def send(out: Message) -> None:
            text = out.get("text") if out["type"] == "websocket.send" else None
            if text is not None:
                self.cluster.post_bytes(channel, text_message(TEXT_OUT, tunnel_id, text))
            else:
                self.cluster.post(channel, {"k": "ws_out", "c": tunnel_id, "m": message_out(out)})

        async def run() -> None:
            try:
                assert self.cluster.inner is not None
                await self.cluster.inner(
                    scope_in(message["s"], self.cluster.app), tunnel.inbox.get, send
                )
            finally:
                self.serving.pop(tunnel_id, None)
                await send({"type": "websocket.close", "code": 1012})

        self.cluster.hall.spawn(run())

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
                start.update(message_out(out))
            elif out["type"] == "http.response.body":
                chunks.append(bytes(out.get("body", b"")))

        assert self.cluster.inner is not None
        await self.cluster.inner(scope_in(message["s"], self.cluster.app), receive, send)
        self.cluster.post(
            node_channel(message["e"]),
            {
                "k": "http_reply",
                "r": message["r"],
                "start": start,
                "b": base64.b64encode(b"".join(chunks)).decode(),
            },
        )

    # ------------------------------------------------------------------ the carrier's side

    def end_carried(self, tunnel_id: str, code: int) -> None:
        """Close a carried WebSocket (its client is told ``code``)."""
        tunnel = self.carrying.get(tunnel_id)
        if tunnel is not None:
            tunnel.inbox.put_nowait({"type": "websocket.close", "code": code})

    async def carry_socket(
        self, code: str, owner: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Carry a client's WebSocket to the table's owner and back, until either side ends."""
        tunnel_id = secrets.token_hex(8)
        tunnel = Tunnel(code, owner)
        self.carrying[tunnel_id] = tunnel
        channel = node_channel(owner)
        self.cluster.post(
            channel,
            {
                "k": "ws_open",
                "c": tunnel_id,
                "e": self.cluster.node,
                "code": code,
                "s": scope_out(scope),
            },
        )
        accepted = False

        async def upstream() -> None:
            while True:
                message = await receive()
                text = message.get("text") if message["type"] == "websocket.receive" else None
                if text is not None:
                    self.cluster.post_bytes(channel, text_message(TEXT_IN, tunnel_id, text))
                else:
                    self.cluster.post(
                        channel, {"k": "ws_in", "c": tunnel_id, "m": message_out(message)}
                    )
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
            self.cluster.post(
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
        self.cluster.post(
            node_channel(owner),
            {
                "k": "http",
                "r": request_id,
                "e": self.cluster.node,
                "s": scope_out(scope),
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
                if time.monotonic() > deadline or await self.cluster.owner(code) != owner:
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
    # The invitation's QR code is the table's owner's to draw, as its address is.
    if path.startswith("/t/") and path.endswith("/qr.svg") and path.count("/") == 3:
        return path[len("/t/") : -len("/qr.svg")].strip().upper() or None
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
                await cluster.tunnels.carry_socket(code, owner, scope, receive, send)
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
                    reply = await cluster.tunnels.relay_request(owner, code, scope, body)
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
                await send(message_in(reply["start"]))
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
