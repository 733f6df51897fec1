"""``dudo bot-server``: one of our bots behind the JSON-lines protocol on stdin and stdout.

Each request line gets exactly one answer line (``quit`` gets none: the server stops), written
and flushed at once. A bad request gets ``{"id": ..., "error": "..."}`` and the server reads
on; nothing but answers ever goes to stdout (diagnostics go to stderr).
"""

from __future__ import annotations

import random
import sys
import traceback
from collections.abc import Iterable
from typing import Any, BinaryIO

from dudo.bots.base import Bot, out_of_turn_call
from dudo.bots.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    Request,
    dumps,
    error_answer,
    loads_message,
    parse_request,
    request_id,
)
from dudo.engine.actions import Call
from dudo.engine.errors import DudoError


def _choose(bot: Bot, request: Request) -> dict[str, Any]:
    view = request.view
    assert view is not None  # parse_request gives every choose request a view
    if view.viewer is None:
        raise ProtocolError("view.viewer: null is a spectator's view; a bot plays a seat")
    if not view.legal_actions:
        raise ProtocolError("view.legal_actions: empty; there is nothing to choose")
    action = bot.choose(view)
    if action not in view.legal_actions:
        raise DudoError(f"the bot chose {action}, which is not among view.legal_actions")
    return {"id": request.id, "action": str(action)}


def _out_of_turn(bot: Bot, request: Request) -> dict[str, Any]:
    view = request.view
    assert view is not None
    if view.viewer is None or view.viewer == view.to_move:
        raise ProtocolError("view: out_of_turn is for a player who is not to move")
    if Call(by=view.viewer) not in view.legal_actions:
        raise ProtocolError('view.legal_actions: no "call" offered, so no out-of-turn call')
    return {"id": request.id, "call": out_of_turn_call(bot, view) is not None}


def answer(bot: Bot, line: bytes | str) -> tuple[dict[str, Any] | None, bool]:
    """The answer to one request line (None: no answer), and whether to stop (``quit``).
    A blank line gets no answer."""
    if not line.strip():
        return None, False
    number: int | None = None
    try:
        data = loads_message(line)
        number = request_id(data)
        request = parse_request(data)
        if request.type == "quit":
            return None, True
        if request.type == "hello":
            if request.protocol != PROTOCOL_VERSION:
                raise ProtocolError(
                    f"protocol: version {request.protocol} is not supported;"
                    f" this bot speaks version {PROTOCOL_VERSION}"
                )
            return {"id": number, "protocol": PROTOCOL_VERSION, "name": bot.name}, False
        if request.type == "choose":
            return _choose(bot, request), False
        return _out_of_turn(bot, request), False
    except DudoError as exc:
        return error_answer(number, str(exc)), False
    except Exception as exc:  # a bug in a bot must not stop the server; say so and read on
        traceback.print_exc(file=sys.stderr)
        return error_answer(number, f"the bot failed: {type(exc).__name__}: {exc}"), False


def serve(bot: Bot, requests: Iterable[bytes], out: BinaryIO) -> None:
    """Answer each request line from ``requests`` on ``out`` until ``quit`` or the end."""
    for line in requests:
        reply, stop = answer(bot, line)
        if reply is not None:
            out.write((dumps(reply) + "\n").encode("utf-8"))
            out.flush()
        if stop:
            return


def bot_server_command(level: str, seed: int | None) -> int:
    """Run the bot ``level`` on this process's stdin and stdout; the exit code."""
    from dudo.bots import make_bot

    try:
        bot = make_bot(level, random.Random(seed))
    except DudoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed by mistake must not corrupt the answers
    print(f"dudo bot-server: bot {bot.name!r}, protocol {PROTOCOL_VERSION}", file=sys.stderr)
    try:
        serve(bot, sys.stdin.buffer, out)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    return 0
