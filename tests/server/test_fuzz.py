"""A bounded fuzz of the WebSocket protocol against one real ``dudo serve`` on 127.0.0.1.

300 connections (spectators and seated players, at a table in the lobby and at two
tables in a game) send 100,000 frames between them: valid frames, valid frames with a field
renamed, dropped, added or given a strange value (wrong types, huge and negative ints, floats,
``NaN``/``Infinity``, lone surrogates as JSON escapes, control characters, long text, deep
nesting), truncated or altered text, random bytes, binary and empty frames, and frames over the
4096-byte limit (under the WebSocket layer's 64 KiB). Short-lived connections fuzz the hello.

Each connection keeps under the default rate limit (20 frames a second, bursts of 40): it
sends a batch, then a ping, reads up to the pong and waits before the next batch, so the
server's allowance is whole again. After each batch the answers are counted against the
frames: one ``pong`` per ping, one ``too_large`` or ``bad_message`` per frame the protocol
refuses, one ``explain`` or table error per ``act``/``explain``/``take_back`` (an ``act``
may be answered by the ``update`` it causes instead). What a frame is (refused, or its type)
is read with the server's own ``parse_frame``; what it gets is counted from the wire. A
connection may only end with a documented close code. At the end the server is alive, its log
holds no traceback and no error, every connection still answers a ping, and the games play on.

The seed is fixed (:data:`SEED`), so every run sends the same frames; ``DUDO_FUZZ_SEED=<seed>``
tries another (the seed is printed in every failure; what the server answers depends on timing
too). The server's cap on HTTP connections per address is raised above the 450 connections open
at once here: this test is of the protocol, ``test_limits`` is of the cap.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from dudo.engine.errors import NotationError
from dudo.notation import parse_action
from dudo.server.wire import MAX_FRAME, BadMessage, parse_frame

from .conftest import (
    TEST_ARGS,
    LiveServer,
    Match,
    ServerFactory,
    api,
    choose,
    host_post,
    limit_args,
    settle,
)

Json = dict[str, Any]

#: The frames' seed unless ``DUDO_FUZZ_SEED`` gives another.
SEED = 20261128
FRAMES = 100_000
CONNECTIONS = 300
HELLO_CONNECTIONS = 150
#: Frames per batch, the last a ping; the wait after each pong refills the allowance.
BATCH = 30
RATE = 20.0
#: Moves a fuzzing seat may really play per game table: few, so no game can end.
REAL_MOVES = 5
ANSWER_SECONDS = 30.0
#: The close codes of docs/protocol.md a fuzzed connection may see (1011 would be a server fault).
DOCUMENTED_CLOSES = {1000, 1008, 1009}
#: Error codes the table gives (after the frame itself was accepted).
TABLE_ERRORS = {
    "unknown_action",
    "illegal",
    "not_your_turn",
    "stale",
    "not_a_player",
    "no_game",
    "not_standing_in",
}
#: Actions that are never legal (no game here has 40 dice): a fuzzed ``act`` never plays a
#: move by chance. The bids are read, so they reach the table's checks (stale, illegal, not
#: your turn); the rest are not actions.
NEVER_LEGAL = ["99x6", "40x2", "41 fives", "banana", "3x9", "0x4", "2x2 reveal 9", "x", "", "cal"]


# ----------------------------------------------------------------------------- frames


class Raw:
    """JSON text placed as it is: numbers Python's reader takes but JSON has not, huge ints."""

    def __init__(self, text: str) -> None:
        self.text = text


