"""Play over the WebSocket against a real server process: whole games, the numbered event
stream, reconnecting, refused actions, explain, stand-in bots, turn timers, kicks, rematches."""

from __future__ import annotations

import random
import time

from dudo.engine import ReasonCode
from dudo.records import replay
from dudo.server.wire import event_json

from .conftest import (
    Json,
    LiveServer,
    Match,
    Player,
    api,
    bearer,
    get_table,
    host_post,
    play_turns,
    record_of,
    settle,
)

#: The event each action makes first: one per action, so their number is the turn.
ACTION_EVENTS = {"BidMade", "Passed", "Called", "SpotOnClaimed", "PassDoubted", "VisibilityChosen"}


def actions_of(events: list[Json], player: int) -> list[Json]:
    return [e for e in events if e["type"] in ACTION_EVENTS and e["player"] == player]


def updates(player: Player) -> list[Json]:
    return [f for f in player.frames if f["type"] == "update"]


def other(match: Match, player: Player) -> Player:
    return match.bo if player is match.ana else match.ana


def player_number(p: Player) -> int:
    assert p.view is not None and p.view["viewer"] is not None, f"{p.name} is not playing"
    number: int = p.view["viewer"]
    return number


def test_two_humans_and_a_bot_play_a_whole_game(shared_server: LiveServer) -> None:
    match = Match(shared_server, start=False)
    spectator = Player(shared_server, match.code, None, name="spectator")
    table = match.start()
    spectator.until(lambda f: f["type"] == "update", "the spectator's first update")
    assert [s["player"] for s in table["seats"]] == [0, 1, 2]
    assert match.ana.welcome is not None and match.ana.welcome["host"] is True
    assert match.bo.welcome == {
        "type": "welcome",
        "seat": 2,
        "player": None,
        "host": False,
        "protocol": 1,
    }, "welcomed in the lobby: no game, so no player number yet"

    final = play_turns(match.players, random.Random(2024), watchers=(spectator,))

    ana, bo = match.ana, match.bo
    assert final["winner"] is not None
    assert ana.events == bo.events == spectator.events, "everyone sees the same events"
    assert ana.events[-1]["type"] == "GameOver"
    assert sum(e["type"] in ACTION_EVENTS for e in ana.events) == final["turn"]
    for p in (ana, bo, spectator):
        turns = [u["view"]["turn"] for u in updates(p)]
        assert turns == list(range(turns[0], turns[-1] + 1)), f"{p.name}: an update per action"
        assert {u["game"] for u in updates(p)} == {table["game"]}
    game = replay(record_of(shared_server, table["game"]))
    assert ana.events == [event_json(i, e, game.rules) for i, e in enumerate(game.events)], (
        "the events sent are the engine's events of the recorded game"
    )
    assert game.winner == final["winner"] and len(game.history) == final["turn"]
    over = get_table(shared_server, match.code)
    assert over["status"] == "over"
    spectator.close()
    match.close()


def test_a_spectator_sees_no_hidden_dice(shared_server: LiveServer) -> None:
    match = Match(shared_server, start=False)
    spectator = Player(shared_server, match.code, None, name="spectator")
    assert spectator.welcome == {
        "type": "welcome",
        "seat": None,
        "player": None,
        "host": False,
        "protocol": 1,
    }
    match.start()
    play_turns(match.players, random.Random(5), watchers=(spectator,))
    bidding = [u["view"] for u in updates(spectator) if u["view"]["phase"] == "bidding"]
    assert len(bidding) > 5
    for view in bidding:
        assert view["viewer"] is None and view["my_dice"] is None and view["legal"] == []
        assert all(hand is None or hand == [] for hand in view["seen_dice"]), view["seen_dice"]
    players_bidding = [u["view"] for u in updates(match.ana) if u["view"]["phase"] == "bidding"]
    assert any(v["my_dice"] for v in players_bidding), "a player does see their own dice"
    spectator.close()
    match.close()


