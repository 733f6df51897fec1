"""``kill -9`` in the middle of a game: a real server process on a SQLite file is killed at a
random moment while the players act as fast as they can, then started again. Nothing that was
broadcast is lost, nothing is applied twice, and the game plays on to a record that replays."""

from __future__ import annotations

import random
import sqlite3
import threading

from websockets.exceptions import ConnectionClosed

from dudo.records import replay
from dudo.server.wire import event_json

from .conftest import (
    Disconnected,
    Json,
    LiveServer,
    Match,
    Player,
    ServerFactory,
    api,
    get_table,
    play_turns,
    settle,
)

#: Any game of three players with five dice lasts at least 20 actions (10 dice must be lost, one
#: per round of at least two actions), so kills armed by turn 14 come while the game is on.
LAST_KILL_TURN = 14


def stored_actions(server: LiveServer, game_id: int) -> list[tuple[int, int, str]]:
    """(seq, player, action) of every action committed to the SQLite file."""
    with sqlite3.connect(server.sqlite_path) as db:
        rows = db.execute(
            "SELECT seq, player, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    db.close()
    return [(int(s), int(p), str(a)) for s, p, a in rows]


def drain(player: Player) -> None:
    """Read every frame that reached this client before its connection died."""
    try:
        while True:
            player.recv(timeout=3)
    except (ConnectionClosed, TimeoutError, OSError):
        pass


def play_until_killed(
    server: LiveServer, players: list[Player], rng: random.Random, at: int
) -> None:
    """Play as fast as possible; once the game reaches turn ``at``, kill the server a random
    instant later (while the players go on acting)."""
    killer: list[threading.Timer] = []

    def arm(view: Json) -> bool:
        if not killer and view["turn"] >= at:
            killer.append(threading.Timer(rng.uniform(0.0, 0.004), server.kill))
            killer[0].start()
        elif killer and view["turn"] >= at + 2:
            # On a busy machine the timer's thread may not be scheduled while the players race
            # on: wait for it, so the kill still comes within a few turns of ``at``.
            killer[0].join()
        return False

    try:
        final = play_turns(players, rng, stop=arm)
    except (Disconnected, ConnectionClosed, OSError):
        pass
    else:
        raise AssertionError(f"the game ended (turn {final['turn']}) before the kill at {at}")
    finally:
        for timer in killer:
            timer.join()
    assert not server.running, "the server was killed"
    for p in players:
        drain(p)


def test_kill_9_loses_nothing_and_applies_nothing_twice(live_server: ServerFactory) -> None:
    seed = random.randrange(1 << 32)
    rng = random.Random(seed)
    why = f"(random seed {seed})"
    server = live_server()
    match = Match(server)
    game_id = get_table(server, match.code)["game"]
    tokens = [match.host_token, match.bo_token]
    players = match.players
    humans = {0, 2}  # Ana is player 0, the bot player 1, Bo player 2
    kill_at = 0
    for crash in (1, 2):
        current = max(p.turn or 0 for p in players)
        kill_at = min(current + rng.randint(2, 6), LAST_KILL_TURN)
        assert kill_at > current, f"crash {crash}: the game is at turn {current} already {why}"
        play_until_killed(server, players, rng, kill_at)
        seen = max(p.turn or 0 for p in players)
        stored = stored_actions(server, game_id)
        assert [s for s, _p, _a in stored] == list(range(len(stored))), f"seqs {why}"
        assert len(stored) >= seen, (
            f"crash {crash}: clients saw turn {seen} but only {len(stored)} actions were stored "
            f"{why}"
        )
        # Beyond what anyone saw, at most one human action (sent just before the kill) and the
        # bot moves that followed it at once: a human cannot act on a state they never saw.
        unseen = [p for _s, p, _a in stored[seen:]]
        assert sum(p in humans for p in unseen) <= 1 and all(p not in humans for p in unseen[1:]), (
            f"crash {crash}: unseen actions by {unseen} after turn {seen} {why}"
        )

        server.start()
        resumed = []
        for old, token in zip(players, tokens, strict=True):
            new = Player(
                server,
                match.code,
                token,
                since=len(old.events) - 1,
                known=old.events,
                game=old.game,
                name=f"{old.name} after crash {crash}",
            )
            update = new.until(lambda f: f["type"] == "update", "the update after the restart")
            assert update["view"]["turn"] >= len(stored), f"the game resumed behind {why}"
            if update["events"]:
                assert update["events"][0]["seq"] == len(old.events), "events continue"
            resumed.append(new)
        players = resumed
        settle(players)
        assert players[0].events == players[1].events, f"both see the same game {why}"
        now = stored_actions(server, game_id)
        assert players[0].turn == len(now), f"turn = number of stored actions {why}"
        assert [a for *_x, a in now[: len(stored)]] == [a for *_x, a in stored]
        for p in players:
            assert not p.errors(), f"{p.name}: {p.errors()} {why}"

    final = play_turns(players, rng)
    assert final["winner"] is not None and final["turn"] > kill_at
    assert players[0].events == players[1].events
    with api(server) as http:
        record = http.get(f"/api/games/{game_id}/record").json()
    game = replay(record)
    assert game.winner == final["winner"]
    assert len(game.history) == final["turn"] == len(stored_actions(server, game_id))
    assert players[0].events == [event_json(i, e, game.rules) for i, e in enumerate(game.events)], (
        f"every event seen, before and after both crashes, is the recorded game's {why}"
    )
    for p in players:
        p.close()
