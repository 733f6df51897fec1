"""Reading records: JSON text to a checked :class:`Record`, with errors naming the entry."""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

from dudo.engine.actions import Action, Call, Spoken
from dudo.engine.chance import ChanceOutcome
from dudo.engine.errors import RecordError, RulesError
from dudo.engine.rules import OPTION_NAMES, OPTIONS, PassHand, Rules, from_mapping
from dudo.engine.setup import Setup
from dudo.records._checks import JsonChecks, show_value
from dudo.records._model import (
    FORMAT,
    PLAYER_KINDS,
    V1_OPTIONS,
    VERSION,
    PlayerInfo,
    PlayerKind,
    Record,
    RecordedAction,
    Result,
)

_FIELDS: tuple[str, ...] = ("format", "version", "preset", "rules", "players", "setup")
_FIELDS += ("chance", "actions", "result", "meta")
_OPTIONAL_FIELDS = frozenset({"preset"})
_DEFAULT_RULES = Rules()


_checks = JsonChecks(RecordError)
_fail = _checks.fail
_object = _checks.mapping
_list = _checks.items
_int = _checks.integer
_text = _checks.text
_keys = _checks.keys
_player = _checks.player


# ------------------------------------------------------------------------------ rules


def _option(name: str, value: Any) -> Any:
    """Check the JSON type (and, for named values, the value) of one rule option."""
    path = f"rules.{name}"
    option = OPTIONS[name]
    expected = option.describe()
    if option.kind is bool:
        if not isinstance(value, bool):
            _fail(path, f"{show_value(value)} is not true or false")
    elif option.is_enum:
        if not isinstance(value, str) or value not in option.names:
            _fail(path, f"{show_value(value)} is not valid; use {expected}")
    elif option.kind is frozenset:
        items = _list(value, path)
        seen: set[str] = set()
        for i, item in enumerate(items):
            if not isinstance(item, str) or item not in {str(h) for h in PassHand}:
                _fail(f"{path}[{i}]", f"{show_value(item)} is not a pass hand; use {expected}")
            if item in seen:
                _fail(f"{path}[{i}]", f"{item!r} is listed twice")
            seen.add(item)
    elif option.none_ok:
        if value is not None:
            _int(value, path, "a whole number or null")
    else:
        _int(value, path)
    return value


def _rules_message(message: str) -> str:
    """A RulesError message ("faces: 9 is outside 2..6") as a record error path."""
    m = re.match(r"(\w+)(:\s*|=)", message)
    if m and m.group(1) in OPTION_NAMES:
        name = m.group(1)
        rest = message[m.end() :] if m.group(2) != "=" else message
        return f"rules.{name}: {rest}"
    return f"rules: {message}"


def parse_rules(value: Any) -> Rules:
    obj = _object(value, "rules")
    options: dict[str, Any] = {}
    for key, item in obj.items():
        if key not in OPTION_NAMES:
            _fail(f"rules.{key}", "unknown option")
        options[key] = _option(key, item)
    for name in V1_OPTIONS:
        if name not in obj:
            _fail(f"rules.{name}", "missing (a record holds every rule option)")
    try:
        return from_mapping(options, base=_DEFAULT_RULES)
    except RulesError as exc:
        raise RecordError(_rules_message(str(exc))) from None


# -------------------------------------------------------------------- the other parts


def _players(value: Any, rules: Rules) -> tuple[PlayerInfo, ...]:
    items = _list(value, "players")
    n = len(items)
    if n < rules.min_players:
        _fail("players", f"{n} players; these rules need at least {rules.min_players}")
    if rules.max_players is not None and n > rules.max_players:
        _fail("players", f"{n} players; these rules allow at most {rules.max_players}")
    out: list[PlayerInfo] = []
    for i, item in enumerate(items):
        path = f"players[{i}]"
        obj = _object(item, path, '{"name": "Ana", "kind": "human"}')
        _keys(obj, path, ("name", "kind", "bot"), ("name", "kind"))
        name = _text(obj["name"], f"{path}.name")
        kind = obj["kind"]
        if kind not in PLAYER_KINDS:
            _fail(f"{path}.kind", f"{show_value(kind)} is not human or bot")
        bot: str | None = None
        if "bot" in obj:
            if kind != "bot":
                _fail(f"{path}.bot", "only a bot player names a bot")
            bot = _text(obj["bot"], f"{path}.bot")
        player_kind: PlayerKind = "bot" if kind == "bot" else "human"
        out.append(PlayerInfo(name, player_kind, bot))
    return tuple(out)


