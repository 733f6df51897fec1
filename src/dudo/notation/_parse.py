"""Reading bids and calls typed in English, Spanish or Italian (see :func:`parse_action`)."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

from dudo.engine.actions import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    RevealBid,
    Spoken,
)
from dudo.engine.errors import NotationCode, NotationError
from dudo.notation._format import long_bid
from dudo.notation._words import (
    CALL_SYNONYMS,
    CALL_TEXT,
    FACE_WORDS,
    LANGUAGES,
    MAX_FACES,
    REVEAL_SYNONYMS,
    REVEAL_TEXT,
    number_spellings,
)

# Digit quantities are accepted up to this (no table holds more dice); words go to 99.
MAX_QUANTITY: Final = 999

_TRY: Final = "try 5x3, five threes, cinco trenes, dudo, calzo, paso"

# Digits, words, the "times" signs, then punctuation that only separates. Anything else is an
# error, so that e.g. "5/3" or "5x3 @" is not silently read as 5x3.
_TOKEN = re.compile(
    r"(?P<digits>[0-9]+)"
    r"|(?P<word>[^\W\d_]+)"
    r"|(?P<times>[×*])"
    r"|(?P<skip>[\s.,;:!?¡¿()\[\]{}'\"‘’“”«»\-‐‑–—_]+)"
    r"|(?P<bad>.)",
    re.DOTALL,
)


def _fold(text: str) -> str:
    """Case-, width- and accent-insensitive form: "Veintiún ÁSES" -> "veintiun ases"."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def _shown(text: str) -> str:
    """The user's text for an error message, cut short if long."""
    text = text.strip()
    return text if len(text) <= 40 else text[:37] + "..."


def _tokens(text: str) -> list[str]:
    """Words and digit runs of ``text``; "×" and "*" become the word "x"."""
    tokens: list[str] = []
    for m in _TOKEN.finditer(_fold(text)):
        kind = m.lastgroup
        if kind == "bad":
            raise NotationError(
                f"'{_shown(text)}': unexpected character {m.group()!r}; {_TRY}",
                NotationCode.UNEXPECTED_CHARACTER,
                text=_shown(text),
                char=m.group(),
            )
        if kind == "times":
            tokens.append("x")
        elif kind != "skip":
            tokens.append(m.group())
    return tokens


def _key(phrase: str) -> tuple[str, ...]:
    return tuple(_tokens(phrase))


def _build_calls() -> dict[tuple[str, ...], Action]:
    by_canonical: dict[str, Action] = {
        str(a): a for a in (CALL, SPOT_ON, PASS, DOUBT_PASS, OPEN, CLOSED)
    }
    calls: dict[tuple[str, ...], Action] = {}
    for canonical, action in by_canonical.items():
        phrases = [canonical, *CALL_SYNONYMS[canonical]]
        phrases += [CALL_TEXT[lang][canonical] for lang in LANGUAGES]
        for phrase in phrases:
            calls[_key(phrase)] = action
    return calls


def _build_numbers() -> tuple[dict[tuple[str, ...], int], dict[tuple[str, ...], str]]:
    """Number phrases (as token tuples) to values, and to the language they come from."""
    values: dict[tuple[str, ...], int] = {}
    langs: dict[tuple[str, ...], str] = {}
    for lang in LANGUAGES:
        for spelling, n in number_spellings(lang).items():
            key = _key(spelling)
            # The languages share some words ("uno", "un"); they must agree on the value.
            assert values.setdefault(key, n) == n, (spelling, n)
            langs.setdefault(key, lang)
    return values, langs


def _build_faces() -> tuple[dict[str, int], dict[str, str]]:
    values: dict[str, int] = {}
    langs: dict[str, str] = {}
    for lang in LANGUAGES:
        for face, words in FACE_WORDS[lang].items():
            for word in words:
                token = _fold(word)
                assert values.setdefault(token, face) == face, (word, face)
                langs.setdefault(token, lang)
    return values, langs


