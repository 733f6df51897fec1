"""The server's floor: what one action costs the web stack alone, with no game in it.

Run by hand (not a test):

    python bench/server_floor.py [--tables 500] [--think 1.0] [--duration 30] [--warmup 10]
                                 [--no-commit] [--frame-bytes 820] [--ws auto]

``dudo serve`` spends its CPU per action on its own work (the engine's views, the JSON, the
table's bookkeeping) and on the stack it runs on: uvicorn's WebSocket protocol, Starlette's
WebSocket, asyncio and the kernel's sockets, and SQLite's commit. This benchmark measures the
second part alone. Its server is a FastAPI application on uvicorn, configured as ``dudo serve``
is (uvloop, no compression, the same ping interval), whose one WebSocket route does per frame
received what the stack must do for an action and nothing else: with ``--commit`` (the default)
it stores the frame in SQLite (WAL, ``synchronous=NORMAL``; BEGIN IMMEDIATE, INSERT, COMMIT on
the event loop, as ``dudo serve`` does), then sends one fixed text frame of ``--frame-bytes``
(the mean size of ``dudo serve``'s update frames in 4-player ``dudo`` games) to each of the
table's four connections.

The load is that of ``bench/server_load.py``: ``--tables`` tables of four connections, in one
client process; at each table one seat at a time sends a short frame after the think time
(±20 %) and the next waits until all four have received the answer. The server runs on core 0
and the clients on core 1. Reported: actions per second, latency from a send to the fourth
receipt, and the server's CPU per action (user + system over the window, from /proc), to set
beside ``bench/server_load.py``'s in the same minutes. ``--ws`` picks uvicorn's WebSocket
protocol (``auto``, as ``dudo serve`` runs, is ``websockets-sansio`` with uvicorn 0.54;
``websockets`` is the older one), to compare the two.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

# The same measures as the load benchmark beside it (this folder is on sys.path when it runs).
from server_load import cpu_seconds, free_port

ACTION = '{"type":"act","action":"4x5","turn":17}'


# ------------------------------------------------------------------------------ the server


def serve(port: int, database: str | None, frame_bytes: int, ws: str) -> None:
    frame = '{"type":"update","pad":"' + "x" * max(0, frame_bytes - 26) + '"}'
    app = FastAPI()
    tables: dict[str, list[WebSocket]] = {}
    db = None
    if database is not None:
        db = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("CREATE TABLE actions (id INTEGER PRIMARY KEY, tbl TEXT, body TEXT)")

    @app.websocket("/ws/{table}")
    async def play(websocket: WebSocket, table: str) -> None:
        await websocket.accept()
        members = tables.setdefault(table, [])
        members.append(websocket)
        try:
            while True:
                text = await websocket.receive_text()
                if db is not None:
                    db.execute("BEGIN IMMEDIATE")
                    db.execute("INSERT INTO actions (tbl, body) VALUES (?, ?)", (table, text))
                    db.execute("COMMIT")
                for member in members:
                    await member.send_text(frame)
        except WebSocketDisconnect:
            members.remove(websocket)

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws=ws,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )


# ------------------------------------------------------------------------------ the clients


class Seats:
    """One table's four connections, and how many of them have had the answer."""

    def __init__(self) -> None:
        self.sockets: list[Any] = []
        self.received = 0
        self.answered = asyncio.Event()


def clients(port: int, server_pid: int, args: argparse.Namespace, out: Any) -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setaffinity(0, {1})
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    from websockets.asyncio.client import connect

    async def main() -> dict[str, Any]:
        tables = [Seats() for _ in range(args.tables)]
        limit = asyncio.Semaphore(50)

        async def listen(seats: Seats, ws: Any) -> None:
            async for _ in ws:
                seats.received += 1
                if seats.received == 4:
                    seats.answered.set()

        readers: list[asyncio.Task[None]] = []

        async def join(number: int, seats: Seats) -> None:
            async with limit:
                for _ in range(4):
                    ws = await connect(f"ws://127.0.0.1:{port}/ws/t{number}", max_queue=None)
                    seats.sockets.append(ws)
                    readers.append(asyncio.ensure_future(listen(seats, ws)))

        await asyncio.gather(*(join(n, s) for n, s in enumerate(tables)))
        rng = random.Random(1)
        start = time.perf_counter()
        window = (start + args.warmup, start + args.warmup + args.duration)
        latencies: list[float] = []
        cpu: list[float] = []

        async def play(seats: Seats) -> None:
            await asyncio.sleep(rng.uniform(0, args.warmup / 2))
            turn = 0
            while time.perf_counter() < window[1]:
                await asyncio.sleep(args.think * rng.uniform(0.8, 1.2))
                seats.received = 0
                seats.answered.clear()
                sent = time.perf_counter()
                await seats.sockets[turn % 4].send(ACTION)
                await seats.answered.wait()
                if window[0] <= sent < window[1]:
                    latencies.append(time.perf_counter() - sent)
                turn += 1

        async def measure_cpu() -> None:
            await asyncio.sleep(window[0] - time.perf_counter())
            cpu.append(cpu_seconds(server_pid))
            await asyncio.sleep(window[1] - time.perf_counter())
            cpu.append(cpu_seconds(server_pid))

        await asyncio.gather(measure_cpu(), *(play(s) for s in tables))
        for seats in tables:
            for ws in seats.sockets:
                await ws.close()
        return {"latencies": latencies, "cpu": cpu[1] - cpu[0]}

    out.put(asyncio.run(main()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--think", type=float, default=1.0, help="seconds before acting (±20%%)")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--commit", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--frame-bytes", type=int, default=820)
    parser.add_argument(
        "--ws", default="auto", help="uvicorn's WebSocket protocol (auto, websockets-sansio, ...)"
    )
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.database, args.frame_bytes, args.ws)
        return

    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, __file__, "--serve", str(port)]
        command += ["--frame-bytes", str(args.frame_bytes), "--ws", args.ws]
        if args.commit:
            command += ["--database", str(Path(folder) / "floor.sqlite3")]
        server = subprocess.Popen(command)
        try:
            with contextlib.suppress(OSError, AttributeError):
                os.sched_setaffinity(server.pid, {0})
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                    break
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the floor server did not start")
                time.sleep(0.1)
            results: multiprocessing.Queue[dict[str, Any]] = multiprocessing.Queue()
            client = multiprocessing.Process(target=clients, args=(port, server.pid, args, results))
            client.start()
            outcome = results.get()
            client.join()
        finally:
            server.terminate()
            server.wait(10)
    latencies: list[float] = sorted(outcome["latencies"])
    actions = len(latencies)
    if not actions:
        raise SystemExit("no action was answered in the window")

    def ms(q: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]

    print(
        f"floor: {args.tables} tables, commit {'on' if args.commit else 'off'}, "
        f"{args.frame_bytes}-byte frames, ws {args.ws}: {actions / args.duration:.1f} actions/s, "
        f"p50 {ms(0.5):.1f} ms, p99 {ms(0.99):.1f} ms, mean {1000 * statistics.mean(latencies):.1f} ms"
    )
    print(f"server CPU per action: {1000 * outcome['cpu'] / actions:.3f} ms")


if __name__ == "__main__":
    main()
