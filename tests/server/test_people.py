"""People at the table over HTTP and WebSocket: the host role passing on (a host who leaves, a
host away past the grace period), the rematch that waits until everyone seated is ready, and
the running score of games won and played, all kept over a server restart."""

from __future__ import annotations

import random
import time
from functools import partial

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

#: One die each and no spot-on (whose gain at one die would not end a game): games of a
#: few rounds.
QUICK = {"dice_per_player": 1, "pass_hands": "none", "spot_on": False}


def post(server: LiveServer, code: str, path: str, token: str | None, **body: object) -> Json:
    """POST a seat's command; the status and the answer (the table, or the refusal)."""
    headers = bearer(token) if token else {}
    with api(server) as http:
        response = http.post(
            f"/api/tables/{code}/{path}", headers=headers, json=body if body else None
        )
    answer: Json = response.json()
    answer["_status"] = response.status_code
    return answer


def host_seat(table: Json) -> list[int]:
    return [s["seat"] for s in table["seats"] if s["host"]]


def test_a_host_who_leaves_hands_the_table_to_the_next_connected_person(
    shared_server: LiveServer,
) -> None:
    created = new_table(shared_server, seats=4, options=QUICK)
    code, ana = created["code"], created["token"]
    bo = join(shared_server, code, "Bo")["token"]
    cy = join(shared_server, code, "Cy")["token"]
    # Cy is connected and Bo is not: Cy comes first though Bo sits nearer.
    with Player(shared_server, code, cy, name="Cy") as cy_socket:
        assert cy_socket.welcome is not None and cy_socket.welcome["host"] is False
        left = post(shared_server, code, "leave", ana)
        assert left["_status"] == 200, left
        assert left["seats"][0]["kind"] == "open" and left["host"] == 2 and host_seat(left) == [2]
        frame = cy_socket.until(
            lambda f: f["type"] == "table" and f["table"]["host"] == 2, "Cy told they are host"
        )
        assert frame["table"]["seats"][2]["host"] is True
        # The old host's token is no seat's any more; Bo is not the host.
        for token, status in ((ana, 401), (bo, 403)):
            refused = post(shared_server, code, "bots", token, level="easy")
            assert refused["_status"] == status, refused
        assert "host" in post(shared_server, code, "bots", bo, level="easy")["detail"]
        added = post(shared_server, code, "bots", cy, level="easy")
        assert added["_status"] == 200 and added["seats"][0]["kind"] == "bot", added
        started = post(shared_server, code, "start", cy)
        assert started["_status"] == 200 and started["status"] == "playing", started
        during = post(shared_server, code, "leave", cy)
        assert during["_status"] == 409 and "during" in during["detail"], during
        assert get_table(shared_server, code)["host"] == 2, "a refused leave changed nothing"


def test_the_last_person_leaving_leaves_no_host_and_the_next_to_join_is_host(
    shared_server: LiveServer,
) -> None:
    created = new_table(shared_server, seats=3, bots=["easy"])
    code, ana = created["code"], created["token"]
    bo = join(shared_server, code, "Bo")["token"]
    nobody = post(shared_server, code, "leave", None)
    assert nobody["_status"] == 401 and "token" in nobody["detail"], nobody
    # Nobody is connected: the next person in seat order takes it.
    assert post(shared_server, code, "leave", ana)["host"] == 2
    table = post(shared_server, code, "leave", bo)
    assert table["_status"] == 200 and table["host"] is None and host_seat(table) == []
    assert [s["kind"] for s in table["seats"]] == ["open", "bot", "open"]
    dee = join(shared_server, code, "Dee")
    table = get_table(shared_server, code)
    assert table["host"] == dee["seat"] == 0 and host_seat(table) == [0]
    assert post(shared_server, code, "bots", dee["token"], level="random")["_status"] == 200


