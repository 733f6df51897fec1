"""Ratings in the store: a rated game changes the openskill rating of every rater who played
once, in the same transaction as its result, and an unrated game changes nothing (SQLite and
PostgreSQL). The number people see (1500 for a new rater, never below the floor, provisional
for fewer than ten rated games) and the leaderboard that hides provisional people."""

from __future__ import annotations

from pathlib import Path

import httpx
from hypothesis import given
from hypothesis import strategies as st

from dudo.server import ratings
from dudo.server.storage import Place, Store

from .conftest import ServerFactory


def test_rule_families_of_presets() -> None:
    from dudo.engine import PRESETS

    assert {ratings.family(p) for p in PRESETS} == set(ratings.FAMILIES)
    assert ratings.family("dudo-legacy") == "dudo"
    assert ratings.family("liars-dice") == "liars-dice"


def test_a_new_rater_shows_1500_and_is_provisional() -> None:
    mu, sigma = ratings.default()
    assert ratings.shown(mu) == 1500
    assert ratings.deviation(sigma) == 350
    assert ratings.provisional(0) and ratings.provisional(ratings.PROVISIONAL_GAMES - 1)
    assert not ratings.provisional(ratings.PROVISIONAL_GAMES)
    # One step of mu is 42 shown points; far below the start, the floor.
    assert ratings.shown(mu + 1) == 1542 and ratings.shown(mu - 1) == 1458
    assert ratings.shown(-1000.0) == ratings.SHOWN_FLOOR == 100


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(finite, finite)
def test_the_shown_rating_is_a_whole_number_never_negative_and_monotone(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert isinstance(ratings.shown(low), int)
    assert ratings.shown(low) >= ratings.SHOWN_FLOOR > 0
    assert ratings.shown(low) <= ratings.shown(high)


@given(st.integers(min_value=0, max_value=10_000))
def test_provisional_until_ten_rated_games(games: int) -> None:
    assert ratings.provisional(games) == (games < 10)


@given(st.lists(st.integers(min_value=1, max_value=6), min_size=2, max_size=6))
def test_one_game_from_the_start_never_shows_a_negative_rating(places: list[int]) -> None:
    """Whatever the places of a first game, every rater shows a positive number after it."""
    ranks = {f"p{i}": float(place) for i, place in enumerate(places)}
    after = ratings.rate(ranks, {r: ratings.default() for r in ranks})
    assert all(ratings.shown(mu) >= ratings.SHOWN_FLOOR for mu, _ in after.values())
    assert all(abs(ratings.shown(mu) - 1500) < 350 for mu, _ in after.values())


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
    # Ana (p1) lost her first game: provisional, so the leaderboard leaves her out unless asked
    # and says so; bot levels are always listed.
    board = httpx.get(f"{server.url}/api/ratings/cacho").json()
    assert [r["rater"] for r in board["ratings"]] == ["bot:hard", "bot:easy"]
    assert board["hidden"] == 1 and board["provisional"] is False
    assert board["provisional_games"] == ratings.PROVISIONAL_GAMES
    everyone = httpx.get(f"{server.url}/api/ratings/cacho", params={"provisional": 1}).json()
    assert [r["rater"] for r in everyone["ratings"]] == ["bot:hard", "bot:easy", "p1"]
    assert everyone["hidden"] == 0 and everyone["provisional"] is True
    assert board["ratings"] == everyone["ratings"][:2]
    shown = [r["rating"] for r in everyone["ratings"]]
    assert shown == sorted(shown, reverse=True) and shown[0] > shown[1]
    for row in everyone["ratings"]:
        assert row["rating"] == ratings.shown(row["mu"]) and row["provisional"] is True
    ana = everyone["ratings"][2]
    assert 0 < ratings.SHOWN_FLOOR <= ana["rating"] < 1500, "a loss: below the start, not below 0"
    (ana_rating,) = httpx.get(f"{server.url}/api/players/p1/ratings").json()["ratings"].values()
    assert ana_rating["rating"] == ana["rating"] and ana_rating["provisional"] is True
    assert ana_rating["history"][0]["rating"] == ana["rating"]
    mine = httpx.get(f"{server.url}/api/players/bot:easy/ratings").json()["ratings"]
    assert mine["cacho"]["games"] == 1 and mine["cacho"]["history"][0]["game"] == game_id
    refused = httpx.get(f"{server.url}/api/ratings/poker")
    assert refused.status_code == 404 and refused.json()["code"] == "unknown_preset"


def test_a_rating_stops_being_provisional_at_ten_rated_games(db_url: str) -> None:
    """The leaderboard leaves a person out until their tenth rated game in the family, and
    says how many it left out; each game's changes say whether the rating after it is still
    provisional, and that a bot's is its level's."""
    store = Store(db_url)
    try:
        assert store.create_player("p1", "Ana", "ana", "hash1")
        assert store.create_player("p2", "Bo", "bo", "hash2")
        bo = {"seat": 1, "name": "Bo", "kind": "human", "level": None, "player_id": "p2"}
        players = [PLAYERS[0], bo, PLAYERS[1]]
        for n in range(1, ratings.PROVISIONAL_GAMES + 1):
            code = f"PROV{n:02d}"
            store.create_table(code, "perudo", {}, {"seats": 3}, [], public=True)
            game_id = store.start_game(code, 1, 0, {}, players, rated="perudo")
            # Ana plays all ten; Bo only the first, as a seat the timer played (not rated).
            places = (Place(0, 1, acted=True), Place(1, 2, acted=n == 1), Place(2, 3))
            changes = store.finish_game(code, game_id, 0, 3, {}, places=places)
            assert changes[0].provisional == (n < ratings.PROVISIONAL_GAMES)
            assert changes[0].level is None and changes[2].level == "easy"
            assert changes[0].after > changes[0].before, "Ana won"
            visible = [r.rater for r in store.leaderboard("perudo", provisional=False)]
            assert ("p1" in visible) == (n >= ratings.PROVISIONAL_GAMES)
            assert "bot:easy" in visible
            assert store.provisional_players("perudo") == 1 + (n < ratings.PROVISIONAL_GAMES)
        assert 1 not in changes, "Bo did not play the last game himself: not rated"
        board = {r.rater: r for r in store.leaderboard("perudo")}
        assert board["p2"].provisional and board["p2"].games == 1
        assert not board["p1"].provisional and board["p1"].games == 10
        assert not board["bot:easy"].provisional
    finally:
        store.close()
