"""Lobby update latency: how long after a change at one of many open public tables every
watcher of the lobby (``/ws/lobby``) has heard of it.

Run by hand (not a test):

    python bench/lobby_latency.py [--tables 500] [--watchers 50] [--repeats 15] [--burst 100]

It starts ``dudo serve`` on 127.0.0.1 with a fresh temporary SQLite data folder, creates
``--tables`` public 4-seat tables over HTTP (one person seated each, presets in turn), opens
``--watchers`` lobby WebSockets (each first gets the whole list, ``lobby_full``), then
``--repeats`` times has one more person join a random table and measures, with
``time.perf_counter``, from just before the join request is sent until each watcher has
received the ``lobby`` diff frame that shows that table's new seat count. It prints the median
and the worst of the first and of the last watcher's latency, the join request's own time, the
size of a full list and of a diff frame, and how long a new watcher waits for the full list.
Then ``--burst`` joins at as many tables are sent at once (8 requests in flight), and it prints
how long until every watcher has seen them all and in how many frames.

The lobby gathers changes for ``dudo.server.lobby.DEBOUNCE_SECONDS`` before sending: that
wait is part of every latency measured here, on purpose (it is what a person sees).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

PRESETS = ("dudo", "perudo", "cacho", "liars-dice")
LIMITS = (
    "tables_burst=100000",
    "lookups_burst=100000",
    "sockets_burst=100000",
    "sockets_per_address=100000",
)
HTTP_CONCURRENCY = 8


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    limits = [arg for limit in LIMITS for arg in ("--limit", limit)]
    command = [sys.executable, "-m", "dudo", "serve", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--data-dir", str(data_dir), "--log-level", "warning", *limits],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    with httpx.Client(trust_env=False, timeout=2.0) as client:
        while True:
            try:
                if client.get(f"http://127.0.0.1:{port}/api/presets").status_code == 200:
                    return process
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise SystemExit("dudo serve did not start")
            time.sleep(0.1)


async def create_tables(http: httpx.AsyncClient, count: int) -> list[str]:
    gate = asyncio.Semaphore(HTTP_CONCURRENCY)

    async def one(i: int) -> str:
        body = {"name": f"Host{i}", "public": True, "seats": 4, "preset": PRESETS[i % 4]}
        async with gate:
            response = await http.post("/api/tables", json=body)
        response.raise_for_status()
        code: str = response.json()["code"]
        return code

    return list(await asyncio.gather(*(one(i) for i in range(count))))


async def until_seen(ws: ClientConnection, code: str, taken: int) -> tuple[float, int]:
    """The perf_counter time at which ``ws`` got a diff showing ``code`` with ``taken`` seats,
    and that frame's size."""
    while True:
        text = await ws.recv()
        frame: dict[str, Any] = json.loads(text)
        if frame["type"] != "lobby":
            continue
        for card in frame["changed"]:
            if card["code"] == code and card["taken"] == taken:
                return time.perf_counter(), len(text)


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="dudo-lobby-bench-") as folder:
        server = start_server(Path(folder), port)
        try:
            await measure(args, port)
        finally:
            server.terminate()
            server.wait(timeout=15)


async def measure(args: argparse.Namespace, port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    url = f"ws://127.0.0.1:{port}/ws/lobby"
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=30.0) as http:
        began = time.perf_counter()
        codes = await create_tables(http, args.tables)
        print(f"{len(codes)} public tables created in {time.perf_counter() - began:.1f} s")

        watchers: list[ClientConnection] = []
        full_sizes: list[int] = []
        full_waits: list[float] = []
        for _ in range(args.watchers):
            sent = time.perf_counter()
            ws = await connect(url, max_size=None, compression=None)
            text = await ws.recv()
            full_waits.append(time.perf_counter() - sent)
            full_sizes.append(len(text))
            first = json.loads(text)
            assert first["type"] == "lobby_full" and len(first["tables"]) == args.tables
            watchers.append(ws)
        print(
            f"{len(watchers)} watchers; the full list: {statistics.median(full_sizes) / 1024:.0f} "
            f"KiB, a new watcher has it after {statistics.median(full_waits) * 1000:.1f} ms "
            "(median of connect + first frame)"
        )

        rng = random.Random(7)
        taken = dict.fromkeys(codes, 1)
        firsts: list[float] = []
        lasts: list[float] = []
        requests: list[float] = []
        diff_sizes: list[int] = []
        for i in range(args.repeats):
            code = rng.choice([c for c in codes if taken[c] < 3])
            waits = [asyncio.create_task(until_seen(ws, code, taken[code] + 1)) for ws in watchers]
            await asyncio.sleep(0.3)  # the previous change's frame has gone out everywhere
            start = time.perf_counter()
            response = await http.post(f"/api/tables/{code}/join", json={"name": f"Guest{i}"})
            answered = time.perf_counter()
            response.raise_for_status()
            taken[code] += 1
            seen = await asyncio.gather(*waits)
            times = [when for when, _size in seen]
            firsts.append(min(times) - start)
            lasts.append(max(times) - start)
            requests.append(answered - start)
            diff_sizes.append(seen[0][1])
        burst = await measure_burst(http, watchers, [c for c in codes if taken[c] < 3], args)
        for ws in watchers:
            await ws.close()

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"

    print(f"{args.repeats} changes, each a join at one of {args.tables} open public tables:")
    print(f"  join request answered:        {ms(requests)}")
    print(f"  first watcher saw the change: {ms(firsts)}")
    print(f"  last of {args.watchers} watchers saw it: {ms(lasts)}")
    print(f"  diff frame: {statistics.median(diff_sizes)} bytes")
    print(
        f"a burst of {args.burst} joins at once: every watcher had them all after "
        f"{burst[0] * 1000:.0f} ms, in {burst[1]} frames each (median of the watchers)"
    )


async def measure_burst(
    http: httpx.AsyncClient, watchers: list[ClientConnection], open_codes: list[str], args: Any
) -> tuple[float, float]:
    """``--burst`` joins at as many tables sent at once: how long until every watcher has
    seen them all, and in how many frames (the gathering makes a burst a few frames)."""
    await asyncio.sleep(0.3)
    chosen = open_codes[: args.burst]

    async def watch(ws: ClientConnection) -> tuple[float, int]:
        left, frames = set(chosen), 0
        while left:
            frame = json.loads(await ws.recv())
            if frame["type"] == "lobby":
                frames += 1
                left -= {card["code"] for card in frame["changed"]}
        return time.perf_counter(), frames

    waits = [asyncio.create_task(watch(ws)) for ws in watchers]
    await asyncio.sleep(0)
    start = time.perf_counter()
    gate = asyncio.Semaphore(HTTP_CONCURRENCY)

    async def join(code: str) -> None:
        async with gate:
            response = await http.post(f"/api/tables/{code}/join", json={"name": "Burst"})
        response.raise_for_status()

    await asyncio.gather(*(join(code) for code in chosen))
    seen = await asyncio.gather(*waits)
    return max(when for when, _ in seen) - start, statistics.median(n for _, n in seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--burst", type=int, default=100)
    args = parser.parse_args()
    if not 1 <= args.tables <= 5000 or not 1 <= args.watchers <= 1000 or args.repeats < 1:
        parser.error("--tables 1..5000, --watchers 1..1000, --repeats 1 or more")
    if not 1 <= args.burst <= args.tables // 2:
        parser.error("--burst: 1 to half of --tables")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
