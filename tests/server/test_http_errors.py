"""Every bad HTTP request gets a 4xx answer that says what was wrong in plain words, never a
500 and never the framework's own phrases: for every API route, bodies that are not JSON or
not an object, wrong content types, wrong types and sizes of every field, huge and negative
numbers, NULs and lone surrogates (escaped in JSON, encoded in paths), odd tokens. Run against a
real server on SQLite and on PostgreSQL (which refuses NULs in text and has 32-bit ids); the
server's log must hold no traceback afterwards."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ValidationError
from starlette.requests import Request

from dudo.server.errors import ErrorCode, validation_detail

from .conftest import LiveServer, api, bearer, create_database, new_table

#: Words of pydantic, FastAPI and Starlette that must never reach a user.
#: The codes a refusal may carry (``code`` beside ``detail``).
CODES = {str(code) for code in ErrorCode}

JARGON = (
    "Input should",
    "JSON decode error",
    "Traceback",
    "Field required",
    "Extra inputs",
    "There was an error",
    "Not Found",
    "Method Not Allowed",
    "Internal Server Error",
    "model_attributes_type",
    "value_error",
)
JSON = {"Content-Type": "application/json"}
HUGE = "99999999999999999999"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """A server of this module's own, so its log holds only these requests."""
    url = None
    if request.param == "postgresql":
        base: str = request.getfixturevalue("postgres_url")
        create_database(base.rsplit("/", 1)[0] + "/postgres", "dudo_http_errors")
        url = base.rsplit("/", 1)[0] + "/dudo_http_errors"
    live = LiveServer(tmp_path_factory.mktemp(f"http-errors-{request.param}"), url)
    live.start()
    yield live
    live.kill()


@dataclass
class Probe:
    """One bad request and the words its answer must hold."""

    method: str
    path: str
    words: tuple[str, ...] = ()
    content: str | bytes | None = None
    headers: dict[str, Any] = field(default_factory=dict)
    status: tuple[int, ...] = (400, 401, 404, 409, 413, 422)


def check(server: LiveServer, probes: list[Probe]) -> None:
    """Send every probe (each on a new connection: an error must not spoil the next), then
    fail listing every answer that was not a clear 4xx, and any traceback in the log."""
    problems = []
    for probe in probes:
        with api(server) as http:
            response = http.request(
                probe.method, probe.path, content=probe.content, headers=probe.headers
            )
        what = f"{probe.method} {probe.path[:80]} {probe.content!r:.80}"
        try:
            body = response.json()
        except ValueError:
            problems.append(f"{what}: {response.status_code}, not JSON: {response.text[:200]}")
            continue
        detail = body.get("detail") if isinstance(body, dict) else None
        if response.status_code not in probe.status:
            problems.append(f"{what}: status {response.status_code} ({detail!r})")
        elif not isinstance(detail, str) or len(detail) < 10:
            problems.append(f"{what}: no readable detail: {response.text[:200]}")
        elif any(word in detail for word in JARGON):
            problems.append(f"{what}: jargon in {detail!r}")
        elif missing := [w for w in probe.words if w not in detail]:
            problems.append(f"{what}: {missing} not in {detail!r}")
        elif body.get("code") not in CODES or not isinstance(body.get("params"), dict):
            # Without a code, a page in Spanish or Italian could only show the English.
            problems.append(f"{what}: no error code and params: {response.text[:200]}")
    log = "\n".join(
        path.read_text(errors="replace") for path in sorted(server.workdir.glob("server-*.log"))
    )
    if "Traceback" in log:
        problems.append("the server log has a traceback:\n" + log[log.index("Traceback") :][:3000])
    assert not problems, f"{len(problems)} of {len(probes)} answers:\n" + "\n".join(problems)


@pytest.fixture
def table(server: LiveServer) -> tuple[str, dict[str, str]]:
    """A table of the server in the lobby, and its host's Authorization header."""
    created = new_table(server, seats=4)
    return created["code"], bearer(created["token"])


