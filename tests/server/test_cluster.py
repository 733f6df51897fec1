"""Several ``dudo serve`` processes serving one site through a real Redis and a real
PostgreSQL (docs/cluster.md): players connected to different processes play one game, a killed
owner's tables are taken over and finish, a process fenced out of a table cannot commit to it,
and SIGTERM hands tables over without losing an action."""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from dudo.records import replay
from dudo.server.wire import event_json

from .conftest import (
    HOST,
    TEST_ARGS,
    Disconnected,
    LiveServer,
    Player,
    PostgresCluster,
    ServerFactory,
    api,
    bearer,
    free_port,
    fresh_database,
    get_table,
    host_post,
    join,
    new_table,
    play_turns,
    record_of,
)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A throwaway ``redis-server`` on 127.0.0.1 and a random port, without persistence."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed (.ci/run installs Debian's redis-server)")
    home = Path(tempfile.mkdtemp(prefix="dudo-redis-"))
    for _attempt in range(3):
        port = free_port()
        process = subprocess.Popen(
            [binary, "--bind", HOST, "--port", str(port), "--save", "", "--appendonly", "no"],
            cwd=home,
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
            break
    else:
        raise AssertionError("redis-server did not start")
    try:
        yield f"redis://{HOST}:{port}"
    finally:
        process.kill()
        process.wait()
        shutil.rmtree(home, ignore_errors=True)


class Site:
    """Several server processes on one database and one Redis database (its own number, so
    tests do not share leases)."""

    counter = 0

    def __init__(
        self, live_server: ServerFactory, postgres: PostgresCluster, redis_base: str, count: int
    ) -> None:
        Site.counter += 1
        self.redis_url = f"{redis_base}/{Site.counter % 16}"
        with redis.Redis.from_url(self.redis_url) as client:
            client.flushdb()
        self.database_url = fresh_database(postgres)
        self.servers = [
            live_server(self.database_url, [*TEST_ARGS, "--redis-url", self.redis_url])
            for _ in range(count)
        ]

    def owner(self, code: str) -> LiveServer:
        """The process that owns table ``code`` now."""
        with redis.Redis.from_url(self.redis_url) as client:
            node = client.get(f"dudo:lease:{code}")
        assert node is not None, f"nobody owns {code}"
        for server in self.servers:
            if server.running and process_of(server) == node.decode():
                return server
        raise AssertionError(f"no running server is process {node.decode()}")

    def wait_for_owner(self, code: str, server: LiveServer, within: float) -> None:
        deadline = time.monotonic() + within
        with redis.Redis.from_url(self.redis_url) as client:
            while (node := client.get(f"dudo:lease:{code}")) is None or node.decode() != (
                process_of(server)
            ):
                assert time.monotonic() < deadline, f"{code} not taken over within {within} s"
                time.sleep(0.02)


def process_of(server: LiveServer) -> str:
    with api(server) as http:
        process: str = http.get("/healthz").json()["process"]
    return process


@pytest.fixture
def site(
    live_server: ServerFactory, postgres_cluster: PostgresCluster, redis_url: str
) -> Iterator[Site]:
    yield Site(live_server, postgres_cluster, redis_url, 2)


def check_against_record(server: LiveServer, code: str, players: list[Player]) -> None:
    """Every connection saw exactly the recorded game's events, once each, in order."""
    record = record_of(server, get_table(server, code)["game"])
    game = replay(record)
    expected = [event_json(i, e, game.rules) for i, e in enumerate(game.events)]
    for player in players:
        assert player.events == expected, f"{player.name}: its events are the record's"


def test_players_on_two_processes_play_one_game(site: Site) -> None:
    first, second = site.servers
    created = new_table(first, seats=3, bots=["easy"])
    code = created["code"]
    assert site.owner(code) is first
    joined = join(second, code, "Bo")  # relayed to the owner
    ana = Player(first, code, created["token"], name="Ana (owner's process)")
    bo = Player(second, code, joined["token"], name="Bo (relayed)")
    spectator = Player(second, code, name="spectator (relayed)")
    host_post(second, code, "start", created["token"])
    final = play_turns([ana, bo], random.Random(5), watchers=(spectator,))
    assert final["winner"] is not None
    for player in (ana, bo, spectator):
        player.sync()
        assert not player.errors(), f"{player.name}: {player.errors()}"
    check_against_record(second, code, [ana, bo, spectator])
    # Each seat's view comes from the owner: Bo's own dice, never Ana's.
    assert get_table(second, code)["status"] == "over"
    for player in (ana, bo, spectator):
        player.close()


def test_a_killed_owner_is_replaced_and_the_game_finishes(site: Site) -> None:
    first, second = site.servers
    created = new_table(first, seats=3, bots=["easy"])
    code = created["code"]
    joined = join(first, code, "Bo")
    ana = Player(second, code, created["token"], name="Ana")
    bo = Player(second, code, joined["token"], name="Bo")
    host_post(first, code, "start", created["token"])
    rng = random.Random(8)
    play_turns([ana, bo], rng, stop=lambda view: view["turn"] >= 6)
    seen = ana.turn
    dead = process_of(first)
    first.kill()
    killed = time.monotonic()
    # The relayed connections are closed with 1012 once the owner's lease has run out and the
    # table has a new owner; the clients reconnect and say what they have seen.
    for old in (ana, bo):
        with pytest.raises(Disconnected):
            old.until(lambda _f: False, "the close", timeout=10)
    closed = time.monotonic() - killed
    assert closed < 5.0, f"clients told to reconnect {closed:.1f} s after the kill"
    site.wait_for_owner(code, second, within=5.0 - closed)
    assert process_of(second) != dead
    players = []
    for old, token in ((ana, created["token"]), (bo, joined["token"])):
        new = Player(
            second,
            code,
            token,
            since=len(old.events) - 1,
            known=old.events,
            game=old.game,
            name=f"{old.name} again",
        )
        players.append(new)
    ana, bo = players
    update = ana.until(lambda f: f["type"] == "update", "the update after the takeover")
    assert seen is not None and update["view"]["turn"] >= seen
    final = play_turns([ana, bo], rng)
    assert final["winner"] is not None
    check_against_record(second, code, [ana, bo])
    for player in (ana, bo):
        player.close()


def test_relayed_requests_answer_like_the_owner(site: Site) -> None:
    first, second = site.servers
    created = new_table(first, seats=3)
    code = created["code"]
    with api(second) as http:
        table = http.get(f"/api/tables/{code}")
        assert table.status_code == 200
        assert table.json()["code"] == code
        refused = http.post(f"/api/tables/{code}/start", headers=bearer("not-the-host"))
        assert refused.status_code == 401
        assert refused.json()["code"]
    with httpx.Client(base_url=second.url, trust_env=False) as http:
        missing = http.get("/api/tables/ZZZZZZ")
    assert missing.status_code == 404
