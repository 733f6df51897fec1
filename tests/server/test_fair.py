"""Provably fair dice at a real server: the next game's commitment is shown in the lobby before
any client seed is taken, the seats' seeds are locked when the game starts, the secret is in no
frame and no HTTP answer until the game is over and then in the table and the record, a rematch
commits to a new secret, a restart mid-game keeps the commitment and the dice (SQLite and
PostgreSQL), and ``dudo verify`` accepts every finished game of the run and rejects a record
with one altered die or a wrong secret, or whose last roll was dropped or winner changed."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from dudo.cli import app as cli
from dudo.server.storage import Store, StoredSeat

from .conftest import (
    Json,
    LiveServer,
    Match,
    Player,
    ServerFactory,
    api,
    bearer,
    get_table,
    host_post,
    join,
    new_table,
    play_turns,
    record_of,
)

#: One die each and no spot-on: a game of a few rounds.
QUICK = {"dice_per_player": 1, "pass_hands": "none", "spot_on": False}
HEX64 = re.compile(r"[0-9a-f]{64}")
ANA_SEED = "a1" * 16
BO_SEED = "0123456789abcdef"


def verify(record: Json, tmp_path: Path, name: str, lang: str = "en") -> tuple[int, str]:
    """``dudo verify`` on ``record`` written to a file: its exit code and output."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path), "--lang", lang])
    return result.exit_code, result.output


def send_seed(player: Player, seed: object) -> Json:
    """Send a client seed; the error frame that answers it, or else the last table frame
    before the pong of a ping sent after it (the server handles a connection's frames in
    order)."""
    player.send({"type": "seed", "seed": seed})
    frames = player.sync()
    errors = [f for f in frames if f["type"] == "error"]
    if errors:
        return errors[-1]
    tables = [f for f in frames if f["type"] == "table"]
    assert tables, f"{player.name}: no answer to the seed {seed!r}"
    return tables[-1]


def test_commitment_first_then_seeds_locked_at_the_start(shared_server: LiveServer) -> None:
    server = shared_server
    created = new_table(server, seats=3, bots=["easy"], options=QUICK)
    code, token = created["code"], created["token"]
    lobby = get_table(server, code)["fair"]
    assert lobby["scheme"] == "dudo-fair-1" and lobby["game"] is None
    committed = lobby["next"]["commitment"]
    assert HEX64.fullmatch(committed) and lobby["next"]["seeded"] == []
    bo = join(server, code, "Bo")
    with (
        Player(server, code, token, name="Ana") as ana,
        Player(server, code, bo["token"], name="Bo") as bo_ws,
        Player(server, code, None, name="spectator") as watcher,
    ):
        # Every connection sees the commitment before any seed is taken.
        for p in (ana, bo_ws, watcher):
            assert p.table is not None and p.table["fair"]["next"]["commitment"] == committed
        # Bad seeds change nothing, and say what was wrong.
        for bad in ("A1" * 16, "abc", "g" * 20, "a" * 65):
            frame = send_seed(ana, bad)
            assert frame["type"] == "error", bad
            assert frame["code"] in ("seed_invalid", "bad_message"), frame
        assert send_seed(ana, 12345)["code"] == "bad_message"
        frame = send_seed(watcher, ANA_SEED)
        assert frame["type"] == "error" and frame["code"] == "seed_not_seated", frame
        assert get_table(server, code)["fair"]["next"]["seeded"] == []
        # A seed may change until the start; the table shows who sent one, not the seed.
        assert send_seed(ana, "ff" * 8)["table"]["fair"]["next"]["seeded"] == [0]
        table = send_seed(ana, ANA_SEED)["table"]
        assert ANA_SEED not in json.dumps(table)
        table = send_seed(bo_ws, BO_SEED)["table"]
        assert table["fair"]["next"] == {"commitment": committed, "seeded": [0, 2]}
        started = host_post(server, code, "start", token)
        # Locked and shown to all: the seat order's seeds, "" for the bot.
        fair = started["fair"]
        assert fair["next"] is None
        assert fair["game"] == {
            "game": started["game"],
            "scheme": "dudo-fair-1",
            "commitment": committed,
            "seeds": [ANA_SEED, "", BO_SEED],
            "secret": None,
        }
        bo_ws.send({"type": "seed", "seed": "bb" * 16})
        frame = bo_ws.error("the refused seed")
        assert frame["code"] == "seed_locked", frame
        assert get_table(server, code)["fair"]["game"]["seeds"] == [ANA_SEED, "", BO_SEED]


