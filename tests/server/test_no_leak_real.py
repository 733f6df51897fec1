"""No message a real table sends shows anyone a hidden die the rules keep from them: the
property of :mod:`.test_no_leak`, over random games at real tables.

Every seat is a phone (a WebSocket per player) and a shared screen watches (a spectator).
Each round every cup shakes first; then Hypothesis either enters the mover's action (as online
play) or has a random player tap a call with a random bid said aloud and a random bidder (the
``call`` frame), which the engine may refuse: a refused call changes nothing. The oracle is the
same as for online tables: the stored record, replayed, gives the true dice after every action,
and every update of every connection is checked against what the rules let its viewer see (in
an open obliging round a phone must not receive its own dice, which is a phone's whole point).
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from .test_no_leak import (
    FREE_ACTIONS,
    MAX_ACTIONS,
    SCALE,
    Conn,
    Setup,
    check_frames,
    choose,
    client,
    ground_truth,
    setups,
)

Json = dict[str, Any]
#: Errors a refused call or shake may get here (the engine's refusal of what was said).
REFUSALS = {"stale", "illegal", "not_your_turn", "cups_not_rolled"}

__all__ = ["client"]  # the module's app, shared with test_no_leak


@st.composite
def real_setups(draw: st.DrawFn) -> Setup:
    """A setup of :func:`setups`, every seat a person (a real table has no bots)."""
    setup = draw(setups())
    return replace(setup, kinds=("human",) * len(setup.kinds), gap=None)


def create_real_table(client: TestClient, setup: Setup) -> tuple[str, dict[int, str]]:
    body = {"name": "P0", "preset": setup.preset, "options": setup.options, "real": True}
    body |= {"seats": len(setup.kinds), "reveal_seconds": 0}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    tokens = {0: made.json()["token"]}
    for seat in range(1, len(setup.kinds)):
        joined = client.post(f"/api/tables/{code}/join", json={"name": f"P{seat}"})
        assert joined.status_code == 201, joined.text
        tokens[seat] = joined.json()["token"]
    return code, tokens


def latest_table(conn: Conn) -> Json:
    conn.round_trip()
    return next(f["table"] for _, f in reversed(conn.frames) if f["type"] == "table")


def shake_all(humans: dict[int, Conn], screen: Conn, seat_of: dict[int, int]) -> None:
    """Every cup still to roll this round rolls."""
    for player in latest_table(screen)["real"]["waiting"]:
        phone = humans[seat_of[player]]
        phone.send({"type": "shake"})
        phone.round_trip()


def tap_call(data: st.DataObject, humans: dict[int, Conn], table: Json, view: Json) -> bool:
    """A random player taps a call after a random bid said aloud; whether it was taken."""
    active = [p for p, n in enumerate(view["dice_counts"]) if n]
    caller = data.draw(st.sampled_from(active), label="caller")
    calls = table["real"]["calls"][str(caller)]
    call = data.draw(st.sampled_from(calls), label="call")
    standing = view["standing_bid"]
    if standing is not None and data.draw(st.booleans(), label="the entered bid"):
        bid, bidder = standing, view["bidder"]
    else:
        quantity = data.draw(st.integers(1, sum(view["dice_counts"])), label="quantity")
        face = data.draw(st.integers(1, view["faces"]), label="face")
        bid = f"{quantity}x{face}"
        bidder = data.draw(st.sampled_from([p for p in active if p != caller]), label="bidder")
    note(f"turn {view['turn']}: player {caller} taps {call} after {bid} by {bidder}")
    phone = next(c for c in humans.values() if c.player == caller)
    frame = {"type": "call", "call": call, "bid": bid, "bidder": bidder, "turn": view["turn"]}
    phone.send(frame)
    answer = phone.round_trip()
    refused = [f for f in answer if f["type"] == "error"]
    for f in refused:
        assert f["code"] in REFUSALS, f"WRONG {phone.name}: {frame} refused with {f}"
    return not refused


@settings(
    max_examples=max(1, int(15 * SCALE)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
)
@given(setup=real_setups(), data=st.data())
def test_no_message_at_a_real_table_shows_hidden_dice(
    client: TestClient, setup: Setup, data: st.DataObject
) -> None:
    with contextlib.ExitStack() as stack:
        client.app.state.hall.dice = random.Random(setup.seed)  # type: ignore[attr-defined]
        code, tokens = create_real_table(client, setup)
        conns: list[Conn] = []
        for seat, token in [*tokens.items(), (None, None)]:
            name = "screen" if seat is None else f"phone {seat}"
            session = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
            conn = Conn(name, session, seat)
            conn.send({"type": "hello", "token": token, "since": -1})
            assert conn.recv()["type"] == "welcome"
            conns.append(conn)
        humans = {c.seat: c for c in conns if c.seat is not None}
        screen = conns[-1]
        started = client.post(
            f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert started.status_code == 200, started.text
        table = started.json()
        game_id: int = table["game"]
        seat_of = {s["player"]: s["seat"] for s in table["seats"] if s["player"] is not None}
        for s in table["seats"]:
            humans[s["seat"]].player = s["player"]

        acted = calls = 0
        while True:
            latest = max(c.turn for c in conns)
            for c in conns:
                c.catch_up(max(latest, 0))
            view = screen.view
            assert view is not None
            if view["winner"] is not None:
                break
            acted += 1
            assert acted < MAX_ACTIONS, "the game does not end"
            if view["phase"] == "bidding":
                shake_all(humans, screen, seat_of)
            free = acted < FREE_ACTIONS
            if view["phase"] == "bidding" and free and data.draw(st.booleans(), label="tap"):
                calls += tap_call(data, humans, latest_table(screen), view)
                continue
            mover = humans[seat_of[view["to_move"]]]
            mover.round_trip()
            assert mover.view is not None and mover.view["legal"], f"{mover.name}: no move"
            action = choose(data, mover.view["legal"], free)
            mover.send({"type": "act", "action": action, "turn": view["turn"]})
            for f in mover.round_trip():
                assert f["type"] != "error", f"WRONG {mover.name}: {action} refused: {f}"

        got = client.get(f"/api/games/{game_id}/record")
        assert got.status_code == 200, got.text
        record = got.json()
        assert record["setup"].get("spoken") is True
        states, events = ground_truth(record)
        final = len(states) - 1
        for c in conns:
            c.catch_up(final)
            # The refusals of what was said are the tap's own (checked there).
            c.frames = [
                (raw, f)
                for raw, f in c.frames
                if not (f["type"] == "error" and f["code"] in REFUSALS)
            ]
            assert check_frames(c, states, events, game_id) == final + 1
        event(f"{len(setup.kinds)} phones")
        event("a call after bids said aloud" if calls else "bids entered only")
        if any(a["action"].startswith("said") for a in record["actions"]):
            event("said aloud in the record")
        if any(s.visibility == "open" for s in states if s.phase == "bidding"):
            event("open obliging round")
