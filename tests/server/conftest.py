"""The web server as a user meets it: a real ``dudo serve`` process on 127.0.0.1, a real SQLite
file or a real (throwaway) PostgreSQL cluster, HTTP through httpx and WebSocket clients through
the ``websockets`` library. Nothing of the server is mocked.

Fixtures:

- ``live_server``: a factory starting ``python -m dudo serve`` processes that can be stopped
  (SIGTERM), killed (SIGKILL) and started again on the same port and database. They run with
  :data:`TEST_ARGS` unless a test gives its own serve arguments (:func:`limit_args`).
- ``shared_server``: one server (SQLite in a temp folder) shared by the tests of a process.
- ``postgres_url``: a PostgreSQL cluster of this test process (each xdist worker has its own),
  started with ``initdb``/``pg_ctl``; ``db_url``: a fresh database per test, parametrized over
  SQLite and PostgreSQL.

Helpers: :class:`Player` (one WebSocket connection that checks the event numbering of every
update it receives), :func:`api` (an HTTP client), :func:`new_table` and :func:`play_turns`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import glob
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from dudo.server.limits import Limits, parse_limits

HOST = "127.0.0.1"
START_SECONDS = 30.0
#: How long a client waits for a frame it expects before the test fails.
FRAME_SECONDS = 10.0

Json = dict[str, Any]


# --------------------------------------------------------------------------- servers


def limit_args(**limits: float) -> list[str]:
    """``dudo serve`` arguments setting these limits: ``--limit NAME=VALUE`` each."""
    return [arg for name, value in limits.items() for arg in ("--limit", f"{name}={value:g}")]


#: The serve arguments of test servers unless a test gives its own: bots move at once, and the
#: per-address rates of the lobby are far above what one test process (one address, creating
#: tables and connections far faster than people) needs. Tests of the limits set their own.
TEST_ARGS = limit_args(
    min_bot_seconds=0,
    tables_burst=100_000,
    cups_burst=100_000,
    sockets_burst=100_000,
    sockets_per_address=100_000,
    lookups_burst=100_000,
    players_burst=100_000,
)

#: The same limits for servers run in the test process (:func:`in_process`).
TEST_LIMITS = parse_limits(TEST_ARGS[1::2])


def limits_with(**changes: Any) -> Limits:
    """The test servers' limits with these changed (for a test of one limit)."""
    return dataclasses.replace(TEST_LIMITS, **changes)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """One ``dudo serve`` process (and the ones that replace it after a stop or a kill), always
    on the same port and database."""

    def __init__(
        self, workdir: Path, database_url: str | None = None, args: Sequence[str] | None = None
    ) -> None:
        self.workdir = workdir
        self.data_dir = workdir / "data"
        self.database_url = database_url
        #: Further ``dudo serve`` arguments (None: :data:`TEST_ARGS`).
        self.args = list(TEST_ARGS if args is None else args)
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.ws_url = f"ws://{HOST}:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def sqlite_path(self) -> Path:
        """The SQLite file of a server started with ``--data-dir``."""
        return self.data_dir / "dudo.sqlite3"

    def log_tail(self, lines: int = 40) -> str:
        path = self.workdir / f"server-{self.starts}.log"
        if not path.exists():
            return "(no log)"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    def start(self) -> None:
        """Start the server and wait until it answers. If its port was taken meanwhile (by any
        process of the machine, while this server was down), it moves to a new port."""
        for _attempt in range(3):
            if self._start_once():
                return
            self.port = free_port()
            self.url = f"http://{HOST}:{self.port}"
            self.ws_url = f"ws://{HOST}:{self.port}"
        raise AssertionError(f"dudo serve found no free port:\n{self.log_tail()}")

    def _start_once(self) -> bool:
        assert self.process is None, "the server is already running"
        self.starts += 1
        where = (
            ["--database-url", self.database_url]
            if self.database_url is not None
            else ["--data-dir", str(self.data_dir)]
        )
        command = [sys.executable, "-m", "dudo", "serve", "--host", HOST, "--port", str(self.port)]
        env = {k: v for k, v in os.environ.items() if k != "DUDO_DATABASE_URL"}
        log_path = self.workdir / f"server-{self.starts}.log"
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(
                [*command, *where, "--log-level", "info", *self.args],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,  # its workers (--workers) are killed with it
            )
        deadline = time.monotonic() + START_SECONDS
        with httpx.Client(trust_env=False, timeout=2.0) as client:
            while True:
                if self.process.poll() is not None:
                    code = self.process.returncode
                    self.process = None
                    if "attempting to bind" in self.log_tail():
                        return False
                    raise AssertionError(
                        f"dudo serve exited with {code} while starting:\n{self.log_tail()}"
                    )
                # Only once it says it listens: an answer before could come from someone else.
                if f"running on http://{HOST}:{self.port}" in log_path.read_text(errors="replace"):
                    with contextlib.suppress(httpx.HTTPError):
                        if client.get(f"{self.url}/api/presets").status_code == 200:
                            return True
                if time.monotonic() > deadline:
                    self.kill()
                    raise AssertionError(
                        f"dudo serve did not answer within {START_SECONDS}s:\n{self.log_tail()}"
                    )
                time.sleep(0.05)

    def stop(self) -> None:
        """SIGTERM: uvicorn shuts down cleanly (lifespan end, database closed)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(
                f"dudo serve did not stop within 15 s of SIGTERM:\n{self.log_tail()}"
            ) from None
        finally:
            self.process = None
        # uvicorn shuts down, then re-raises the signal: -SIGTERM is a clean exit too.
        assert code in (0, -signal.SIGTERM), f"dudo serve exited with {code}:\n{self.log_tail()}"
        assert "Application shutdown complete" in self.log_tail(), (
            f"dudo serve did not shut down cleanly:\n{self.log_tail()}"
        )

    def kill(self) -> None:
        """SIGKILL: the process dies at once, wherever it was (with its workers, if any)."""
        if self.process is None:
            return
        # The server leads a process group of its own: one signal, at once, for all of it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


ServerFactory = Callable[..., LiveServer]


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[ServerFactory]:
    """``live_server(database_url=None, args=None)`` starts a server (SQLite in a temp folder
    when no URL is given; ``args``: further serve arguments instead of :data:`TEST_ARGS`) and
    returns it; every server started is killed at the end of the test."""
    servers: list[LiveServer] = []

    def start(database_url: str | None = None, args: Sequence[str] | None = None) -> LiveServer:
        workdir = tmp_path / f"server{len(servers)}"
        workdir.mkdir()
        server = LiveServer(workdir, database_url, args)
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.kill()


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server (SQLite) for the tests of this process (each xdist worker has its own) that
    need no server of their own; each test makes its own tables."""
    server = LiveServer(tmp_path_factory.mktemp("shared-server"))
    server.start()
    yield server
    server.kill()