_CALLS: Final = _build_calls()
_NUMBERS, _NUMBER_LANGS = _build_numbers()
_FACES, _FACE_LANGS = _build_faces()
_REVEAL: Final = frozenset(
    _fold(word) for words in (*REVEAL_TEXT.values(), REVEAL_SYNONYMS) for word in words
)


def _is_digits(token: str) -> bool:
    return token.isascii() and token.isdigit()


def _digits_value(token: str) -> int:
    """The value of a digit run, capped so that huge inputs stay cheap (and stay too large)."""
    token = token.lstrip("0") or "0"
    return int(token) if len(token) <= 6 else 10**6


def _quantity(tokens: list[str]) -> int | None:
    if len(tokens) == 1 and _is_digits(tokens[0]):
        return _digits_value(tokens[0])
    return _NUMBERS.get(tuple(tokens))


def _face(token: str) -> int | None:
    """The face a token names, or a number that cannot be a face ("sevens" -> 7), or None."""
    if token in _FACES:
        return _FACES[token]
    if _is_digits(token):
        return _digits_value(token)
    # Other number words are read only to say that there is no such face.
    for stem in (token, token.removesuffix("s"), token.removesuffix("es")):
        n = _NUMBERS.get((stem,))
        if n is not None and not 1 <= n <= MAX_FACES:
            return n
    return None


class _Reader:
    """Reads one bid; holds the text and face count so error messages can quote them."""

    def __init__(self, text: str, faces: int) -> None:
        self.shown = _shown(text)
        self.faces = faces

    def fail(self, why: str, code: NotationCode, **params: int | str) -> NotationError:
        return NotationError(f"'{self.shown}': {why}", code, text=self.shown, **params)

    def no_face(self, face: int) -> NotationError:
        if face > MAX_QUANTITY:
            why = f"there is no face that large (faces are 1-{self.faces})"
            return self.fail(why, NotationCode.FACE_TOO_LARGE, faces=self.faces)
        why = f"there is no face {face} (faces are 1-{self.faces})"
        return self.fail(why, NotationCode.NO_SUCH_FACE, face=face, faces=self.faces)

    def check_face(self, face: int) -> int:
        if not 1 <= face <= self.faces:
            raise self.no_face(face)
        return face

    def check_quantity(self, quantity: int) -> int:
        if quantity < 1:
            raise self.fail("the quantity must be at least 1", NotationCode.QUANTITY_MIN)
        if quantity > MAX_QUANTITY:
            why = f"the quantity is too large (at most {MAX_QUANTITY})"
            raise self.fail(why, NotationCode.QUANTITY_MAX, most=MAX_QUANTITY)
        return quantity

    def bid(self, tokens: list[str]) -> Bid:
        if not tokens:
            why = "there is no bid before the revealed dice; try '5x3 reveal 3,3'"
            raise self.fail(why, NotationCode.NO_BID_BEFORE_REVEAL)
        # One "x" may stand between quantity and face ("5x3", "5 x 3", "five x threes").
        if len(tokens) >= 3 and tokens[-2] == "x":
            tokens = tokens[:-2] + tokens[-1:]
        if tokens[-1] == "x" and len(tokens) > 1:
            raise self.fail("there is no face after 'x'; try '5x3'", NotationCode.NO_FACE_AFTER_X)
        if tokens[0] == "x" and len(tokens) > 1:
            why = "there is no quantity before 'x'; try '5x3'"
            raise self.fail(why, NotationCode.NO_QUANTITY_BEFORE_X)
        *quantity_tokens, face_token = tokens
        quantity = _quantity(quantity_tokens) if quantity_tokens else None
        face = _face(face_token)
        if quantity is not None and face is not None and 1 <= face <= self.faces:
            return Bid(self.check_quantity(quantity), face)

        # "twenty seven" is a quantity without a face rather than a bid on a face 7.
        whole = _quantity(tokens)
        if whole is not None:
            lang = _NUMBER_LANGS.get(tuple(tokens), "en")
            face = min(3, self.faces)
            example = long_bid(Bid(self.check_quantity(whole), face), lang)
            raise NotationError(
                f"'{self.shown}' has a quantity but no face; try '{whole}x{face}' or '{example}'",
                NotationCode.QUANTITY_NO_FACE,
                text=self.shown,
                quantity=whole,
            )
        if not quantity_tokens and face is not None:
            example = long_bid(Bid(5, self.check_face(face)), _FACE_LANGS.get(face_token, "en"))
            raise NotationError(
                f"'{self.shown}' has a face but no quantity; try '5x{face}' or '{example}'",
                NotationCode.FACE_NO_QUANTITY,
                text=self.shown,
                face=face,
            )
        if quantity is not None and face is not None:
            raise self.no_face(face)
        if quantity is None and face is None:
            raise NotationError(
                f"'{self.shown}' is not a bid or call; {_TRY}",
                NotationCode.NOT_A_MOVE,
                text=self.shown,
            )
        if quantity is None:
            word = _shown(" ".join(quantity_tokens))
            raise self.fail(
                f"'{word}' is not a quantity; quantities are like 5, five, cinco, cinque",
                NotationCode.NOT_A_QUANTITY,
                word=word,
            )
        raise self.fail(
            f"'{_shown(face_token)}' is not a face; faces are 1-{self.faces} or words like "
            "threes, trains, trenes, tre",
            NotationCode.NOT_A_FACE,
            word=_shown(face_token),
            faces=self.faces,
        )

    def reveal(self, tokens: list[str]) -> tuple[int, ...]:
        if not tokens:
            why = "name the revealed dice, e.g. '5x3 reveal 3,3'"
            raise self.fail(why, NotationCode.NO_REVEALED_DICE)
        values: list[int] = []
        for token in tokens:
            if not _is_digits(token):
                raise self.fail(
                    f"'{_shown(token)}' is not a revealed die; write them like '3,3'",
                    NotationCode.NOT_A_REVEALED_DIE,
                    word=_shown(token),
                )
            values.append(self.check_face(_digits_value(token)))
        return tuple(values)


