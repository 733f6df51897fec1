"""Players: made without friction, theirs to rename, export and delete; a one-time code or a
password moves them to another device, where they take their seat back; a guessed id shows a
name and nothing else. Real servers, real SQLite (and PostgreSQL for the store), real Chromium.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from dudo.server.storage import Store
from dudo.server.tables import CODE_ALPHABET

from .conftest import (
    CHROMIUM,
    TEST_ARGS,
    Json,
    LiveServer,
    Player,
    ServerFactory,
    api,
    bearer,
    get_table,
    host_post,
    limit_args,
    play_turns,
    words,
)
from .test_browser import DESKTOP, PHONE, create_table, open_page, screenshot_dir


def as_player(key: str) -> dict[str, str]:
    return {"Authorization": f"Player {key}"}


def new_player(server: LiveServer, name: str | None = None) -> Json:
    with api(server) as http:
        answer = http.post("/api/players", json={} if name is None else {"name": name})
    assert answer.status_code == 201, answer.text
    made: Json = answer.json()
    return made


def refused(response: object, status: int, code: str) -> Json:
    import httpx

    assert isinstance(response, httpx.Response)
    assert response.status_code == status, f"{response.status_code} {response.text}"
    body: Json = response.json()
    assert body["code"] == code, body
    return body


# ----------------------------------------------------------------------------- the store


def test_players_and_codes_in_the_store(db_url: str) -> None:
    """SQLite and PostgreSQL: names are unique once normalized, a code is used once and not
    after it expires, and a deleted player's name is free again."""
    store = Store(db_url)
    try:
        assert store.create_player("p1", "Ana", "ana", "hash1")
        assert not store.create_player("p2", "ANA", "ana", "hash2"), "the name is taken"
        assert store.player_by_key("hash1") is not None
        assert store.player_by_key("hash2") is None
        store.add_code("code1", "p1", "sealed", time.time() + 60)
        assert store.take_code("code1") == ("p1", "sealed")
        assert store.take_code("code1") is None, "a code works once"
        store.add_code("code2", "p1", "sealed", time.time() - 1)
        assert store.take_code("code2") is None, "an expired code does not work"
        store.add_code("code3", "p1", "sealed", time.time() + 60)
        store.add_code("code4", "p1", "sealed", time.time() + 60)
        assert store.take_code("code3") is None, "a new code replaces the one before"
        store.delete_player("p1")
        assert store.player("p1") is None and store.player_by_key("hash1") is None
        assert store.take_code("code4") is None, "a deleted player's codes go with them"
        assert store.create_player("p3", "ana", "ana", "hash3"), "the name is free again"
    finally:
        store.close()


