"""The WebSocket for play: one :class:`Connection` per browser tab, its hello, and every frame
it sends, each answered or refused with an error frame that says why."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from dudo.engine.errors import DudoError
from dudo.server.deps import client_address, find_table
from dudo.server.limits import Guard, Limits, RateLimited
from dudo.server.tables import ActionRefused, Hall, Table
from dudo.server.wire import PROTOCOL_VERSION, BadMessage, dumps, parse_frame

router = APIRouter()


class Connection:
    """One WebSocket: its seat, its place in the event stream, an outgoing queue, a rate limit."""

    def __init__(self, websocket: WebSocket, limits: Limits) -> None:
        self.websocket = websocket
        self.limits = limits
        self.rate, self.burst = limits.frame_rate, limits.frame_burst
        self.seat: int | None = None
        self.since = -1
        self.game_id: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.allowance = self.burst
        self.checked = time.monotonic()
        self.strikes = 0
        self.closed = False
        self.writer: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.limits.max_queue:  # not reading: let it go, not hold memory
            self.finish()
            return
        self.queue.put_nowait(text)

    async def close_after_sending(self, code: int) -> None:
        """Send what is queued (the errors that explain the close), then close."""
        self.finish()
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await self.writer
        await self.websocket.close(code=code)

    def finish(self) -> None:
        """Send what is queued, then stop the writer."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def error(self, code: str, message: str) -> None:
        self.send(dumps({"type": "error", "code": code, "message": message}))

    def within_rate(self) -> bool:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.checked) * self.rate)
        self.checked = now
        if self.allowance >= 1.0:
            self.allowance -= 1.0
            return True
        self.strikes += 1
        return False

    async def write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                break
            await self.websocket.send_text(text)


@router.websocket("/ws/{code}")
async def play(websocket: WebSocket, code: str) -> None:
    hall: Hall = websocket.app.state.hall
    limits: Limits = websocket.app.state.limits
    guard: Guard = websocket.app.state.guard
    await websocket.accept()
    try:
        table = find_table(hall, guard, client_address(websocket), code)
    except RateLimited as exc:
        await websocket.send_text(
            dumps({"type": "error", "code": "rate_limited", "message": str(exc)})
        )
        await websocket.close(code=4429)
        return
    if table is None:
        await websocket.send_text(
            dumps({"type": "error", "code": "no_table", "message": f"there is no table {code!r}"})
        )
        await websocket.close(code=4404)
        return
    connection = Connection(websocket, limits)
    writer = connection.writer = asyncio.create_task(connection.write())
    try:
        try:
            first = await asyncio.wait_for(websocket.receive_text(), limits.hello_seconds)
            hello = parse_frame(first)
            if hello["type"] != "hello":
                raise BadMessage("bad_message", "the first frame must be hello")
        except BadMessage as exc:
            connection.error(exc.code, str(exc))
            await connection.close_after_sending(1008)
            return
        except TimeoutError:
            await websocket.close(code=1008)
            return
        welcome(table, connection, hello)
        await serve_frames(table, connection)
    except WebSocketDisconnect:
        pass
    finally:
        if connection in table.clients:
            table.disconnected(connection)
        connection.finish()
        with contextlib.suppress(Exception):
            await writer


def welcome(table: Table, connection: Connection, hello: dict[str, Any]) -> None:
    token = hello.get("token")
    seat = table.seat_for_token(token) if token else None
    if token and seat is None:
        connection.error(
            "unauthorized", "this seat token is not valid at this table; you are watching"
        )
    connection.seat = None if seat is None else seat.seat
    # ``since`` counts events of the game the client last saw: of another game, none.
    same_game = "game" not in hello or hello["game"] == table.game_id
    connection.since = max(-1, hello.get("since", -1)) if same_game else -1
    connection.game_id = table.game_id
    connection.send(
        dumps(
            {
                "type": "welcome",
                "seat": connection.seat,
                "player": table.player_of(seat),
                "host": connection.seat == 0,
                "protocol": PROTOCOL_VERSION,
            }
        )
    )
    table.connected(connection)
    table.send_update(connection)


async def serve_frames(table: Table, connection: Connection) -> None:
    while not connection.closed:
        message = await connection.websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        if not connection.within_rate():
            if connection.strikes > connection.limits.max_strikes:
                await connection.close_after_sending(1008)
                return
            connection.error(
                "rate_limited", f"more than {connection.rate:g} frames a second: slow down"
            )
            continue
        try:
            frame = parse_frame(raw)
        except BadMessage as exc:
            connection.error(exc.code, str(exc))
            continue
        handle(table, connection, frame)


def handle(table: Table, connection: Connection, frame: dict[str, Any]) -> None:
    kind = frame["type"]
    seat = table.seats[connection.seat] if connection.seat is not None else None
    if seat is not None and seat.kind != "human":
        connection.seat, seat = None, None  # kicked: the connection watches on
    try:
        if kind == "ping":
            connection.send('{"type":"pong"}')
        elif kind == "hello":
            connection.error("bad_message", "hello is sent once, first")
        elif kind == "act":
            table.act(seat, frame["action"], frame.get("turn"))
        elif kind == "explain":
            problem = table.explain(seat, frame["action"])
            connection.send(
                dumps(
                    {
                        "type": "explain",
                        "action": frame["action"],
                        "legal": problem is None,
                        "problem": problem,
                    }
                )
            )
        elif kind == "take_back":
            table.take_back(seat)
    except ActionRefused as exc:
        connection.error(exc.code, str(exc))
    except DudoError as exc:
        connection.error("illegal", str(exc))