def test_reconnect_with_since_gets_exactly_the_missed_events(match: Match) -> None:
    rng = random.Random(77)
    stays = settle(match.players)  # the game waits for this player: the other one leaves
    away = other(match, stays)
    away_number = player_number(away)
    known, since, game = list(away.events), len(away.events) - 1, away.game
    away.close()

    view = play_turns([stays], rng, stop=lambda v: v["to_move"] == away_number)
    assert view["winner"] is None
    missed = stays.events[since + 1 :]
    assert missed, "the game went on while one player was away"

    back = Player(
        match.server,
        match.code,
        match.host_token if away is match.ana else match.bo_token,
        since=since,
        known=known,
        game=game,
        name=f"{away.name} again",
    )
    update = back.until(lambda f: f["type"] == "update", "the update after reconnecting")
    assert update["events"] == missed, "exactly the missed events, numbered on from `since`"
    assert back.events == stays.events
    assert back.view is not None and back.view["turn"] == view["turn"]
    assert back.view["legal"], "it is their turn again, and they can act"
    fresh = Player(match.server, match.code, None, name="from scratch")
    first = fresh.until(lambda f: f["type"] == "update", "a full update")
    assert first["events"] == stays.events, "since -1: every event of the game"
    back.act(back.view["legal"][-1])
    back.wait_turn(view["turn"] + 1)
    back.close()
    fresh.close()


def test_a_stale_act_is_refused_and_changes_nothing(match: Match) -> None:
    mover = settle(match.players)
    watcher = other(match, mover)
    assert mover.view is not None
    turn, events = mover.view["turn"], len(mover.events)
    action = mover.view["legal"][0]
    for stale in {turn - 1, turn + 1, turn + 1000} - {-1}:
        mover.act(action, turn=stale)
        error = mover.error()
        assert error["code"] == "stale", error
        assert str(stale) in error["message"] and str(turn) in error["message"], error
    for p in (mover, watcher):
        assert not p.updates_since_sync(), "nothing changed"
        assert p.turn == turn and len(p.events) == events
    # The same frame sent twice (a resend): applied once, the second is stale.
    mover.act(action, turn=turn)
    mover.act(action, turn=turn)
    mover.wait_turn(turn + 1)
    error = mover.error("the resent frame refused")
    assert error["code"] == "stale", error
    watcher.wait_turn(turn + 1)
    mine = actions_of(watcher.events[events:], player_number(mover))
    assert len(mine) == 1, f"the action was applied once: {mine}"


def test_acting_out_of_turn_is_refused(match: Match) -> None:
    mover = settle(match.players)
    waiting = other(match, mover)
    assert mover.view is not None and waiting.view is not None
    turn, events = mover.view["turn"], len(mover.events)
    assert waiting.view["legal"] == [], "legal is empty when it is not your turn"
    bid = next(a for a in mover.view["legal"] if "x" in a)
    waiting.act(bid)
    error = waiting.error()
    assert error["code"] == "not_your_turn", error
    assert mover.name in error["message"], f"the message names whose turn it is: {error}"
    if mover.view["standing_bid"] is not None:
        waiting.act("call")
        refused = waiting.error()
        assert refused["code"] == "illegal", refused
    for p in match.players:
        assert not p.updates_since_sync()
        assert p.turn == turn and len(p.events) == events
    mover.act(bid)
    waiting.wait_turn(turn + 1)
    assert waiting.events[events]["type"] == "BidMade" and waiting.events[events]["bid"] == bid


def test_a_spectator_cannot_act(match: Match) -> None:
    mover = settle(match.players)
    assert mover.view is not None
    turn = mover.view["turn"]
    spectator = Player(match.server, match.code, None, name="spectator")
    spectator.until(lambda f: f["type"] == "update", "the spectator's update")
    for frame in (
        {"type": "act", "action": mover.view["legal"][0], "turn": turn},
        {"type": "act", "action": "call"},
        {"type": "explain", "action": mover.view["legal"][0]},
        {"type": "take_back"},
    ):
        spectator.send(frame)
        error = spectator.error()
        assert error["code"] == "not_a_player", (frame, error)
        assert error["message"]
    for p in match.players:
        assert not p.updates_since_sync()
        assert p.turn == turn
    spectator.send({"type": "ping"})
    assert spectator.until(lambda f: f["type"] != "table", "pong") == {"type": "pong"}
    spectator.close()


def test_take_back_without_a_stand_in_is_answered(shared_server: LiveServer) -> None:
    """Every frame gets an answer: taking back a seat no bot is playing is an error."""
    match = Match(shared_server, start=False)
    for started in (False, True):
        if started:
            match.start()
        for p in match.players:
            p.send({"type": "take_back"})
            error = p.error("the answer to take_back")
            assert error["code"] == "not_standing_in", error
            assert "no bot is playing for you" in error["message"], error
            assert not p.updates_since_sync(), "nothing changed"
    match.close()


