"""Turn feedback from a real server: an update says which move was played automatically for a
person and why (their timer ran out, or a stand-in bot plays their seat), and after a round's
reveal the next round's bots and turn timer wait ``reveal_seconds`` so the dice can be seen."""

from __future__ import annotations

import json
import random
import sqlite3
import time

from .conftest import (
    Json,
    LiveServer,
    Player,
    ServerFactory,
    api,
    get_table,
    host_post,
    join,
    new_table,
    play_turns,
)


def heads_up(server: LiveServer, **body: object) -> Player:
    """Ana against one bot, started, with Ana connected."""
    created = new_table(server, seats=2, bots=["easy"], **body)
    ana = Player(server, created["code"], created["token"], name="Ana")
    host_post(server, created["code"], "start", created["token"])
    ana.until(lambda f: f["type"] == "update", "the first update")
    return ana


def test_a_timed_out_move_is_marked_auto_timer(shared_server: LiveServer) -> None:
    ana = heads_up(shared_server, turn_seconds=1)
    me = ana.view["viewer"] if ana.view else None
    assert me is not None
    frame = ana.until(
        lambda f: f["type"] == "update" and f.get("auto") is not None, "an automatic move", 15
    )
    auto = frame["auto"]
    assert auto["player"] == me and auto["why"] == "timer", auto
    # It is the move the events of that update show for Ana, and it was legal for her.
    updates = [f for f in ana.frames if f["type"] == "update"]
    before = updates[updates.index(frame) - 1]["view"]
    assert auto["action"] in before["legal"], (auto, before["legal"])
    assert before["turn"] == frame["view"]["turn"] - 1
    # The bot's own moves are not marked: a bot playing a bot's seat is not news.
    for update in updates[: updates.index(frame)]:
        assert update.get("auto") is None, update


def test_a_stand_in_move_is_marked_auto_stand_in(shared_server: LiveServer) -> None:
    # Bo joins and never connects: with no grace period a stand-in plays his seat at once.
    created = new_table(shared_server, seats=2, grace_seconds=0)
    code, token = created["code"], created["token"]
    bo_seat = join(shared_server, code, "Bo")["seat"]
    ana = Player(shared_server, code, token, name="Ana")
    host_post(shared_server, code, "start", token)
    ana.until(lambda f: f["type"] == "update", "the first update")

    def marked(frame: Json) -> bool:
        return frame["type"] == "update" and frame.get("auto") is not None

    play_turns([ana], random.Random(3), stop=lambda _view: any(map(marked, ana.frames)))
    auto = next(f for f in ana.frames if marked(f))["auto"]
    assert ana.table is not None
    bo = next(s["player"] for s in ana.table["seats"] if s["seat"] == bo_seat)
    assert auto["player"] == bo and auto["why"] == "stand_in", auto


def revealed(frame: Json) -> bool:
    return frame["type"] == "update" and any(e["type"] == "Revealed" for e in frame["events"])


def test_the_next_round_waits_for_the_reveal(shared_server: LiveServer) -> None:
    turn_seconds = 5
    ana = heads_up(shared_server, reveal_seconds=1, turn_seconds=turn_seconds)
    assert ana.view is not None
    me = ana.view["viewer"]
    seen = {"bot": False, "ana": False}
    # Every reveal follows an action of Ana's (her call, or her bid the bot calls at once), so
    # the server showed it no earlier than she sent that action: a lower bound of the reveal's
    # time that a slow reader (a loaded machine) does not move, as the frame's arrival would.
    sent = time.time()
    for _ in range(400):
        if all(seen.values()) or ana.over:
            break
        frame = ana.recv(timeout=10)
        if frame["type"] != "update":
            continue
        view = frame["view"]
        if revealed(frame) and view["winner"] is None:
            if view["to_move"] == me:
                # Ana opens the next round: her clock starts once the reveal has been shown.
                assert frame["deadline"] is not None
                assert frame["deadline"] / 1000 >= sent + 1 + turn_seconds - 0.01, (
                    frame["deadline"] / 1000 - sent
                )
                seen["ana"] = True
            else:
                # The bot opens: its first move comes a reveal's length later, not at once.
                nxt = ana.until(lambda f: f["type"] == "update", "the bot's opening move")
                assert time.time() - sent >= 0.99
                assert nxt["view"]["turn"] == view["turn"] + 1
                seen["bot"] = True
                view = nxt["view"]
        if view["to_move"] == me and view["legal"] and view["winner"] is None:
            # Call whenever she can (rounds end quickly), else the lowest bid or a choice.
            legal = view["legal"]
            pick = next((a for a in ("call", "closed") if a in legal), legal[0])
            sent = time.time()
            ana.act(pick, view["turn"])
    assert any(seen.values()), "no round ended with the game still on"


def test_reveal_seconds_is_a_checked_table_setting(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        made = http.post("/api/tables", json={"name": "Ana"})
        assert made.status_code == 201, made.text
        assert get_table(shared_server, made.json()["code"])["reveal_seconds"] == 3
        made = http.post("/api/tables", json={"name": "Ana", "reveal_seconds": 0})
        assert get_table(shared_server, made.json()["code"])["reveal_seconds"] == 0
        for bad in (-1, 31, 1.5):
            refused = http.post("/api/tables", json={"name": "Ana", "reveal_seconds": bad})
            assert refused.status_code == 422, (bad, refused.text)
            assert "reveal_seconds" in refused.json()["detail"]


def test_a_table_stored_without_reveal_seconds_loads_with_the_default(
    live_server: ServerFactory,
) -> None:
    server = live_server()
    created = new_table(server, seats=2, bots=["easy"])
    code = created["code"]
    server.stop()
    with sqlite3.connect(server.sqlite_path) as db:
        (text,) = db.execute("SELECT settings FROM tables WHERE code = ?", (code,)).fetchone()
        settings = json.loads(text)
        del settings["reveal_seconds"]
        db.execute("UPDATE tables SET settings = ? WHERE code = ?", (json.dumps(settings), code))
    db.close()
    server.start()
    table = get_table(server, code)
    assert table["status"] == "lobby" and table["reveal_seconds"] == 3
    host_post(server, code, "start", created["token"])
    assert get_table(server, code)["status"] == "playing"
