"""Table chat over the WebSocket, against a real server: who receives what (spectators' chat
never reaches a player during a game), the checks on text and phrases, the rate limit, the
host's switch, the history a reconnecting client gets, and the replay that keeps the chat."""

from __future__ import annotations

import random
import time

import httpx

from dudo.server.storage import ChatMessage, Store

from .conftest import (
    Json,
    LiveServer,
    Match,
    Player,
    ServerFactory,
    api,
    bearer,
    new_table,
    play_turns,
)


def said(player: Player) -> list[Json]:
    """The chat messages ``player`` receives up to a ping's answer."""
    return [f["message"] for f in player.sync() if f["type"] == "chat"]


def chat_error(player: Player) -> Json:
    frame = player.until(lambda f: f["type"] == "error" and f.get("for") == "chat", "a refusal")
    return frame


def message_frame(player: Player) -> Json:
    frame = player.until(lambda f: f["type"] == "chat", "a chat message")
    message: Json = frame["message"]
    return message


def switch_chat(server: LiveServer, code: str, token: str, on: object) -> httpx.Response:
    with api(server) as http:
        return http.post(f"/api/tables/{code}/chat", json={"on": on}, headers=bearer(token))


def test_spectators_chat_never_reaches_a_player_during_a_game(shared_server: LiveServer) -> None:
    game = Match(shared_server)
    watcher = Player(shared_server, game.code, name="watcher")
    other = Player(shared_server, game.code, name="other watcher")
    try:
        history = watcher.until(lambda f: f["type"] == "chat_history", "the chat history")
        assert history == {"type": "chat_history", "on": True, "messages": []}

        # A player's phrase reaches every player and every spectator, named and numbered.
        game.ana.send({"type": "chat", "phrase": "nice_bluff"})
        for reader in (game.ana, game.bo, watcher, other):
            message = message_frame(reader)
            assert message["channel"] == "players" and message["phrase"] == "nice_bluff"
            assert message["seat"] == 0 and message["name"] == "Ana" and message["text"] is None
            assert message["game"] == game.ana.game and message["seq"] == 0

        # A spectator's text reaches the spectators only: the players' connections get no chat
        # frame of any kind while the game is played.
        watcher.send({"type": "chat", "text": "Bo holds three fives"})
        seen = message_frame(other)
        assert seen["channel"] == "spectators" and seen["seat"] is None and seen["name"] is None
        assert message_frame(watcher)["text"] == "Bo holds three fives"
        for player in game.players:
            frames = player.sync()
            assert not [f for f in frames if f["type"] in ("chat", "chat_history")], frames
            assert "three fives" not in str(player.frames)

        # A player who reconnects mid-game gets the recent chat without the spectators' part.
        again = Player(shared_server, game.code, game.bo_token, name="Bo again")
        history = again.until(lambda f: f["type"] == "chat_history", "the chat history")
        assert [m["phrase"] for m in history["messages"]] == ["nice_bluff"]
        again.close()
        late = Player(shared_server, game.code, name="late watcher")
        history = late.until(lambda f: f["type"] == "chat_history", "the chat history")
        assert [m["channel"] for m in history["messages"]] == ["players", "spectators"]
        late.close()

        # Once the game is over the players get the whole conversation, and the replay keeps
        # every message with the number of actions played when it was said.
        turn = game.ana.turn
        assert turn is not None
        play_turns(game.players, random.Random(7), watchers=(watcher, other))
        for player in game.players:
            player.sync()
            history = [f for f in player.frames if f["type"] == "chat_history"][-1]
            assert [m["channel"] for m in history["messages"]] == ["players", "spectators"]
        game.bo.send({"type": "chat", "phrase": "good_game"})
        for reader in (game.ana, watcher):
            assert message_frame(reader)["phrase"] == "good_game"
        other.send({"type": "chat", "text": "well played, both"})
        game.bo.until(  # after the game a player reads the spectators
            lambda f: f["type"] == "chat" and f["message"]["text"] == "well played, both",
            "the spectator's message",
        )

        game_id = game.ana.game
        with api(shared_server) as http:  # read by one who played it (test_chat_privacy.py)
            replay = http.get(f"/api/games/{game_id}/replay", headers=bearer(game.bo_token)).json()
            zipped = http.get(
                f"/api/games/{game_id}/replay",
                headers={"Accept-Encoding": "gzip", **bearer(game.bo_token)},
            ).json()
        assert zipped["chat"] == replay["chat"]
        chat = replay["chat"]
        assert [(m["seq"], m["channel"]) for m in chat] == [
            (0, "players"),
            (1, "spectators"),
            (2, "players"),
            (3, "spectators"),
        ]
        assert chat[0]["turn"] == chat[1]["turn"] == turn
        assert chat[2]["turn"] == len(replay["steps"])
        assert chat[2]["name"] == "Bo" and chat[2]["phrase"] == "good_game"
    finally:
        for connection in (watcher, other):
            connection.close()
        game.close()


