"""Security headers on every HTTP answer of the server: pages, static files, the API, errors.

The web client loads nothing but its own files, so the Content-Security-Policy allows only
this origin and no inline script or style: a name or message that slipped past the client's
escaping still could not run. Pages may not be framed (a foreign page could otherwise overlay
the table and steer a player's taps), table codes in URLs are not sent on as referrers, and
browser features the client never uses are switched off.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dudo.server.errors import ErrorCode

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        # 'self' covers the WebSocket (ws:// or wss://) to the same host and port.
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

#: Features the client does not use are off. Left at the browser's defaults: vibration (the
#: cup shakes the phone) and clipboard writes (copying the invitation link), both same-origin.
#: The motion sensors are this origin's only: at a real table a phone shakes its cup by moving.
PERMISSIONS_POLICY = ", ".join(
    [f"{feature}=(self)" for feature in ("accelerometer", "gyroscope")]
    + [
        f"{feature}=()"
        for feature in (
            "camera",
            "display-capture",
            "geolocation",
            "hid",
            "magnetometer",
            "microphone",
            "midi",
            "payment",
            "serial",
            "usb",
        )
    ]
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": PERMISSIONS_POLICY,
}

_RAW_HEADERS = [
    (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in SECURITY_HEADERS.items()
]
_NAMES = {name for name, _ in _RAW_HEADERS}


class SecurityHeaders:
    """Pure ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response (replacing
    any the app set itself), whatever answered: a route, the static files, an error handler."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message = {**message, "headers": [*kept, *_RAW_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _internal_error(_request: Request, _exc: Exception) -> JSONResponse:
    # Starlette answers a crash outside every middleware added to the app, so this answer
    # carries the headers itself. The traceback still goes to the server's log.
    return JSONResponse(
        {
            "detail": "the server failed on this request; it is logged, please report it",
            "code": ErrorCode.INTERNAL,
            "params": {},
        },
        status_code=500,
        headers=SECURITY_HEADERS,
    )


def protect(app: FastAPI) -> None:
    """Add the security headers to every answer of ``app`` (call last in its set-up, so that
    the middleware wraps every other one and sees their answers, e.g. 413)."""
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(Exception, _internal_error)