def test_a_host_away_past_the_grace_period_hands_the_table_on(
    shared_server: LiveServer,
) -> None:
    created = new_table(shared_server, seats=3, grace_seconds=1)
    code, ana = created["code"], created["token"]
    bo = join(shared_server, code, "Bo")["token"]
    ana_socket = Player(shared_server, code, ana, name="Ana")
    assert ana_socket.welcome is not None and ana_socket.welcome["host"] is True
    ana_socket.close()
    time.sleep(1.5)
    assert get_table(shared_server, code)["host"] == 0, "nobody else was here to take it"
    with Player(shared_server, code, bo, name="Bo") as bo_socket:
        frame = bo_socket.until(
            lambda f: f["type"] == "table" and f["table"]["host"] == 1,
            "Bo made host on arriving, the host being away past the grace period",
        )
        assert frame["table"]["seats"][1]["host"] and not frame["table"]["seats"][0]["host"]
        # Ana back does not take it back, and her token no longer gives host commands.
        with Player(shared_server, code, ana, name="Ana back") as back:
            assert back.welcome is not None and back.welcome["host"] is False
            assert post(shared_server, code, "bots", ana, level="easy")["_status"] == 403
            assert post(shared_server, code, "bots", bo, level="easy")["_status"] == 200


def test_a_host_who_comes_back_within_the_grace_period_stays_host(
    shared_server: LiveServer,
) -> None:
    created = new_table(shared_server, seats=3, grace_seconds=2)
    code, ana = created["code"], created["token"]
    bo = join(shared_server, code, "Bo")["token"]
    with Player(shared_server, code, bo, name="Bo") as bo_socket:
        Player(shared_server, code, ana, name="Ana").close()
        time.sleep(0.5)
        with Player(shared_server, code, ana, name="Ana back"):
            time.sleep(2.2)
            assert get_table(shared_server, code)["host"] == 0
        assert bo_socket.welcome is not None and bo_socket.welcome["host"] is False


def finish_game(players: list[Player], seed: int) -> Json:
    view = play_turns(players, random.Random(seed))
    assert view["winner"] is not None
    return view


def test_the_rematch_waits_until_every_person_seated_is_ready(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=4, bots=["easy"], options=QUICK)
    code, ana = created["code"], created["token"]
    bo = join(shared_server, code, "Bo")["token"]
    cy = join(shared_server, code, "Cy")["token"]
    early = post(shared_server, code, "ready", bo)
    assert early["_status"] == 409 and "over" in early["detail"], early
    sockets = [Player(shared_server, code, t, name=n) for t, n in ((ana, "Ana"), (bo, "Bo"))]
    cy_socket = Player(shared_server, code, cy, name="Cy")
    host_post(shared_server, code, "start", ana)
    finish_game([*sockets, cy_socket], 3)
    table = get_table(shared_server, code)
    assert table["status"] == "over"
    assert [s["ready"] for s in table["seats"]] == [False, True, False, False], "bots are ready"
    for command in ("rematch", "start"):
        refused = post(shared_server, code, command, ana)
        assert refused["_status"] == 409, refused
        assert "Ana, Bo, Cy" in refused["detail"] and "ready" in refused["detail"], refused
    wrong = post(shared_server, code, "ready", bo, ready="yes")
    assert wrong["_status"] == 422 and "ready" in str(wrong["detail"]), wrong
    assert post(shared_server, code, "ready", "forged-token-0123456789")["_status"] == 401
    assert get_table(shared_server, code)["seats"] == table["seats"], "refusals changed nothing"
    assert post(shared_server, code, "ready", ana)["seats"][0]["ready"] is True
    assert post(shared_server, code, "ready", bo)["seats"][2]["ready"] is True
    said = sockets[1].until(
        lambda f: f["type"] == "table" and f["table"]["seats"][2]["ready"], "Bo's ready, told"
    )
    assert said["table"]["seats"][3]["ready"] is False
    changed = post(shared_server, code, "ready", bo, ready=False)
    assert changed["seats"][2]["ready"] is False
    assert "Bo, Cy" in post(shared_server, code, "rematch", ana)["detail"]
    post(shared_server, code, "ready", bo)
    # Cy leaves after the game: their seat opens and the rematch no longer waits for them.
    gone = post(shared_server, code, "leave", cy)
    assert gone["_status"] == 200 and gone["seats"][3]["kind"] == "open", gone
    cy_socket.until(
        lambda f: f["type"] == "table" and f["table"]["seats"][3]["kind"] == "open",
        "Cy's connection told the seat is open",
    )
    table = host_post(shared_server, code, "rematch", ana)
    assert table["status"] == "playing" and table["game_number"] == 2
    assert [s["player"] for s in table["seats"]] == [0, 1, 2, None]
    assert [s["ready"] for s in table["seats"]] == [False, True, False, False], "asked anew"
    for p in [*sockets, cy_socket]:
        p.close()