def _int_list(value: Any, path: str, what: str) -> tuple[int, ...]:
    return tuple(_int(v, f"{path}[{i}]", what) for i, v in enumerate(_list(value, path)))


def _is_order(values: tuple[int, ...], players: int) -> bool:
    return sorted(values) == list(range(players))


def parse_setup(value: Any, rules: Rules, players: int) -> Setup:
    """A record's ``setup`` object (as :func:`setup_to_dict` writes it) for ``players``
    players under ``rules``, checked; raises :class:`RecordError` naming what is wrong."""
    return _setup(value, rules, players)


def _setup(value: Any, rules: Rules, n: int) -> Setup:
    """The record's ``setup`` object (JSON shapes checked here), checked by the engine's
    :meth:`Setup.problem <dudo.engine.setup.Setup.problem>` like any game's setup."""
    obj = _object(value, "setup")
    _keys(obj, "setup", ("order", "dice", "start_total", "obliged", "obliger", "spoken"), ())
    order = dice = start_total = obliger = None
    obliged: tuple[int, ...] = ()
    if "order" in obj:
        order = _int_list(obj["order"], "setup.order", "a player number")
    if "dice" in obj:
        dice = _int_list(obj["dice"], "setup.dice", "a number of dice")
    if "start_total" in obj:
        start_total = _int(obj["start_total"], "setup.start_total")
    if "obliged" in obj:
        obliged = _int_list(obj["obliged"], "setup.obliged", "a player number")
        if len(set(obliged)) != len(obliged):  # a set, written as a list
            _fail("setup.obliged", f"{list(obliged)} names a player twice")
    if "obliger" in obj:
        obliger = _int(obj["obliger"], "setup.obliger", "a player number")
    spoken = obj.get("spoken", False)
    if type(spoken) is not bool:
        _fail("setup.spoken", f"{show_value(spoken)} is not true or false")
    setup = Setup(n, order, dice, start_total, frozenset(obliged), obliger, spoken)
    problem = setup.problem(rules)
    if problem is not None:
        _fail(setup_path(problem[0]), problem[1])
    return setup


def setup_path(field: str) -> str:
    """Where a field of :meth:`Setup.problem` is in a record (the player count is the
    length of ``players``)."""
    return field if field == "players" else f"setup.{field}"


def _chance(value: Any, rules: Rules, n: int) -> tuple[ChanceOutcome, ...]:
    out: list[ChanceOutcome] = []
    for i, item in enumerate(_list(value, "chance")):
        path = f"chance[{i}]"
        obj = _object(item, path, '{"roll": [3, 5]} or {"order": [1, 0]}')
        if len(obj) != 1 or next(iter(obj)) not in ("roll", "order"):
            keys = ", ".join(repr(k) for k in obj) or "no key"
            _fail(
                path, f'holds {keys}; a chance outcome is {{"roll": [...]}} or {{"order": [...]}}'
            )
        if "roll" in obj:
            values = _int_list(obj["roll"], f"{path}.roll", "a die value")
            if not values:
                _fail(f"{path}.roll", "a roll of no dice")
            for j, v in enumerate(values):
                if not 1 <= v <= rules.faces:
                    _fail(f"{path}.roll[{j}]", f"{v} is not a face 1..{rules.faces}")
            out.append(ChanceOutcome("roll", values))
        else:
            values = _int_list(obj["order"], f"{path}.order", "a player number")
            if not _is_order(values, n):
                _fail(f"{path}.order", f"{list(values)} is not an order of players 0..{n - 1}")
            out.append(ChanceOutcome("order", values))
    return tuple(out)


def parse_action_text(text: Any, path: str, faces: int) -> Action:
    """One canonical action (``5x3``, ``call``, ``5x3 reveal 3,3``...); a call reads as Call()."""
    return _checks.action(text, path, faces, "record")


