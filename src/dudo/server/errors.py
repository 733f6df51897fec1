"""How the server words a refused HTTP request: each kind of validation error people meet said
plainly and naming the field (``seats must be at most 8``, ``the request body is not valid
JSON: …``), never pydantic's or Starlette's own phrases (``Input should be a valid dictionary
or object to extract fields from``, ``0: JSON decode error``, ``Not Found``).

Every refusal a person may read also travels as a code with parameters (:class:`ErrorCode`,
:class:`Refused`), so that a client words it in its own language; the English stays for
programs and logs."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from enum import StrEnum
from http import HTTPStatus
from typing import Any

from fastapi import Request
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from dudo.engine import Reason


class ErrorCode(StrEnum):
    """Every code the server refuses with, over HTTP (``code`` beside ``detail``) and in
    WebSocket error frames; a client words each as ``error.<code>`` with the parameters noted."""

    REFUSED = "refused"  # a refusal without a code of its own
    # Names and table settings.
    NAME_NOT_TEXT = "name_not_text"
    NAME_MISSING = "name_missing"
    NAME_TOO_LONG = "name_too_long"  # count (the most characters)
    NAME_CONTROL = "name_control"
    NAME_TAKEN = "name_taken"  # name
    NAME_OWNED = "name_owned"  # name (a registered player's, and not the one asking)
    UNKNOWN_LEVEL = "unknown_level"  # level
    UNKNOWN_PRESET = "unknown_preset"  # preset
    BAD_OPTIONS = "bad_options"
    BAD_OPTION = "bad_option"  # option (its name, e.g. aces_from)
    SEATS_RANGE = "seats_range"  # least, most
    TOO_MANY_BOTS = "too_many_bots"  # count (bots allowed)
    SEATS_ABOVE_RULES = "seats_above_rules"  # count (players allowed)
    SEATS_BELOW_RULES = "seats_below_rules"  # count (players needed)
    RATED_NEEDS_PUBLIC = "rated_needs_public"
    RATED_NO_HINTS = "rated_no_hints"
    RATED_HOUSE_RULES = "rated_house_rules"  # preset
    RATED_NEEDS_PLAYER = "rated_needs_player"
    RATED_BOT_LEVEL = "rated_bot_level"  # level
    REAL_NO_BOTS = "real_no_bots"
    REAL_NOT_PUBLIC = "real_not_public"
    REAL_NOT_RATED = "real_not_rated"
    REAL_NO_TIMERS = "real_no_timers"
    # The table.
    NO_TABLE = "no_table"  # table (its code)
    NO_FREE_CODE = "no_free_code"
    SEAT_TOKEN_NEEDED = "seat_token_needed"
    HOST_ONLY = "host_only"
    TABLE_BROKEN = "table_broken"
    GAME_STARTED = "game_started"
    BOTS_BETWEEN_GAMES = "bots_between_games"
    TABLE_FULL = "table_full"
    NO_SUCH_SEAT = "no_such_seat"  # seat, last (numbered from 1)
    HOST_SEAT = "host_seat"
    SEAT_OPEN = "seat_open"  # seat (numbered from 1)
    BOT_PLAYS_ON = "bot_plays_on"
    RATED_NO_KICK = "rated_no_kick"
    ALREADY_PLAYING = "already_playing"
    REMATCH_AFTER_GAME = "rematch_after_game"
    RECORD_SAVING = "record_saving"
    NOT_ALL_READY = "not_all_ready"  # names (of those not ready), count
    READY_AFTER_GAME = "ready_after_game"
    LEAVE_DURING_GAME = "leave_during_game"
    TOO_FEW_SEATS = "too_few_seats"  # count (seats needed), filled
    TOO_MANY_PLAYERS = "too_many_players"  # count (players allowed), filled
    BAD_ORDER = "bad_order"  # the seating order the host gave is not the filled seats
    CANNOT_START = "cannot_start"
    CANNOT_RESUME = "cannot_resume"  # a broken table's ``problem_code``
    STORE_DOWN = "store_down"
    NOT_READY = "not_ready"  # /readyz: starting or stopping
    # Several processes: the table is between two of them (a takeover, or its owner is slow).
    TABLE_MOVING = "table_moving"
    REDIS_DOWN = "redis_down"  # /readyz: Redis does not answer
    # Play (WebSocket).
    NO_GAME = "no_game"
    NOT_A_PLAYER = "not_a_player"
    UNKNOWN_ACTION = "unknown_action"  # action
    STALE = "stale"
    ILLEGAL = "illegal"  # with ``reason``
    NOT_YOUR_TURN = "not_your_turn"  # with ``reason``
    STORE_UNAVAILABLE = "store_unavailable"
    NOT_STANDING_IN = "not_standing_in"
    # A real table (the phones are cups).
    NOT_REAL = "not_real"
    CUPS_NOT_ROLLED = "cups_not_rolled"  # names (of the cups still to roll), count
    UNKNOWN_CALL = "unknown_call"  # call
    PLAY_ON_PRESENT = "play_on_present"  # name (whose phone is connected)
    HINTS_OFF = "hints_off"
    SEED_NOT_SEATED = "seed_not_seated"
    SEED_LOCKED = "seed_locked"
    SEED_INVALID = "seed_invalid"
    NOT_OVER = "not_over"
    UNAUTHORIZED = "unauthorized"
    SPECTATORS_FULL = "full"
    BAD_MESSAGE = "bad_message"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"  # count (seconds to wait; not for frames over the rate)
    # Chat (WebSocket; refusals carry ``for: "chat"``).
    CHAT_OFF = "chat_off"
    CHAT_EMPTY = "chat_empty"
    CHAT_CONTROL = "chat_control"
    CHAT_TOO_LONG = "chat_too_long"  # count (the most characters)
    CHAT_RATE = "chat_rate"  # count (seconds to wait)
    CHAT_UNKNOWN_PHRASE = "chat_unknown_phrase"  # phrase
    CHAT_TEXT_OR_PHRASE = "chat_text_or_phrase"
    CHAT_CHARACTER = "chat_character"  # char (the code point refused, "U+202E")
    # Players.
    PLAYER_KEY_NEEDED = "player_key_needed"
    PLAYER_NAME_TAKEN = "player_name_taken"  # name
    NO_PLAYER = "no_player"
    BAD_PLAYER_CODE = "bad_player_code"
    WRONG_LOGIN = "wrong_login"
    PASSWORD_TOO_SHORT = "password_too_short"  # count (the fewest characters)
    PASSWORD_TOO_LONG = "password_too_long"  # count (the most characters)
    OLD_PASSWORD_NEEDED = "old_password_needed"
    WRONG_PASSWORD = "wrong_password"
    PASSWORDS_BUSY = "passwords_busy"  # count (seconds to wait)
    # Finished games, cups and the rest of HTTP.
    NO_FINISHED_GAME = "no_finished_game"  # id
    BAD_LIMIT = "bad_limit"
    BAD_FILTER = "bad_filter"  # name (the query parameter)
    NO_LANGUAGE = "no_language"
    NO_CUP = "no_cup"
    CUP_TOKEN_NEEDED = "cup_token_needed"
    UNKNOWN_CUP_ACTION = "unknown_cup_action"
    CUP_NO_DICE = "cup_no_dice"
    CUP_NO_DIE = "cup_no_die"
    CUP_FULL = "cup_full"  # count (the most dice)
    INVALID_REQUEST = "invalid_request"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    BODY_TOO_LARGE = "body_too_large"
    BODY_TIMEOUT = "body_timeout"
    INTERNAL = "internal"


class Refused(Exception):
    """A request or frame the server refuses, having changed nothing: the English ``message``,
    a :class:`ErrorCode` and parameters for the client's words, the HTTP ``status`` that fits,
    and (for an illegal action) the engine's :class:`~dudo.engine.Reason`."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        status: int = 409,
        reason: Reason | None = None,
        /,
        **params: int | str,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.reason = reason
        self.params = {k: _safe(v) for k, v in params.items()}

    def to_json(self) -> dict[str, Any]:
        """``code``, ``params`` and (when there is one) ``reason``, for an answer or a frame."""
        out: dict[str, Any] = {"code": str(self.code), "params": self.params}
        if self.reason is not None:
            out["reason"] = reason_json(self.reason)
        return out