# ------------------------------------------------------------------------ PostgreSQL


def postgres_bin() -> tuple[Path, Path] | None:
    """PostgreSQL's ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest version."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb is not None and pg_ctl is not None:
        return Path(initdb), Path(pg_ctl)

    def version(path: str) -> int:
        name = Path(path).parent.parent.name
        return int(name) if name.isdigit() else 0

    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version, reverse=True):
        if (Path(found).parent / "pg_ctl").exists():
            return Path(found), Path(found).parent / "pg_ctl"
    return None


class PostgresCluster:
    """A running throwaway PostgreSQL cluster: its ``dudo`` database's URL, and a way to stop
    and start it again on the same port (to test what a server does while it is gone)."""

    def __init__(self, url: str, stop: Callable[[], None], start: Callable[[], None]) -> None:
        self.url = url
        self.stop = stop
        self.start = start


@pytest.fixture(scope="session")
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    """The URL of the ``dudo`` database of this test process's PostgreSQL cluster."""
    return postgres_cluster.url


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL cluster for this test process (so each xdist worker has its own),
    listening on 127.0.0.1 only, trusting local connections."""
    binaries = postgres_bin()
    if binaries is None:
        reason = (
            "PostgreSQL is not installed: no initdb/pg_ctl on PATH or in "
            "/usr/lib/postgresql/*/bin (apt-get install postgresql to run these tests)"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the PostgreSQL tests")
        pytest.skip(reason)
    initdb, pg_ctl = binaries
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    home = Path(tempfile.mkdtemp(prefix="dudo-pg-"))
    data = home / "data"
    if as_root:  # initdb refuses to run as root: the cluster belongs to the postgres user
        try:
            shutil.chown(home, "postgres", "postgres")
        except LookupError:
            shutil.rmtree(home, ignore_errors=True)
            pytest.fail("running as root, the PostgreSQL tests need a 'postgres' user")

    def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*prefix, *map(str, args)],
            cwd=home,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    init = run(initdb, "-D", data, "-U", "postgres", "--auth=trust", "--no-locale", "-E", "UTF8")
    assert init.returncode == 0, f"initdb failed:\n{init.stdout}\n{init.stderr}"
    for _attempt in range(3):  # a new port if the one chosen was taken meanwhile
        port = free_port()
        options = (
            f"-c listen_addresses={HOST} -p {port} -c unix_socket_directories={home} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        log = home / "postgres.log"
        started = run(pg_ctl, "-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start")
        if started.returncode == 0:
            break
    else:
        text = log.read_text(errors="replace") if log.exists() else ""
        shutil.rmtree(home, ignore_errors=True)
        raise AssertionError(f"pg_ctl start failed:\n{started.stdout}\n{started.stderr}\n{text}")

    def stop() -> None:
        done = run(pg_ctl, "-D", data, "-m", "fast", "-w", "stop")
        assert done.returncode == 0, f"pg_ctl stop failed:\n{done.stdout}\n{done.stderr}"

    def start() -> None:
        done = run(pg_ctl, "-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start")
        assert done.returncode == 0, f"pg_ctl start failed:\n{done.stdout}\n{done.stderr}"

    try:
        create_database(f"postgresql://postgres@{HOST}:{port}/postgres", "dudo")
        yield PostgresCluster(f"postgresql://postgres@{HOST}:{port}/dudo", stop, start)
    finally:
        run(pg_ctl, "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(home, ignore_errors=True)


class RedisServer:
    """A throwaway ``redis-server`` on 127.0.0.1 without persistence, that a test may stop (an
    outage: every client's call fails at once) and start again on the same port, empty."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (.ci/run installs Debian's redis-server)")
        self.binary = binary
        self.home = Path(tempfile.mkdtemp(prefix="dudo-redis-"))
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}"

    def start(self) -> None:
        """Start on its port (the first time, on a free one)."""
        for _attempt in range(3):
            port = self.port or free_port()
            process = subprocess.Popen(
                [
                    self.binary,
                    "--bind",
                    HOST,
                    "--port",
                    str(port),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                cwd=self.home,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            client = redis.Redis(host=HOST, port=port)
            deadline = time.monotonic() + 10
            while process.poll() is None and time.monotonic() < deadline:
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            client.close()
            if process.poll() is None:
                self.port, self.process = port, process
                return
            if self.port:
                break  # its port is taken: starting elsewhere would not be the same server
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.home, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A throwaway ``redis-server`` on 127.0.0.1 and a random port, without persistence."""
    server = RedisServer()
    server.start()
    try:
        yield server.url
    finally:
        server.close()


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A ``redis-server`` of this test's own, that it may stop and start again."""
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.close()


def create_database(admin_url: str, name: str) -> None:
    import psycopg
    from psycopg import sql as pg_sql

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(pg_sql.SQL("CREATE DATABASE {}").format(pg_sql.Identifier(name)))


def fresh_database(cluster: PostgresCluster) -> str:
    """The URL of a new, empty database on ``cluster``."""
    name = f"dudo_{uuid.uuid4().hex[:12]}"
    base = cluster.url.rsplit("/", 1)[0]
    create_database(base + "/postgres", name)
    return f"{base}/{name}"


def record_of(server: LiveServer, game_id: int) -> Json:
    """The record of a finished game, as the server gives it."""
    with api(server) as http:
        response = http.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200, response.text
    record: Json = response.json()
    return record


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database for one test: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'dudo.sqlite3'}"
    base: str = request.getfixturevalue("postgres_url")
    name = f"dudo_{uuid.uuid4().hex[:12]}"
    create_database(base.rsplit("/", 1)[0] + "/postgres", name)
    return base.rsplit("/", 1)[0] + "/" + name


# --------------------------------------------------------------------------- browsers

#: Debian's Chromium, which the browser tests drive with Playwright.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WEB_I18N = Path(__file__).resolve().parents[2] / "src" / "dudo" / "web" / "i18n"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Chromium for a test worker's whole run (skipped where Chromium is not
    installed): starting one takes seconds, and every test works in contexts of its own. The
    flags keep it from reaching out to the network: only the test's server on 127.0.0.1."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (bash .ci/run installs it)")
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        _BROWSERS.append(chromium)
        yield chromium
        _BROWSERS.clear()
        chromium.close()