def test_explain_says_whether_and_why(match: Match) -> None:
    mover = settle(match.players)
    waiting = other(match, mover)
    assert mover.view is not None
    legal = mover.view["legal"]
    bids = [a for a in legal if "x" in a]
    mover.send({"type": "explain", "action": bids[0]})
    answer = mover.until(lambda f: f["type"] == "explain", "explain")
    assert answer == {
        "type": "explain",
        "action": bids[0],
        "legal": True,
        "problem": None,
        "reason": None,
    }

    faces = mover.view["faces"]
    illegal = next(
        f"{q}x{f}" for q in range(1, 40) for f in range(1, faces + 1) if f"{q}x{f}" not in legal
    )
    mover.send({"type": "explain", "action": illegal})
    answer = mover.until(lambda f: f["type"] == "explain", "explain")
    assert answer["action"] == illegal and answer["legal"] is False
    assert isinstance(answer["problem"], str) and len(answer["problem"]) > 10, answer
    # The same reason as a code and parameters, for the client to word in its language.
    assert answer["reason"]["code"] in set(ReasonCode), answer
    assert answer["reason"]["params"]["bid" if "bid" in answer["reason"]["params"] else "new"] == (
        illegal
    ), answer

    waiting.send({"type": "explain", "action": bids[0]})
    answer = waiting.until(lambda f: f["type"] == "explain", "explain")
    assert answer["legal"] is False and mover.name in answer["problem"], answer
    assert answer["reason"] == {"code": "not_your_turn", "params": {"player": mover.name}}, answer

    mover.send({"type": "explain", "action": "banana"})
    error = mover.error()
    assert error["code"] == "unknown_action" and "banana" in error["message"], error
    # spoken forms are understood too
    mover.send({"type": "explain", "action": "dudo"})
    answer = mover.until(lambda f: f["type"] == "explain", "explain")
    assert answer["legal"] is ("call" in legal), answer
    for p in match.players:
        assert not p.updates_since_sync(), "explain changes nothing"


def seat_of(table: Json, seat: int) -> Json:
    found: Json = table["seats"][seat]
    return found


def test_grace_period_then_a_stand_in_bot_then_take_back(shared_server: LiveServer) -> None:
    match = Match(shared_server, grace_seconds=1)
    ana, bo, seat = match.ana, match.bo, match.bo_seat
    assert ana.table is not None
    bo_number = seat_of(ana.table, seat)["player"]
    bo.close()
    left_at = len(ana.events)
    ana.until(
        lambda f: f["type"] == "table" and seat_of(f["table"], seat)["autoplay"] is True,
        "Bo's seat played by a bot after the grace period",
        timeout=6,
    )
    assert ana.table is not None and seat_of(ana.table, seat)["connected"] is False
    view = play_turns(
        [ana],
        random.Random(3),
        stop=lambda _v: bool(actions_of(ana.events[left_at:], bo_number)),
    )
    assert view["winner"] is None, "the game goes on"
    assert actions_of(ana.events[left_at:], bo_number), "the stand-in bot played Bo's seat"

    back = Player(shared_server, match.code, match.bo_token, name="Bo back")
    assert back.welcome is not None and back.welcome["seat"] == seat
    assert back.table is not None and seat_of(back.table, seat)["autoplay"] is True
    back.send({"type": "take_back"})
    back.until(
        lambda f: f["type"] == "table" and seat_of(f["table"], seat)["autoplay"] is False,
        "the seat taken back",
    )
    match.bo = back
    view = play_turns(
        [ana], random.Random(4), watchers=(back,), stop=lambda v: v["to_move"] == bo_number
    )
    assert view["winner"] is None
    assert back.view is not None and back.view["legal"], "Bo plays their own seat again"
    turn = back.view["turn"]
    assert not [f for f in back.quiet(0.5) if f["type"] == "update"], "no bot moves for Bo now"
    back.act(back.view["legal"][0])
    ana.wait_turn(turn + 1)
    match.close()


