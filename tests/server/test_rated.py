"""Rated tables on a real server: what a rated table must be (public, no hints, its preset's own
rules, players in its seats), a rated game that rates its players and bots once at its end, a
player who leaves a rated game finishing last, and "Play now" opening rated tables for players.
The rules of ratings: docs/ratings.md."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from playwright.sync_api import Browser, expect

from dudo.records import replay
from dudo.server.rated import RATED_FILL_LEVEL

from .conftest import (
    FRAME_SECONDS,
    Json,
    LiveServer,
    Player,
    ServerFactory,
    api,
    bearer,
    choose,
    get_table,
    host_post,
    play_turns,
    words,
)
from .test_browser import screenshot_dir
from .test_lobby import lobby, play_now
from .test_players import as_player, new_player, refused


def rated_table(server: LiveServer, key: str, **body: Any) -> Json:
    """A rated Dudo table hosted by the player holding ``key``."""
    body = {
        "name": "Ana",
        "preset": "dudo",
        "public": True,
        "rated": True,
        "bot_seconds": 0,
        "reveal_seconds": 0,
        **body,
    }
    with api(server) as http:
        response = http.post("/api/tables", json=body, headers=as_player(key))
    assert response.status_code == 201, response.text
    created: Json = response.json()
    return created


def join_as(server: LiveServer, code: str, name: str, key: str) -> Json:
    with api(server) as http:
        response = http.post(
            f"/api/tables/{code}/join", json={"name": name}, headers=as_player(key)
        )
    assert response.status_code == 201, response.text
    joined: Json = response.json()
    return joined


def test_a_rated_table_is_public_without_hints_or_house_rules_and_seats_players(
    shared_server: LiveServer,
) -> None:
    ana = new_player(shared_server, "Ana Rated")
    base = {"name": "Ana", "preset": "perudo", "public": True, "rated": True}
    with api(shared_server) as http:
        mine = as_player(ana["key"])
        before = len(lobby(shared_server)["tables"])
        cases = [
            ({**base, "public": False}, 400, "rated_needs_public"),
            ({**base, "hints": True}, 400, "rated_no_hints"),
            ({**base, "options": {"dice_per_player": 3}}, 400, "rated_house_rules"),
        ]
        for body, status, code in cases:
            refused(http.post("/api/tables", json=body, headers=mine), status, code)
        refused(http.post("/api/tables", json=base), 401, "rated_needs_player")
        refused(
            http.post("/api/tables", json={**base, "rated": "yes"}, headers=mine),
            422,
            "invalid_request",
        )
        # The preset's own value written out is no house rule.
        same = {**base, "options": {"dice_per_player": 5}}
        assert http.post("/api/tables", json=same, headers=mine).status_code == 201
        assert len(lobby(shared_server)["tables"]) == before + 1, "each refusal made nothing"
    table = rated_table(shared_server, ana["key"])
    card = next(c for c in lobby(shared_server)["tables"] if c["code"] == table["code"])
    assert card["rated"] is True
    assert get_table(shared_server, table["code"])["rated"] is True
    # A seat token alone cannot sit there; a player can.
    with api(shared_server) as http:
        refused(
            http.post(f"/api/tables/{table['code']}/join", json={"name": "Bo"}),
            401,
            "rated_needs_player",
        )
    bo = new_player(shared_server, "Bo Rated")
    assert join_as(shared_server, table["code"], "Bo", bo["key"])["seat"] == 1


def test_a_rated_game_rates_its_players_and_bots_once(
    live_server: ServerFactory, browser: Browser
) -> None:
    server = live_server()
    ana, bo = new_player(server, "Ana"), new_player(server, "Bo")
    created = rated_table(server, ana["key"], seats=4, bots=["easy", "easy"])
    code = created["code"]
    joined = join_as(server, code, "Bo", bo["key"])
    host_post(server, code, "start", created["token"])
    with (
        Player(server, code, created["token"], name="Ana") as a,
        Player(server, code, joined["token"], name="Bo") as b,
    ):
        final = play_turns([a, b], random.Random(7))
    assert final["winner"] is not None
    table = get_table(server, code)
    with api(server) as http:
        record = http.get(f"/api/games/{table['game']}/record").json()
        board = {
            r["rater"]: r for r in http.get("/api/ratings/dudo?provisional=1").json()["ratings"]
        }
        anas = http.get(f"/api/players/{ana['id']}/ratings").json()["ratings"]
        export = http.get("/api/players/me/export", headers=as_player(ana["key"])).json()
    assert record["meta"]["rated"] == "dudo"
    assert set(board) == {ana["id"], bo["id"], "bot:easy"}
    assert all(r["games"] == 1 for r in board.values()), "two easy bots are one rater, once"
    assert board[ana["id"]]["name"] == "Ana"
    # Ana's place is the engine's: the finishing order of the replayed record.
    order = replay(record).finishing_order()
    (history,) = anas["dudo"]["history"]
    ana_player = next(i for i, p in enumerate(record["players"]) if p["name"] == "Ana")
    assert history["place"] == order.index(ana_player) + 1
    assert history["game"] == table["game"]
    assert export["ratings"][0]["family"] == "dudo" and export["ratings"][0]["games"] == 1
    (game,) = export["games"]
    assert game["place"] == history["place"] and game["rated"] == "dudo"
    # The table says how each rated seat's rating moved: from the new rater's 1500 to the
    # board's, still provisional after one game; the two easy bots' seats move together as
    # their level.
    changes = table["rating_changes"]
    assert changes["family"] == "dudo"
    by_seat = {c["seat"]: c for c in changes["seats"]}
    assert set(by_seat) == {s["seat"] for s in table["seats"] if s["kind"] != "open"}
    assert by_seat[0]["before"] == 1500 and by_seat[0]["after"] == board[ana["id"]]["rating"]
    assert by_seat[0]["provisional"] is True and by_seat[0]["level"] is None
    easy = [c for c in changes["seats"] if c["level"] == "easy"]
    assert len(easy) == 2 and easy[0]["after"] == easy[1]["after"] == board["bot:easy"]["rating"]
    # A restart stores nothing again: the ratings are as they were, and the table still says so.
    server.restart()
    with api(server) as http:
        again = {
            r["rater"]: r for r in http.get("/api/ratings/dudo?provisional=1").json()["ratings"]
        }
    assert again == board
    assert get_table(server, code)["rating_changes"] == changes

    # Ana's page shows her new rating first, in Spanish, with the move and the leaderboard.
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(
        "localStorage.setItem('dudo.lang', 'es');"
        f"localStorage.setItem('dudo.player.key', {json.dumps(ana['key'])});"
        f"localStorage.setItem('dudo.seat.{code}', {json.dumps(created['token'])});"
    )
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}")
    box = page.locator("#rating-changes")
    expect(box.locator("h3")).to_have_text(words("es")["over.ratings"].replace("{family}", "Dudo"))
    mine = box.locator("li.rating-change").first
    expect(mine).to_have_class(re.compile(r"\bme\b"))
    # The new rating in whole points, with its provisional "?" (explained to screen readers).
    expect(mine.locator(".rating-after")).to_have_text(
        re.compile(rf"^{board[ana['id']]['rating']}\?")
    )
    expect(mine.locator(".provisional-mark")).to_have_attribute(
        "title", words("es")["ratings.provisional_other"].replace("{n}", "10")
    )
    delta = board[ana["id"]]["rating"] - 1500
    expect(mine.locator(".rating-delta")).to_have_text(re.compile(rf"^[+\-\u2212]?{abs(delta)}$"))
    # One row per rater: the two easy bots are one row, the level's, naming both its seats.
    expect(box.locator("li.rating-change")).to_have_count(len(by_seat) - 1)
    level = box.locator('li.rating-change[data-level="easy"]')
    expect(level).to_have_count(1)
    expect(level).to_have_attribute("data-seats", " ".join(str(c["seat"]) for c in easy))
    expect(level.locator(".rating-name")).to_have_text(words("es")["bot.easy"])
    expect(level.locator(".rating-level")).to_have_text(
        words("es")["over.rating_level_other"].replace("{n}", "2")
    )
    expect(box.locator("#rating-board-link")).to_have_attribute("href", "/ratings/dudo")
    if page.locator("#reveal").is_visible():  # the last round's dice first: closed
        page.click("#reveal-dismiss")
    page.locator("#game-over").screenshot(path=str(screenshot_dir() / "rated-game-over-es.png"))
    context.close()


def play_until_bo_acts(a: Player, b: Player, rng: random.Random) -> None:
    """Play Ana's turns until Bo has made one move himself."""
    view = play_turns([a, b], rng, stop=lambda _view: bool(b.view and b.view["legal"]))
    assert view["winner"] is None and b.view is not None
    b.act(choose(b.view, rng))
    b.wait_turn(view["turn"] + 1)