#: The worker's browser, once a test has asked for it.
_BROWSERS: list[Browser] = []


@pytest.fixture(autouse=True)
def no_browser_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test without the browser runs with no event loop marked running in this thread: the
    worker's Playwright keeps its own loop marked so between its calls, and ``asyncio.run``
    refuses to start under it. Playwright is not called during such a test."""
    if not _BROWSERS or "browser" in request.fixturenames:
        yield
        return
    loop = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)


@pytest.fixture(scope="module", autouse=True)
def close_the_modules_contexts() -> Iterator[None]:
    """Contexts a test module left open are closed when it ends, as when each module had a
    browser of its own (its module fixtures, torn down first, close theirs)."""
    yield
    for browser in _BROWSERS:
        for context in browser.contexts:
            with contextlib.suppress(Exception):
                context.close()


def forget_players(context: BrowserContext) -> None:
    """Delete the players the pages of ``context`` made (any server they are on)."""
    with contextlib.suppress(Exception):  # a context already closed, a server already stopped
        for origin in context.storage_state()["origins"]:
            for item in origin["localStorage"]:
                if item["name"] == "dudo.player.key":
                    httpx.delete(
                        f"{origin['origin']}/api/players/me",
                        headers={"Authorization": f"Player {item['value']}"},
                        trust_env=False,
                        timeout=5.0,
                    )


@pytest.fixture(autouse=True)
def pages_keep_no_names(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """The players a browser test's pages made are deleted when their context closes, or at
    the test's end: a page's player takes the first name typed there ("Ana"), and a registered
    player's name is refused to everyone else, so on a server the tests share it would be
    refused to the API tests that come after."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser: Browser = request.getfixturevalue("browser")
    real_new_context = browser.new_context

    def new_context(*args: Any, **kwargs: Any) -> BrowserContext:
        context = real_new_context(*args, **kwargs)
        real_close = context.close

        def close(*close_args: Any, **close_kwargs: Any) -> None:
            forget_players(context)
            real_close(*close_args, **close_kwargs)

        monkeypatch.setattr(context, "close", close)
        return context

    def new_page(*args: Any, **kwargs: Any) -> Page:
        # Browser.new_page makes a context of its own, closed with the page.
        page = new_context(*args, **kwargs).new_page()
        real_page_close = page.close

        def close(*close_args: Any, **close_kwargs: Any) -> None:
            real_page_close(*close_args, **close_kwargs)
            page.context.close()

        monkeypatch.setattr(page, "close", close)
        return page

    monkeypatch.setattr(browser, "new_context", new_context)
    monkeypatch.setattr(browser, "new_page", new_page)
    yield
    for context in browser.contexts:
        forget_players(context)


