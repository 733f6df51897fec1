"""Writing records: from a :class:`Game` to the JSON format, and atomically to a file."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dudo.engine.actions import CALL, Call
from dudo.engine.errors import RecordError
from dudo.engine.game import Game
from dudo.records._model import (
    PLAYER_KINDS,
    PlayerInfo,
    Record,
    RecordedAction,
    Result,
    default_players,
)


def _check_players(players: Sequence[PlayerInfo], count: int) -> tuple[PlayerInfo, ...]:
    if len(players) != count:
        raise RecordError(f"players: {len(players)} given for a game of {count} players")
    for i, info in enumerate(players):
        if not isinstance(info, PlayerInfo):
            raise RecordError(f"players[{i}]: {info!r} is not a PlayerInfo")
        if not isinstance(info.name, str) or info.kind not in PLAYER_KINDS:
            raise RecordError(f"players[{i}]: {info!r} needs a name and kind human or bot")
        if info.bot is not None and (info.kind != "bot" or not isinstance(info.bot, str)):
            raise RecordError(f"players[{i}]: only a bot names a bot ({info!r})")
    return tuple(players)


def _check_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    data = dict(meta)
    for key in data:
        if not isinstance(key, str):
            raise RecordError(f"meta: key {key!r} is not text")
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"meta: not JSON data: {exc}") from None
    checked: dict[str, Any] = json.loads(text)
    return checked


def game_record(
    game: Game,
    players: Sequence[PlayerInfo] | None = None,
    meta: Mapping[str, Any] | None = None,
    *,
    preset: str | None = None,
) -> Record:
    """The :class:`Record` of ``game`` as played so far (finished or not)."""
    if not isinstance(game, Game):
        raise RecordError(f"{game!r} is not a Game")
    infos = (
        default_players(game.players) if players is None else _check_players(players, game.players)
    )
    extra = dict(meta or {})
    if preset is None and isinstance(extra.get("preset"), str):
        preset = extra.pop("preset")  # the top-level field, not a duplicate in meta
    if preset is not None and not isinstance(preset, str):
        raise RecordError(f"preset: {preset!r} is not text")
    return Record(
        rules=game.rules,
        players=infos,
        setup=game.setup,
        chance=tuple(game.chance_log),
        actions=tuple(
            RecordedAction(p, CALL if isinstance(a, Call) else a) for p, a in game.history
        ),
        result=Result(game.winner, game.round_number) if game.winner is not None else None,
        meta=_check_meta(extra),
        preset=preset,
    )


def record_of(
    game: Game,
    players: Sequence[PlayerInfo] | None = None,
    meta: Mapping[str, Any] | None = None,
    *,
    preset: str | None = None,
) -> dict[str, Any]:
    """The record of ``game`` as JSON-ready data (see docs/record-format.md).

    ``players`` names the seats (default "Player 1", "Player 2", ...); ``meta`` is free-form
    JSON data kept with the record; ``preset`` (or a text ``"preset"`` entry of ``meta``,
    moved to the top level) names the preset the table started from, for display: the
    record always holds the full option set.
    """
    return game_record(game, players, meta, preset=preset).to_dict()


# --------------------------------------------------------------------------- JSON text

# Keys whose value is written one item per line; everything else is written on one line.
_ONE_PER_LINE = frozenset({"rules", "players", "chance", "actions", "meta"})


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def dumps_record(data: Mapping[str, Any]) -> str:
    """Record data as the canonical text: one line per rule option, player, chance
    outcome and action, so that records read well and diff well. Ends with a newline."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        head = f"  {_compact(key)}: "
        if key in _ONE_PER_LINE and isinstance(value, dict) and value:
            inner = [f"    {_compact(k)}: {_compact(v)}" for k, v in value.items()]
            lines.append(head + "{")
            lines.append(",\n".join(inner))
            lines.append("  }" + comma)
        elif key in _ONE_PER_LINE and isinstance(value, list) and value:
            lines.append(head + "[")
            lines.append(",\n".join(f"    {_compact(v)}" for v in value))
            lines.append("  ]" + comma)
        else:
            lines.append(head + _compact(value) + comma)
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_record(
    game: Game | Record,
    path: str | os.PathLike[str],
    players: Sequence[PlayerInfo] | None = None,
    meta: Mapping[str, Any] | None = None,
    *,
    preset: str | None = None,
) -> Path:
    """Write the record of ``game`` (or a :class:`Record`) to ``path`` and return the path.

    The file is replaced atomically: a reader sees the old file or the new one, never a part.
    Problems (an unwritable place, meta that is not JSON data) raise :class:`RecordError`.
    """
    if isinstance(game, Record):
        if players is not None or meta is not None or preset is not None:
            raise RecordError("players, meta and preset go with a Game, not a Record")
        data = game.to_dict()
        data["meta"] = _check_meta(game.meta)
    else:
        data = record_of(game, players, meta, preset=preset)
    text = dumps_record(data)
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", text=True
        )
    except OSError as exc:
        raise RecordError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp makes the file private; a record is an ordinary document.
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise RecordError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