# Bodies that are not a JSON object, for every route that reads one, and a word of the answer.
NOT_AN_OBJECT: list[tuple[str | bytes, str]] = [
    ("{", "not valid JSON"),
    ("hello", "not valid JSON"),
    ('{"name": "Ana",', "not valid JSON"),
    ('{"name": "Ana"} trailing', "not valid JSON"),
    ("[" * 6000 + "]" * 6000, "not valid JSON"),  # nested deeper than the parser goes
    (b'{"name": "\xff\xfe"}', "not valid JSON"),  # not UTF-8
    ("[1, 2]", "must be a JSON object"),
    ('"Ana"', "must be a JSON object"),
    ("42", "must be a JSON object"),
    ("null", "must be a JSON object"),
    ("true", "must be a JSON object"),
    ("", "empty"),
]
OTHER_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; b=x"]


def body_probes(path: str, example: str, headers: dict[str, str]) -> list[Probe]:
    probes = [
        Probe("POST", path, (word, "e.g. {"), content, {**JSON, **headers})
        for content, word in NOT_AN_OBJECT
    ]
    probes += [
        Probe(
            "POST",
            path,
            ("Content-Type: application/json",),
            example,
            {"Content-Type": t, **headers},
        )
        for t in OTHER_TYPES
    ]
    return probes


def test_create_table_bodies(server: LiveServer) -> None:
    fields = [
        ('"name": 5', ("name", "text")),
        ('"name": ["Ana"]', ("name", "text")),
        ('"name": null', ("name",)),
        ('"name": "\\ud800"', ("name", "not valid text")),
        ('"name": "Ana\\udc00"', ("name", "not valid text")),
        ('"name": "A\\u0000na"', ("name", "control")),
        ('"name": "' + "x" * 300 + '"', ("name", "200")),
        ('"name": "Ana", "preset": "\\ud800"', ("preset",)),
        ('"name": "Ana", "preset": "dudo\\u0000"', ("preset",)),
        ('"name": "Ana", "preset": "' + "p" * 100 + '"', ("preset", "40")),
        ('"name": "Ana", "seats": 1e400', ("seats",)),
        ('"name": "Ana", "seats": ' + HUGE, ("seats", "at most 8")),
        ('"name": "Ana", "seats": -' + HUGE, ("seats", "at least 2")),
        ('"name": "Ana", "seats": "four"', ("seats", "whole number")),
        ('"name": "Ana", "seats": 2.5', ("seats", "whole number")),
        ('"name": "Ana", "turn_seconds": ' + HUGE, ("turn_seconds", "at most 3600")),
        ('"name": "Ana", "turn_seconds": -1', ("turn_seconds", "at least 0")),
        ('"name": "Ana", "grace_seconds": "soon"', ("grace_seconds", "whole number")),
        ('"name": "Ana", "grace_seconds": -' + HUGE, ("grace_seconds",)),
        ('"name": "Ana", "bot_seconds": NaN', ("bot_seconds", "finite")),
        ('"name": "Ana", "bot_seconds": Infinity', ("bot_seconds", "finite")),
        ('"name": "Ana", "bot_seconds": -1e400', ("bot_seconds", "finite")),
        ('"name": "Ana", "bot_seconds": 11', ("bot_seconds", "at most 10")),
        ('"name": "Ana", "bots": "easy"', ("bots", "list")),
        ('"name": "Ana", "bots": [1]', ("bots[0]", "text")),
        ('"name": "Ana", "bots": ["\\ud800"]', ("bot level",)),
        ('"name": "Ana", "bots": ["easy\\u0000"]', ("easy",)),
        (
            '"name": "Ana", "bots": ' + '["easy","easy","easy","easy","easy","easy","easy","easy"]',
            ("bots", "at most 7"),
        ),
        ('"name": "Ana", "options": ["spot_on"]', ("options", "JSON object")),
        ('"name": "Ana", "options": {"\\ud800": 1}', ("options",)),
        ('"name": "Ana", "options": {"dice_per_player": 1e400}', ("dice_per_player",)),
        ('"name": "Ana", "options": {"dice_per_player": ' + HUGE + "}", ("dice_per_player",)),
        ('"name": "Ana", "options": {"dice_per_player": -' + HUGE + "}", ("dice_per_player",)),
        ('"name": "Ana", "options": {"aces_wild": "\\u0000"}', ("aces_wild",)),
        ('"name": "Ana", "options": {"raise_mode": "\\udfff"}', ("raise_mode",)),
        ('"name": "Ana", "options": {"aces_wild": {"a": [[[1]]]}}', ("aces_wild",)),
        ('"name": "Ana", "color": "red"', ("color", "not a field", "seats")),
        ("", ("name", "missing")),
    ]
    probes = [
        Probe("POST", "/api/tables", words, "{" + inner + "}", JSON) for inner, words in fields
    ]
    probes += body_probes("/api/tables", '{"name": "Ana"}', {})
    check(server, probes)