def tap_if_ready(page: Page, selector: str) -> bool:
    """Tap a button if it is shown and enabled now; True if it was. Checked and clicked in one
    step in the page: between a separate check and click the button may go (the round ended)
    or wait for the server (a sent action), and the click then fails after its timeout."""
    tapped: bool = page.evaluate(
        "(selector) => { const button = document.querySelector(selector);"
        " if (!button || button.disabled || !button.checkVisibility()) return false;"
        " button.click(); return true; }",
        selector,
    )
    return tapped


def close_reveal(page: Page) -> None:
    """Close the reveal over the table if it is shown, as a player taps its button. Checked
    and clicked in one step in the page: the next round's first bid also closes it, and a
    click that waits for a button that went away fails after its timeout."""
    page.evaluate(
        "() => { const box = document.getElementById('reveal');"
        " if (box && !box.hidden) document.getElementById('reveal-dismiss').click(); }"
    )
    expect(page.locator("#reveal")).to_be_hidden()


def words(lang: str) -> dict[str, str]:
    """The web client's texts in ``lang`` (what a page in that language shows)."""
    loaded: dict[str, str] = json.loads((WEB_I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return loaded


# -------------------------------------------------------------------- in this process


class InProcessServer(LiveServer):
    """A server running in a thread of the test process (uvicorn on 127.0.0.1), for tests that
    reach into it: its hall (``app.state.hall``), limits chosen in Python, or a store with
    faults put behind the real one. Clients reach it over real sockets like any other."""

    def __init__(self, workdir: Path, app: Any) -> None:
        super().__init__(workdir)
        import uvicorn

        self.app = app
        config = uvicorn.Config(
            app, host=HOST, port=self.port, log_level="warning", ws_per_message_deflate=False
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="dudo-test-server")

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not self.server.started:
            assert self.thread.is_alive(), "the in-process server stopped while starting"
            assert time.monotonic() < deadline, "the in-process server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        assert not self.thread.is_alive(), "the in-process server did not stop"

    def kill(self) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the server's event loop and return its result (to read or change the
        hall between two client steps, as nothing else changes it meanwhile)."""
        import asyncio

        loop = self.app.state.hall.loop

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), loop).result(timeout=10)


@pytest.fixture
def in_process(tmp_path: Path) -> Iterator[Callable[..., InProcessServer]]:
    """``in_process(**create_app_arguments)`` starts a server in this process on a fresh SQLite
    file (or the ``database_url`` given) and returns it; it is stopped at the end of the test."""
    servers: list[InProcessServer] = []

    def start(database_url: str | None = None, **options: Any) -> InProcessServer:
        from dudo.server.app import create_app

        workdir = tmp_path / f"inproc{len(servers)}"
        workdir.mkdir()
        url = database_url or f"sqlite:///{workdir / 'dudo.sqlite3'}"
        options.setdefault("limits", TEST_LIMITS)
        server = InProcessServer(workdir, create_app(url, **options))
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        if server.running:
            server.stop()


# ------------------------------------------------------------------------------ HTTP


def api(server: LiveServer) -> httpx.Client:
    """An HTTP client for ``server`` (no proxies from the environment)."""
    return httpx.Client(base_url=server.url, trust_env=False, timeout=10.0)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(server: LiveServer, **body: Any) -> Json:
    """Create a table (host "Ana", bots answer at once and rounds follow their reveal at once
    unless told otherwise)."""
    body.setdefault("name", "Ana")
    body.setdefault("bot_seconds", 0)
    body.setdefault("reveal_seconds", 0)
    with api(server) as http:
        response = http.post("/api/tables", json=body)
    assert response.status_code == 201, f"creating a table: {response.status_code} {response.text}"
    created: Json = response.json()
    return created


def join(server: LiveServer, code: str, name: str) -> Json:
    with api(server) as http:
        response = http.post(f"/api/tables/{code}/join", json={"name": name})
    assert response.status_code == 201, f"joining {code}: {response.status_code} {response.text}"
    joined: Json = response.json()
    return joined


def host_post(server: LiveServer, code: str, command: str, token: str) -> Json:
    """A host command (``start``, ``rematch``) that must succeed; the table it returns."""
    with api(server) as http:
        response = http.post(f"/api/tables/{code}/{command}", headers=bearer(token))
    assert response.status_code == 200, (
        f"{command} at {code}: {response.status_code} {response.text}"
    )
    table: Json = response.json()
    return table


def get_table(server: LiveServer, code: str) -> Json:
    with api(server) as http:
        response = http.get(f"/api/tables/{code}")
    assert response.status_code == 200, f"table {code}: {response.status_code} {response.text}"
    table: Json = response.json()
    return table


# ------------------------------------------------------------------------- WebSocket


class Disconnected(AssertionError):
    """The connection closed while a frame was awaited."""


class Player:
    """One WebSocket connection to a table, as a browser would hold it.

    Every frame received is kept in ``frames``. Each ``update`` is checked as it arrives: its
    events must continue this connection's numbering of the current game exactly (no gap, no
    repeat), so a test only has to read frames to check the stream."""

    def __init__(
        self,
        server: LiveServer,
        code: str,
        token: str | None = None,
        *,
        since: int = -1,
        known: list[Json] | None = None,
        game: int | None = None,
        name: str = "client",
        hello: bool = True,
    ) -> None:
        self.name = name
        self.token = token
        self.frames: list[Json] = []
        self.events: list[Json] = list(known or [])
        self.game = game
        self.view: Json | None = None
        self.table: Json | None = None
        self.welcome: Json | None = None
        self.ws: ClientConnection = connect(
            f"{server.ws_url}/ws/{code}",
            proxy=None,
            max_queue=None,
            open_timeout=10,
            close_timeout=2,
            compression=None,
            legacy=True,
        )
        if hello:
            first: Json = {"type": "hello", "token": token, "since": since}
            if game is not None:
                first["game"] = game  # the game ``since`` counts events of
            self.send(first)
            self.welcome = self.until(lambda f: f["type"] == "welcome", "welcome")
            self.until(lambda f: f["type"] == "table", "the table after welcome")

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

    # ------------------------------------------------------------------ sending

    def send(self, frame: Json) -> None:
        self.ws.send(json.dumps(frame))

    def send_raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def act(self, action: str, turn: int | None = None) -> None:
        """Send ``action`` chosen at ``turn`` (default: the turn of the last view received)."""
        if turn is None:
            assert self.view is not None, f"{self.name}: no view yet"
            turn = self.view["turn"]
        self.send({"type": "act", "action": action, "turn": turn})

    # ---------------------------------------------------------------- receiving

    def recv(self, timeout: float = FRAME_SECONDS) -> Json:
        """The next frame (TimeoutError if none comes, ConnectionClosed once closed)."""
        raw = self.ws.recv(timeout=timeout)
        frame: Json = json.loads(raw)
        self.frames.append(frame)
        kind = frame.get("type")
        if kind == "update":
            self._update(frame)
        elif kind == "table":
            self.table = frame["table"]
        elif kind == "welcome":
            self.welcome = frame
        return frame

    def _update(self, frame: Json) -> None:
        if frame["game"] != self.game:
            assert frame["events"] == [] or frame["events"][0]["seq"] == 0, (
                f"{self.name}: the first update of game {frame['game']} starts at event "
                f"{frame['events'][0]['seq']}, not 0"
            )
            self.game, self.events = frame["game"], []
        for event in frame["events"]:
            assert event["seq"] == len(self.events), (
                f"{self.name}: event numbering broken: expected seq {len(self.events)}, got "
                f"{event['seq']} ({event['type']}); the update held seqs "
                f"{[e['seq'] for e in frame['events']]}"
            )
            self.events.append(event)
        self.view = frame["view"]

    def until(
        self, predicate: Callable[[Json], bool], what: str, timeout: float = FRAME_SECONDS
    ) -> Json:
        """Read frames until one satisfies ``predicate``; fail naming ``what`` if none comes."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise TimeoutError
                frame = self.recv(timeout=left)
            except TimeoutError:
                recent = [f.get("type") for f in self.frames[-10:]]
                raise AssertionError(
                    f"{self.name}: no {what} within {timeout}s (last frames: {recent}; "
                    f"view turn {self.turn})"
                ) from None
            except ConnectionClosed as exc:
                raise Disconnected(
                    f"{self.name}: connection closed ({exc}) while waiting for {what}"
                ) from exc
            if predicate(frame):
                return frame

    def error(self, what: str = "an error frame", timeout: float = FRAME_SECONDS) -> Json:
        return self.until(lambda f: f["type"] == "error", what, timeout)

    def wait_turn(self, turn: int, timeout: float = FRAME_SECONDS) -> Json:
        """Read until this connection's view reaches ``turn``; an error frame on the way fails."""

        def reached(frame: Json) -> bool:
            assert frame["type"] != "error", f"{self.name}: unexpected error {frame}"
            return self.view is not None and self.view["turn"] >= turn

        if self.view is not None and self.view["turn"] >= turn:
            return self.view
        self.until(reached, f"an update reaching turn {turn}", timeout)
        assert self.view is not None
        return self.view

    def sync(self) -> list[Json]:
        """Ping and read up to the pong: every frame the server queued for this connection
        before it read the ping (frames of one connection arrive in order). Those frames."""
        self.send({"type": "ping"})
        start = len(self.frames)
        self.until(lambda f: f == {"type": "pong"}, "the pong")
        return self.frames[start:-1]

    def updates_since_sync(self) -> list[Json]:
        """The updates that arrive before the pong of a new ping (none: nothing happened)."""
        return [f for f in self.sync() if f["type"] == "update"]

    def quiet(self, seconds: float = 0.3) -> list[Json]:
        """Every frame that arrives until none has come for ``seconds``."""
        got = []
        while True:
            try:
                got.append(self.recv(timeout=seconds))
            except TimeoutError:
                return got

    @property
    def turn(self) -> int | None:
        return None if self.view is None else int(self.view["turn"])

    @property
    def over(self) -> bool:
        return self.view is not None and self.view["winner"] is not None

    def errors(self) -> list[Json]:
        return [f for f in self.frames if f["type"] == "error"]


