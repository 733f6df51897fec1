"""The server never falls over and never freezes a table: a game its rules refuse is never
stored, a table that cannot be resumed is set aside while the others are served, a failing or
slow database (a fault behind the real store, a SQLite lock held by another process, a
PostgreSQL restart) changes nothing and holds up only the tables that write, and every
automatic move is retried until the store answers. Real servers, real databases."""

from __future__ import annotations

import random
import sqlite3
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest
import sqlalchemy as sa

from dudo.cup import Cup
from dudo.records import replay
from dudo.server.storage import ActionWrite, RatingChange, Store, StoredSeat
from dudo.server.wire import event_json

from .conftest import (
    InProcessServer,
    Json,
    LiveServer,
    Player,
    PostgresCluster,
    ServerFactory,
    api,
    bearer,
    fresh_database,
    get_table,
    host_post,
    join,
    limits_with,
    new_table,
    play_turns,
    settle,
)

InProcess = Callable[..., InProcessServer]


def detail(response: Any) -> str:
    body = response.json()
    assert isinstance(body, dict) and isinstance(body.get("detail"), str), response.text
    text: str = body["detail"]
    return text


def games_in(server: LiveServer) -> int:
    with sqlite3.connect(server.sqlite_path) as db:
        (count,) = db.execute("SELECT count(*) FROM games").fetchone()
    db.close()
    return int(count)


def ping_ms(player: Player) -> float:
    start = time.monotonic()
    player.sync()
    return (time.monotonic() - start) * 1000


def heads_up(server: LiveServer, **body: Any) -> tuple[str, Player]:
    """A started table of Ana (or ``name``) against one bot, connected: its code, and her
    connection (``.token`` is her seat token)."""
    body.setdefault("seats", 2)
    body.setdefault("bots", ["easy"])
    created = new_table(server, **body)
    code, token = created["code"], created["token"]
    ana = Player(server, code, token, name=body.get("name", "Ana"))
    host_post(server, code, "start", token)
    ana.until(lambda f: f["type"] == "update", "the first update")
    return code, ana


def ana_to_move(ana: Player) -> str:
    """Bring Ana to her turn with a standing bid she can raise, or an opening bid; a bid that
    does not end the round (so the bot moves next)."""
    settle([ana])
    assert ana.view is not None
    bid: str = next(a for a in ana.view["legal"] if "x" in a and "reveal" not in a)
    return bid


def store_state(player: Player, want: str, timeout: float) -> Json:
    """Read until the table says its store is in state ``want``."""
    if player.table is not None and player.table.get("store") == want:
        return player.table
    return player.until(
        lambda f: f["type"] == "table" and f["table"]["store"] == want,
        f"the table saying store={want}",
        timeout,
    )


def finish_and_check_record(server: LiveServer, ana: Player, seed: int) -> None:
    """Play the game to its end; its record replays to exactly the events Ana saw."""
    final = play_turns([ana], random.Random(seed))
    assert final["winner"] is not None
    with api(server) as http:
        game_id = get_table(server, ana_code(ana))["game"]
        record = http.get(f"/api/games/{game_id}/record").json()
    game = replay(record)
    assert len(game.history) == final["turn"]
    assert ana.events == [event_json(i, e, game.rules) for i, e in enumerate(game.events)]


def ana_code(player: Player) -> str:
    assert player.table is not None
    code: str = player.table["code"]
    return code


# ------------------------------------------------------------------- 1. the poison table


def test_a_game_its_rules_refuse_is_never_stored_and_the_server_restarts(
    live_server: ServerFactory,
) -> None:
    server = live_server()
    created = new_table(server, seats=3, bots=["easy"], options={"min_players": 3})
    code, token = created["code"], created["token"]
    with api(server) as http:
        for _ in range(3):  # each retry used to add an orphan game row
            response = http.post(f"/api/tables/{code}/start", headers=bearer(token))
            assert response.status_code == 409, response.text
            assert "three seats" in detail(response) and "add a bot" in detail(response)
    assert games_in(server) == 0, "nothing is stored for a game that cannot start"
    server.restart()
    assert get_table(server, code)["status"] == "lobby"
    join(server, code, "Bo")
    assert host_post(server, code, "start", token)["status"] == "playing"


