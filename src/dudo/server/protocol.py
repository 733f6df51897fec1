"""uvicorn's HTTP protocol with two guards it lacks: a deadline for a request's headers, and a
cap on the connections open at once from one address.

uvicorn times out idle keep-alive connections, but not a connection that sends its request
head slowly (or never): each such connection holds a file descriptor for as long as the client
likes, and a thousand of them leave no descriptors for real players. Here a request head that
is not complete ``header_seconds`` after the connection opened (or after its first byte, for
later requests on a keep-alive connection) gets 408 and the connection is closed (a connection
that sent nothing at all is closed without a word, as browsers expect of idle ones); an address
with ``connections_per_address`` connections open gets 429 for the next one, which is closed
at once. A connection that turns into a WebSocket leaves the count here: the application
counts WebSocket connections itself (``sockets_per_address``)."""

from __future__ import annotations

import asyncio
import http
import json
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from dudo.server.limits import Limits, address_key

#: How long a connection answered before its request body came in whole keeps reading (and
#: dropping) what its client still sends, after the answer, before it is closed.
LINGER_SECONDS = 2.0


class GuardedHttp(HttpToolsProtocol):
    """The protocol for a :class:`Limits`; make the class with :func:`guarded_http`."""

    limits: ClassVar[Limits] = Limits()
    #: Connections open per address, for every connection of this class.
    open_by_address: ClassVar[dict[str, int]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timer: asyncio.TimerHandle | None = None
        self.head_started = False  # a request's first byte came, its head is not complete
        self.counted_as: str | None = None
        self.lingering = False  # answered and half-closed: what still comes in is dropped

    def data_received(self, data: bytes) -> None:
        if not self.lingering:
            super().data_received(data)

    # ------------------------------------------------------------------ the per-address cap

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.client is not None:
            address = address_key(self.client[0])
            open_now = self.open_by_address.get(address, 0)
            cap = self.limits.connections_per_address
            if open_now >= cap:
                # Closed at once, not lingering: a refused connection must not hold a
                # descriptor (a request it already sent may then cost it this answer).
                self.answer_and_close(
                    429,
                    f"too many connections open from your address ({cap}); "
                    "close some and try again",
                    {"Retry-After": "5"},
                    linger=False,
                )
                return
            self.open_by_address[address] = open_now + 1
            self.counted_as = address
        self.start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_head_timer()
        self.uncount()
        super().connection_lost(exc)

    def uncount(self) -> None:
        address, self.counted_as = self.counted_as, None
        if address is None:
            return
        left = self.open_by_address.get(address, 0) - 1
        if left > 0:
            self.open_by_address[address] = left
        else:
            self.open_by_address.pop(address, None)

    def handle_websocket_upgrade(self) -> None:
        # The connection now belongs to the WebSocket protocol: this one hears no more of it.
        self.stop_head_timer()
        self.uncount()
        super().handle_websocket_upgrade()

    # ---------------------------------------------------------------- the header deadline

    def start_head_timer(self) -> None:
        if self.head_timer is None and not self.transport.is_closing():
            self.head_timer = self.loop.call_later(self.limits.header_seconds, self.head_too_late)

    def stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_started = True
        self.start_head_timer()

    def on_headers_complete(self) -> None:
        self.head_started = False
        self.stop_head_timer()
        super().on_headers_complete()

    def head_too_late(self) -> None:
        self.head_timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if not self.head_started:
            # Nothing asked: an answer could be read as the answer to a request sent just now.
            self.transport.close()
        elif cycle is None or cycle.response_complete:
            seconds = self.limits.header_seconds
            self.answer_and_close(408, f"the request headers did not arrive within {seconds:g} s")
        else:
            # A pipelined request is late while an earlier one is being answered: the
            # connection ends after that answer.
            cycle.keep_alive = False
            self.flow.pause_reading()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Answered before its body came in whole (413, 408, a route that reads no body): the
        # rest of that body would be read as the next request, or trickle in for ever.
        cycle = self.cycle
        unread = cycle is not None and cycle.response_complete and cycle.more_body
        if unread and not self.transport.is_closing():
            self.linger()

    def linger(self) -> None:
        """End a connection whose client may still be sending: the answer goes out followed by
        the end of our side (FIN), and what still comes in is read and dropped until the client
        closes, or ``LINGER_SECONDS`` pass. Closing at once with unread bytes would make the
        kernel reset the connection, and a reset can destroy the answer before it is read."""
        self.lingering = True
        self.stop_head_timer()
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.flow.resume_reading()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()

    # ------------------------------------------------------------------------ answering

    def answer_and_close(
        self,
        status: int,
        detail: str,
        headers: dict[str, str] | None = None,
        *,
        linger: bool = True,
    ) -> None:
        """Answer ``{"detail": ...}`` with ``status`` before any request was read, then end the
        connection: by :meth:`linger` (the client may be sending that request), or at once."""
        body = json.dumps({"detail": detail}).encode()
        lines = [
            f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}",
            "content-type: application/json",
            f"content-length: {len(body)}",
            "connection: close",
            *(f"{name}: {value}" for name, value in (headers or {}).items()),
        ]
        self.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        if linger:
            self.linger()
        else:
            self.transport.close()


def guarded_http(limits: Limits) -> type[GuardedHttp]:
    """The protocol class to give ``uvicorn.run(http=...)`` for a server with ``limits``."""
    return type(
        "GuardedHttp",
        (GuardedHttp,),
        {"limits": limits, "open_by_address": {}, "__module__": __name__},
    )