def test_in_the_lobby_everyone_reads_everyone(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=3, bots=["easy"])
    with (
        Player(shared_server, created["code"], created["token"], name="Ana") as ana,
        Player(shared_server, created["code"], name="watcher") as watcher,
    ):
        watcher.send({"type": "chat", "text": "<script>alert(1)</script>"})
        message = message_frame(ana)
        # Kept and sent exactly as typed: the client shows it as text.
        assert message["text"] == "<script>alert(1)</script>"
        assert message["game"] is None and message["channel"] == "spectators"


def test_text_and_phrases_are_checked(shared_server: LiveServer) -> None:
    game = Match(shared_server, start=False)
    try:
        ana = game.ana
        refusals = [
            ({"text": "x" * 201}, "chat_too_long", {"count": 200}),
            ({"text": "   \t "}, "chat_empty", {}),
            ({"text": "one\nsecond line"}, "chat_control", {}),
            ({"text": "bell\u0007"}, "chat_control", {}),
            ({"phrase": "insult"}, "chat_unknown_phrase", {"phrase": "insult"}),
            ({"phrase": "oops", "text": "oops"}, "chat_text_or_phrase", {}),
            ({}, "chat_text_or_phrase", {}),
        ]
        for body, code, params in refusals:
            ana.send({"type": "chat", **body})
            refused = chat_error(ana)
            assert refused["code"] == code and refused["params"] == params, (body, refused)
        ana.send({"type": "chat", "text": 5})
        assert ana.error()["code"] == "bad_message"
        ana.send({"type": "chat", "text": "y" * 1001})
        assert ana.error()["code"] == "bad_message"
        assert said(game.bo) == [], "a refused message reaches nobody"

        # 200 characters once normalized (NFC) are accepted, trimmed: 400 decomposed ones here.
        ana.send({"type": "chat", "text": "  " + "e\u0301" * 200 + "  "})
        assert message_frame(game.bo)["text"] == "\u00e9" * 200
        ana.send({"type": "chat", "text": "¡Dudo! 😂 <b>ok</b>"})
        assert message_frame(game.bo)["text"] == "¡Dudo! 😂 <b>ok</b>"
    finally:
        game.close()


