"""How the server words a refused HTTP request: each kind of validation error people meet said
plainly and naming the field (``seats must be at most 8``, ``the request body is not valid
JSON: …``), never pydantic's or Starlette's own phrases (``Input should be a valid dictionary
or object to extract fields from``, ``0: JSON decode error``, ``Not Found``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import Request
from pydantic import BaseModel
from starlette.exceptions import HTTPException


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