def to_text(value: Any, plain: bool) -> str:
    """``value`` as JSON text; lone surrogates always as escapes (\\ud800), other non-ASCII
    characters as escapes or, when ``plain``, as themselves."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(f"{to_text(k, plain)}:{to_text(v, plain)}" for k, v in value.items())
            + "}"
        )
    if isinstance(value, list):
        return "[" + ",".join(to_text(v, plain) for v in value) + "]"
    if plain and isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        try:
            text.encode("utf-8")
            return text
        except UnicodeEncodeError:
            pass
    return json.dumps(value)


def random_text(rng: random.Random, size: int) -> str:
    """Any characters but lone surrogates (a WebSocket text frame cannot hold them)."""
    ranges = [
        (0, 0x1F),
        (0x20, 0x7E),
        (0x80, 0x2FF),
        (0x300, 0x36F),
        (0x2000, 0x206F),
        (0xE000, 0xFFFF),
        (0x1F300, 0x1FAFF),
    ]
    out = []
    for _ in range(size):
        low, high = rng.choice(ranges)
        out.append(chr(rng.randint(low, high)))
    return "".join(out)


def nested(rng: random.Random, depth: int) -> Any:
    value: Any = rng.choice([1, "x", None, []])
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"a": value}
    return value


def weird(rng: random.Random) -> Any:
    """A value no field expects, or one at the edge of what it takes."""
    pick = rng.randrange(14)
    if pick == 0:
        return Raw(
            rng.choice(
                [
                    "NaN",
                    "Infinity",
                    "-Infinity",
                    "-NaN",
                    "1e400",
                    "-1e400",
                    "1e-400",
                    "-0",
                    "0.0",
                    "1.5",
                    "2e3",
                    "1E2",
                ]
            )
        )
    if pick == 1:
        return Raw(("-" if rng.random() < 0.3 else "") + "9" * rng.randint(17, 3500))
    if pick == 2:
        return rng.choice(
            [2**53 - 1, 2**53, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, -1, -2, -(10**6)]
        )
    if pick == 3:
        return rng.randint(10**6, 2**70) * rng.choice([1, -1])
    if pick == 4:
        return rng.choice(
            ["\ud800", "a\udc00", "\udfff" * 3, "\udbff\udfff", "3x\ud83d", "\ud83c\udfb2"]
        )
    if pick == 5:
        return rng.choice(["\x00", "\x1f\x7f", "\u202e3x4", "\ufeff", "cal\n", "\u0301" * 10, "🎲"])
    if pick == 6:
        return "x" * rng.choice([65, 129, 1000, 3000])
    if pick == 7:
        return random_text(rng, rng.randint(0, 80))
    if pick == 8:
        return rng.choice([True, False, None])
    if pick == 9:
        return rng.choice([[], {}, [1, 2], {"type": "ping"}, ["call"]])
    if pick == 10:
        return nested(rng, rng.randint(2, 40))
    if pick == 11:
        return rng.choice(NEVER_LEGAL)
    if pick == 12:
        return rng.choice(
            ["hello", "explain", "take_back", "ping", "PING", "Act", "pong", "update"]
        )
    return Raw(rng.choice(["1", "0", "-1", "17"]) + " " * rng.randint(0, 3))


@dataclass
class Seat:
    """Where fuzzing connections sit: a table and a seat's token (None: watching), the tokens of
    that table, and the last view and game the connections there received."""

    code: str
    token: str | None
    tokens: set[str]
    view: Json | None = None
    game: int | None = None


def valid_frame(rng: random.Random, seat: Seat) -> Json:
    kind = rng.choice(["ping", "act", "act", "explain", "explain", "take_back", "hello"])
    turn = seat.view["turn"] if seat.view is not None else 0
    legal = seat.view["legal"] if seat.view is not None else []
    if kind == "act":
        # Never a legal action at the current turn: fuzzed frames play no move by chance.
        return {"type": "act", "action": rng.choice(NEVER_LEGAL), "turn": turn + rng.randint(-3, 3)}
    if kind == "explain":
        action = (
            rng.choice(legal)
            if legal and rng.random() < 0.5
            else rng.choice([*NEVER_LEGAL, "call", "3x4", "five trains"])
        )
        return {"type": "explain", "action": action}
    if kind == "hello":
        return {
            "type": "hello",
            "token": seat.token,
            "since": rng.randint(-1, 50),
            "game": seat.game,
        }
    return {"type": kind}


def mutate(rng: random.Random, frame: Json) -> Json:
    frame = dict(frame)
    keys = list(frame)
    for _ in range(rng.randint(1, 3)):
        how = rng.randrange(6)
        if how == 0 and keys:
            frame[rng.choice(keys)] = weird(rng)
        elif how == 1 and keys:
            frame.pop(rng.choice(keys), None)
        elif how == 2:
            frame[
                rng.choice(["as", "seat", "x", "Type", "action ", "turn\u0000", "\ud800", ""])
            ] = weird(rng)
        elif how == 3 and keys:
            key = rng.choice(keys)
            renamed = rng.choice([key.upper(), key + " ", key[:-1], "\u202e" + key])
            frame[renamed] = frame.pop(key, None)
        elif how == 4:
            frame["type"] = weird(rng)
        else:
            for name in ("turn", "since", "game"):
                if name in frame:
                    frame[name] = weird(rng)
    return frame


def fuzz_frame(rng: random.Random, seat: Seat) -> str | bytes:
    """One frame to send: text, or bytes for a binary frame."""
    base = valid_frame(rng, seat)
    pick = rng.random()
    plain = rng.random() < 0.3
    text: str | bytes
    if pick < 0.25:
        text = to_text(base, plain)
    elif pick < 0.62:
        text = to_text(mutate(rng, base), plain)
    elif pick < 0.67:
        depth = rng.randint(5, 3000)
        text = rng.choice(
            [
                "[" * depth,
                "[" * depth + "]" * depth,
                '{"a":' * depth,
                '{"type":"ping","x":' + "[" * depth + "]" * depth + "}",
            ]
        )
    elif pick < 0.74:
        whole = to_text(mutate(rng, base) if rng.random() < 0.5 else base, plain)
        text = whole[: rng.randrange(len(whole) + 1)]
    elif pick < 0.80:
        chars = list(to_text(base, plain))
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = random_text(rng, 1)
        text = "".join(chars)
    elif pick < 0.84:
        text = random_text(rng, rng.randint(0, 200))
    elif pick < 0.88:
        text = rng.randbytes(rng.randint(0, 200))
    elif pick < 0.90:
        text = rng.choice(["", " ", "\n", "{}", "null", "0"]) if rng.random() < 0.8 else b""
    elif pick < 0.91:
        # Over the protocol's limit, under the WebSocket layer's (16 times it).
        size = rng.randint(MAX_FRAME + 1, 16 * MAX_FRAME - 100)
        body = to_text(base, False)
        text = (
            body + " " * (size - len(body))
            if rng.random() < 0.5
            else '{"type":"explain","action":"' + "x" * size + '"}'
        )
    elif pick < 0.94:
        body = to_text(base, plain)
        text = "{" + body[1:-1] + "," + body[1:-1] + "}" if len(body) > 2 else body  # repeated keys
    else:
        body = to_text(base, plain)
        text = " \t\n" * rng.randint(0, 50) + body + "\r\n" * rng.randint(0, 50)
    if isinstance(text, str) and rng.random() < 0.1:
        return text.encode("utf-8")
    return text


def expected(raw: str | bytes) -> str:
    """What the protocol layer makes of a frame: an error code, or the frame's type."""
    try:
        return str(parse_frame(raw)["type"])
    except BadMessage as exc:
        return exc.code