def _actions(value: Any, rules: Rules, n: int) -> tuple[RecordedAction, ...]:
    out: list[RecordedAction] = []
    for i, item in enumerate(_list(value, "actions")):
        path = f"actions[{i}]"
        obj = _object(item, path, '{"player": 0, "action": "5x3"}')
        _keys(obj, path, ("player", "action"), ("player", "action"))
        player = _player(obj["player"], f"{path}.player", n)
        action = parse_action_text(obj["action"], f"{path}.action", rules.faces)
        if isinstance(action, Call):
            action = Call()
        elif isinstance(action, Spoken):  # the record's player is whose bid it was
            action = Spoken(action.bid, player, action.passed)
        out.append(RecordedAction(player, action))
    return tuple(out)


def _result(value: Any, n: int) -> Result | None:
    if value is None:
        return None
    obj = _object(value, "result", '{"winner": 0, "rounds": 9} or null')
    _keys(obj, "result", ("winner", "rounds"), ("winner", "rounds"))
    winner = _player(obj["winner"], "result.winner", n)
    rounds = _int(obj["rounds"], "result.rounds")
    if rounds < 1:
        _fail("result.rounds", f"{rounds} is not a number of rounds played")
    return Result(winner, rounds)


def parse_record(data: Any) -> Record:
    """A :class:`Record` from JSON data (as :func:`json.loads` gives it), checked for form:
    every field present and of the right type, rules valid, actions in the record notation.
    Whether the actions are legal is checked by replaying (:func:`dudo.records.replay`)."""
    if not isinstance(data, dict):
        raise RecordError(f"not a record: the top level is {show_value(data)}, not an object")
    if "format" not in data:
        _fail("format", f"missing: this is not a {FORMAT} file")
    if data["format"] != FORMAT:
        _fail(
            "format", f"{show_value(data['format'])} is not {FORMAT!r}: this is not a {FORMAT} file"
        )
    if "version" not in data:
        _fail("version", "missing")
    version = _int(data["version"], "version", "a version number")
    if version != VERSION:
        raise RecordError(
            f"version {version} is not supported (this program reads version {VERSION})"
        )
    required = tuple(f for f in _FIELDS if f not in _OPTIONAL_FIELDS)
    _keys(data, "", _FIELDS, required)
    preset = None if "preset" not in data else _text(data["preset"], "preset")
    rules = parse_rules(data["rules"])
    players = _players(data["players"], rules)
    n = len(players)
    return Record(
        rules=rules,
        players=players,
        setup=_setup(data["setup"], rules, n),
        chance=_chance(data["chance"], rules, n),
        actions=_actions(data["actions"], rules, n),
        result=_result(data["result"], n),
        meta=dict(_object(data["meta"], "meta")),
        preset=preset,
        version=version,
    )


# --------------------------------------------------------------------------- JSON text


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def strict_json(text: str) -> Any:
    """JSON text as Python data, refusing what JSON forbids but ``json`` lets through: NaN
    and infinities, numbers too large for a float, and a key twice in one object."""
    return json.loads(
        text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_no_duplicates
    )


def loads_record(text: str | bytes) -> Record:
    """A :class:`Record` from the JSON text of a record."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    if not isinstance(text, str):
        raise RecordError(f"{type(text).__name__} is not the text of a record")
    try:
        data = strict_json(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise RecordError("not JSON this program can read: nested too deeply") from None
    except ValueError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    return parse_record(data)


def read_record(source: str | bytes | os.PathLike[str]) -> Record:
    """Read and check a record from a file path, or from its text.

    A :class:`~pathlib.Path` (any path-like) or a string not starting with ``{`` is a file
    to read; ``bytes`` or a string starting with ``{`` is the record's JSON text. Every
    problem raises :class:`RecordError`.
    """
    if isinstance(source, bytes | bytearray):
        return loads_record(source)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return loads_record(source)
    if not isinstance(source, str | os.PathLike):
        raise RecordError(f"{source!r} is not a file name or the text of a record")
    path = Path(source)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # e.g. a NUL character in the name
        raise RecordError(f"cannot read {str(path)!r}: {exc}") from None
    return loads_record(data)
