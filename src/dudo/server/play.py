"""The WebSocket for play: one :class:`Connection` per browser tab, its hello, and every frame
it sends, each answered or refused with an error frame that says why."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from dudo.engine.errors import DudoError
from dudo.server.chat import say
from dudo.server.deps import client_address, find_table
from dudo.server.errors import ErrorCode, Refused
from dudo.server.frames import error_frame, explain_frame, pong_frame, welcome_frame
from dudo.server.hints import HINT_FRAMES, answer_hint
from dudo.server.limits import Guard, Limits, RateLimited
from dudo.server.retry import RETRY_CLOSE, close_reason
from dudo.server.tables import ActionRefused, Hall, SeatKind, Table
from dudo.server.wire import BadMessage, parse_frame

router = APIRouter()

#: The scope's key of the ``send`` the application was given for a WebSocket
#: (:class:`~dudo.server.app.ServerSend`): the writer of a connection's frames calls it.
SERVER_SEND = "dudo.send"
# The logger ``dudo serve`` prints with uvicorn's format and level.
log = logging.getLogger("uvicorn.error")


class Connection:
    """One WebSocket: its seat, its place in the event stream, an outgoing queue, a rate limit."""

    def __init__(self, websocket: WebSocket, limits: Limits, address: str = "unknown") -> None:
        self.websocket = websocket
        self.limits = limits
        #: The address it is limited under: its spectators' chat counts with the address's.
        self.address = address
        self.rate, self.burst = limits.frame_rate, limits.frame_burst
        self.seat: int | None = None
        self.since = -1
        self.game_id: int | None = None
        # Frames waiting for the writer (None: stop). A deque and one future to wake the
        # writer cost a send far less than an asyncio.Queue, on every frame of every action.
        self.queue: deque[str | None] = deque()
        self._wake: asyncio.Future[None] | None = None
        self.allowance = self.burst
        self.checked = time.monotonic()
        self.strikes = 0
        self.closed = False
        #: The close code once the connection is finishing (see docs/protocol.md).
        self.close_code = 1000
        self.writer: asyncio.Task[None] | None = None
        self.ending: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        if self.closed:
            return
        if len(self.queue) >= self.limits.max_queue:  # not reading: let it go, not hold memory
            self.finish(1008)
            return
        self._put(text)

    def _put(self, item: str | None) -> None:
        self.queue.append(item)
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def receive(self) -> str | bytes | None:
        """The next frame as sent, text or binary (None: the client has gone)."""
        message = await self.websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text: str | None = message.get("text")
        if text is not None:
            return text
        data: bytes | None = message.get("bytes")
        return data or b""

    async def close_after_sending(self) -> None:
        """Send what is queued (the errors that explain the close), then close with the code
        the connection finished with."""
        self.finish()
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await self.writer
        await self.close(self.close_code)

    async def close(self, code: int) -> None:
        """Close the socket unless it is closed already, or the client has gone."""
        socket = self.websocket
        if (
            socket.client_state is WebSocketState.DISCONNECTED
            or socket.application_state is WebSocketState.DISCONNECTED
        ):
            return
        # Closing races the client leaving: either way the socket ends closed.
        with contextlib.suppress(Exception):
            await socket.close(code=code)

    def end(self, code: int) -> None:
        """Send what is queued, then close with ``code`` (the table left this process)."""
        self.finish(code)
        if self.ending is None:
            self.ending = asyncio.get_running_loop().create_task(self.close_after_sending())

    def finish(self, code: int = 1000) -> None:
        """Send what is queued, then stop the writer; the connection closes with ``code``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self._put(None)

    def error(self, code: ErrorCode, message: str, /, **params: int | str) -> None:
        self.refuse(Refused(code, message, **params))

    def refuse(self, exc: Refused, refused_frame: str | None = None) -> None:
        """An error frame: the English message, and the code and parameters a client words.
        ``refused_frame`` (sent as ``for``) names the type of the frame refused, for frames a
        client may want to tell apart from a refused move (the hints)."""
        self.send(error_frame(exc, refused_frame))

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
        """Send the queue in order. A send that fails for any reason but the client leaving
        closes the connection with 1011 and logs one line: an open connection that no longer
        answers would leave its client waiting for ever."""
        loop = asyncio.get_running_loop()
        socket = self.websocket
        send = socket.scope.get(SERVER_SEND, socket.send)
        while True:
            if not self.queue:
                self._wake = loop.create_future()
                await self._wake
                continue
            text = self.queue.popleft()
            if text is None:
                return
            try:
                await send({"type": "websocket.send", "text": text})
            except Exception as exc:
                self.finish(1011)
                # (The server's own send says the client has gone with an OSError.)
                if isinstance(exc, WebSocketDisconnect | OSError) or (
                    socket.client_state is WebSocketState.DISCONNECTED
                ):
                    return  # the client has gone: nobody left to tell
                log.error(
                    "WebSocket %s: sending a frame failed (%s: %s); closed with code 1011",
                    self.websocket.url.path,
                    type(exc).__name__,
                    exc,
                )
                await self.close(1011)
                return


