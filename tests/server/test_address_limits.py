"""Per-address limits on what costs the server something to keep: tables however they are made
(the create form, a rated table, "Play now" opening one) spend one budget, and one-time codes
asked for by many players from one address spend that address's budget. A refusal changes
nothing, and another address has a budget of its own. (The players an address creates:
``test_players.py``; tables and cups from the create form: ``test_limits.py``.)"""

from __future__ import annotations

from .conftest import TEST_ARGS, ServerFactory, api, limit_args
from .test_lobby import lobby
from .test_players import as_player, new_player
from .test_rated import rated_table

#: As a proxy on this machine would forward a request from elsewhere.
ELSEWHERE = {"X-Forwarded-For": "203.0.113.9"}


def test_play_now_and_rated_tables_count_against_the_tables_an_address_creates(
    live_server: ServerFactory,
) -> None:
    server = live_server(args=[*TEST_ARGS, *limit_args(tables_burst=2, tables_per_minute=0.01)])
    ana = new_player(server, "Ana")
    rated_table(server, ana["key"])  # the first table of this address
    with api(server) as http:
        opened = http.post("/api/lobby/play", json={"name": "Bo", "preset": "cacho"})
        assert opened.status_code == 201 and opened.json()["created"] is True, opened.text
        # Joining a waiting table makes none: it is not counted.
        joined = http.post("/api/lobby/play", json={"name": "Cy", "preset": "cacho"})
        assert joined.status_code == 201, joined.text
        assert joined.json()["code"] == opened.json()["code"]
        before = lobby(server)["tables"]
        assert len(before) == 2
        # The budget of two is spent: "Play now" that would open a table, a rated table and
        # a table of the create form are refused, and nothing is made.
        for path, body, headers in (
            ("/api/lobby/play", {"name": "Di", "preset": "perudo"}, {}),
            ("/api/tables", {"name": "Ana", "public": True, "rated": True}, as_player(ana["key"])),
            ("/api/tables", {"name": "Eva"}, {}),
        ):
            response = http.post(path, json=body, headers=headers)
            assert response.status_code == 429, (path, response.text)
            assert response.json()["code"] == "rate_limited", response.text
            assert response.json()["detail"].startswith("too many tables created"), response.text
            assert int(response.headers["retry-after"]) >= 1
        assert lobby(server)["tables"] == before
        elsewhere = http.post(
            "/api/lobby/play", json={"name": "Fe", "preset": "perudo"}, headers=ELSEWHERE
        )
        assert elsewhere.status_code == 201, elsewhere.text


def test_one_time_codes_are_limited_per_address_across_players(
    live_server: ServerFactory,
) -> None:
    """Three players at one address: the address may ask for two codes, whoever asks."""
    server = live_server(args=[*TEST_ARGS, *limit_args(codes_burst=2, codes_per_minute=0.01)])
    keys = [new_player(server, name)["key"] for name in ("Ana", "Bo", "Cy")]
    with api(server) as http:
        for key in keys[:2]:
            given = http.post("/api/players/me/code", headers=as_player(key))
            assert given.status_code == 201, given.text
        refused = http.post("/api/players/me/code", headers=as_player(keys[2]))
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "rate_limited"
        assert refused.json()["detail"].startswith("too many one-time codes asked for")
        # The same player from another address is not held up by this one's budget.
        other = http.post("/api/players/me/code", headers={**as_player(keys[2]), **ELSEWHERE})
        assert other.status_code == 201, other.text
