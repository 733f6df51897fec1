"""Ratings in the store: a rated game changes the openskill rating of every rater who played
once, in the same transaction as its result, and an unrated game changes nothing (SQLite and
PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import httpx

from dudo.server import ratings
from dudo.server.storage import Place, Store

from .conftest import ServerFactory


def test_rule_families_of_presets() -> None:
    from dudo.engine import PRESETS

    assert {ratings.family(p) for p in PRESETS} == set(ratings.FAMILIES)
    assert ratings.family("dudo-legacy") == "dudo"
    assert ratings.family("liars-dice") == "liars-dice"


PLAYERS = [
    {"seat": 0, "name": "Ana", "kind": "human", "level": None, "player_id": "p1"},
    {"seat": 1, "name": "Bot A", "kind": "bot", "level": "easy"},
    {"seat": 2, "name": "Bot B", "kind": "bot", "level": "hard"},
]


def test_places_and_standings() -> None:
    # Player 0 left while still in: below everyone who played on, whatever its bot did.
    assert ratings.places((0, 2, 1), set()) == {0: 1, 2: 2, 1: 3}
    assert ratings.places((0, 2, 1), {0}) == {2: 1, 1: 2, 0: 3}
    assert ratings.places((0, 2, 1, 3), {0, 1}) == {2: 1, 3: 2, 0: 3, 1: 3}
    # Two bots of one level are one rater, at their mean place.
    assert ratings.standings([("bot:easy", 1), ("p1", 2), ("bot:easy", 4), ("p2", 3)]) == {
        "bot:easy": 2.5,
        "p1": 2,
        "p2": 3,
    }
    # Only those who made a move themselves count; bots alone count for nobody.
    game = [("p1", 1, True), ("p2", 2, False), ("bot:easy", 3, False)]
    assert ratings.counted(game) == [("p1", 1), ("bot:easy", 3)]
    assert ratings.counted([("p2", 1, False), ("bot:easy", 2, False)]) == []
    assert ratings.rater("bot", "hard", None) == "bot:hard"
    assert ratings.rater("human", None, "p1") == "p1"
    assert ratings.rater("human", None, None) is None


def test_a_rated_game_updates_ratings_once(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert store.create_player("p1", "Ana", "ana", "hash1")
        store.create_table("RATE01", "perudo", {}, {"seats": 3}, [], public=True)
        game_id = store.start_game("RATE01", 1, 0, {}, PLAYERS, rated="perudo")
        # The easy bot won, Ana (who made her own moves) second, the hard bot out first.
        places = (Place(0, 2, acted=True), Place(1, 1), Place(2, 3))
        store.finish_game("RATE01", game_id, 1, 5, {}, places=places)
        first = {r.rater: r for r in store.leaderboard("perudo")}
        mu0, _ = ratings.default()
        assert first["bot:easy"].mu > mu0
        assert first["p1"].mu < first["bot:easy"].mu
        assert first["bot:hard"].mu < mu0
        assert first["p1"].name == "Ana" and first["bot:easy"].name is None
        assert all(r.games == 1 for r in first.values())
        board = store.leaderboard("perudo")
        assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)

        # A retried write (as after a crash) changes nothing.
        store.finish_game("RATE01", game_id, 1, 5, {}, places=places)
        assert {r.rater: r for r in store.leaderboard("perudo")} == first

        mine = store.rater_ratings("p1")
        assert set(mine) == {"perudo"}
        (row,) = mine["perudo"].history
        assert row.game == game_id and row.place == 2
        assert row.mu_after == first["p1"].mu and row.mu_before == mu0
        (game,) = store.player_games("p1")
        assert (game.game, game.place, game.won, game.rated) == (
            game_id,
            2,
            False,
            "perudo",
        )

        # An unrated game changes no rating, and still gives places.
        store.create_table("RATE02", "perudo", {}, {"seats": 3}, [])
        other = store.start_game("RATE02", 1, 0, {}, PLAYERS)
        store.finish_game("RATE02", other, 0, 3, {}, places=(Place(0, 1), Place(1, 2), Place(2, 3)))
        assert {r.rater: r for r in store.leaderboard("perudo")} == first
        assert store.leaderboard("cacho") == []
        assert [g.won for g in store.player_games("p1")] == [False, True]
    finally:
        store.close()


def test_the_ratings_api(live_server: ServerFactory, tmp_path: Path) -> None:
    """The leaderboard and a rater's ratings as JSON, from a real server on a real database."""
    url = f"sqlite:///{tmp_path / 'ratings.db'}"
    store = Store(url)
    try:
        assert store.create_player("p1", "Ana", "ana", "hash1")
        store.create_table("RATE03", "cacho", {}, {"seats": 3}, [], public=True)
        players = [PLAYERS[2], PLAYERS[1], PLAYERS[0]]
        game_id = store.start_game("RATE03", 1, 0, {}, players, rated="cacho")
        places = (Place(0, 1), Place(1, 2), Place(2, 3, acted=True))
        store.finish_game("RATE03", game_id, 0, 4, {}, places=places)
    finally:
        store.close()
    server = live_server(database_url=url)
    board = httpx.get(f"{server.url}/api/ratings/cacho").json()
    assert [r["rater"] for r in board["ratings"]] == ["bot:hard", "bot:easy", "p1"]
    assert board["ratings"][0]["rating"] > board["ratings"][1]["rating"]
    mine = httpx.get(f"{server.url}/api/players/bot:easy/ratings").json()["ratings"]
    assert mine["cacho"]["games"] == 1 and mine["cacho"]["history"][0]["game"] == game_id
    refused = httpx.get(f"{server.url}/api/ratings/poker")
    assert refused.status_code == 404 and refused.json()["code"] == "unknown_preset"