def test_a_table_that_cannot_be_resumed_is_set_aside_and_the_rest_is_served(
    live_server: ServerFactory,
) -> None:
    server = live_server()
    good_code, ana = heads_up(server)
    good_token = ana.token
    ana_to_move(ana)
    bad = {}
    for name in ("rules", "action"):
        code, player = heads_up(server, name="Carla")
        ana_to_move(player)
        bad[name] = (code, get_table(server, code)["game"])
        player.close()
    ana.close()
    server.stop()
    # What a newer rule, an older version or a hand edit can leave behind: the stored house
    # rules now refuse the game's players, and a stored action the engine refuses.
    with sqlite3.connect(server.sqlite_path) as db:
        db.execute(
            "UPDATE tables SET options = ? WHERE code = ?", ('{"min_players": 4}', bad["rules"][0])
        )
        db.execute(
            "INSERT OR REPLACE INTO actions (game_id, seq, player, action, at) "
            "VALUES (?, 0, 0, '99x6', 0)",
            (bad["action"][1],),
        )
    db.close()

    server.start()
    log = server.log_tail(200)
    for code, _game in bad.values():
        assert f"table {code} could not be resumed and is set aside" in log, log
        table = get_table(server, code)
        assert table["status"] == "broken" and table["problem"], table
        assert table["problem_code"] == "cannot_resume", table  # what a client words
        watcher = Player(server, code, name="watcher")
        assert watcher.table is not None and watcher.table["status"] == "broken"
        watcher.close()
    assert "min_players" in get_table(server, bad["rules"][0])["problem"]
    assert "99x6" in get_table(server, bad["action"][0])["problem"]
    with api(server) as http:
        response = http.post(f"/api/tables/{bad['rules'][0]}/join", json={"name": "Dan"})
        assert response.status_code == 409 and "new table" in detail(response)
        assert response.json()["code"] == "table_broken", response.text
    # The good table plays on to the end.
    back = Player(server, good_code, good_token, name="Ana back")
    finish_and_check_record(server, back, seed=1)
    back.close()


# ------------------------------------------------------------- 2. faults behind the store


class FaultyStore(Store):
    """The real store, with switches that make some of its writes fail (as a full disk or a
    lost connection does) or slow for one game (as a held lock does)."""

    WRITES = ("add_action", "save_seat", "finish_game", "create_table", "start_game", "save_cup")

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.failing: set[str] = set()
        self.slow_games: dict[int, float] = {}
        self.finish_seconds = 0.0  # how long storing a finished game's record takes
        self.failures = 0

    def fail(self, *methods: str) -> None:
        """Make these writes fail from now on (all of them when none is named)."""
        self.failing = set(methods or self.WRITES)

    def heal(self) -> None:
        self.failing = set()

    def _fault(self, method: str) -> None:
        if method in self.failing:
            self.failures += 1
            raise sa.exc.OperationalError("INSERT", {}, Exception("disk I/O error (injected)"))

    def add_action(self, code: str, game_id: int, seq: int, player: int, action: str) -> None:
        self._fault("add_action")
        time.sleep(self.slow_games.get(game_id, 0.0))
        super().add_action(code, game_id, seq, player, action)

    def try_add_actions(self, writes: Sequence[ActionWrite]) -> list[bool] | None:
        # A failing or held database makes the quick path give way to add_action, as a real
        # one does (the write lock is taken, or the insert fails).
        if "add_action" in self.failing or any(self.slow_games.get(w.game_id) for w in writes):
            return None
        return super().try_add_actions(writes)

    def save_seat(self, code: str, seat: StoredSeat, *args: Any) -> None:
        self._fault("save_seat")
        super().save_seat(code, seat, *args)

    def finish_game(self, *args: Any) -> dict[int, RatingChange]:
        self._fault("finish_game")
        time.sleep(self.finish_seconds)
        return super().finish_game(*args)

    def create_table(self, *args: Any) -> None:
        self._fault("create_table")
        super().create_table(*args)

    def start_game(self, *args: Any) -> int:
        self._fault("start_game")
        return super().start_game(*args)

    def save_cup(self, cup_id: str, cup: Cup) -> None:
        self._fault("save_cup")
        super().save_cup(cup_id, cup)


def faulty(server: InProcessServer) -> FaultyStore:
    store = server.app.state.hall.store
    assert isinstance(store, FaultyStore)
    return store