def parse_action(text: str, faces: int = 6) -> Action:
    """Read a bid or call typed in English, Spanish or Italian; see :mod:`dudo.notation`.

    ``faces`` is the number of faces of the dice in play (a face above it is an error).
    Raises :class:`NotationError` (and nothing else) for anything it cannot read.
    """
    # A server reads the same few actions all day: short texts read before are remembered
    # (what cannot be read raises, and is not remembered).
    if type(text) is str and len(text) <= _REMEMBERED_LENGTH and type(faces) is int:
        return _parse_remembered(text, faces)
    return _parse(text, faces)


#: The longest text whose reading is remembered (a bid in words is well within it).
_REMEMBERED_LENGTH: Final = 40


def _parse(text: str, faces: int) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not text")
    if not 2 <= faces <= MAX_FACES:
        raise NotationError(f"faces={faces} is outside 2..{MAX_FACES}")
    tokens = _tokens(text)
    if not tokens:
        raise NotationError(
            f"there is nothing to read in '{_shown(text)}'; {_TRY}",
            NotationCode.NOTHING,
            text=_shown(text),
        )
    call = _CALLS.get(tuple(tokens))
    if call is not None:
        return call
    reader = _Reader(text, faces)
    if tokens[0] == "said" and len(tokens) > 1:  # a record's bid said aloud: "said 5x3 pass"
        passed = tokens[-1] == "pass"
        return Spoken(reader.bid(tokens[1 : -1 if passed else None]), None, passed)
    # Everything after the first reveal word is the revealed dice.
    for i, token in enumerate(tokens):
        if token in _REVEAL:
            return RevealBid(reader.bid(tokens[:i]), reader.reveal(tokens[i + 1 :]))
    return reader.bid(tokens)


_parse_remembered = functools.lru_cache(maxsize=4096)(_parse)
