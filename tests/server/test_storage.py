"""What the server keeps survives it: a game (and a dice cup) stopped and resumed on SQLite and
on PostgreSQL, migrations on an existing database, and the store refusing an action twice."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from dudo.cup import Cup
from dudo.records import replay
from dudo.server.storage import (
    ActionWrite,
    AsyncStore,
    CommitPacing,
    FencedOut,
    Store,
    StoredSeat,
    StoreUnavailable,
)

from .conftest import (
    Disconnected,
    Json,
    LiveServer,
    Match,
    Player,
    ServerFactory,
    api,
    get_table,
    play_turns,
)


def snapshot(server: LiveServer, code: str, tokens: dict[str, str | None]) -> dict[str, Any]:
    """Each seat's (and a spectator's) view and events, from a fresh connection."""
    out: dict[str, Any] = {}
    for name, token in tokens.items():
        with Player(server, code, token, name=name) as p:
            p.until(lambda f: f["type"] == "update", f"{name}'s update")
            out[name] = (p.welcome, p.view, p.events)
    return out


def steady(table: Json) -> Json:
    """The table without what depends on who is connected right now, or on when it was told."""
    seats = [{k: v for k, v in s.items() if k != "connected"} for s in table["seats"]]
    return {k: v for k, v in table.items() if k not in ("spectators", "version")} | {"seats": seats}


def test_a_game_and_a_cup_survive_a_restart(live_server: ServerFactory, db_url: str) -> None:
    server = live_server(db_url)
    match = Match(server)
    waiting = lambda v: v["turn"] >= 12 and any(p.view and p.view["legal"] for p in match.players)  # noqa: E731
    play_turns(match.players, random.Random(31), stop=waiting)  # stopped where no bot moves
    turn = match.ana.turn
    assert turn is not None and turn >= 12
    tokens = {"Ana": match.host_token, "Bo": match.bo_token, "spectator": None}
    before = snapshot(server, match.code, tokens)
    table_before = get_table(server, match.code)
    with api(server) as http:  # a dice cup, rolled, one die lost, covered
        cup = http.post("/api/cups").json()
        auth = {"Authorization": f"Bearer {cup['token']}"}
        for op in ("roll", "remove", "hide"):
            cup_before = http.post(f"/api/cups/{cup['id']}/{op}", headers=auth).json()["cup"]
    assert cup_before["count"] == 4 and len(cup_before["dice"]) == 4 and cup_before["hidden"]
    assert before["Ana"][1]["turn"] == turn

    server.restart()  # SIGTERM (the players still connected), then a new process
    for p in match.players:
        with pytest.raises(Disconnected):
            p.until(lambda _f: False, "the close at shutdown", timeout=5)
    after = snapshot(server, match.code, tokens)
    for name in tokens:
        welcome, view, events = after[name]
        assert welcome == before[name][0], f"{name} has the same seat"
        assert view["turn"] == turn, f"{name}: the turn after the restart"
        assert events == before[name][2], f"{name}: the same events"
        assert view == before[name][1], f"{name}: the same view after the restart"
    assert steady(get_table(server, match.code)) == steady(table_before)
    with api(server) as http:
        cup_after = http.get(f"/api/cups/{cup['id']}", headers=auth)
        assert cup_after.status_code == 200 and cup_after.json()["cup"] == cup_before
        forged = http.get(f"/api/cups/{cup['id']}", headers={"Authorization": "Bearer x"})
        assert forged.status_code == 401, "the cup's token still guards it"

    # Play on to the end over new connections: the stored game is the live one.
    ana = Player(server, match.code, match.host_token, name="Ana")
    bo = Player(server, match.code, match.bo_token, name="Bo")
    final = play_turns([ana, bo], random.Random(32))
    assert final["winner"] is not None
    assert ana.events[: len(before["Ana"][2])] == before["Ana"][2]
    with api(server) as http:
        record = http.get(f"/api/games/{table_before['game']}/record").json()
    game = replay(record)
    assert game.winner == final["winner"] and len(game.history) == final["turn"]
    ana.close()
    bo.close()
    match.close()


def schema(db_url: str) -> tuple[list[str], set[str]]:
    """The recorded schema versions and the tables of the database at ``db_url``."""
    engine = sa.create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as c:
            versions = [r[0] for r in c.execute(sa.text("SELECT version_num FROM alembic_version"))]
            tables = set(sa.inspect(c).get_table_names())
    finally:
        engine.dispose()
    return versions, tables


def test_every_migration_goes_down_and_up_again_on_a_database_with_games(db_url: str) -> None:
    """Each downgrade runs on a database holding a finished game (on SQLite a downgrade must
    not copy a table other rows point at), down to the first revision, and the migrations
    then bring the database back to the head with that game's table and record."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from dudo.server import storage
    from dudo.server.storage import Place

    store = Store(db_url)
    try:
        store.create_table("DOWN22", "dudo", {}, {"seats": 2}, [], public=True)
        bots = [{"seat": s, "name": f"B{s}", "kind": "bot", "level": "easy"} for s in (0, 1)]
        game = store.start_game("DOWN22", 1, 0, {}, bots)
        store.finish_game("DOWN22", game, 0, 3, {"meta": {}}, places=(Place(0, 1), Place(1, 2)))
    finally:
        store.close()
    config = Config()
    config.set_main_option("script_location", str(storage.MIGRATIONS))
    script = ScriptDirectory.from_config(config)
    revisions = [r.revision for r in script.walk_revisions()]  # the head first
    engine = storage.make_engine(db_url)
    try:
        for below in revisions[1:]:
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                command.downgrade(config, below)
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        engine.dispose()
    assert schema(db_url)[0] == [revisions[0]]
    store = Store(db_url)
    try:
        assert [t.code for t in store.load_tables(("over",))] == ["DOWN22"]
    finally:
        store.close()


