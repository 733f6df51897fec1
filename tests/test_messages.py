"""One message catalogue for everything the program says to a person: the web client's
``web/i18n/<lang>.json``, which the terminal reads too (:mod:`dudo.terminal.texts`).

Every code of the engine (``ReasonCode``, ``NotationCode``) and of the server (``ErrorCode``)
has words in every language; every key is in every language with the same placeholders; and
neither screen words anything outside the catalogue: every key the terminal or the web client
asks for exists, and the terminal's screens hold no sentence of their own. (That a page in
Spanish or Italian shows no English is checked in a real browser by
``tests/server/test_language_scan.py``.)
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from dudo.cup import CupCode
from dudo.engine.errors import NotationCode, ReasonCode
from dudo.engine.rules import Direction, ObligeFaceChange, PassHand
from dudo.server.errors import ErrorCode
from dudo.terminal.texts import CATALOGUE, LANGS, has, key_of, placeholders

SRC = Path(__file__).resolve().parents[1] / "src" / "dudo"
TERMINAL = SRC / "terminal"
WEB = SRC / "web"

#: The terminal's screens: every module that says something to a person. (``solve``,
#: ``verify`` and ``exploit`` are the solver's tools for developers, in English.)
SCREENS = (
    "commands",
    "cup_screen",
    "narration",
    "odds_screen",
    "panels",
    "play",
    "replay",
    "review",
    "screen",
    "texts",
)

#: Keys whose placeholders differ between languages on purpose: Spanish and Italian quote the
#: call word the server gives ({word}) where English says "Dudo!"; Spanish says "the next
#: minute" where the others count one.
PLACEHOLDERS_DIFFER = frozenset(
    {
        "ev.called",
        "ev.called_out",
        "ev.pass_doubted",
        "ev.passed",
        "ev.spot_on",
        "player.code_help_one",
    }
)

CODES = (
    [f"reason.{code}" for code in ReasonCode]
    + [f"error.{code}" for code in ErrorCode]
    + [f"notation.{code}" for code in NotationCode]
)


def forms(lang: str, key: str) -> list[str]:
    """The words of ``key`` in ``lang``: the key itself, or its two plural forms."""
    table = CATALOGUE[lang]
    if key in table:
        return [table[key]]
    return [table[k] for k in (f"{key}_one", f"{key}_other") if k in table]


@pytest.mark.parametrize("key", CODES)
def test_every_code_is_worded_in_every_language(key: str) -> None:
    english = forms("en", key)
    assert english and all(w.strip() for w in english), f"{key} has no English words"
    for lang in LANGS:
        words = forms(lang, key)
        assert len(words) == len(english) and all(w.strip() for w in words), (lang, key)


def test_a_reason_for_you_is_a_form_of_a_reason_about_a_player() -> None:
    """``reason.<code>_you`` speaks to the player the reason names: its code carries a player,
    and its words have no {player}."""
    for key in CATALOGUE["en"]:
        if key.startswith("reason.") and key.endswith("_you"):
            base = key.removesuffix("_you")
            assert base.removeprefix("reason.") in set(ReasonCode), key
            assert "player" in placeholders(CATALOGUE["en"][base]), key
            for lang in LANGS:
                assert "player" not in placeholders(CATALOGUE[lang][key]), (lang, key)


def test_every_key_is_in_every_language_with_the_same_placeholders() -> None:
    english = CATALOGUE["en"]
    differ = set()
    for lang in LANGS:
        table = CATALOGUE[lang]
        assert set(table) == set(english), (
            f"{lang}: missing {sorted(set(english) - set(table))[:5]}, "
            f"extra {sorted(set(table) - set(english))[:5]}"
        )
        for key, words in table.items():
            if placeholders(words) != placeholders(english[key]):
                differ.add(key)
    assert differ == PLACEHOLDERS_DIFFER, "placeholders differ between languages: " + ", ".join(
        sorted(differ ^ PLACEHOLDERS_DIFFER)
    )


# ------------------------------------------------------------------- the terminal


def screen_trees() -> Iterator[tuple[str, ast.Module]]:
    for name in SCREENS:
        path = TERMINAL / f"{name}.py"
        yield name, ast.parse(path.read_text(encoding="utf-8"))


#: How the terminal asks for a message: the function, and where the key is among its
#: arguments (``self.t(key)``, ``text(lang, key)``, ``counted(lang, key, n)`` ...).
KEY_ARGUMENT = {"t": 0, "about": 0, "has": 0, "message": 1, "text": 1, "template": 1, "counted": 1}


def keys_asked(tree: ast.Module) -> Iterator[tuple[int, str, bool]]:
    """(line, key, counted) of every message asked for by a literal key."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        where = KEY_ARGUMENT.get(name or "")
        if where is None or len(node.args) <= where:
            continue
        arg = node.args[where]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            yield node.lineno, arg.value, name == "counted"