def test_a_failed_write_changes_nothing_and_the_bot_moves_once_the_store_answers(
    in_process: InProcess,
) -> None:
    server = in_process(store_factory=FaultyStore)
    store = faulty(server)
    _code, ana = heads_up(server, bot_seconds=1.0)
    bid = ana_to_move(ana)
    turn = ana.turn
    assert turn is not None

    store.fail()
    ana.act(bid)
    error = ana.error("the refusal of a move the store did not take")
    assert error["code"] == "store_unavailable" and "again" in error["message"], error
    assert not ana.updates_since_sync() and ana.turn == turn, "nothing changed"

    store.heal()
    ana.act(bid)
    ana.wait_turn(turn + 1)
    store.fail()  # before the bot, a second later, writes its move
    store_state(ana, "retrying", timeout=5)
    time.sleep(2)
    assert ana.turn == turn + 1 and not ana.updates_since_sync(), "the bot waits for the store"
    store.heal()
    ana.wait_turn(turn + 2, timeout=10)  # the retry goes through
    store_state(ana, "ok", timeout=5)
    assert store.failures >= 2
    finish_and_check_record(server, ana, seed=3)


def test_requests_whose_write_fails_get_503_saying_to_try_again_and_change_nothing(
    in_process: InProcess,
) -> None:
    server = in_process(store_factory=FaultyStore)
    store = faulty(server)
    created = new_table(server, seats=3, bots=["easy"])
    code, token = created["code"], created["token"]
    with api(server) as http:
        cup = http.post("/api/cups").json()
        store.fail()
        answers = [
            http.post("/api/tables", json={"name": "Bo"}),
            http.post(f"/api/tables/{code}/join", json={"name": "Bo"}),
            http.post(f"/api/tables/{code}/bots", json={}, headers=bearer(token)),
            http.post(f"/api/tables/{code}/start", headers=bearer(token)),
            http.post(f"/api/cups/{cup['id']}/roll", headers=bearer(cup["token"])),
        ]
        for response in answers:
            where = f"{response.request.method} {response.request.url.path}"
            assert response.status_code == 503, (where, response.text)
            assert "nothing was changed" in detail(response) and "try again" in detail(response)
        store.heal()
        table = get_table(server, code)
        assert table["status"] == "lobby" and [s["kind"] for s in table["seats"]] == [
            "human",
            "bot",
            "open",
        ], "nothing changed"
        assert (
            http.get(f"/api/cups/{cup['id']}", headers=bearer(cup["token"])).json()["cup"]
            == (cup["cup"])
        )
        assert host_post(server, code, "start", token)["status"] == "playing"


def test_timer_stand_in_and_record_writes_are_retried(in_process: InProcess) -> None:
    server = in_process(store_factory=FaultyStore)
    store = faulty(server)
    created = new_table(
        server, seats=3, bots=["easy"], turn_seconds=1, grace_seconds=1, bot_seconds=0
    )
    code, token = created["code"], created["token"]
    bo_token = join(server, code, "Bo")["token"]
    ana = Player(server, code, token, name="Ana")
    bo = Player(server, code, bo_token, name="Bo")
    host_post(server, code, "start", token)
    ana.until(lambda f: f["type"] == "update", "the first update")
    bo.close()  # Bo leaves: after 1 s a stand-in should take his seat
    store.fail()  # ...and Ana's timer should play for her: neither can be stored
    store_state(ana, "retrying", timeout=8)
    turn = ana.turn
    time.sleep(2)
    assert ana.turn == turn, "no move is made that the store did not take"
    assert seat_named(get_table(server, code), "Bo")["autoplay"] is False, (
        "the stand-in waits for the store too"
    )
    store.heal()
    ana.until(
        lambda f: f["type"] == "table" and seat_named(f["table"], "Bo").get("autoplay") is True,
        "Bo's stand-in",
        timeout=10,
    )
    ana.wait_turn((turn or 0) + 1, timeout=10)
    # The game's last action is stored but its record is not: it is retried until stored.
    # (Failing it only once two are left would race the bots when Ana is the one knocked out:
    # they finish the game at once.)
    store.fail("finish_game")
    play_turns([ana], random.Random(5), stop=lambda v: sum(c > 0 for c in v["dice_counts"]) == 2)
    final = play_turns([ana], random.Random(6))
    assert final["winner"] is not None
    with api(server) as http:
        game_id = get_table(server, code)["game"]
        assert http.get(f"/api/games/{game_id}/record").status_code == 404
        store.heal()
        store_state(ana, "ok", timeout=10)
        record = http.get(f"/api/games/{game_id}/record").json()
    assert replay(record).winner == final["winner"]