def _safe(value: int | str) -> int | str:
    # A parameter echoes what was sent: kept short, and without lone surrogates, which no
    # JSON encoder of an answer can write.
    if isinstance(value, str):
        return value[:40].encode("utf-8", "replace").decode("utf-8")
    return value


def reason_json(reason: Reason) -> dict[str, Any]:
    """An engine reason as the client words it: ``{"code", "params"}``."""
    return {"code": str(reason.code), "params": {k: _safe(v) for k, v in reason.params.items()}}


def body_model(request: Request) -> type[BaseModel] | None:
    """The model the route of ``request`` reads its JSON body into (None: no body)."""
    field = getattr(request.scope.get("route"), "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def example_of(model: type[BaseModel] | None) -> str:
    """A body the route accepts, from the model's JSON schema examples."""
    examples = model.model_json_schema().get("examples") if model is not None else None
    return json.dumps(examples[0], ensure_ascii=False) if examples else '{"name": "Ana"}'


def validation_detail(request: Request, errors: Sequence[Mapping[str, Any]]) -> str:
    """Every problem of a request that failed validation, in one line."""
    model = body_model(request)
    problems: list[str] = []
    for error in errors:
        problem = _problem(error, model)
        if problem not in problems:
            problems.append(problem)
    return "; ".join(problems)


def _where(loc: Sequence[Any]) -> str:
    # ("body", "bots", 0) is bots[0]; ("query", "limit") is limit.
    text = ""
    for part in loc[1:] if loc and loc[0] in ("body", "path", "query", "header") else loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _shown(value: Any) -> str:
    # As JSON, with NULs and lone surrogates escaped, so the answer itself stays valid.
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str | bytes):
        return "text"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    return "something else"


