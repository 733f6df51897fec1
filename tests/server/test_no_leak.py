"""No message the server sends shows anyone a hidden die the rules keep from them.

A property test over random games played through the real application in-process
(``create_app`` on a real SQLite file, driven by Starlette's ``TestClient``): a random preset
with random house rules, two to five seats mixing humans and ``random``/``easy`` bots (with, at
times, an emptied seat so seat and player numbers differ), one WebSocket per human seat and a
spectator. Hypothesis plays the humans, choosing among the legal actions of their views; the
bots answer at once (``bot_seconds: 0``). Every frame of every connection is kept.

The oracle does not use the server's views: once the game is over, its stored record
(``GET /api/games/{id}/record``) is replayed with :func:`dudo.records.replay_steps`, which
gives the true hidden dice, the dice set aside face up, the dice counts and the round's
visibility after every action. Each ``update`` frame is checked against the state of its
``view.turn`` with the visibility rules of docs/rules.md restated here (:func:`may_see`):

- a player sees their own hidden dice in a normal round; in a closed obliging round only
  with one die; in an open obliging round everybody's but their own; a player who is out and
  a spectator see no hidden dice; nobody sees any between rounds or after the game;
- dice set aside face up by reveal-and-reroll are seen by everyone;
- events carry dice only in ``Revealed`` (the hands of the round that just ended, right after
  its call, spot-on or doubted pass, with ``counted`` flags over them) and ``BidMade.revealed``
  (the dice just set aside); every event is the engine's event, nothing added; nowhere in any
  frame is there a ``hands`` key outside a ``Revealed`` event.

The app is built with two of its options, neither about what it sends: no rate limit (the
humans here act far faster than 20 frames a second) and a seeded dice source (``Hall.dice``,
set from the example, so the dice and the bots replay with it). Under
``cruzado`` a ping round trip before each human action lets the bots' out-of-turn calls land
first, so a game is a function of the drawn example and a failure replays and shrinks.

Assertion messages start with ``LEAK`` when a hidden die reached someone it must not,
``WRONG`` when a view disagrees with the rules otherwise, and ``PROTOCOL`` for broken frame
numbering.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.types import Message

from dudo.engine.actions import Bid
from dudo.engine.events import BidMade, Called, Event, PassDoubted, Revealed, SpotOnClaimed
from dudo.engine.game import Game
from dudo.engine.rules import PRESETS, from_mapping
from dudo.records import replay_steps
from dudo.server.app import create_app
from dudo.server.limits import Limits

from .conftest import hands_keys

Json = dict[str, Any]

SCALE = float(os.environ.get("DUDO_PROPERTY_SCALE", "1"))
#: How long a connection waits for a frame it knows is coming before the test fails.
FRAME_SECONDS = 10.0
#: Human actions chosen freely by Hypothesis; after them the humans call whenever they can,
#: so that every game ends and its record can be replayed.
FREE_ACTIONS = 150
#: A game that needs more human actions than this is a failure (it would not end).
MAX_ACTIONS = 1500
BOT_LEVELS = ("random", "easy")
BID = re.compile(r"^\d+x\d+$")
REVEAL = re.compile(r"^(\d+)x(\d+) reveal (\d+(?:,\d+)*)$")
#: Action kinds, in the order Hypothesis shrinks towards (short rounds first).
KINDS = ("call", "doubt-pass", "spot-on", "closed", "open", "pass", "reveal", "bid")


# ------------------------------------------------------------------------------ the app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    tmp = tmp_path_factory.mktemp("no_leak")
    # The humans here act far faster than a person: no rate limit, and bots answer at once.
    # Each example seeds the dice.
    limits = Limits(min_bot_seconds=0, tables_burst=1e9, sockets_burst=1e9, lookups_burst=1e9)
    app = create_app(
        f"sqlite:///{tmp}/x.sqlite3", limits=limits, rate=1e9, burst=1e9, dice=random.Random(0)
    )
    with TestClient(app) as test_client:  # the lifespan runs: the hall and its event loop
        yield test_client


# --------------------------------------------------------------------------- strategies


@dataclass(frozen=True)
class Setup:
    preset: str
    options: dict[str, Any]
    kinds: tuple[str, ...]  # per seat: "human" or a bot level; seat 0 (the host) is human
    gap: int | None  # a bot seated at this position and removed before the start
    seed: int  # of the server's dice source (``Hall.dice``): the dice and the bots' choices


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    base = PRESETS[preset]
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["spot_on"] = draw(st.booleans())
    if draw(st.booleans()):
        options["cruzado"] = True
    if draw(st.booleans()):
        options["reveal_reroll"] = True
    if draw(st.booleans()):
        options["oblige"] = True
        options["oblige_min_players"] = 2
    if draw(st.booleans()):
        options["oblige_visibility"] = draw(
            st.sampled_from(["normal", "closed", "obliger_chooses"])
        )
    if draw(st.booleans()):
        # Fewer dice: shorter games that reach the one-die (obliging) rounds sooner.
        options["dice_per_player"] = draw(st.integers(2, 4))
        options["pass_hands"] = []  # pass hands need five dice
    if base.pass_allows_spot_on and (
        options.get("spot_on") is False or options.get("pass_hands") == []
    ):
        options["pass_allows_spot_on"] = False
    rules = from_mapping(options, base=PRESETS[preset])  # valid by construction
    players = draw(st.integers(max(2, rules.min_players), 5))
    others = draw(
        st.lists(
            st.sampled_from(("human", *BOT_LEVELS)), min_size=players - 1, max_size=players - 1
        )
    )
    gap = draw(st.none() | st.integers(1, players - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    return Setup(preset, options, ("human", *others), gap, seed)


# -------------------------------------------------------------------------- connections


async def _receive_within(session: WebSocketTestSession, seconds: float) -> Message:
    # TestClient's receive() blocks for ever; this is the same read with a time limit.
    with anyio.fail_after(seconds):
        return await session._send_rx.receive()


@dataclass
class Conn:
    """One WebSocket: every frame it received, and where it is in the game."""

    name: str
    session: WebSocketTestSession = field(repr=False)
    seat: int | None
    player: int | None = None
    frames: list[tuple[str, Json]] = field(default_factory=list, repr=False)
    turn: int = -1  # view.turn of the last update
    view: Json | None = field(default=None, repr=False)
    last_seq: int = -1
    pongs: int = 0

    def send(self, frame: Json) -> None:
        self.session.send_text(json.dumps(frame))

    def recv(self) -> Json:
        try:
            message = self.session.portal.call(_receive_within, self.session, FRAME_SECONDS)
        except TimeoutError:
            raise AssertionError(
                f"{self.name}: no frame within {FRAME_SECONDS} s (last update: turn {self.turn})"
            ) from None
        assert message["type"] == "websocket.send", f"{self.name}: closed: {message}"
        raw: str = message["text"]
        frame: Json = json.loads(raw)
        self.frames.append((raw, frame))
        if frame["type"] == "update":
            seqs = [e["seq"] for e in frame["events"]]
            want = list(range(self.last_seq + 1, self.last_seq + 1 + len(seqs)))
            assert seqs == want, f"PROTOCOL {self.name}: event seqs {seqs}, expected {want}"
            self.last_seq += len(seqs)
            turn = frame["view"]["turn"]
            assert turn == self.turn + 1, (
                f"PROTOCOL {self.name}: update for turn {turn} after turn {self.turn} "
                "(one update per action expected)"
            )
            self.turn, self.view = turn, frame["view"]
        elif frame["type"] == "pong":
            self.pongs += 1
        return frame

    def catch_up(self, turn: int) -> None:
        """Read until the update of ``turn`` (it was broadcast to every connection)."""
        while self.turn < turn:
            self.recv()

    def round_trip(self) -> list[Json]:
        """Ping and read until the pong: everything the server did with our earlier frames
        has reached us. Returns the frames read."""
        pongs, start = self.pongs, len(self.frames)
        self.send({"type": "ping"})
        while self.pongs == pongs:
            self.recv()
        return [frame for _, frame in self.frames[start:]]


# ------------------------------------------------------------------------- the truth


@dataclass(frozen=True)
class Truth:
    """The real state after some number of actions, from the replayed record."""

    phase: str
    visibility: str | None
    round: int
    counts: tuple[int, ...]
    hidden: tuple[tuple[int, ...], ...]
    aside: tuple[tuple[int, ...], ...]
    to_move: int | None
    winner: int | None
    events: int


def snapshot(game: Game) -> Truth:
    return Truth(
        phase=str(game.phase),
        visibility=None if game.visibility is None else str(game.visibility),
        round=game.round_number,
        counts=tuple(game.counts),
        hidden=tuple(tuple(h) for h in game.hidden),
        aside=tuple(tuple(h) for h in game.set_aside),
        to_move=None if game.is_over else game.to_move,
        winner=game.winner,
        events=len(game.events),
    )


def ground_truth(record: Json) -> tuple[list[Truth], list[Event]]:
    """The state after each action (index = view.turn) and every event of the game, with
    the events that show dice checked against the dice they must show."""
    replay = replay_steps(record)
    game = replay.game
    states = [snapshot(game)]
    for step in replay:
        before, after = states[-1], snapshot(game)
        for i, happened in enumerate(step.events):
            if isinstance(happened, Revealed):
                # Only at the end of a round, right after what ended it.
                assert i > 0 and isinstance(
                    step.events[i - 1], Called | SpotOnClaimed | PassDoubted
                ), f"LEAK: action {step.position} ({step.action}): {step.events}"
                shown = [sorted(d) for d in happened.hands]
                real = [sorted(h + a) for h, a in zip(before.hidden, before.aside, strict=True)]
                assert shown == real, (
                    f"WRONG: action {step.position}: Revealed {happened.hands}, "
                    f"but the hands were {real}"
                )
            elif isinstance(happened, BidMade) and happened.revealed:
                p, revealed = happened.player, Counter(happened.revealed)
                assert revealed <= Counter(before.hidden[p]), (
                    f"WRONG: action {step.position}: {happened} reveals dice player {p} "
                    f"does not hold hidden ({before.hidden[p]})"
                )
                assert Counter(after.aside[p]) == Counter(before.aside[p]) + revealed, (
                    f"WRONG: action {step.position}: {happened}, but the dice set aside went "
                    f"from {before.aside[p]} to {after.aside[p]}"
                )
        states.append(after)
    return states, list(game.events)


def may_see(truth: Truth, viewer: int | None, owner: int) -> bool:
    """docs/rules.md: may ``viewer`` (None: a spectator) see ``owner``'s hidden dice now?"""
    if viewer is None or truth.phase != "bidding":
        return False
    if not truth.counts[viewer] or not truth.counts[owner]:
        return False  # a player who is out sees what a spectator sees
    if truth.visibility == "normal":
        return viewer == owner
    if truth.visibility == "closed":  # only one-die players see their own die
        return viewer == owner and truth.counts[owner] == 1
    assert truth.visibility == "open", truth
    return viewer != owner  # everybody's dice but one's own