def test_the_host_may_remove_a_person_who_never_answers(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=3, bots=["easy"], options=QUICK, grace_seconds=0)
    code, ana = created["code"], created["token"]
    join(shared_server, code, "Bo")
    with Player(shared_server, code, ana, name="Ana") as ana_socket:
        host_post(shared_server, code, "start", ana)
        finish_game([ana_socket], 4)  # Bo never came: a stand-in played for them
        post(shared_server, code, "ready", ana)
        assert "Bo" in post(shared_server, code, "rematch", ana)["detail"]
        with api(shared_server) as http:
            removed = http.delete(f"/api/tables/{code}/seats/2", headers=bearer(ana))
        assert removed.status_code == 200 and removed.json()["seats"][2]["kind"] == "open"
        assert host_post(shared_server, code, "rematch", ana)["status"] == "playing"


def of_game(game: int, frame: Json) -> bool:
    return bool(frame["type"] == "update" and frame["game"] == game)


def scores(table: Json) -> dict[str, tuple[int, int]]:
    return {s["name"]: (s["wins"], s["played"]) for s in table["seats"] if s["name"]}


def test_the_running_score_and_the_host_survive_a_restart(live_server: ServerFactory) -> None:
    server = live_server()
    created = new_table(server, seats=3, bots=["easy"], options=QUICK)
    code, ana = created["code"], created["token"]
    bo = join(server, code, "Bo")["token"]
    names = {0: "Ana", 1: get_table(server, code)["seats"][1]["name"], 2: "Bo"}
    expected = {name: (0, 0) for name in names.values()}
    assert scores(get_table(server, code)) == expected
    players = [Player(server, code, ana, name="Ana"), Player(server, code, bo, name="Bo")]
    host_post(server, code, "start", ana)
    for game in (1, 2):
        table = get_table(server, code)
        seat_of_player = {s["player"]: s["seat"] for s in table["seats"] if s["player"] is not None}
        winner = names[seat_of_player[finish_game(players, 20 + game)["winner"]]]
        expected = {
            name: (wins + (name == winner), played + 1) for name, (wins, played) in expected.items()
        }
        assert scores(get_table(server, code)) == expected, f"after game {game}"
        if game == 1:
            for token in (ana, bo):
                post(server, code, "ready", token)
            second = host_post(server, code, "rematch", ana)["game"]
            for p in players:
                p.until(partial(of_game, second), "game 2")
    assert sum(wins for wins, _ in expected.values()) == 2
    for p in players:
        p.close()
    # Ana leaves: Bo is host, and Ana's score leaves with her.
    left = post(server, code, "leave", ana)
    assert left["host"] == 2 and left["seats"][0]["wins"] == left["seats"][0]["played"] == 0
    del expected["Ana"]
    server.restart()
    table = get_table(server, code)
    assert table["host"] == 2 and host_seat(table) == [2], "the host is kept"
    assert scores(table) == expected, "the score is kept"
    post(server, code, "ready", bo)
    again = post(server, code, "rematch", bo)
    assert again["_status"] == 200 and again["status"] == "playing", again


def test_a_host_away_during_a_game_hands_the_table_on_when_the_stand_in_comes(
    shared_server: LiveServer,
) -> None:
    created = new_table(shared_server, seats=3, bots=["easy"], grace_seconds=1, bot_seconds=0.5)
    code, ana = created["code"], created["token"]
    bo = join(shared_server, code, "Bo")["token"]
    ana_socket = Player(shared_server, code, ana, name="Ana")
    with Player(shared_server, code, bo, name="Bo") as bo_socket:
        host_post(shared_server, code, "start", ana)
        bo_socket.until(lambda f: f["type"] == "update", "the game's first update")
        ana_socket.close()
        frame = bo_socket.until(
            lambda f: f["type"] == "table" and f["table"]["host"] == 2,
            "Bo made host once Ana's grace period ran out",
        )
        seats = frame["table"]["seats"]
        assert seats[2]["host"] and not seats[0]["host"]
        # Ana's token no longer gives host commands; a stand-in plays her seat.
        refused = post(shared_server, code, "bots", ana, level="easy")
        assert refused["_status"] == 403 and "host" in refused["detail"], refused
        deadline = time.monotonic() + 5
        while not get_table(shared_server, code)["seats"][0]["autoplay"]:
            assert time.monotonic() < deadline, "no stand-in took Ana's seat"
            time.sleep(0.1)
    ana_socket.close()