def _choices(expected: str) -> str:
    # pydantic's ``'text' or 'json'`` (``1, 2 or 3``) as a plain list: text, json.
    items = expected.replace(" or ", ", ").split(", ")
    return ", ".join(item.strip().strip("'") for item in items if item.strip())


def _problem(error: Mapping[str, Any], model: type[BaseModel] | None) -> str:
    kind = str(error.get("type", ""))
    loc: Sequence[Any] = error.get("loc", ())
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    value = error.get("input")
    field = _where(loc)
    in_body = bool(loc) and loc[0] == "body"
    example = example_of(model)

    if kind == "json_invalid":
        at = f" at character {loc[1]}" if len(loc) > 1 and isinstance(loc[1], int) else ""
        reason = str(ctx.get("error", "it cannot be read")).lower()
        return (
            f"the request body is not valid JSON: {reason}{at}; send a JSON object, e.g. {example}"
        )
    if in_body and not field:  # the body as a whole
        if kind == "missing":
            return f"the request body is empty; send a JSON object, e.g. {example}"
        if isinstance(value, bytes):
            return (
                "the request body must be a JSON object sent with Content-Type: "
                f"application/json, e.g. {example}"
            )
        return f"the request body must be a JSON object, e.g. {example}, not {_kind(value)}"

    given = f", not {_shown(value)}"
    if kind == "missing":
        return f"{field} is missing"
    if kind == "extra_forbidden":
        known = f"; the fields are: {', '.join(model.model_fields)}" if model is not None else ""
        return f"{field} is not a field of this request{known}"
    if kind in ("string_type", "string_sub_type"):
        return f"{field} must be text, not {_kind(value)}"
    if kind == "string_unicode":
        return f"{field} is not valid text (a lone \\ud800-\\udfff escape is not a character)"
    if kind in ("int_type", "int_parsing", "int_from_float", "int_parsing_size"):
        return f"{field} must be a whole number{given}"
    if kind in ("float_type", "float_parsing"):
        return f"{field} must be a number{given}"
    if kind == "finite_number":
        return f"{field} must be a finite number"
    if kind in ("bool_type", "bool_parsing"):
        return f"{field} must be true or false{given}"
    if kind == "list_type":
        return f"{field} must be a list, not {_kind(value)}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"{field} must be a JSON object, not {_kind(value)}"
    if kind in ("literal_error", "enum"):
        return f"{field} must be one of: {_choices(str(ctx.get('expected', '')))}{given}"
    if kind == "string_too_long":
        return f"{field} is too long: at most {ctx.get('max_length')} characters"
    if kind == "string_too_short":
        return f"{field} is too short: at least {ctx.get('min_length')} characters"
    if kind == "too_long":
        return f"{field} has too many items: at most {ctx.get('max_length')}"
    if kind == "too_short":
        return f"{field} has too few items: at least {ctx.get('min_length')}"
    bounds = {
        "greater_than_equal": ("at least", "ge"),
        "greater_than": ("more than", "gt"),
        "less_than_equal": ("at most", "le"),
        "less_than": ("less than", "lt"),
    }
    if kind in bounds:
        words, key = bounds[kind]
        limit = ctx.get(key)
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        return f"{field} must be {words} {limit}"
    # A kind not met so far: pydantic's message, in the same voice as the others.
    message = str(error.get("msg", "is not valid")).replace("Input should be", "must be")
    return f"{field} {message[:1].lower()}{message[1:]}" if field else message


#: FastAPI's answer for a body json.loads could not even fail on cleanly (bad UTF-8, too deep).
_UNREADABLE_BODY = "There was an error parsing the body"


def http_code(request: Request, exc: HTTPException) -> ErrorCode:
    """The code of a framework HTTP error (no route, wrong method, unreadable body)."""
    if exc.detail == _UNREADABLE_BODY:
        return ErrorCode.INVALID_REQUEST
    return {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}.get(
        exc.status_code, ErrorCode.REFUSED
    )


def http_detail(request: Request, exc: HTTPException) -> str:
    """The detail of an HTTP error: the route's own, or for the framework's bare ones (no
    route, wrong method) what was asked and what to do."""
    try:
        bare = exc.detail == HTTPStatus(exc.status_code).phrase
    except ValueError:
        bare = False
    if exc.detail == _UNREADABLE_BODY:
        return (
            "the request body is not valid JSON: it cannot be read (not UTF-8 text, or nested "
            f"too deeply); send a JSON object, e.g. {example_of(body_model(request))}"
        )
    if not bare:
        return str(exc.detail)
    path = request.url.path
    if exc.status_code == 404:
        if path.startswith("/ws/"):
            return f"{path} is the WebSocket for play: connect to it with a WebSocket client"
        if path.startswith("/static/"):
            return f"there is no file {path}"
        return f"there is no page or API route {path}"
    if exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        use = f"; use {allowed}" if allowed else ""
        return f"{request.method} is not allowed on {path}{use}"
    return f"{exc.status_code} {exc.detail}"
