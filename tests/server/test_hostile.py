"""Hostile and broken clients against one real server: every bad frame gets an error that says
what was wrong, nothing in the game changes, and the other players play on."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import HOST, LiveServer, Match, Player, api, play_turns, settle

#: A game state as the players see it: the turn and every event so far.
State = tuple[int | None, int, int | None, int]


def state(match: Match) -> State:
    return (match.ana.turn, len(match.ana.events), match.bo.turn, len(match.bo.events))


def assert_unchanged(match: Match, before: State) -> None:
    """No update reaches anyone, and the game is where it was."""
    for p in match.players:
        late = p.updates_since_sync()
        assert not late, f"{p.name} got an update after a refused frame: {late}"
    assert state(match) == before, "a refused frame changed the game"


def assert_plays_on(match: Match, turns: int = 3) -> None:
    """The players (both connections) can go on playing normally."""
    start = max(p.turn or 0 for p in match.players)
    view = play_turns(
        match.players, random.Random(start), stop=lambda v: v["turn"] >= start + turns
    )
    assert view["winner"] is not None or view["turn"] >= start + turns
    assert match.ana.events == match.bo.events
    for p in match.players:
        assert p.ws.close_code is None, f"{p.name}'s connection was closed"


def server_healthy(server: LiveServer) -> None:
    assert server.running, f"the server died:\n{server.log_tail()}"
    with api(server) as http:
        assert http.get("/api/presets").status_code == 200


ACT_CASES = [
    # (frame as text, error code, words the message must contain)
    ("this is not json", "bad_message", ["not JSON"]),
    ("", "bad_message", ["not JSON"]),
    ("[1, 2, 3]", "bad_message", ["JSON object", "list"]),
    ('"act"', "bad_message", ["JSON object", 'the text "act"']),
    ("null", "bad_message", ["JSON object"]),
    ('{"type": "dance"}', "bad_message", ['"dance"', "act"]),
    ('{"action": "call"}', "bad_message", ["frame type null"]),
    ('{"type": 5}', "bad_message", ["frame type"]),
    ('{"type": "act", "action": "{ACTION}", "turn": "{TURN}"}', "bad_message", ["act.turn", "int"]),
    ('{"type": "act", "action": "{ACTION}", "turn": {TURN}.0}', "bad_message", ["act.turn"]),
    ('{"type": "act", "action": "{ACTION}", "turn": true}', "bad_message", ["act.turn"]),
    ('{"type": "act", "action": 5, "turn": {TURN}}', "bad_message", ["act.action", "text"]),
    ('{"type": "act", "action": ["call"], "turn": {TURN}}', "bad_message", ["act.action"]),
    ('{"type": "act", "action": null, "turn": {TURN}}', "bad_message", ["act.action"]),
    ('{"type": "act", "turn": {TURN}}', "bad_message", ["missing", "'action'"]),
    ('{"type": "explain"}', "bad_message", ["missing", "'action'"]),
    ('{"type": "act", "action": "{ACTION}", "turn": {TURN}, "as": 2}', "bad_message", ["'as'"]),
    ('{"type": "act", "action": "{ACTION}", "turn": {TURN}, "seat": 0}', "bad_message", ["seat"]),
    ('{"type": "ping", "x": 1}', "bad_message", ["ping", "'x'"]),
    ('{"type": "hello", "token": null, "since": true}', "bad_message", ["hello.since"]),
    ('{"type": "hello", "token": null, "since": -1}', "bad_message", ["hello", "once"]),
    ('{"type": "hello", "token": 7}', "bad_message", ["hello.token"]),
    ('{"type": "act", "action": "{LONG}", "turn": {TURN}}', "bad_message", ["64"]),
    ('{"type": "act", "action": "banana", "turn": {TURN}}', "unknown_action", ["banana"]),
    ('{"type": "act", "action": "3x9", "turn": {TURN}}', "unknown_action", ["3x9"]),
    ('{"type": "act", "action": "0x4", "turn": {TURN}}', "unknown_action", ["0x4"]),
    ('{"type": "act", "action": "{ACTION}", "turn": -5}', "bad_message", ["act.turn", "-5"]),
    ('{"type": "PING"}', "bad_message", ['"PING"']),
    # Text that is not Unicode: a lone surrogate has no UTF-8 form to send back or store.
    (
        '{"type": "act", "action": "\\ud800", "turn": {TURN}}',
        "bad_message",
        ["act.action", "surrogate"],
    ),
    ('{"type": "act", "action": "3x\\udfff", "turn": {TURN}}', "bad_message", ["surrogate"]),
    (
        '{"type": "explain", "action": "\\udc00call"}',
        "bad_message",
        ["explain.action", "surrogate"],
    ),
    # Nesting that would exhaust the JSON reader's recursion.
    ("[" * 2000, "bad_message", ["nested deeper than 8 levels"]),
    ('{"type": "act", "x": ' + "[" * 1000 + "]" * 1000 + "}", "bad_message", ["nested deeper"]),
    # Numbers outside what a field means, and the numbers Python reads but JSON has not.
    (
        '{"type": "act", "action": "{ACTION}", "turn": 1e400}',
        "bad_message",
        ["act.turn", "0 to 9007199254740991", "1e400"],
    ),
    ('{"type": "act", "action": "{ACTION}", "turn": NaN}', "bad_message", ["act.turn", "NaN"]),
    (
        '{"type": "act", "action": "{ACTION}", "turn": Infinity}',
        "bad_message",
        ["act.turn", "Infinity"],
    ),
    ('{"type": "act", "action": "{ACTION}", "turn": -Infinity}', "bad_message", ["act.turn"]),
    (
        '{"type": "act", "action": "{ACTION}", "turn": 9007199254740992}',
        "bad_message",
        ["act.turn", "9007199254740991"],
    ),
    (
        '{"type": "act", "action": "{ACTION}", "turn": 1' + "0" * 3000 + "}",
        "bad_message",
        ["act.turn", "0 to"],
    ),
    (
        '{"type": "hello", "since": 100000000000000000000000}',
        "bad_message",
        ["hello.since", "-1 to"],
    ),
    ('{"type": "hello", "since": -2}', "bad_message", ["hello.since", "-1 to"]),
    ('{"type": "hello", "game": -1}', "bad_message", ["hello.game", "0 to", "null"]),
    ('{"type": "hello", "game": 1e400}', "bad_message", ["hello.game"]),
]


@pytest.mark.parametrize(
    ("template", "code", "words"), ACT_CASES, ids=[c[0][:40] for c in ACT_CASES]
)
def test_a_bad_frame_from_the_player_to_move_is_refused(
    match: Match, template: str, code: str, words: list[str]
) -> None:
    mover = settle(match.players)
    assert mover.view is not None
    legal = mover.view["legal"]
    text = (
        template.replace("{ACTION}", legal[0])
        .replace("{TURN}", str(mover.view["turn"]))
        .replace("{LONG}", "9" * 65)
    )
    before = state(match)
    mover.send_raw(text)
    error = mover.error(f"the error for {text!r}")
    assert error["code"] == code, (text, error)
    for word in words:
        assert word in error["message"], f"{word!r} not in {error['message']!r} (frame {text!r})"
    assert_unchanged(match, before)
    assert mover.view["legal"] == legal, "still this player's move, with the same choices"
    assert_plays_on(match)


def test_binary_frames_are_read_as_text(match: Match) -> None:
    mover = settle(match.players)
    before = state(match)
    mover.send_raw(b"\xff\xfe\x00 not utf-8")
    error = mover.error()
    assert error["code"] == "bad_message" and "JSON" in error["message"], error
    mover.send_raw(b'{"type": "ping"}')
    assert mover.until(lambda f: f["type"] == "pong", "a pong for a binary ping")
    assert_unchanged(match, before)
    assert_plays_on(match)


def test_a_frame_over_4096_bytes_is_too_large(match: Match) -> None:
    mover = settle(match.players)
    assert mover.view is not None
    before = state(match)
    frame = {"type": "act", "action": mover.view["legal"][0], "turn": mover.view["turn"]}
    text = json.dumps(frame) + " " * (5000 - len(json.dumps(frame)))
    assert len(text) == 5000
    mover.send_raw(text)
    error = mover.error()
    assert error["code"] == "too_large", error
    assert "5000" in error["message"] and "4096" in error["message"], error
    assert_unchanged(match, before)
    assert_plays_on(match)


def test_a_1_mb_frame_closes_that_connection_only(match: Match) -> None:
    mover = settle(match.players)
    before = state(match)
    token = match.host_token if mover is match.ana else match.bo_token
    hostile = Player(match.server, match.code, token, name="hostile twin")
    hostile.until(lambda f: f["type"] == "update", "the twin's update")
    hostile.send_raw("x" * (1 << 20))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            hostile.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, closed.value
    assert "exceeds limit" in closed.value.rcvd.reason, "the close says what was wrong"
    server_healthy(match.server)
    assert_unchanged(match, before)
    assert_plays_on(match)


def test_a_forged_token_is_unauthorized_then_watches(match: Match) -> None:
    mover = settle(match.players)
    assert mover.view is not None
    before = state(match)
    forged = Player(match.server, match.code, "forged-" + "A" * 32, name="forger")
    assert forged.frames[0]["type"] == "error", forged.frames[:2]
    assert forged.frames[0]["code"] == "unauthorized" and "token" in forged.frames[0]["message"]
    assert forged.welcome is not None and forged.welcome["seat"] is None
    update = forged.until(lambda f: f["type"] == "update", "a spectator's update")
    assert update["view"]["viewer"] is None and update["view"]["my_dice"] is None
    forged.act(mover.view["legal"][0], turn=mover.view["turn"])
    assert forged.error()["code"] == "not_a_player"
    assert_unchanged(match, before)
    assert_plays_on(match)
    turn = (before[0] or 0) + 3
    forged.until(lambda f: f["type"] == "update" and f["view"]["turn"] >= turn, "the game watched")
    forged.close()


@pytest.mark.parametrize(
    "first",
    ['{"type": "act", "action": "call", "turn": 0}', '{"type": "ping"}', "hello", "[]"],
)
def test_the_first_frame_must_be_hello(match: Match, first: str) -> None:
    settle(match.players)
    before = state(match)
    rude = Player(match.server, match.code, hello=False, name="rude")
    rude.send_raw(first)
    error = rude.error()
    assert error["code"] == "bad_message" and error["message"], error
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            rude.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert_unchanged(match, before)
    assert_plays_on(match)


def test_a_hello_with_a_bad_field_closes_the_connection(match: Match) -> None:
    settle(match.players)
    before = state(match)
    rude = Player(match.server, match.code, hello=False, name="rude")
    rude.send({"type": "hello", "token": None, "since": True})
    error = rude.error()
    assert error["code"] == "bad_message" and "hello.since" in error["message"], error
    with pytest.raises(ConnectionClosed):
        while True:
            rude.recv(timeout=5)
    assert_unchanged(match, before)


BAD_HELLOS = [
    # (first frame, words the error must contain)
    ('{"type": "hello", "token": "\\ud83d"}', ["hello.token", "surrogate"]),
    ('{"type": "hello", "token": "ab\\udfffcd", "since": 3}', ["hello.token", "surrogate"]),
    ('{"type": "hello", "since": 100000000000000000000000}', ["hello.since", "-1 to"]),
    ('{"type": "hello", "since": -7}', ["hello.since", "-1 to"]),
    ('{"type": "hello", "since": NaN}', ["hello.since", "NaN"]),
    ('{"type": "hello", "game": -1}', ["hello.game", "0 to"]),
    ('{"type": "hello", "game": 1e400}', ["hello.game", "1e400"]),
    ("[" * 3000, ["nested deeper"]),
]


@pytest.mark.parametrize(("first", "words"), BAD_HELLOS, ids=[h[0][:30] for h in BAD_HELLOS])
def test_a_hello_out_of_range_or_not_unicode_is_refused(
    shared_server: LiveServer, first: str, words: list[str]
) -> None:
    match = Match(shared_server, start=False)
    rude = Player(match.server, match.code, hello=False, name="rude")
    rude.send_raw(first)
    error = rude.error()
    assert error["code"] == "bad_message", error
    for word in words:
        assert word in error["message"], f"{word!r} not in {error['message']!r}"
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            rude.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008, closed.value
    server_healthy(match.server)
    match.close()


def test_an_unknown_table_is_refused(shared_server: LiveServer) -> None:
    lost = Player(shared_server, "NOSUCH", hello=False, name="lost")
    error = lost.error()
    assert error["code"] == "no_table" and "NOSUCH" in error["message"], error
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            lost.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_a_flood_is_rate_limited_then_closed(match: Match) -> None:
    mover = settle(match.players)
    assert mover.view is not None
    before = state(match)
    token = match.host_token if mover is match.ana else match.bo_token
    flooder = Player(match.server, match.code, token, name="flooder")
    flooder.until(lambda f: f["type"] == "update", "the flooder's update")
    frame = json.dumps({"type": "act", "action": "999x6", "turn": mover.view["turn"]})
    sent = 0
    # The server may close the connection before all 200 are sent; what it answered first is
    # still waiting to be read.
    with contextlib.suppress(ConnectionClosed):
        for _ in range(200):
            flooder.send_raw(frame)
            sent += 1
    with pytest.raises(ConnectionClosed):
        while True:
            flooder.recv(timeout=5)
    assert sent > 40, "the first frames are accepted"
    answers = [f for f in flooder.frames if f["type"] == "error"]
    limited = [f for f in answers if f["code"] == "rate_limited"]
    assert limited, f"rate_limited errors come before the close: {answers[:3]}"
    assert all("slow down" in f["message"] for f in limited)
    others = {f["code"] for f in answers} - {"rate_limited"}
    assert others <= {"unknown_action", "illegal"}, f"unexpected errors {others}"
    assert flooder.ws.close_code == 1008, f"closed with {flooder.ws.close_code}"
    server_healthy(match.server)
    assert_unchanged(match, before)
    assert_plays_on(match)


def test_a_slow_steady_client_is_not_rate_limited(match: Match) -> None:
    mover = settle(match.players)
    for _ in range(30):
        mover.send({"type": "ping"})
        time.sleep(0.02)  # 50 frames a second for 0.6 s: the burst allowance covers it
    pongs = [mover.until(lambda f: f["type"] in ("pong", "error"), "pong") for _ in range(30)]
    assert all(p == {"type": "pong"} for p in pongs), pongs
    assert_plays_on(match)


def test_http_garbage_does_not_hurt_the_game(match: Match) -> None:
    settle(match.players)
    before = state(match)
    with api(match.server) as http:
        for path in ("/ws/" + match.code, "/api/tables/" + match.code + "/start", "/api/x"):
            # A connection each: the server answers without reading such a body and closes the
            # connection, which a client reusing it may race on a busy machine.
            response = http.post(path, content=b"\x00" * 100, headers={"Connection": "close"})
            assert response.status_code in (400, 401, 404, 405, 422), (path, response.status_code)
        response = http.post(
            "/api/tables", content=b"{" * 10000, headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 422
    with socket.create_connection((HOST, match.server.port), timeout=5) as raw:
        raw.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 99999999\r\n\r\n{}"
        )
        status_line = raw.recv(4096).split(b"\r\n", 1)[0]
    assert b" 413 " in status_line, status_line
    assert_unchanged(match, before)
    assert_plays_on(match)
