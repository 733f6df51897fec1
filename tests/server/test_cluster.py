"""Several ``dudo serve`` processes serving one site through a real Redis and a real
PostgreSQL (docs/cluster.md): players connected to different processes play one game, a killed
owner's tables are taken over and finish, a process fenced out of a table cannot commit to it,
and SIGTERM hands tables over without losing an action."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest
import redis
from websockets.exceptions import ConnectionClosed

from dudo.records import replay
from dudo.server.wire import event_json

from .conftest import (
    TEST_ARGS,
    Disconnected,
    Json,
    LiveServer,
    Player,
    PostgresCluster,
    ServerFactory,
    api,
    bearer,
    fresh_database,
    get_table,
    hands_keys,
    host_post,
    join,
    new_table,
    play_turns,
    record_of,
    settle,
)


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


def two_people(
    owner: LiveServer, ana_at: LiveServer, bo_at: LiveServer
) -> tuple[str, list[str], list[Player]]:
    """A started game at a table ``owner`` made: Ana (the host), a bot and Bo, Ana connected
    to ``ana_at`` and Bo to ``bo_at``. The code, their tokens, their connections."""
    created = new_table(owner, seats=3, bots=["easy"])
    code = created["code"]
    joined = join(bo_at, code, "Bo")
    ana = Player(ana_at, code, created["token"], name="Ana")
    bo = Player(bo_at, code, joined["token"], name="Bo")
    host_post(owner, code, "start", created["token"])
    return code, [created["token"], joined["token"]], [ana, bo]


def reconnect(server: LiveServer, code: str, token: str, old: Player) -> Player:
    """``old``'s client again, at ``server``, as the web client does it: it says what it has
    seen, and tries again while it is told to (1012: the table is between two owners)."""
    deadline = time.monotonic() + 10
    while True:
        try:
            new = Player(
                server,
                code,
                token,
                since=len(old.events) - 1,
                known=old.events,
                game=old.game,
                name=f"{old.name} again",
            )
            new.sync()
            return new
        except (Disconnected, ConnectionClosed):
            assert time.monotonic() < deadline, f"{old.name} could not reconnect"
            time.sleep(0.2)


def after_close(server: LiveServer, code: str, token: str, old: Player) -> Player:
    """Wait until ``old``'s connection is closed (if it is not yet), then reconnect."""
    with contextlib.suppress(Disconnected):
        old.until(lambda _f: False, "the close", timeout=10)
    return reconnect(server, code, token, old)


def record_stored(server: LiveServer, game_id: int) -> bool:
    with api(server) as http:
        return http.get(f"/api/games/{game_id}/record").status_code == 200


def play_to_the_end(
    server: LiveServer, code: str, players: list[Player], rng: random.Random
) -> None:
    """Play the game on to its end, check every connection against its record, close them."""
    final = play_turns(players, rng)
    assert final["winner"] is not None
    check_against_record(server, code, players)
    for player in players:
        player.close()


def check_against_record(server: LiveServer, code: str, players: list[Player]) -> None:
    """Every connection saw exactly the recorded game's events, once each, in order."""
    record = record_of(server, get_table(server, code)["game"])
    game = replay(record)
    expected = [event_json(i, e, game.rules) for i, e in enumerate(game.events)]
    for player in players:
        assert player.events == expected, f"{player.name}: its events are the record's"


def test_players_on_three_processes_play_one_game_and_see_only_their_own_dice(
    live_server: ServerFactory, postgres_cluster: PostgresCluster, redis_url: str
) -> None:
    first, second, third = Site(live_server, postgres_cluster, redis_url, 3).servers
    created = new_table(first, seats=4, bots=["easy"])
    code = created["code"]
    bo_token = join(second, code, "Bo")["token"]  # joined through the owner
    cy_token = join(third, code, "Cy")["token"]
    ana = Player(first, code, created["token"], name="Ana (owner's process)")
    bo = Player(second, code, bo_token, name="Bo (relayed)")
    cy = Player(third, code, cy_token, name="Cy (relayed)")
    bo_direct = Player(first, code, bo_token, name="Bo's second tab, at the owner")
    spectator = Player(third, code, name="spectator (relayed)")
    host_post(second, code, "start", created["token"])
    final = play_turns([ana, bo, cy], random.Random(5), watchers=(spectator, bo_direct))
    assert final["winner"] is not None
    everyone = (ana, bo, cy, spectator, bo_direct)
    for player in everyone:
        player.sync()
        assert not player.errors(), f"{player.name}: {player.errors()}"
    check_against_record(third, code, list(everyone))
    # A relayed connection gets exactly what a connection to the owner gets for its seat.
    updates = [[f for f in p.frames if f["type"] == "update"] for p in (bo, bo_direct)]
    assert updates[0] == updates[1]
    # Dice are in no frame but the reveal's, and each view holds its own seat's dice only.
    for player in everyone:
        for frame in player.frames:
            assert list(hands_keys(frame)) == [], f"{player.name}: dice outside a reveal"
    assert all(f["view"]["my_dice"] is None for f in spectator.frames if f["type"] == "update")
    for player in everyone:
        player.close()