@router.websocket("/ws/{code}")
async def play(websocket: WebSocket, code: str) -> None:
    hall: Hall = websocket.app.state.hall
    limits: Limits = websocket.app.state.limits
    guard: Guard = websocket.app.state.guard
    await websocket.accept()
    address = client_address(websocket)
    try:
        table = await find_table(hall, guard, address, code)
    except RateLimited as exc:
        await websocket.send_text(
            error_frame(Refused(ErrorCode.RATE_LIMITED, str(exc), 429, None, count=exc.retry_after))
        )
        await websocket.close(code=4429)
        return
    except Refused as exc:  # a 503: the database or Redis down, the table moving
        await websocket.send_text(error_frame(exc))
        await websocket.close(code=RETRY_CLOSE, reason=close_reason(exc))
        return
    if table is None:
        await websocket.send_text(
            error_frame(Refused(ErrorCode.NO_TABLE, f"there is no table {code!r}", table=code[:12]))
        )
        await websocket.close(code=4404)
        return
    connection = Connection(websocket, limits, address)
    connection.writer = asyncio.create_task(connection.write())
    try:
        try:
            first = await asyncio.wait_for(connection.receive(), limits.hello_seconds)
            if first is None:
                return
            hello = parse_frame(first)
            if hello["type"] != "hello":
                raise BadMessage(ErrorCode.BAD_MESSAGE, "the first frame must be hello")
        except BadMessage as exc:
            connection.refuse(exc)
            connection.finish(1008)
            return
        except TimeoutError:
            connection.finish(1008)
            return
        if not welcome(table, connection, hello):
            connection.finish(1013)
            return
        # A task of its own: resuming a task runs down every coroutine it is awaiting through,
        # and this one is awaited under a score of the web stack's layers. The frames'
        # task waits on the client, and on the store for each move, a few levels deep.
        await asyncio.create_task(serve_frames(table, connection))
    except WebSocketDisconnect:
        pass
    except Exception:
        connection.finish(1011)  # the client learns at once; uvicorn logs the traceback
        raise
    finally:
        if connection in table.clients:
            table.disconnected(connection)
        # Every way out closes the socket, with the code the connection finished with.
        await connection.close_after_sending()


def welcome(table: Table, connection: Connection, hello: dict[str, Any]) -> bool:
    """Seat the connection (or let it watch) and bring it up to date. False: the table has
    as many spectators as it takes, and the connection was told so."""
    token = hello.get("token")
    seat = table.seat_for_token(token) if token else None
    if token and seat is None:
        connection.error(
            ErrorCode.UNAUTHORIZED, "this seat token is not valid at this table; you are watching"
        )
    if seat is None and not table.admits_spectator():
        connection.error(
            ErrorCode.SPECTATORS_FULL,
            f"this table has {table.spectators} spectators, as many as it takes: try again later",
        )
        return False
    connection.seat = None if seat is None else seat.seat
    # ``since`` counts events of the game the client last saw: of another game, none.
    same_game = "game" not in hello or hello["game"] == table.game_id
    connection.since = max(-1, hello.get("since", -1)) if same_game else -1
    connection.game_id = table.game_id
    host = connection.seat is not None and connection.seat == table.host
    connection.send(welcome_frame(connection.seat, table.player_of(seat), host))
    table.connected(connection)
    table.send_update(connection)
    connection.send(table.chat.history(connection, table.playing_now()))
    return True


async def frames(
    connection: Connection, answer_over_rate: bool = True
) -> AsyncIterator[dict[str, Any]]:
    """The connection's frames, parsed, until it closes. A frame over the rate is dropped
    (answered with ``rate_limited`` when ``answer_over_rate``) and too many strikes close the
    connection with 1008; a frame that is not a protocol frame is refused and skipped."""
    while not connection.closed:
        raw = await connection.receive()
        if raw is None:
            return
        if not connection.within_rate():
            if connection.strikes > connection.limits.max_strikes:
                connection.finish(1008)
                return
            if answer_over_rate:
                connection.error(
                    ErrorCode.RATE_LIMITED,
                    f"more than {connection.rate:g} frames a second: slow down",
                )
            continue
        try:
            frame = parse_frame(raw)
        except BadMessage as exc:
            connection.refuse(exc)
            continue
        yield frame


async def serve_frames(table: Table, connection: Connection) -> None:
    async for frame in frames(connection):
        await handle(table, connection, frame)


async def handle(table: Table, connection: Connection, frame: dict[str, Any]) -> None:
    kind = frame["type"]
    seat = table.seats[connection.seat] if connection.seat is not None else None
    if seat is not None and seat.kind is not SeatKind.HUMAN:
        table.watch(connection)  # kicked: the connection watches on
        seat = None
    try:
        if kind == "ping":
            # A barrier: the pong comes once whatever the table was doing (a bot's move being
            # stored, say) is done, so a client that reads up to it has seen all of it.
            async with table.lock:
                connection.send(pong_frame())
        elif kind == "hello":
            connection.error(ErrorCode.BAD_MESSAGE, "hello is sent once, first")
        elif kind == "act":
            if frame.get("player") is not None:  # the host plays on for a phone that is away
                seat = table.cups.stand_for(seat, frame["player"])
            await table.act(seat, frame["action"], frame.get("turn"))
        elif kind == "shake":
            await table.cups.shake(seat, frame.get("player"))
        elif kind == "call":
            await table.cups.call(
                seat, frame["call"], frame["bid"], frame["bidder"], frame.get("turn")
            )
        elif kind == "explain":
            problem = table.explain(seat, frame["action"])
            connection.send(explain_frame(frame["action"], problem))
        elif kind == "seed":
            await table.set_client_seed(seat, frame["seed"])
        elif kind == "take_back":
            await table.take_back(seat)
        elif kind == "chat":
            try:
                await say(table, connection, frame)
            except Refused as exc:
                connection.refuse(exc, kind)  # ``for``: the chat panel shows it
        elif kind in HINT_FRAMES:
            try:
                connection.send(await answer_hint(table, seat, frame))
            except ActionRefused as exc:
                # ``for`` names the refused frame: a client can tell a hint that came too
                # late (the game ended meanwhile) from a refused move.
                connection.refuse(exc, kind)
    except ActionRefused as exc:
        connection.refuse(exc)
    except DudoError as exc:
        connection.error(ErrorCode.ILLEGAL, str(exc))