def test_every_key_the_terminal_asks_for_exists() -> None:
    missing = []
    asked = 0
    for name, tree in screen_trees():
        for line, key, plural in keys_asked(tree):
            asked += 1
            wanted = [f"{key}_one", f"{key}_other"] if plural else [key]
            missing += [f"{name}:{line} {key_of(k)}" for k in wanted if not has(k)]
    assert asked > 150, asked  # the walk finds the terminal's messages
    assert not missing, missing


#: The fields a way of asking fills in itself.
IMPLIED = {"about": {"name"}, "counted": {"count"}}


def test_the_terminal_fills_every_placeholder_of_what_it_asks_for() -> None:
    """A message asked for with its fields named gets every one its words use, in every
    language (a placeholder without a field would show as it is)."""
    unfilled = []
    for name, tree in screen_trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or any(k.arg is None for k in node.keywords):
                continue  # not a call, or its fields are passed on as a whole
            func = node.func
            how = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            where = KEY_ARGUMENT.get(how)
            if how in ("has", "template") or where is None or len(node.args) <= where:
                continue
            arg = node.args[where]
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                continue
            given = {k.arg for k in node.keywords if k.arg} | IMPLIED.get(how, set())
            keys = [arg.value]
            if how == "counted":
                keys = [f"{arg.value}_one", f"{arg.value}_other"]
            elif how == "about":
                keys += [f"{arg.value}_you"] if has(f"{arg.value}_you") else []
            for lang in LANGS:
                for key in keys:
                    missing = placeholders(CATALOGUE[lang][key_of(key)]) - given
                    if missing:
                        unfilled.append(f"{name}:{node.lineno} {lang} {key}: {sorted(missing)}")
    assert not unfilled, unfilled


def test_every_key_the_terminal_makes_exists() -> None:
    """The keys the terminal builds from a value (``visibility_{value}``, ``hand.{hand}``)."""
    made = [f"visibility_{v}" for v in ("normal", "closed", "open")]
    made += [f"face_change_{c.value}" for c in ObligeFaceChange]
    made += [f"hand.{h.value}" for h in PassHand]
    made += [str(d) for d in Direction]
    made += [f"cup_help_{c}" for c in ("roll", "remove", "add", "toggle", "hide", "show")]
    made += [f"cup_help_{c}" for c in ("status", "new", "help", "quit")]
    made += [f"cup_error_{code}" for code in CupCode]
    assert [key_of(k) for k in made if not has(k)] == []


# A sentence: three words or more, in any script, with spaces or a little punctuation between.
_PROSE = re.compile(r"[^\W\d_]{2,}(?:[^\w.\-]{1,2}[^\W\d_]+){2,}")


def own_words(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Text constants that read as words, besides docstrings and the messages of errors raised
    for a caller (the library's English, as the engine's)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr):
                skipped.add(id(first.value))
        if isinstance(node, ast.Raise):
            skipped.update(id(n) for n in ast.walk(node))
    constants = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in skipped]
    for node in constants:
        if isinstance(node.value, str) and _PROSE.search(node.value):
            yield node.lineno, node.value


def test_the_terminal_says_nothing_outside_the_catalogue() -> None:
    found = [
        f"{name}:{line} {words!r}"
        for name, tree in screen_trees()
        for line, words in own_words(tree)
    ]
    assert not found, found


def test_the_sentence_finder_finds_sentences() -> None:
    tree = ast.parse(
        '"""A docstring, not a message."""\nx = "Lost a die: 4 left."\ny = "cup_title"\n'
    )
    assert [words for _, words in own_words(tree)] == ["Lost a die: 4 left."]


def test_texts_holds_no_table_of_words() -> None:
    """texts.py reads the catalogue: no table of words and no sentence of its own."""
    tree = ast.parse((TERMINAL / "texts.py").read_text(encoding="utf-8"))
    tables = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        and any(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in node.values)
    ]
    assert not tables
    assert not list(own_words(tree))


# ------------------------------------------------------------------- the web client

# t("key"), tNodes("key", ...) in the scripts; data-i18n="key" (and its -placeholder,
# -aria-label, -title, -page kinds) in the pages.
_WEB_KEYS = re.compile(r'\b(?:t|tNodes)\(\s*"([\w.\-]+)"|data-i18n(?:-[a-z-]+)?="([\w.\-]+)"')


def test_every_key_the_web_client_asks_for_exists() -> None:
    missing = []
    asked = 0
    for path in sorted([*WEB.glob("*.js"), *WEB.glob("*.html")]):
        source = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        for match in _WEB_KEYS.finditer(source):
            key = match[1] or match[2]
            asked += 1
            if not (key in CATALOGUE["en"] or f"{key}_one" in CATALOGUE["en"]):
                missing.append(f"{path.name}: {key}")
    assert asked > 300, asked
    assert not missing, missing


def test_every_preset_has_a_name_for_people() -> None:
    """The web client shows ``preset_name.<id>`` for a preset (the id stays the form's value)."""
    from dudo.engine.rules import PRESETS

    missing = [name for name in PRESETS if not has(f"preset_name.{name}")]
    assert not missing, missing