def test_leaving_a_rated_game_finishes_last(live_server: ServerFactory) -> None:
    """Bo makes a move, then goes away with dice left: after the grace period a bot plays for
    him, and however well it does, Bo finishes below everyone who played on."""
    server = live_server()
    ana, bo = new_player(server, "Ana"), new_player(server, "Bo")
    created = rated_table(server, ana["key"], seats=3, bots=["easy"], grace_seconds=0)
    code = created["code"]
    joined = join_as(server, code, "Bo", bo["key"])
    rng = random.Random(11)
    with Player(server, code, created["token"], name="Ana") as a:
        with Player(server, code, joined["token"], name="Bo") as b:
            host_post(server, code, "start", created["token"])
            play_until_bo_acts(a, b, rng)
        final = play_turns([a], rng)
    assert final["winner"] is not None
    table = get_table(server, code)
    with api(server) as http:
        record = http.get(f"/api/games/{table['game']}/record").json()
        bos = http.get("/api/players/me/export", headers=as_player(bo["key"])).json()
    bo_player = next(i for i, p in enumerate(record["players"]) if p["name"] == "Bo")
    assert record["meta"]["left_early"] == [bo_player]
    (game,) = bos["games"]
    assert (game["place"], game["left_early"]) == (3, True)
    assert bos["ratings"][0]["history"][0]["place"] == 3


