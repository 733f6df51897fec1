"""The wire format in-process: frames parsed by :func:`parse_frame` either come back checked
or raise :class:`BadMessage`, whatever the client sends; what :func:`dumps` makes can always
be sent; a connection whose sending fails closes with a documented code instead of going deaf;
and docs/protocol.md documents every error and close code the server uses."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi import WebSocket, WebSocketDisconnect
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketState

from dudo.engine.game import Game
from dudo.engine.rules import PRESETS, from_mapping
from dudo.server.errors import ErrorCode
from dudo.server.limits import Limits
from dudo.server.play import Connection
from dudo.server.wire import (
    MAX_DEPTH,
    MAX_FRAME,
    VIEWER_FIELDS,
    BadMessage,
    dumps,
    parse_frame,
    shared_part,
    update_frame,
    view_json,
)

SERVER_DIR = Path(__file__).parents[2] / "src" / "dudo" / "server"


# ------------------------------------------------------------------------------ views


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    oblige=st.sampled_from([None, "normal", "closed", "obliger_chooses"]),
    reveal_reroll=st.booleans(),
    cruzado=st.booleans(),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_viewers_frame_joined_from_parts_equals_its_own(
    preset: str, oblige: str | None, reveal_reroll: bool, cruzado: bool, players: int, seed: int
) -> None:
    """A broadcast encodes the fields every viewer shares once, from the engine's public
    part (shared_part), and joins each viewer's own fields to them (update_frame). At every
    moment of random games, for every viewer, that equals the JSON of the viewer's own view,
    and only VIEWER_FIELDS ever differ between viewers."""
    options: dict[str, Any] = {"dice_per_player": 2, "pass_hands": [], "cruzado": cruzado}
    options["reveal_reroll"] = reveal_reroll
    if oblige is not None:  # open and closed one-die rounds: what players see differs most
        options.update(oblige=True, oblige_min_players=2, oblige_visibility=oblige)
    if PRESETS[preset].pass_allows_spot_on:
        options["pass_allows_spot_on"] = False
    rules = from_mapping(options, base=PRESETS[preset])
    players = max(players, rules.min_players)
    game = Game(rules, players, seed=seed)
    choose = random.Random(seed)
    names, seats = [f"p{p}" for p in range(players)], list(range(players))
    head = dumps({"type": "update", "game": 1, "events": [], "deadline": None, "auto": None})
    while True:
        turn = len(game.history)
        public = view_json(game.view(None), names, seats, turn)
        shared = shared_part(game.public_part(), names, seats, turn)
        for viewer in [None, *range(players)]:
            own = view_json(game.view(viewer), names, seats, turn)
            assert {k for k in own if own[k] != public[k]} <= VIEWER_FIELDS
            whole = {**json.loads(head), "view": json.loads(dumps(own))}
            for view in (game.view(viewer), game.viewer_part(viewer)):
                frame = update_frame(head, shared, view)
                assert json.loads(frame, object_pairs_hook=_no_name_twice) == whole
        if game.is_over:
            return
        game.push(choose.choice(list(game.legal_actions(game.to_move))))


def _no_name_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    names = [name for name, _ in pairs]
    assert len(names) == len(set(names)), f"a name twice in one object: {names}"
    return dict(pairs)


# ------------------------------------------------------------------------------ dumps


@pytest.mark.parametrize("text", ["\ud800", "a\udfffb", "José \ud83d", "\udc00" * 50])
def test_dumps_makes_text_that_can_be_sent_as_utf8(text: str) -> None:
    frame = {"type": "error", "code": "unknown_action", "message": f"not an action: {text}"}
    out = dumps(frame)
    out.encode("utf-8")  # what the WebSocket does to every text frame
    assert json.loads(out) == frame, "the escapes read back as the same text"


def test_dumps_keeps_real_characters_as_they_are() -> None:
    assert dumps({"name": "José 🎲"}) == '{"name":"José 🎲"}'


# ------------------------------------------------------------------------ parse_frame

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
FRAME_FIELDS = st.sampled_from(["type", "action", "turn", "token", "since", "game", "x"])
FRAMES = st.dictionaries(
    FRAME_FIELDS,
    st.one_of(
        JSON_VALUES, st.sampled_from(["hello", "act", "explain", "take_back", "ping", "3x4"])
    ),
)


def parsed_or_refused(raw: str | bytes) -> dict[str, Any] | None:
    """The frame parse_frame accepts (None: refused), failing on any other exception."""
    try:
        frame = parse_frame(raw)
    except BadMessage as exc:
        assert exc.code in ("bad_message", "too_large"), exc.code
        str(exc).encode("utf-8")  # the message can be sent
        return None
    assert isinstance(frame, dict)
    return frame


@settings(max_examples=300, deadline=None)
@given(FRAMES)
def test_any_json_object_is_accepted_only_in_range(frame: dict[str, Any]) -> None:
    got = parsed_or_refused(json.dumps(frame))
    if got is None:
        return
    for name, value in got.items():
        if isinstance(value, int):
            assert 0 <= value < 2**53 or (name == "since" and value == -1), (name, value)
        if isinstance(value, str):
            value.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300)))
def test_any_text_or_bytes_is_parsed_or_refused(raw: str | bytes) -> None:
    parsed_or_refused(raw)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 2000,
        "{" * 4000,
        '{"a":' * 800,
        '{"type":"ping","x":' + "[" * 1000 + "]" * 1000 + "}",
        '{"type":"act","action":"call","turn":0,"x":' + '[{"a":' * 400,
    ],
)
def test_deep_nesting_is_refused_before_parsing(text: str) -> None:
    assert len(text) <= MAX_FRAME
    with pytest.raises(BadMessage, match=f"nested deeper than {MAX_DEPTH} levels"):
        parse_frame(text)


def test_brackets_inside_strings_are_not_nesting() -> None:
    frame = parse_frame(json.dumps({"type": "explain", "action": "[" * 60}))
    assert frame["action"] == "[" * 60


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"type":"act","action":"call","turn":NaN}', ["act.turn", "NaN"]),
        ('{"type":"act","action":"call","turn":-Infinity}', ["act.turn", "-Infinity"]),
        ('{"type":"act","action":"call","turn":1e400}', ["act.turn", "1e400"]),
        ('{"type":"act","action":"call","turn":2.5}', ["act.turn", "2.5"]),
        ('{"type":"act","action":"call","turn":-1}', ["act.turn", "from 0 to 9007199254740991"]),
        ('{"type":"hello","since":-2}', ["hello.since", "from -1 to"]),
        ('{"type":"hello","game":' + "7" * 4000 + "}", ["hello.game", "an int from 0"]),
        ('{"type":"act","action":"\\ud800x","turn":0}', ["act.action", "surrogate"]),
        ('{"type":"hello","token":"\\udfff"}', ["hello.token", "surrogate"]),
    ],
)
def test_numbers_and_text_out_of_range_say_which_field_and_what_is_allowed(
    text: str, words: list[str]
) -> None:
    with pytest.raises(BadMessage) as refused:
        parse_frame(text)
    assert refused.value.code == "bad_message"
    for word in words:
        assert word in str(refused.value), (word, str(refused.value))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1.5", ["a JSON object", "the number 1.5"]),
        ("NaN", ["the number NaN"]),
        ("1e400", ["the number 1e400"]),
        ("7" * 30, ["the number 777"]),
        ("12", ["the number 12"]),
        ('"ping"', ['the text "ping"']),
        ("[1]", ["a list"]),
        ("null", ["got null"]),
        ("true", ["got true"]),
        ('{"type":2.5}', ["unknown frame type 2.5"]),
        ('{"since":0}', ["unknown frame type null"]),
        ('{"type":"hello","token":7}', ["hello.token", "text or null", "got 7"]),
        ('{"type":"act","action":[],"turn":0}', ["act.action", "expected text, got []"]),
    ],
)
def test_a_refused_frame_is_described_in_json_s_words(text: str, words: list[str]) -> None:
    """What was sent and what is wanted are named as JSON names them, never by a Python
    type's name (``_Literal``, ``float``, ``str``, ``NoneType``, ``None``)."""
    with pytest.raises(BadMessage) as refused:
        parse_frame(text)
    message = str(refused.value)
    for word in words:
        assert word in message, (word, message)
    for name in ("_Literal", "float", "str", "int'", "list'", "NoneType", "None", "bool"):
        assert name not in message, (name, message)