def test_a_database_of_the_release_before_players_upgrades_with_its_seats(db_url: str) -> None:
    """SQLite and PostgreSQL: a database at the schema before players (0003) with a table and
    its seats is migrated; the seats are kept, belonging to no player."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from dudo.server import storage

    engine = storage.make_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(storage.MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
    with engine.begin() as c:
        c.execute(
            sa.text(
                "INSERT INTO tables (code, created, status, preset, options, settings, host) "
                "VALUES ('OLD234', 1, 'lobby', 'dudo', '{}', :settings, 0)"
            ),
            {
                "settings": json.dumps(
                    {"seats": 2, "turn_seconds": 0, "grace_seconds": 30, "bot_seconds": 1.0}
                )
            },
        )
        c.execute(
            sa.text(
                "INSERT INTO seats (code, seat, kind, name, token_hash, autoplay) "
                "VALUES ('OLD234', 0, 'human', 'Ana', 'abc', false)"
            )
        )
    engine.dispose()
    store = Store(db_url)
    try:
        (table,) = store.load_tables()
        assert (table.code, table.seats[0].name, table.seats[0].player_id) == (
            "OLD234",
            "Ana",
            None,
        )
    finally:
        store.close()


# ------------------------------------------------------------------------------ over HTTP


def test_a_player_renames_exports_and_deletes_and_their_games_stay(
    live_server: ServerFactory,
) -> None:
    server = live_server()
    ana = new_player(server, "Ana")
    assert len(ana["key"]) >= 40 and ana["name"] == "Ana"
    auto = new_player(server)
    assert auto["name"].startswith("Dudo "), "a player who gives no name gets one"
    with api(server) as http:
        me = http.get("/api/players/me", headers=as_player(ana["key"])).json()
        assert me == {"id": ana["id"], "name": "Ana", "created": me["created"], "password": False}
        # Names follow the table name rules: "ＡＮＡ" is "Ana", and a name is one player's.
        refused(http.post("/api/players", json={"name": "ＡＮＡ"}), 409, "player_name_taken")
        refused(
            http.patch("/api/players/me", json={"name": " "}, headers=as_player(ana["key"])),
            400,
            "name_missing",
        )
        renamed = http.patch(
            "/api/players/me", json={"name": "Ana María"}, headers=as_player(ana["key"])
        )
        assert renamed.json()["name"] == "Ana María"
        refused(
            http.patch(
                "/api/players/me", json={"name": "ana maría"}, headers=as_player(auto["key"])
            ),
            409,
            "player_name_taken",
        )
        refused(
            http.get("/api/players/me", headers=as_player("not-a-key")), 401, "player_key_needed"
        )
        refused(http.get("/api/players/me"), 401, "player_key_needed")

        # A table made with the player key: the host's seat is the player's.
        created = http.post(
            "/api/tables",
            json={
                "name": "Ana",
                "seats": 2,
                "bots": ["easy"],
                "bot_seconds": 0,
                "reveal_seconds": 0,
            },
            headers=as_player(ana["key"]),
        ).json()
    code = created["code"]
    with Player(server, code, created["token"], name="Ana") as socket:
        host_post(server, code, "start", created["token"])
        assert play_turns([socket], random.Random(4))["winner"] is not None
    game = get_table(server, code)["game"]
    with api(server) as http:
        exported = http.get("/api/players/me/export", headers=as_player(ana["key"])).json()
        assert exported["profile"]["name"] == "Ana María" and exported["ratings"] == []
        assert [(g["game"], g["seat"], g["player"], g["name"]) for g in exported["games"]] == [
            (game, 0, 0, "Ana")
        ]
        assert isinstance(exported["games"][0]["won"], bool)
        assert ana["key"] not in json.dumps(exported) and "hash" not in json.dumps(exported)

        assert "Ana" in http.get(f"/api/games/{game}/replay").text  # its replay is built and kept
        assert http.delete("/api/players/me", headers=as_player(ana["key"])).status_code == 200
        refused(
            http.get("/api/players/me", headers=as_player(ana["key"])), 401, "player_key_needed"
        )
        refused(http.get(f"/api/players/{ana['id']}"), 404, "no_player")
        # The game stays, its seat named as a deleted player (null, worded by the client).
        listed = next(g for g in http.get("/api/games").json()["games"] if g["id"] == game)
        assert listed["players"][0] is None and listed["deleted"] == [0], listed
        replay = http.get(f"/api/games/{game}/replay").json()
        assert "Ana" not in json.dumps(replay), "the deleted player's name is gone from the replay"
        record = http.get(f"/api/games/{game}/record").json()
        assert "Ana" not in json.dumps(record) and record["meta"]["deleted"] == [0]
        # The seat is given up with the account (its token no longer works), and the name
        # is free for a new player.
        refused(
            http.post(f"/api/tables/{code}/ready", headers=bearer(created["token"])),
            401,
            "seat_token_needed",
        )
    assert new_player(server, "Ana María")["name"] == "Ana María"


def test_a_guessed_player_id_shows_a_name_and_nothing_else(live_server: ServerFactory) -> None:
    server = live_server()
    bo = new_player(server, "Bo")
    with api(server) as http:
        http.post(
            "/api/players/me/password",
            json={"password": "long enough"},
            headers=as_player(bo["key"]),
        )
        http.post("/api/players/me/code", headers=as_player(bo["key"]))
        public = http.get(f"/api/players/{bo['id']}")
        assert public.status_code == 200 and public.json() == {"id": bo["id"], "name": "Bo"}
        for guess in ("AAAAAAAAAAAA", "x" * 40, "me2", "%00"):
            refused(http.get(f"/api/players/{guess}"), 404, "no_player")
    with sqlite3.connect(server.sqlite_path) as db:
        key_hash, password_hash = db.execute(
            "SELECT key_hash, password_hash FROM players WHERE id = ?", (bo["id"],)
        ).fetchone()
    assert key_hash != bo["key"] and password_hash.startswith("$argon2id$")
    assert key_hash not in public.text and "argon2" not in public.text


def test_a_one_time_code_moves_a_player_once(live_server: ServerFactory) -> None:
    server = live_server(
        args=[*TEST_ARGS, *limit_args(codes_burst=3, claims_burst=4, claims_per_minute=0.01)]
    )
    ana = new_player(server, "Ana")
    created = new_table_as(server, ana["key"])
    with api(server) as http:
        given = http.post("/api/players/me/code", headers=as_player(ana["key"]))
        assert given.status_code == 201, given.text
        code = given.json()["code"]
        assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)
        assert 290 < given.json()["expires"] - time.time() <= 300
        # The other device types it (lower case and a space are fine) and is the same player.
        moved = http.post("/api/players/claim", json={"code": f"{code[:4].lower()} {code[4:]}"})
        assert moved.status_code == 200, moved.text
        other = moved.json()
        assert (other["id"], other["name"]) == (ana["id"], "Ana")
        # It takes the seat back: the same seat and a token that acts for it.
        seat = http.post(f"/api/tables/{created['code']}/seat", headers=as_player(other["key"]))
        assert seat.json()["seat"] == 0 and seat.json()["token"] == created["token"]
        # Joining again with the player key gives the same seat, not a second one.
        mine = http.get("/api/players/me/tables", headers=as_player(other["key"])).json()
        assert mine == {"tables": [{"code": created["code"], "seat": 0}]}
        again = http.post(
            f"/api/tables/{created['code']}/join",
            json={"name": "Ana2"},
            headers=as_player(other["key"]),
        )
        assert again.json()["seat"] == 0
        # The first device keeps working; the code works once.
        assert http.get("/api/players/me", headers=as_player(ana["key"])).status_code == 200
        refused(http.post("/api/players/claim", json={"code": code}), 400, "bad_player_code")
        # Someone else has no seat there.
        bo = new_player(server, "Bo")
        none = http.post(f"/api/tables/{created['code']}/seat", headers=as_player(bo["key"]))
        assert (none.status_code, none.json()["seat"], none.json()["token"]) == (200, None, None)
        # A real code of Bo's, kept for the end.
        good = http.post("/api/players/me/code", headers=as_player(bo["key"])).json()["code"]
        assert len(good) == 8 and set(good) <= set(CODE_ALPHABET), good
        # Three codes at once from this address (and Ana's third), then no more for a while.
        assert http.post("/api/players/me/code", headers=as_player(ana["key"])).status_code == 201
        last = http.post("/api/players/me/code", headers=as_player(ana["key"])).json()
        assert last["code"] == "rate_limited", last
        # Every code tried takes a token, right or wrong (text that cannot be a code takes none):
        # two more wrong guesses (the right code and the used one took two), then every claim
        # is refused for the rate, even a right one, so a guesser learns nothing.
        for wrong in ("AAAA2222", "not a code", "BBBB3333"):
            refused(http.post("/api/players/claim", json={"code": wrong}), 400, "bad_player_code")
        refused(http.post("/api/players/claim", json={"code": good}), 429, "rate_limited")


def new_table_as(server: LiveServer, key: str, **body: object) -> Json:
    """A table made with a player key: the host's seat is the player's (one easy bot)."""
    body = {"name": "Ana", "seats": 3, "bots": ["easy"], **body}
    with api(server) as http:
        answer = http.post("/api/tables", json=body, headers=as_player(key))
    assert answer.status_code == 201, answer.text
    made: Json = answer.json()
    return made


def test_a_password_signs_a_player_in_anywhere(live_server: ServerFactory) -> None:
    server = live_server(args=[*TEST_ARGS, *limit_args(claims_burst=3, claims_per_minute=0.01)])
    ana = new_player(server, "Ana")
    with api(server) as http:
        short = refused(
            http.post(
                "/api/players/me/password",
                json={"password": "short"},
                headers=as_player(ana["key"]),
            ),
            400,
            "password_too_short",
        )
        assert short["params"] == {"count": 8}
        set_ = http.post(
            "/api/players/me/password",
            json={"password": "correct horse"},
            headers=as_player(ana["key"]),
        )
        assert set_.json()["password"] is True
        signed = http.post(
            "/api/players/login", json={"name": "ａｎａ", "password": "correct horse"}
        )
        assert signed.status_code == 200, signed.text
        assert signed.json() == {"id": ana["id"], "name": "Ana", "key": ana["key"]}
        wrong = refused(
            http.post("/api/players/login", json={"name": "Ana", "password": "wrong horse"}),
            401,
            "wrong_login",
        )
        nobody = refused(
            http.post("/api/players/login", json={"name": "Nobody", "password": "correct horse"}),
            401,
            "wrong_login",
        )
        assert wrong == nobody, "a wrong password and an unknown name answer alike"
        # Every try takes a token, right or wrong: three spent the address's allowance, and
        # even the right password waits now.
        refused(
            http.post("/api/players/login", json={"name": "Ana", "password": "correct horse"}),
            429,
            "rate_limited",
        )


def test_an_address_creates_players_at_a_limited_rate(live_server: ServerFactory) -> None:
    server = live_server(args=[*TEST_ARGS, *limit_args(players_burst=2, players_per_minute=0.01)])
    new_player(server)
    new_player(server)
    with api(server) as http:
        body = refused(http.post("/api/players", json={}), 429, "rate_limited")
    assert body["params"]["count"] >= 1


# ------------------------------------------------------------------------------ in a browser

pytestmark_browser = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"
)


@pytestmark_browser
@pytest.mark.parametrize(("lang", "viewport"), [("es", PHONE), ("it", DESKTOP)])
def test_a_player_moves_to_a_second_browser_with_a_code_and_takes_their_seat_back(
    browser: Browser, live_server: ServerFactory, lang: str, viewport: dict[str, int]
) -> None:
    server = live_server()
    errors: list[str] = []
    a = open_page(browser, viewport, errors)
    a.add_init_script(f"localStorage.setItem('dudo.lang', '{lang}')")
    # The first visit makes the player (a person takes longer to fill the form than that).
    a.goto(server.url + "/")
    expect(a.locator("#you-button-name")).not_to_be_empty()
    code = create_table(a, server)
    name = a.locator("#you-button-name").inner_text()
    text = words(lang)
    a.click("#you-button")
    expect(a.locator("#you-dialog h2")).to_have_text(text["player.heading"])
    a.click("#you-code-button")
    expect(a.locator("#you-code")).to_be_visible()
    expect(a.locator("#you-code-help")).to_have_text(
        text["player.code_help_other"].replace("{count}", "5")
    )
    shots = screenshot_dir()
    size = "phone" if viewport == PHONE else "desktop"
    a.screenshot(path=str(shots / f"player-code-{lang}-{size}.png"))
    one_time = a.locator("#you-code").get_attribute("data-code")
    assert one_time is not None

    b = open_page(browser, viewport, errors)
    b.add_init_script(f"localStorage.setItem('dudo.lang', '{lang}')")
    # On the phone B opens the table's link first; on the desktop B starts at the first page.
    on_table = viewport == PHONE
    if on_table:
        b.goto(f"{server.url}/t/{code}")
        expect(b.locator("main#table-main")).to_have_attribute("data-status", "lobby")
        expect(b.locator("#start-button")).to_be_hidden()  # a new player: only watching
    else:
        b.goto(server.url + "/")
        expect(b.locator("#my-tables")).to_be_hidden()
    b.click("#you-button")
    b.fill("#you-claim", "WRONG123")
    b.click("#you-claim-button")
    expect(b.locator("#you-error")).to_have_text(text["error.bad_player_code"])
    b.fill("#you-claim", one_time)
    b.click("#you-claim-button")
    # The page reloads as the player, with the player's tables; the table takes the seat back:
    # B is the host and starts.
    expect(b.locator("#you-button-name")).to_have_text(name)
    if not on_table:
        expect(b.locator("#my-tables-list a.table-link")).to_have_text(code)
        b.screenshot(path=str(shots / f"player-my-tables-{lang}-{size}.png"))
        b.click("#my-tables-list a.table-link")
    expect(b.locator("#start-button")).to_be_visible()
    b.screenshot(path=str(shots / f"player-seat-back-{lang}-{size}.png"))
    b.click("#start-button")
    expect(b.locator("main#table-main")).to_have_attribute("data-status", "playing")
    table = get_table(server, code)
    assert table["seats"][0]["name"] == "Ana" and table["seats"][0]["connected"]
    # A keeps its seat too.
    expect(a.locator("main#table-main")).to_have_attribute("data-status", "playing")
    expect(a.locator("#status")).to_be_visible()
    # The one refusal the browser logs is the wrong code's.
    assert [e for e in errors if "status of 400" not in e] == [], errors


@pytestmark_browser
def test_the_you_dialog_renames_exports_and_deletes(
    browser: Browser, live_server: ServerFactory
) -> None:
    server = live_server()
    errors: list[str] = []
    page = open_page(browser, PHONE, errors)
    page.add_init_script("localStorage.setItem('dudo.lang', 'es')")
    page.goto(server.url + "/")
    expect(page.locator("#you-button-name")).not_to_be_empty()
    page.click("#you-button")
    page.fill("#you-name", "Lucía")
    page.click("#you-rename")
    text = words("es")
    expect(page.locator("#you-status")).to_have_text(
        text["player.renamed"].replace("{name}", "Lucía")
    )
    expect(page.locator("#you-button-name")).to_have_text("Lucía")
    page.fill("#you-password", "corta")
    page.click("#you-password-button")
    expect(page.locator("#you-error")).to_have_text(
        text["error.password_too_short_other"].replace("{count}", "8")
    )
    # A game played as this player (over the API, with the key the page keeps).
    key = page.evaluate("localStorage.getItem('dudo.player.key')")
    created = new_table_as(server, key, seats=2, bot_seconds=0, reveal_seconds=0)
    with Player(server, created["code"], created["token"], name="Ana") as socket:
        host_post(server, created["code"], "start", created["token"])
        assert play_turns([socket], random.Random(2))["winner"] is not None
    game = get_table(server, created["code"])["game"]
    with page.expect_download() as download:
        page.click("#you-export")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["profile"]["name"] == "Lucía"
    assert [g["game"] for g in exported["games"]] == [game]
    page.screenshot(path=str(screenshot_dir() / "player-dialog-es-phone.png"), full_page=True)
    # axe-core finds nothing serious in the open dialog, in either theme.
    from .test_accessibility import contrast_over_gradients, serious_problems

    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        assert serious_problems(page) == [], scheme
        assert contrast_over_gradients(page) == [], scheme
    # This browser keeps the seat's token, as a table page does, and the name its forms had.
    page.evaluate(f"localStorage.setItem('dudo.seat.{created['code']}', '{created['token']}')")
    page.evaluate("localStorage.setItem('dudo.name', 'Lucía')")
    page.click("#you-delete")
    expect(page.locator("#you-delete-ask")).to_have_text(
        text["player.delete_ask"] + text["player.delete_confirm"] + text["player.cancel"]
    )
    page.click("#you-delete-confirm")
    expect(page.locator("#you-status")).to_have_text(text["player.deleted_done"])
    expect(page.locator("#you-button-name")).not_to_have_text("Lucía")
    # The browser forgot the key, the name and the seat: "Lucía" is free for anyone else.
    kept = page.evaluate(
        f"[localStorage.getItem('dudo.player.key'), localStorage.getItem('dudo.name'),"
        f" localStorage.getItem('dudo.seat.{created['code']}')]"
    )
    assert kept[0] not in (None, key) and kept[1:] == [None, None], kept
    assert new_player(server, "Lucía")["name"] == "Lucía"
    # The game stays, with the seat shown as a deleted player, in the list and the replay.
    page.goto(server.url + "/games")
    expect(page.locator(f'a[data-game="{game}"] .g-title')).to_contain_text(text["player.deleted"])
    page.goto(f"{server.url}/games/{game}")
    expect(page.locator("#replay-hands")).to_contain_text(text["player.deleted"])
    page.screenshot(
        path=str(screenshot_dir() / "player-deleted-replay-es-phone.png"), full_page=True
    )
    # The one refusal the browser logs is the short password's.
    assert [e for e in errors if "status of 400" not in e] == [], errors


def test_play_now_seats_belong_to_the_player(live_server: ServerFactory) -> None:
    """Play now with a player key: the seat it opens or joins is the player's, so another
    device holding the key gets it back."""
    server = live_server()
    ana, bo = new_player(server, "Ana"), new_player(server, "Bo")
    with api(server) as http:
        body = {"preset": "perudo", "fill_seconds": 0}
        opened = http.post(
            "/api/lobby/play", json={**body, "name": "Ana"}, headers=as_player(ana["key"])
        )
        assert opened.status_code == 201 and opened.json()["created"], opened.text
        joined = http.post(
            "/api/lobby/play", json={**body, "name": "Bo"}, headers=as_player(bo["key"])
        )
        assert joined.json()["code"] == opened.json()["code"], joined.text
        code = opened.json()["code"]
        for made, who in ((opened.json(), ana), (joined.json(), bo)):
            mine = http.get("/api/players/me/tables", headers=as_player(who["key"])).json()
            assert mine == {"tables": [{"code": code, "seat": made["seat"]}]}
            back = http.post(f"/api/tables/{code}/seat", headers=as_player(who["key"])).json()
            assert (back["seat"], back["token"]) == (made["seat"], made["token"])


@pytestmark_browser
def test_the_first_name_typed_becomes_the_made_up_players_name(
    browser: Browser, live_server: ServerFactory
) -> None:
    """A first visit makes a player named by the server; the name then typed to create a table
    becomes the player's, once; a name chosen in the "you" dialog is never replaced."""
    server = live_server()
    errors: list[str] = []
    page = open_page(browser, PHONE, errors)
    page.add_init_script("localStorage.setItem('dudo.lang', 'it')")
    page.goto(server.url + "/")
    made_up = page.locator("#you-button-name")
    expect(made_up).to_have_text(re.compile(r"^Dudo \d+$"))
    key = page.evaluate("localStorage.getItem('dudo.player.key')")
    create_table(page, server)  # as "Ana"
    expect(page.locator("#you-button-name")).to_have_text("Ana")
    with api(server) as http:
        assert http.get("/api/players/me", headers=as_player(key)).json()["name"] == "Ana"
    # Renamed by hand, then another name typed at a table: the chosen name stays.
    page.click("#you-button")
    page.fill("#you-name", "Anita")
    page.click("#you-rename")
    expect(page.locator("#you-button-name")).to_have_text("Anita")
    page.evaluate("localStorage.setItem('dudo.name', 'Otra')")
    page.reload()
    expect(page.locator("#you-button-name")).to_have_text("Anita")
    assert errors == [], errors


