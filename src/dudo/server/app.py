"""The web application: ``create_app`` builds it for a database URL from the routers (pages,
rules and words, tables, past games, cups, health and metrics: :mod:`.routes`; the WebSocket:
:mod:`.play`), the
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
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dudo.server import devices, play, security
from dudo.server.cluster import Cluster, Relay
from dudo.server.deps import client_address
from dudo.server.errors import ErrorCode, Refused, http_code, http_detail, validation_detail
from dudo.server.frames import error_frame
from dudo.server.hashing import Hashing
from dudo.server.invite import LanAddresses
from dudo.server.limits import Guard, Limits, RateLimited
from dudo.server.lobby import Lobby
from dudo.server.metrics import Metrics
from dudo.server.players import warm_up
from dudo.server.retry import RETRY_AFTER
from dudo.server.routes import (
    cups,
    games,
    lobby,
    ops,
    pages,
    players,
    ratings,
    tables,
    tutorial,
    words,
)
from dudo.server.routes.pages import WEB_DIR
from dudo.server.storage import Store
from dudo.server.tables import Hall


class _BodyTooLarge(BaseException):
    # A BaseException so that no handler between here and the app turns it into another error.
    pass


class _BodyTimeout(BaseException):
    pass


class LimitBody:
    """Refuse request bodies over ``max_body``: at once when Content-Length says so, and as soon
    as a body sent without one (chunked) grows past it, so no body is read whole into memory.
    A body that has not all arrived ``body_seconds`` after the application first asks for it
    gets 408, so a client cannot hold a request open by sending slowly."""

    def __init__(self, app: ASGIApp, max_body: int, body_seconds: float = 20.0) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_body
        too_large = JSONResponse(
            {
                "detail": f"request body over {limit} bytes",
                "code": ErrorCode.BODY_TOO_LARGE,
                "params": {},
            },
            status_code=413,
        )
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await too_large(scope, receive, send)
            return
        received = 0
        started = False
        deadline: float | None = None
        complete = False

        async def limited_receive() -> Message:
            nonlocal received, deadline, complete
            if complete:  # after the body only the disconnect comes, maybe much later
                return await receive()
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + self.body_seconds
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise _BodyTimeout from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge
                complete = not message.get("more_body", False)
            else:
                complete = True
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
        except _BodyTimeout:
            if not started:
                late = JSONResponse(
                    {
                        "detail": f"the request body did not arrive within {self.body_seconds:g} s",
                        "code": ErrorCode.BODY_TIMEOUT,
                        "params": {},
                    },
                    status_code=408,
                    headers={"Connection": "close"},
                )
                await late(scope, receive, send)


class ServerSend:
    """Pure ASGI middleware, the innermost: each WebSocket's scope carries the ``send`` it was
    given (the server's, or a relay's for a socket another process carries) under
    :data:`~dudo.server.play.SERVER_SEND`, so a game's frames skip the layers between
    (Starlette's WebSocket and its exception handlers' wrappers, which act on HTTP responses
    only): about 2 % of the server's CPU per move."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[play.SERVER_SEND] = send
        await self.app(scope, receive, send)


class LimitSockets:
    """Count the WebSocket connections of each address: one over the rate or the cap of its
    address gets an error frame (``rate_limited``) that says why, then close code 4429."""

    def __init__(self, app: ASGIApp, guard: Guard, metrics: Metrics) -> None:
        self.app = app
        self.guard = guard
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        address = client_address(HTTPConnection(scope))
        try:
            self.guard.open_socket(address)
        except RateLimited as exc:
            if (await receive())["type"] == "websocket.connect":
                refused = Refused(
                    ErrorCode.RATE_LIMITED, str(exc), 429, None, count=exc.retry_after
                )
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": error_frame(refused)})
                await send({"type": "websocket.close", "code": 4429})
            return
        self.metrics.connections.inc()
        try:
            await self.app(scope, receive, send)
        finally:
            self.metrics.connections.dec()
            self.guard.close_socket(address)