def test_a_surrogate_pair_is_a_real_character() -> None:
    frame = parse_frame('{"type":"hello","token":"\\ud83c\\udfb2"}')
    assert frame["token"] == "🎲"


# --------------------------------------------------------------------- the writer


class FailingSocket:
    """A WebSocket whose every send fails with ``failure``."""

    def __init__(self, failure: Exception, client_state: WebSocketState) -> None:
        self.failure = failure
        self.client_state = client_state
        self.application_state = WebSocketState.CONNECTED
        self.closed_with: list[int] = []
        self.url = type("URL", (), {"path": "/ws/TEST"})()
        self.scope: dict[str, Any] = {}  # no server's send in it: the writer calls send

    async def send(self, _message: dict[str, Any]) -> None:
        raise self.failure

    async def close(self, code: int = 1000) -> None:
        self.closed_with.append(code)
        self.application_state = WebSocketState.DISCONNECTED


def write_through(socket: FailingSocket) -> Connection:
    async def run() -> Connection:
        connection = Connection(cast(WebSocket, socket), Limits())
        connection.send('{"type":"pong"}')
        connection.send('{"type":"pong"}')
        await asyncio.wait_for(connection.write(), 5)
        return connection

    return asyncio.run(run())


def test_a_failed_send_closes_with_1011_and_logs_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    socket = FailingSocket(
        UnicodeEncodeError("utf-8", "\ud800", 0, 1, "x"), WebSocketState.CONNECTED
    )
    with caplog.at_level(logging.INFO):
        connection = write_through(socket)
    assert socket.closed_with == [1011], "the client learns the connection is over"
    assert connection.closed, "nothing more is queued for it"
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(records) == 1, records
    assert "1011" in records[0].getMessage() and "/ws/TEST" in records[0].getMessage()
    assert records[0].exc_info is None, "one line, no traceback"


