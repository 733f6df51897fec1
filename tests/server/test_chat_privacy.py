"""Whose chat is it: a game's chat is read in its replay only by the people who sat at its
table, a deleted account takes its messages with it, the data export holds them, invisible
characters are refused, spectators cannot multiply their allowance by opening connections,
and a person muted keeps the same identity when they change seats."""

from __future__ import annotations

import random

import httpx

from .conftest import (
    Json,
    LiveServer,
    Player,
    ServerFactory,
    api,
    bearer,
    get_table,
    host_post,
    join,
    play_turns,
)


def as_player(key: str) -> dict[str, str]:
    return {"Authorization": f"Player {key}"}


def new_player(http: httpx.Client, name: str) -> Json:
    answer = http.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    made: Json = answer.json()
    return made


def message_of(player: Player, text: str) -> Json:
    frame = player.until(
        lambda f: f["type"] == "chat" and f["message"]["text"] == text, f"the message {text!r}"
    )
    message: Json = frame["message"]
    return message


def replay_chat(http: httpx.Client, game: int, headers: dict[str, str] | None = None) -> Json:
    answer = http.get(f"/api/games/{game}/replay", headers=headers or {})
    assert answer.status_code == 200, answer.text
    replay: Json = answer.json()
    return {"hidden": replay.get("chat_hidden"), "texts": [m["text"] for m in replay["chat"]]}


def played_table(server: LiveServer, ana_key: str, *, public: bool) -> tuple[str, Json, Json]:
    """A table made by Ana's player, Bo sat down without a key (a guest), one game played
    with chat during and after it: (code, Ana's answer, Bo's answer)."""
    with api(server) as http:
        created = http.post(
            "/api/tables",
            json={
                "name": "Ana",
                "seats": 3,
                "bots": ["easy"],
                "bot_seconds": 0,
                "reveal_seconds": 0,
                "public": public,
            },
            headers=as_player(ana_key),
        ).json()
    code = created["code"]
    bo = join(server, code, "Bo")
    with (
        Player(server, code, created["token"], name="Ana") as ana_ws,
        Player(server, code, bo["token"], name="Bo") as bo_ws,
        Player(server, code, name="watcher") as watcher,
    ):
        host_post(server, code, "start", created["token"])
        ana_ws.send({"type": "chat", "text": "our secret plan"})
        message_of(bo_ws, "our secret plan")
        watcher.send({"type": "chat", "text": "a spectator's aside"})
        message_of(watcher, "a spectator's aside")
        play_turns([ana_ws, bo_ws], random.Random(3), watchers=(watcher,))
        bo_ws.send({"type": "chat", "text": "after-game talk"})
        message_of(ana_ws, "after-game talk")
    return code, created, bo


def test_a_games_chat_is_read_in_its_replay_only_by_its_players(
    live_server: ServerFactory,
) -> None:
    server = live_server()
    with api(server) as http:
        ana = new_player(http, "Ana")
        outsider = new_player(http, "Nosy")
    for public in (False, True):
        code, created, bo = played_table(server, ana["key"], public=public)
        game = get_table(server, code)["game"]
        everything = ["our secret plan", "a spectator's aside", "after-game talk"]
        with api(server) as http:
            # Anyone else gets the game, and no word of its chat (ids are sequential).
            for headers in (
                None,
                as_player(outsider["key"]),
                bearer("not-a-token"),
                as_player("not-a-key"),
            ):
                assert replay_chat(http, game, headers) == {"hidden": True, "texts": []}
            zipped = http.get(f"/api/games/{game}/replay", headers={"Accept-Encoding": "gzip"}).text
            assert "secret plan" not in zipped and "after-game" not in zipped
            # Those who sat at the table read all of it, by player key or by seat token.
            for headers in (as_player(ana["key"]), bearer(bo["token"]), bearer(created["token"])):
                assert replay_chat(http, game, headers) == {"hidden": False, "texts": everything}
            # A seat token of another table is nobody here.
            other = http.post("/api/tables", json={"name": "Cy", "seats": 2}).json()
            assert replay_chat(http, game, bearer(other["token"]))["hidden"] is True
            # Bo leaves; whoever takes his seat next did not play that game.
            assert http.post(f"/api/tables/{code}/leave", headers=bearer(bo["token"])).is_success
            newcomer = join(server, code, "Dee")
            assert newcomer["seat"] == bo["seat"]
            assert replay_chat(http, game, bearer(newcomer["token"]))["hidden"] is True
