"""The server's limits against a real ``dudo serve``: the per-address rates and caps (tables,
cups, WebSocket connections, unknown table codes), the deadlines for request headers and bodies,
replays that leave live tables alone, and the least bot delay. Each test starts a server with
the limits it checks, set small so that a few requests reach them."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import re
import selectors
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from dudo.server.limits import (
    LIMIT_NAMES,
    Buckets,
    Limits,
    RateLimited,
    address_key,
    parse_limits,
)

from .conftest import (
    HOST,
    TEST_ARGS,
    LiveServer,
    Player,
    ServerFactory,
    api,
    bearer,
    get_table,
    host_post,
    limit_args,
    new_table,
    play_turns,
)

ROOT = Path(__file__).resolve().parents[2]


def refused(response: httpx.Response, what: str) -> int:
    """Check a 429 for ``what`` with its wait in the detail and Retry-After; the wait."""
    assert response.status_code == 429, f"{response.status_code} {response.text}"
    found = re.fullmatch(
        rf"too many {what} from your address; try again in (\d+) s", response.json()["detail"]
    )
    assert found, response.json()["detail"]
    assert response.headers["retry-after"] == found[1]
    # The same as a code with the wait, which the page words in its language.
    assert response.json()["code"] == "rate_limited", response.text
    assert response.json()["params"] == {"count": int(found[1])}, response.text
    return int(found[1])


def closed_with(player: Player) -> int | None:
    """Read until the server closes ``player``; the close code."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            player.recv(timeout=5)
    return player.ws.close_code


def rate_limited(player: Player, what: str) -> None:
    """The server refused ``player``'s connection: an error frame, then close code 4429."""
    error = player.error("the rate_limited error")
    assert error["code"] == "rate_limited" and what in error["message"], error
    assert error["params"]["count"] >= 1, error  # the seconds to wait, for the client's words
    assert closed_with(player) == 4429


# ------------------------------------------------------------------- the limits themselves