def test_the_secret_is_told_only_once_the_game_is_over_and_a_rematch_commits_anew(
    shared_server: LiveServer, tmp_path: Path
) -> None:
    server = shared_server
    match = Match(server, start=False, options=QUICK)
    with Player(server, match.code, None, name="spectator") as watcher:
        send_seed(match.ana, ANA_SEED)
        send_seed(match.bo, BO_SEED)
        committed = get_table(server, match.code)["fair"]["next"]["commitment"]
        match.start()
        answers: list[str] = []  # every HTTP answer while the game is played
        with api(server) as http:
            game = get_table(server, match.code)["game"]
            for path in (
                f"/api/tables/{match.code}",
                "/api/games?limit=50",
                f"/api/games/{game}/record",
                f"/api/games/{game}/replay",
            ):
                answers.append(http.get(path).text)
        play_turns(match.players, random.Random(3), watchers=(watcher,))
        over = get_table(server, match.code)
        assert over["status"] == "over"
        fair = over["fair"]["game"]
        secret = fair["secret"]
        assert HEX64.fullmatch(secret)
        assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == committed == fair["commitment"]
        # Before the table said the game was over, nobody was sent the secret.
        for p in (match.ana, match.bo, watcher):
            p.sync()
            texts = [json.dumps(f) for f in p.frames]
            first = next(i for i, text in enumerate(texts) if secret in text)
            frame = p.frames[first]
            assert frame["type"] == "table" and frame["table"]["status"] == "over", p.name
            assert all(
                frame["type"] != "update" or secret not in json.dumps(frame)
                for frame in p.frames[:first]
            )
        assert not any(secret in text for text in answers)
        # The record carries it, and the dice check out.
        record = record_of(server, fair["game"])
        assert record["meta"]["fair"] == {
            "scheme": "dudo-fair-1",
            "commitment": committed,
            "seeds": [ANA_SEED, "", BO_SEED],
            "secret": secret,
        }
        code, out = verify(record, tmp_path, "game")
        assert code == 0 and out.startswith("fair:"), out
        # The rematch is committed to before anyone is asked for a seed, and anew.
        rematch_commitment = over["fair"]["next"]["commitment"]
        assert HEX64.fullmatch(rematch_commitment) and rematch_commitment != committed
        with api(server) as http:
            for token in (match.host_token, match.bo_token):
                answer = http.post(
                    f"/api/tables/{match.code}/ready", json={"ready": True}, headers=bearer(token)
                )
                assert answer.status_code == 200, answer.text
        again = host_post(server, match.code, "rematch", match.host_token)["fair"]["game"]
        assert again["commitment"] == rematch_commitment and again["secret"] is None
        assert again["seeds"] == ["", "", ""]  # nobody sent a seed for this one
    match.close()


def test_a_restart_mid_game_keeps_the_commitment_and_the_dice(
    live_server: ServerFactory, db_url: str, tmp_path: Path
) -> None:
    server = live_server(db_url)
    match = Match(server, start=False)
    send_seed(match.ana, ANA_SEED)
    match.start()
    waiting = lambda v: v["turn"] >= 6 and any(p.view and p.view["legal"] for p in match.players)  # noqa: E731
    play_turns(match.players, random.Random(8), stop=waiting)
    before = get_table(server, match.code)["fair"]["game"]
    assert before["secret"] is None and before["seeds"] == [ANA_SEED, "", ""]
    dice_before = {p.name: p.view["my_dice"] for p in match.players if p.view is not None}
    match.close()
    server.restart()
    assert get_table(server, match.code)["fair"]["game"] == before
    ana = Player(server, match.code, match.host_token, name="Ana")
    bo = Player(server, match.code, match.bo_token, name="Bo")
    for p in (ana, bo):
        p.until(lambda f: f["type"] == "update", "the update after the restart")
    assert {"Ana": ana.view["my_dice"], "Bo": bo.view["my_dice"]} == dice_before  # type: ignore[index]
    play_turns([ana, bo], random.Random(9))
    ended = get_table(server, match.code)
    assert ended["status"] == "over"
    fair = ended["fair"]["game"]
    assert fair["commitment"] == before["commitment"]
    code, out = verify(record_of(server, fair["game"]), tmp_path, "resumed")
    assert code == 0, out
    ana.close()
    bo.close()


def test_a_restart_in_the_lobby_keeps_the_commitment(live_server: ServerFactory) -> None:
    server = live_server()
    created = new_table(server, seats=2, bots=["easy"], options=QUICK)
    code, token = created["code"], created["token"]
    committed = get_table(server, code)["fair"]["next"]["commitment"]
    server.restart()
    assert get_table(server, code)["fair"]["next"]["commitment"] == committed
    with Player(server, code, token, name="Ana") as ana:
        send_seed(ana, ANA_SEED)  # sent again after the restart, as the browser does
        started = host_post(server, code, "start", token)["fair"]["game"]
    assert started["commitment"] == committed and started["seeds"] == [ANA_SEED, ""]