def test_a_table_says_over_only_once_its_record_can_be_fetched(in_process: InProcess) -> None:
    """Whoever reads that a game is over may fetch its record at once: while the record is
    being stored (slowly here), the table does not say "over" yet."""
    server = in_process(store_factory=FaultyStore)
    faulty(server).finish_seconds = 1.0
    code, ana = heads_up(server)
    # (the table's status, the record's answer when over, when it was read)
    seen: list[tuple[str, int, float]] = []
    done = threading.Event()

    def watch() -> None:
        with api(server) as http:
            while not done.is_set():
                table = http.get(f"/api/tables/{code}").json()
                answer = 0
                if table["status"] == "over":
                    answer = http.get(f"/api/games/{table['game']}/record").status_code
                seen.append((table["status"], answer, time.monotonic()))
                time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        final = play_turns([ana], random.Random(3))
        assert final["winner"] is not None
        time.sleep(0.2)
    finally:
        done.set()
        watcher.join(10)
    over = [answer for status, answer, _ in seen if status == "over"]
    assert over and set(over) == {200}, seen[-60:]
    # The watcher kept reading the table while the game was played and its record stored
    # (1 s): timed, not counted, since how many reads fit in that time depends on the machine.
    playing = [at for status, _, at in seen if status == "playing"]
    assert len(playing) > 1 and playing[-1] - playing[0] > 0.8, seen[-60:]


def test_a_slow_store_holds_up_only_the_table_that_writes(in_process: InProcess) -> None:
    server = in_process(store_factory=FaultyStore)
    store = faulty(server)
    slow_code, ana = heads_up(server, bot_seconds=0)
    _fast_code, bo = heads_up(server, name="Bo", bot_seconds=0)
    quiet = [ping_ms(bo) for _ in range(10)]
    store.slow_games[get_table(server, slow_code)["game"]] = 4.0
    bid = ana_to_move(ana)
    turn = ana.turn or 0
    ana.act(bid)  # its write takes 4 s
    started = time.monotonic()
    loaded = [ping_ms(bo) for _ in range(20)]
    bo_bid = ana_to_move(bo)
    bo_turn = bo.turn or 0
    moved = time.monotonic()
    bo.act(bo_bid)
    bo.wait_turn(bo_turn + 1, timeout=2)
    bo_move_ms = (time.monotonic() - moved) * 1000
    assert time.monotonic() - started < 3.5, "all that happened while Ana's write was waiting"
    ana.wait_turn(turn + 1, timeout=10)
    assert time.monotonic() - started >= 3.5, "Ana's move waited for its write"
    assert max(loaded) < 500 and statistics.median(loaded) < max(50.0, 10 * max(quiet)), (
        f"pings at another table: {loaded} (quiet: {quiet})"
    )
    assert bo_move_ms < 1000, f"a move at another table took {bo_move_ms:.0f} ms"


# ------------------------------------------- 3. a real lock and a real database restart


def test_a_sqlite_lock_held_by_another_process(live_server: ServerFactory) -> None:
    server = live_server()
    _code, ana = heads_up(server, bot_seconds=1.0)
    _other, bo = heads_up(server, name="Bo", bot_seconds=1.0)
    settle([bo])
    bid = ana_to_move(ana)
    turn = ana.turn or 0
    holder = sqlite3.connect(server.sqlite_path, isolation_level=None, timeout=10)
    try:
        holder.execute("BEGIN EXCLUSIVE")  # this process holds the write lock
        ana.act(bid)
        pings = [ping_ms(bo) for _ in range(10)]
        error = ana.error("the refusal while the database is locked", timeout=15)
        assert error["code"] == "store_unavailable", error
        assert max(pings) < 500, f"another table's pings while the lock was held: {pings}"
        holder.execute("ROLLBACK")
        ana.act(bid)
        ana.wait_turn(turn + 1)
        holder.execute("BEGIN EXCLUSIVE")  # before the bot writes its move, for 8 s
        store_state(ana, "retrying", timeout=10)
        time.sleep(max(0.0, 8 - 4))
        assert ana.turn == turn + 1
    finally:
        holder.execute("ROLLBACK") if holder.in_transaction else None
        holder.close()
    released = time.monotonic()
    ana.wait_turn(turn + 2, timeout=15)
    assert time.monotonic() - released < 10, "the bot moves soon after the lock is released"
    store_state(ana, "ok", timeout=5)
    finish_and_check_record(server, ana, seed=11)
    assert "Traceback" not in server.log_tail(400)


