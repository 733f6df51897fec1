"""Ratings in the store: a rated game changes every rater's openskill rating once, in the same
transaction as its result, and an unrated game changes nothing (SQLite and PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import httpx

from dudo.server import ratings
from dudo.server.storage import Store

from .conftest import ServerFactory


def test_rule_families_of_presets() -> None:
    from dudo.engine import PRESETS

    assert {ratings.family(p) for p in PRESETS} == set(ratings.FAMILIES)
    assert ratings.family("dudo-legacy") == "dudo"
    assert ratings.family("liars-dice") == "liars-dice"


def test_a_rated_game_updates_ratings_once(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert store.create_player("p1", "Ana", "ana", "hash1")
        store.create_table("RATE01", "perudo", {}, {"seats": 3}, [], public=True)
        game_id = store.start_game("RATE01", 1, 0, {}, [])
        order = ("bot:easy", "p1", "bot:hard")  # winner first, last out last
        rated = ("perudo", order)
        store.finish_game("RATE01", game_id, 2, 5, {}, rated=rated)
        first = {r["rater"]: r for r in store.leaderboard("perudo")}
        mu0, _ = ratings.default()
        assert first["bot:easy"]["mu"] > mu0
        assert first["p1"]["mu"] < first["bot:easy"]["mu"]
        assert first["bot:hard"]["mu"] < mu0
        assert first["p1"]["name"] == "Ana" and first["bot:easy"]["name"] is None
        assert all(r["games"] == 1 for r in first.values())
        board = store.leaderboard("perudo")
        assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)

        # A retried write (as after a crash) changes nothing.
        store.finish_game("RATE01", game_id, 2, 5, {}, rated=rated)
        assert {r["rater"]: r for r in store.leaderboard("perudo")} == first

        mine = store.rater_ratings("p1")
        assert set(mine) == {"perudo"}
        (row,) = mine["perudo"]["history"]
        assert row["game"] == game_id and row["place"] == 2
        assert row["mu_after"] == first["p1"]["mu"] and row["mu_before"] == mu0

        # An unrated game changes no rating.
        store.create_table("RATE02", "perudo", {}, {"seats": 3}, [])
        other = store.start_game("RATE02", 1, 0, {}, [])
        store.finish_game("RATE02", other, 0, 3, {})
        assert {r["rater"]: r for r in store.leaderboard("perudo")} == first
        assert store.leaderboard("cacho") == []
    finally:
        store.close()


def test_the_ratings_api(live_server: ServerFactory, tmp_path: Path) -> None:
    """The leaderboard and a rater's ratings as JSON, from a real server on a real database."""
    url = f"sqlite:///{tmp_path / 'ratings.db'}"
    store = Store(url)
    try:
        store.create_table("RATE03", "cacho", {}, {"seats": 2}, [], public=True)
        game_id = store.start_game("RATE03", 1, 0, {}, [])
        store.finish_game("RATE03", game_id, 0, 4, {}, rated=("cacho", ("bot:hard", "bot:easy")))
    finally:
        store.close()
    server = live_server(database_url=url)
    board = httpx.get(f"{server.url}/api/ratings/cacho").json()
    assert [r["rater"] for r in board["ratings"]] == ["bot:hard", "bot:easy"]
    assert board["ratings"][0]["rating"] > board["ratings"][1]["rating"]
    mine = httpx.get(f"{server.url}/api/players/bot:easy/ratings").json()["ratings"]
    assert mine["cacho"]["games"] == 1 and mine["cacho"]["history"][0]["game"] == game_id
    refused = httpx.get(f"{server.url}/api/ratings/poker")
    assert refused.status_code == 404 and refused.json()["code"] == "unknown_preset"