def choose(view: Json, rng: random.Random) -> str:
    """A random legal action, calling now and then so games end sooner."""
    legal: list[str] = view["legal"]
    assert legal, f"no legal action in {view}"
    others = [a for a in legal if a in ("call", "spot-on", "pass", "doubt-pass")]
    if others and rng.random() < 0.35:
        return rng.choice(others)
    return rng.choice(legal)


def settle(players: list[Player], watchers: tuple[Player, ...] = ()) -> Player:
    """Catch every connection up (bots move on their own) until the game waits for one of the
    human ``players``; that player."""
    view = play_turns(
        players,
        random.Random(0),
        stop=lambda _view: any(p.view is not None and p.view["legal"] for p in players),
        watchers=watchers,
    )
    assert view["winner"] is None, "the game ended"
    return next(p for p in players if p.view is not None and p.view["legal"])


def play_turns(
    players: list[Player],
    rng: random.Random,
    *,
    stop: Callable[[Json], bool] = lambda view: False,
    limit: int = 5000,
    watchers: tuple[Player, ...] = (),
) -> Json:
    """Play random legal actions for the human ``players`` (bots play themselves) until the
    game is over or ``stop(view)``; every connection is kept in step. The final view."""
    everyone = [*players, *watchers]
    for _ in range(limit):
        turn = max(p.turn or 0 for p in everyone)
        for p in everyone:
            p.wait_turn(turn)
        if any(p.turn != turn for p in everyone):
            continue  # a bot moved meanwhile: catch everyone up first
        view = players[0].view
        assert view is not None
        if view["winner"] is not None or stop(view):
            return view
        movers = [p for p in players if p.view is not None and p.view["legal"]]
        if movers:
            mover = movers[0]
            assert mover.view is not None
            mover.act(choose(mover.view, rng))
            mover.wait_turn(turn + 1)
        else:
            players[0].wait_turn(turn + 1)
    raise AssertionError(f"the game did not end within {limit} steps")


