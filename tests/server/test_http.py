"""The HTTP side of ``dudo serve``, against a real server process: rules and words, the lobby
(create, join, host commands), the checks on every request, the dice cup, and past games.
That tables and cups survive a restart is in ``test_storage``."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from dudo.engine import PRESETS
from dudo.records import replay

from .conftest import (
    Json,
    LiveServer,
    Player,
    api,
    bearer,
    get_table,
    host_post,
    join,
    new_table,
    play_turns,
)


def detail(response: httpx.Response) -> str:
    body = response.json()
    assert isinstance(body, dict) and isinstance(body.get("detail"), str), (
        f"errors are {{'detail': text}}, got {response.text}"
    )
    text: str = body["detail"]
    return text


def play_a_game(server: LiveServer, seed: int, **body: Any) -> tuple[Json, Json]:
    """Create a table (the host and two bots), play it to the end over WebSocket with random
    legal actions; the creation answer and the table at the end."""
    created = new_table(server, seats=3, bots=["easy", "random"], **body)
    with Player(server, created["code"], created["token"], name="Ana") as ana:
        host_post(server, created["code"], "start", created["token"])
        view = play_turns([ana], random.Random(seed))
        assert view["winner"] is not None
    return created, get_table(server, created["code"])


# ----------------------------------------------------------------------- rules, words


def test_presets_list_every_preset_with_its_full_rule_set(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        response = http.get("/api/presets")
    assert response.status_code == 200
    data = response.json()
    assert data["default"] == "dudo"
    assert [p["name"] for p in data["presets"]] == list(PRESETS)
    options = [o["name"] for o in data["options"]]
    for entry in data["presets"]:
        assert entry["rules"] == PRESETS[entry["name"]].to_dict(), entry["name"]
        assert sorted(entry["rules"]) == sorted(options), f"{entry['name']} misses options"
        assert entry["summary"], f"{entry['name']} has no summary"
    assert all(o["values"] for o in data["options"]), "every option lists its values"
    assert "easy" in data["bot_levels"]


@pytest.mark.parametrize(
    ("lang", "faces", "call"),
    [
        ("es", ["as", "tonto", "tren", "cuadra", "quina", "sena"], "dudo"),
        ("en", ["ace", "two", "three", "four", "five", "six"], "call"),
    ],
)
def test_i18n_gives_the_engine_words(
    shared_server: LiveServer, lang: str, faces: list[str], call: str
) -> None:
    with api(shared_server) as http:
        response = http.get(f"/api/i18n/{lang}")
    assert response.status_code == 200
    data = response.json()
    assert data["lang"] == lang
    assert [data["faces"][str(f)]["one"] for f in range(1, 7)] == faces
    assert all(data["faces"][str(f)]["many"] for f in range(1, 7))
    assert data["calls"]["call"] == call
    assert set(data["calls"]) == {"call", "spot-on", "pass", "doubt-pass", "open", "closed"}
    if lang == "es":
        assert data["faces"]["1"]["many"] == "ases"
        assert data["calls"]["spot-on"] == "calzo"


def test_i18n_names_the_faces_the_traditional_way_when_asked(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        english = http.get("/api/i18n/en", params={"faces": "traditional"}).json()
        usual = http.get("/api/i18n/en", params={"faces": "usual"}).json()
        spanish = http.get("/api/i18n/es", params={"faces": "traditional"}).json()
        refused = http.get("/api/i18n/en", params={"faces": "fancy"})
    traditional = ["ace", "duck", "train", "quad", "queen", "hex"]
    assert [english["faces"][str(f)]["one"] for f in range(1, 7)] == traditional
    assert [english["faces"][str(f)]["many"] for f in range(1, 7)] == [
        "aces", "ducks", "trains", "quads", "queens", "hexes"
    ]  # fmt: skip
    assert usual["faces"]["2"] == {"one": "two", "many": "twos"}
    assert usual["faces"]["6"] == {"one": "six", "many": "sixes"}
    # Spanish (and Italian) players' usual names are their traditional ones.
    assert spanish["faces"]["2"] == {"one": "tonto", "many": "tontos"}
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "bad_option" and refused.json()["params"] == {
        "option": "faces"
    }
    assert "faces: usual or traditional, not 'fancy'" in detail(refused)


def test_i18n_unknown_language_is_404_naming_the_languages(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        response = http.get("/api/i18n/xx")
    assert response.status_code == 404
    assert "'xx'" in detail(response) and "es" in detail(response)


# -------------------------------------------------------------------------- tables


def test_create_table_shows_the_full_rule_set_and_the_house_rules(
    shared_server: LiveServer,
) -> None:
    created = new_table(
        shared_server,
        preset="perudo",
        options={"spot_on": False},
        seats=5,
        bots=["easy"],
        turn_seconds=60,
        grace_seconds=20,
        bot_seconds=0.5,
    )
    code = created["code"]
    assert created["seat"] == 0 and created["url"] == f"/t/{code}"
    assert len(code) == 6 and code.isalnum() and code == code.upper()
    assert len(created["token"]) >= 20
    table = get_table(shared_server, code)
    expected = PRESETS["perudo"].to_dict() | {"spot_on": False}
    assert table["rules"] == expected, "the table shows every option, house rules applied"
    assert table["house_rules"] == {"spot_on": False}
    assert table["preset"] == "perudo" and table["status"] == "lobby"
    assert (table["turn_seconds"], table["grace_seconds"], table["bot_seconds"]) == (60, 20, 0.5)
    assert table["game"] is None and table["game_number"] == 0
    kinds = [(s["seat"], s["kind"], s["host"]) for s in table["seats"]]
    assert kinds == [(0, "human", True), (1, "bot", False)] + [
        (i, "open", False) for i in (2, 3, 4)
    ]
    assert table["seats"][0]["name"] == "Ana" and table["seats"][1]["level"] == "easy"


def test_a_house_rule_equal_to_the_preset_is_not_reported(shared_server: LiveServer) -> None:
    created = new_table(shared_server, options={"spot_on": True, "cruzado": True})
    table = get_table(shared_server, created["code"])
    assert table["house_rules"] == {"cruzado": True}
    assert table["rules"]["spot_on"] is True and table["rules"]["cruzado"] is True


def test_join_by_code_fills_the_next_open_seat(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=3)
    code = created["code"]
    with api(shared_server) as http:
        response = http.post(f"/api/tables/{code.lower()}/join", json={"name": "  Bo  "})
    assert response.status_code == 201, response.text
    joined = response.json()
    assert joined["code"] == code and joined["seat"] == 1 and joined["url"] == f"/t/{code}"
    assert joined["token"] != created["token"]
    seat = get_table(shared_server, code)["seats"][1]
    assert (seat["kind"], seat["name"], seat["host"]) == ("human", "Bo", False)
    with api(shared_server) as http:
        missing = http.post("/api/tables/NOPE22/join", json={"name": "Bo"})
    assert missing.status_code == 404 and "NOPE22" in detail(missing)


def test_join_a_full_table_is_409(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=2)
    join(shared_server, created["code"], "Bo")
    with api(shared_server) as http:
        response = http.post(f"/api/tables/{created['code']}/join", json={"name": "Cy"})
    assert response.status_code == 409
    assert "full" in detail(response)


def test_join_after_the_start_is_409(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=4, bots=["easy"])
    host_post(shared_server, created["code"], "start", created["token"])
    with api(shared_server) as http:
        response = http.post(f"/api/tables/{created['code']}/join", json={"name": "Cy"})
    assert response.status_code == 409
    assert "started" in detail(response)


HOST_COMMANDS = [
    ("post", "bots", {"level": "easy"}),
    ("delete", "seats/1", None),
    ("post", "start", None),
    ("post", "rematch", None),
]


@pytest.mark.parametrize(("method", "path", "body"), HOST_COMMANDS)
def test_host_commands_need_the_host_token(
    shared_server: LiveServer, method: str, path: str, body: Json | None
) -> None:
    created = new_table(shared_server, seats=4)
    code = created["code"]
    guest = join(shared_server, code, "Bo")
    before = get_table(shared_server, code)
    cases = [
        ({}, 401, "token"),
        (bearer("forged-token-0123456789"), 401, "token"),
        ({"Authorization": f"Basic {created['token']}"}, 401, "token"),
        (bearer(guest["token"]), 403, "host"),
    ]
    with api(shared_server) as http:
        for headers, status, word in cases:
            response = http.request(
                method.upper(), f"/api/tables/{code}/{path}", json=body, headers=headers
            )
            assert response.status_code == status, (headers, response.text)
            assert word in detail(response), response.text
    assert get_table(shared_server, code) == before, "a refused command changed the table"


def test_host_commands_work_with_the_host_token(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=4)
    code, token = created["code"], created["token"]
    join(shared_server, code, "Bo")
    with api(shared_server) as http:
        added = http.post(
            f"/api/tables/{code}/bots", json={"level": "random"}, headers=bearer(token)
        )
        assert added.status_code == 200, added.text
        assert [s["kind"] for s in added.json()["seats"]] == ["human", "human", "bot", "open"]
        removed = http.delete(f"/api/tables/{code}/seats/1", headers=bearer(token))
        assert removed.status_code == 200, removed.text
        assert removed.json()["seats"][1]["kind"] == "open", "kicked before the game: seat opens"
        own = http.delete(f"/api/tables/{code}/seats/0", headers=bearer(token))
        assert own.status_code == 400 and "host" in detail(own)
        nowhere = http.delete(f"/api/tables/{code}/seats/9", headers=bearer(token))
        assert nowhere.status_code == 404 and "9" in detail(nowhere)
        empty = http.delete(f"/api/tables/{code}/seats/3", headers=bearer(token))
        assert empty.status_code == 409 and "open" in detail(empty)
        early = http.post(f"/api/tables/{code}/rematch", headers=bearer(token))
        assert early.status_code == 409 and "over" in detail(early)
        started = http.post(f"/api/tables/{code}/start", headers=bearer(token))
        assert started.status_code == 200, started.text
        table = started.json()
        assert table["status"] == "playing" and isinstance(table["game"], int)
        assert [s["player"] for s in table["seats"]] == [0, None, 1, None]
        again = http.post(f"/api/tables/{code}/start", headers=bearer(token))
        assert again.status_code == 409
        bot = http.post(f"/api/tables/{code}/bots", json={"level": "easy"}, headers=bearer(token))
        assert bot.status_code == 409 and "during" in detail(bot)
        in_game = http.delete(f"/api/tables/{code}/seats/2", headers=bearer(token))
        assert in_game.status_code == 409 and "bot" in detail(in_game)


def test_start_needs_two_filled_seats(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=3)
    with api(shared_server) as http:
        response = http.post(
            f"/api/tables/{created['code']}/start", headers=bearer(created["token"])
        )
    assert response.status_code == 409 and "two" in detail(response)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"preset": "yahtzee"}, 400, ["preset 'yahtzee'", "dudo"]),
        ({"options": {"spot_on": "maybe"}}, 400, ["spot_on", "maybe"]),
        ({"options": {"bogus": 1}}, 400, ["bogus"]),
        ({"options": {"faces": 0}}, 400, ["faces"]),
        ({"seats": 1}, 422, ["seats"]),
        ({"seats": 9}, 422, ["seats"]),
        ({"seats": 2, "bots": ["easy", "easy"]}, 400, ["bots"]),
        ({"preset": "perudo", "seats": 8}, 400, ["seats", "6"]),
        ({"bots": ["grandmaster"]}, 400, ["grandmaster", "easy"]),
        ({"name": ""}, 400, ["name"]),
        ({"name": "x" * 25}, 400, ["name", "24"]),
        ({"name": "a\u0007b"}, 400, ["name", "control"]),
        ({"turn_seconds": -1}, 422, ["turn_seconds"]),
        ({"bot_seconds": 11}, 422, ["bot_seconds"]),
        ({"name": 5}, 422, ["name"]),
        ({"seats": "four"}, 422, ["seats"]),
        ({"seats": 2.5}, 422, ["seats"]),
        ({"options": ["spot_on"]}, 422, ["options"]),
        ({"bots": "easy"}, 422, ["bots"]),
        ({"grace_seconds": "soon"}, 422, ["grace_seconds"]),
        ({"color": "red"}, 422, ["color"]),
    ],
)
def test_bad_table_requests_are_refused_naming_the_problem(
    shared_server: LiveServer, body: Json, status: int, words: list[str]
) -> None:
    with api(shared_server) as http:
        response = http.post("/api/tables", json={"name": "Ana"} | body)
    assert response.status_code == status, response.text
    text = detail(response)
    for word in words:
        assert word in text, f"{word!r} not in {text!r}"


@pytest.mark.parametrize(
    ("content", "words"),
    [("not json", ["JSON"]), ("[1, 2]", ["object"]), ('{"name": "Ana",', ["JSON"])],
)
def test_malformed_json_is_422(shared_server: LiveServer, content: str, words: list[str]) -> None:
    with api(shared_server) as http:
        response = http.post(
            "/api/tables", content=content, headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 422, response.text
    for word in words:
        assert word in detail(response)


def test_join_and_bot_bodies_are_checked(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=4)
    code, token = created["code"], created["token"]
    with api(shared_server) as http:
        unnamed = http.post(f"/api/tables/{code}/join", json={"name": "   "})
        assert unnamed.status_code == 400 and "name" in detail(unnamed)
        typed = http.post(f"/api/tables/{code}/join", json={"name": ["Bo"]})
        assert typed.status_code == 422 and "name" in detail(typed)
        level = http.post(f"/api/tables/{code}/bots", json={"level": "god"}, headers=bearer(token))
        assert level.status_code == 400 and "'god'" in detail(level)
        seat = http.delete(f"/api/tables/{code}/seats/one", headers=bearer(token))
        assert seat.status_code == 422 and "seat" in detail(seat)
    assert [s["kind"] for s in get_table(shared_server, code)["seats"]] == ["human"] + ["open"] * 3


def test_a_body_over_16_kib_is_413(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        response = http.post("/api/tables", json={"name": "Ana", "pad": "x" * (17 * 1024)})
        assert response.status_code == 413, response.text
        assert "16384" in detail(response)
        fits = http.post("/api/tables", json={"name": "Ana", "options": {}, "x": "y" * 15000})
        assert fits.status_code == 422, "a body under the limit is read (and checked)"


def test_a_chunked_body_over_16_kib_is_413(shared_server: LiveServer) -> None:
    def chunks() -> Any:
        yield b'{"name": "'
        for _ in range(64):
            yield b"a" * 16384
        yield b'"}'

    with api(shared_server) as http:
        response = http.post(
            "/api/tables", content=chunks(), headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 413, response.text


# ---------------------------------------------------------------------------- cups


def test_cup_roll_remove_add_hide_show(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        made = http.post("/api/cups")
        assert made.status_code == 201, made.text
        cup_id, token = made.json()["id"], made.json()["token"]
        fresh = made.json()["cup"]
        assert (fresh["count"], fresh["dice"], fresh["hidden"], fresh["max_dice"]) == (
            5,
            [],
            False,
            5,
        )
        auth = bearer(token)

        def op(name: str, status: int = 200) -> Json:
            response = http.post(f"/api/cups/{cup_id}/{name}", headers=auth)
            assert response.status_code == status, f"{name}: {response.text}"
            body: Json = response.json()
            return body

        full = op("add", 409)
        assert "5" in full["detail"], "never above 5 dice"
        rolled = op("roll")["cup"]
        assert rolled["count"] == 5 and len(rolled["dice"]) == 5
        assert all(1 <= d <= 6 for d in rolled["dice"])
        for left in (4, 3, 2, 1, 0):
            cup = op("remove")["cup"]
            assert cup["count"] == left and len(cup["dice"]) == left
        assert "no dice" in op("roll", 409)["detail"]
        assert "no die" in op("remove", 409)["detail"]
        assert op("add")["cup"]["count"] == 1
        assert op("hide")["cup"]["hidden"] is True
        assert op("roll")["cup"]["hidden"] is True, "rolling keeps the dice covered"
        assert op("show")["cup"]["hidden"] is False
        for _ in range(4):
            op("add")
        assert op("add", 409)["detail"]
        shown = http.get(f"/api/cups/{cup_id}", headers=auth)
        assert shown.status_code == 200 and shown.json()["cup"]["count"] == 5
        assert op("new")["cup"]["dice"] == []
        unknown = op("shake", 404)
        assert "'shake'" in unknown["detail"] and "roll" in unknown["detail"]


def test_cup_needs_its_token(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        made = http.post("/api/cups").json()
        other = http.post("/api/cups").json()
        cup_id = made["id"]
        for headers in ({}, bearer("nope"), bearer(other["token"]), {"Authorization": "Bearer"}):
            read = http.get(f"/api/cups/{cup_id}", headers=headers)
            assert read.status_code == 401 and "token" in detail(read), headers
            roll = http.post(f"/api/cups/{cup_id}/roll", headers=headers)
            assert roll.status_code == 401, headers
        state = http.get(f"/api/cups/{cup_id}", headers=bearer(made["token"])).json()["cup"]
        assert state["dice"] == [], "refused rolls changed nothing"
        missing = http.get("/api/cups/nothing-here", headers=bearer(made["token"]))
        assert missing.status_code == 404


# ---------------------------------------------------------------------- past games


def test_finished_games_are_listed_with_a_record_that_replays(shared_server: LiveServer) -> None:
    created, table = play_a_game(shared_server, seed=7)
    game_id = table["game"]
    assert table["status"] == "over"
    with api(shared_server) as http:
        listed = http.get("/api/games", params={"limit": 200})
        assert listed.status_code == 200
        games = listed.json()["games"]
        entry = next((g for g in games if g["id"] == game_id), None)
        assert entry is not None, f"game {game_id} not in {games}"
        finished = [g["finished"] for g in games]
        assert finished == sorted(finished, reverse=True), "newest first"
        record = http.get(f"/api/games/{game_id}/record").json()
    assert entry["preset"] == "dudo"
    # Table codes are invitations: the public list and the public record keep them out.
    assert "table" not in entry and created["code"] not in json.dumps([games, record])
    assert entry["players"] == ["Ana", "Bruno", "Carmen"]
    assert record["format"] == "dudo-record" and record["version"] == 1
    game = replay(record)
    assert game.is_over and game.winner is not None
    assert entry["winner"] == entry["players"][game.winner]
    assert entry["rounds"] == game.round_number
    assert [p["name"] for p in record["players"]] == entry["players"]


def test_games_list_limits(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        for limit in (0, 201, -1):
            response = http.get("/api/games", params={"limit": limit})
            assert response.status_code == 400 and "limit" in detail(response)
        typed = http.get("/api/games", params={"limit": "many"})
        assert typed.status_code == 422 and "limit" in detail(typed)
        assert http.get("/api/games/999999/record").status_code == 404
        assert http.get("/api/games/999999/replay").status_code == 404


def test_an_unfinished_game_has_no_record(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=2, bots=["easy"])
    table = host_post(shared_server, created["code"], "start", created["token"])
    with api(shared_server) as http:
        response = http.get(f"/api/games/{table['game']}/record")
        assert response.status_code == 404
        listed = http.get("/api/games", params={"limit": 200}).json()["games"]
    assert table["game"] not in [g["id"] for g in listed]


def test_replay_steps_show_every_hand(shared_server: LiveServer) -> None:
    _created, table = play_a_game(shared_server, seed=11)
    with api(shared_server) as http:
        response = http.get(f"/api/games/{table['game']}/replay")
    assert response.status_code == 200, response.text
    data = response.json()
    game = replay(data["record"])
    steps = data["steps"]
    assert len(steps) == len(game.history) == len(data["record"]["actions"])
    assert [s["action"] for s in steps] == [str(a) for _p, a in game.history]
    assert [s["player"] for s in steps] == [p for p, _a in game.history]
    seqs = [e["seq"] for e in data["start"]["events"]]
    for step in steps:
        seqs += [e["seq"] for e in step["events"]]
    assert seqs == list(range(len(game.events))), "events numbered from 0 without gaps"
    bidding = [s for s in steps if s["state"]["phase"] == "bidding"]
    assert bidding, "some steps end in the bidding phase"
    reveals = 0
    before = data["start"]["state"]
    for step in [data["start"], *steps]:
        state = step["state"]
        hands = state["hands"]
        if state["phase"] == "bidding":  # dice are dealt (not before a visibility choice)
            assert [len(h) for h in hands] == state["dice_counts"], "every hand shown in full"
            assert all(1 <= d <= 6 for hand in hands for d in hand)
        assert state["legal"] == [], "a replay is watched, nobody acts"
        for event in step["events"]:
            if event["type"] == "Revealed":  # what was shown is what the round revealed
                reveals += 1
                assert [sorted(h) for h in event["hands"]] == [sorted(h) for h in before["hands"]]
        before = state
    assert reveals >= 2
    assert steps[-1]["state"]["winner"] == game.winner


def test_pages_are_served(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        for path in ("/", "/t/ABCDEF", "/t/ABCDEF/screen", "/cup", "/games", "/games/1"):
            response = http.get(path)
            assert response.status_code == 200, path
            assert "text/html" in response.headers["content-type"], path
            assert response.headers["cache-control"] == "no-cache", path
            html = response.text
            # The shared top bar is put in once, with no marker left behind.
            assert html.count('<header class="topbar">') == 1, path
            assert "<!-- topbar" not in html and "page items" not in html, path
            header = html[html.index("<header") : html.index("</header>")]
            assert 'id="lang-select"' in header and 'href="/games"' in header, path
            current = {"/cup": "/cup", "/games": "/games"}.get(path)
            marked = [a for a in ("/cup", "/games") if f'href="{a}" aria-current="page"' in header]
            assert marked == ([current] if current else []), path
            assert ('id="conn-status"' in header) == path.startswith("/t/"), path


def test_display_names_are_unique_at_a_table(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=4, bots=["easy"])
    code = created["code"]
    with api(shared_server) as http:
        assert http.post(f"/api/tables/{code}/join", json={"name": "Carla"}).status_code == 201
        # The same name, however typed: case, spacing, composed or not, full-width letters.
        for same in ("carla", "  CARLA ", "Ｃａｒｌａ", "Ana", "ana", "BRUNO"):
            response = http.post(f"/api/tables/{code}/join", json={"name": same})
            assert response.status_code == 409, (same, response.text)
            assert "is taken" in detail(response) and "another name" in detail(response)
        accented = http.post(f"/api/tables/{code}/join", json={"name": "Rene\u0301"})
        assert accented.status_code == 201
        again = http.post(f"/api/tables/{code}/join", json={"name": "Ren\u00e9"})
        assert again.status_code == 409, "the composed and decomposed é are one name"
    names = [s["name"] for s in get_table(shared_server, code)["seats"]]
    assert names == ["Ana", "Bruno", "Carla", "Ren\u00e9"]


def test_table_snapshots_carry_a_version_that_only_grows(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=3)
    code = created["code"]
    first = get_table(shared_server, code)["version"]
    join(shared_server, code, "Bo")
    second = get_table(shared_server, code)["version"]
    assert isinstance(first, int) and second > first, (first, second)
    watcher = Player(shared_server, code, name="watcher")
    assert watcher.table is not None and watcher.table["version"] >= second
    joined = join(shared_server, code, "Cy")
    frame = watcher.until(lambda f: f["type"] == "table", "the table after Cy joins")
    assert frame["table"]["version"] > second
    assert get_table(shared_server, code)["version"] == frame["table"]["version"]
    assert joined["seat"] == 2
    watcher.close()


def test_bots_have_names_of_their_own(shared_server: LiveServer) -> None:
    created = new_table(shared_server, name="Bruno", seats=4, bots=["easy", "hard"])
    seats = get_table(shared_server, created["code"])["seats"]
    names = [s["name"] for s in seats[:3]]
    assert names[0] == "Bruno" and len(set(names)) == 3, "a bot never takes a person's name"
    assert [s["level"] for s in seats[1:3]] == ["easy", "hard"], "the level is shown beside"
    assert not any("Bot" in n or "(" in n for n in names[1:]), names
