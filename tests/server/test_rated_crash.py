"""A rated game's ratings change exactly once, whatever ``kill -9`` does to the server: killed
between storing the game's last action and storing its result (the store refuses the result
until the kill, so the server is caught in that window for certain), or killed right after the
game ended and started again twice. A real ``dudo serve`` process on SQLite and PostgreSQL;
the ratings are read from the API and from the database's rows."""

from __future__ import annotations

import random
import time
from typing import Any

import sqlalchemy as sa

from dudo.records import replay
from dudo.server.storage import make_engine

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
from .test_players import as_player, new_player
from .test_rated import join_as, play_until_bo_acts, rated_table

#: The raters of the test's game: two players and one bot of each of two levels.
BOTS = ["easy", "medium"]

#: Refuses to store any game's result (the write of ``finished``), so the transaction that
#: stores a result and its ratings fails as a whole, as a database that went away would.
REFUSE_SQLITE = """
CREATE TRIGGER refuse_results BEFORE UPDATE OF finished ON games
WHEN NEW.finished IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'results refused by the test'); END
"""
REFUSE_POSTGRESQL = [
    """
    CREATE FUNCTION refuse_results() RETURNS trigger AS $$
    BEGIN RAISE EXCEPTION 'results refused by the test'; END
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER refuse_results BEFORE UPDATE ON games FOR EACH ROW
    WHEN (NEW.finished IS NOT NULL) EXECUTE FUNCTION refuse_results()
    """,
]


def sql(url: str, *statements: str, **params: Any) -> list[Any]:
    """Run statements on the server's database in one transaction; the last one's rows."""
    engine = make_engine(url)
    try:
        with engine.begin() as c:
            rows: list[Any] = []
            for statement in statements:
                result = c.execute(sa.text(statement), params)
                rows = list(result.all()) if result.returns_rows else []
            return rows
    finally:
        engine.dispose()


def refuse_results(url: str) -> None:
    if url.startswith("sqlite"):
        sql(url, REFUSE_SQLITE)
    else:
        sql(url, *REFUSE_POSTGRESQL)


def allow_results(url: str) -> None:
    if url.startswith("sqlite"):
        sql(url, "DROP TRIGGER refuse_results")
    else:
        sql(url, "DROP TRIGGER refuse_results ON games", "DROP FUNCTION refuse_results()")