def test_the_host_cannot_kick_a_player_out_of_a_rated_game(
    live_server: ServerFactory, browser: Browser
) -> None:
    """The host removing Bo mid-game would hand his seat to a stand-in and place him last: at
    a rated table it is refused once the game has started (and the host's page offers no
    kick), so Bo plays on and is placed where the board puts him. Before the game the host
    may still free a seat."""
    server = live_server()
    ana, bo, cy = (new_player(server, name) for name in ("Ana", "Bo", "Cy"))
    created = rated_table(server, ana["key"], seats=3, bots=["easy"])
    code, host = created["code"], created["token"]
    cy_seat = join_as(server, code, "Cy", cy["key"])["seat"]
    with api(server) as http:
        freed = http.delete(f"/api/tables/{code}/seats/{cy_seat}", headers=bearer(host))
    assert freed.status_code == 200 and freed.json()["seats"][cy_seat]["kind"] == "open"
    joined = join_as(server, code, "Bo", bo["key"])
    seat = joined["seat"]
    with (
        Player(server, code, host, name="Ana") as a,
        Player(server, code, joined["token"], name="Bo") as b,
    ):
        host_post(server, code, "start", host)
        page = browser.new_page()
        page.add_init_script(f"localStorage.setItem('dudo.seat.{code}', {json.dumps(host)});")
        page.goto(f"{server.url}/t/{code}")
        expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")
        expect(page.locator("#seat-list li[data-kind=human]")).to_have_count(2)
        expect(page.locator("button.remove-seat")).to_have_count(0)
        page.close()
        with api(server) as http:
            kick = http.delete(f"/api/tables/{code}/seats/{seat}", headers=bearer(host))
        refused(kick, 409, "rated_no_kick")
        after = get_table(server, code)["seats"][seat]
        assert (after["kind"], after["autoplay"]) == ("human", False), "nothing changed"
        final = play_turns([a, b], random.Random(3))
    assert final["winner"] is not None
    table = get_table(server, code)
    with api(server) as http:
        record = http.get(f"/api/games/{table['game']}/record").json()
        bos = http.get(f"/api/players/{bo['id']}/ratings").json()["ratings"]
    assert "left_early" not in record["meta"] and "stood_in" not in record["meta"]
    order = replay(record).finishing_order()
    bo_player = next(i for i, p in enumerate(record["players"]) if p["name"] == "Bo")
    assert bos["dudo"]["history"][0]["place"] == order.index(bo_player) + 1