def test_a_client_that_left_is_not_an_error(caplog: pytest.LogCaptureFixture) -> None:
    for socket in (
        FailingSocket(WebSocketDisconnect(1006), WebSocketState.CONNECTED),
        FailingSocket(RuntimeError("after close"), WebSocketState.DISCONNECTED),
    ):
        with caplog.at_level(logging.INFO):
            connection = write_through(socket)
        assert connection.closed and socket.closed_with == []
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


# ------------------------------------------------------------------------ the docs


def codes_in_source() -> tuple[set[str], set[int]]:
    """The error codes and close codes the server's source can send."""
    errors: set[str] = {str(code) for code in ErrorCode}  # the registry every refusal uses
    closes: set[int] = set()
    for path in SERVER_DIR.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        errors |= set(re.findall(r'(?:ActionRefused|BadMessage|\.error)\(\s*"(\w+)"', text))
        errors |= set(re.findall(r'"code": "(\w+)"', text))
        closes |= {int(c) for c in re.findall(r"(?:finish|close)\((?:code=)?(\d{4})\)", text)}
    return errors, closes


def test_every_error_and_close_code_is_documented() -> None:
    errors, closes = codes_in_source()
    assert {"bad_message", "not_standing_in", "no_table"} <= errors, "the scan finds codes"
    assert {1008, 1011, 4404} <= closes, "the scan finds close codes"
    doc = (SERVER_DIR.parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    for code in sorted(errors):
        assert f"`{code}`" in doc, f"error code {code!r} is not in docs/protocol.md"
    for close in sorted(closes | {1009}):
        assert re.search(rf"^\| `{close}` \|", doc, re.M), f"close code {close} not documented"
