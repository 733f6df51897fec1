"""A real table against a real ``dudo serve`` on 127.0.0.1: every phone a cup (a WebSocket
per player), the program the referee. Creating one, the cups rolling before every round, calls
after bids said aloud (the engine's ``Spoken`` action and the call), bids entered out of turn,
the host playing on for a phone that is away, a phone reconnecting mid-round, the seating order
the host chose, a restart mid-game, and the record: it replays and ``dudo verify`` accepts it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from dudo.cli import app as cli
from dudo.engine.counting import count_matching
from dudo.records import replay

from .conftest import LiveServer, Player, ServerFactory, api, bearer, join, new_table

Json = dict[str, Any]


class RealTable:
    """A real table with ``names`` at it (the first the host), every phone connected."""

    def __init__(self, server: LiveServer, names: list[str], **body: Any) -> None:
        created = new_table(server, name=names[0], seats=len(names), real=True, **body)
        self.server = server
        self.code: str = created["code"]
        self.tokens = [created["token"]]
        for name in names[1:]:
            self.tokens.append(join(server, self.code, name)["token"])
        self.phones = [
            Player(server, self.code, token, name=name)
            for name, token in zip(names, self.tokens, strict=True)
        ]

    def start(self, order: list[int] | None = None) -> Json:
        with api(self.server) as http:
            body = None if order is None else {"order": order}
            answer = http.post(
                f"/api/tables/{self.code}/start", json=body, headers=bearer(self.tokens[0])
            )
        assert answer.status_code == 200, answer.text
        for phone in self.phones:
            phone.until(lambda f: f["type"] == "update", "the first update")
        table: Json = answer.json()
        return table

    def phone_of(self, player: int) -> Player:
        """The phone of engine ``player`` (the seats are the phones, in order)."""
        table = self.phones[0].table
        assert table is not None
        seat: int = next(s["seat"] for s in table["seats"] if s["player"] == player)
        return self.phones[seat]

    def sync(self) -> None:
        for phone in self.phones:
            phone.sync()

    def catch_up(self, turn: int) -> None:
        for phone in self.phones:
            phone.wait_turn(turn)

    def real(self) -> Json:
        phone = self.phones[0]
        phone.sync()
        assert phone.table is not None
        state: Json = phone.table["real"]
        return state

    def shake_all(self) -> None:
        """Every cup still to roll rolls; read until the first phone hears that all have.
        (Few frames: the server allows a phone 20 a second.)"""
        phone = self.phones[0]
        assert phone.table is not None and phone.view is not None
        round_number = phone.view["round"]
        if phone.table["real"]["round"] != round_number:  # the new round's table frame
            phone.until(
                lambda f: f["type"] == "table" and f["table"]["real"]["round"] == round_number,
                "the table frame of the new round",
            )
        assert phone.table is not None
        for player in phone.table["real"]["waiting"]:
            self.phone_of(player).send({"type": "shake"})

        def all_rolled(frame: Json) -> bool:
            assert frame["type"] != "error", frame
            real = frame["table"]["real"] if frame["type"] == "table" else None
            return real is not None and real["round"] == round_number and not real["waiting"]

        if phone.table["real"]["waiting"]:
            phone.until(all_rolled, "every cup rolled")

    def call(self, caller: int, call: str, bid: str, bidder: int) -> Json:
        """``caller`` taps ``call`` after ``bid`` said by ``bidder``; the caller's view after."""
        phone = self.phone_of(caller)
        assert phone.view is not None
        turn = phone.view["turn"]
        phone.send({"type": "call", "call": call, "bid": bid, "bidder": bidder, "turn": turn})
        return phone.wait_turn(turn + 1)

    def close(self) -> None:
        for phone in self.phones:
            phone.close()


def before(view: Json, player: int) -> int:
    """Who speaks before ``player`` (``order`` lists the seats clockwise, the direction of play
    here; players who are out are skipped)."""
    order, counts = view["order"], view["dice_counts"]
    step = 1
    at = order.index(player)
    while True:
        at = (at - step) % len(order)
        if counts[order[at]]:
            return int(order[at])


