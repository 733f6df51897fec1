"""The web application: HTTP routes for the lobby, cups and past games, the WebSocket for play,
and the browser client's files. ``create_app`` builds it for a database URL."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dudo.bots import BOT_NAMES
from dudo.cup import Cup, CupError
from dudo.engine.actions import CALL, CLOSED, DOUBT_PASS, OPEN, PASS, SPOT_ON
from dudo.engine.errors import DudoError
from dudo.engine.rules import (
    DEFAULT_PRESET,
    OPTION_NAMES,
    PRESET_SUMMARIES,
    PRESETS,
    describe_option,
    option_choices,
)
from dudo.notation import LANGUAGES, face_name, format_action
from dudo.records import replay_steps
from dudo.server.storage import Store, token_hash
from dudo.server.tables import ActionRefused, Hall, Settings, Table, TableError
from dudo.server.wire import PROTOCOL_VERSION, BadMessage, dumps, event_json, parse_frame, view_json

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
PAGES = ("index.html", "table.html", "cup.html", "games.html", "replay.html")
_TOPBAR = re.compile(r"^  <!-- topbar -->\n(?P<items>(?:.*\n)*?)  <!-- /topbar -->\n", re.MULTILINE)


def render_page(name: str) -> str:
    """A page of the web client with the shared top bar (``web/topbar.html``) put in for
    its topbar markers: the page's own items after the brand, and its nav link marked
    as the current page."""
    html = (WEB_DIR / name).read_text(encoding="utf-8")
    partial = (WEB_DIR / "topbar.html").read_text(encoding="utf-8")
    header = partial[partial.index("  <header") :]
    here = f'<a href="/{name.removesuffix(".html")}"'
    header = header.replace(here + " ", here + ' aria-current="page" ')
    found = _TOPBAR.search(html)
    if found is None:
        raise RuntimeError(f"web/{name} has no topbar markers")
    header = header.replace("    <!-- page items -->\n", found["items"])
    return html[: found.start()] + header + html[found.end() :]


MAX_BODY = 16 * 1024
#: Per connection: frames per second on average, and the burst allowed above it.
RATE, BURST = 20.0, 40.0
#: Frames refused for the rate before the connection is closed.
MAX_STRIKES = 20
HELLO_SECONDS = 10.0
#: Frames queued for a connection that does not read them before it is dropped.
MAX_QUEUE = 1000


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    preset: str = Field(default=DEFAULT_PRESET, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int = Field(default=4, ge=2, le=8)
    bots: list[str] = Field(default_factory=list, max_length=7)
    turn_seconds: int = Field(default=0, ge=0, le=3600)
    grace_seconds: int | None = Field(default=30, ge=0, le=3600)
    bot_seconds: float = Field(default=1.0, ge=0.0, le=10.0)


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)


class AddBot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: str = Field(default="easy", max_length=40)


class _BodyTooLarge(BaseException):
    # A BaseException so that no handler between here and the app turns it into another error.
    pass


class LimitBody:
    """Refuse request bodies over MAX_BODY: at once when Content-Length says so, and as soon as
    a body sent without one (chunked) grows past it, so no body is read whole into memory."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = JSONResponse({"detail": f"request body over {MAX_BODY} bytes"}, status_code=413)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await too_large(scope, receive, send)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:
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


def bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class Connection:
    """One WebSocket: its seat, its place in the event stream, an outgoing queue, a rate limit."""

    def __init__(self, websocket: WebSocket, rate: float, burst: float) -> None:
        self.websocket = websocket
        self.rate, self.burst = rate, burst
        self.seat: int | None = None
        self.since = -1
        self.game_id: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.allowance = burst
        self.checked = time.monotonic()
        self.strikes = 0
        self.closed = False
        self.writer: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:  # not reading: let it go rather than hold memory
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


