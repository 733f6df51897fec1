"""The server's limits, in one place: what one client may send and how fast.

Every number here can be changed for one server (see ``dudo serve --help``); the defaults suit
a server open to the internet."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    #: The largest HTTP request body, in bytes.
    max_body: int = 16 * 1024
    #: Per WebSocket connection: frames per second on average, and the burst allowed above it.
    frame_rate: float = 20.0
    frame_burst: float = 40.0
    #: Frames refused for the rate before the connection is closed.
    max_strikes: int = 20
    #: Seconds a new connection has to say hello.
    hello_seconds: float = 10.0
    #: Frames queued for a connection that does not read them before it is dropped.
    max_queue: int = 1000
