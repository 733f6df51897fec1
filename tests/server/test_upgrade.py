"""A database made by the release before this one (schema revision 0008: players and ratings,
no per-game places) is upgraded by a new server's start with its games intact. The database is
made by real play on a real server, then taken back to 0008 by the migrations' own downgrade,
so it holds what that release wrote after play: tables, seats, finished games with their
records and players (with their player ids), a game still in play, players and ratings.
SQLite and PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from dudo.records import replay
from dudo.server import storage

from .conftest import (
    Json,
    LiveServer,
    Player,
    ServerFactory,
    api,
    get_table,
    host_post,
    play_turns,
)
from .test_players import as_player
from .test_rated_crash import RatedGame, snapshot, sql

#: The schema of the release before this one.
RELEASE = "0008"


def migrate(url: str, revision: str) -> None:
    """Take the database up or down to ``revision`` with the project's migrations."""
    engine = storage.make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(storage.MIGRATIONS))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            current = connection.execute(sa.text("SELECT version_num FROM alembic_version"))
            if current.scalar_one() >= revision:
                command.downgrade(config, revision)
            else:
                command.upgrade(config, revision)
    finally:
        engine.dispose()


def schema(url: str) -> tuple[str, set[str], set[str]]:
    """(revision, table names, columns of ``games``)."""
    engine = storage.make_engine(url)
    try:
        inspector = sa.inspect(engine)
        columns = {c["name"] for c in inspector.get_columns("games")}
        with engine.connect() as c:
            version = c.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        return str(version), set(inspector.get_table_names()), columns
    finally:
        engine.dispose()


def own_table(server: LiveServer, key: str, **body: Any) -> Json:
    """An unrated private table of the player holding ``key``, with one easy bot."""
    body = {"name": "Ana", "seats": 2, "bots": ["easy"], "bot_seconds": 0, "reveal_seconds": 0}
    with api(server) as http:
        response = http.post("/api/tables", json=body, headers=as_player(key))
    assert response.status_code == 201, response.text
    created: Json = response.json()
    return created


def export(server: LiveServer, key: str) -> Json:
    with api(server) as http:
        answer: Json = http.get("/api/players/me/export", headers=as_player(key)).json()
    return answer


def test_a_database_of_the_release_before_upgrades_with_its_games_intact(
    live_server: ServerFactory, db_url: str
) -> None:
    server = live_server(database_url=db_url)
    rated = RatedGame(server)
    final, ana_client = rated.play(seed=3)
    ana_client.close()
    key = rated.ana["key"]
    # An unrated game of Ana's, played to its end, and another still in play.
    done = own_table(server, key)
    host_post(server, done["code"], "start", done["token"])
    with Player(server, done["code"], done["token"], name="Ana") as ana:
        play_turns([ana], random.Random(4))
    playing = own_table(server, key)
    host_post(server, playing["code"], "start", playing["token"])
    with Player(server, playing["code"], playing["token"], name="Ana") as ana:
        paused = play_turns([ana], random.Random(5), stop=lambda view: view["turn"] >= 4)
    assert paused["winner"] is None
    with api(server) as http:
        games_before = http.get("/api/games").json()["games"]
    ratings_before = snapshot(server, rated)
    export_before = export(server, key)
    assert len(games_before) == 2 and len(export_before["games"]) == 3
    server.stop()

    migrate(db_url, RELEASE)
    version, tables, columns = schema(db_url)
    assert (version, "game_players" in tables, "rated" in columns) == (RELEASE, False, False)

    server.start()  # the server migrates the database to the newest schema as it starts
    version, tables, columns = schema(db_url)
    assert version != RELEASE and "game_players" in tables and "rated" in columns

    with api(server) as http:
        assert http.get("/api/games").json()["games"] == games_before
        for listed in games_before:
            record = http.get(f"/api/games/{listed['id']}/record").json()
            game = replay(record)
            assert record["players"][game.winner]["name"] == listed["winner"]
            steps = http.get(f"/api/games/{listed['id']}/replay")
            assert steps.status_code == 200, steps.text
    # Every game has its players' rows: the winner has place 1 (the others' places were never
    # kept), and each player is the rater they were.
    for listed in games_before:
        players = sql(
            db_url,
            "SELECT player, rater, place FROM game_players WHERE game_id = :g ORDER BY player",
            g=listed["id"],
        )
        (winner,) = sql(db_url, "SELECT winner FROM games WHERE id = :g", g=listed["id"])
        assert [p.place for p in players] == [1 if p.player == winner[0] else None for p in players]
        assert {p.rater for p in players} >= {rated.ana["id"], "bot:easy"}
    assert snapshot(server, rated) == ratings_before, "the ratings are as they were"

    def mine(found: Json) -> list[tuple[Any, ...]]:
        return [(g["game"], g["seat"], g["name"], g["won"]) for g in found["games"]]

    assert mine(export(server, key)) == mine(export_before), "Ana's games are hers still"

    # The game in play goes on where it was, to a record that replays.
    with Player(server, playing["code"], playing["token"], name="Ana") as ana:
        assert ana.wait_turn(paused["turn"])["turn"] >= paused["turn"]
        end = play_turns([ana], random.Random(6))
    game_id = get_table(server, playing["code"])["game"]
    with api(server) as http:
        record = http.get(f"/api/games/{game_id}/record").json()
    assert replay(record).winner == end["winner"]
    (last,) = [g for g in export(server, key)["games"] if g["game"] == game_id]
    ana_won = record["players"][end["winner"]]["name"] == "Ana"
    assert (last["place"], last["won"]) == ((1, True) if ana_won else (2, False))
    assert rated.raters <= set(snapshot(server, rated)["board"])
    assert final["winner"] is not None


def test_the_newest_revision_is_alembics_head() -> None:
    # A start on an up-to-date database skips the migration scripts by this number alone.
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(storage.MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_heads() == [storage.newest_revision()]
