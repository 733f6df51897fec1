"""The terminal's words: read from the program's one message catalogue, the web client's
``web/i18n/<lang>.json`` (package data), so a code, a refusal or a hand is worded the same
way on both screens.

A key names a message: ``reason.<code>`` (the engine's reasons), ``error.<code>`` (the
server's), ``notation.<code>`` (why typed text is no move), the web client's own keys, and
``terminal.<name>`` for what only the terminal says. :func:`text` takes a key without a
namespace (no dot) as the terminal's own: ``text(lang, "prompt")`` is ``terminal.prompt``.

Placeholders are ``{name}``, filled as the web client's ``i18n.js`` fills them. A message
counted by a number has two forms, ``<key>_one`` and ``<key>_other`` (as in ``i18n.js``),
and may have a ``<key>_none`` for zero ("no te queda ninguno"): :func:`counted`. A key
ending in ``_you`` is the line for the player spoken to (second person), beside the
third-person line about a named player.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from fractions import Fraction
from importlib.resources import files
from types import MappingProxyType

from dudo.odds import format_chance

__all__ = [
    "CATALOGUE",
    "LANGS",
    "chance",
    "counted",
    "decimal",
    "dice",
    "fill",
    "has",
    "key_of",
    "placeholders",
    "template",
    "text",
]

LANGS = ("en", "es", "it")

#: The namespace of the messages only the terminal says.
TERMINAL = "terminal."

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _load(lang: str) -> Mapping[str, str]:
    # Where the web client's files are (package data, read the same from a wheel).
    source = files("dudo").joinpath("web", "i18n", f"{lang}.json")
    loaded: dict[str, str] = json.loads(source.read_text(encoding="utf-8"))
    return MappingProxyType(loaded)


#: Every message of the catalogue, by language and full key.
CATALOGUE: Mapping[str, Mapping[str, str]] = MappingProxyType({lang: _load(lang) for lang in LANGS})


def key_of(key: str) -> str:
    """The catalogue key of ``key``: itself, or ``terminal.<key>`` when it has no namespace."""
    return key if "." in key else TERMINAL + key


def has(key: str) -> bool:
    """Whether the catalogue has a message ``key`` (every language has the same keys)."""
    return key_of(key) in CATALOGUE["en"]


def placeholders(message: str) -> set[str]:
    """The names of the ``{placeholders}`` of a message."""
    return set(_PLACEHOLDER.findall(message))


def fill(message: str, fields: Mapping[str, object]) -> str:
    """``message`` with each ``{name}`` replaced by ``fields[name]``; a placeholder without a
    field stays as it is, as ``i18n.js`` leaves it (a screen shows a gap, never a crash)."""
    return _PLACEHOLDER.sub(lambda m: str(fields[m[1]]) if m[1] in fields else m[0], message)


def template(lang: str, key: str) -> str:
    """Message ``key`` in ``lang`` (English if the language is unknown), unfilled."""
    return CATALOGUE.get(lang, CATALOGUE["en"])[key_of(key)]


def text(lang: str, key: str, /, **fields: object) -> str:
    """Message ``key`` in ``lang`` (English if the language is unknown), fields filled in."""
    return fill(template(lang, key), fields)


def counted(lang: str, key: str, count: int, /, **fields: object) -> str:
    """Message ``key_one`` or ``key_other`` for ``count``, the count filled in: the word
    after a number agrees with it ("1 dado conocido", "5 dados conocidos"). A key with a
    ``key_none`` form uses it for zero ("no te queda ninguno")."""
    form = "one" if count == 1 else "other"
    if count == 0 and has(f"{key}_none"):
        form = "none"
    return fill(template(lang, f"{key}_{form}"), {**fields, "count": count})


def dice(lang: str, count: int) -> str:
    """``"1 die"``, ``"2 dice"``; ``"1 dado"``, ``"2 dadi"``."""
    return counted(lang, "game.dice_count", count)


def decimal(lang: str, value: Fraction | float, places: int = 1) -> str:
    """``value`` with ``places`` decimals and the language's decimal mark: ``3.5``, ``3,5``."""
    return f"{float(value):.{places}f}".replace(".", text(lang, "decimal_mark"))


def chance(lang: str, value: Fraction | float) -> str:
    """A chance as a percentage (:func:`dudo.odds.format_chance`) with the language's decimal
    mark: ``43.2%``, ``43,2%``."""
    return format_chance(value).replace(".", text(lang, "decimal_mark"))