def test_a_killed_owner_is_replaced_and_the_game_finishes(site: Site) -> None:
    first, second = site.servers
    code, tokens, (ana, bo) = two_people(first, second, second)
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
    players = [
        reconnect(second, code, token, old) for old, token in zip((ana, bo), tokens, strict=True)
    ]
    ana, bo = players
    assert seen is not None and ana.turn is not None and ana.turn >= seen, "nothing seen is lost"
    play_to_the_end(second, code, [ana, bo], rng)


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


def test_the_invitation_and_its_qr_code_are_the_owner_s(site: Site) -> None:
    """The invitation's QR code (not under /api/) is relayed to the table's owner like the
    invitation itself; asked by the same name (behind one proxy), every process answers alike.
    An unknown table is 404 at any process."""
    first, second = site.servers
    code = new_table(first, seats=3)["code"]
    site_name = {"Host": "dudo.example.org"}
    with api(first) as owner, api(second) as other:
        invited = other.get(f"/api/tables/{code}/invite", headers=site_name)
        assert invited.status_code == 200, invited.text
        assert invited.json()["url"] == f"http://dudo.example.org/t/{code}"
        assert invited.json() == owner.get(f"/api/tables/{code}/invite", headers=site_name).json()
        qr = other.get(f"/t/{code}/qr.svg", headers=site_name)
        assert qr.status_code == 200, qr.text
        assert qr.headers["content-type"] == "image/svg+xml"
        assert qr.headers["cache-control"] == "no-store"
        assert qr.text == owner.get(f"/t/{code}/qr.svg", headers=site_name).text
        assert f"<title>http://dudo.example.org/t/{code}</title>" in qr.text
        assert other.get("/t/ZZZZZZ/qr.svg").status_code == 404


def test_a_fenced_out_owner_cannot_commit(site: Site) -> None:
    """The owner's lease is lost while it still thinks it owns the table (as after a long
    pause): another process has raised the fence. Its next write is refused, nothing of it is
    stored, the player is told, and the game goes on with the next owner."""
    first, second = site.servers
    code, tokens, (ana, bo) = two_people(first, first, first)
    rng = random.Random(4)
    mover = settle([ana, bo])
    before = stored_count(site, code)
    with psycopg.connect(site.database_url, autocommit=True) as db:
        db.execute("UPDATE tables SET fence = fence + 1 WHERE code = %s", (code,))
    assert mover.view is not None
    mover.act(mover.view["legal"][0])
    refused = mover.error("the refusal of a move the owner may no longer store")
    assert refused["code"] == "table_moving"
    assert stored_count(site, code) == before, "a fenced-out owner committed nothing"
    for player in (ana, bo):  # told to reconnect once the table is let go
        with pytest.raises(Disconnected):
            player.until(lambda _f: False, "the close", timeout=10)
    players = [
        reconnect(second, code, token, old) for old, token in zip((ana, bo), tokens, strict=True)
    ]
    play_to_the_end(second, code, players, rng)


