"""Whose chat is it: a game's chat is read in its replay only by the people who sat at its
table, a deleted account takes its messages with it, the data export holds them, invisible
characters are refused, spectators cannot multiply their allowance by opening connections,
and a person muted keeps the same identity when they change seats."""

from __future__ import annotations

import json
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
    new_table,
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


def test_the_export_holds_a_players_messages_and_deleting_the_account_removes_them(
    live_server: ServerFactory,
) -> None:
    server = live_server()
    with api(server) as http:
        ana = new_player(http, "Ana")
    code, _created, bo = played_table(server, ana["key"], public=False)
    game = get_table(server, code)["game"]
    with api(server) as http:
        exported = http.get("/api/players/me/export", headers=as_player(ana["key"])).json()
        chat = exported["chat"]
        assert [(m["table"], m["game"], m["text"]) for m in chat] == [
            (code, game, "our secret plan")
        ], "Ana's words only: not Bo's, not the spectator's"
        assert isinstance(chat[0]["at"], float) and chat[0]["name"] == "Ana"
        assert '"player"' not in json.dumps(chat) and ana["id"] not in json.dumps(chat)

        assert http.delete("/api/players/me", headers=as_player(ana["key"])).is_success
        # What she wrote goes with her: from the replay, words and name, and from the table.
        replay = http.get(f"/api/games/{game}/replay", headers=bearer(bo["token"])).json()
        assert [m["text"] for m in replay["chat"]] == ["a spectator's aside", "after-game talk"]
        assert "Ana" not in json.dumps(replay) and "secret plan" not in json.dumps(replay)
    with Player(server, code, bo["token"], name="Bo") as again:
        history = again.until(lambda f: f["type"] == "chat_history", "the chat history")
        assert "secret plan" not in json.dumps(history) and history["messages"]
    server.restart()  # and from what the table loads again
    with Player(server, code, bo["token"], name="Bo") as again:
        history = again.until(lambda f: f["type"] == "chat_history", "the chat history")
        assert "secret plan" not in json.dumps(history) and history["messages"]


def test_invisible_and_separator_characters_are_refused(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=2, bots=["easy"])
    with Player(shared_server, created["code"], created["token"], name="Ana") as ana:
        for text, point in [
            ("line\u2028break", "U+2028"),
            ("para\u2029graph", "U+2029"),
            ("evil\u202egnp.exe", "U+202E"),
            ("hidden \U000e0041\U000e0042 tags", "U+E0041"),
            ("zero\u200bwidth", "U+200B"),
            ("private \ue000", "U+E000"),
            ("unassigned \u0378", "U+0378"),
        ]:
            ana.send({"type": "chat", "text": text})
            refused = ana.until(
                lambda f: f["type"] == "error" and f.get("for") == "chat", "a refusal"
            )
            assert refused["code"] == "chat_character", (text, refused)
            assert refused["params"] == {"char": point} and point in refused["message"]
        # Emoji joined by the zero-width joiner, and the variation selector, are kept.
        family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u2764\ufe0f"
        ana.send({"type": "chat", "text": family})
        assert message_of(ana, family)["text"] == family


def test_spectators_of_one_address_share_one_allowance_per_table(
    shared_server: LiveServer,
) -> None:
    created = new_table(shared_server, seats=2, bots=["easy"])
    code = created["code"]
    with Player(shared_server, code, created["token"], name="Ana") as ana:
        watchers = [Player(shared_server, code, name=f"watcher {n}") for n in range(12)]
        try:
            for round_ in range(2):
                for n, watcher in enumerate(watchers):
                    watcher.send({"type": "chat", "text": f"spam {round_} {n}"})
            for watcher in watchers:  # each one's messages handled (its pong comes after)
                watcher.sync()
            ana.sync()
            delivered = [f["message"] for f in ana.frames if f["type"] == "chat"]
            refused = [f for w in watchers for f in w.frames if f["type"] == "error"]
            # 24 messages from 12 connections of one address: the 5 of one allowance pass.
            assert len(delivered) == 5 and len(refused) == 19
            assert {f["code"] for f in refused} == {"chat_rate"}
            # Another table is another allowance; a seated person has their own.
            other = new_table(shared_server, seats=2, bots=["easy"])
            with Player(shared_server, other["code"], name="elsewhere") as elsewhere:
                elsewhere.send({"type": "chat", "text": "hello there"})
                assert message_of(elsewhere, "hello there")["channel"] == "spectators"
            ana.send({"type": "chat", "text": "calm down"})
            assert message_of(ana, "calm down")["seat"] == 0
        finally:
            for watcher in watchers:
                watcher.close()


def test_a_speaker_is_the_same_person_in_another_seat(live_server: ServerFactory) -> None:
    """``who``, what a reader mutes, follows the person: a player who changes seats keeps it,
    another person in their old seat has another."""
    server = live_server()
    with api(server) as http:
        ana = new_player(http, "Ana")
        created = http.post(
            "/api/tables",
            json={"name": "Ana", "seats": 4, "bots": ["easy"]},
            headers=as_player(ana["key"]),
        ).json()
    code = created["code"]
    bo = join(server, code, "Bo")
    with Player(server, code, bo["token"], name="Bo") as reader:
        with Player(server, code, created["token"], name="Ana") as before:
            before.send({"type": "chat", "text": "from seat 0"})
            first = message_of(reader, "from seat 0")
        with api(server) as http:
            assert http.post(f"/api/tables/{code}/leave", headers=bearer(created["token"]))
            cy = join(server, code, "Cy")  # takes the seat Ana left
            moved = http.post(
                f"/api/tables/{code}/join", json={"name": "Ana"}, headers=as_player(ana["key"])
            ).json()
        assert cy["seat"] == first["seat"] == 0 and moved["seat"] == 3, (cy, moved)
        with (
            Player(server, code, moved["token"], name="Ana") as after,
            Player(server, code, cy["token"], name="Cy") as newcomer,
        ):
            after.send({"type": "chat", "text": "from another seat"})
            second = message_of(reader, "from another seat")
            newcomer.send({"type": "chat", "text": "I am Cy"})
            third = message_of(reader, "I am Cy")
            reader.send({"type": "chat", "text": "I am Bo"})
            fourth = message_of(reader, "I am Bo")
    assert second["seat"] == moved["seat"] and second["who"] == first["who"]
    assert third["seat"] == 0 and third["who"] not in (first["who"], fourth["who"])
    assert all(len(m["who"]) == 16 for m in (first, second, third, fourth))
    assert ana["id"] not in json.dumps([first, second]), "the player id is never sent"