def plain(value: Any) -> Any:
    """An engine value as JSON data (bids in notation, tuples as lists)."""
    if isinstance(value, Bid):
        return str(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(plain(v) for v in value)
    return value


def event_data(seq: int, event: Event) -> Json:
    return {
        "seq": seq,
        "type": type(event).__name__,
        **{name: plain(v) for name, v in zip(event._fields, event, strict=True)},
    }


def check_counted(where: str, revealed: Json) -> None:
    """docs/protocol.md: ``counted[p][i]`` tells whether die i of hand p counted for the bid (null
    for a doubted pass): flags over the revealed hands, no dice of their own."""
    counted: Any = revealed.get("counted")
    if revealed["bid"] is None:
        assert counted is None, f"WRONG {where}: counted={counted} for a doubted pass"
        return
    shape = [[type(flag) for flag in hand] for hand in counted]
    assert shape == [[bool] * len(hand) for hand in revealed["hands"]], (
        f"LEAK {where}: Revealed.counted={counted} is not one flag per revealed die"
    )
    assert sum(sum(hand) for hand in counted) == revealed["count"], f"WRONG {where}: {revealed}"


def check_update(
    conn: Conn, index: int, frame: Json, states: list[Truth], events: list[Event], game_id: int
) -> None:
    view = frame["view"]
    turn = view["turn"]
    where = f"{conn.name}, frame {index} (turn {turn}, round {view['round']})"
    assert frame["game"] == game_id, where
    assert 0 <= turn < len(states), f"WRONG {where}: turn beyond the record"
    truth = states[turn]
    p = conn.player
    # The frame is about the real state of its turn, for this connection's seat.
    assert view["viewer"] == p, f"LEAK {where}: the view of player {view['viewer']}, not {p}"
    assert view["dice_counts"] == list(truth.counts), f"WRONG {where}: dice counts"
    assert view["phase"] == truth.phase, f"WRONG {where}: phase"
    assert view["visibility"] == truth.visibility, f"WRONG {where}: visibility"
    assert view["to_move"] == truth.to_move, f"WRONG {where}: to_move"

    # Events: the public log, dice only in a reveal of a finished round or a set-aside.
    for e in frame["events"]:
        sent = event_data(e["seq"], events[e["seq"]])
        label = "LEAK" if "hands" in e or "Revealed" in (e["type"], sent["type"]) else "WRONG"
        extra = {k: v for k, v in e.items() if k not in sent}
        assert {k: v for k, v in e.items() if k in sent} == sent, (
            f"{label} {where}: event {e} is not {sent}"
        )
        if e["type"] == "Revealed" and set(extra) <= {"counted"}:
            check_counted(where, e)
        else:
            assert not extra, f"{label} {where}: {e['type']} event with extra fields {extra}"
        if e["type"] != "Revealed":
            assert "hands" not in e, f"LEAK {where}: {e['type']} event carries hands"
    if frame["events"]:
        assert frame["events"][-1]["seq"] == truth.events - 1, f"PROTOCOL {where}: events missing"

    # Own dice.
    hand = () if p is None else truth.hidden[p]
    own = sorted(hand) if p is not None and may_see(truth, p, p) else None
    mine = None if view["my_dice"] is None else sorted(view["my_dice"])
    if own is None:
        assert mine is None, (
            f"LEAK {where}: my_dice={view['my_dice']} shown to "
            f"{'the spectator' if p is None else f'player {p}'} in a {truth.visibility} "
            f"round (dice counts {list(truth.counts)})"
        )
    else:
        assert mine == own, f"WRONG {where}: my_dice={view['my_dice']}, real {hand}"

    # Everybody's dice: the hidden ones only where the rules allow, set-aside ones to all.
    seen, aside = view["seen_dice"], view["set_aside"]
    assert len(seen) == len(aside) == len(truth.counts), f"WRONG {where}: hands"
    for q in range(len(truth.counts)):
        real_aside = sorted(truth.aside[q])
        assert sorted(aside[q]) == real_aside, (
            f"LEAK {where}: set_aside[{q}]={aside[q]}, but the dice set aside are "
            f"{truth.aside[q]} (hidden: {truth.hidden[q]})"
        )
        shown = None if seen[q] is None else sorted(seen[q])
        if may_see(truth, p, q):
            real = sorted(truth.hidden[q] + truth.aside[q])
            assert shown == real, f"WRONG {where}: seen_dice[{q}]={seen[q]}, real {real}"
        else:
            assert shown is None or shown == real_aside, (
                f"LEAK {where}: {'the spectator' if p is None else f'player {p}'} is shown "
                f"seen_dice[{q}]={seen[q]} in a {truth.visibility} round "
                f"(hidden {truth.hidden[q]}, set aside {truth.aside[q]})"
            )

    # Legal actions derive from one's own dice only when one may see them.
    legal: list[str] = view["legal"]
    if p is None:
        assert legal == [], f"WRONG {where}: a spectator with legal actions {legal}"
    elif p != truth.to_move:
        assert set(legal) <= {"call"}, f"WRONG {where}: out of turn with {legal}"
    for text in view["legal_reveals"]:
        match = REVEAL.match(text)
        assert match is not None, f"WRONG {where}: {text!r}"
        dice = Counter(int(d) for d in match.group(3).split(","))
        assert own is not None and dice <= Counter(own), (
            f"LEAK {where}: legal reveal {text!r} for player {p}, who holds {hand} "
            f"and may see them: {own is not None}"
        )


def check_frames(conn: Conn, states: list[Truth], events: list[Event], game_id: int) -> int:
    """Check every frame of one connection; return how many updates there were."""
    updates = 0
    for index, (raw, frame) in enumerate(conn.frames):
        assert frame == json.loads(raw)
        found = list(hands_keys(frame))
        assert not found, f"LEAK {conn.name}, frame {index}: 'hands' at {found} in {raw[:300]}"
        if frame["type"] == "update":
            check_update(conn, index, frame, states, events, game_id)
            updates += 1
        elif frame["type"] == "error":
            assert frame["code"] == "stale", f"WRONG {conn.name}, frame {index}: {frame}"
    return updates


# --------------------------------------------------------------------------------- play


def kind_of(action: str) -> str:
    if BID.match(action):
        return "bid"
    if REVEAL.match(action):
        return "reveal"
    return action


def choose(data: st.DataObject, legal: Sequence[str], free: bool) -> str:
    """A legal action: any (drawn by kind, then within the kind) while ``free``, else the
    one that ends the round soonest."""
    kinds = sorted({kind_of(a) for a in legal}, key=KINDS.index)
    if free:
        kind = data.draw(st.sampled_from(kinds), label="kind")
        return data.draw(st.sampled_from([a for a in legal if kind_of(a) == kind]), label="action")
    if kinds[0] in ("call", "doubt-pass"):
        return kinds[0]
    if kinds[0] in ("closed", "open"):
        return data.draw(st.sampled_from(["open", "closed"]), label="visibility")
    return next(a for a in legal if kind_of(a) == "bid")


def create_table(client: TestClient, setup: Setup) -> tuple[str, dict[int, str]]:
    """Create the table, fill its seats, and (for a gap) empty one; return the code and the
    token of each human seat."""
    kinds = list(setup.kinds)
    if setup.gap is not None:
        kinds.insert(setup.gap, "gap")
    body = {
        "name": "Host",
        "preset": setup.preset,
        "options": setup.options,
        "seats": len(kinds),
        "bots": [],
        "turn_seconds": 0,
        "grace_seconds": None,
        "bot_seconds": 0,
        "reveal_seconds": 0,
    }
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    code, host = made.json()["code"], made.json()["token"]
    auth = {"Authorization": f"Bearer {host}"}
    tokens = {0: host}
    for seat, kind in enumerate(kinds[1:], start=1):
        if kind == "human":
            joined = client.post(f"/api/tables/{code}/join", json={"name": f"P{seat}"})
            assert joined.status_code == 201, joined.text
            assert joined.json()["seat"] == seat
            tokens[seat] = joined.json()["token"]
        else:
            level = "random" if kind == "gap" else kind
            added = client.post(f"/api/tables/{code}/bots", json={"level": level}, headers=auth)
            assert added.status_code == 200, added.text
    if setup.gap is not None:
        removed = client.delete(f"/api/tables/{code}/seats/{setup.gap}", headers=auth)
        assert removed.status_code == 200, removed.text
    return code, tokens


@settings(
    max_examples=max(1, int(30 * SCALE)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # No explain phase: over a whole game of drawn actions it replays hundreds of games.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
)
@given(setup=setups(), data=st.data())
def test_no_message_shows_hidden_dice(
    client: TestClient, setup: Setup, data: st.DataObject
) -> None:
    with contextlib.ExitStack() as stack:
        # The dice seed and the bots' generators come from here, so Hypothesis can replay it.
        client.app.state.hall.dice = random.Random(setup.seed)  # type: ignore[attr-defined]
        code, tokens = create_table(client, setup)

        conns: list[Conn] = []
        for seat, token in [*tokens.items(), (None, None)]:
            name = "spectator" if seat is None else f"seat {seat}"
            session = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
            conn = Conn(name, session, seat)
            conn.send({"type": "hello", "token": token, "since": -1})
            welcome = conn.recv()
            assert welcome["type"] == "welcome" and welcome["seat"] == seat, welcome
            conns.append(conn)
        humans = {c.seat: c for c in conns if c.seat is not None}
        spectator = conns[-1]

        started = client.post(
            f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert started.status_code == 200, started.text
        table = started.json()
        game_id: int = table["game"]
        # Under cruzado the bots may call out of turn on every change. A bot's decision is
        # taken on the server's loop before its update reaches any client, so one ping round
        # trip before a human acts sees it: the game stays a function of the drawn data.
        cruzado: bool = table["rules"]["cruzado"]
        player_seat = {s["player"]: s["seat"] for s in table["seats"] if s["player"] is not None}
        for s in table["seats"]:
            if s["seat"] in humans:
                humans[s["seat"]].player = s["player"]
        note(f"table {code}, game {game_id}: players at seats {player_seat}")

        acted = 0
        while True:
            latest = max(c.turn for c in conns)
            for c in conns:
                c.catch_up(max(latest, 0))
            view = spectator.view
            assert view is not None
            if view["winner"] is not None:
                break
            mover = player_seat[view["to_move"]]
            if mover not in humans:
                spectator.recv()  # a bot is to move: its action is on the way
                continue
            turn = view["turn"]
            if cruzado:
                humans[mover].round_trip()
                if humans[mover].turn > turn:
                    continue  # a bot called out of turn first
            seats = [mover]
            free = acted < FREE_ACTIONS
            if free:  # cruzado: other humans may call out of turn
                seats += [s for s, c in humans.items() if s != mover and c.view and c.view["legal"]]
            actor = humans[data.draw(st.sampled_from(seats), label="actor seat")]
            assert actor.view is not None
            assert actor.view["viewer"] == actor.player, (
                f"LEAK {actor.name} (player {actor.player}) gets the view of player "
                f"{actor.view['viewer']}"
            )
            assert actor.view["legal"], f"WRONG {actor.name} has no legal actions at turn {turn}"
            action = choose(data, actor.view["legal"], free)
            note(f"turn {turn}: {actor.name} plays {action}")
            actor.send({"type": "act", "action": action, "turn": turn})
            answer = actor.round_trip()
            for frame in answer:
                if frame["type"] == "error":
                    # Only a bot's out-of-turn call in between may refuse it.
                    assert frame["code"] == "stale" and actor.turn > turn, (
                        f"WRONG {actor.name}: {action} at turn {turn} refused: {frame}"
                    )
            acted += 1
            assert acted < MAX_ACTIONS, "the game does not end"

        got = client.get(f"/api/games/{game_id}/record")
        assert got.status_code == 200, got.text
        states, events = ground_truth(got.json())
        final = len(states) - 1
        for c in conns:
            c.catch_up(final)
            updates = check_frames(c, states, events, game_id)
            assert updates == final + 1, f"PROTOCOL {c.name}: {updates} updates for {final} actions"
        # What the example covered (shown by --hypothesis-show-statistics).
        event(f"{len(setup.kinds)} seats, {len(humans)} human")
        if setup.gap is not None:
            event("a seat emptied before the start")
        if cruzado:
            event("cruzado")
        event("game ended during free play" if acted <= FREE_ACTIONS else "game ended by calls")
        playing = [s for s in states if s.phase == "bidding"]
        for visibility in ("open", "closed"):
            if any(s.visibility == visibility for s in playing):
                event(f"{visibility} obliging round")
        if any(any(s.aside) for s in playing):
            event("dice set aside (reveal-and-reroll)")
        if any(0 in s.counts for s in playing):
            event("players out while the game goes on")
        if any(f["type"] == "error" for c in conns for _, f in c.frames):
            event("an action refused as stale")