class Match:
    """A table with Ana (the host, seat 0), a bot (seat 1) and Bo (seat 2), both connected."""

    def __init__(self, server: LiveServer, *, start: bool = True, **body: Any) -> None:
        body.setdefault("seats", 3)
        body.setdefault("bots", ["easy"])
        created = new_table(server, **body)
        self.server = server
        self.code: str = created["code"]
        self.host_token: str = created["token"]
        joined = join(server, self.code, "Bo")
        self.bo_token: str = joined["token"]
        self.bo_seat: int = joined["seat"]
        self.ana = Player(server, self.code, self.host_token, name="Ana")
        self.bo = Player(server, self.code, self.bo_token, name="Bo")
        if start:
            self.start()

    def start(self) -> Json:
        table = host_post(self.server, self.code, "start", self.host_token)
        for player in (self.ana, self.bo):
            player.until(lambda f: f["type"] == "update", "the first update of the game")
        return table

    @property
    def players(self) -> list[Player]:
        return [self.ana, self.bo]

    def close(self) -> None:
        self.ana.close()
        self.bo.close()


@pytest.fixture
def match(shared_server: LiveServer) -> Iterator[Match]:
    """A started game at a new table of the module's server: Ana, a bot and Bo."""
    game = Match(shared_server)
    yield game
    game.close()


def hands_keys(value: Any, path: str = "") -> Iterator[str]:
    """The paths of every object holding a ``hands`` key, outside Revealed events."""
    if isinstance(value, dict):
        if "hands" in value and not (
            value.get("type") == "Revealed" and re.fullmatch(r"\.events\[\d+\]", path)
        ):
            yield path or "."
        for key, inner in value.items():
            yield from hands_keys(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from hands_keys(inner, f"{path}[{i}]")