def test_unknown_limits_and_bad_values_are_refused_with_the_names(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dudo", "serve", "--port", "1", "--limit", "tables_per_hour=5"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done
    assert "unknown limit 'tables_per_hour'" in done.stderr, done.stderr
    assert ", ".join(LIMIT_NAMES) in done.stderr, "the error lists every name"
    for setting, problem in [
        ("tables_burst=many", "limit tables_burst: 'many' is not a number"),
        ("max_body=1.5", "limit max_body: '1.5' is not a whole number"),
        ("hello_seconds=-1", "limit hello_seconds: '-1' must be 0 or more"),
        ("tables_burst", "write NAME=VALUE"),
    ]:
        with pytest.raises(ValueError, match=re.escape(problem)):
            parse_limits([setting])
    changed = parse_limits(["tables_burst=3", "max_body=100", "tables_burst=4"])
    assert (changed.tables_burst, changed.max_body) == (4, 100), "the last setting of a name wins"


def test_every_limit_is_documented_with_its_default() -> None:
    page = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    section = page[page.index("# Limits") :]
    docstring = Limits.__doc__ or ""
    for name in LIMIT_NAMES:
        default = f"{getattr(Limits(), name):g}"
        assert re.search(rf"\| `{name}` \| {re.escape(default)} \|", section), (
            f"docs/limits.md: {name}"
        )
        assert re.search(rf"``{name}``\s+{re.escape(default)}\s", docstring), f"doc: {name}"


def test_buckets_refill_and_forget_idle_addresses() -> None:
    now = [0.0]
    buckets = Buckets("things made", 2, 60, max_addresses=3, clock=lambda: now[0])
    buckets.spend("a")
    buckets.spend("a")
    with pytest.raises(
        RateLimited, match=r"^too many things made from your address; try again in 1 s$"
    ):
        buckets.spend("a")
    now[0] += 1.0
    buckets.spend("a")  # a token a second
    now[0] += 10.0
    buckets.spend("b")  # "a" has had time to fill up again: it is forgotten
    assert len(buckets) == 1
    for address in "cdefg":
        buckets.spend(address)
    assert len(buckets) <= 3, "never more addresses than max_addresses"
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2:ffff::1")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7" == address_key("192.0.2.7")


def test_tables_and_cups_created_per_address_are_limited(live_server: ServerFactory) -> None:
    server = live_server(args=limit_args(tables_burst=3, tables_per_minute=6, cups_burst=2))
    with api(server) as http:
        table = {"name": "Ana", "bot_seconds": 0}
        for _ in range(3):
            assert http.post("/api/tables", json=table).status_code == 201
        wait = refused(http.post("/api/tables", json=table), "tables created")
        assert 1 <= wait <= 10, "one table every 10 s"
        # Another address (as a proxy on this machine would forward it) has its own limit.
        other = {"X-Forwarded-For": "203.0.113.7"}
        assert http.post("/api/tables", json=table, headers=other).status_code == 201
        for _ in range(2):
            assert http.post("/api/cups").status_code == 201
        refused(http.post("/api/cups"), "cups created")


def test_websocket_connections_per_address_are_limited(live_server: ServerFactory) -> None:
    server = live_server(
        args=[*TEST_ARGS, *limit_args(sockets_burst=4, sockets_per_minute=1, sockets_per_address=2)]
    )
    code = new_table(server)["code"]
    first, second = Player(server, code), Player(server, code)
    third = Player(server, code, hello=False)
    error = third.error("the refusal of a third connection")
    assert error["code"] == "rate_limited", error
    assert "too many WebSocket connections open from your address (2)" in error["message"]
    assert closed_with(third) == 4429
    first.close()
    # Once one is closed there is room again (the server notices the close soon after).
    deadline = time.monotonic() + 5
    while True:
        again = Player(server, code, hello=False)
        try:
            again.send({"type": "hello", "token": None, "since": -1})
            frame = again.recv()
        except ConnectionClosed:  # refused and closed before the hello went out: no room yet
            assert closed_with(again) == 4429
            frame = {"type": "error", "code": "rate_limited"}
        if frame["type"] != "error" or time.monotonic() > deadline:
            break
        again.close()
        time.sleep(0.1)
    assert frame["type"] == "welcome", f"no room after a close: {frame}"
    again.close()
    second.close()
    # Three opened so far (the refused ones do not count): the fourth ends the burst of four,
    # and the fifth is over the rate (one a minute).
    Player(server, code).close()
    rate_limited(Player(server, code, hello=False), "WebSocket connections opened")


# ------------------------------------------------------------------- table code guessing


def test_guessing_table_codes_is_throttled_but_known_codes_are_not(
    live_server: ServerFactory,
) -> None:
    server = live_server(args=[*TEST_ARGS, *limit_args(lookups_burst=5, lookups_per_minute=1)])
    created = new_table(server)
    code = created["code"]
    guesses = (f"ZZZZ{a}{b}" for a in "ABCDEFGH" for b in "ABCDEFGH")
    with api(server) as http:
        for _ in range(30):  # known codes never count
            assert http.get(f"/api/tables/{code}").status_code == 200
        for _ in range(5):
            assert http.get(f"/api/tables/{next(guesses)}").status_code == 404
        # A guesser probing fast: every probe after the burst is refused.
        answers = [http.get(f"/api/tables/{next(guesses)}").status_code for _ in range(50)]
        assert answers == [429] * 50, answers
        refused(http.get(f"/api/tables/{next(guesses)}"), "unknown table codes looked up")
        what = "unknown table codes looked up"
        refused(http.post(f"/api/tables/{next(guesses)}/join", json={"name": "Eve"}), what)
        refused(http.post(f"/api/tables/{next(guesses)}/start", headers=bearer("x")), what)
        # Over the limit, a real code gets the same answer: the answers tell no code from another.
        refused(http.get(f"/api/tables/{code}"), "unknown table codes looked up")
        # Another address is not throttled.
        other = {"X-Forwarded-For": "198.51.100.9"}
        assert http.get(f"/api/tables/{next(guesses)}", headers=other).status_code == 404
        assert http.get(f"/api/tables/{code}", headers=other).status_code == 200
    rate_limited(Player(server, next(guesses), hello=False), "unknown table codes looked up")


def test_a_known_code_over_websocket_is_never_counted(live_server: ServerFactory) -> None:
    server = live_server(args=[*TEST_ARGS, *limit_args(lookups_burst=2, lookups_per_minute=1)])
    code = new_table(server)["code"]
    for _ in range(10):
        Player(server, code).close()
    for guess in ("ZZZZZA", "ZZZZZB"):
        lost = Player(server, guess, hello=False)
        assert lost.error()["code"] == "no_table"
        assert closed_with(lost) == 4404
    rate_limited(Player(server, "ZZZZZC", hello=False), "unknown table codes looked up")


# ------------------------------------------------------------------- slow HTTP clients


def open_sockets(count: int, port: int, first: bytes) -> list[socket.socket]:
    """``count`` connections to the server that each sent ``first`` and then nothing."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.create_connection((HOST, port), timeout=5)
            if first:
                sock.sendall(first)
            sockets.append(sock)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def until_closed(sockets: list[socket.socket], seconds: float) -> dict[socket.socket, bytes]:
    """Read every socket until the server closes it or ``seconds`` pass; what each received
    (sockets still open are left out)."""
    received = {sock: b"" for sock in sockets}
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    done: dict[socket.socket, bytes] = {}
    deadline = time.monotonic() + seconds
    while len(done) < len(sockets) and (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(timeout=left):
            ready = key.fileobj
            assert isinstance(ready, socket.socket)
            try:
                data = ready.recv(65536)
            except ConnectionResetError:
                data = b""
            if data:
                received[ready] += data
            else:
                selector.unregister(ready)
                done[ready] = received[ready]
    selector.close()
    return done


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    """Raw sockets of a test, all closed at its end."""
    held: list[socket.socket] = []
    yield held
    for sock in held:
        sock.close()


def test_slow_headers_get_408_and_do_not_block_real_requests(
    live_server: ServerFactory, sockets: list[socket.socket]
) -> None:
    header_seconds = 2.0
    server = live_server(
        args=[
            *TEST_ARGS,
            *limit_args(header_seconds=header_seconds, connections_per_address=1000),
        ]
    )
    opened = time.monotonic()
    sockets += open_sockets(300, server.port, b"GET /api/presets HTTP/1.1\r\nHost: dudo\r\n")
    idle = open_sockets(20, server.port, b"")  # they send nothing at all
    sockets += idle
    with api(server) as http:
        started = time.monotonic()
        assert http.get("/api/presets").status_code == 200
        assert time.monotonic() - started < 1.0, "a real request answers at once"
    slack = 2.0
    closed = until_closed(sockets, header_seconds + slack - (time.monotonic() - opened))
    assert len(closed) == len(sockets), f"{len(sockets) - len(closed)} slow connections still open"
    answers = {data.split(b"\r\n", 1)[0] for sock, data in closed.items() if sock not in idle}
    assert answers == {b"HTTP/1.1 408 Request Timeout"}, answers
    assert b"the request headers did not arrive within 2 s" in closed[sockets[0]]
    assert {closed[sock] for sock in idle} == {b""}, "an idle connection is closed silently"


def test_connections_per_address_are_capped(
    live_server: ServerFactory, sockets: list[socket.socket]
) -> None:
    server = live_server(args=[*TEST_ARGS, *limit_args(connections_per_address=20)])
    sockets += open_sockets(20, server.port, b"")
    time.sleep(0.2)  # the server has counted them
    extra = open_sockets(1, server.port, b"")
    sockets += extra
    closed = until_closed(extra, 2.0)
    assert extra[0] in closed, "the connection over the cap is closed at once"
    head, _, body = closed[extra[0]].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429 Too Many Requests"), head
    assert b"too many connections open from your address (20)" in body
    for sock in sockets[:20]:
        sock.close()
    time.sleep(0.2)
    with api(server) as http:
        assert http.get("/api/presets").status_code == 200, "room again once they are closed"


def test_a_stalled_body_gets_408(live_server: ServerFactory, sockets: list[socket.socket]) -> None:
    server = live_server(args=[*TEST_ARGS, *limit_args(body_seconds=1)])
    head = b"POST /api/tables HTTP/1.1\r\nHost: dudo\r\nContent-Type: application/json\r\n"
    sockets += open_sockets(1, server.port, head + b'Content-Length: 200\r\n\r\n{"name":')
    started = time.monotonic()
    closed = until_closed(sockets, 4.0)
    assert sockets[0] in closed, "the connection is closed"
    assert 0.8 < time.monotonic() - started < 3.0
    assert closed[sockets[0]].startswith(b"HTTP/1.1 408 Request Timeout"), closed
    assert b"the request body did not arrive within 1 s" in closed[sockets[0]]


def test_a_body_still_coming_after_the_answer_is_dropped_without_a_reset(
    live_server: ServerFactory, sockets: list[socket.socket]
) -> None:
    """A request answered before its body came in whole (413: too large) while the client is
    still sending it. The server ends its side after the answer and drops what still comes: the
    client's sends never meet a reset, and it reads the whole answer, then the end."""
    server = live_server(args=TEST_ARGS)
    sock = socket.create_connection((HOST, server.port), timeout=5)
    sockets.append(sock)
    sock.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: dudo\r\nContent-Type: application/json\r\n"
        b"Content-Length: 99999999\r\n\r\n{"
    )
    received = b""
    while b"\r\n\r\n" not in received:
        received += sock.recv(65536)
    assert received.startswith(b"HTTP/1.1 413 "), received
    for _ in range(6):  # a client that sends its body before it reads the answer
        sock.sendall(b"x" * 65536)
        time.sleep(0.05)
    while chunk := sock.recv(65536):
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(
        next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[
            1
        ]
    )
    assert len(body) == length and json.loads(body)["code"] == "body_too_large", received


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="needs Linux's /proc")
def test_the_open_files_limit_is_raised(live_server: ServerFactory) -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # The server inherits a low soft limit, as from a login shell.
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 256), hard))
    try:
        server = live_server()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert server.process is not None
    limits = Path(f"/proc/{server.process.pid}/limits").read_text()
    found = re.search(r"Max open files\s+(\d+)\s+(\d+)", limits)
    assert found, limits
    assert found[1] == found[2], f"soft {found[1]}, hard {found[2]}"


