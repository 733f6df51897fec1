"""Server load: simulated people playing full games at many 4-seat tables over WebSockets.

Run by hand (not a test):

    python bench/server_load.py [--tables 500] [--think 1.0] [--duration 60] [--warmup 10]
                                [--preset dudo] [--procs 1] [--pin | --no-pin]
                                [--chat-every 30] [--workers 2] [--redis-url URL]
                                [--database-url URL]

It starts ``dudo serve`` on 127.0.0.1 with a fresh temporary SQLite data folder, creates the
tables over HTTP (the host and three joins: four human seats, no turn timer), opens one
WebSocket per seat from ``--procs`` client processes (asyncio, uvloop when installed; all four
seats of a table live in the same process), starts the games gradually during the warm-up, and
lets every seat play: when its view says it is its turn it waits the think time (jittered by
±20 %) and sends a random action from ``view.legal``. When a game ends the host asks for a
rematch once all four have said ready, so the number of tables in play stays
constant.

Latency of an action: from just before the client sends it to the moment the update frame
that shows it (``view.turn`` past the turn it was sent on) has been received by all four seats
of the table, measured with ``time.perf_counter`` in the one process that holds those seats.
Only actions sent inside the measured window count.

``--chat-every S`` adds table chat: every seat also says something every S seconds (±20 %,
the first at a random moment of the first S), a quick phrase or a short text in turn; every
message is stored and sent to the table's four seats like an action's update. The chat
messages sent and received in the window are counted; the latency measured stays the
actions'.

``--pin`` (the default on a machine with two or more cores) puts the server on core 0 and the
client processes on the other cores, so the two do not steal from each other and the server's
CPU% is the share of one core it needed.

``--workers N`` serves with ``dudo serve --workers N`` (N processes on one port, sharing the
tables through Redis: a throwaway ``redis-server`` on 127.0.0.1 unless ``--redis-url`` names
one); the seats of one table may land on different processes, whose actions and updates are
then relayed. The server's CPU is that of all its processes, Redis's is reported beside it.
Several server processes are not pinned unless ``--pin`` is given (then the server's
processes and Redis share core 0): compare one and several processes with ``--no-pin`` both.
``--database-url`` stores in that database (e.g. PostgreSQL) instead of a fresh SQLite file.

Profiling the server: with ``DUDO_BENCH_PROFILE=/tmp/server.prof`` in the environment, the server
runs under cProfile switched on only during the measured window; the top costs are printed
after the results (per action played), and the file can be read with ``pstats``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

MAX_TABLES = 2000
MAX_DURATION = 600.0
MAX_WARMUP = 120.0
MAX_PROCS = 8
SEATS = 4
#: The target of one process: this many concurrent 4-player tables with p99 under this
#: latency.
TARGET_TABLES, TARGET_P99_MS = 1000, 50.0
#: Tables when --tables is not given.
DEFAULT_TABLES = 500
#: After the window, how long to wait for the broadcasts of the last actions sent in it.
DRAIN_SECONDS = 3.0
HTTP_CONCURRENCY = 8
#: The quick phrases the simulated players use (dudo.server.chat.PHRASES).
CHAT_PHRASES = ("dudo", "nice_bluff", "good_game", "good_luck", "laugh", "clap", "think")
CONNECT_CONCURRENCY = 64

# In the server process, under DUDO_BENCH_PROFILE: cProfile on at SIGUSR1, off and saved at
# SIGUSR2 (the bench sends them at the start and the end of the measured window).
PROFILED_SERVER = """
import cProfile, signal, sys
path = sys.argv.pop(1)
profile = cProfile.Profile()
def on(*_):
    profile.enable()
def off(*_):
    profile.disable()
    profile.dump_stats(path)