def test_a_postgresql_restart(
    live_server: ServerFactory, postgres_cluster: PostgresCluster
) -> None:
    server = live_server(fresh_database(postgres_cluster))
    _code, ana = heads_up(server, bot_seconds=1.0)
    bid = ana_to_move(ana)
    turn = ana.turn or 0
    ana.act(bid)
    ana.wait_turn(turn + 1)
    postgres_cluster.stop()  # before the bot writes its move
    try:
        store_state(ana, "retrying", timeout=15)
        time.sleep(3)
        assert ana.turn == turn + 1
        assert max(ping_ms(ana) for _ in range(5)) < 500, "the server answers meanwhile"
    finally:
        postgres_cluster.start()
    ana.wait_turn(turn + 2, timeout=20)
    store_state(ana, "ok", timeout=10)
    finish_and_check_record(server, ana, seed=13)
    assert "Traceback" not in server.log_tail(400)


# --------------------------------------------------------------------- 4. stand-ins


def seat_named(table: Json, name: str) -> Json:
    """The seat of ``name`` (an empty one if nobody of that name sits at the table)."""
    seat: Json = next((s for s in table["seats"] if s["name"] == name), {})
    return seat


def test_no_phantom_after_a_kick_and_a_stand_in_for_who_never_connects(
    shared_server: LiveServer,
) -> None:
    server = shared_server
    created = new_table(server, seats=3, grace_seconds=1, bot_seconds=0)
    code, token = created["code"], created["token"]
    ana = Player(server, code, token, name="Ana")
    bo_seat = join(server, code, "Bo")
    bo = Player(server, code, bo_seat["token"], name="Bo")
    with api(server) as http:
        kicked = http.delete(f"/api/tables/{code}/seats/{bo_seat['seat']}", headers=bearer(token))
        assert kicked.status_code == 200, kicked.text
    assert bo.ws.close_code is None, "the kicked connection stays open, watching"
    carla = join(server, code, "Carla")
    assert carla["seat"] == bo_seat["seat"], "Carla takes the seat Bo left"
    table = get_table(server, code)
    assert seat_named(table, "Carla")["connected"] is False, "Bo's connection is not hers"
    with api(server) as http:
        assert http.post(f"/api/tables/{code}/bots", json={}, headers=bearer(token)).is_success
    host_post(server, code, "start", token)
    # Carla never opens the table: after the grace period a bot plays for her.
    ana.until(
        lambda f: f["type"] == "table" and seat_named(f["table"], "Carla").get("autoplay") is True,
        "Carla's stand-in",
        timeout=6,
    )
    final = play_turns([ana], random.Random(2))
    assert final["winner"] is not None
    bo.close()
    ana.close()


def test_a_player_kicked_mid_game_cannot_act_and_a_bot_plays_on(
    shared_server: LiveServer,
) -> None:
    server = shared_server
    created = new_table(server, seats=3, bots=["easy"], bot_seconds=0)
    code, token = created["code"], created["token"]
    bo_seat = join(server, code, "Bo")
    ana = Player(server, code, token, name="Ana")
    bo = Player(server, code, bo_seat["token"], name="Bo")
    host_post(server, code, "start", token)
    for p in (ana, bo):
        p.until(lambda f: f["type"] == "update", "the first update")
    with api(server) as http:
        assert http.delete(
            f"/api/tables/{code}/seats/{bo_seat['seat']}", headers=bearer(token)
        ).is_success
    bo.until(lambda f: f["type"] == "update" and f["view"]["viewer"] is None, "a spectator view")
    bo.act("call", turn=bo.turn)
    assert bo.error()["code"] in ("not_a_player",)
    final = play_turns([ana], random.Random(4), watchers=(bo,))
    assert final["winner"] is not None
    assert seat_named(get_table(server, code), "Bo (bot)")["kind"] == "bot"


# ------------------------------------------------------------------- 5. spectators