class RatedGame:
    """Ana (host) and Bo, both players, and the bots at a rated Dudo table of four."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.ana, self.bo = new_player(server, "Ana"), new_player(server, "Bo")
        created = rated_table(server, self.ana["key"], seats=4, bots=BOTS)
        self.code: str = created["code"]
        self.host_token: str = created["token"]
        self.bo_token: str = join_as(server, self.code, "Bo", self.bo["key"])["token"]
        self.raters = {self.ana["id"], self.bo["id"], *(f"bot:{level}" for level in BOTS)}

    def play(self, seed: int) -> tuple[Json, Player]:
        """Start the game and play it to its end; the final view and Ana's connection (open:
        the caller closes it)."""
        host_post(self.server, self.code, "start", self.host_token)
        ana = Player(self.server, self.code, self.host_token, name="Ana")
        with Player(self.server, self.code, self.bo_token, name="Bo") as bo:
            final = play_turns([ana, bo], random.Random(seed))
        assert final["winner"] is not None
        return final, ana


def retrying(player: Player) -> None:
    """The server keeps retrying the result it could not store, and says so (the table frame
    saying it comes before or after the game's last update)."""
    if player.table is None or player.table["store"] != "retrying":
        player.until(
            lambda f: f["type"] == "table" and f["table"]["store"] == "retrying",
            "the table saying its result is not stored yet",
        )


def snapshot(server: LiveServer, game: RatedGame) -> Json:
    """What the API says of the ratings: the Dudo leaderboard and each rater's own ratings."""
    with api(server) as http:
        board = http.get("/api/ratings/dudo?provisional=1").json()["ratings"]
        own = {r: http.get(f"/api/players/{r}/ratings").json()["ratings"] for r in game.raters}
    return {"board": {r["rater"]: r for r in board}, "own": own}


def history_rows(url: str, game_id: int) -> list[Any]:
    return sql(
        url,
        "SELECT rater, family, place, mu_after, sigma_after FROM rating_history "
        "WHERE game_id = :game ORDER BY rater",
        game=game_id,
    )


def check_rated_once(server: LiveServer, game: RatedGame, game_id: int, winner: int) -> Json:
    """The game's result and ratings are stored, once: one history row per rater, every rater
    at one game, places as the engine's finishing order, and the seats' running score counts
    the game once. What the API says of the ratings."""
    url = server.database_url
    assert url is not None
    with api(server) as http:
        record = http.get(f"/api/games/{game_id}/record").json()
    replayed = replay(record)
    assert replayed.winner == winner, "the stored record replays to the game's winner"
    order = replayed.finishing_order()
    seen = snapshot(server, game)
    assert set(seen["board"]) == game.raters
    assert all(r["games"] == 1 for r in seen["board"].values()), seen["board"]
    rows = history_rows(url, game_id)
    assert [r.rater for r in rows] == sorted(game.raters), "one history row per rater"
    assert all(r.family == "dudo" for r in rows)
    for rater, row in ((r.rater, r) for r in rows):
        (mine,) = seen["own"][rater]["dudo"]["history"]
        assert (mine["game"], mine["mu_after"]) == (game_id, row.mu_after)
        assert seen["board"][rater]["mu"] == row.mu_after, "the rating is the history's last"
    for name, player in (("Ana", game.ana), ("Bo", game.bo)):
        number = next(i for i, p in enumerate(record["players"]) if p["name"] == name)
        (mine,) = seen["own"][player["id"]]["dudo"]["history"]
        assert mine["place"] == order.index(number) + 1, f"{name}'s place is the engine's"
    (stored,) = sql(url, "SELECT count(*) FROM ratings")
    assert stored[0] == len(game.raters), "no rating row beyond the game's raters"
    seats = get_table(server, game.code)["seats"]
    assert [s["played"] for s in seats] == [1, 1, 1, 1], "the game counts once at the table"
    assert sum(s["wins"] for s in seats) == 1
    return seen


def wait_rated(server: LiveServer, game: RatedGame, timeout: float = 15.0) -> None:
    """Until the ratings of the game are in (the restarted server stores them on its own)."""
    deadline = time.monotonic() + timeout
    while len(snapshot(server, game)["board"]) < len(game.raters):
        assert time.monotonic() < deadline, f"no ratings within {timeout}s:\n{server.log_tail()}"
        time.sleep(0.1)


def test_a_kill_between_the_last_action_and_the_result_rates_the_game_once(
    live_server: ServerFactory, db_url: str
) -> None:
    server = live_server(database_url=db_url)
    game = RatedGame(server)
    refuse_results(db_url)
    final, ana = game.play(seed=31)
    game_id = get_table(server, game.code)["game"]
    with ana:
        retrying(ana)
    (actions,) = sql(db_url, "SELECT count(*) FROM actions WHERE game_id = :g", g=game_id)
    assert actions[0] == final["turn"], "every action, the last one too, is stored"
    (result,) = sql(db_url, "SELECT finished, record FROM games WHERE id = :g", g=game_id)
    assert tuple(result) == (None, None), "the result is not stored"
    # The ratings are written in the result's transaction: nothing of them is stored either.
    assert history_rows(db_url, game_id) == []
    assert snapshot(server, game)["board"] == {}

    server.kill()
    allow_results(db_url)
    server.start()  # the game is resumed over, and its result stored and rated
    wait_rated(server, game)
    first = check_rated_once(server, game, game_id, final["winner"])

    for again in ("kill", "stop"):
        server.kill() if again == "kill" else server.stop()
        server.start()
        assert check_rated_once(server, game, game_id, final["winner"]) == first, again


def test_a_kill_right_after_a_rated_game_and_two_restarts_change_nothing(
    live_server: ServerFactory, db_url: str
) -> None:
    server = live_server(database_url=db_url)
    game = RatedGame(server)
    final, ana = game.play(seed=5)
    ana.close()
    server.kill()  # the final update was sent: the result was stored before it
    server.start()
    game_id = get_table(server, game.code)["game"]
    first = check_rated_once(server, game, game_id, final["winner"])
    server.kill()
    server.start()
    assert check_rated_once(server, game, game_id, final["winner"]) == first
    server.restart()
    assert check_rated_once(server, game, game_id, final["winner"]) == first


def throw_dice_away(player: Player) -> Json:
    """Play ``player`` to lose: on their turn the highest bid there is (which the next player
    calls), until the game is over; the final view."""
    acted = -1
    while True:
        player.until(
            lambda f: (
                f["type"] == "update"
                and (f["view"]["winner"] is not None or f["view"]["to_move"] == f["view"]["viewer"])
            ),
            "a turn of the player or the end",
            timeout=30,
        )
        view = player.view
        assert view is not None
        if view["winner"] is not None:
            return view
        if view["turn"] <= acted or view["to_move"] != view["viewer"]:
            continue
        legal: list[str] = view["legal"]
        bids = [a for a in legal if "x" in a]
        if bids:
            player.act(max(bids, key=lambda a: int(a.split("x")[0])))
        else:  # no bid to make: calling, or what the round asks first (open or closed dice)
            player.act("call" if "call" in legal else legal[0])
        acted = view["turn"]


def test_a_kill_after_a_stand_in_went_out_still_places_its_person_last(
    live_server: ServerFactory, db_url: str
) -> None:
    """Bo makes one move and goes: a bot plays for him from then on, and he finishes last
    whatever it does. Ana throws her dice away, so Bo's bot does not go out first: killed
    between the game's last action and its result, the restarted server must still know that
    Bo left with dice (and made a move himself, so he is rated), and not place him where his
    bot went out."""
    server = live_server(database_url=db_url)
    ana, bo = new_player(server, "Ana"), new_player(server, "Bo")
    created = rated_table(server, ana["key"], seats=4, bots=["easy", "easy"], grace_seconds=0)
    code = created["code"]
    bo_token = join_as(server, code, "Bo", bo["key"])["token"]
    refuse_results(db_url)
    with Player(server, code, created["token"], name="Ana") as a:
        with Player(server, code, bo_token, name="Bo") as b:
            host_post(server, code, "start", created["token"])
            play_until_bo_acts(a, b, random.Random(8))
        final = throw_dice_away(a)
        retrying(a)
    server.kill()
    allow_results(db_url)
    server.start()
    game_id = get_table(server, code)["game"]
    deadline = time.monotonic() + 15
    with api(server) as http:
        while (record := http.get(f"/api/games/{game_id}/record")).status_code != 200:
            assert time.monotonic() < deadline, f"no record:\n{server.log_tail()}"
            time.sleep(0.1)
        bos = http.get("/api/players/me/export", headers=as_player(bo["key"])).json()
        anas = http.get(f"/api/players/{ana['id']}/ratings").json()["ratings"]
    names = [p["name"] for p in record.json()["players"]]
    order = replay(record.json()).finishing_order()
    assert names[final["winner"]] != "Ana" and order[-1] == names.index("Ana"), "Ana out first"
    assert record.json()["meta"]["left_early"] == [names.index("Bo")]
    (game,) = bos["games"]
    assert (game["place"], game["left_early"]) == (4, True), f"finishing order {order}"
    (history,) = bos["ratings"][0]["history"]
    assert history["place"] == 4
    # Ana went out first, but Bo left: she is third.
    assert anas["dudo"]["history"][0]["place"] == 3