def test_join_and_bot_bodies(server: LiveServer, table: tuple[str, dict[str, str]]) -> None:
    code, host = table
    join, bots = f"/api/tables/{code}/join", f"/api/tables/{code}/bots"
    probes = [
        Probe("POST", join, ("name", "text"), '{"name": 5}', JSON),
        Probe("POST", join, ("name", "not valid text"), '{"name": "\\ud800"}', JSON),
        Probe("POST", join, ("name", "control"), '{"name": "B\\u0000o"}', JSON),
        Probe("POST", join, ("name", "200"), '{"name": "' + "y" * 500 + '"}', JSON),
        Probe("POST", join, ("name", "missing"), "{}", JSON),
        Probe("POST", join, ("seat", "not a field", "name"), '{"name": "Bo", "seat": 0}', JSON),
        Probe("POST", bots, ("level", "text"), '{"level": 1}', {**JSON, **host}),
        Probe("POST", bots, ("level",), '{"level": "\\udfff"}', {**JSON, **host}),
        Probe("POST", bots, ("level",), '{"level": "easy\\u0000"}', {**JSON, **host}),
        Probe("POST", bots, ("level", "40"), '{"level": "' + "z" * 99 + '"}', {**JSON, **host}),
        Probe("POST", bots, ("x", "not a field", "level"), '{"x": 1}', {**JSON, **host}),
    ]
    probes += body_probes(join, '{"name": "Bo"}', {})
    probes += body_probes(bots, '{"level": "easy"}', host)
    check(server, probes)


IDS = [HUGE, f"-{HUGE}", str(2**63), str(2**31), "-1", "0", "-0"]
NOT_IDS = ["abc", "1.5", "1e3", "%00", "%ED%A0%80", "%F0%9F%8E%B2", "0x10", "--1"]


def test_numbers_in_paths_and_queries(
    server: LiveServer, table: tuple[str, dict[str, str]]
) -> None:
    code, host = table
    probes = []
    for game in IDS:
        probes += [
            Probe("GET", f"/api/games/{game}/record", ("there is no finished game",)),
            Probe("GET", f"/api/games/{game}/replay", ("there is no finished game",)),
            Probe("GET", f"/games/{game}", ("there is no finished game",)),
        ]
    for game in NOT_IDS:
        probes += [
            Probe("GET", f"/api/games/{game}/record", ("game_id", "whole number")),
            Probe("GET", f"/games/{game}", ("game_id", "whole number")),
        ]
    for seat in [*IDS, "4", "1"]:  # seat 1 is open: nothing to remove
        probes.append(Probe("DELETE", f"/api/tables/{code}/seats/{seat}", ("seat",), headers=host))
    for seat in NOT_IDS:
        probes.append(
            Probe("DELETE", f"/api/tables/{code}/seats/{seat}", ("seat", "whole"), headers=host)
        )
    for limit in [*IDS, "201", "x", "", "1.5", "%00"]:
        probes.append(Probe("GET", f"/api/games?limit={limit}", ("limit",)))
    check(server, probes)