def stored_count(site: Site, code: str) -> int:
    with psycopg.connect(site.database_url) as db:
        row = db.execute(
            "SELECT count(*) FROM actions JOIN tables ON actions.game_id = tables.game_id "
            "WHERE tables.code = %s",
            (code,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_sigterm_hands_tables_over_without_losing_an_action(site: Site) -> None:
    first, second = site.servers
    code, tokens, (ana, bo) = two_people(first, first, second)  # Bo relayed
    rng = random.Random(9)
    play_turns([ana, bo], rng, stop=lambda view: view["turn"] >= 4)
    mover = settle([ana, bo])
    assert mover.view is not None
    # A move sent as the stop begins is either stored and seen, or refused: never lost.
    mover.act(mover.view["legal"][0])
    stopped = time.monotonic()
    first.stop()
    # The stopping process told the other to take the table now: it does so while the stop
    # finishes, or just after.
    site.wait_for_owner(code, second, within=10 - (time.monotonic() - stopped))
    handed = time.monotonic() - stopped
    players = [
        after_close(second, code, token, old) for old, token in zip((ana, bo), tokens, strict=True)
    ]
    assert handed < 10
    play_to_the_end(second, code, players, rng)


def table_unless_moving(server: LiveServer, code: str) -> Json:
    """The table's JSON, or ``{"status": "moving"}`` while its owner is being replaced."""
    with api(server) as http:
        response = http.get(f"/api/tables/{code}")
    if response.status_code == 503:
        assert response.json()["code"] == "table_moving", response.text
        return {"status": "moving"}
    assert response.status_code == 200, f"table {code}: {response.status_code} {response.text}"
    table: Json = response.json()
    return table


def test_timers_and_stand_ins_survive_the_owner(site: Site) -> None:
    """Nobody is connected: a bot stands in for Ana and two bots play on. The owner is
    killed mid-game; another process takes the table over and the game ends on its own."""
    first, second = site.servers
    created = new_table(first, seats=3, bots=["easy", "easy"], grace_seconds=0, bot_seconds=0.15)
    code = created["code"]
    host_post(first, code, "start", created["token"])
    time.sleep(1.0)
    first.kill()
    deadline = time.monotonic() + 60
    # Over, and its record stored (the table says "over" while the record is being written).
    # Until the other process adopts the table it answers 503 table_moving: never 404.
    while (table := table_unless_moving(second, code))["status"] != "over" or not record_stored(
        second, table["game"]
    ):
        assert time.monotonic() < deadline, f"the game did not finish: {table['status']}"
        time.sleep(0.2)
    record = record_of(second, table["game"])
    game = replay(record)
    assert game.is_over
    assert record["meta"]["stood_in"] == [0]


def test_a_finished_table_is_taken_over_when_asked_for(site: Site) -> None:
    """A table whose game is over waits for its rematch; its owner dies. Nobody adopts such a
    table on the beat (only lobbies and games in play are): the next request for it takes it
    over where it arrives, as a single process loads a finished table."""
    first, second = site.servers
    created = new_table(first, seats=2, bots=["easy"], grace_seconds=0, bot_seconds=0.05)
    code = created["code"]
    host_post(first, code, "start", created["token"])
    deadline = time.monotonic() + 60
    while (table := get_table(first, code))["status"] != "over" or not record_stored(
        first, table["game"]
    ):
        assert time.monotonic() < deadline, f"the game did not finish: {table['status']}"
        time.sleep(0.2)
    first.kill()
    deadline = time.monotonic() + 30
    while (table := table_unless_moving(second, code))["status"] == "moving":
        assert time.monotonic() < deadline, "the finished table was not taken over"
        time.sleep(0.2)
    assert table["status"] == "over" and table["game"] is not None
    site.wait_for_owner(code, second, within=1)


def test_play_now_seats_people_of_two_processes_at_one_table(site: Site) -> None:
    first, second = site.servers
    with api(first) as http:
        ana = http.post("/api/lobby/play", json={"name": "Ana", "preset": "perudo"}).json()
    deadline = time.monotonic() + 5
    with api(second) as http:
        while not any(t["code"] == ana["code"] for t in http.get("/api/lobby").json()["tables"]):
            assert time.monotonic() < deadline, "the other process lists the table"
            time.sleep(0.05)
        bo = http.post("/api/lobby/play", json={"name": "Bo", "preset": "perudo"})
    assert bo.status_code == 201, bo.text
    assert bo.json()["code"] == ana["code"]
    assert bo.json()["created"] is False
    table = get_table(first, ana["code"])
    assert [s["name"] for s in table["seats"] if s["kind"] == "human"] == ["Ana", "Bo"]


def test_workers_on_one_machine_serve_one_site(
    live_server: ServerFactory, postgres_cluster: PostgresCluster, redis_url: str
) -> None:
    """``dudo serve --workers 2``: two processes behind one port. A killed worker is
    replaced by uvicorn, its tables by the other worker, and the game goes on."""
    Site.counter += 1
    redis_db = f"{redis_url}/{Site.counter % 16}"
    with redis.Redis.from_url(redis_db) as client:
        client.flushdb()
    server = live_server(
        fresh_database(postgres_cluster), [*TEST_ARGS, "--redis-url", redis_db, "--workers", "2"]
    )
    deadline = time.monotonic() + 20
    seen: set[str] = set()
    while len(seen) < 2:  # both workers answer on the one port
        assert time.monotonic() < deadline, f"only {seen} answered"
        with httpx.Client(base_url=server.url, trust_env=False) as http:  # a new connection
            seen.add(http.get("/healthz").json()["process"])
    code, tokens, (ana, bo) = two_people(server, server, server)
    rng = random.Random(2)
    play_turns([ana, bo], rng, stop=lambda view: view["turn"] >= 4)
    with redis.Redis.from_url(redis_db) as client:
        owner = client.get(f"dudo:lease:{code}")
    assert owner is not None
    victim = int(owner.decode().rsplit("-", 2)[1])  # a process's name holds its pid
    os.kill(victim, signal.SIGKILL)
    players = [
        after_close(server, code, token, old) for old, token in zip((ana, bo), tokens, strict=True)
    ]
    play_to_the_end(server, code, players, rng)
