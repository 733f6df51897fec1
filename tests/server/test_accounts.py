"""Accounts and names: deleting an account frees its name at once and gives up its seats (their
tokens stop working); a registered player's name is theirs at every table, look-alike letters
included. Real servers, real SQLite (and PostgreSQL for the store and the migration).
"""

from __future__ import annotations

import json
import time

import pytest

from dudo.server.names import name_key
from dudo.server.storage import Store, StoredSeat

from .conftest import Json, LiveServer, ServerFactory, api, bearer, get_table, host_post
from .test_players import as_player, new_player, refused

#: "Victim" with a Cyrillic і (U+0456) in place of the Latin i.
CYRILLIC_VICTIM = "V\u0456ctim"


def create(server: LiveServer, name: str, key: str | None = None, **body: object) -> Json:
    headers = {} if key is None else as_player(key)
    with api(server) as http:
        answer = http.post(
            "/api/tables",
            json={"name": name, "bot_seconds": 0, "reveal_seconds": 0, **body},
            headers=headers,
        )
    assert answer.status_code == 201, answer.text
    made: Json = answer.json()
    return made


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Victim", CYRILLIC_VICTIM),
        ("VICTIM", CYRILLIC_VICTIM),
        ("Ana", "ＡＮＡ"),
        ("Paolo", "\u03a1aolo"),  # a Greek capital rho
        ("Coc", "\u0421\u043e\u0441"),  # wholly Cyrillic, no script mixed
    ],
)
def test_look_alike_names_share_a_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [("Lucía", "Lucia"), ("Ana", "Ann"), ("Bo", "Bo 2")])
def test_different_names_keep_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_deleting_an_account_frees_its_name_and_gives_up_its_seats(
    live_server: ServerFactory,
) -> None:
    server = live_server()
    victim, bo = new_player(server, "Victim"), new_player(server, "Bo")
    # A lobby the player hosts, where Bo sits too, and a game the player is playing.
    lobby = create(server, "Victim", victim["key"], seats=3)
    with api(server) as http:
        joined = http.post(
            f"/api/tables/{lobby['code']}/join", json={"name": "Bo"}, headers=as_player(bo["key"])
        ).json()
    playing = create(server, "Victim", victim["key"], seats=2, bots=["easy"])
    host_post(server, playing["code"], "start", playing["token"])
    game = get_table(server, playing["code"])["game"]
    with api(server) as http:
        mine = http.get("/api/players/me/tables", headers=as_player(victim["key"])).json()
        assert {t["code"] for t in mine["tables"]} == {lobby["code"], playing["code"]}
        assert http.delete("/api/players/me", headers=as_player(victim["key"])).status_code == 200

        # The name is free at once: for another browser, or this one again.
        again = new_player(server, "Victim")
        assert again["name"] == "Victim"
        assert http.get("/api/players/me/tables", headers=as_player(again["key"])).json() == {
            "tables": []
        }
        # The lobby seat opened, and the host role went to Bo.
        table = get_table(server, lobby["code"])
        assert table["seats"][0]["kind"] == "open" and table["host"] == joined["seat"], table
        # No old seat token works: not to leave, not to say ready, not to act.
        refused(
            http.post(f"/api/tables/{lobby['code']}/leave", headers=bearer(lobby["token"])),
            401,
            "seat_token_needed",
        )
        refused(
            http.post(f"/api/tables/{playing['code']}/leave", headers=bearer(playing["token"])),
            401,
            "seat_token_needed",
        )
        # Nor does the old key give the seats back.
        refused(
            http.post(f"/api/tables/{playing['code']}/seat", headers=as_player(victim["key"])),
            401,
            "player_key_needed",
        )
    # In the game, a bot plays the seat to the end; the record names nobody deleted.
    table = get_table(server, playing["code"])
    assert table["seats"][0]["kind"] == "bot" and "Victim" not in json.dumps(table), table
    deadline = time.monotonic() + 60
    while get_table(server, playing["code"])["status"] != "over":
        assert time.monotonic() < deadline, "the stand-in did not finish the game"
        time.sleep(0.05)
    with api(server) as http:
        record = http.get(f"/api/games/{game}/record").json()
    assert "Victim" not in json.dumps(record) and record["meta"]["deleted"] == [0], record
    assert record["meta"]["stood_in"] == [0]