def test_dudo_verify_accepts_every_finished_game_and_rejects_tampering(
    shared_server: LiveServer, tmp_path: Path
) -> None:
    server = shared_server
    for seed in range(2):  # games of this run besides those of the other tests
        created = new_table(server, seats=3, bots=["easy", "medium"], options=QUICK)
        with Player(server, created["code"], created["token"], name="Ana") as ana:
            host_post(server, created["code"], "start", created["token"])
            play_turns([ana], random.Random(seed))
    with api(server) as http:
        games = http.get("/api/games?limit=100").json()["games"]
    assert len(games) >= 2
    checked = 0
    for game in games:
        record = record_of(server, game["id"])
        if "fair" not in record["meta"]:
            continue  # a game of a test server that plays with fixed dice on purpose
        code, out = verify(record, tmp_path, f"g{game['id']}")
        assert code == 0, (game["id"], out)
        assert out.count("\n") == 1 and out.startswith("fair:"), out
        checked += 1
    assert checked >= 2

    record = record_of(server, games[0]["id"])
    # One die altered: which outcome, expected against found, exit 1, in every language.
    tampered = json.loads(json.dumps(record))
    index = next(i for i, c in enumerate(tampered["chance"]) if "roll" in c)
    die = tampered["chance"][index]["roll"][0]
    tampered["chance"][index]["roll"][0] = die % 6 + 1
    code, out = verify(tampered, tmp_path, "one-die")
    assert code == 1 and out.startswith("NOT fair: 1 difference\n"), out
    assert f"chance[{index}]" in out and f"found {die % 6 + 1}" in out, out
    code, out = verify(tampered, tmp_path, "one-die-es", "es")
    assert code == 1 and "NO es justa: 1 diferencia" in out and "se esperaba" in out, out
    code, out = verify(tampered, tmp_path, "one-die-it", "it")
    assert code == 1 and "NON equa: 1 differenza" in out and "atteso" in out, out
    # A wrong secret: its SHA-256 is not the commitment (and the dice do not follow from it).
    wrong = json.loads(json.dumps(record))
    wrong["meta"]["fair"]["secret"] = "00" * 32
    code, out = verify(wrong, tmp_path, "wrong-secret")
    assert code == 1 and "the commitment is " + record["meta"]["fair"]["commitment"] in out, out
    # The dice all fair, the record around them not: the last roll dropped, another winner.
    dropped = json.loads(json.dumps(record))
    last = len(dropped["chance"]) - 1
    dropped["chance"].pop()
    code, out = verify(dropped, tmp_path, "dropped")
    assert code == 1 and out.startswith("NOT consistent: "), out
    assert f"chance[{last}] is missing" in out, out
    code, out = verify(dropped, tmp_path, "dropped-it", "it")
    assert code == 1 and f"manca chance[{last}]" in out, out
    changed = json.loads(json.dumps(record))
    winner = changed["result"]["winner"]
    changed["result"]["winner"] = (winner + 1) % len(changed["players"])
    code, out = verify(changed, tmp_path, "winner", "es")
    assert code == 1 and out.startswith("NO es coherente: "), out
    assert "result.winner: el registro dice que ganó" in out and f"(players[{winner}])" in out
    # A record without fair-dice data cannot be vouched for.
    del wrong["meta"]["fair"]
    code, out = verify(wrong, tmp_path, "no-fair")
    assert code == 1 and "meta.fair" in out, out


def test_the_store_keeps_the_secrets_and_seeds(db_url: str) -> None:
    from dudo.engine.fair import FairSeed

    store = Store(db_url)
    try:
        secret, later = bytes(range(32)), bytes(range(1, 33))
        seats = [
            StoredSeat(0, "human", "Ana", None, "x" * 64, False),
            StoredSeat(1, "bot", "B", "easy", None, False),
        ]
        store.create_table("FAIR01", "dudo", {}, {"seats": 2}, seats, next_secret=secret)
        stored = store.load_table("FAIR01")
        assert stored is not None and stored.next_secret == secret and stored.game is None
        fair = FairSeed(secret, (ANA_SEED, ""))
        players: list[dict[str, Any]] = [{"seat": 0}, {"seat": 1}]
        game_id = store.start_game("FAIR01", 1, 0, {}, players, fair)
        stored = store.load_table("FAIR01")
        assert stored is not None and stored.next_secret is None
        assert stored.game is not None and stored.game.id == game_id and stored.game.fair == fair
        store.set_next_secret("FAIR01", later)
        store.set_next_secret("FAIR01", later)  # again (a retry): still one
        stored = store.load_table("FAIR01")
        assert stored is not None and stored.next_secret == later and stored.game is not None
        assert stored.game.fair == fair
    finally:
        store.close()