# ------------------------------------------------------------------------------ replays


def finished_game(server: LiveServer) -> int:
    """Play a game of eight to its end (the host plays randomly, seven hard bots: a long game,
    a large replay); its id."""
    created = new_table(server, seats=8, bots=["hard"] * 7)
    with Player(server, created["code"], created["token"], name="Ana") as ana:
        host_post(server, created["code"], "start", created["token"])
        assert play_turns([ana], random.Random(5))["winner"] is not None
    game: int = get_table(server, created["code"])["game"]
    return game


class Pinger(threading.Thread):
    """Pings over a WebSocket of its own, one after another, and keeps the round trips (ms)."""

    def __init__(self, server: LiveServer, code: str) -> None:
        super().__init__(daemon=True)
        self.player = Player(server, code, name="pinger")
        self.times: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            started = time.perf_counter()
            self.player.send({"type": "ping"})
            self.player.until(lambda f: f == {"type": "pong"}, "the pong")
            self.times.append((time.perf_counter() - started) * 1000)
            time.sleep(0.06)  # under the frame rate (20 a second)


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98]


# The crowd runs in a process of its own, and reads the answers without parsing them, so that
# it takes little of the machine from the server and none from the pings.
CROWD = """
import asyncio, sys

async def get(port, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\\r\\nHost: dudo\\r\\nAccept-Encoding: gzip\\r\\nConnection: close\\r\\n\\r\\n".encode())
    status = (await reader.readline()).split()[1].decode()
    while await reader.read(1 << 20):
        pass
    writer.close()
    return status

async def main(port, path, count):
    print("go", flush=True)
    statuses = await asyncio.gather(*(get(port, path) for _ in range(count)))
    print(" ".join(sorted(set(statuses))), flush=True)

asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
"""


