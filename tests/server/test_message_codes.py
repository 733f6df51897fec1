"""Every code the server can send a person has words in every language of the web client.

The engine's reasons (``ReasonCode``) and the server's refusals (``ErrorCode``) are registries:
each member must have a non-empty ``reason.<code>`` / ``error.<code>`` text (or both plural
forms, ``_one`` and ``_other``) in en, es and it, with the same placeholders in every language,
and the Spanish and Italian texts must not be the English one. Reasons the engine really gives
are checked against the registry too, from games that reach them.
"""

from __future__ import annotations

import re

import pytest

from dudo.engine import CALL, Bid, Game, Pass, Reason, ReasonCode, SpotOn
from dudo.engine.rules import PRESETS
from dudo.server.errors import ErrorCode

from .conftest import words

LANGS = ("en", "es", "it")
#: Texts of the client itself (not a server code) that word a refusal.
CLIENT_CODES = ("error.network",)


def forms(texts: dict[str, str], key: str) -> list[str]:
    """The texts of ``key``: the key itself, or its two plural forms."""
    plural = [f"{key}_one", f"{key}_other"]
    if all(k in texts for k in plural):
        return [texts[k] for k in plural]
    return [texts[key]] if key in texts else []


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


KEYS = [f"reason.{code}" for code in ReasonCode] + [f"error.{code}" for code in ErrorCode]


@pytest.mark.parametrize("key", [*KEYS, *CLIENT_CODES])
def test_every_code_is_worded_in_every_language(key: str) -> None:
    english = forms(words("en"), key)
    assert english and all(t.strip() for t in english), f"{key} has no English text"
    for lang in LANGS[1:]:
        texts = forms(words(lang), key)
        assert len(texts) == len(english), (
            f"{key}: {lang} has {len(texts)} forms, en {len(english)}"
        )
        for mine, theirs in zip(texts, english, strict=True):
            assert mine.strip(), f"{key} is empty in {lang}"
            assert mine != theirs, f"{key} is still English in {lang}: {mine!r}"
            assert placeholders(mine) == placeholders(theirs), (
                f"{key}: {lang} fills {placeholders(mine)}, en {placeholders(theirs)}"
            )


def test_no_words_for_codes_that_do_not_exist() -> None:
    """A text of a removed code is a sign the registries and the words drifted apart. A code
    has its text, its two plural forms, or (a reason, for the terminal) its ``_you`` form."""
    known = {*KEYS, *CLIENT_CODES}
    for key in words("en"):
        if key.startswith(("reason.", "error.")):
            base = re.sub(r"_(one|other|you)$", "", key)
            assert key in known or base in known, f"{key} words no code"


def reasons_met() -> list[Reason]:
    """Reasons the engine gives in real positions: a spread of refusals, not a list of codes."""
    found: list[Reason] = []
    for name in ("dudo", "perudo"):
        game = Game(PRESETS[name], 3, seed=7)
        for action in (CALL, SpotOn(), Pass(), Bid(99, 2), Bid(1, 9), Bid(1, 1)):
            why = game.problem(action)
            if why is not None:
                found.append(why)
        game.push(Bid(2, 3))
        for action in (Bid(1, 3), Bid(2, 3), Bid(2, 2), Bid(1, 1), Bid(1, 4)):
            why = game.problem(action)
            if why is not None:
                found.append(why)
    return found


def test_engine_reasons_carry_a_registered_code_and_their_english() -> None:
    found = reasons_met()
    assert len({r.code for r in found}) >= 5, [r.code for r in found]
    en = words("en")
    for why in found:
        assert isinstance(why, str) and why.code in set(ReasonCode), why
        assert str(why) and forms(en, f"reason.{why.code}"), why.code
        for name in placeholders(" ".join(forms(en, f"reason.{why.code}"))):
            assert name in why.params, f"{why.code}: the words need {name}, params {why.params}"
