"""
Game records: the versioned JSON format, writing, reading and replaying with every action checked.

The format is documented in ``docs/record-format.md``. In short: a JSON object with
``format`` ("dudo-record"), ``version`` (1), the full rule option set, the seats, the setup
of the game, every chance outcome in the order drawn, every action in the canonical notation,
the result and free-form ``meta`` data.

- :func:`record_of` turns a :class:`~dudo.engine.Game` into record data (a JSON-ready dict),
  :func:`game_record` into a :class:`Record`; :func:`write_record` writes either to a file
  atomically; :func:`dumps_record` gives the canonical text.
- :func:`read_record` reads a file (or text) into a :class:`Record`, checked for form;
  :func:`parse_record` does the same for JSON data already loaded.
- :func:`replay` rebuilds the game from the recorded chance (a
  :class:`~dudo.engine.ScriptedChance` without fallback) and pushes every action, checking
  each; :func:`replay_steps` does it one action at a time. A chance outcome missing or left
  over, or a result other than the replay's, is a :class:`ReplayMismatch` (a RecordError
  with a code and numbers, for messages in other languages).

:class:`JsonChecks` (with :func:`show_value` and :func:`canonical_action`) are the shape
checks of JSON read from outside, shared with the bot protocol; :func:`strict_json` reads
JSON text refusing NaN, huge numbers and repeated keys.

Every problem with a record, whatever the input, raises
:class:`~dudo.engine.errors.RecordError` whose message starts with the first bad entry
(``actions[12]: ...``, ``chance[3]: ...``, ``rules.raise_mode: ...``, ``not JSON: ...``).
"""

from dudo.engine.errors import RecordError
from dudo.engine.setup import Setup  # a record's setup is the engine's value
from dudo.records._checks import JsonChecks, canonical_action, show_value
from dudo.records._model import (
    FORMAT,
    V1_OPTIONS,
    VERSION,
    PlayerInfo,
    PlayerKind,
    Record,
    RecordedAction,
    Result,
    setup_to_dict,
)
from dudo.records._read import (
    loads_record,
    parse_record,
    parse_rules,
    parse_setup,
    read_record,
    strict_json,
)
from dudo.records._replay import Replay, ReplayMismatch, ReplayStep, replay, replay_steps
from dudo.records._write import dumps_record, game_record, record_of, write_record

__all__ = [
    "FORMAT",
    "V1_OPTIONS",
    "VERSION",
    "JsonChecks",
    "PlayerInfo",
    "PlayerKind",
    "Record",
    "RecordError",
    "RecordedAction",
    "Replay",
    "ReplayMismatch",
    "ReplayStep",
    "Result",
    "Setup",
    "canonical_action",
    "dumps_record",
    "game_record",
    "loads_record",
    "parse_record",
    "parse_rules",
    "parse_setup",
    "read_record",
    "record_of",
    "replay",
    "replay_steps",
    "setup_to_dict",
    "show_value",
    "strict_json",
    "write_record",
]