def create_app(
    database_url: str,
    *,
    limits: Limits | None = None,
    rate: float | None = None,
    burst: float | None = None,
    dice: random.Random | None = None,
    store_factory: Callable[[str], Store] = Store,
    redis_url: str | None = None,
    node: str | None = None,
    listen: tuple[str, int] | None = None,
) -> FastAPI:
    """The application, storing everything at ``database_url``.

    ``limits`` are the server's limits (``rate`` and ``burst`` override its frame rate);
    ``dice`` replaces the operating system's randomness for dice seeds and bots (for tests that
    replay games); ``store_factory`` opens the store (tests put faults behind the real one).
    With ``redis_url`` the process is one of several serving one site (:mod:`.cluster`),
    known to the others as ``node`` (a random name if None).
    ``listen`` is the address and port the server listens on, which invitations name
    (:mod:`.invite`; None: not known, taken as this machine only).
    The live tables are ``app.state.hall`` while the application runs."""
    limits = limits or Limits()
    if rate is not None:
        limits = Limits(**{**limits.__dict__, "frame_rate": rate})
    if burst is not None:
        limits = Limits(**{**limits.__dict__, "frame_burst": burst})
    lifespan = _lifespan(database_url, limits, dice, store_factory, redis_url, node)
    # No Swagger page: it runs inline script and a CDN's scripts, which the policy forbids
    # (and a CDN's script on this origin could read the seat tokens). docs/protocol.md documents
    # the API; /openapi.json describes it for tools.
    app = FastAPI(title="dudo", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.limits = limits
    app.state.guard = guard = Guard(limits)
    app.state.metrics = metrics = Metrics()
    app.state.replays = games.Replays()
    app.state.cluster = None
    app.state.listen = listen
    app.state.lan = LanAddresses()
    app.add_middleware(ServerSend)  # first, so innermost: the send the route would get
    if redis_url is not None:
        app.add_middleware(Relay, state=app.state)  # next: after every guard
    app.add_middleware(LimitBody, max_body=limits.max_body, body_seconds=limits.body_seconds)
    app.add_middleware(LimitSockets, guard=guard, metrics=metrics)
    security.protect(app)  # last, so outermost: every answer carries the headers
    _handle_errors(app)
    _route(app)
    return app


def _lifespan(
    database_url: str,
    limits: Limits,
    dice: random.Random | None,
    store_factory: Callable[[str], Store],
    redis_url: str | None,
    node: str | None,
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """What runs while the application serves: the live tables (joined to the other
    processes with ``redis_url``), the password hashing, the lobby and the sweeps."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = store_factory(database_url)
        hall = Hall(store, asyncio.get_running_loop(), limits, metrics=app.state.metrics)
        if dice is not None:
            hall.dice = dice
        cluster = None
        if redis_url is not None:
            cluster = Cluster(redis_url, hall, node)
            cluster.inner, cluster.app = app.state.relayed, app
            hall.join_cluster(cluster)
        hall.resume()
        devices.listen(hall)
        app.state.hall = hall
        app.state.hashing = hashing = Hashing(
            limits.hash_workers, limits.hash_queue, app.state.metrics.hash_jobs.inc
        )
        app.state.device_uses = devices.DeviceUses()
        hall.spawn(hashing.run(warm_up))
        app.state.lobby = listing = Lobby(hall)
        if cluster is not None:
            await listing.load_others()
            await cluster.start()
        app.state.cluster = cluster
        hall.spawn(hall.sweep_forever())
        try:
            yield
        finally:
            listing.stop()
            await hall.close()
            app.state.hashing.close()

    return lifespan


def _handle_errors(app: FastAPI) -> None:
    """Every refusal: the English ``detail`` for programs, and ``code`` and ``params`` that a
    client words in its own language (docs/protocol.md, "Error codes")."""

    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        # A 503 passes (the database or Redis down, a table moving): say when to ask again.
        headers = {"Retry-After": str(RETRY_AFTER)} if exc.status == 503 else None
        return JSONResponse(
            {"detail": str(exc), **exc.to_json()}, status_code=exc.status, headers=headers
        )

    @app.exception_handler(RateLimited)
    async def rate_limited(_request: Request, exc: RateLimited) -> JSONResponse:
        code = Refused(ErrorCode(exc.code), str(exc), 429, None, count=exc.retry_after)
        return JSONResponse(
            {"detail": str(exc), **code.to_json()},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        detail = validation_detail(request, exc.errors())
        code = Refused(ErrorCode.INVALID_REQUEST, detail).to_json()
        return JSONResponse({"detail": detail, **code}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        detail = http_detail(request, exc)
        code = Refused(http_code(request, exc), detail).to_json()
        return JSONResponse(
            {"detail": detail, **code}, status_code=exc.status_code, headers=exc.headers
        )


def _route(app: FastAPI) -> None:
    """The routers, in an order that matters where two paths overlap, and the static files."""
    app.include_router(pages.pages_router())
    app.include_router(words.router)
    app.include_router(tutorial.router)
    app.include_router(tables.router)
    app.include_router(games.router)
    app.include_router(cups.router)
    app.include_router(lobby.router)  # before play's /ws/{code}, so /ws/lobby is the lobby's
    app.include_router(ratings.router)  # before players', so /api/players/{id}/ratings is this
    app.include_router(players.router)
    app.include_router(play.router)
    app.include_router(ops.router)
    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