def test_migrations_run_on_an_existing_database(db_url: str) -> None:
    """(The restart above starts a server on an existing database too.)"""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from dudo.server import storage

    config = Config()
    config.set_main_option("script_location", str(storage.MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    store = Store(db_url)
    try:
        store.create_cup("cup1", "token", Cup(count=5))
    finally:
        store.close()
    assert schema(db_url) == (
        [head],
        {
            "tables",
            "seats",
            "games",
            "actions",
            "cups",
            "fair_dice",
            "chat",
            "chat_settings",
            "players",
            "player_codes",
            "player_devices",
            "ratings",
            "rating_history",
            "game_players",
            "alembic_version",
        },
    )
    for _ in range(2):  # up to date already: migrating again changes nothing and keeps the data
        again = Store(db_url)
        try:
            assert again.load_cup("cup1") is not None
        finally:
            again.close()
        assert schema(db_url)[0] == [head]


def test_the_store_refuses_an_action_twice(db_url: str) -> None:
    store = Store(db_url)
    try:
        seats = [StoredSeat(0, "human", "Ana", None, "h" * 64, False)]
        seats.append(StoredSeat(1, "bot", "Bot", "easy", None, False))
        store.create_table("TESTAB", "dudo", {}, {"seats": 2}, seats)
        players = [{"seat": 0, "name": "Ana", "kind": "human", "level": None}]
        game_id = store.start_game("TESTAB", 1, 12345, {}, players)
        store.add_action("TESTAB", game_id, 0, 0, "3x4")
        with pytest.raises(IntegrityError):
            store.add_action("TESTAB", game_id, 0, 1, "call")
        store.add_action("TESTAB", game_id, 1, 1, "call")
        with pytest.raises(IntegrityError):
            store.add_action("TESTAB", game_id, 1, 0, "4x4")
        (table,) = [t for t in store.load_tables() if t.code == "TESTAB"]
        assert table.game is not None
        assert table.game.actions == [(0, "3x4"), (1, "call")], "the first of each seq stays"
        assert table.game.id == game_id and not table.game.finished
    finally:
        store.close()
    reopened = Store(db_url)  # migrating an up-to-date database again is harmless
    try:
        (table,) = [t for t in reopened.load_tables() if t.code == "TESTAB"]
        assert table.game is not None and len(table.game.actions) == 2
    finally:
        reopened.close()


def _games_at_new_tables(store: Store, codes: Sequence[str]) -> dict[str, int]:
    """A table with one person and a game under way for each code: the games' ids."""
    seats = [StoredSeat(0, "human", "Ana", None, "h" * 64, False)]
    players = [{"seat": 0, "name": "Ana", "kind": "human", "level": None}]
    games = {}
    for number, code in enumerate(codes):
        store.create_table(code, "dudo", {}, {"seats": 2}, seats)
        games[code] = store.start_game(code, 1, number + 1, {}, players)
    return games


def _stored_actions(store: Store, code: str) -> list[tuple[int, str]]:
    (table,) = [t for t in store.load_tables() if t.code == code]
    assert table.game is not None
    return table.game.actions


def _owned_then_taken_over(store: Store, url: str, owned: Sequence[str], taken: str) -> None:
    """``store`` claims the tables ``owned`` (several processes), then another process takes
    ``taken`` over: the fence ``store`` holds for it is stale."""
    store.fences = {}
    assert all(store.claim_table(code) for code in owned)
    other = Store(url)
    other.fences = {}
    assert other.claim_table(taken)
    other.close()


def _commit_together(
    store: Store,
    url: str,
    commit: Callable[[Sequence[ActionWrite]], list[bool] | None],
    before_retry: Callable[[list[ActionWrite]], None] = lambda _writes: None,
) -> None:
    """Two tables' actions committed together by ``commit``: both stored; a commit with an
    action there already writes nothing (None); after ``before_retry`` the other action alone
    is stored; an action of a table another process took over is refused (False) and its
    table let go, while the other action of that commit is stored."""
    games = _games_at_new_tables(store, ["TESTAB", "TESTCD"])
    ab, cd = games["TESTAB"], games["TESTCD"]
    both = [ActionWrite("TESTAB", ab, 0, 0, "3x4"), ActionWrite("TESTCD", cd, 0, 0, "2x2")]
    assert commit(both) == [True, True]
    again = [ActionWrite("TESTAB", ab, 1, 1, "call"), ActionWrite("TESTCD", cd, 0, 1, "9x9")]
    assert commit(again) is None, "seq 0 of TESTCD is taken"
    assert _stored_actions(store, "TESTAB") == [(0, "3x4")], "nothing of that was written"
    before_retry(again[:1])
    assert commit(again[:1]) == [True]

    _owned_then_taken_over(store, url, ["TESTAB", "TESTCD"], "TESTAB")
    later = [ActionWrite("TESTAB", ab, 2, 0, "4x4"), ActionWrite("TESTCD", cd, 1, 1, "3x2")]
    assert commit(later) == [False, True]
    assert store.fences is not None and "TESTAB" not in store.fences, "it is let go"
    assert _stored_actions(store, "TESTAB") == [(0, "3x4"), (1, "call")]
    assert _stored_actions(store, "TESTCD") == [(0, "2x2"), (1, "3x2")]


def test_actions_committed_together_without_waiting(tmp_path: Path) -> None:
    """SQLite: try_add_actions commits a turn's actions in one transaction, or, when that
    would mean waiting (another process holds the write lock) or a row is there already,
    writes nothing and says so (None), for the ordinary path to sort out."""
    url = f"sqlite:///{tmp_path / 'dudo.sqlite3'}"
    store = Store(url)

    def while_another_process_writes(writes: list[ActionWrite]) -> None:
        holder = sqlite3.connect(tmp_path / "dudo.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        assert store.try_add_actions(writes) is None
        holder.execute("ROLLBACK")
        holder.close()

    try:
        _commit_together(store, url, store.try_add_actions, while_another_process_writes)
        store.checkpoint()
    finally:
        store.close()


def test_actions_committed_together_by_a_worker(db_url: str) -> None:
    """Any database: add_actions commits several tables' actions in one transaction on a
    worker thread (it may wait for the database)."""
    store = Store(db_url)
    try:
        _commit_together(store, db_url, store.add_actions)
    finally:
        store.close()


def test_the_event_loop_commits_many_tables_actions_in_few_transactions(db_url: str) -> None:
    """Actions of many tables asked for at once are committed together (on SQLite in the
    loop's turn, elsewhere while the transaction before them is in flight), each stored once
    and in order; a retry of an action stored already is accepted, a different action with
    its number is refused, and a table another process took over refuses its writes."""
    store = Store(db_url)
    calls: list[str] = []
    codes = [f"TEST{i:02d}" for i in range(12)]
    games = _games_at_new_tables(store, codes)

    async def play() -> None:
        db = AsyncStore(store, observe=lambda name, _seconds, _ok: calls.append(name))
        try:

            async def table(code: str) -> None:
                for seq in range(5):
                    await db.add_action(ActionWrite(code, games[code], seq, seq % 2, f"{seq}x2"))

            await asyncio.gather(*(table(code) for code in codes))
            # A retry of a stored action is fine; another action with a stored number is not.
            await db.add_action(ActionWrite(codes[0], games[codes[0]], 4, 0, "4x2"))
            with pytest.raises(StoreUnavailable, match=r"(?i)unique|duplicate"):
                await db.add_action(ActionWrite(codes[0], games[codes[0]], 4, 1, "call"))
            _owned_then_taken_over(store, db_url, codes[1:2], codes[1])
            with pytest.raises(FencedOut):
                await db.add_action(ActionWrite(codes[1], games[codes[1]], 5, 1, "call"))
        finally:
            db.close()

    try:
        asyncio.run(play())
        for code in codes:
            assert _stored_actions(store, code) == [(seq % 2, f"{seq}x2") for seq in range(5)]
    finally:
        store.close()
    assert 0 < calls.count("add_actions") < 12 * 5, "several actions to a transaction"


def test_the_write_ahead_log_stays_bounded_while_actions_keep_coming(tmp_path: Path) -> None:
    """SQLite: actions committed without a pause, with a checkpoint every few hundred (as the
    server does, from a worker thread): the log is started again from its beginning after
    checkpoints instead of growing by every action's pages for as long as writes go on."""
    path = tmp_path / "dudo.sqlite3"
    store = Store(f"sqlite:///{path}")
    (game,) = _games_at_new_tables(store, ["TESTAB"]).values()
    actions, every = 3000, 300
    written = threading.Semaphore(0)  # the writer wrote `every` more
    checked = threading.Semaphore(1)  # a checkpoint is done

    def write() -> None:
        for seq in range(actions):
            action = ActionWrite("TESTAB", game, seq, seq % 2, "3x4")
            # None while a checkpoint holds writes off (the server takes the worker path).
            while store.try_add_actions([action]) is None:
                time.sleep(0.001)
            if seq % every == every - 1:
                # Writes go on during the checkpoint, but never a whole interval ahead of it.
                assert checked.acquire(timeout=30), "no checkpoint came"
                written.release()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    for _ in range(actions // every):
        assert written.acquire(timeout=30), "the writer stopped"
        store.checkpoint()
        checked.release()
    writer.join(30)
    log_size = (tmp_path / "dudo.sqlite3-wal").stat().st_size
    store.close()
    page = 4096
    # Each commit adds two pages (the row's and its key's): unbounded, about 24 MB here.
    assert log_size < 2 * every * 2 * (page + 24) * 2, f"the log grew to {log_size} bytes"


@pytest.mark.parametrize(
    ("tables", "actions_per_second", "waits"),
    [
        (0, 0, False),  # nothing played yet
        (1, 1000, False),  # one table's actions wait for each other anyway
        (10, 20, False),  # quiet: a wait would rarely gather a second action
        (500, 500, True),  # busy: 2.5 other tables' actions in 5 ms
        (2, 1000, True),  # two fast tables gather each other's
    ],
)
def test_a_busy_server_gathers_actions_into_one_commit(
    tables: int, actions_per_second: int, waits: bool
) -> None:
    pacing = CommitPacing(gather=0.005)
    for second in range(2):  # the first second sets the pace of the second
        for i in range(actions_per_second):
            code = f"T{i % tables:04d}"
            pacing.committing([ActionWrite(code, 1, i, 0, "3x4")], second + i / 1e6)
    assert pacing.wait() == (0.005 if waits else 0.0)
    pacing.committing([], 100.0)  # then nothing for a long while: no more waiting
    assert pacing.wait() == 0.0