def test_odd_names_codes_and_tokens(server: LiveServer, table: tuple[str, dict[str, str]]) -> None:
    code, host = table
    with api(server) as http:
        cup = http.post("/api/cups").json()
    odd = ["%00", "%ED%A0%80", "%C0%80", "x" * 2000, "%20", "%F0%9F%8E%B2"]
    probes = []
    for name in odd:
        probes += [
            Probe("GET", f"/api/tables/{name}", ("there is no table",)),
            Probe(
                "POST", f"/api/tables/{name}/join", ("there is no table",), '{"name": "Bo"}', JSON
            ),
            Probe("POST", f"/api/tables/{name}/start", ("there is no table",), headers=host),
            Probe("GET", f"/api/cups/{name}", ("there is no cup",), headers=bearer(cup["token"])),
            Probe("POST", f"/api/cups/{name}/roll", ("there is no cup",), headers=bearer("t")),
            Probe(
                "POST",
                f"/api/cups/{cup['id']}/{name}",
                ("cup action",),
                headers=bearer(cup["token"]),
            ),
            Probe("GET", f"/api/i18n/{name}", ("not available",)),
        ]
    tokens: list[dict[str, Any]] = [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Basic YWxhZGRpbjpvcGVuc2VzYW1l"},
        {"Authorization": b"Bearer \xff\xfe\xfd"},
        {"Authorization": "Bearer " + "t" * 4000},
    ]
    for headers in tokens:
        probes += [
            Probe("POST", f"/api/tables/{code}/start", ("token",), headers=headers),
            Probe("DELETE", f"/api/tables/{code}/seats/1", ("token",), headers=headers),
            Probe("GET", f"/api/cups/{cup['id']}", ("token",), headers=headers),
            Probe("POST", f"/api/cups/{cup['id']}/roll", ("token",), headers=headers),
        ]
    probes += [
        Probe("GET", "/no/such/page", ("/no/such/page",)),
        Probe("GET", "/api/tables/..%2F..%2Fetc", ("there is no page or API route",)),
        Probe("GET", "/static/no-such.js", ("no-such.js",)),
        Probe("GET", f"/ws/{code}", ("WebSocket",), status=(404,)),
        Probe("PUT", "/api/tables", ("PUT", "POST"), status=(405,)),
        Probe("DELETE", f"/api/tables/{code}", ("DELETE", "GET"), headers=host, status=(405,)),
        Probe("POST", "/api/tables", ("16384",), '{"name": "' + "x" * 20_000 + '"}', JSON),
    ]
    check(server, probes)


def test_the_answers_for_bad_bodies_name_the_route_s_example(server: LiveServer) -> None:
    code = new_table(server)["code"]
    with api(server) as http:
        listed = http.post("/api/tables", content="[]", headers=JSON).json()["detail"]
        joined = http.post(f"/api/tables/{code}/join", content="[]", headers=JSON).json()["detail"]
        broken = http.post("/api/tables", content="{", headers=JSON).json()["detail"]
    assert re.fullmatch(
        r"the request body must be a JSON object, e\.g\. \{.*\}, not a list", listed
    )
    assert '{"name": "Bo"}' in joined, joined
    assert broken.startswith("the request body is not valid JSON: "), broken


class _Format(Enum):
    TEXT = "text"
    JSON = "json"


class _Choosy(BaseModel):
    format: Literal["text", "json"]
    seats: Literal[2, 3, 4] = 2
    kind: _Format = _Format.TEXT


def test_a_value_outside_a_fixed_set_names_the_allowed_values() -> None:
    """A field of a fixed set of values (a Literal or an Enum) is refused naming the values in
    plain words, never pydantic's phrase or a Python type's name. No route has one today (no
    enum in /openapi.json); this holds the wording for the first that does."""
    with pytest.raises(ValidationError) as refused:
        _Choosy.model_validate({"format": "xml", "seats": 9, "kind": "yaml"})
    request = Request({"type": "http", "method": "POST", "path": "/", "headers": []})
    detail = validation_detail(request, refused.value.errors())
    assert detail == (
        'format must be one of: text, json, not "xml"; seats must be one of: 2, 3, 4, not 9; '
        'kind must be one of: text, json, not "yaml"'
    ), detail
    for word in (*JARGON, "Literal", "_Format", "'"):
        assert word not in detail, (word, detail)
