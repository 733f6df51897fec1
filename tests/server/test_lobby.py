"""The lobby over HTTP and WebSocket on a real server: public tables are listed and private ones
never are, the list filters by preset, ``/ws/lobby`` sends a table's arrival and departure as
diffs with growing versions, "Play now" seats people together at the fullest table of their
preset, and the countdown fills the open seats with bots and starts the game."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from websockets.sync.client import ClientConnection, connect

from .conftest import (
    FRAME_SECONDS,
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
)


class LobbyWatcher:
    """One ``/ws/lobby`` connection keeping the list as the frames build it."""

    def __init__(self, server: LiveServer) -> None:
        self.ws: ClientConnection = connect(
            f"{server.ws_url}/ws/lobby",
            proxy=None,
            open_timeout=10,
            compression=None,
            legacy=True,
        )
        first = self.recv()
        assert first["type"] == "lobby_full", first
        self.version: int = first["version"]
        self.cards: dict[str, Json] = {c["code"]: c for c in first["tables"]}

    def recv(self, timeout: float = FRAME_SECONDS) -> Json:
        frame: Json = json.loads(self.ws.recv(timeout=timeout))
        return frame

    def until(self, predicate: Any, what: str, timeout: float = FRAME_SECONDS) -> Json:
        """Apply diff frames until ``predicate(cards)`` holds; each version must be the next."""
        deadline = time.monotonic() + timeout
        while not predicate(self.cards):
            left = deadline - time.monotonic()
            assert left > 0, f"the lobby never showed {what}; it shows {sorted(self.cards)}"
            frame = self.recv(left)
            if frame["type"] != "lobby":
                continue
            assert frame["version"] == self.version + 1, "a lobby version was skipped"
            self.version = frame["version"]
            for code in frame["removed"]:
                self.cards.pop(code, None)
            for card in frame["changed"]:
                self.cards[card["code"]] = card
        return self.cards

    def close(self) -> None:
        self.ws.close()


def lobby(server: LiveServer, **params: str) -> Json:
    with api(server) as http:
        response = http.get("/api/lobby", params=params)
    assert response.status_code == 200, response.text
    listing: Json = response.json()
    return listing


def codes(server: LiveServer, **params: str) -> list[str]:
    return [card["code"] for card in lobby(server, **params)["tables"]]


def play_now(server: LiveServer, name: str, **body: Any) -> Json:
    with api(server) as http:
        response = http.post("/api/lobby/play", json={"name": name, **body})
    assert response.status_code == 201, response.text
    seated: Json = response.json()
    return seated


def test_public_tables_are_listed_with_their_card_and_private_ones_never(
    shared_server: LiveServer,
) -> None:
    public = new_table(
        shared_server, name="Lía", public=True, seats=5, bots=["easy", "hard"], preset="perudo"
    )
    private = new_table(shared_server, name="Oto", preset="perudo")
    listed = {card["code"]: card for card in lobby(shared_server)["tables"]}
    assert private["code"] not in listed
    card = listed[public["code"]]
    assert card["preset"] == "perudo" and card["host"] == "Lía"
    assert (card["seats"], card["taken"], card["free"], card["humans"]) == (5, 3, 2, 1)
    assert sorted(card["bots"]) == ["easy", "hard"]
    assert card["fill_deadline"] is None
    # The table's own page says which kind it is; the private one is still reached by its code.
    assert get_table(shared_server, public["code"])["public"] is True
    assert get_table(shared_server, private["code"])["public"] is False


def test_the_list_filters_by_preset_and_refuses_an_unknown_one(shared_server: LiveServer) -> None:
    dudo = new_table(shared_server, public=True, preset="dudo")
    cacho = new_table(shared_server, public=True, preset="cacho")
    only_cacho = lobby(shared_server, preset="cacho")["tables"]
    assert cacho["code"] in [c["code"] for c in only_cacho]
    assert dudo["code"] not in [c["code"] for c in only_cacho]
    assert {c["preset"] for c in only_cacho} == {"cacho"}
    with api(shared_server) as http:
        response = http.get("/api/lobby", params={"preset": "yahtzee"})
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_preset"
    assert response.json()["params"] == {"preset": "yahtzee"}


def test_the_feed_shows_a_table_arriving_filling_and_leaving(shared_server: LiveServer) -> None:
    watcher = LobbyWatcher(shared_server)
    try:
        table = new_table(shared_server, public=True, seats=3, bots=["medium"])
        code = table["code"]
        cards = watcher.until(lambda cards: code in cards, "the new table")
        assert cards[code]["free"] == 1 and cards[code]["bots"] == ["medium"]
        join(shared_server, code, "Bo")  # the last seat: the table is no longer open
        watcher.until(lambda cards: code not in cards, "the full table leaving")

        second = new_table(shared_server, public=True, seats=3, bots=["easy"])
        other = second["code"]
        watcher.until(lambda cards: other in cards, "the second table")
        host_post(shared_server, other, "start", second["token"])
        # A public game being played stays listed, as a game to watch.
        cards = watcher.until(
            lambda cards: cards.get(other, {}).get("status") == "playing", "the game to watch"
        )
        assert [p["dice"] for p in cards[other]["players"]] == [5, 5]

        private = new_table(shared_server)["code"]
        join(shared_server, private, "Cy")
        # A lobby frame for this test's next public table comes after anything the private one
        # could have caused: the private table never shows up in between.
        marker = new_table(shared_server, public=True)["code"]
        watcher.until(lambda cards: marker in cards, "the marker table")
        assert private not in watcher.cards
        watcher.ws.send(json.dumps({"type": "ping"}))
        assert watcher.recv()["type"] in ("pong", "lobby")
        watcher.ws.send(json.dumps({"type": "join"}))
        error = watcher.recv()
        while error["type"] != "error":
            error = watcher.recv()
        assert error["code"] == "bad_message"
    finally:
        watcher.close()


def test_play_now_seats_two_people_at_one_table(live_server: ServerFactory) -> None:
    server = live_server()
    ana = play_now(server, "Ana", preset="perudo")
    assert ana["created"] is True and ana["seat"] == 0
    bo = play_now(server, "Bo", preset="perudo")
    assert bo["created"] is False and bo["code"] == ana["code"] and bo["seat"] == 1
    table = get_table(server, ana["code"])
    assert table["public"] is True and table["preset"] == "perudo"
    assert [s["name"] for s in table["seats"][:2]] == ["Ana", "Bo"]
    assert table["fill_deadline"] is not None, "a table Play now opens counts down"
    # The token works: Bo's seat is Bo's.
    with api(server) as http:
        ready = http.post(f"/api/tables/{ana['code']}/leave", headers=bearer(bo["token"]))
    assert ready.status_code == 200
    # Another preset gets a table of its own.
    cy = play_now(server, "Cy", preset="dudo")
    assert cy["created"] is True and cy["code"] != ana["code"]


def test_play_now_joins_the_fullest_table_of_the_preset(live_server: ServerFactory) -> None:
    server = live_server()
    emptier = new_table(server, name="Ana", public=True, seats=4, preset="perudo")
    fuller = new_table(server, name="Bo", public=True, seats=4, bots=["easy"], preset="perudo")
    private = new_table(server, name="Cy", seats=4, bots=["easy", "easy"], preset="perudo")
    other_preset = new_table(server, name="Di", public=True, seats=4, bots=["easy", "easy"])
    seated = play_now(server, "Eva", preset="perudo")
    assert seated["code"] == fuller["code"]
    assert seated["code"] not in (emptier["code"], private["code"], other_preset["code"])
    # A name taken at the fullest table: the next table that has it free.
    again = play_now(server, "eva", preset="perudo")
    assert again["code"] == emptier["code"]


def test_play_now_refuses_bad_input_and_changes_nothing(live_server: ServerFactory) -> None:
    server = live_server()
    cases = [
        ({"name": "   "}, 400, "name_missing"),
        ({"name": "Ana", "preset": "yahtzee"}, 400, "unknown_preset"),
        ({"name": "Ana", "fill_level": "genius"}, 400, "unknown_level"),
        ({"name": "Ana", "fill_seconds": -5}, 422, "invalid_request"),
        ({"name": "Ana", "seats": 3}, 422, "invalid_request"),
    ]
    with api(server) as http:
        for body, status, code in cases:
            response = http.post("/api/lobby/play", json=body)
            assert response.status_code == status, (body, response.text)
            assert response.json()["code"] == code, (body, response.json())
        response = http.post("/api/tables", json={"name": "Ana", "fill_level": "genius"})
        assert response.status_code == 400 and response.json()["code"] == "unknown_level"
        response = http.post("/api/tables", json={"name": "Ana", "public": "yes"})
        assert response.status_code == 422
    assert lobby(server)["tables"] == []


def test_the_countdown_fills_the_seats_with_bots_and_starts(shared_server: LiveServer) -> None:
    watcher = LobbyWatcher(shared_server)
    try:
        table = new_table(shared_server, public=True, seats=4, fill_seconds=2, fill_level="medium")
        code = table["code"]
        cards = watcher.until(lambda cards: code in cards, "the table with a countdown")
        deadline = cards[code]["fill_deadline"]
        assert deadline is not None and cards[code]["fill_level"] == "medium"
        assert 0 < deadline / 1000 - time.time() <= 2.5
        join(shared_server, code, "Bo")
        watcher.until(
            lambda cards: cards.get(code, {}).get("status") == "playing",
            "the table listed as a game to watch once it starts",
        )
        started = get_table(shared_server, code)
        assert started["status"] == "playing"
        assert started["fill_deadline"] is None
        kinds = [(s["kind"], s["level"]) for s in started["seats"]]
        assert kinds == [("human", None), ("human", None), ("bot", "medium"), ("bot", "medium")]
        assert time.time() >= deadline / 1000 - 0.05, "it started when the countdown ran out"
    finally:
        watcher.close()


def test_a_countdown_table_starts_as_soon_as_it_is_full(shared_server: LiveServer) -> None:
    table = new_table(shared_server, public=True, seats=2, fill_seconds=600)
    join(shared_server, table["code"], "Bo")
    deadline = time.monotonic() + FRAME_SECONDS
    while get_table(shared_server, table["code"])["status"] != "playing":
        assert time.monotonic() < deadline, "the full table did not start"
        time.sleep(0.05)


def test_a_table_nobody_sits_at_stops_counting(shared_server: LiveServer) -> None:
    table = new_table(shared_server, public=True, seats=3, fill_seconds=1)
    with api(shared_server) as http:
        response = http.post(f"/api/tables/{table['code']}/leave", headers=bearer(table["token"]))
    assert response.status_code == 200
    assert response.json()["fill_deadline"] is None
    time.sleep(1.5)
    after = get_table(shared_server, table["code"])
    assert after["status"] == "lobby" and all(s["kind"] == "open" for s in after["seats"])
    assert table["code"] not in codes(shared_server), "a table with nobody at it is not listed"


def test_public_tables_and_their_countdown_survive_a_restart(
    live_server: ServerFactory, db_url: str
) -> None:
    server = live_server(db_url)
    public = new_table(server, public=True, fill_seconds=300, preset="perudo")
    private = new_table(server, preset="perudo")
    server.restart()
    listed = {card["code"]: card for card in lobby(server)["tables"]}
    assert private["code"] not in listed
    assert listed[public["code"]]["fill_deadline"] is not None
    assert play_now(server, "Bo", preset="perudo")["code"] == public["code"]


def test_a_change_no_card_shows_sends_no_frame(shared_server: LiveServer) -> None:
    """Connections and spectators at a listed table change nothing a card shows: watchers get
    no frame for them, so a busy table costs the lobby's watchers nothing."""
    table = new_table(shared_server, public=True, seats=3)
    watcher = LobbyWatcher(shared_server)
    try:
        assert table["code"] in watcher.cards
        with (
            Player(shared_server, table["code"], table["token"]),
            Player(shared_server, table["code"]),
        ):
            marker = new_table(shared_server, public=True)["code"]
            frame = watcher.recv()
            while frame["type"] != "lobby":
                frame = watcher.recv()
            assert [c["code"] for c in frame["changed"]] == [marker], frame
            assert frame["version"] == watcher.version + 1
    finally:
        watcher.close()


def test_people_pressing_play_now_together_sit_together(live_server: ServerFactory) -> None:
    server = live_server()
    names = ["Ana", "Bo", "Cy"]
    with ThreadPoolExecutor(len(names)) as pool:
        seated = list(pool.map(lambda name: play_now(server, name, preset="cacho"), names))
    assert len({s["code"] for s in seated}) == 1, seated
    assert sorted(s["seat"] for s in seated) == [0, 1, 2]
    assert [s["created"] for s in seated].count(True) == 1