def test_spectators_are_capped_and_a_crowd_costs_the_players_nothing(
    in_process: InProcess,
) -> None:
    server = in_process(limits=limits_with(max_spectators=20))
    created = new_table(server, seats=2, bots=["easy"])
    code, token = created["code"], created["token"]
    ana = Player(server, code, token, name="Ana")
    ana.sync()
    crowd = [Player(server, code, name=f"spectator {i}") for i in range(20)]
    tables_for_ana = [f for f in ana.sync() if f["type"] == "table"]
    assert len(tables_for_ana) <= 1, f"{len(tables_for_ana)} table frames for 20 spectators"
    late = Player(server, code, hello=False, name="one too many")
    late.send({"type": "hello", "token": None, "since": -1})
    error = late.error("the refusal of one spectator too many")
    assert error["code"] == "full" and "try again later" in error["message"], error
    with pytest.raises(Exception, match="1013"):
        late.until(lambda _f: False, "the close", timeout=5)
    seated = Player(server, code, token, name="Ana again")  # seats are never refused
    assert seated.welcome is not None and seated.welcome["seat"] == 0
    ana.until(
        lambda f: f["type"] == "table" and f["table"]["spectators"] == 20,
        "the spectator count, in the next table frame",
        timeout=3,
    )
    for p in [*crowd, seated, ana]:
        p.close()


# -------------------------------------------------------------------- 6. retention


def test_finished_tables_leave_memory_and_come_back_when_opened(in_process: InProcess) -> None:
    limits = limits_with(finished_table_minutes=0.5 / 60, sweep_seconds=0.2)
    server = in_process(limits=limits)
    created = new_table(server, seats=2, bots=["easy"])
    code, token = created["code"], created["token"]
    ana = Player(server, code, token, name="Ana")
    host_post(server, code, "start", token)
    final = play_turns([ana], random.Random(8))
    assert final["winner"] is not None

    def in_memory() -> bool:
        return bool(server.call(lambda: code in server.app.state.hall.tables))

    time.sleep(1.5)
    assert in_memory(), "not while Ana is connected"
    ana.close()
    deadline = time.monotonic() + 5
    while in_memory():
        assert time.monotonic() < deadline, "the finished table stayed in memory"
        time.sleep(0.1)
    table = get_table(server, code)
    assert table["status"] == "over" and in_memory(), "it loads again when opened"
    again = Player(server, code, token, name="Ana back")
    update = again.until(lambda f: f["type"] == "update", "the final state")
    assert update["view"]["winner"] == final["winner"]
    assert host_post(server, code, "ready", token)["seats"][0]["ready"] is True
    assert host_post(server, code, "rematch", token)["status"] == "playing"
    again.close()


def test_idle_lobbies_are_closed_and_unused_cups_deleted(in_process: InProcess) -> None:
    limits = limits_with(idle_lobby_hours=1 / 3600, cup_days=1 / 86400, sweep_seconds=0.2)
    server = in_process(limits=limits)
    idle = new_table(server)["code"]
    busy = new_table(server)
    watcher = Player(server, busy["code"], busy["token"], name="Ana")
    with api(server) as http:
        cup = http.post("/api/cups").json()
        time.sleep(2.0)
        assert http.get(f"/api/tables/{idle}").status_code == 404, "the idle lobby is closed"
        assert http.get(f"/api/tables/{busy['code']}").status_code == 200, "not a busy one"
        auth = bearer(cup["token"])
        assert http.get(f"/api/cups/{cup['id']}", headers=auth).status_code == 404
    watcher.close()


def test_a_restart_loads_no_finished_table_until_it_is_opened(in_process: InProcess) -> None:
    first = in_process()
    created = new_table(first, seats=2, bots=["easy"])
    code, token = created["code"], created["token"]
    ana = Player(first, code, token, name="Ana")
    host_post(first, code, "start", token)
    assert play_turns([ana], random.Random(9))["winner"] is not None
    lobby = new_table(first)["code"]
    ana.close()
    first.stop()

    second = in_process(database_url=f"sqlite:///{first.workdir / 'dudo.sqlite3'}")
    loaded = second.call(lambda: set(second.app.state.hall.tables))
    assert loaded == {lobby}, "at start only lobbies and games in play are loaded"
    assert get_table(second, code)["status"] == "over"
    assert second.call(lambda: code in second.app.state.hall.tables)