def test_five_messages_in_ten_seconds_per_seat(shared_server: LiveServer) -> None:
    game = Match(shared_server, start=False)
    second = Player(shared_server, game.code, game.host_token, name="Ana's phone")
    watcher = Player(shared_server, game.code, name="watcher")
    try:
        started = time.monotonic()
        for n in range(5):
            game.ana.send({"type": "chat", "text": f"message {n}"})
        assert len(said(game.ana)) == 5
        second.send({"type": "chat", "text": "one more"})
        refused = chat_error(second)
        assert time.monotonic() - started < 9, "the test ran too slowly to check the window"
        assert refused["code"] == "chat_rate" and 1 <= refused["params"]["count"] <= 10
        texts = [m["text"] for m in said(game.bo)]
        assert texts == [f"message {n}" for n in range(5)], "the refused one reached nobody"
        # Another seat and a spectator have their own allowance.
        for speaker, phrase in ((game.bo, "laugh"), (watcher, "clap")):
            speaker.send({"type": "chat", "phrase": phrase})
            speaker.sync()
            assert phrase in [f["message"]["phrase"] for f in speaker.frames if f["type"] == "chat"]
        for reader in (game.bo, watcher):
            reader.sync()
            phrases = {f["message"]["phrase"] for f in reader.frames if f["type"] == "chat"}
            assert phrases == {None, "laugh", "clap"}, "both delivered, nothing refused"
        assert not [f for f in watcher.frames + game.bo.frames if f["type"] == "error"]
    finally:
        second.close()
        watcher.close()
        game.close()


def test_the_host_turns_chat_off_for_everyone_and_it_stays_off(
    live_server: ServerFactory,
) -> None:
    server = live_server()
    game = Match(server, start=False)
    try:
        refused = switch_chat(server, game.code, game.bo_token, False)
        assert refused.status_code == 403 and refused.json()["code"] == "host_only"
        bad = switch_chat(server, game.code, game.host_token, "no")
        assert bad.status_code == 422 and bad.json()["code"] == "invalid_request"
        answer = switch_chat(server, game.code, game.host_token, False)
        assert answer.status_code == 200 and answer.json()["chat"] is False
        for player in game.players:
            player.until(lambda f: f["type"] == "table" and f["table"]["chat"] is False, "off")
        game.bo.send({"type": "chat", "phrase": "oops"})
        assert chat_error(game.bo)["code"] == "chat_off"
        assert said(game.ana) == []
    finally:
        game.close()

    server.restart()  # stored: still off after a restart
    with Player(server, game.code, game.bo_token, name="Bo") as bo:
        assert bo.table is not None and bo.table["chat"] is False
        history = bo.until(lambda f: f["type"] == "chat_history", "the chat history")
        assert history["on"] is False
        bo.send({"type": "chat", "text": "hello?"})
        assert chat_error(bo)["code"] == "chat_off"
        assert switch_chat(server, game.code, game.host_token, True).json()["chat"] is True
        bo.send({"type": "chat", "text": "hello!"})
        assert message_frame(bo)["text"] == "hello!"
    server.restart()  # the latest messages come back with the table
    with Player(server, game.code, game.host_token, name="Ana") as ana:
        history = ana.until(lambda f: f["type"] == "chat_history", "the chat history")
        assert [m["text"] for m in history["messages"]] == ["hello!"]
        ana.send({"type": "chat", "text": "and again"})
        assert message_frame(ana)["seq"] == 1


def test_the_store_keeps_chat_and_the_switch(db_url: str) -> None:
    """On SQLite and PostgreSQL: messages by game in order, the latest come back with the
    table, and the host's switch is kept."""
    store = Store(db_url)
    try:
        store.create_table("CHAT01", "dudo", {}, {"seats": 2}, [])
        for seq, game in enumerate([None, None]):
            store.add_chat("CHAT01", stored_message(game, seq, f"lobby {seq}"))
        store.set_chat_off("CHAT01", True)
        stored = store.load_table("CHAT01")
        assert stored is not None and stored.chat_off is True
        assert [m.text for m in stored.chat] == ["lobby 0", "lobby 1"]
        assert stored.chat[0].game is None
        store.set_chat_off("CHAT01", False)
        stored = store.load_table("CHAT01")
        assert stored is not None and stored.chat_off is False
        assert store.game_chat(1) == []
    finally:
        store.close()


def stored_message(game: int | None, seq: int, text: str) -> ChatMessage:
    return ChatMessage(
        game=game,
        seq=seq,
        turn=0,
        channel="players",
        seat=0,
        name="Ana",
        text=text,
        phrase=None,
        at=time.time() + seq,
    )