def test_an_account_that_never_plays_is_not_rated_and_rates_nobody(
    live_server: ServerFactory,
) -> None:
    """Ana's second account Bo sits at her rated table and never comes: a stand-in plays his
    seat, and he made no move himself, so the game counts for neither of them (two people, one
    of whom never played). With a bot at the table too, Ana and the bot are rated, Bo not."""
    server = live_server()
    ana, bo = new_player(server, "Ana"), new_player(server, "Bo")
    for game, bots in enumerate(([], ["easy"])):
        created = rated_table(server, ana["key"], seats=2 + len(bots), bots=bots, grace_seconds=0)
        code = created["code"]
        join_as(server, code, "Bo", bo["key"])
        with Player(server, code, created["token"], name="Ana") as a:
            host_post(server, code, "start", created["token"])
            final = play_turns([a], random.Random(20 + game))
        assert final["winner"] is not None
        table = get_table(server, code)
        with api(server) as http:
            record = http.get(f"/api/games/{table['game']}/record").json()
            board = {
                r["rater"] for r in http.get("/api/ratings/dudo?provisional=1").json()["ratings"]
            }
            bos = http.get("/api/players/me/export", headers=as_player(bo["key"])).json()
        assert record["meta"]["rated"] == "dudo"
        assert bos["ratings"] == [], "Bo never played: no rating"
        (mine,) = [g for g in bos["games"] if g["game"] == table["game"]]
        assert (mine["place"], mine["left_early"]) == (2 + len(bots), True), "placed, not rated"
        if not bots:
            assert table["rating_changes"] is None and board == set(), "nobody rated"
        else:
            assert board == {ana["id"], "bot:easy"}
            rated_seats = {c["seat"] for c in table["rating_changes"]["seats"]}
            assert rated_seats == {0, 1}, "Ana's and the bot's seats"


def test_play_now_fills_a_rated_table_with_the_sites_bots(live_server: ServerFactory) -> None:
    """A rated table's bots are the site's choice: "Play now" asking for random bots gets
    medium ones, and random bots (free wins) cannot sit at a rated table at all."""
    server = live_server()
    ana = new_player(server, "Ana")
    with api(server) as http:
        response = http.post(
            "/api/lobby/play",
            json={"name": "Ana", "fill_level": "random", "fill_seconds": 1},
            headers=as_player(ana["key"]),
        )
        assert response.status_code == 201, response.text
        code = response.json()["code"]
        card = next(c for c in lobby(server)["tables"] if c["code"] == code)
        assert (card["rated"], card["fill_level"]) == (True, RATED_FILL_LEVEL)
        deadline = time.monotonic() + FRAME_SECONDS
        while (table := get_table(server, code))["status"] != "playing":
            assert time.monotonic() < deadline, "the countdown did not start the game"
            time.sleep(0.05)
        bots = [s["level"] for s in table["seats"] if s["kind"] == "bot"]
        assert bots and set(bots) == {RATED_FILL_LEVEL}
        # The host of a rated table cannot seat a random bot either, nor create it with one.
        created = rated_table(server, ana["key"], seats=3, fill_level="random", fill_seconds=600)
        assert get_table(server, created["code"])["fill_level"] == RATED_FILL_LEVEL
        refused(
            http.post(
                f"/api/tables/{created['code']}/bots",
                json={"level": "random"},
                headers=bearer(created["token"]),
            ),
            400,
            "rated_bot_level",
        )
        assert get_table(server, created["code"])["seats"][1]["kind"] == "open"
        body = {"name": "Ana", "public": True, "rated": True, "bots": ["random"]}
        refused(
            http.post("/api/tables", json=body, headers=as_player(ana["key"])),
            400,
            "rated_bot_level",
        )


def test_play_now_opens_rated_tables_for_players(live_server: ServerFactory) -> None:
    server = live_server()
    ana = new_player(server, "Ana")
    with api(server) as http:
        response = http.post(
            "/api/lobby/play",
            json={"name": "Ana", "preset": "perudo"},
            headers=as_player(ana["key"]),
        )
    assert response.status_code == 201, response.text
    rated = response.json()
    assert get_table(server, rated["code"])["rated"] is True
    # Someone without a player key is not seated at a rated table: they get one of their own,
    # unrated, where the next person without a key joins them.
    cy = play_now(server, "Cy", preset="perudo")
    assert cy["code"] != rated["code"] and get_table(server, cy["code"])["rated"] is False
    assert play_now(server, "Di", preset="perudo")["code"] == cy["code"]