@pytestmark_browser
def test_a_friend_who_joins_by_link_is_named_as_they_typed_at_once(
    browser: Browser, live_server: ServerFactory
) -> None:
    """A friend opens the table's link with a made-up player name and sits down as "Bea": the
    player is renamed to Bea on the spot, so the top bar says Bea and the host sees Bea in the
    friend's profile, with no reload. A second friend who types a name another player holds is
    refused the seat, told why, and keeps the made-up player name."""
    server = live_server()
    new_player(server, "Cleo")  # a player who holds the name "Cleo"
    with api(server) as http:
        created = http.post("/api/tables", json={"name": "Ana", "seats": 3})
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    errors: list[str] = []
    host = open_page(browser, DESKTOP, errors)
    host.add_init_script(f"localStorage.setItem('dudo.seat.{code}', '{created.json()['token']}')")
    host.goto(f"{server.url}/t/{code}")
    expect(host.locator("main#table-main")).to_have_attribute("data-status", "lobby")

    friend = open_page(browser, PHONE, errors)
    friend.goto(f"{server.url}/t/{code}")
    expect(friend.locator("#you-button-name")).to_have_text(re.compile(r"^Dudo \d+$"))
    friend.evaluate("window.sameLoad = true")  # gone if the page reloads
    friend.fill("#join-name", "Bea")
    friend.click("#join-button")
    expect(friend.locator("#lobby")).to_be_visible()
    expect(friend.locator("#you-button-name")).to_have_text("Bea")
    assert friend.evaluate("window.sameLoad === true"), "the page reloaded"
    expect(host.locator('#seat-list li[data-seat="1"] .seat-name')).to_have_text("Bea")
    profile = friend.locator("#you-profile").get_attribute("href")
    assert profile is not None and profile.startswith("/players/"), profile
    host.goto(server.url + profile)
    expect(host.locator("#profile-name")).to_have_text("Bea")

    refusals: list[str] = []  # the refused rename: Chromium logs its 409
    other = open_page(browser, PHONE, refusals)
    other.goto(f"{server.url}/t/{code}")
    made_up = re.compile(r"^Dudo \d+$")
    expect(other.locator("#you-button-name")).to_have_text(made_up)
    other.fill("#join-name", "Cleo")
    other.click("#join-button")
    expect(other.locator("#toast")).to_contain_text("Cleo")
    owned = words("en")["error.name_owned"].split("{")[0]
    expect(other.locator("#toast")).to_contain_text(owned)
    expect(other.locator("#join-button")).to_be_visible()  # not seated
    expect(other.locator("#you-button-name")).to_have_text(made_up)
    assert errors == [], errors
    assert all("409" in e for e in refusals), refusals
