"""The frames the server sends are the ones ``docs/protocol.md`` documents, built in one place.

:mod:`dudo.server.frames` lists every frame (its ``CATALOGUE``); the "Server to client"
table of ``docs/protocol.md`` must list the same frames with the same fields in the same order
and the same receiver. Each builder makes exactly the fields catalogued for its frame, and no
other module of the server builds a frame: a dict with a ``"type"`` there is an ASGI message
or scope, never a frame.
"""

from __future__ import annotations

import ast
import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest

import dudo.server
from dudo.engine.errors import Reason, ReasonCode
from dudo.engine.game import Game
from dudo.engine.rules import PRESETS
from dudo.server import frames
from dudo.server.errors import ErrorCode, Refused
from dudo.server.frames import CATALOGUE, To

SERVER = Path(dudo.server.__file__).parent
PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented() -> dict[str, tuple[tuple[str, ...], frozenset[str], str]]:
    """The "Server to client" table of docs/protocol.md: type -> (fields, optional fields,
    receiver)."""
    text = PROTOCOL.read_text(encoding="utf-8")
    section = text.split("### Server to client\n", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert rows, "docs/protocol.md has no table of server frames"
    found: dict[str, tuple[tuple[str, ...], frozenset[str], str]] = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        kind = cells[0].strip("`")
        fields = re.findall(r"`([a-z_]+)`(\??)", cells[1])
        assert kind not in found, f"{kind} is documented twice"
        names = tuple(name for name, _ in fields)
        optional = frozenset(name for name, mark in fields if mark)
        found[kind] = (names, optional, cells[2])
    return found


def test_the_protocol_documents_every_frame_of_the_catalogue() -> None:
    docs = documented()
    code = {f.name: (f.fields, f.optional, str(f.to)) for f in CATALOGUE}
    assert sorted(docs) == sorted(code), "documented and built frames differ"
    for kind, (fields, optional, receiver) in code.items():
        assert docs[kind][0] == fields, f"{kind}: fields {docs[kind][0]} in docs/protocol.md"
        assert docs[kind][1] == optional, f"{kind}: optional {docs[kind][1]} in docs/protocol.md"
        assert docs[kind][2] == receiver, f"{kind}: receiver {docs[kind][2]!r} in docs/protocol.md"


def test_the_catalogue_is_whole_and_each_shape_names_its_type() -> None:
    names = [f.name for f in CATALOGUE]
    assert len(names) == len(set(names))
    for frame in CATALOGUE:
        hints = typing.get_type_hints(frame.shape)
        assert typing.get_args(hints["type"]) == (frame.name,), frame.name
    assert {f.to for f in CATALOGUE} == set(To), "a receiver nobody is"


def samples() -> dict[str, list[str]]:
    """Frames of every type, as the builders make them (some types twice: without and with
    their optional fields)."""
    game = Game(PRESETS["dudo"], 2)
    head = frames.update_head(3, [], None, {"player": 1, "why": "timer", "action": "3x5"})
    shared = '{"names":["Ana","Bo"]}'
    reason = Reason(ReasonCode.NOT_LEGAL_NOW, "no", action="3x4")
    refused = Refused(ErrorCode.ILLEGAL, "no", 409, reason)
    odds: frames.HintOdds = {
        "standing": None,
        "chance": None,
        "spot_on": None,
        "expected": {"1": 1.5},
        "at_least": {"1": [0.5]},
        "known": 5,
        "unknown": 5,
        "wild": True,
    }
    reviewed: frames.Reviewed = {"level": "hard", "decisions": 0, "riskiest": []}
    return {
        "welcome": [frames.welcome_frame(1, 0, True)],
        "table": [frames.table_frame({"code": "ABC234"})],
        "update": [frames.update_frame(head, shared, game.viewer_part(0))],
        "explain": [frames.explain_frame("3x4", None), frames.explain_frame("3x4", reason)],
        "chat": [frames.chat_frame({"text": "hola"})],
        "chat_history": [frames.chat_history_frame(True, [])],
        "hints": [frames.hints_frame(3, 7, odds)],
        "odds": [frames.odds_frame(3, 7, "5x3", {"chance": 0.5, "spot_on": None})],
        "suggest": [frames.suggest_frame(3, 7, "hard", None)],
        "review": [frames.review_frame(3, 0, reviewed)],
        "lobby_full": [frames.lobby_full_frame(1, [])],
        "lobby": [frames.lobby_frame(2, [], ["ABC234"])],
        "pong": [frames.pong_frame()],
        "error": [
            frames.error_frame(Refused(ErrorCode.NO_TABLE, "no table", table="X")),
            frames.error_frame(refused, "hints"),
        ],
    }


@pytest.mark.parametrize("frame", CATALOGUE, ids=lambda f: f.name)
def test_each_builder_makes_the_fields_catalogued(frame: frames.Frame) -> None:
    built = samples()[frame.name]
    seen: set[str] = set()
    for text in built:
        message = json.loads(text)
        assert message["type"] == frame.name
        keys = [k for k in message if k != "type"]
        # In the catalogue's order, with none missing but optional ones.
        assert keys == [f for f in frame.fields if f in keys], text
        assert set(frame.fields) - set(keys) <= frame.optional, text
        seen.update(keys)
    assert seen == set(frame.fields), f"no sample of {frame.name} carries every field"


def test_frames_are_the_same_text_as_before() -> None:
    """Clients and tests read these bytes: compact JSON, fields in the catalogue's order."""
    assert frames.pong_frame() == '{"type":"pong"}'
    assert (
        frames.welcome_frame(None, None, False)
        == '{"type":"welcome","seat":null,"player":null,"host":false,"protocol":1}'
    )
    refused = Refused(ErrorCode.NO_TABLE, "there is no table 'X'", table="X")
    assert frames.error_frame(refused, "chat") == (
        '{"type":"error","message":"there is no table \'X\'","code":"no_table",'
        '"params":{"table":"X"},"for":"chat"}'
    )
    head = frames.update_head(4, [], 1767225600000, None)
    assert head == '{"type":"update","game":4,"events":[],"deadline":1767225600000,"auto":null}'


# ------------------------------------------------------------------------------ nowhere else

#: The ``type`` of an ASGI message or scope ("http", "http.request", "websocket.send", ...),
#: the dicts with a ``type`` the server builds besides its frames.
ASGI = re.compile(r"(http|websocket|lifespan)(\.[a-z_.]+)?")
#: A JSON Schema's types (the OpenAPI description of a route's answer).
SCHEMA_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
#: Scopes whose ``type`` may be copied into another (the cluster relays a request's scope).
SCOPES = frozenset({"scope", "data"})
#: JSON text that is a frame: ``{"type": ...``.
FRAME_TEXT = re.compile(r'\s*\{\s*"type"\s*:')


def _assigned(function: ast.AST | None, name: str) -> list[ast.expr]:
    """The values assigned to ``name`` in ``function`` (the enclosing def)."""
    if function is None:
        return []
    return [
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]


def _not_a_frame(value: ast.expr, function: ast.AST | None) -> bool:
    """The ``type`` of a dict is visibly not a frame's: an ASGI or JSON Schema type, a choice
    between such, or copied from a scope."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return bool(ASGI.fullmatch(value.value)) or value.value in SCHEMA_TYPES
    if isinstance(value, ast.IfExp):
        return _not_a_frame(value.body, function) and _not_a_frame(value.orelse, function)
    if isinstance(value, ast.Subscript):
        index = value.slice
        return (
            isinstance(value.value, ast.Name)
            and value.value.id in SCOPES
            and isinstance(index, ast.Constant)
            and index.value == "type"
        )
    if isinstance(value, ast.Name):
        values = _assigned(function, value.id)
        return bool(values) and all(_not_a_frame(v, function) for v in values)
    return False


def frames_built_in(path: Path) -> list[str]:
    """Where the module at ``path`` builds a frame: a dict whose ``type`` may be a frame's, or
    JSON text of one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []

    def visit(node: ast.AST, function: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            if isinstance(child, ast.Dict):
                for key, value in zip(child.keys, child.values, strict=True):
                    is_type = isinstance(key, ast.Constant) and key.value == "type"
                    if is_type and not _not_a_frame(value, function):
                        found.append(f"line {child.lineno}: {ast.unparse(child)[:80]}")
            elif (
                isinstance(child, ast.Constant)
                and isinstance(child.value, str)
                and FRAME_TEXT.match(child.value)
            ):
                found.append(f"line {child.lineno}: {child.value[:80]!r}")
            visit(child, inner)

    visit(tree, None)
    return found


def server_modules() -> list[Path]:
    return sorted(p for p in SERVER.rglob("*.py") if p.name != "frames.py" or p.parent != SERVER)


def test_no_module_but_frames_builds_a_frame() -> None:
    built = {
        path.relative_to(SERVER).as_posix(): where
        for path in server_modules()
        if (where := frames_built_in(path))
    }
    assert not built, f"build these frames in dudo/server/frames.py: {built}"


def test_the_check_finds_a_frame_built_elsewhere(tmp_path: Path) -> None:
    """The check above is not blind: the ways frames were built before it catches."""
    module = tmp_path / "module.py"
    module.write_text(
        "def answer(kind: str, frame: dict[str, Any]) -> Any:\n"
        "    head = {'type': kind, 'game': 1}\n"
        "    echo = {'type': frame['type']}\n"
        "    return [head, echo, {'type': 'welcome'}, '{\"type\":\"pong\"}']\n"
    )
    assert len(frames_built_in(module)) == 4
    asgi = tmp_path / "asgi.py"
    asgi.write_text(
        "def relay(scope: Any, out: bool) -> Any:\n"
        "    kind = 'websocket.send' if out else 'websocket.receive'\n"
        "    return [{'type': kind}, {'type': scope['type']}, {'type': 'http.request'}]\n"
    )
    assert frames_built_in(asgi) == []


def test_every_frame_type_sent_is_catalogued() -> None:
    """The types the frames module's builders send are the catalogue's (a builder added
    without its entry is caught)."""
    tree = ast.parse((SERVER / "frames.py").read_text(encoding="utf-8"))
    literal: set[Any] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if not (isinstance(key, ast.Constant) and key.value == "type"):
                    continue
                if isinstance(value, ast.Subscript):  # the TypedDict written as a call
                    assert ast.unparse(value.value) == "Literal", ast.unparse(node)
                    continue
                assert isinstance(value, ast.Constant), ast.unparse(node)
                literal.add(value.value)
    assert literal == {f.name for f in CATALOGUE}
