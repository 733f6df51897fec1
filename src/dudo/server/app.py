"""The web application: ``create_app`` builds it for a database URL from the routers (pages,
rules and words, tables, past games, cups: :mod:`.routes`; the WebSocket: :mod:`.play`), the
middleware that guards every request, and the error handlers that word every refusal."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dudo.server import play, security
from dudo.server.errors import http_detail, validation_detail
from dudo.server.limits import Limits
from dudo.server.routes import cups, games, pages, tables, words
from dudo.server.routes.pages import WEB_DIR
from dudo.server.storage import Store
from dudo.server.tables import Hall, TableError


class _BodyTooLarge(BaseException):
    # A BaseException so that no handler between here and the app turns it into another error.
    pass


class LimitBody:
    """Refuse request bodies over ``max_body``: at once when Content-Length says so, and as soon
    as a body sent without one (chunked) grows past it, so no body is read whole into memory."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_body
        too_large = JSONResponse({"detail": f"request body over {limit} bytes"}, status_code=413)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await too_large(scope, receive, send)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except _BodyTooLarge:
            if not started:
                await too_large(scope, receive, send)


def create_app(
    database_url: str,
    *,
    limits: Limits | None = None,
    rate: float | None = None,
    burst: float | None = None,
    dice: random.Random | None = None,
    store_factory: Callable[[str], Store] = Store,
) -> FastAPI:
    """The application, storing everything at ``database_url``.

    ``limits`` are the server's limits (``rate`` and ``burst`` override its frame rate);
    ``dice`` replaces the operating system's randomness for dice seeds and bots (for tests that
    replay games); ``store_factory`` opens the store (tests put faults behind the real one).
    The live tables are ``app.state.hall`` while the application runs."""
    limits = limits or Limits()
    if rate is not None:
        limits = Limits(**{**limits.__dict__, "frame_rate": rate})
    if burst is not None:
        limits = Limits(**{**limits.__dict__, "frame_burst": burst})

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = store_factory(database_url)
        hall = Hall(store, asyncio.get_running_loop(), limits)
        if dice is not None:
            hall.dice = dice
        hall.resume()
        hall.spawn(hall.sweep_forever())
        app.state.hall = hall
        try:
            yield
        finally:
            await hall.close()

    # No Swagger page: it runs inline script and a CDN's scripts, which the policy forbids
    # (and a CDN's script on this origin could read the seat tokens). PROTOCOL.md documents
    # the API; /openapi.json describes it for tools.
    app = FastAPI(title="dudo", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.limits = limits
    app.add_middleware(LimitBody, max_body=limits.max_body)
    security.protect(app)

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_detail(request, exc.errors())}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        detail = http_detail(request, exc)
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)

    app.include_router(pages.pages_router())
    app.include_router(words.router)
    app.include_router(tables.router)
    app.include_router(games.router)
    app.include_router(cups.router)
    app.include_router(play.router)
    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
    return app