def test_a_real_table_has_no_bots_timers_or_lobby_listing(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        cases: list[tuple[Json, str]] = [
            ({"bots": ["easy"]}, "real_no_bots"),
            ({"public": True}, "real_not_public"),
            ({"turn_seconds": 30}, "real_no_timers"),
        ]
        for extra, code in cases:
            body = {"name": "Ana", "seats": 3, "real": True, **extra}
            answer = http.post("/api/tables", json=body)
            assert answer.status_code == 400 and answer.json()["code"] == code, answer.text
    table = RealTable(shared_server, ["Ana", "Bo"])
    try:
        shown = table.phones[0].table
        assert shown is not None and shown["real"] == {
            "round": None,
            "shaken": [],
            "waiting": [],
            "calls": {},
        }
        assert shown["grace_seconds"] is None and shown["real"] is not None
    finally:
        table.close()


def test_a_whole_game_with_bids_said_aloud(shared_server: LiveServer, tmp_path: Path) -> None:
    table = RealTable(shared_server, ["Ana", "Bo", "Cy"], preset="dudo")
    try:
        table.start()
        first = table.phones[0]
        assert first.view is not None
        # Nothing is played before every cup has rolled.
        first_mover = table.phone_of(first.view["to_move"])
        first_mover.act("1x2")
        assert first_mover.error()["code"] == "cups_not_rolled"
        rounds = 0
        while True:
            view = first.view
            assert view is not None
            if view["winner"] is not None:
                break
            if view["phase"] == "choose_visibility":
                table.phone_of(view["to_move"]).act("open")
                table.catch_up(view["turn"] + 1)
                continue
            table.shake_all()
            caller = view["to_move"]
            bidder = before(view, caller)
            table.call(caller, "call", f"{1 + rounds % 3}x6", bidder)
            table.catch_up(view["turn"] + 2)  # what was said, and the call
            rounds += 1
            revealed = [e for e in first.events if e["type"] == "Revealed"][-1]
            hands = tuple(tuple(h) for h in revealed["hands"])
            assert revealed["count"] == count_matching(hands, 6, revealed["wild_aces"], False)
            assert rounds < 60, "the game does not end"
        game_id = table.phones[0].game
        with api(shared_server) as http:
            record = http.get(f"/api/games/{game_id}/record").json()
        assert record["setup"]["spoken"] is True
        assert any(a["action"].startswith("said ") for a in record["actions"])
        assert replay(record).winner == view["winner"]
        path = tmp_path / "real.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        result = CliRunner().invoke(cli, ["verify", str(path)])
        assert result.exit_code == 0, result.output
        assert "fair" in result.output
    finally:
        table.close()


def test_entered_bids_and_a_bid_entered_out_of_turn(shared_server: LiveServer) -> None:
    table = RealTable(shared_server, ["Ana", "Bo", "Cy"], preset="perudo")
    try:
        table.start()
        table.shake_all()
        view = table.phones[0].view
        assert view is not None
        mover = view["to_move"]
        table.phone_of(mover).act("2x3")
        table.sync()
        # The next two speak aloud; the third enters its bid out of turn: it ends what was said.
        third = before(view, mover)
        phone = table.phone_of(third)
        assert phone.view is not None
        phone.act("5x3")
        phone.wait_turn(2)
        table.catch_up(2)
        view = table.phones[0].view
        assert view is not None
        assert view["standing_bid"] == "5x3" and view["bidder"] == third
        assert view["round_actions"][-1] == [third, "said 5x3"]
        # The call of what was entered needs no bid said again.
        caller = view["to_move"]
        table.call(caller, "call", "5x3", third)
    finally:
        table.close()


def test_a_refused_call_changes_nothing(shared_server: LiveServer) -> None:
    table = RealTable(shared_server, ["Ana", "Bo"], preset="dudo")
    try:
        table.start()
        table.shake_all()
        view = table.phones[0].view
        assert view is not None
        caller = view["to_move"]
        phone = table.phone_of(caller)
        # 2x1 said first by the opener is an opening on aces, which dudo refuses with 5 dice.
        phone.send({"type": "call", "call": "call", "bid": "2x1", "bidder": caller, "turn": 0})
        refused = phone.error()
        assert refused["code"] == "illegal"
        assert refused["reason"]["code"] in ("open_aces_one_die", "own_bid")
        phone.send({"type": "call", "call": "shout", "bid": "2x3", "bidder": 1, "turn": 0})
        assert phone.error()["code"] == "unknown_call"
        assert phone.view is not None and phone.view["turn"] == 0
    finally:
        table.close()


def test_the_host_plays_on_for_a_phone_that_is_away(shared_server: LiveServer) -> None:
    table = RealTable(shared_server, ["Ana", "Bo", "Cy"])
    try:
        table.start()
        host, bo = table.phones[0], table.phones[1]
        assert host.table is not None
        bo_player = host.table["seats"][1]["player"]
        # Bo's phone is here: the host may not shake for it.
        host.send({"type": "shake", "player": bo_player})
        assert host.error()["code"] == "play_on_present"
        # Cy may not play on for anyone: only the host.
        cy = table.phones[2]
        cy.send({"type": "shake", "player": bo_player})
        assert cy.error()["code"] == "host_only"
        bo.close()
        host.sync()
        host.send({"type": "shake", "player": bo_player})
        host.sync()
        assert bo_player in table.real()["shaken"]
    finally:
        table.close()


def test_a_phone_reconnects_mid_round_with_its_cup(shared_server: LiveServer) -> None:
    table = RealTable(shared_server, ["Ana", "Bo"])
    try:
        table.start()
        table.shake_all()
        bo = table.phones[1]
        assert bo.view is not None
        dice, turn = bo.view["my_dice"], bo.view["turn"]
        bo.close()
        again = Player(shared_server, table.code, table.tokens[1], name="Bo again")
        table.phones[1] = again
        again.sync()
        assert again.view is not None
        assert again.view["my_dice"] == dice and again.view["turn"] == turn
        assert again.table is not None and again.table["real"]["waiting"] == []
    finally:
        table.close()


def test_the_hosts_seating_order_and_a_restart_mid_game(live_server: ServerFactory) -> None:
    server = live_server()
    table = RealTable(server, ["Ana", "Bo", "Cy"], preset="perudo")
    try:
        started = table.start(order=[2, 0, 1])
        player = {s["seat"]: s["player"] for s in started["seats"]}
        view = table.phones[0].view
        assert view is not None
        assert view["order"] == [player[2], player[0], player[1]]
        table.shake_all()
        table.call(view["order"][1], "call", "3x4", view["order"][0])
        table.close()
        server.restart()
        again = Player(server, table.code, table.tokens[0], name="Ana")
        again.sync()
        assert again.view is not None
        assert again.view["order"] == view["order"]
        assert [a for _, a in again.view["round_actions"]] == []  # round 2 just began
        again.close()
    finally:
        table.close()


def test_start_refuses_an_order_that_is_not_the_seats(shared_server: LiveServer) -> None:
    table = RealTable(shared_server, ["Ana", "Bo"])
    try:
        with api(shared_server) as http:
            answer = http.post(
                f"/api/tables/{table.code}/start",
                json={"order": [0, 0]},
                headers=bearer(table.tokens[0]),
            )
        assert answer.status_code == 400 and answer.json()["code"] == "bad_order"
    finally:
        table.close()