def test_the_turn_timer_plays_a_legal_move(shared_server: LiveServer) -> None:
    match = Match(shared_server, bots=[], turn_seconds=1)
    mover = settle(match.players)
    assert mover.view is not None
    deadline = updates(mover)[-1]["deadline"]
    assert isinstance(deadline, int), f"a running timer has a deadline: {updates(mover)[-1]}"
    assert -2 < deadline / 1000 - time.time() <= 1.5, "the deadline is about a second away"
    turn, legal, number = mover.view["turn"], list(mover.view["legal"]), player_number(mover)
    before = len(mover.events)
    mover.wait_turn(turn + 1, timeout=5)
    late = time.time() - deadline / 1000
    assert -0.1 < late < 3, f"the automatic move came {late:.2f}s after the deadline"
    made = [e for e in mover.events[before:] if e["type"] in ACTION_EVENTS]
    assert len(made) == 1 and made[0]["player"] == number, made
    if made[0]["type"] == "BidMade":
        assert made[0]["bid"] in legal
        assert mover.view["round_actions"][-1] == [number, made[0]["bid"]]
    next_deadline = updates(mover)[-1]["deadline"]
    assert isinstance(next_deadline, int), "the next player's timer runs"
    assert 900 <= next_deadline - deadline <= 5000, "a new turn, a new timer of a second"
    assert not mover.errors() and not other(match, mover).errors()
    match.close()


def test_kick_during_a_game_gives_the_seat_to_a_bot(match: Match) -> None:
    seat = match.bo_seat
    settle(match.players)
    with api(match.server) as http:
        response = http.delete(
            f"/api/tables/{match.code}/seats/{seat}", headers=bearer(match.host_token)
        )
    assert response.status_code == 200, response.text
    kicked = seat_of(response.json(), seat)
    assert (kicked["kind"], kicked["name"], kicked["level"]) == ("bot", "Bo (bot)", "easy")
    assert kicked["player"] == 2, "the seat keeps its place in the game"
    bo = match.bo
    bo.until(lambda f: f["type"] == "update" and f["view"]["viewer"] is None, "a spectator view")
    turn = bo.turn
    bo.act("call")
    error = bo.error("the kicked player's act refused")
    assert error["code"] == "not_a_player", error
    again = Player(match.server, match.code, match.bo_token, name="Bo again")
    refused = next(f for f in again.frames if f["type"] == "error")
    assert refused["code"] == "unauthorized", refused
    assert again.welcome is not None and again.welcome["seat"] is None
    view = play_turns([match.ana], random.Random(8), watchers=(bo,))
    assert view["winner"] is not None and view["turn"] > (turn or 0), "the game went on to its end"
    record = record_of(match.server, get_table(match.server, match.code)["game"])
    assert record["players"][2]["kind"] == "bot"
    again.close()


def test_rematch_starts_game_two(match: Match) -> None:
    first = play_turns(match.players, random.Random(9))
    assert first["winner"] is not None
    game_one = match.ana.game
    assert game_one is not None
    # Bo leaves after game 1 and comes back during game 2 with what they had of game 1.
    bo_known, bo_since = list(match.bo.events), len(match.bo.events) - 1
    match.bo.close()
    with api(match.server) as http:
        for token in (match.host_token, match.bo_token):
            said = http.post(f"/api/tables/{match.code}/ready", headers=bearer(token))
            assert said.status_code == 200, said.text
    table = host_post(match.server, match.code, "rematch", match.host_token)
    assert table["status"] == "playing" and table["game_number"] == 2
    assert isinstance(table["game"], int) and table["game"] != game_one
    ana = match.ana
    ana.until(lambda f: f["type"] == "update" and f["game"] == table["game"], "game 2")
    assert ana.events[0]["seq"] == 0 and ana.events[0]["type"] in (
        "SeatingRolled",
        "SeatingDecided",
    )
    bo_number = 2
    view = play_turns([ana], random.Random(10), stop=lambda v: v["to_move"] == bo_number)
    bo = Player(
        match.server,
        match.code,
        match.bo_token,
        since=bo_since,
        known=bo_known,
        game=game_one,
        name="Bo back",
    )
    update = bo.until(lambda f: f["type"] == "update", "Bo's update of game 2")
    assert update["game"] == table["game"], "the update is of the current game"
    assert update["events"] == ana.events, "every event of game 2, from 0 (since was of game 1)"
    assert bo.view is not None and bo.view["turn"] == view["turn"] and bo.view["legal"]
    match.bo = bo
    view = play_turns(match.players, random.Random(11), stop=lambda v: v["turn"] >= 6)
    assert view["turn"] >= 6 and match.ana.game == match.bo.game == table["game"]
    assert match.ana.events == match.bo.events
    with api(match.server) as http:
        busy = http.post(f"/api/tables/{match.code}/rematch", headers=bearer(match.host_token))
    assert busy.status_code == 409
