"""What processes of one site say to each other through Redis (:mod:`dudo.server.cluster`):
the names of the keys and channels, a relayed request's ASGI scope and messages as JSON, and
the binary frames, batched, that carry each relayed move."""

from __future__ import annotations

import base64
import struct
import time
from typing import Any

from starlette.types import Message, Scope

PREFIX = "dudo:"
ALL = PREFIX + "all"

#: Marks a scope the owner runs for another process (never relayed again).
RELAYED = "dudo.relayed"


def lease_key(code: str) -> str:
    return f"{PREFIX}lease:{code}"


def node_key(node: str) -> str:
    return f"{PREFIX}node:{node}"


def node_channel(node: str) -> str:
    return f"{PREFIX}to:{node}"


def scope_out(scope: Scope) -> dict[str, Any]:
    """What the owner needs of a request's scope, as JSON."""
    return {
        "type": scope["type"],
        "path": scope["path"],
        "raw_path": scope.get("raw_path", scope["path"].encode()).decode("latin-1"),
        "query_string": scope.get("query_string", b"").decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
        "client": list(scope["client"]) if scope.get("client") else None,
        "server": list(scope["server"]) if scope.get("server") else None,
        "scheme": scope.get("scheme", "http"),
        "http_version": scope.get("http_version", "1.1"),
        "method": scope.get("method"),
        "root_path": scope.get("root_path", ""),
        "subprotocols": list(scope.get("subprotocols", [])),
    }


def scope_in(data: dict[str, Any], app: Any) -> Scope:
    """The scope the owner runs a relayed request under (marked :data:`RELAYED`)."""
    scope: dict[str, Any] = {
        "type": data["type"],
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "path": data["path"],
        "raw_path": data["raw_path"].encode("latin-1"),
        "query_string": data["query_string"].encode("latin-1"),
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in data["headers"]],
        "client": tuple(data["client"]) if data["client"] else None,
        "server": tuple(data["server"]) if data["server"] else None,
        "scheme": data["scheme"],
        "http_version": data["http_version"],
        "root_path": data["root_path"],
        "app": app,
        "state": {},
        RELAYED: True,
    }
    if data["type"] == "http":
        scope["method"] = data["method"]
    else:
        scope["subprotocols"] = data["subprotocols"]
    return scope


def message_out(message: Message) -> dict[str, Any]:
    """An ASGI message as JSON (bytes as base64)."""
    out = dict(message)
    for key in ("bytes", "body"):
        if isinstance(out.get(key), bytes | bytearray):
            out[key] = base64.b64encode(out[key]).decode()
    if "headers" in out:
        out["headers"] = [
            [bytes(k).decode("latin-1"), bytes(v).decode("latin-1")] for k, v in out["headers"]
        ]
    return out


def message_in(data: dict[str, Any]) -> Message:
    """An ASGI message from its JSON (:func:`message_out`)."""
    message = dict(data)
    for key in ("bytes", "body"):
        if isinstance(message.get(key), str):
            message[key] = base64.b64decode(message[key])
    if "headers" in message:
        message["headers"] = [
            (k.encode("latin-1"), v.encode("latin-1")) for k, v in message["headers"]
        ]
    return message


#: The messages on every relayed move's path travel as bytes, not JSON: a kind byte, the
#: sending time, the tunnel's id (16 characters), then the WebSocket text frame as it is.
TEXT_OUT, TEXT_IN = b"T", b"R"
STAMP = struct.Struct("<d")
HEAD = 1 + STAMP.size + 16


#: Several messages for one process sent as one: this byte, then each message after its length.
BATCH = b"B"
_LENGTH = struct.Struct("<I")


def _batch(messages: list[bytes]) -> bytes:
    parts = [BATCH]
    for message in messages:
        parts.append(_LENGTH.pack(len(message)))
        parts.append(message)
    return b"".join(parts)


def unbatch(data: bytes) -> list[bytes]:
    """The messages of a batch (``data`` starts with :data:`BATCH`)."""
    messages, at = [], 1
    while at < len(data):
        (length,) = _LENGTH.unpack_from(data, at)
        at += _LENGTH.size
        messages.append(data[at : at + length])
        at += length
    return messages


def pack(messages: list[bytes]) -> bytes:
    """What goes on a channel for ``messages``: one alone as it is, several as a batch."""
    return messages[0] if len(messages) == 1 else _batch(messages)


def text_message(kind: bytes, tunnel_id: str, text: str) -> bytes:
    """A relayed WebSocket text frame (``kind``: :data:`TEXT_OUT` or :data:`TEXT_IN`)."""
    return kind + STAMP.pack(time.time()) + tunnel_id.encode() + text.encode()


def text_of(value: bytes | str | None) -> str | None:
    """A Redis value as text (the client answers bytes)."""
    return value.decode() if isinstance(value, bytes) else value