def create_app(
    database_url: str,
    *,
    rate: float = RATE,
    burst: float = BURST,
    dice: random.Random | None = None,
) -> FastAPI:
    """The application, storing everything at ``database_url``.

    ``rate`` and ``burst`` set each connection's frame limit; ``dice`` replaces the operating
    system's randomness for dice seeds and bots (for tests that replay games). The live tables
    are ``app.state.hall`` while the application runs."""
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        hall = Hall(store, asyncio.get_running_loop())
        if dice is not None:
            hall.dice = dice
        hall.resume()
        state["hall"] = _app.state.hall = hall
        try:
            yield
        finally:
            store.close()

    app = FastAPI(title="dudo", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.add_middleware(LimitBody)

    def hall() -> Hall:
        h: Hall = state["hall"]
        return h

    def table_of(code: str) -> Table:
        table = hall().tables.get(code.strip().upper())
        if table is None:
            raise HTTPException(404, f"there is no table {code!r}")
        return table

    def host_table(code: str, authorization: str | None) -> Table:
        """The table, after checking that the request carries its host's token."""
        table = table_of(code)
        table.require_host(bearer(authorization))
        return table

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors():
            where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
            problems.append(f"{where}: {error.get('msg')}" if where else str(error.get("msg")))
        return JSONResponse({"detail": "; ".join(problems)}, status_code=422)

    # ----------------------------------------------------------------- pages

    pages = {name: render_page(name) for name in PAGES}  # assembled once, at start

    def page(name: str) -> HTMLResponse:
        return HTMLResponse(pages[name], headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return page("index.html")

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> HTMLResponse:
        return page("table.html")

    @app.get("/cup", include_in_schema=False)
    async def cup_page() -> HTMLResponse:
        return page("cup.html")

    @app.get("/games", include_in_schema=False)
    async def games_page() -> HTMLResponse:
        return page("games.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def replay_page(game_id: int) -> HTMLResponse:
        return page("replay.html")

    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")

    # ---------------------------------------------------------- rules and words

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {
            "presets": [
                {"name": name, "summary": PRESET_SUMMARIES.get(name, ""), "rules": rules.to_dict()}
                for name, rules in PRESETS.items()
            ],
            "options": [
                {"name": name, "values": describe_option(name), "choices": option_choices(name)}
                for name in OPTION_NAMES
            ],
            "default": DEFAULT_PRESET,
            "bot_levels": list(BOT_NAMES),
        }

    @app.get("/api/i18n/{lang}")
    async def words(lang: str) -> dict[str, Any]:
        if lang not in LANGUAGES:
            raise HTTPException(
                404, f"language {lang!r} is not available; use {', '.join(LANGUAGES)}"
            )
        return {
            "lang": lang,
            "faces": {
                str(f): {"one": face_name(f, lang), "many": face_name(f, lang, plural=True)}
                for f in range(1, 7)
            },
            "calls": {
                str(a): format_action(a, lang)
                for a in (CALL, SPOT_ON, PASS, DOUBT_PASS, OPEN, CLOSED)
            },
        }

    # ------------------------------------------------------------------ tables

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable) -> dict[str, Any]:
        settings = Settings(body.seats, body.turn_seconds, body.grace_seconds, body.bot_seconds)
        table, token = hall().create(body.name, body.preset, body.options, settings, body.bots)
        return {"code": table.code, "seat": 0, "token": token, "url": f"/t/{table.code}"}

    @app.get("/api/tables/{code}")
    async def get_table(code: str) -> dict[str, Any]:
        return table_of(code).to_json()

    @app.post("/api/tables/{code}/join", status_code=201)
    async def join_table(code: str, body: JoinTable) -> dict[str, Any]:
        table = table_of(code)
        seat, token = table.join(body.name)
        return {"code": table.code, "seat": seat.seat, "token": token, "url": f"/t/{table.code}"}

    @app.post("/api/tables/{code}/bots")
    async def add_bot(
        code: str, body: AddBot, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = host_table(code, authorization)
        table.add_bot(body.level)
        return table.to_json()

    @app.delete("/api/tables/{code}/seats/{seat}")
    async def remove_seat(
        code: str, seat: int, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = host_table(code, authorization)
        table.remove_seat(seat)
        return table.to_json()

    @app.post("/api/tables/{code}/start")
    async def start(
        code: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = host_table(code, authorization)
        table.start()
        return table.to_json()

    @app.post("/api/tables/{code}/rematch")
    async def rematch(
        code: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = host_table(code, authorization)
        table.rematch()
        return table.to_json()

    # -------------------------------------------------------------- past games

    @app.get("/api/games")
    async def games(limit: int = 20) -> dict[str, Any]:
        if not 1 <= limit <= 200:
            raise HTTPException(400, "limit: from 1 to 200")
        return {"games": hall().store.recent_games(limit)}

    def record(game_id: int) -> dict[str, Any]:
        data = hall().store.game_record(game_id)
        if data is None:
            raise HTTPException(404, f"there is no finished game {game_id}")
        return data

    @app.get("/api/games/{game_id}/record")
    async def game_record(game_id: int) -> dict[str, Any]:
        return record(game_id)

    @app.get("/api/games/{game_id}/replay")
    async def game_replay(game_id: int) -> dict[str, Any]:
        data = record(game_id)
        steps = replay_steps(data)
        game = steps.game
        names = [p["name"] for p in data["players"]]
        seats = list(range(len(names)))

        def state() -> dict[str, Any]:
            # A finished game has no secrets left: the replay shows every hand at every step.
            out = view_json(game.view(None), names, seats, len(game.history))
            out["hands"] = [list(game.hand(p)) for p in range(game.players)]
            return out

        start = {
            "events": [event_json(i, e, game.rules) for i, e in enumerate(game.events)],
            "state": state(),
        }
        out_steps = []
        for step in steps:
            first = len(game.events) - len(step.events)
            out_steps.append(
                {
                    "player": step.player,
                    "action": str(step.action),
                    "events": [
                        event_json(first + i, e, game.rules) for i, e in enumerate(step.events)
                    ],
                    "state": state(),
                }
            )
        return {"record": data, "start": start, "steps": out_steps}

    # -------------------------------------------------------------------- cups

    def cup_of(cup_id: str, authorization: str | None) -> Cup:
        found = hall().store.load_cup(cup_id)
        if found is None:
            raise HTTPException(404, f"there is no cup {cup_id!r}")
        digest, cup_state = found
        token = bearer(authorization)
        if token is None or not secrets.compare_digest(digest, token_hash(token)):
            raise HTTPException(401, "this cup's token is needed (Authorization: Bearer <token>)")
        return Cup.from_dict(cup_state)

    @app.post("/api/cups", status_code=201)
    async def new_cup() -> dict[str, Any]:
        cup_id, token = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
        cup = Cup.fresh()
        hall().store.create_cup(cup_id, token, cup.to_dict())
        return {"id": cup_id, "token": token, "cup": cup.to_dict()}

    @app.get("/api/cups/{cup_id}")
    async def get_cup(
        cup_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        return {"id": cup_id, "cup": cup_of(cup_id, authorization).to_dict()}

    @app.post("/api/cups/{cup_id}/{op}")
    async def cup_op(
        cup_id: str, op: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        cup = cup_of(cup_id, authorization)
        rng = random.SystemRandom()
        try:
            if op == "roll":
                cup = cup.roll(rng)
            elif op == "remove":
                cup = cup.remove_one()
            elif op == "add":
                cup = cup.add_one(rng)
            elif op in ("hide", "show"):
                cup = cup.with_hidden(op == "hide")
            elif op == "new":
                cup = cup.reset()
            else:
                raise HTTPException(
                    404, f"unknown cup action {op!r}; use roll, remove, add, hide, show or new"
                )
        except CupError as exc:
            raise HTTPException(409, str(exc)) from None
        hall().store.save_cup(cup_id, cup.to_dict())
        return {"id": cup_id, "cup": cup.to_dict()}

    # --------------------------------------------------------------- WebSocket

    @app.websocket("/ws/{code}")
    async def play(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        table = hall().tables.get(code.strip().upper())
        if table is None:
            await websocket.send_text(
                dumps(
                    {"type": "error", "code": "no_table", "message": f"there is no table {code!r}"}
                )
            )
            await websocket.close(code=4404)
            return
        connection = Connection(websocket, rate, burst)
        writer = connection.writer = asyncio.create_task(connection.write())
        try:
            try:
                first = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
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
                if connection.strikes > MAX_STRIKES:
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

    return app
