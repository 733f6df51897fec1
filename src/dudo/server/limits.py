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
    #: Spectators one table takes at once (players' seats are never refused).
    max_spectators: int = 100
    #: Retention. A finished table nobody is connected to leaves memory after this many minutes
    #: (it loads again from the store when someone opens its link).
    finished_table_minutes: float = 30.0
    #: A table with no game in play and no change or connection for this many hours is closed.
    idle_lobby_hours: float = 24.0
    #: A dice cup not used for this many days is deleted.
    cup_days: float = 90.0
    #: How often the server looks for what to let go of, in seconds.
    sweep_seconds: float = 60.0