def test_a_deleted_players_seats_in_the_store_are_given_up(db_url: str) -> None:
    """SQLite and PostgreSQL: a seat of a table no process holds (a finished table out of
    memory) opens, and the host role passes to the next person; a seat of a game in play
    keeps no token and no player."""
    store = Store(db_url)
    try:
        store.create_player("p1", "Ana", name_key("Ana"), "key1")
        seats = [
            StoredSeat(0, "human", "Ana", None, "t0", False, player_id="p1"),
            StoredSeat(1, "bot", "Bruno", "easy", None, False),
            StoredSeat(2, "human", "Bo", None, "t2", False),
        ]
        for code in ("OVER23", "PLAY23"):
            store.create_table(code, "dudo", {}, {"seats": 3}, seats, False, b"s" * 32)
        store.set_status("OVER23", "over")
        store.set_status("PLAY23", "playing")
        store.delete_player("p1")
        over = store.load_table("OVER23")
        assert over is not None
        assert (over.seats[0].kind, over.seats[0].name, over.seats[0].token_hash) == (
            "open",
            None,
            None,
        )
        assert over.host == 2
        playing = store.load_table("PLAY23")
        assert playing is not None
        assert (playing.seats[0].token_hash, playing.seats[0].player_id) == (None, None)
        assert store.player_tables("p1") == []
    finally:
        store.close()


def test_a_registered_name_is_its_players_at_every_table(live_server: ServerFactory) -> None:
    server = live_server()
    victim, bo = new_player(server, "Victim"), new_player(server, "Bo")
    guest = create(server, "Host")
    with api(server) as http:
        for name in ("Victim", "victim", CYRILLIC_VICTIM):
            # A guest may not create a table under it, nor join one, nor Play now.
            body = refused(http.post("/api/tables", json={"name": name}), 409, "name_owned")
            assert body["params"] == {"name": name}, body
            refused(
                http.post(f"/api/tables/{guest['code']}/join", json={"name": name}),
                409,
                "name_owned",
            )
            refused(
                http.post("/api/lobby/play", json={"name": name, "preset": "perudo"}),
                409,
                "name_owned",
            )
            # Nor may another player.
            refused(
                http.post(
                    f"/api/tables/{guest['code']}/join",
                    json={"name": name},
                    headers=as_player(bo["key"]),
                ),
                409,
                "name_owned",
            )
        # Look-alike names are refused to new players and renames too, both ways round.
        refused(http.post("/api/players", json={"name": CYRILLIC_VICTIM}), 409, "player_name_taken")
        refused(
            http.patch(
                "/api/players/me", json={"name": CYRILLIC_VICTIM}, headers=as_player(bo["key"])
            ),
            409,
            "player_name_taken",
        )
        cyrillic = new_player(server, "\u0421\u043e\u0441")
        assert cyrillic["name"] == "\u0421\u043e\u0441"
        refused(http.post("/api/players", json={"name": "Coc"}), 409, "player_name_taken")
        # The name's owner sits under it, whichever way it is typed.
        joined = http.post(
            f"/api/tables/{guest['code']}/join",
            json={"name": "Victim"},
            headers=as_player(victim["key"]),
        )
        assert joined.status_code == 201, joined.text
    assert create(server, "victim", victim["key"])["seat"] == 0
    # The refusals changed nothing: the guest's table has its host and Victim alone.
    assert [s["name"] for s in get_table(server, guest["code"])["seats"] if s["name"]] == [
        "Host",
        "Victim",
    ]


def test_the_upgrade_keys_stored_names_by_look_and_renames_later_look_alikes(
    db_url: str,
) -> None:
    """SQLite and PostgreSQL: a database at 0010 whose players' keys were NFKC case-folded
    names gets confusables keys; of two look-alike names the older player keeps theirs and the
    newer is renamed "<name> (2)"."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from dudo.server import storage

    engine = storage.make_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(storage.MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0010")
    old = [
        ("p2", CYRILLIC_VICTIM, 2.0),
        ("p1", "Victim", 1.0),
        ("p3", "Ana", 3.0),
    ]
    with engine.begin() as c:
        for player_id, name, created in old:
            c.execute(
                sa.text(
                    "INSERT INTO players (id, name, name_key, key_hash, created) "
                    "VALUES (:id, :name, :key, :hash, :created)"
                ),
                {
                    "id": player_id,
                    "name": name,
                    "key": name.casefold(),
                    "hash": f"hash-{player_id}",
                    "created": created,
                },
            )
    engine.dispose()
    store = Store(db_url)
    try:
        renamed = store.player("p2")
        assert renamed is not None and renamed.name == f"{CYRILLIC_VICTIM} (2)"
        kept = store.player("p1")
        assert kept is not None and kept.name == "Victim"
        with store.engine.connect() as c:
            rows = c.execute(sa.text("SELECT id, name_key FROM players")).all()
        assert {str(row.id): str(row.name_key) for row in rows} == {
            "p1": name_key("Victim"),
            "p2": name_key(f"{CYRILLIC_VICTIM} (2)"),
            "p3": name_key("Ana"),
        }
        # A newcomer is refused the look-alike of a stored name.
        assert not store.create_player("p4", "victim", name_key("victim"), "hash-p4")
    finally:
        store.close()