signal.signal(signal.SIGUSR1, on)
signal.signal(signal.SIGUSR2, off)
sys.argv[0] = "dudo"
from dudo.cli import main
main()
"""


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class Plan:
    """What every client process needs to know (sent to it when it starts)."""

    base: str  # http://127.0.0.1:PORT
    tables: int
    procs: int
    think: float
    warmup: float
    ramp: float
    duration: float
    preset: str
    compression: bool
    uvloop: bool
    seed: int
    chat_every: float = 0.0  # seconds between one seat's chat messages (0: no chat)


@dataclass
class Outcome:
    """What one client process measured in the window."""

    latencies: list[float] = field(default_factory=list)  # seconds
    sent: int = 0  # actions sent in the window
    completed: int = 0  # of those, seen by all four seats
    lost: int = 0  # of those, not seen by all four seats by the end of the drain
    refused: int = 0  # of those, answered by an error frame
    games_finished: int = 0
    chat_sent: int = 0  # chat messages sent in the window
    chat_received: int = 0  # chat frames received in the window
    active_tables: int = 0  # tables that played at least one action in the window
    errors: Counter[str] = field(default_factory=Counter)


# ---------------------------------------------------------------------------- the players


@dataclass
class Pending:
    sent_at: float
    waiting: set[int]  # seats that have not yet received the update
    counted: bool  # sent inside the measured window


class Player:
    def __init__(self, table: SimTable, seat: int, token: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.ws: ClientConnection | None = None
        self.game: int | None = None
        self.turn = -1
        self.planned: tuple[int, int] | None = None  # (game, turn) an action is planned for
        self.last_sent: tuple[int, int] | None = None


class SimTable:
    def __init__(self, sim: Simulation, code: str, host_token: str) -> None:
        self.sim = sim
        self.code = code
        self.host_token = host_token
        self.players: list[Player] = [Player(self, 0, host_token)]
        self.pending: dict[tuple[int, int], Pending] = {}
        self.rematch_for: int | None = None  # the finished game a rematch is planned after
        self.ready: dict[int, int] = {}  # finished game -> seats that said ready since
        self.active = False


class Simulation:
    """All the tables of one client process, on its event loop."""

    def __init__(self, plan: Plan, index: int, tables: list[int]) -> None:
        self.plan = plan
        self.index = index
        self.table_numbers = tables  # global numbers, for the ramp
        self.rng = random.Random(plan.seed * 1000 + index)
        self.tables: list[SimTable] = []
        self.outcome = Outcome()
        self.http: httpx.AsyncClient | None = None
        self.window = (float("inf"), float("inf"))  # perf_counter bounds of the window
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ set-up

    def client(self) -> httpx.AsyncClient:
        assert self.http is not None
        return self.http

    async def post(self, path: str, body: dict[str, Any] | None, token: str | None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = await self.client().post(path, json=body, headers=headers)
        if response.status_code >= 400:
            self.outcome.errors[f"http {response.status_code} {path.split('/')[-1]}"] += 1
            raise RuntimeError(f"POST {path}: {response.status_code} {response.text}")
        return response.json()

    async def create_table(self, number: int) -> SimTable:
        created = await self.post(
            "/api/tables",
            {
                "name": f"T{number} host",
                "preset": self.plan.preset,
                "seats": SEATS,
                "turn_seconds": 0,
            },
            None,
        )
        table = SimTable(self, created["code"], created["token"])
        for seat in range(1, SEATS):
            joined = await self.post(
                f"/api/tables/{table.code}/join", {"name": f"T{number} p{seat}"}, None
            )
            table.players.append(Player(table, joined["seat"], joined["token"]))
        return table

    async def set_up(self) -> None:
        limit = asyncio.Semaphore(HTTP_CONCURRENCY)

        async def one(number: int) -> SimTable:
            async with limit:
                return await self.create_table(number)

        self.tables = list(await asyncio.gather(*(one(n) for n in self.table_numbers)))
        connecting = asyncio.Semaphore(CONNECT_CONCURRENCY)
        ws_base = self.plan.base.replace("http://", "ws://")

        async def join(player: Player) -> None:
            async with connecting:
                player.ws = await connect(
                    f"{ws_base}/ws/{player.table.code}",
                    compression="deflate" if self.plan.compression else None,
                    open_timeout=60,
                    max_queue=None,
                )
                await player.ws.send(json.dumps({"type": "hello", "token": player.token}))
            self.spawn(self.listen(player))

        await asyncio.gather(*(join(p) for t in self.tables for p in t.players))

    def spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -------------------------------------------------------------------- play

    async def listen(self, player: Player) -> None:
        assert player.ws is not None
        try:
            async for raw in player.ws:
                self.receive(player, json.loads(raw))
        except ConnectionClosed:
            pass
        if not self.stopping:
            self.outcome.errors["disconnected"] += 1

    def receive(self, player: Player, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "update":
            self.update(player, message)
        elif kind == "chat":
            if self.window[0] <= time.perf_counter() <= self.window[1]:
                self.outcome.chat_received += 1
        elif kind == "error" and message.get("for") == "chat":
            self.outcome.errors[f"ws chat {message.get('code')}"] += 1
        elif kind == "error":
            self.outcome.errors[f"ws {message.get('code')}"] += 1
            table = player.table
            if player.last_sent is not None:
                pending = table.pending.pop(player.last_sent, None)
                if pending is not None and pending.counted:
                    self.outcome.refused += 1

    def update(self, player: Player, message: dict[str, Any]) -> None:
        now = time.perf_counter()
        table = player.table
        view = message["view"]
        game, turn = message["game"], view["turn"]
        player.game, player.turn = game, turn
        if table.pending:
            for key in [k for k in table.pending if k[0] != game or k[1] < turn]:
                pending = table.pending[key]
                if key[0] != game:  # a new game: that action's update will never come
                    del table.pending[key]
                    continue
                pending.waiting.discard(player.seat)
                if not pending.waiting:
                    del table.pending[key]
                    if pending.counted:
                        self.outcome.completed += 1
                        self.outcome.latencies.append(now - pending.sent_at)
        if self.stopping:
            return
        if view["winner"] is not None:
            # Everyone says ready after a think, as the rematch needs; the host then starts it.
            if player.planned != (game, -1):
                player.planned = (game, -1)
                asyncio.get_running_loop().call_later(self.think(), self.ready, player, game)
            if player.seat == 0 and table.rematch_for != game:
                table.rematch_for = game
                if self.window[0] <= now <= self.window[1]:
                    self.outcome.games_finished += 1
            return
        if view["to_move"] == view["viewer"] and view["legal"] and player.planned != (game, turn):
            player.planned = (game, turn)
            action = self.rng.choice(view["legal"])
            asyncio.get_running_loop().call_later(
                self.think(), self.act, player, game, turn, action
            )

    def think(self) -> float:
        return self.plan.think * self.rng.uniform(0.8, 1.2)

    def act(self, player: Player, game: int, turn: int, action: str) -> None:
        if self.stopping or (player.game, player.turn) != (game, turn) or player.ws is None:
            return
        now = time.perf_counter()
        counted = self.window[0] <= now <= self.window[1]
        player.table.pending[(game, turn)] = Pending(now, set(range(SEATS)), counted)
        player.last_sent = (game, turn)
        if counted:
            self.outcome.sent += 1
            player.table.active = True
        self.spawn(self.send(player, json.dumps({"type": "act", "action": action, "turn": turn})))

    async def send(self, player: Player, text: str) -> None:
        assert player.ws is not None
        try:
            await player.ws.send(text)
        except ConnectionClosed:
            self.outcome.errors["send on closed"] += 1

    def start(self, table: SimTable) -> None:
        self.spawn(self.host_command(table, "start"))

    async def chatter(self, player: Player) -> None:
        """One seat's chat: a message every ``chat_every`` seconds (±20 %) until the end."""
        every = self.plan.chat_every
        await asyncio.sleep(self.rng.uniform(0.0, every))
        said = 0
        while not self.stopping:
            frame: dict[str, Any] = (
                {"type": "chat", "phrase": self.rng.choice(CHAT_PHRASES)}
                if said % 2 == 0
                else {"type": "chat", "text": f"round {said}: ¿quién tiene los ases? 😂"}
            )
            said += 1
            if self.window[0] <= time.perf_counter() <= self.window[1]:
                self.outcome.chat_sent += 1
            await self.send(player, json.dumps(frame))
            await asyncio.sleep(every * self.rng.uniform(0.8, 1.2))

    def ready(self, player: Player, game: int) -> None:
        if not self.stopping:
            self.spawn(self.say_ready(player, game))

    async def say_ready(self, player: Player, game: int) -> None:
        table = player.table
        with contextlib.suppress(RuntimeError, httpx.HTTPError):
            await self.post(f"/api/tables/{table.code}/ready", None, player.token)
            table.ready[game] = table.ready.get(game, 0) + 1
            if table.ready[game] == SEATS:
                del table.ready[game]
                await self.host_command(table, "rematch")

    async def host_command(self, table: SimTable, command: str) -> None:
        with contextlib.suppress(RuntimeError):  # (counted by post)
            try:
                await self.post(f"/api/tables/{table.code}/{command}", None, table.host_token)
            except httpx.HTTPError as exc:  # its table would wait for ever: counted, not hidden
                self.outcome.errors[f"{command}: {type(exc).__name__}"] += 1

    async def run(self, go: float) -> None:
        """Ramp the games up from ``go`` (epoch seconds), play, measure, stop."""
        plan = self.plan
        offset = time.perf_counter() - time.time()  # epoch -> perf_counter
        start = go + offset
        self.window = (start + plan.warmup, start + plan.warmup + plan.duration)
        loop = asyncio.get_running_loop()
        for table, number in zip(self.tables, self.table_numbers, strict=True):
            at = start + plan.ramp * number / max(1, plan.tables)
            loop.call_at(loop.time() + max(0.0, at - time.perf_counter()), self.start, table)
        if plan.chat_every > 0:
            for table in self.tables:
                for player in table.players:
                    self.spawn(self.chatter(player))
        await asyncio.sleep(max(0.0, self.window[1] - time.perf_counter()))
        self.stopping = True
        drain_end = time.perf_counter() + DRAIN_SECONDS
        while time.perf_counter() < drain_end and any(
            p.counted for t in self.tables for p in t.pending.values()
        ):
            await asyncio.sleep(0.05)
        for table in self.tables:
            self.outcome.lost += sum(1 for p in table.pending.values() if p.counted)
            self.outcome.active_tables += table.active

    async def close(self) -> None:
        self.stopping = True
        players = [p for t in self.tables for p in t.players if p.ws is not None]
        await asyncio.gather(
            *(p.ws.close() for p in players if p.ws is not None), return_exceptions=True
        )
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def client_process(
    plan: Plan,
    index: int,
    inbox: multiprocessing.Queue[float],
    outbox: multiprocessing.Queue[tuple[str, Any]],
    cpus: list[int] | None,
) -> None:
    """One client process: set up its tables, say it is ready, play from the go time."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    numbers = [n for n in range(plan.tables) if n % plan.procs == index]
    sim = Simulation(plan, index, numbers)

    async def main() -> None:
        limits = httpx.Limits(max_connections=HTTP_CONCURRENCY * 2)
        async with httpx.AsyncClient(base_url=plan.base, limits=limits, timeout=60) as http:
            sim.http = http
            try:
                await sim.set_up()
            except Exception as exc:
                outbox.put(("failed", f"client {index}: set-up failed: {exc!r}"))
                await sim.close()
                return
            outbox.put(("ready", index))
            go = await asyncio.get_running_loop().run_in_executor(None, inbox.get)
            await sim.run(go)
            await sim.close()
        outbox.put(("done", sim.outcome))

    if plan.uvloop:
        import uvloop

        uvloop.run(main())
    else:
        asyncio.run(main())


# ------------------------------------------------------------------------------ the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    port: int,
    data_dir: Path,
    profile: str | None,
    workers: int = 1,
    redis_url: str | None = None,
    database_url: str | None = None,
) -> subprocess.Popen[bytes]:
    serve = [
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        os.environ.get("DUDO_BENCH_LOG", "warning"),
    ]
    serve += (
        ["--data-dir", str(data_dir)] if database_url is None else ["--database-url", database_url]
    )
    if redis_url is not None:
        serve += ["--redis-url", redis_url]
    if workers > 1:
        serve += ["--workers", str(workers)]
    # Every simulated person comes from 127.0.0.1: lift the per-address limits that would stop
    # one address creating hundreds of tables and holding thousands of connections.
    for name in ("tables_burst", "sockets_burst", "sockets_per_address", "connections_per_address"):
        serve += ["--limit", f"{name}=1000000"]
    if profile:
        command = [sys.executable, "-c", PROFILED_SERVER, profile, *serve]
    else:
        command = [sys.executable, "-m", "dudo", *serve]
    return subprocess.Popen(command, stdin=subprocess.DEVNULL)


def wait_ready(base: str, server: subprocess.Popen[bytes], seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit status {server.returncode})")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/presets", timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    raise SystemExit(f"the server did not answer within {seconds:.0f} s")


def start_redis(port: int, folder: Path) -> subprocess.Popen[bytes]:
    """A throwaway redis-server on 127.0.0.1 (no persistence)."""
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""]
    redis = subprocess.Popen(
        [*command, "--appendonly", "no", "--dir", str(folder)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    time.sleep(0.3)
    return redis


def process_tree(pid: int) -> list[int]:
    """``pid`` and its children (the workers of ``dudo serve --workers``)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False)
    return [pid, *(int(p) for p in found.stdout.split())]


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), from /proc/<pid>/stat."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def run_delay(pid: int) -> float:
    """Seconds a process's threads spent runnable but waiting for a core (/proc/<pid>/schedstat)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[1])
    except OSError:
        pass
    return total / 1e9


def resident_mb(pid: int) -> float:
    """A process's resident memory in MB (VmRSS of /proc/<pid>/status)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def machine_ticks() -> tuple[int, int]:
    """(busy, total) ticks of all cores, from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


# ------------------------------------------------------------------------------ reporting


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * len(sorted_values)) - 1))
    return sorted_values[index]


def print_profile(path: str, actions: int) -> None:
    import pstats

    stats = pstats.Stats(path)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in raw.values())
    per = max(1, actions)
    print(
        f"\nserver profile (cProfile, window only; {total:.2f} s profiled, {actions} actions; "
        f"µs per action):"
    )
    rows = sorted(raw.items(), key=lambda item: item[1][2], reverse=True)[:25]
    print(f"{'self µs':>9} {'cum µs':>9} {'calls/act':>9}  function")
    for (filename, line, name), (_cc, calls, tottime, cumtime, _callers) in rows:
        where = f"{Path(filename).name}:{line}({name})"
        print(
            f"{tottime / per * 1e6:>9.1f} {cumtime / per * 1e6:>9.1f} {calls / per:>9.2f}  {where}"
        )
    watch = (
        "act",
        "apply",
        "broadcast",
        "send_update",
        "add_action",
        "try_add_actions",
        "shared_part",
        "update_frame",
        "viewer_part",
        "public_part",
        "view_json",
        "view",
        "dumps",
        "legal_actions",
        "send_text",
        "write",
        "serve_frames",
        "parse_frame",
    )
    print(f"\n{'cum µs':>9} {'calls/act':>9}  key server functions")
    for (filename, line, name), (_cc, calls, _tt, cumtime, _callers) in sorted(
        raw.items(), key=lambda item: item[1][3], reverse=True
    ):
        if name in watch and ("dudo" in filename or "starlette" in filename):
            where = f"{Path(filename).name}:{line}({name})"
            print(f"{cumtime / per * 1e6:>9.1f} {calls / per:>9.2f}  {where}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=DEFAULT_TABLES, help="4-seat tables")
    parser.add_argument("--think", type=float, default=1.0, help="seconds before acting (±20%%)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument(
        "--ramp", type=float, default=None, help="seconds to start all games (default warmup/2)"
    )
    parser.add_argument("--preset", default="dudo", help="rules preset of every table")
    parser.add_argument("--procs", type=int, default=1, help="client processes")
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="server on core 0, clients on the others (default: on with 2+ cores)",
    )
    parser.add_argument(
        "--compression",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="offer permessage-deflate as browsers do (default: on)",
    )
    parser.add_argument(
        "--uvloop", action=argparse.BooleanOptionalAction, default=True, help="clients on uvloop"
    )
    parser.add_argument(
        "--data-root",
        type=Path,
        default=None,
        help="where the fresh data folder is made (default: the system temp folder)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (dudo serve --workers)"
    )
    parser.add_argument(
        "--redis-url", default=None, help="Redis of the workers (default: a throwaway one)"
    )
    parser.add_argument("--database-url", default=None, help="database (default: fresh SQLite)")
    parser.add_argument(
        "--chat-every",
        type=float,
        default=0.0,
        help="seconds between one seat's chat messages, ±20%% (default 0: no chat)",
    )
    args = parser.parse_args()

    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables: from 1 to {MAX_TABLES}")
    if not 1.0 <= args.duration <= MAX_DURATION:
        parser.error(f"--duration: from 1 to {MAX_DURATION:.0f} seconds")
    if not 0.0 <= args.warmup <= MAX_WARMUP:
        parser.error(f"--warmup: from 0 to {MAX_WARMUP:.0f} seconds")
    if not 0.05 <= args.think <= 10.0:
        parser.error("--think: from 0.05 to 10 seconds")
    if not 1 <= args.procs <= MAX_PROCS:
        parser.error(f"--procs: from 1 to {MAX_PROCS}")
    if args.chat_every and not 2.0 <= args.chat_every <= 600.0:
        parser.error("--chat-every: 0 (no chat) or from 2 to 600 seconds")
    ramp = args.warmup / 2 if args.ramp is None else args.ramp
    if not 0.0 <= ramp <= max(args.warmup, 0.0):
        parser.error("--ramp: from 0 to the warm-up")
    uvloop_ok = args.uvloop
    if uvloop_ok:
        try:
            import uvloop  # noqa: F401
        except ImportError:
            uvloop_ok = False

    if args.pin is None:  # one process pinned on a machine of 2+ cores; workers share them
        args.pin = (os.cpu_count() or 1) >= 2 and args.workers == 1
    cores = sorted(os.sched_getaffinity(0))
    server_cpus = client_cpus = None
    if args.pin and len(cores) >= 2:
        server_cpus, client_cpus = [cores[0]], cores[1:]
    profile = os.environ.get("DUDO_BENCH_PROFILE") or None

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    plan = Plan(
        base,
        args.tables,
        min(args.procs, args.tables),
        args.think,
        args.warmup,
        ramp,
        args.duration,
        args.preset,
        args.compression,
        uvloop_ok,
        args.seed,
        args.chat_every,
    )
    with tempfile.TemporaryDirectory(prefix="dudo-load-", dir=args.data_root) as data_dir:
        redis = None
        redis_url = args.redis_url
        if args.workers > 1 and redis_url is None:
            redis_port = free_port()
            redis = start_redis(redis_port, Path(data_dir))
            redis_url = f"redis://127.0.0.1:{redis_port}/0"
        server = start_server(
            port, Path(data_dir), profile, args.workers, redis_url, args.database_url
        )
        try:
            wait_ready(base, server)
            servers = process_tree(server.pid)
            if server_cpus:
                for pid in servers + ([redis.pid] if redis else []):
                    os.sched_setaffinity(pid, server_cpus)
            outcomes, cpu = drive(
                plan,
                servers,
                client_cpus,
                profile is not None,
                redis.pid if redis else None,
                args.workers,
            )
        finally:
            stop_server(server)
            if redis is not None:
                redis.kill()
                redis.wait()
    report(plan, args, outcomes, cpu, server_cpus, client_cpus)
    if profile and Path(profile).exists():
        print_profile(profile, sum(o.completed + o.lost for o in outcomes))


def drive(
    plan: Plan,
    servers: list[int],
    client_cpus: list[int] | None,
    profile: bool,
    redis_pid: int | None = None,
    workers: int = 1,
) -> tuple[list[Outcome], dict[str, float]]:
    server_pid = servers[0]
    context = multiprocessing.get_context("spawn")
    outbox: multiprocessing.Queue[tuple[str, Any]] = context.Queue()
    inboxes: list[multiprocessing.Queue[float]] = [context.Queue() for _ in range(plan.procs)]
    procs = [
        context.Process(
            target=client_process, args=(plan, i, inboxes[i], outbox, client_cpus), daemon=True
        )
        for i in range(plan.procs)
    ]
    began = time.perf_counter()
    for proc in procs:
        proc.start()
    try:
        ready = 0
        while ready < plan.procs:
            kind, value = outbox.get(timeout=600)
            if kind == "failed":
                raise SystemExit(value)
            ready += 1
        print(
            f"set-up: {plan.tables} tables, {plan.tables * SEATS} WebSockets in "
            f"{time.perf_counter() - began:.1f} s",
            file=sys.stderr,
        )
        go = time.time() + 0.5
        for inbox in inboxes:
            inbox.put(go)
        pids = [p.pid for p in procs if p.pid is not None]
        time.sleep(max(0.0, go + plan.warmup - time.time()))
        if profile:
            os.kill(server_pid, signal.SIGUSR1)
        s0, c0, m0 = sum(map(cpu_seconds, servers)), sum(map(cpu_seconds, pids)), machine_ticks()
        r0 = cpu_seconds(redis_pid) if redis_pid else 0.0
        w0 = sum(map(run_delay, servers))
        time.sleep(max(0.0, go + plan.warmup + plan.duration - time.time()))
        s1, c1, m1 = sum(map(cpu_seconds, servers)), sum(map(cpu_seconds, pids)), machine_ticks()
        r1 = cpu_seconds(redis_pid) if redis_pid else 0.0
        w1 = sum(map(run_delay, servers))
        memory = sum(map(resident_mb, servers))
        if profile:
            os.kill(server_pid, signal.SIGUSR2)
        outcomes: list[Outcome] = []
        while len(outcomes) < plan.procs:
            kind, value = outbox.get(timeout=120)
            if kind == "done":
                outcomes.append(value)
        for proc in procs:
            proc.join(10)
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.kill()
    busy = (m1[0] - m0[0]) / max(1, m1[1] - m0[1])
    cpu = {
        "server": (s1 - s0) / plan.duration,
        "clients": (c1 - c0) / plan.duration,
        "machine": busy * (os.cpu_count() or 1),
        "server_wait": (w1 - w0) / plan.duration,
        "redis": (r1 - r0) / plan.duration,
        "processes": float(workers),
        "memory_mb": memory,
    }
    return outcomes, cpu


def report(
    plan: Plan,
    args: argparse.Namespace,
    outcomes: list[Outcome],
    cpu: dict[str, float],
    server_cpus: list[int] | None,
    client_cpus: list[int] | None,
) -> None:
    latencies = sorted(x * 1000 for o in outcomes for x in o.latencies)
    errors: Counter[str] = Counter()
    for o in outcomes:
        errors.update(o.errors)
    sent = sum(o.sent for o in outcomes)
    lost = sum(o.lost for o in outcomes)
    refused = sum(o.refused for o in outcomes)
    active = sum(o.active_tables for o in outcomes)
    games = sum(o.games_finished for o in outcomes)
    p50, p90, p99 = (percentile(latencies, q) for q in (0.5, 0.9, 0.99))
    peak = latencies[-1] if latencies else float("nan")
    mean = statistics.fmean(latencies) if latencies else float("nan")
    if server_cpus:
        cores = (
            f"server on core {server_cpus}, {plan.procs} client process(es) on cores {client_cpus}"
        )
    else:
        cores = f"not pinned: server and {plan.procs} client process(es) share every core"
    print(
        f"\npreset {plan.preset}, think {plan.think:g} s ±20%, warm-up {plan.warmup:g} s "
        f"(ramp {plan.ramp:g} s), window {plan.duration:g} s; {cores}; "
        f"client loop {'uvloop' if plan.uvloop else 'asyncio'}, "
        f"permessage-deflate {'on' if plan.compression else 'off'}"
    )
    head = (
        f"{'tables':>6} {'playing':>7} {'players':>7} {'seconds':>7} {'actions/s':>9} "
        f"{'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7} {'mean ms':>7} "
        f"{'server CPU':>10} {'client CPU':>10} {'machine':>7} {'others':>6} {'games':>5} {'errors':>6}"
    )
    print(head)
    n_errors = sum(errors.values()) + lost
    others = max(0.0, cpu["machine"] - cpu["server"] - cpu["clients"])
    print(
        f"{plan.tables:>6} {active:>7} {plan.tables * SEATS:>7} {plan.duration:>7.0f} "
        f"{sent / plan.duration:>9.1f} {p50:>7.1f} {p90:>7.1f} {p99:>7.1f} {peak:>7.1f} "
        f"{mean:>7.1f} {cpu['server'] * 100:>9.0f}% {cpu['clients'] * 100:>9.0f}% "
        f"{cpu['machine'] * 100:>6.0f}% {others * 100:>5.0f}% {games:>5} {n_errors:>6}"
    )
    if plan.chat_every > 0:
        chat_sent = sum(o.chat_sent for o in outcomes)
        chat_received = sum(o.chat_received for o in outcomes)
        print(
            f"chat: every seat every {plan.chat_every:g} s ±20%: {chat_sent / plan.duration:.1f} "
            f"messages/s sent, {chat_received / plan.duration:.1f} chat frames/s received"
        )
    if n_errors or refused:
        detail = ", ".join(f"{k}: {v}" for k, v in sorted(errors.items()))
        print(f"errors: {detail or 'none'}; lost (not seen by all 4 seats): {lost}")
    if sent:
        # Whole percents are too coarse to compare two versions at a few hundred actions/s.
        print(
            f"server CPU per action: {cpu['server'] * plan.duration / sent * 1000:.3f} ms "
            "(all the server did in the window, over the actions sent in it)"
        )
    if cpu["processes"] > 1:
        print(
            f"{cpu['processes']:.0f} server processes (their CPU summed, with their parent's); "
            f"redis-server: {cpu['redis'] * 100:.0f}% of a core"
        )
    print(
        f"server waited for a core (runnable, not running) {cpu['server_wait'] * 100:.0f}% "
        f"of the window; server memory at its end {cpu['memory_mb']:.0f} MB resident; "
        f"data folder in {args.data_root or tempfile.gettempdir()}"
    )
    print(
        "(CPU%: of one core, over the window; machine: all cores busy, 100% = one core; others: machine - server - clients, other "
        "processes of the machine. "
        "latency: send -> update received by all 4 seats)"
    )
    meets = p99 < TARGET_P99_MS and not lost and active >= min(plan.tables, TARGET_TABLES)
    if plan.tables >= TARGET_TABLES:
        verdict = "MET" if meets else "MISSED"
        print(
            f"verdict: target {TARGET_TABLES} tables with p99 < {TARGET_P99_MS:.0f} ms {verdict}: "
            f"{active} tables playing, p99 {p99:.1f} ms"
        )
    else:
        print(
            f"verdict: {plan.tables} tables (below the {TARGET_TABLES}-table target): p99 "
            f"{p99:.1f} ms {'<' if p99 < TARGET_P99_MS else '>='} {TARGET_P99_MS:.0f} ms"
        )


if __name__ == "__main__":
    main()
