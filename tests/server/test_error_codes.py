"""Refusals carry a code and parameters beside the English, over HTTP and on the WebSocket, so
that a client words them in its own language: each code here is one a person can meet, sent by
a real server for a real bad request, with the parameters its words need."""

from __future__ import annotations

import pickle

import pytest

from dudo.engine import Bid, Game, Reason, ReasonCode
from dudo.engine.rules import PRESETS
from dudo.server.errors import ErrorCode

from .conftest import Json, LiveServer, Match, Player, api, bearer, join, new_table, settle


def refusal(response: object) -> Json:
    body: Json = response.json()  # type: ignore[attr-defined]
    assert isinstance(body.get("detail"), str) and body["detail"], body
    assert body["code"] in set(ErrorCode), body
    assert isinstance(body["params"], dict), body
    return body


def test_http_refusals_carry_code_and_params(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=2, bots=["easy"])
    code = created["code"]
    with api(shared_server) as http:
        body = refusal(http.post("/api/tables", json={"name": "   "}))
        assert body["code"] == "name_missing" and body["params"] == {}, body

        body = refusal(http.post(f"/api/tables/{code}/join", json={"name": "Bo"}))
        assert body["code"] == "table_full", body

        body = refusal(http.get("/api/tables/ZZZZZZ"))
        assert body == {**body, "code": "no_table", "params": {"table": "ZZZZZZ"}}, body

        body = refusal(http.post("/api/tables", json={"name": "Ana", "seats": 2, "bots": ["x"]}))
        assert body["code"] == "unknown_level" and body["params"] == {"level": "x"}, body

        body = refusal(
            http.post("/api/tables", json={"name": "Ana", "seats": 2, "bots": ["easy"] * 2})
        )
        assert body["code"] == "too_many_bots" and body["params"] == {"count": 1}, body

        options = {"name": "Ana", "options": {"aces_from": "double"}}  # aces_to is ceil_half
        body = refusal(http.post("/api/tables", json=options))
        assert body["code"] == "bad_option" and body["params"] == {"option": "aces_from"}, body

        body = refusal(http.post(f"/api/tables/{code}/rematch", headers=bearer(created["token"])))
        assert body["code"] == "rematch_after_game", body

        body = refusal(http.post(f"/api/tables/{code}/start", headers=bearer("nobody")))
        assert body["code"] == "seat_token_needed", body

        body = refusal(http.delete(f"/api/tables/{code}/seats/7", headers=bearer(created["token"])))
        assert body["code"] == "no_such_seat" and body["params"] == {"seat": 8, "last": 2}, body

        body = refusal(http.post("/api/tables", json=[1]))
        assert body["code"] == "invalid_request", body

        body = refusal(http.get("/api/no-such-route"))
        assert body["code"] == "not_found", body

        body = refusal(http.get("/api/games/999999/record"))
        assert body["code"] == "no_finished_game" and body["params"] == {"id": 999999}, body


def test_a_parameter_echoing_bad_text_stays_valid_json(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        response = http.post(
            "/api/tables",
            content=b'{"name": "Ana", "seats": 2, "bots": ["\\ud800"]}',
            headers={"Content-Type": "application/json"},
        )
    body = refusal(response)
    assert body["code"] == "unknown_level" and body["params"]["level"] == "?", body


def test_socket_refusals_carry_code_params_and_reason(shared_server: LiveServer) -> None:
    match = Match(shared_server)
    try:
        mover = settle(match.players)
        waiting = match.bo if mover is match.ana else match.ana
        assert mover.view is not None
        standing = mover.view["standing_bid"]

        waiting.act(mover.view["legal"][0], turn=waiting.view["turn"] if waiting.view else 0)
        error = waiting.error()
        assert error["code"] == "not_your_turn", error
        assert error["reason"]["code"] == "not_your_turn", error
        assert error["reason"]["params"] == {"player": mover.name}, error

        illegal = next(
            f"{q}x{f}"
            for q in range(1, 40)
            for f in range(1, mover.view["faces"] + 1)
            if f"{q}x{f}" not in mover.view["legal"]
        )
        mover.act(illegal)
        error = mover.error()
        assert error["code"] == "illegal" and error["params"] == {}, error
        assert error["reason"]["code"] in set(ReasonCode), error
        assert isinstance(error["message"], str) and error["message"], error
        if standing is not None and "standing" in error["reason"]["params"]:
            assert error["reason"]["params"]["standing"] == standing, error

        # A turn other than the game's (one ahead: at the first turn none is behind).
        mover.act(mover.view["legal"][0], turn=mover.view["turn"] + 1)
        assert mover.error()["code"] == "stale"

        mover.send({"type": "act"})
        error = mover.error()
        assert error["code"] == "bad_message" and "reason" not in error, error
    finally:
        match.close()

    with Player(shared_server, match.code, "forged-token", name="forger") as forger:
        error = next(f for f in forger.frames if f["type"] == "error")
        assert error == {**error, "code": "unauthorized", "params": {}}, error


@pytest.mark.parametrize("preset", ["dudo", "perudo"])
def test_a_reason_keeps_its_code_through_pickling(preset: str) -> None:
    """Reasons cross process boundaries (arena workers): code and parameters go with them."""
    game = Game(PRESETS[preset], 2, seed=1)
    game.push(Bid(2, 4))
    why = game.problem(Bid(1, 4))
    assert isinstance(why, Reason)
    again = pickle.loads(pickle.dumps(why))
    assert (again, again.code, dict(again.params)) == (why, why.code, dict(why.params))
    assert why.params["new"] == "1x4" and why.params["standing"] == "2x4"


def test_join_refusal_names_the_taken_name(shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=3)
    join(shared_server, created["code"], "Bo")
    with api(shared_server) as http:
        response = http.post(f"/api/tables/{created['code']}/join", json={"name": "bo"})
    body = refusal(response)
    assert body["code"] == "name_taken" and body["params"] == {"name": "Bo"}, body