def test_a_crowd_of_replays_does_not_slow_live_tables(live_server: ServerFactory) -> None:
    server = live_server(args=[*TEST_ARGS, *limit_args(connections_per_address=1000)])
    game = finished_game(server)
    path = f"/api/games/{game}/replay"
    with api(server) as http:
        plain = http.get(path, headers={"Accept-Encoding": "identity"})
        packed = http.get(path, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.json() == plain.json() and plain.json()["steps"]
    # The machine is shared: a measurement taken while another process hogs the cores may be
    # slow for reasons of its own, so the crowd comes up to three times and the best counts.
    # Built on the event loop for each request, every try took 800-830 ms.
    tries = []
    for _ in range(3):
        quiet, busy = ping_during_replays(server, path)
        tries.append((p99(quiet), p99(busy)))
        print(f"ping p99: {p99(quiet):.1f} ms quiet, {p99(busy):.1f} ms during 300 replays")
        if p99(busy) < max(250.0, 20 * p99(quiet)):
            return
    raise AssertionError(f"ping p99 (quiet, during the replays) in ms, each try: {tries}")


def ping_during_replays(server: LiveServer, path: str) -> tuple[list[float], list[float]]:
    """Ping round trips at another table before and while 300 clients fetch ``path``."""
    # Pingers enough to sample the few hundred milliseconds the crowd takes, each under the
    # frame rate of its connection.
    code = new_table(server)["code"]
    pingers = [Pinger(server, code) for _ in range(4)]
    for pinger in pingers:
        pinger.start()

    def pings() -> list[float]:
        return [ms for pinger in pingers for ms in pinger.times]

    try:
        time.sleep(1.0)
        quiet = pings()
        crowd = subprocess.Popen(
            [sys.executable, "-c", CROWD, str(server.port), path, "300"],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert crowd.stdout is not None
        assert crowd.stdout.readline() == "go\n"
        for pinger in pingers:
            pinger.times = []
        statuses = crowd.stdout.readline().strip()
        time.sleep(1.0)  # a ping held up by the crowd counts when its pong comes
        busy = pings()
        crowd.wait(30)
    finally:
        for pinger in pingers:
            pinger.stop.set()
        for pinger in pingers:
            pinger.join(10)
            pinger.player.close()
    assert statuses == "200", f"the replays were answered with {statuses}"
    assert len(busy) >= 20, f"only {len(busy)} pings during the replays"
    return quiet, busy


# --------------------------------------------------------------------------------- bots


def test_bots_wait_at_least_the_least_bot_delay(live_server: ServerFactory) -> None:
    server = live_server(args=[])  # the defaults: min_bot_seconds 0.5
    fast = new_table(server, seats=3, bots=["random", "random"], bot_seconds=0, grace_seconds=0)
    assert get_table(server, fast["code"])["bot_seconds"] == Limits().min_bot_seconds
    slow = new_table(server, bot_seconds=2)
    assert get_table(server, slow["code"])["bot_seconds"] == 2
    # The host leaves: a bot stands in, and three bots play; time their moves.
    with Player(server, fast["code"], fast["token"]) as host:
        host_post(server, fast["code"], "start", fast["token"])
        host.until(lambda f: f["type"] == "update", "the first update")
    watcher = Player(server, fast["code"], name="watcher")
    turns: set[int] = set()
    while len(turns) < 5:
        frame = watcher.until(lambda f: f["type"] == "update", "an update", timeout=5)
        turns.add(frame["view"]["turn"])
        game_id = frame["game"]
    watcher.close()
    # Timed by the server (each action's commit time), not by when this busy client read the
    # frames: a frame read late makes the gap before it look short.
    with sqlite3.connect(server.sqlite_path) as db:
        times = [
            at
            for (at,) in db.execute(
                "SELECT at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
    assert len(times) >= 4, times
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) > 0.45, f"bots moved {gaps} s apart"


def test_test_servers_let_bots_answer_at_once(shared_server: LiveServer) -> None:
    created = new_table(shared_server, bot_seconds=0)
    assert get_table(shared_server, created["code"])["bot_seconds"] == 0
