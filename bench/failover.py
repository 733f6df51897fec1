"""Failover timings: how long a game stops when the process that owns its table is killed.

Run by hand (not a test), with a PostgreSQL database the script may fill:

    python bench/failover.py --database-url postgresql://user@127.0.0.1/dudo [--runs 5]

Each run starts two ``dudo serve`` processes on 127.0.0.1 sharing that database and a
throwaway ``redis-server``, creates a table on the first (Ana, Bo and a bot), connects both
people through the second (their connections are relayed to the first, the owner), plays a
few turns, and kills the owner with SIGKILL. It measures, from the kill:

- **lease**: until the second process holds the table's lease (it took the table over);
- **told**: until both relayed connections were closed with 1012 (reconnect);
- **playing**: until both reconnected clients have the game back (an update at the turn
  they had seen or later) and the next move is answered.

It checks that no event was lost or repeated (each client's events continue its own
numbering) and prints the median and the worst of each over the runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, database_url: str, redis_url: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "dudo", "serve", "--host", HOST, "--port", str(port)]
    command += ["--database-url", database_url, "--redis-url", redis_url]
    command += ["--log-level", "warning", "--limit", "min_bot_seconds=0"]
    server = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://{HOST}:{port}/readyz", timeout=1).status_code == 200:
                return server
        time.sleep(0.1)
    raise SystemExit("dudo serve did not start")


class Client:
    """A relayed person: their events, their view, and their connection."""

    def __init__(self, port: int, code: str, token: str) -> None:
        self.port, self.code, self.token = port, code, token
        self.events: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.ws = self.connect()

    def connect(self) -> ClientConnection:
        ws = connect(f"ws://{HOST}:{self.port}/ws/{self.code}", proxy=None, open_timeout=10)
        ws.send(json.dumps({"type": "hello", "token": self.token, "since": len(self.events) - 1}))
        return ws

    def read(self, timeout: float) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if frame["type"] == "update":
            for event in frame["events"]:
                assert event["seq"] == len(self.events), "an event lost or repeated"
                self.events.append(event)
            self.view = frame["view"]
        return frame


def play_until(clients: list[Client], turn: int, rng: random.Random) -> None:
    """Play random legal moves for both people until the game reaches ``turn``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for client in clients:
            with contextlib.suppress(TimeoutError):
                client.read(0.02)
            view = client.view
            if view is None or view["winner"] is not None:
                continue
            if view["turn"] >= turn:
                return
            if view["legal"] and view["turn"] == max(c.view["turn"] for c in clients if c.view):
                moves = [a for a in view["legal"] if a not in ("call", "spot-on")] or view["legal"]
                client.ws.send(
                    json.dumps({"type": "act", "action": rng.choice(moves), "turn": view["turn"]})
                )
                client.view = {**view, "legal": []}
    raise SystemExit("the game did not reach the turn in time")


def one_run(database_url: str, redis_url: str, seed: int) -> dict[str, float]:
    ports = [free_port(), free_port()]
    servers = [start_server(port, database_url, redis_url) for port in ports]
    try:
        owner_url = f"http://{HOST}:{ports[0]}"
        body = {"name": "Ana", "seats": 3, "bots": ["easy"], "bot_seconds": 0, "reveal_seconds": 0}
        created = httpx.post(f"{owner_url}/api/tables", json=body).json()
        code = created["code"]
        joined = httpx.post(f"{owner_url}/api/tables/{code}/join", json={"name": "Bo"}).json()
        clients = [Client(ports[1], code, t) for t in (created["token"], joined["token"])]
        headers = {"Authorization": f"Bearer {created['token']}"}
        httpx.post(f"{owner_url}/api/tables/{code}/start", headers=headers).raise_for_status()
        rng = random.Random(seed)
        play_until(clients, 4, rng)
        seen = max(len(c.events) for c in clients)
        with redis.Redis.from_url(redis_url) as r:
            first = r.get(f"dudo:lease:{code}")
            servers[0].send_signal(signal.SIGKILL)
            killed = time.monotonic()
            lease: float | None = None
            told: float | None = None
            closed = [False, False]
            while True:
                now = time.monotonic() - killed
                if now > 20:
                    raise SystemExit("no takeover within 20 s")
                holder = r.get(f"dudo:lease:{code}")
                if lease is None and holder is not None and holder != first:
                    lease = now
                for i, client in enumerate(clients):
                    if closed[i]:
                        continue
                    try:
                        client.read(0.01)
                    except TimeoutError:
                        pass
                    except ConnectionClosed:
                        closed[i] = True
                if all(closed) and told is None:
                    told = time.monotonic() - killed
                if told is not None and lease is not None:
                    break
        for client in clients:  # reconnect, as the web client does on 1012
            while True:
                try:
                    client.ws = client.connect()
                    while client.view is None or len(client.events) < seen:
                        client.read(5)
                    break
                except ConnectionClosed:
                    time.sleep(0.1)
        turn = max(c.view["turn"] for c in clients if c.view)
        play_until(clients, turn + 1, rng)
        playing = time.monotonic() - killed
        for client in clients:
            client.ws.close()
        assert lease is not None and told is not None
        return {"lease": lease, "told": told, "playing": playing}
    finally:
        for server in servers:
            server.kill()
            server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="a PostgreSQL database URL")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="dudo-failover-") as folder:
        port = free_port()
        command = ["redis-server", "--bind", HOST, "--port", str(port), "--save", ""]
        server = subprocess.Popen([*command, "--dir", folder], stdout=subprocess.DEVNULL)
        time.sleep(0.3)
        try:
            for run in range(args.runs):
                with redis.Redis(host=HOST, port=port) as r:
                    r.flushdb()
                result = one_run(args.database_url, f"redis://{HOST}:{port}/0", run)
                print(
                    f"run {run + 1}: lease {result['lease']:.2f} s, told {result['told']:.2f} s, "
                    f"playing {result['playing']:.2f} s",
                    flush=True,
                )
                results.append(result)
        finally:
            server.kill()
            server.wait()
    for key in ("lease", "told", "playing"):
        values = [r[key] for r in results]
        print(f"{key}: median {statistics.median(values):.2f} s, worst {max(values):.2f} s")


if __name__ == "__main__":
    main()
