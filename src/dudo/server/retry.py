"""Failures that pass: the database or Redis does not answer, or a table is between two server
processes. A request meeting one is answered 503 with ``Retry-After``, a WebSocket is accepted,
told why in an ``error`` frame and closed with :data:`RETRY_CLOSE` (the web client reconnects
after a moment), never a refused handshake (HTTP 500) and a traceback in the log."""

from __future__ import annotations

from redis.exceptions import RedisError
from starlette.types import Message, Receive, Send

from dudo.server.errors import ErrorCode, Refused
from dudo.server.frames import error_frame
from dudo.server.storage import FencedOut, StoreUnavailable
from dudo.server.wire import dumps

#: "Try Again Later" (RFC 6455): the close code of a socket whose table cannot be served now.
RETRY_CLOSE = 1013
#: The seconds a 503 asks a client to wait (``Retry-After``).
RETRY_AFTER = 1


def unavailable(exc: BaseException) -> Refused | None:
    """The refusal for ``exc`` if it is a failure that passes (None: it is not one). An
    OSError counts as Redis's: only the lookups of a table's owner are wrapped in this."""
    if isinstance(exc, Refused):
        return exc if exc.status == 503 else None
    if isinstance(exc, FencedOut):
        message = "this table is moving to another server process: try again in a moment"
        return Refused(ErrorCode.TABLE_MOVING, message, 503)
    if isinstance(exc, StoreUnavailable):
        message = "the database does not answer: try again in a moment"
        return Refused(ErrorCode.STORE_DOWN, message, 503)
    if isinstance(exc, RedisError | OSError):
        message = "the server processes cannot reach each other (Redis): try again in a moment"
        return Refused(ErrorCode.REDIS_DOWN, message, 503)
    return None


def close_reason(refused: Refused) -> str:
    """The close frame's reason: short (a reason holds at most 123 bytes), in English."""
    return f"try again later: {refused.code}"


def retry_messages(refused: Refused) -> list[Message]:
    """The ASGI messages that answer a WebSocket handshake with ``refused``: accept it, send
    the error frame, close with :data:`RETRY_CLOSE`."""
    return [
        {"type": "websocket.accept"},
        {"type": "websocket.send", "text": error_frame(refused)},
        {"type": "websocket.close", "code": RETRY_CLOSE, "reason": close_reason(refused)},
    ]


async def refuse_socket(refused: Refused, receive: Receive, send: Send) -> None:
    """Answer a WebSocket handshake (plain ASGI, nothing accepted yet) with ``refused``."""
    if (await receive())["type"] != "websocket.connect":
        return  # the client has gone already
    for message in retry_messages(refused):
        await send(message)


async def refuse_request(refused: Refused, send: Send) -> None:
    """Answer an HTTP request (plain ASGI) with the refusal: 503 and ``Retry-After``."""
    body = dumps({"detail": str(refused), **refused.to_json()}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": refused.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", str(RETRY_AFTER).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