def readable_act(raw: str | bytes) -> bool:
    """Whether a frame is an ``act`` whose text reads as an action: a mutated frame such as
    ``"\u03359x6"`` (a stray combining mark) may still be a legal move, and be played."""
    try:
        frame = parse_frame(raw)
        if frame["type"] != "act":
            return False
        parse_action(frame["action"])
    except (BadMessage, NotationError):
        return False
    return True


# ------------------------------------------------------------------------- the fuzzing


@dataclass
class Stats:
    frames: int = 0
    batches: int = 0
    answers: Counter[str] = field(default_factory=Counter)
    closes: Counter[int] = field(default_factory=Counter)
    real_moves: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


class Fuzzer:
    def __init__(self, server: LiveServer, seed: int, seats: list[Seat]) -> None:
        self.server = server
        self.seed = seed
        self.seats = seats
        self.stats = Stats()
        self.live: list[ClientConnection] = []

    def fail(self, message: str) -> None:
        self.stats.failures.append(message)

    async def open(self, seat: Seat, name: str) -> ClientConnection:
        ws = await connect(
            f"{self.server.ws_url}/ws/{seat.code}",
            proxy=None,
            compression=None,
            ping_interval=None,
            open_timeout=20,
            close_timeout=2,
            max_size=None,
        )
        await ws.send(json.dumps({"type": "hello", "token": seat.token, "since": -1}))
        while True:
            frame = await self.receive(ws, seat, name)
            if frame["type"] == "table":
                return ws
            if frame["type"] != "welcome":
                raise AssertionError(f"{name}: {frame} before the table")

    async def receive(self, ws: ClientConnection, seat: Seat, name: str) -> Json:
        raw = await asyncio.wait_for(ws.recv(), ANSWER_SECONDS)
        frame: Json = json.loads(raw)
        if frame.get("type") == "update":
            seat.view, seat.game = frame["view"], frame["game"]
        return frame

    async def connection(self, index: int, quota: int) -> None:
        rng = random.Random(f"{self.seed}-{index}")
        seat = self.seats[index % len(self.seats)]
        name = f"connection {index} ({seat.code}, {'seated' if seat.token else 'spectator'})"
        await asyncio.sleep(rng.random() * 2)  # spread the connects and the batches
        try:
            ws = await self.open(seat, name)
        except Exception as exc:
            self.fail(f"{name}: could not connect: {exc!r}")
            return
        sent = 0
        while sent < quota:
            batch = [fuzz_frame(rng, seat) for _ in range(min(BATCH, quota - sent) - 1)]
            real = 0
            if (
                seat.token
                and seat.view
                and seat.view["legal"]
                and rng.random() < 0.1
                and self.stats.real_moves[seat.code] < REAL_MOVES
            ):
                # A move by the player's own connection, bids only: the game goes on.
                self.stats.real_moves[seat.code] += 1
                bids = [a for a in seat.view["legal"] if "x" in a and "reveal" not in a]
                action = rng.choice(bids or seat.view["legal"])
                batch.append(
                    json.dumps({"type": "act", "action": action, "turn": seat.view["turn"]})
                )
                real = 1
            batch.append('{"type":"ping"}')
            try:
                for raw in batch:
                    await ws.send(raw)
                await self.check_batch(ws, seat, name, batch, real)
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else 1006
                self.stats.closes[code] += 1
                if code not in DOCUMENTED_CLOSES:
                    self.fail(f"{name}: closed with code {code}, not a documented one ({exc})")
                    return
                ws = await self.open(seat, name)  # a documented close: connect again, go on
            except TimeoutError:
                self.fail(f"{name}: no pong within {ANSWER_SECONDS}s: the connection is deaf")
                return
            except AssertionError as exc:
                self.fail(str(exc))
                return
            sent += len(batch)
            self.stats.frames += len(batch)
            self.stats.batches += 1
            await asyncio.sleep(len(batch) / RATE)  # the server's allowance refills
        self.live.append(ws)

    async def check_batch(
        self, ws: ClientConnection, seat: Seat, name: str, batch: list[str | bytes], real: int
    ) -> None:
        """Read up to the batch's last pong; the answers must account for every frame."""
        kinds = Counter(expected(raw) for raw in batch)
        got: Counter[str] = Counter()
        updates = 0
        while got["pong"] < kinds["ping"]:
            frame = await self.receive(ws, seat, name)
            kind = frame["type"]
            if kind == "error":
                assert frame["message"], f"{name}: an error without a message: {frame}"
                got[frame["code"]] += 1
                self.stats.answers[frame["code"]] += 1
            elif kind in ("pong", "explain"):
                got[kind] += 1
                self.stats.answers[kind] += 1
            elif kind == "update":
                updates += 1
            elif kind not in ("table", "chat_history"):  # the chat history follows a hello
                raise AssertionError(f"{name}: unexpected frame {frame}")

        def sample() -> str:
            return (
                f"answers {dict(got)} to frames {dict(kinds)}; frames: {[r[:80] for r in batch]!r}"
            )

        assert got["too_large"] == kinds["too_large"], f"{name}: too_large: {sample()}"
        # A second hello passes the protocol layer and is refused as bad_message after it.
        assert got["bad_message"] == kinds["bad_message"] + kinds["hello"], f"{name}: {sample()}"
        handled = kinds["act"] + kinds["explain"] + kinds["take_back"]
        table_answers = got["explain"] + sum(got[code] for code in TABLE_ERRORS)
        played = handled - table_answers
        could_play = real + sum(readable_act(raw) for raw in batch[: len(batch) - 1 - real])
        assert 0 <= played <= could_play, f"{name}: {played} frames unanswered: {sample()}"
        assert played <= updates, f"{name}: a move played without an update: {sample()}"
        unknown = set(got) - TABLE_ERRORS - {"pong", "explain", "bad_message", "too_large"}
        assert not unknown, f"{name}: unexpected answers {unknown}: {sample()}"

    async def hello(self, index: int) -> None:
        try:
            await self.fuzz_hello(index)
        except Exception as exc:  # the others go on; the failure is reported with the seed
            self.fail(f"hello {index}: {exc!r}")

    async def fuzz_hello(self, index: int) -> None:
        """One connection whose first frame is fuzzed: welcome, or an error and 1008."""
        rng = random.Random(f"{self.seed}-hello-{index}")
        await asyncio.sleep(rng.random() * 15)  # along the fuzzing, not all at once
        seat = self.seats[rng.randrange(len(self.seats))]
        token = rng.choice([seat.token, None, "forged-token", *seat.tokens])
        base: Json = {"type": "hello", "token": token, "since": rng.randint(-1, 5), "game": None}
        pick = rng.random()
        raw: str | bytes
        if pick < 0.3:
            raw = to_text(base, rng.random() < 0.3)
        elif pick < 0.7:
            raw = to_text(mutate(rng, base), rng.random() < 0.3)
        else:
            raw = fuzz_frame(rng, seat)
        name = f"hello {index} {raw[:80]!r}"
        want = expected(raw)
        async with connect(
            f"{self.server.ws_url}/ws/{seat.code}",
            proxy=None,
            compression=None,
            ping_interval=None,
            open_timeout=20,
            max_size=None,
        ) as ws:
            await ws.send(raw)
            self.stats.frames += 1
            try:
                first: Json = json.loads(await asyncio.wait_for(ws.recv(), ANSWER_SECONDS))
                if want != "hello":
                    error = want if want in ("bad_message", "too_large") else "bad_message"
                    if first["type"] != "error" or first["code"] != error:
                        self.fail(f"{name}: answered {first}, expected error {error}")
                    await asyncio.wait_for(ws.recv(), ANSWER_SECONDS)
                    self.fail(f"{name}: still open after a refused hello")
                    return
                hello = parse_frame(raw)
                if first["type"] == "error":
                    forged = (
                        isinstance(hello.get("token"), str)
                        and hello["token"]
                        and hello["token"] not in seat.tokens
                    )
                    if first["code"] != "unauthorized" or not forged:
                        self.fail(f"{name}: answered {first}")
                    first = json.loads(await asyncio.wait_for(ws.recv(), ANSWER_SECONDS))
                if first["type"] != "welcome":
                    self.fail(f"{name}: answered {first}, expected welcome")
                self.stats.answers["welcome"] += 1
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else 1006
                self.stats.closes[code] += 1
                if want == "hello" or code != 1008:
                    self.fail(f"{name}: closed with {code}")
            except TimeoutError:
                self.fail(f"{name}: no answer to the first frame within {ANSWER_SECONDS}s")

    async def final_pings(self) -> None:
        for ws in self.live:
            try:
                await ws.send('{"type":"ping"}')
                while (
                    json.loads(await asyncio.wait_for(ws.recv(), ANSWER_SECONDS))["type"] != "pong"
                ):
                    pass
            except (ConnectionClosed, TimeoutError) as exc:
                self.fail(f"a connection did not answer the final ping: {exc!r}")
            await ws.close()

    async def run(self) -> None:
        quota = -(-FRAMES // CONNECTIONS)
        await asyncio.gather(
            *(self.hello(i) for i in range(HELLO_CONNECTIONS)),
            *(self.connection(i, quota) for i in range(CONNECTIONS)),
        )
        await self.final_pings()


# ------------------------------------------------------------------------------ test


def test_fuzzed_frames_are_all_answered_and_hurt_nothing(live_server: ServerFactory) -> None:
    seed = int(os.environ.get("DUDO_FUZZ_SEED") or SEED)
    cap = limit_args(connections_per_address=CONNECTIONS + HELLO_CONNECTIONS + 50)
    server = live_server(args=[*TEST_ARGS, *cap])
    lobby = Match(server, start=False)
    games = [Match(server), Match(server, bots=["random"])]
    seats: list[Seat] = []
    for match in (lobby, *games):
        tokens = {match.host_token, match.bo_token}
        for token in (match.host_token, match.bo_token, None, None):
            seats.append(Seat(match.code, token, tokens))

    fuzzer = Fuzzer(server, seed, seats)
    started = time.monotonic()
    asyncio.run(fuzzer.run())
    seconds = time.monotonic() - started
    stats = fuzzer.stats
    summary = (
        f"seed {seed} (DUDO_FUZZ_SEED={seed} to replay): {stats.frames} frames over "
        f"{CONNECTIONS} connections and {HELLO_CONNECTIONS} hellos in {seconds:.1f}s; "
        f"answers {dict(stats.answers)}; closes {dict(stats.closes)}; "
        f"real moves {dict(stats.real_moves)}"
    )
    print(summary)
    assert not stats.failures, f"{summary}\n" + "\n".join(stats.failures[:10])
    assert stats.frames >= FRAMES, summary

    assert server.running, f"the server died ({summary}):\n{server.log_tail()}"
    with api(server) as http:
        assert http.get("/api/presets").status_code == 200, summary
    log = (server.workdir / f"server-{server.starts}.log").read_text(errors="replace")
    for bad in ("Traceback", "ERROR"):
        assert bad not in log, f"{bad} in the server log ({summary}):\n{server.log_tail(60)}"

    # The games play on: a real player's legal move is accepted (the lobby's game starts).
    host_post(server, lobby.code, "start", lobby.host_token)
    rng = random.Random(seed)
    for match in (lobby, *games):
        mover = settle(match.players)
        assert mover.view is not None
        turn = mover.view["turn"]
        mover.act(choose(mover.view, rng))
        for player in match.players:
            player.wait_turn(turn + 1)
        assert match.ana.events == match.bo.events, summary
        match.close()
