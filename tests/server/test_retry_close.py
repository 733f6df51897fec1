"""A WebSocket opened while its table cannot be served just now (the database or Redis does not
answer, or the table is between two processes) is accepted, told why in an ``error`` frame and
closed with 1013, "try again later": never a refused handshake (HTTP 500) and a traceback in
the log. Once the service is back, the same attempt is welcomed. Real PostgreSQL and Redis,
stopped and started again."""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass, field

import redis
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from .conftest import (
    FRAME_SECONDS,
    Json,
    LiveServer,
    PostgresCluster,
    RedisServer,
    ServerFactory,
    api,
    fresh_database,
    new_table,
)
from .test_cluster import Site, process_of


@dataclass
class Outcome:
    """How one connection attempt ended: its close code and reason (None: welcomed)."""

    close: int | None
    reason: str = ""
    frames: list[Json] = field(default_factory=list)


def attempt(server: LiveServer, code: str, token: str | None = None) -> Outcome:
    """Open /ws/<code> and say hello, as the web client does."""
    try:
        ws = connect(
            f"{server.ws_url}/ws/{code}",
            proxy=None,
            open_timeout=10,
            close_timeout=2,
            compression=None,
        )
    except InvalidStatus as exc:
        raise AssertionError(
            f"the handshake was refused with HTTP {exc.response.status_code}"
        ) from None
    frames: list[Json] = []
    with ws:
        with contextlib.suppress(ConnectionClosed):
            ws.send(json.dumps({"type": "hello", "token": token, "since": -1}))
        while True:
            try:
                raw = ws.recv(timeout=FRAME_SECONDS)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None, "the server closed without a close frame"
                return Outcome(closed.rcvd.code, closed.rcvd.reason, frames)
            frames.append(json.loads(raw))
            if frames[-1]["type"] == "welcome":
                return Outcome(None, "", frames)


def told_to_retry(outcome: Outcome, code: str) -> None:
    """Closed with 1013 and a reason, after one error frame with ``code``."""
    assert outcome.close == 1013, outcome
    assert outcome.reason, "the close says why"
    assert [(f["type"], f["code"]) for f in outcome.frames] == [("error", code)], outcome
    assert outcome.frames[0]["message"], outcome


def until(server: LiveServer, code: str, token: str | None, close: int | None) -> Outcome:
    """Try again, as the client does after 1012 or 1013, until an attempt ends in ``close``
    (None: welcomed)."""
    deadline = time.monotonic() + 30
    while True:
        outcome = attempt(server, code, token)
        if outcome.close == close:
            return outcome
        assert outcome.close in (1012, 1013), outcome
        assert time.monotonic() < deadline, f"still {outcome} after 30 s"
        time.sleep(0.2)


def no_traceback(server: LiveServer) -> None:
    log = (server.workdir / f"server-{server.starts}.log").read_text(errors="replace")
    for words in ("Traceback", "Exception in ASGI application", " 500 "):
        assert words not in log, f"{words!r} in the log:\n{server.log_tail(80)}"


def test_a_socket_while_the_database_is_down_is_told_to_try_again(
    live_server: ServerFactory, postgres_cluster: PostgresCluster
) -> None:
    """One process: a table it serves from memory still welcomes; one it would have to load
    cannot be told missing (4404 would make the client give up), so it is "try again"."""
    server = live_server(fresh_database(postgres_cluster))
    created = new_table(server)
    postgres_cluster.stop()
    try:
        told_to_retry(attempt(server, "ZZZZZZ"), "store_down")
        assert attempt(server, created["code"], created["token"]).close is None
        with api(server) as http:
            answer = http.get("/api/tables/ZZZZZZ")
        assert answer.status_code == 503 and answer.json()["code"] == "store_down"
        assert answer.headers["retry-after"] == "1"
    finally:
        postgres_cluster.start()
    until(server, "ZZZZZZ", None, 4404)  # the database says it: there is none
    no_traceback(server)


def test_a_socket_while_redis_is_down_is_told_to_try_again(
    live_server: ServerFactory, postgres_cluster: PostgresCluster, own_redis: RedisServer
) -> None:
    """Two processes: a socket to the one that does not own the table must ask Redis who does."""
    first, second = Site(live_server, postgres_cluster, own_redis.url, 2).servers
    created = new_table(first)
    code, token = created["code"], created["token"]
    own_redis.stop()
    try:
        told_to_retry(attempt(second, code, token), "redis_down")
        with api(second) as http:
            answer = http.get(f"/api/tables/{code}")
        assert answer.status_code == 503 and answer.json()["code"] == "redis_down"
        assert answer.headers["retry-after"] == "1"
    finally:
        own_redis.start()  # empty: every lease is lost, and the table is taken again
    assert until(second, code, token, None).frames[0]["seat"] == 0
    for server in (first, second):
        no_traceback(server)


def test_a_socket_to_a_table_between_owners_is_told_to_try_again(
    live_server: ServerFactory, postgres_cluster: PostgresCluster, redis_url: str
) -> None:
    """The owner of three tables is killed. One is being taken over by the other process (it
    holds the lease, and loads the table); one nobody can take while the database is down;
    one is held by a process Redis says is alive, but which never answers (an open lost with a
    Redis message, an owner stuck). All three answer "try again" until the takeover is done,
    the database is back, and the silent owner's lease is gone."""
    site = Site(live_server, postgres_cluster, redis_url, 2)
    first, second = site.servers
    moving, orphan, silent = new_table(first), new_table(first), new_table(first)
    postgres_cluster.stop()
    try:
        first.kill()
        with redis.Redis.from_url(site.redis_url) as client:
            client.set(f"dudo:lease:{moving['code']}", process_of(second), px=3000)
            client.delete(f"dudo:lease:{orphan['code']}")
            client.set(f"dudo:lease:{silent['code']}", "silent", px=60_000)
            client.set("dudo:node:silent", "1", px=60_000)
        told_to_retry(attempt(second, moving["code"], moving["token"]), "table_moving")
        told_to_retry(attempt(second, orphan["code"], orphan["token"]), "store_down")
    finally:
        postgres_cluster.start()
    told_to_retry(attempt(second, silent["code"], silent["token"]), "table_moving")
    with redis.Redis.from_url(site.redis_url) as client:
        client.delete(f"dudo:lease:{silent['code']}", "dudo:node:silent")
    for table in (moving, orphan, silent):
        assert until(second, table["code"], table["token"], None).frames[0]["seat"] == 0
    no_traceback(second)
